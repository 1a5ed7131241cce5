//! The REST thread of `GET /api/v1/triggerdbsync/om` (`TriggerDBSyncEndpoint.triggerOMDBSync`):
//! `triggerSyncDataFromOMImmediately`, which replaces the sync thread's executor
//! ([`SyncScheduler`](super::sync_scheduler::SyncScheduler)) and starts a new
//! [`SyncThread`] on it.

use super::service_provider::SyncThread;
use super::sync_scheduler::{Executor, SYNC_THREADS};
use super::World;
use crate::model::{Program, Then};
use crate::trace::{Cx, Trace};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Check,
    Shutdown,
    AwaitTermination(Executor),
    Create,
    Done,
}

/// The REST thread of `GET /api/v1/triggerdbsync/om`: `triggerSyncDataFromOMImmediately`,
/// which creates executor `next` (whose first run is a [`SyncThread`] queued on it, a thread of
/// its own) or answers that a sync is running.
#[derive(Debug)]
pub struct TriggerSyncThread {
    cx: Cx,
    next: Executor,
    step: Step,
}

const METHOD: &str = "OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately";

impl TriggerSyncThread {
    pub const ACTOR: &'static str = "REST-sync";

    /// The trigger, and the first run of the thread it would create: both start together, the
    /// run waiting for its executor.
    pub fn with_first_run(trace: &Trace, next: Executor) -> (Self, SyncThread) {
        let trigger = TriggerSyncThread {
            cx: trace.actor(Self::ACTOR),
            next,
            step: Step::Check,
        };
        (trigger, SyncThread::on(trace, Default::default(), next))
    }
}

impl Program<World> for TriggerSyncThread {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.step == Step::Done
    }

    fn enabled(&self, w: &World) -> bool {
        match self.step {
            Step::AwaitTermination(e) => w.provider.scheduler.terminated_or_hung(e),
            step => step != Step::Done,
        }
    }

    fn step(&mut self, w: &World) {
        let scheduler = &w.provider.scheduler;
        let cx = &self.cx;
        self.step = match self.step {
            Step::Check => {
                if w.provider.is_sync_running() {
                    cx.record(
                        METHOD,
                        "isSyncDataFromOMRunning: OM DB sync is already running; returns false",
                    );
                    scheduler.never_create(self.next);
                    cx.record("TriggerDBSyncEndpoint.triggerOMDBSync", "200 false");
                    Step::Done
                } else {
                    cx.record(METHOD, "isSyncDataFromOMRunning=false");
                    Step::Shutdown
                }
            }
            Step::Shutdown => {
                let old = scheduler.shutdown();
                cx.record(
                    "OzoneManagerServiceProviderImpl.stopSyncDataFromOMThread",
                    format_args!(
                        "scheduler.shutdown() ({}'s executor: a run not yet begun is cancelled)",
                        SYNC_THREADS[usize::from(old)]
                    ),
                );
                Step::AwaitTermination(old)
            }
            Step::AwaitTermination(old) => {
                let thread = SYNC_THREADS[usize::from(old)];
                if scheduler.await_termination(old) {
                    cx.record(
                        "OzoneManagerServiceProviderImpl.stopSyncDataFromOMThread",
                        format_args!("awaitTermination: {thread} has exited"),
                    );
                } else {
                    cx.record(
                        "OzoneManagerServiceProviderImpl.stopSyncDataFromOMThread",
                        format_args!(
                            "awaitTermination timed out, shutdownNow, timed out again: \
                             {thread} failed to terminate"
                        ),
                    );
                }
                Step::Create
            }
            Step::Create => {
                scheduler.create(self.next);
                cx.record(
                    METHOD,
                    format_args!(
                        "newScheduledThreadPool(1, threadFactory), startSyncDataFromOM(0): \
                         {} syncs now; returns true",
                        SYNC_THREADS[usize::from(self.next)]
                    ),
                );
                cx.record("TriggerDBSyncEndpoint.triggerOMDBSync", "200 true");
                Step::Done
            }
            Step::Done => Step::Done,
        };
    }
}

/// A trigger and, on the same thread of a loom scenario, the first run of the thread it would
/// create. No interleaving is lost: that run cannot begin before the trigger's last step (it
/// creates its executor), and the trigger does nothing after it. The histories run the two
/// as two actors, as upstream does ([`TriggerSyncThread::with_first_run`]).
pub fn trigger_then_first_run(
    trace: &Trace,
    next: Executor,
) -> Then<TriggerSyncThread, SyncThread> {
    let (first, second) = TriggerSyncThread::with_first_run(trace, next);
    Then {
        actor: TriggerSyncThread::ACTOR,
        first,
        second,
    }
}
