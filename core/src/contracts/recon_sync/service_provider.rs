//! `OzoneManagerServiceProviderImpl`: the sync thread (`SyncOM-0`, `syncDataFromOM` run by the
//! single-thread scheduler, or the thread of a scheduler that
//! `triggerSyncDataFromOMImmediately` put in its place: [`super::sync_scheduler`]) and
//! `triggerTaskRebuild`, which the REST thread runs for `POST /api/v1/triggerdbsync/om/reinit`
//! (`TriggerDBSyncEndpoint.triggerOMDBReinit`).
//!
//! The fix (P1, patch MC-6) adds a lock to this class: the sync thread takes it after the OM RPC
//! has returned and before the first commit and releases it at the end of the loop iteration,
//! after the hand-off; `triggerTaskRebuild` takes it around `queueReInitializationEvent`. It is
//! a [`ReentrantLock`]: taken in one step and released in a later one.
//!
//! The report does not say how the sync thread releases it when the iteration throws, nor
//! whether it is held across `executeFullSnapshot`, which `syncDataFromOM` runs after the loop
//! when the delta failed (`getServiceList`, an OM RPC, then the chunked snapshot download from
//! the OM leader, `RDBSnapshotProvider.downloadDBSnapshotFromLeader`). P1 is modelled as the
//! report implies (the lock is never held during a call to OM): released in a `finally` of the
//! loop iteration. A3 and A4 are the two designs a reviewer must rule out (see [`LockUntil`]).
//!
//! Simplified, with why the verdicts hold:
//! - `recon.om.delta.update.limit` (50,000) is never reached, so a response carries every batch
//!   up to OM's latest, the lag after it is 0, and `syncDataFromOM` runs one loop iteration.
//! - The task status rows the sync thread writes (`OmDeltaRequest`, `OmSnapshotRequest`) are
//!   read by no modelled actor (only by Recon's startup check and the API): they are kept as an
//!   observation, not as shared state.
//! - No task fails and the buffer (capacity 20,000) never overflows, so the checks after the
//!   hand-off (`hasEventBufferOverflowed`, `hasTasksFailed`) never queue a rebuild.

use super::om::DBUpdates;
use super::recon_om_db::{Checkpoint, DeltaId, OMDBUpdatesHandler};
use super::reentrant_lock::{Abandoned, Forever, ReentrantLock};
use super::sync_scheduler::{Begin, Executor, SyncScheduler, SYNC_THREADS};
use super::task_controller::ReInitializationReason;
use super::World;
use crate::model::Program;
use crate::sync::unseen::{
    AtomicU64 as GhostU64, AtomicU8 as GhostU8, Mutex as GhostMutex, Ordering as GhostOrdering,
};
use crate::sync::{AtomicBool, Ordering};
use crate::trace::{Cx, Trace};
use std::fmt;

/// Where the sync thread takes the hand-off lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockFrom {
    /// P1: after the OM RPC has returned, before the first commit.
    RpcReturned,
    /// A1, the alternative the report rejected: before the OM RPC, so it spans the RPC.
    BeforeRpc,
    /// A broken P1 (a mutant the suite must catch): taken after the delta's first write-batch
    /// commit, so the first commit is outside it (O2's path: a checkpoint between two commits).
    AfterFirstCommit,
}

/// Where the sync thread releases it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockUntil {
    /// P1: at the end of the loop iteration, after the hand-off (and in a `finally`, so an
    /// exception releases it too).
    HandOff,
    /// A broken P1 (a mutant the suite must catch): released after the last commit.
    LastCommit,
    /// A3: released after the hand-off, but not in a `finally`. An exception in the iteration
    /// (caught by the loop's `catch (Exception)`) skips the release: `executeFullSnapshot` runs
    /// holding the lock, and `syncDataFromOM` returns holding it. Its thread (`SyncOM-0`)
    /// re-enters it in every later sync and releases only its own hold; a thread that replaces
    /// it (`triggerSyncDataFromOMImmediately`) never gets it (O7).
    HandOffNoFinally,
    /// A4: released in `syncDataFromOM`'s `finally` (where `isSyncDataFromOMRunning` is reset),
    /// so held across `executeFullSnapshot` after a failed delta. On a sync without a failure
    /// it is released a little later than P1's, after the hand-off and the steps that follow it
    /// (which touch no state another actor reads).
    SyncEnd,
}

/// What `triggerTaskRebuild` holds the lock around.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestSpan {
    /// P1: the whole `queueReInitializationEvent` (drain, checkpoint and queueing, one body of
    /// the controller monitor).
    Queueing,
    /// A2, a broken design: only the checkpoint. `triggerTaskRebuild` drains the buffer
    /// (`drainEventBufferAndCleanExistingCheckpoints`, public), takes the lock around
    /// `createOMCheckpoint` (public), and offers the rebuild (`getEventBuffer().offer`) after
    /// it: three steps, none under the monitor.
    Checkpoint,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandOffLock {
    pub from: LockFrom,
    pub until: LockUntil,
    pub rest: RestSpan,
}

/// Faults a scenario gives the sync thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncFaults {
    /// OM is unreachable: `getDBUpdates` never returns (its retries go on forever).
    pub rpc_hangs: bool,
    /// The loop iteration throws after the commits and before the hand-off (HDDS-5146): here
    /// the task status write (`ReconTaskStatusUpdater.recordRunCompletion`, a Recon SQL DB
    /// write). `syncDataFromOM`'s `catch (Exception)` falls back to a full snapshot. It stands
    /// for every exception between the commits and the hand-off (the other task status writes,
    /// `updateOMMetadataManager`): each leaves the same lock held and the same events dropped.
    pub throw_before_hand_off: bool,
    /// The full-snapshot fallback's download fails (`getOzoneManagerDBSnapshot` → null).
    pub snapshot_download_fails: bool,
    /// The full-snapshot fallback's download never returns (`getServiceList` retrying against
    /// an unreachable OM, or `downloadDBSnapshotFromLeader`'s `while (true)` over the chunks of
    /// a large OM DB: long enough that no rebuild may wait for it).
    pub snapshot_download_hangs: bool,
}

#[derive(Debug, Default)]
pub struct OzoneManagerServiceProviderImpl {
    /// `isSyncDataFromOMRunning`.
    sync_running: AtomicBool,
    /// `scheduler`, and the executors it has pointed to.
    pub scheduler: SyncScheduler,
    /// P1's lock (unused upstream).
    pub hand_off: ReentrantLock,
    /// Ghost: a `triggerTaskRebuild` waits forever for the hand-off lock, and why its holder
    /// never releases it (the first such wait's reason, as [`Forever::code`]; 0 for none).
    rebuild_blocked: GhostU8,
    /// Ghost: rebuilds `triggerTaskRebuild` has queued (answered 202).
    rebuilds_accepted: GhostU64,
    /// Ghost: a sync thread waits forever for the hand-off lock: the first such wait, as
    /// [`SyncBlocked`].
    sync_blocked: GhostMutex<Option<SyncBlocked>>,
    /// Ghost: whether `sync_blocked` is set (read at every quiet state of a history, without
    /// the mutex).
    any_sync_blocked: GhostU8,
    /// Ghost: the deltas whose sync threw before its hand-off (their events were dropped).
    failed_deltas: GhostMutex<Vec<DeltaId>>,
    /// Ghost: bumped by every write of the ghosts above (see `World::unless_absent`).
    version: GhostU64,
}

impl OzoneManagerServiceProviderImpl {
    /// How many times the ghosts above have been written.
    pub fn version(&self) -> u64 {
        self.version.load(GhostOrdering::SeqCst)
    }

    /// The sync that committed `delta` threw before handing its events off.
    fn delta_failed_now(&self, delta: DeltaId) {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        self.failed_deltas.lock().push(delta);
    }

    /// A `triggerTaskRebuild` waits forever; the first such wait's reason stays (a later one
    /// finds the same holder).
    fn rebuild_blocked_now(&self, why: Forever) {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        let _ = self.rebuild_blocked.compare_exchange(
            0,
            why.code(),
            GhostOrdering::SeqCst,
            GhostOrdering::SeqCst,
        );
    }

    /// `triggerTaskRebuild` queued a rebuild.
    fn rebuild_accepted_now(&self) {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        self.rebuilds_accepted.fetch_add(1, GhostOrdering::SeqCst);
    }

    /// Why a `triggerTaskRebuild` waits forever, if one does.
    pub fn rebuild_blocked(&self) -> Option<Forever> {
        Forever::from_code(self.rebuild_blocked.load(GhostOrdering::SeqCst))
    }

    /// Whether the sync that committed `delta` threw before handing its events off.
    pub fn delta_failed(&self, delta: DeltaId) -> bool {
        self.failed_deltas.lock().contains(&delta)
    }

    pub fn rebuilds_accepted(&self) -> u64 {
        self.rebuilds_accepted.load(GhostOrdering::SeqCst)
    }

    /// `isSyncDataFromOMRunning.get()`.
    pub fn is_sync_running(&self) -> bool {
        self.sync_running.load(Ordering::SeqCst)
    }

    /// A sync thread waits forever; the first such wait stays.
    fn sync_blocked_now(&self, blocked: SyncBlocked) {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        let mut first = self.sync_blocked.lock();
        first.get_or_insert(blocked);
        self.any_sync_blocked.store(1, GhostOrdering::SeqCst);
    }

    /// The first sync thread that waits forever for the hand-off lock, if one does.
    pub fn sync_blocked(&self) -> Option<SyncBlocked> {
        if self.any_sync_blocked.load(GhostOrdering::SeqCst) == 0 {
            return None;
        }
        *self.sync_blocked.lock()
    }
}

/// A sync thread that waits forever for the hand-off lock, the thread that holds it, and why
/// that one never releases it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncBlocked {
    pub waiter: &'static str,
    pub holder: &'static str,
    pub why: Forever,
}

impl fmt::Display for SyncBlocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "syncDataFromOM on {} waits forever for the hand-off lock, held by {}, {}",
            self.waiter, self.holder, self.why
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SyncStep {
    Start,
    LockBeforeRpc,
    Rpc,
    LockAfterRpc,
    Commit(usize),
    WriteTaskStatus,
    UpdateOMMetadataManager,
    ConsumeOMEvents,
    Unlock,
    Fail,
    FullSnapshot,
    UpdateOmDb,
    QueueReInitialization,
    Finish,
    /// Inside `getDBUpdates` forever: the thread never proceeds and keeps what it holds.
    ParkedInRpc,
    /// Inside the full-snapshot download forever, likewise.
    ParkedInDownload,
    /// Waits forever for the hand-off lock (its holder has abandoned it).
    BlockedForever,
    Done,
    /// The mutant `LockFrom::AfterFirstCommit`: the lock taken after the commit of batch `.0`
    /// (the first), then what follows that commit.
    LockAfterFirstCommit(usize),
}

/// One run of `syncDataFromOM` on a sync thread (one loop iteration, see the module notes),
/// queued on an executor of the scheduler.
#[derive(Debug)]
pub struct SyncThread {
    cx: Cx,
    /// The executor it is queued on, and its thread's name.
    executor: Executor,
    thread: &'static str,
    faults: SyncFaults,
    next: SyncStep,
    from: u64,
    updates: Option<DBUpdates>,
    handler: Option<OMDBUpdatesHandler>,
    delta: DeltaId,
    /// The Recon OM DB's sequence number as this thread last left it (`getCurrentOMDBSequenceNumber`:
    /// only the sync thread writes that DB, so its own last value is the DB's).
    seq: u64,
    holds: bool,
    handed_off: bool,
    snapshot: Option<super::om::OmDb>,
}

impl SyncThread {
    /// A run on the scheduler `start` created (`SyncOM-0`).
    pub fn new(trace: &Trace, faults: SyncFaults) -> Self {
        Self::on(trace, faults, 0)
    }

    /// A run queued on `executor`.
    pub fn on(trace: &Trace, faults: SyncFaults, executor: Executor) -> Self {
        let thread = SYNC_THREADS[usize::from(executor)];
        SyncThread {
            cx: trace.actor(thread),
            executor,
            thread,
            faults,
            next: SyncStep::Start,
            from: 0,
            updates: None,
            handler: None,
            delta: 0,
            seq: 0,
            holds: false,
            handed_off: false,
            snapshot: None,
        }
    }

    /// Whether the next step takes the hand-off lock or commits: everything before it touches
    /// only OM's DB and the sync thread's own state (the scenarios start their concurrency here).
    pub fn before_lock_or_commit(&self) -> bool {
        matches!(
            self.next,
            SyncStep::LockBeforeRpc | SyncStep::LockAfterRpc | SyncStep::Commit(_)
        )
    }

    /// Whether its OM RPC has returned.
    pub fn fetched(&self) -> bool {
        self.updates.is_some()
    }

    /// Whether the next step returns from `syncDataFromOM` (its `finally`).
    pub fn returning(&self) -> bool {
        self.next == SyncStep::Finish
    }

    /// Whether the thread is paused in `updateOMMetadataManager`, between the commit and the
    /// hand-off (where the report's reproduction holds it).
    pub fn at_hand_off(&self) -> bool {
        self.next == SyncStep::ConsumeOMEvents
    }

    /// Takes the hand-off lock and goes on to `then`, or learns that its holder, another sync
    /// thread, will never release it: a thread that replaced the holder's
    /// (`triggerSyncDataFromOMImmediately`) waits forever, with `isSyncDataFromOMRunning` set.
    fn acquire(&mut self, w: &World, then: SyncStep) -> SyncStep {
        let holds = match w.provider.hand_off.acquire(self.thread) {
            Ok(holds) => holds,
            Err(Abandoned { holder, why }) => {
                w.provider.sync_blocked_now(SyncBlocked {
                    waiter: self.thread,
                    holder,
                    why,
                });
                w.provider.scheduler.hang(self.executor);
                self.cx.record(
                    "OzoneManagerServiceProviderImpl.syncDataFromOM",
                    format_args!("waits for the hand-off lock, held by {holder}, {why}: forever"),
                );
                return SyncStep::BlockedForever;
            }
        };
        self.holds = true;
        self.cx.record(
            "OzoneManagerServiceProviderImpl.syncDataFromOM",
            fmt::from_fn(|f| match holds {
                1 => f.write_str("hand-off lock acquired"),
                _ => write!(f, "hand-off lock re-entered: hold count {holds}"),
            }),
        );
        then
    }

    fn release(&mut self, w: &World) {
        self.holds = false;
        let left = w.provider.hand_off.release(self.thread);
        self.cx.record(
            "OzoneManagerServiceProviderImpl.syncDataFromOM",
            fmt::from_fn(|f| match left {
                0 => f.write_str("hand-off lock released"),
                _ => write!(
                    f,
                    "hand-off lock: one hold released, {left} left (still held)"
                ),
            }),
        );
    }

    /// The thread will never release what it holds now (ghost, see [`ReentrantLock::abandon`]).
    fn abandon(&self, w: &World, why: Forever) {
        if self.holds {
            w.provider.hand_off.abandon(self.thread, why);
        }
    }

    /// Where the variant releases the lock (`None` upstream).
    fn until(w: &World) -> Option<LockUntil> {
        w.fix.hand_off_lock.get().map(|l| l.until)
    }

    /// What follows the commit of batch `i`: the next commit, or what follows the last.
    fn after_commit(&mut self, w: &World, i: usize) -> SyncStep {
        let batches = self.updates.as_ref().map_or(0, |u| u.data.len());
        if i + 1 < batches {
            SyncStep::Commit(i + 1)
        } else {
            // getAndApplyDeltaUpdatesFromOM: setLatestSequenceNumber(getCurrentOMDBSequenceNumber()).
            let seq = self.seq;
            self.handler
                .as_mut()
                .expect("the RPC has returned")
                .set_latest_sequence_number(seq);
            self.after_commits(w)
        }
    }

    /// Whether the lock is taken now, after a commit (`holds`: whether the thread holds it):
    /// only by the mutant `LockFrom::AfterFirstCommit`, after its first (the others take it
    /// before any commit).
    fn locks_after_a_commit(w: &World, holds: bool) -> bool {
        let late = matches!(
            w.fix.hand_off_lock.get(),
            Some(HandOffLock {
                from: LockFrom::AfterFirstCommit,
                ..
            })
        );
        late && !holds
    }

    /// A commit runs only under the lock when the variant has one (it is taken before the RPC
    /// or when the RPC returns), so a release here always has a hold to release (`release`
    /// asserts it).
    fn after_commits(&self, w: &World) -> SyncStep {
        match w.fix.hand_off_lock.get() {
            Some(HandOffLock {
                until: LockUntil::LastCommit,
                ..
            }) => SyncStep::Unlock,
            _ => SyncStep::WriteTaskStatus,
        }
    }
}

impl Program<World> for SyncThread {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        self.thread
    }

    fn is_done(&self) -> bool {
        matches!(
            self.next,
            SyncStep::Done
                | SyncStep::ParkedInRpc
                | SyncStep::ParkedInDownload
                | SyncStep::BlockedForever
        )
    }

    fn enabled(&self, w: &World) -> bool {
        match self.next {
            SyncStep::Start => w.provider.scheduler.ready(self.executor),
            SyncStep::LockBeforeRpc
            | SyncStep::LockAfterRpc
            | SyncStep::LockAfterFirstCommit(_) => w.provider.hand_off.ready_for(self.thread),
            _ => !self.is_done(),
        }
    }

    fn step(&mut self, w: &World) {
        let lock = w.fix.hand_off_lock.get();
        self.next = match self.next {
            SyncStep::Start => match w.provider.scheduler.begin_run(self.executor) {
                Begin::NoThread => {
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately",
                        "no new scheduler: this thread is never created",
                    );
                    SyncStep::Done
                }
                Begin::Cancelled => {
                    self.cx.record(
                        "ScheduledThreadPoolExecutor",
                        "shut down before this run began: the periodic task is cancelled",
                    );
                    SyncStep::Done
                }
                Begin::Runs if w.provider.sync_running.swap(true, Ordering::SeqCst) => {
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.syncDataFromOM",
                        "already running",
                    );
                    w.provider.scheduler.end_run(self.executor);
                    SyncStep::Done
                }
                Begin::Runs => {
                    self.from = w.recon_om_db.sequence_number();
                    self.seq = self.from;
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.syncDataFromOM",
                        format_args!("starts: Recon OM DB at #{}", self.from),
                    );
                    match lock {
                        Some(HandOffLock {
                            from: LockFrom::BeforeRpc,
                            ..
                        }) => SyncStep::LockBeforeRpc,
                        _ => SyncStep::Rpc,
                    }
                }
            },
            SyncStep::LockBeforeRpc => self.acquire(w, SyncStep::Rpc),
            SyncStep::Rpc => {
                if self.faults.rpc_hangs {
                    self.abandon(w, Forever::InGetDbUpdates);
                    w.provider.scheduler.hang(self.executor);
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.innerGetAndApplyDeltaUpdatesFromOM",
                        format_args!(
                            "getDBUpdates(#{}) sent; OM unreachable: the RPC never returns{}",
                            self.from,
                            if self.holds {
                                " (holding the hand-off lock)"
                            } else {
                                ""
                            }
                        ),
                    );
                    SyncStep::ParkedInRpc
                } else {
                    let updates = w.om.get_db_updates(&self.cx, self.from);
                    self.delta = updates.data.first().map_or(0, |b| b.seq);
                    self.handler = Some(OMDBUpdatesHandler::for_batches(updates.data.len()));
                    self.updates = Some(updates);
                    match lock {
                        Some(HandOffLock {
                            from: LockFrom::RpcReturned,
                            ..
                        }) => SyncStep::LockAfterRpc,
                        _ => SyncStep::Commit(0),
                    }
                }
            }
            SyncStep::LockAfterRpc => self.acquire(w, SyncStep::Commit(0)),
            SyncStep::LockAfterFirstCommit(i) => {
                let then = self.after_commit(w, i);
                self.acquire(w, then)
            }
            SyncStep::Commit(i) => {
                let updates = self.updates.as_ref().expect("the RPC has returned");
                let handler = self.handler.as_mut().expect("the RPC has returned");
                if let Some(&batch) = updates.data.get(i) {
                    self.seq = w
                        .recon_om_db
                        .iterate_and_commit(&self.cx, handler, batch, self.delta);
                }
                if Self::locks_after_a_commit(w, self.holds) {
                    SyncStep::LockAfterFirstCommit(i)
                } else {
                    self.after_commit(w, i)
                }
            }
            SyncStep::WriteTaskStatus => {
                if self.faults.throw_before_hand_off {
                    SyncStep::Fail
                } else {
                    let seq = self.seq;
                    self.cx.record(
                        "ReconTaskStatusUpdater.recordRunCompletion",
                        format_args!(
                            "OmDeltaRequest, OmSnapshotRequest lastUpdatedSeqNumber=#{seq}"
                        ),
                    );
                    SyncStep::UpdateOMMetadataManager
                }
            }
            SyncStep::UpdateOMMetadataManager => {
                // Sets the controller's currentOMMetadataManager to the same Recon OM DB: no
                // effect on a delta sync. The report's reproduction pauses the thread here.
                self.cx.record(
                    "ReconTaskControllerImpl.updateOMMetadataManager",
                    "same Recon OM DB",
                );
                SyncStep::ConsumeOMEvents
            }
            SyncStep::ConsumeOMEvents => {
                let batch = self
                    .handler
                    .take()
                    .expect("the RPC has returned")
                    .into_batch();
                w.controller.consume_om_events(&self.cx, batch);
                self.handed_off = true;
                if self.holds && Self::until(w) != Some(LockUntil::SyncEnd) {
                    SyncStep::Unlock
                } else {
                    SyncStep::Finish
                }
            }
            SyncStep::Unlock => {
                self.release(w);
                if self.handed_off {
                    SyncStep::Finish
                } else {
                    SyncStep::WriteTaskStatus
                }
            }
            SyncStep::Fail => {
                // The batch's events are dropped with the handler; the Recon OM DB keeps it.
                self.handler = None;
                w.provider.delta_failed_now(self.delta);
                self.cx.record(
                    "OzoneManagerServiceProviderImpl.syncDataFromOM",
                    "exception before the hand-off: markDeltaTaskStatusAsFailed, fall back to a full snapshot",
                );
                // P1's finally; A3 has none, and A4's is the one of syncDataFromOM.
                if self.holds && Self::until(w) == Some(LockUntil::HandOff) {
                    self.release(w);
                }
                SyncStep::FullSnapshot
            }
            SyncStep::FullSnapshot => {
                if self.faults.snapshot_download_hangs {
                    self.abandon(w, Forever::InSnapshotDownload);
                    w.provider.scheduler.hang(self.executor);
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.getOzoneManagerDBSnapshot",
                        format_args!(
                            "getServiceList, downloadDBSnapshotFromLeader: never returns{}",
                            if self.holds {
                                " (holding the hand-off lock)"
                            } else {
                                ""
                            }
                        ),
                    );
                    SyncStep::ParkedInDownload
                } else if self.faults.snapshot_download_fails {
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.getOzoneManagerDBSnapshot",
                        "download failed (OM unreachable): GET_OM_DB_SNAPSHOT_FAILED, nothing queued",
                    );
                    SyncStep::Finish
                } else {
                    let snapshot = w.om.db();
                    self.cx.record(
                        "OzoneManagerServiceProviderImpl.getOzoneManagerDBSnapshot",
                        format_args!("OM DB snapshot at #{}", snapshot.seq),
                    );
                    self.snapshot = Some(snapshot);
                    SyncStep::UpdateOmDb
                }
            }
            SyncStep::UpdateOmDb => {
                let snapshot = self.snapshot.take().expect("downloaded");
                w.recon_om_db.update_om_db(&self.cx, &snapshot);
                SyncStep::QueueReInitialization
            }
            SyncStep::QueueReInitialization => {
                // executeFullSnapshot: updateOMMetadataManager, then queueReInitializationEvent.
                w.controller.queue_reinitialization_event(
                    &self.cx,
                    ReInitializationReason::ManualTrigger,
                    &w.recon_om_db,
                );
                SyncStep::Finish
            }
            SyncStep::Finish => {
                if self.holds {
                    match Self::until(w) {
                        Some(LockUntil::SyncEnd) => self.release(w),
                        Some(LockUntil::HandOffNoFinally) => {
                            // A3 after an exception: the hold outlives syncDataFromOM.
                            self.abandon(w, Forever::Leaked);
                            self.cx.record(
                                "OzoneManagerServiceProviderImpl.syncDataFromOM",
                                "returns still holding the hand-off lock: no finally released it",
                            );
                        }
                        other => unreachable!("{other:?} releases before syncDataFromOM returns"),
                    }
                }
                w.provider.sync_running.store(false, Ordering::SeqCst);
                self.cx.record(
                    "OzoneManagerServiceProviderImpl.syncDataFromOM",
                    "isSyncDataFromOMRunning=false",
                );
                w.provider.scheduler.end_run(self.executor);
                SyncStep::Done
            }
            SyncStep::ParkedInRpc
            | SyncStep::ParkedInDownload
            | SyncStep::BlockedForever
            | SyncStep::Done => self.next,
        };
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum RestStep {
    /// P1: takes the hand-off lock, then queues.
    Lock,
    /// `queueReInitializationEvent` (upstream and P1).
    Queue,
    Unlock,
    /// A2: `drainEventBufferAndCleanExistingCheckpoints`.
    Drain,
    /// A2: the hand-off lock around `createOMCheckpoint` (one critical section).
    Checkpoint,
    /// A2: `getEventBuffer().offer(new ReconTaskReInitializationEvent(reason, checkpoint))`.
    Offer(Checkpoint),
    Done,
    /// Waits for the hand-off lock forever (its holder has abandoned it).
    BlockedForever,
}

/// The REST thread of `POST /api/v1/triggerdbsync/om/reinit`: `triggerTaskRebuild`.
#[derive(Debug)]
pub struct RestThread {
    cx: Cx,
    next: RestStep,
}

const REASON: ReInitializationReason = ReInitializationReason::ManualOmDbRebuild;

impl RestThread {
    pub const ACTOR: &'static str = "REST";

    pub fn new(trace: &Trace, w: &World) -> Self {
        let next = match w.fix.hand_off_lock.get() {
            None => RestStep::Queue,
            Some(HandOffLock {
                rest: RestSpan::Queueing,
                ..
            }) => RestStep::Lock,
            Some(HandOffLock {
                rest: RestSpan::Checkpoint,
                ..
            }) => RestStep::Drain,
        };
        RestThread {
            cx: trace.actor(Self::ACTOR),
            next,
        }
    }

    /// Takes the hand-off lock, or learns that its holder will never release it.
    fn lock(&self, w: &World, around: &str) -> Result<(), Abandoned> {
        w.provider.hand_off.acquire(Self::ACTOR)?;
        self.cx.record(
            "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
            format_args!("hand-off lock acquired{around}"),
        );
        Ok(())
    }

    /// A wait for the lock that can never end: recorded, and the thread stops there (upstream
    /// it stays parked in `lock()`; see [`ReentrantLock::abandon`]).
    fn blocked(&self, w: &World, Abandoned { holder, why }: Abandoned) -> RestStep {
        w.provider.rebuild_blocked_now(why);
        self.cx.record(
            "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
            format_args!("waits for the hand-off lock, held by {holder}, {why}: forever"),
        );
        RestStep::BlockedForever
    }

    fn accepted(&self, w: &World) {
        w.provider.rebuild_accepted_now();
        self.cx
            .record("TriggerDBSyncEndpoint.triggerOMDBReinit", "202 ACCEPTED");
    }
}

impl Program<World> for RestThread {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        matches!(self.next, RestStep::Done | RestStep::BlockedForever)
    }

    fn enabled(&self, w: &World) -> bool {
        match self.next {
            RestStep::Lock | RestStep::Checkpoint => w.provider.hand_off.ready_for(Self::ACTOR),
            _ => !self.is_done(),
        }
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        self.next = match std::mem::replace(&mut self.next, RestStep::Done) {
            RestStep::Lock => match self.lock(w, "") {
                Ok(()) => RestStep::Queue,
                Err(abandoned) => self.blocked(w, abandoned),
            },
            RestStep::Queue => {
                w.controller
                    .queue_reinitialization_event(cx, REASON, &w.recon_om_db);
                self.accepted(w);
                if w.fix.hand_off_lock.get().is_some() {
                    RestStep::Unlock
                } else {
                    RestStep::Done
                }
            }
            RestStep::Unlock => {
                cx.record(
                    "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
                    "hand-off lock released",
                );
                w.provider.hand_off.release(Self::ACTOR);
                RestStep::Done
            }
            RestStep::Drain => {
                w.controller
                    .drain_event_buffer_and_clean_existing_checkpoints(cx, REASON);
                RestStep::Checkpoint
            }
            RestStep::Checkpoint => match self.lock(w, " (around createOMCheckpoint only)") {
                Ok(()) => {
                    let checkpoint = w.recon_om_db.create_checkpoint(cx);
                    cx.record(
                        "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
                        "hand-off lock released",
                    );
                    w.provider.hand_off.release(Self::ACTOR);
                    RestStep::Offer(checkpoint)
                }
                Err(abandoned) => self.blocked(w, abandoned),
            },
            RestStep::Offer(checkpoint) => {
                w.controller.offer_reinitialization(
                    cx,
                    "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
                    REASON,
                    checkpoint,
                );
                self.accepted(w);
                RestStep::Done
            }
            done @ (RestStep::Done | RestStep::BlockedForever) => done,
        };
    }
}
