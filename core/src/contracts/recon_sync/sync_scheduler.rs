//! The sync thread's scheduler, and `triggerSyncDataFromOMImmediately`, which replaces it.
//!
//! `OzoneManagerServiceProviderImpl.start` creates `scheduler`, a one-thread
//! `ScheduledThreadPoolExecutor` (thread factory `<prefix>SyncOM-%d`, so its thread is
//! `SyncOM-0`), and `startSyncDataFromOM` schedules `syncDataFromOM` on it with a fixed delay.
//! `GET /api/v1/triggerdbsync/om` (`TriggerDBSyncEndpoint.triggerOMDBSync`) runs
//! `triggerSyncDataFromOMImmediately` on a REST thread, under no lock: if
//! `isSyncDataFromOMRunning.get()` is false, `stopSyncDataFromOMThread` shuts the executor down
//! (a periodic run not yet begun is cancelled; a run in progress goes on) and waits for it to
//! terminate, then `Executors.newScheduledThreadPool(1, threadFactory)` and
//! `startSyncDataFromOM(0)`: a new thread from the same factory (`SyncOM-1`) syncs at once. The
//! old thread exits, and with it the only thread that could release a `ReentrantLock` hold it
//! kept.
//!
//! [`SyncScheduler`] models the executors: which one the `scheduler` field points to, which
//! were shut down, which have a run in progress; [`TriggerSyncThread`](super::trigger_sync::TriggerSyncThread) the REST
//! thread (in [`trigger_sync`](super::trigger_sync)). The
//! executors' threads are [`super::service_provider::SyncThread`]s queued on an executor by its
//! number (`SyncOM-n` is the n-th trigger's thread: upstream the factory numbers only the
//! threads it creates, a naming difference only).
//!
//! Simplified, with why the verdicts hold:
//! - `awaitTermination(30 s)`, then `shutdownNow` and `awaitTermination(5 s)`: the wait ends
//!   when the run in progress ends, or, for a run that never ends (a hung RPC or download),
//!   times out. The interrupt `shutdownNow` sends is not modelled: the hung thread stays where
//!   it hangs (and keeps `isSyncDataFromOMRunning` true, so the new thread's runs answer
//!   "already running", as they would while it is still unwinding). A run that ends only after
//!   the 35 s is not modelled either: the trigger then starts the new thread while the old run
//!   still holds `isSyncDataFromOMRunning`, whose first run answers "already running" and
//!   whose next run is as the one modelled here.
//! - Two triggers at once (two REST threads) can both find no sync running, both shut down
//!   the same executor and both create one. The `scheduler` field is a plain field (not
//!   volatile, no lock) that both REST threads read (`stopSyncDataFromOMThread`) and write
//!   (`scheduler = newScheduledThreadPool`): a data race, O8, which loom finds in its own
//!   scenario ([`super::TWO_TRIGGERS`]). What follows it (the field keeps the last write, the
//!   other executor lives on unreferenced, syncing on its schedule, with
//!   `isSyncDataFromOMRunning` keeping the two from overlapping) is not modelled: the
//!   histories run every trigger on one REST thread, one after another, so they do not
//!   generate it, and with the flag no state outcome here differs.

use crate::sync::{Condvar, Mutex, RaceCell};

/// The threads `threadFactory` names, by executor: `SyncOM-0` from `start`, then one per
/// trigger that replaced the scheduler.
pub const SYNC_THREADS: [&str; 8] = [
    "SyncOM-0", "SyncOM-1", "SyncOM-2", "SyncOM-3", "SyncOM-4", "SyncOM-5", "SyncOM-6", "SyncOM-7",
];

/// An executor (and its one thread), by number: an index into [`SYNC_THREADS`].
pub type Executor = u8;

fn bit(e: Executor) -> u8 {
    1 << e
}

#[derive(Debug)]
struct State {
    /// Executors created (`newScheduledThreadPool`), each a bit.
    created: u8,
    /// Executors that will never be created: their trigger found a sync running.
    never: u8,
    shut_down: u8,
    /// Executors whose thread is inside a run of `syncDataFromOM`.
    busy: u8,
    /// Executors whose run will never end (inside an OM call that never returns, or waiting
    /// forever for the hand-off lock).
    hung: u8,
}

/// How a run queued on an executor begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begin {
    Runs,
    /// The executor was shut down before the run began: `ScheduledFutureTask.run` cancels a
    /// periodic task once its executor is shut down.
    Cancelled,
    /// The executor was never created (its trigger answered "already running").
    NoThread,
}

/// The executors the sync thread runs on (see the module notes).
#[derive(Debug)]
pub struct SyncScheduler {
    /// The `scheduler` field: the executor it points to. A plain field upstream, read and
    /// written by the REST threads of `triggerSyncDataFromOMImmediately` with no lock.
    field: RaceCell<Executor>,
    state: Mutex<State>,
    /// Signalled when an executor is created or will never be, and when a run ends or hangs.
    changed: Condvar,
}

impl Default for SyncScheduler {
    /// `start`: executor 0, `SyncOM-0`.
    fn default() -> Self {
        SyncScheduler {
            field: RaceCell::new(0),
            state: Mutex::new(State {
                created: bit(0),
                never: 0,
                shut_down: 0,
                busy: 0,
                hung: 0,
            }),
            changed: Condvar::new(),
        }
    }
}

impl SyncScheduler {
    /// The executor the `scheduler` field points to: where the next scheduled run is queued.
    pub fn live(&self) -> Executor {
        self.field.with(|e| *e)
    }

    /// Whether a run queued on `e` can begin now (its thread exists, or never will).
    pub fn ready(&self, e: Executor) -> bool {
        let s = self.state.lock();
        (s.created | s.never) & bit(e) != 0
    }

    /// A run queued on `e` begins (once `e` is created, or known never to be).
    pub fn begin_run(&self, e: Executor) -> Begin {
        let mut s = self.state.lock();
        while (s.created | s.never) & bit(e) == 0 {
            s = self.changed.wait(s);
        }
        if s.never & bit(e) != 0 {
            Begin::NoThread
        } else if s.shut_down & bit(e) != 0 {
            Begin::Cancelled
        } else {
            s.busy |= bit(e);
            Begin::Runs
        }
    }

    /// The run on `e` has returned.
    pub fn end_run(&self, e: Executor) {
        self.state.lock().busy &= !bit(e);
        self.changed.notify_all();
    }

    /// The run on `e` will never return.
    pub fn hang(&self, e: Executor) {
        self.state.lock().hung |= bit(e);
        self.changed.notify_all();
    }

    /// `scheduler.shutdown()` of the executor the field points to (an unsynchronized read of
    /// the field); which one that was.
    pub(super) fn shutdown(&self) -> Executor {
        let live = self.live();
        self.state.lock().shut_down |= bit(live);
        live
    }

    /// Whether `awaitTermination` of `e` returns now: no run is in progress on it, or the one
    /// in progress never ends (then both waits time out).
    pub fn terminated_or_hung(&self, e: Executor) -> bool {
        let s = self.state.lock();
        (s.busy & !s.hung) & bit(e) == 0
    }

    /// `awaitTermination` of `e`: true when it terminated, false when the waits timed out.
    pub(super) fn await_termination(&self, e: Executor) -> bool {
        let mut s = self.state.lock();
        while (s.busy & !s.hung) & bit(e) != 0 {
            s = self.changed.wait(s);
        }
        s.busy & bit(e) == 0
    }

    /// `scheduler = newScheduledThreadPool(1, threadFactory)` (an unsynchronized write of the
    /// field), then `startSyncDataFromOM(0)`: `e`'s thread starts with the run it queues.
    pub(super) fn create(&self, e: Executor) {
        self.field.with_mut(|live| *live = e);
        self.state.lock().created |= bit(e);
        self.changed.notify_all();
    }

    /// `e` will never be created (its thread's queued run ends without running).
    pub(super) fn never_create(&self, e: Executor) {
        self.state.lock().never |= bit(e);
        self.changed.notify_all();
    }
}
