//! `BPServiceActor.CommandProcessingThread` ("Command processor"): takes the command batches the
//! actor thread enqueued from heartbeat responses, one at a time, and runs
//! `BPOfferService.processCommandFromActor` on each command. DNA_REGISTER runs
//! `BPServiceActor.reRegister` without the BPOfferService lock (HDFS-5014) and skips the rest of
//! its batch. Every heartbeat answered with REGISTER while a registration is in progress queues
//! one more.

use super::actor::BPServiceActor;
use super::namenode::HaState;
use super::threads::command_thread;
use super::{World, P1};
use crate::model::Program;
use crate::trace::{Cx, Trace};

/// P2: no IBR lost on re-registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P2 {
    Off,
    /// `reRegister` keeps the pending IBRs (no `clearIBRs`).
    Keep,
    /// Mutant: `clearIBRs` synchronized, still clearing.
    SyncOnly,
}

/// P3: stale DNA_REGISTER dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P3 {
    Off,
    /// A REGISTER is tagged with the registration its RPC was sent under (the heartbeat's, or
    /// the FBR's drain's), and dropped when a newer registration has completed.
    Drop,
    /// Mutant: the REGISTER an FBR's answer carries is tagged with the registration current
    /// when `blockReport` returns, not the one the FBR was sent under.
    LateTag,
    /// Mutant: the REGISTER a heartbeat's answer carries is enqueued untagged (Java: a null
    /// tag, taken as fresh), so only the FBR's answer is checked: a stale heartbeat REGISTER
    /// re-registers (the report's REG2).
    HeartbeatUntagged,
    /// Mutant of the harness's own tests (issue 37's hang): the REGISTER an FBR's answer
    /// carries is never enqueued, so the setup of `fbr-register`, which takes that REGISTER as
    /// REG2, finds the command queue empty.
    #[cfg(test)]
    LostFbrRegister,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Take,
    ClearIbrs,
    RegisterDatanode,
    Registered,
    ScheduleBlockReport,
    SetReset,
    ScheduleHeartbeat,
    Done,
}

/// The command thread of pair (`dn`, `nn`) processing one queued batch.
pub struct ProcessCommand {
    name: &'static str,
    cx: Cx,
    dn: usize,
    nn: usize,
    next: Step,
}

impl ProcessCommand {
    pub fn new(trace: &Trace, dn: usize, nn: usize) -> Self {
        let name = command_thread(dn, nn);
        ProcessCommand {
            name,
            cx: trace.actor(name),
            dn,
            nn,
            next: Step::Take,
        }
    }
}

impl Program<World> for ProcessCommand {
    fn actor(&self) -> &'static str {
        self.name
    }

    fn is_done(&self) -> bool {
        self.next == Step::Done
    }

    fn enabled(&self, w: &World) -> bool {
        match self.next {
            Step::Done => false,
            Step::Take => !w.actor(self.dn, self.nn).queue.is_empty(),
            _ => true,
        }
    }

    fn next_step(&self) -> Option<String> {
        Some(match self.next {
            Step::Take => "queue.take() (CommandProcessingThread.processQueue)".to_owned(),
            step => format!("{step:?}"),
        })
    }

    fn step(&mut self, w: &World) {
        let actor: &BPServiceActor = w.actor(self.dn, self.nn);
        let cx = &self.cx;
        let now = w.clock.now();
        self.next = match self.next {
            Step::Take => {
                let batch = actor.queue.take();
                let current = actor.registration();
                if w.fix.drop_stale_register.get() != P3::Off && batch.sent_under < current {
                    crate::record!(
                        cx,
                        "BPOfferService.processCommandFromActor",
                        "DNA_REGISTER sent under registration {} < {current}: stale, dropped",
                        batch.sent_under
                    );
                    Step::Done
                } else {
                    w.ghost.re_registering(self.dn, self.nn, &batch, current);
                    crate::record!(
                        cx,
                        "BPOfferService.processCommandFromActor",
                        "DNA_REGISTER (sent under registration {}, current {current}) -> \
                             reRegister",
                        batch.sent_under
                    );
                    Step::ClearIbrs
                }
            }
            Step::ClearIbrs => {
                // The versionRequest RPC before it (retried every 5 s while the NameNode is
                // busy) is slow but touches no shared state: it is part of this step.
                cx.record("BPServiceActor.retrieveNamespaceInfo", "versionRequest");
                // HDFS-9917, moved before register by HDFS-15113.
                let state = actor.state();
                crate::record!(cx, "BPServiceActor.reRegister", "state {state:?}");
                if matches!(state, HaState::Standby | HaState::Observer) {
                    match w.fix.keep_ibrs.get() {
                        P2::Keep => crate::record!(
                            cx,
                            "BPServiceActor.reRegister",
                            "{state:?}: pendingIBRs kept (P2)"
                        ),
                        p2 => {
                            let synchronized =
                                p2 == P2::SyncOnly || w.fix.clear_ibrs_synchronized.get();
                            actor.ibrs.clear_ibrs(cx, synchronized, |dropped| {
                                w.ghost.dropped(self.dn, self.nn, dropped, false)
                            })
                        }
                    }
                }
                Step::RegisterDatanode
            }
            Step::RegisterDatanode => {
                w.namenodes[self.nn].register_datanode(cx, self.dn, now);
                Step::Registered
            }
            Step::Registered => {
                let registration = actor.registered();
                actor.zero_lease_on_register();
                crate::record!(
                    cx,
                    "BPServiceActor.register",
                    "bpRegistration={registration}, fullBlockReportLeaseId=0"
                );
                Step::ScheduleBlockReport
            }
            Step::ScheduleBlockReport => {
                if w.fix.sticky_fbr_request.get() == P1::Off {
                    actor.scheduler.schedule_block_report_time(cx, now, || {
                        w.ghost.requested(self.dn, self.nn)
                    });
                    Step::SetReset
                } else {
                    actor.scheduler.request_registration_report(cx, now, || {
                        w.ghost.requested(self.dn, self.nn)
                    });
                    Step::ScheduleHeartbeat
                }
            }
            Step::SetReset => {
                actor.scheduler.set_reset(cx, true);
                Step::ScheduleHeartbeat
            }
            Step::ScheduleHeartbeat => {
                actor.scheduler.schedule_heartbeat(cx, now);
                Step::Done
            }
            Step::Done => Step::Done,
        };
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::actor::ActorStart;
    use super::super::command_queue::{Batch, CommandQueue};
    use super::super::Fix;
    use super::*;
    use std::collections::HashSet;

    /// The batches a queue can hold in the histories: REGISTER or not, sent under a few
    /// registrations.
    fn batches() -> Vec<Batch> {
        (0..4)
            .flat_map(|sent_under| {
                [true, false].map(|register| Batch {
                    register,
                    sent_under,
                    truly_sent_under: sent_under,
                })
            })
            .collect()
    }

    /// The memo and every state comparison read a queue through its fingerprint: two queues of up
    /// to two batches that differ have different fingerprints.
    #[test]
    fn the_fingerprint_tells_every_queue_apart() {
        let cx = Trace::new().actor("test");
        let mut queues: Vec<Vec<Batch>> = vec![vec![]];
        for a in batches() {
            queues.push(vec![a]);
            queues.extend(batches().into_iter().map(|b| vec![a, b]));
        }
        let fingerprints: HashSet<Vec<u64>> = queues
            .iter()
            .map(|batches| {
                let queue = CommandQueue::default();
                for &b in batches {
                    queue.enqueue(&cx, b);
                }
                let mut fingerprint = Vec::new();
                queue.fingerprint(&mut fingerprint);
                fingerprint
            })
            .collect();
        assert_eq!(
            fingerprints.len(),
            queues.len(),
            "two queues share a fingerprint"
        );
    }

    /// `queue.take()` blocks on an empty queue: the step driver must not run it then.
    #[test]
    fn take_is_enabled_only_with_a_batch_queued() {
        let trace = Trace::new();
        let start = ActorStart {
            lease: 0,
            state: HaState::Standby,
            registration: 1,
            next_block_report: 1_000_000_000,
            reset: false,
            next_heartbeat: 0,
            plain_reset: false,
        };
        let w = World::new(Fix::UPSTREAM, &trace, 1, &[HaState::Standby], start);
        let processor = ProcessCommand::new(&trace, 0, 0);
        assert!(!processor.enabled(&w), "take enabled on an empty queue");
        w.actor(0, 0)
            .queue
            .enqueue(&trace.actor("test"), Batch::register(1));
        assert!(
            processor.enabled(&w),
            "take not enabled with a batch queued"
        );
    }
}
