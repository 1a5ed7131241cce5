//! `BPServiceActor.CommandProcessingThread` ("Command processor"): takes the command batches the
//! actor thread enqueued from heartbeat responses, one at a time, and runs
//! `BPOfferService.processCommandFromActor` on each command. DNA_REGISTER runs
//! `BPServiceActor.reRegister` without the BPOfferService lock (HDFS-5014) and skips the rest of
//! its batch. Every heartbeat answered with REGISTER while a registration is in progress queues
//! one more.

use super::actor::BPServiceActor;
use super::namenode::HaState;
use super::{command_thread, wrote, World, P1, P2, P3};
use crate::model::Program;
use crate::sync::{Condvar, Mutex};
use crate::trace::{Cx, Trace};
use std::collections::VecDeque;

/// The commands of one heartbeat response (only DNA_REGISTER matters here; an empty array is
/// not enqueued upstream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub register: bool,
    /// P3's tag: the registration (`bpRegistration` generation) the answered RPC was sent
    /// under, as the DataNode records it (a P3 mutant records another).
    pub sent_under: u64,
    /// Ghost: the registration the RPC was really sent under (what O8 reads; no step reads it).
    pub truly_sent_under: u64,
}

impl Batch {
    /// A REGISTER answered to an RPC sent under `truly_sent_under`, tagged `tag`.
    pub fn register_tagged(tag: u64, truly_sent_under: u64) -> Self {
        Batch {
            register: true,
            sent_under: tag,
            truly_sent_under,
        }
    }

    /// A REGISTER tagged with the registration its RPC was sent under.
    pub fn register(sent_under: u64) -> Self {
        Self::register_tagged(sent_under, sent_under)
    }
}

/// The `LinkedBlockingQueue<Runnable>`.
#[derive(Debug, Default)]
pub struct CommandQueue {
    queue: Mutex<VecDeque<Batch>>,
    not_empty: Condvar,
}

impl CommandQueue {
    /// `enqueue(cmds)`: `queue.put`.
    pub fn enqueue(&self, cx: &Cx, batch: Batch) {
        wrote();
        let mut q = self.queue.lock();
        q.push_back(batch);
        let len = q.len();
        drop(q);
        self.not_empty.notify_all();
        cx.record(
            "CommandProcessingThread.enqueue",
            format_args!(
                "[REGISTER] (sent under registration {}), queue length {len}",
                batch.sent_under
            ),
        );
    }

    /// `queue.take()`: blocks until a batch is there.
    fn take(&self) -> Batch {
        wrote();
        let mut q = self.queue.lock();
        loop {
            if let Some(batch) = q.pop_front() {
                return batch;
            }
            q = self.not_empty.wait(q);
        }
    }

    pub fn duplicate(&self) -> Self {
        CommandQueue {
            queue: Mutex::new(self.queue.lock().clone()),
            not_empty: Condvar::new(),
        }
    }

    /// Appends the batches to `key` (see `World::key`).
    pub fn key(&self, key: &mut Vec<u64>) {
        let queue = self.queue.lock();
        key.push(queue.len() as u64);
        key.extend(
            queue
                .iter()
                .map(|b| b.truly_sent_under << 33 | b.sent_under << 1 | u64::from(b.register)),
        );
    }

    pub fn is_empty(&self) -> bool {
        self.queue.lock().is_empty()
    }
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

    fn step(&mut self, w: &World) {
        let actor: &BPServiceActor = w.actor(self.dn, self.nn);
        let cx = &self.cx;
        let now = w.clock.now();
        self.next = match self.next {
            Step::Take => {
                let batch = actor.queue.take();
                let current = actor.registration();
                if w.fix.p3.get() != P3::Off && batch.sent_under < current {
                    cx.record(
                        "BPOfferService.processCommandFromActor",
                        format_args!(
                            "DNA_REGISTER sent under registration {} < {current}: stale, dropped",
                            batch.sent_under
                        ),
                    );
                    Step::Done
                } else {
                    if batch.truly_sent_under < current {
                        w.ghost
                            .stale_register(self.dn, self.nn, batch.truly_sent_under, current);
                    }
                    cx.record(
                        "BPOfferService.processCommandFromActor",
                        format_args!(
                            "DNA_REGISTER (sent under registration {}, current {current}) -> \
                             reRegister",
                            batch.sent_under
                        ),
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
                cx.record("BPServiceActor.reRegister", format_args!("state {state:?}"));
                if matches!(state, HaState::Standby | HaState::Observer) {
                    match w.fix.p2.get() {
                        P2::Keep => cx.record(
                            "BPServiceActor.reRegister",
                            format_args!("{state:?}: pendingIBRs kept (P2)"),
                        ),
                        p2 => {
                            let synchronized = p2 == P2::SyncOnly || w.fix.h17953.get();
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
                actor.set_lease(0);
                cx.record(
                    "BPServiceActor.register",
                    format_args!("bpRegistration={registration}, fullBlockReportLeaseId=0"),
                );
                Step::ScheduleBlockReport
            }
            Step::ScheduleBlockReport => {
                if w.fix.p1.get() == P1::Off {
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

    /// The memo and every state comparison read a queue through its key: two queues of up to
    /// two batches that differ have different keys.
    #[test]
    fn the_key_tells_every_queue_apart() {
        let cx = Trace::new().actor("test");
        let mut queues: Vec<Vec<Batch>> = vec![vec![]];
        for a in batches() {
            queues.push(vec![a]);
            queues.extend(batches().into_iter().map(|b| vec![a, b]));
        }
        let keys: HashSet<Vec<u64>> = queues
            .iter()
            .map(|batches| {
                let queue = CommandQueue::default();
                for &b in batches {
                    queue.enqueue(&cx, b);
                }
                let mut key = Vec::new();
                queue.key(&mut key);
                key
            })
            .collect();
        assert_eq!(keys.len(), queues.len(), "two queues share a key");
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
