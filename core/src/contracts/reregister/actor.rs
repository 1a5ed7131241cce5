//! `BPServiceActor`: one per (DataNode, NameNode) pair, with its actor thread
//! (`offerService`), its IBR manager, its scheduler and its command queue. The actor thread
//! heartbeats, sends IBRs and runs `blockReport` itself: upstream has no separate block-report
//! thread (the report's "BRThread"; HDFS-17121 proposed one and was not merged).

use super::blocks::BlockSet;
use super::command_queue::{Batch, CommandQueue, UNTAGGED};
use super::ibr_manager::{IncrementalBlockReportManager, Reports};
use super::lease::Lease;
use super::namenode::{HaState, NameNode, Rejected, ReportAnswer};
use super::scheduler::{Rescheduled, Scheduler};
use super::speed::counted::{AtomicU64, Ordering::SeqCst};
use super::threads::actor_thread;
use super::{Fix, Millis, World, P1, P3};
use crate::model::Program;
use crate::trace::{Cx, Trace};

#[derive(Debug)]
pub struct BPServiceActor {
    pub dn: usize,
    pub nn: usize,
    pub ibrs: IncrementalBlockReportManager,
    pub scheduler: Scheduler,
    pub queue: CommandQueue,
    /// `fullBlockReportLeaseId`: a plain `long`, set by the actor thread from a heartbeat
    /// response and reset by it after an FBR and by `register` on the command thread.
    lease: Lease,
    /// `state`: the NameNode's HA state as the actor thread last saw it (a plain field the
    /// command thread reads in `reRegister`).
    state: AtomicU64,
    /// `bpRegistration`, as the number of registrations completed (a plain field).
    registration: AtomicU64,
}

/// How a pair's actor is when a scenario or a history starts.
#[derive(Clone, Copy, Debug)]
pub struct ActorStart {
    pub lease: u64,
    pub state: HaState,
    pub registration: u64,
    pub next_block_report: Millis,
    pub reset: bool,
    pub next_heartbeat: Millis,
    /// Whether `resetBlockReportTime` is race-tracked (the scenarios that decide O7).
    pub plain_reset: bool,
}

impl BPServiceActor {
    /// `clear_unlocked`: whether `reRegister`'s `clearIBRs` can run without the IBR manager's
    /// monitor under this fix ([`IncrementalBlockReportManager::new`]).
    pub fn new(dn: usize, nn: usize, start: ActorStart, seed: u64, clear_unlocked: bool) -> Self {
        BPServiceActor {
            dn,
            nn,
            ibrs: IncrementalBlockReportManager::new(clear_unlocked),
            scheduler: Scheduler::new(
                start.next_block_report,
                start.reset,
                start.next_heartbeat,
                seed,
                start.plain_reset,
            ),
            queue: CommandQueue::default(),
            lease: Lease::new(start.lease),
            state: AtomicU64::new(start.state.code()),
            registration: AtomicU64::new(start.registration),
        }
    }

    pub fn duplicate(&self) -> Self {
        BPServiceActor {
            dn: self.dn,
            nn: self.nn,
            ibrs: self.ibrs.duplicate(),
            scheduler: self.scheduler.duplicate(),
            queue: self.queue.duplicate(),
            lease: Lease::new(self.lease()),
            state: AtomicU64::new(self.state.load(SeqCst)),
            registration: AtomicU64::new(self.registration()),
        }
    }

    /// Appends the actor's state, and its components', to `fingerprint` (see `World::fingerprint`).
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        self.ibrs.fingerprint(fingerprint);
        self.scheduler.fingerprint(fingerprint);
        self.queue.fingerprint(fingerprint);
        fingerprint.extend([self.lease(), self.state.load(SeqCst), self.registration()]);
    }

    /// Whether the actor thread's loop, run alone until `until`, would send nothing but
    /// heartbeats the NameNode answers with nothing: no command queued, no lease, no IBR
    /// pending, no FBR due before `until`, and the NameNode holds the node registered (so no
    /// REGISTER and, with no FBR due, no lease is asked for). Such a loop changes only the
    /// heartbeat times (here and in the NameNode's descriptor) and `state`, and leaves the
    /// pair as it found it: a fixpoint of quiescence for everything an outcome reads.
    pub fn is_calm(&self, nn: &NameNode, until: Millis) -> bool {
        self.queue.is_empty()
            && self.lease() == 0
            && self.ibrs.nothing_pending()
            && !self.scheduler.is_block_report_due(until)
            && nn.is_registered(self.dn)
    }

    /// Whether an `offerService` iteration now would read state and write nothing: no command
    /// queued, no heartbeat due, no IBR ready to send, no lease (quiescence skips it).
    pub fn is_idle(&self, now: Millis) -> bool {
        self.queue.is_empty()
            && !self.scheduler.is_heartbeat_due(now)
            && !self.ibrs.send_immediately()
            && self.lease() == 0
    }

    pub fn lease(&self) -> u64 {
        self.lease.get()
    }

    /// A heartbeat answer's lease, on the actor thread.
    pub fn grant_lease(&self, lease: u64) {
        self.lease.grant(lease);
    }

    /// `blockReport`'s `finally`, on the actor thread.
    pub fn zero_lease_after_report(&self) {
        self.lease.zero_after_report();
    }

    /// `register`'s reset, on the command thread.
    pub fn zero_lease_on_register(&self) {
        self.lease.zero_on_register();
    }

    pub fn state(&self) -> HaState {
        HaState::from_code(self.state.load(SeqCst))
    }

    pub fn set_state(&self, ha: HaState) {
        self.state.store(ha.code(), SeqCst);
    }

    pub fn registration(&self) -> u64 {
        self.registration.load(SeqCst)
    }

    /// `register`'s `bpRegistration = newBpRegistration`.
    pub fn registered(&self) -> u64 {
        self.registration.fetch_add(1, SeqCst) + 1
    }
}

/// Where one `offerService` iteration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Heartbeat,
    SendIbrs,
    IbrRpc(Reports),
    PutMissing(Reports),
    BlockReportDue,
    /// `blockReport(lease)`: (a) `sendIBRs`, (b) the snapshot, (c) the RPC, (d) `finally` and
    /// `scheduleNextBlockReport`.
    Drain,
    DrainRpc(Reports),
    DrainPutMissing(Reports),
    Snapshot,
    ReportRpc(BlockSet),
    Finally(Result<ReportAnswer, Rejected>),
    Reschedule,
    ClearReset,
    EnqueueRegister,
    Done,
}

/// One iteration of `BPServiceActor.offerService`, on the actor thread of pair (`dn`, `nn`).
pub struct OfferService {
    name: &'static str,
    cx: Cx,
    dn: usize,
    nn: usize,
    next: Phase,
    heartbeat_sent: bool,
    lease: u64,
    epoch_at_start: u64,
    /// The FBR's answer was REGISTER: enqueued once `blockReport` returns, tagged with the
    /// registration the FBR was sent under.
    register_after: bool,
    sent_under: u64,
    /// Whether the iteration sent anything (for quiescence).
    pub worked: bool,
}

impl OfferService {
    /// A whole iteration: heartbeat if due, IBRs, and an FBR if a lease was granted.
    pub fn iteration(trace: &Trace, dn: usize, nn: usize) -> Self {
        Self::from(trace, dn, nn, Phase::Heartbeat)
    }

    /// The rest of an iteration whose heartbeat was answered with a lease: `blockReport`.
    pub fn block_report(trace: &Trace, dn: usize, nn: usize) -> Self {
        Self::from(trace, dn, nn, Phase::BlockReportDue)
    }

    /// Whether the snapshot is the next step (the IBRs are drained).
    pub fn at_snapshot(&self) -> bool {
        matches!(self.next, Phase::Snapshot)
    }

    /// Whether `blockReport`'s RPC is the next step (the snapshot is taken).
    pub fn at_rpc(&self) -> bool {
        matches!(self.next, Phase::ReportRpc(_))
    }

    /// Whether the iteration is about to check for a lease (`blockReport` comes next).
    pub fn at_block_report(&self) -> bool {
        matches!(self.next, Phase::BlockReportDue)
    }

    fn from(trace: &Trace, dn: usize, nn: usize, next: Phase) -> Self {
        let name = actor_thread(dn, nn);
        OfferService {
            name,
            cx: trace.actor(name),
            dn,
            nn,
            next,
            heartbeat_sent: false,
            lease: 0,
            epoch_at_start: 0,
            register_after: false,
            sent_under: 0,
            worked: false,
        }
    }

    /// The IBR RPC of `sendIBRs`; a timeout re-queues (`putMissing`).
    fn send(
        &self,
        w: &World,
        reports: Reports,
        on_failure: fn(Reports) -> Phase,
        then: Phase,
    ) -> Phase {
        match w.namenodes[self.nn].block_received_and_deleted(&self.cx, self.dn, reports.blocks()) {
            Ok(()) => then,
            Err(_) => on_failure(reports),
        }
    }

    /// `putMissing` in `sendIBRs`' `finally`. Either way the iteration ends: the RPC's
    /// `IOException` propagates to `offerService`'s catch, and the `NullPointerException` of a
    /// cleared entry escapes `offerService` to `run()`, which restarts it.
    fn put_missing(&self, w: &World, reports: &Reports) -> Phase {
        let actor = w.actor(self.dn, self.nn);
        let trunk = w.fix.clear_ibrs_synchronized.get();
        let _ = actor
            .ibrs
            .put_missing(&self.cx, reports, trunk, |lost, npe| {
                w.ghost.dropped(self.dn, self.nn, lost, npe)
            });
        Phase::Done
    }
}

impl Program<World> for OfferService {
    fn actor(&self) -> &'static str {
        self.name
    }

    fn is_done(&self) -> bool {
        matches!(self.next, Phase::Done)
    }

    fn step(&mut self, w: &World) {
        let actor = w.actor(self.dn, self.nn);
        let nn = &w.namenodes[self.nn];
        let now = w.clock.now();
        let cx = &self.cx;
        // A copy, not a `mem::replace` with `Done`: no step reads its own phase, and the phase
        // (with the reports it carries) was written twice per step.
        let next = self.next;
        self.next = match next {
            Phase::Heartbeat => {
                if actor.scheduler.is_heartbeat_due(now) {
                    let request = actor.lease() == 0 && actor.scheduler.is_block_report_due(now);
                    let sent_under = actor.registration();
                    actor.scheduler.schedule_next_heartbeat(now);
                    let resp = nn.handle_heartbeat(cx, self.dn, request, now);
                    if resp.lease != 0 {
                        actor.grant_lease(resp.lease);
                    }
                    actor.set_state(resp.ha);
                    if resp.register {
                        let tag = if w.fix.drop_stale_register.get() == P3::HeartbeatUntagged {
                            UNTAGGED
                        } else {
                            sent_under
                        };
                        actor
                            .queue
                            .enqueue(cx, Batch::register_tagged(tag, sent_under));
                    }
                    self.heartbeat_sent = true;
                    self.worked = true;
                }
                Phase::SendIbrs
            }
            Phase::SendIbrs => {
                if actor.ibrs.send_immediately() || self.heartbeat_sent {
                    let reports = actor.ibrs.generate_ibrs(cx, |_| ());
                    if reports.is_empty() {
                        Phase::BlockReportDue
                    } else {
                        self.worked = true;
                        Phase::IbrRpc(reports)
                    }
                } else {
                    Phase::BlockReportDue
                }
            }
            Phase::IbrRpc(reports) => {
                self.send(w, reports, Phase::PutMissing, Phase::BlockReportDue)
            }
            Phase::PutMissing(reports) => self.put_missing(w, &reports),
            Phase::BlockReportDue => {
                self.lease = actor.lease();
                if self.lease == 0 {
                    Phase::Done
                } else {
                    self.worked = true;
                    Phase::Drain
                }
            }
            Phase::Drain => {
                self.epoch_at_start = actor.scheduler.epoch();
                self.sent_under = actor.registration();
                let reports = actor
                    .ibrs
                    .generate_ibrs(cx, |_| w.ghost.drained(self.dn, self.nn));
                if reports.is_empty() {
                    Phase::Snapshot
                } else {
                    Phase::DrainRpc(reports)
                }
            }
            Phase::DrainRpc(reports) => {
                self.send(w, reports, Phase::DrainPutMissing, Phase::Snapshot)
            }
            Phase::DrainPutMissing(reports) => self.put_missing(w, &reports),
            Phase::Snapshot => {
                let snapshot = w.datanodes[self.dn]
                    .dataset
                    .get_block_reports(cx, |s| w.ghost.snapshot(self.dn, self.nn, s));
                Phase::ReportRpc(snapshot)
            }
            Phase::ReportRpc(snapshot) => {
                Phase::Finally(nn.block_report(cx, self.dn, self.lease, snapshot, now))
            }
            Phase::Finally(result) => {
                actor.zero_lease_after_report();
                crate::record!(
                    cx,
                    "BPServiceActor.blockReport",
                    "finally fullBlockReportLeaseId=0{}",
                    if result.is_err() {
                        "; the exception skips scheduleNextBlockReport"
                    } else {
                        ""
                    }
                );
                match result {
                    Ok(ReportAnswer::Processed) => Phase::Reschedule,
                    // The RPC's REGISTER is enqueued after blockReport returns.
                    Ok(ReportAnswer::Register) => {
                        self.register_after = true;
                        Phase::Reschedule
                    }
                    Err(_) => Phase::Done,
                }
            }
            Phase::Reschedule => match reschedule(w.fix, actor, cx, now, self.epoch_at_start) {
                Phase::Done if self.register_after => Phase::EnqueueRegister,
                next => next,
            },
            Phase::ClearReset => {
                actor.scheduler.clear_reset(cx);
                if self.register_after {
                    Phase::EnqueueRegister
                } else {
                    Phase::Done
                }
            }
            Phase::EnqueueRegister => {
                // P3's tag: the registration the FBR was sent under (read at its drain); the
                // mutant reads the registration current now, after blockReport returned.
                let p3 = w.fix.drop_stale_register.get();
                let tag = if p3 == P3::LateTag {
                    actor.registration()
                } else {
                    self.sent_under
                };
                #[cfg(test)]
                if p3 == P3::LostFbrRegister {
                    self.next = Phase::Done;
                    return;
                }
                actor
                    .queue
                    .enqueue(cx, Batch::register_tagged(tag, self.sent_under));
                Phase::Done
            }
            Phase::Done => Phase::Done,
        };
    }
}

/// `scheduler.scheduleNextBlockReport()` at the end of `blockReport`.
fn reschedule(
    fix: Fix,
    actor: &BPServiceActor,
    cx: &Cx,
    now: Millis,
    epoch_at_start: u64,
) -> Phase {
    if fix.sticky_fbr_request.get() == P1::Off {
        match actor.scheduler.schedule_next_block_report_time(cx, now) {
            Rescheduled::Random => Phase::ClearReset,
            _ => Phase::Done,
        }
    } else {
        actor.scheduler.schedule_next_block_report_since(
            cx,
            now,
            fix.sticky_fbr_request.get(),
            epoch_at_start,
        );
        Phase::Done
    }
}
