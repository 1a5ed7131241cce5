//! `ReconTaskControllerImpl`: its monitor, its event buffer (`OMUpdateEventBuffer`, a
//! `LinkedBlockingQueue`), and the event processor thread (`ReconEventProcessor-0`,
//! `processBufferedEventsAsync`) that applies buffered events to the tasks in FIFO order.
//!
//! Locks, as upstream: the controller monitor (the bodies of the `synchronized`
//! `consumeOMEvents`, `queueReInitializationEvent` and `reInitializeTasks`); the queue's own
//! locks (each `offer`, `poll` and `drainTo` is atomic; one mutex stands for the queue's put and
//! take locks, which only makes those operations linearizable, as they are). `processOMUpdateBatch`
//! holds neither the monitor nor any other lock.

use super::nssummary::ReconDb;
use super::recon_om_db::{Checkpoint, OMUpdateEventBatch, ReconOMMetadataManager};
use super::World;
use crate::model::Program;
use crate::sync::unseen::{
    Arc, AtomicU64 as GhostU64, Mutex as GhostMutex, Ordering as GhostOrdering,
};
use crate::sync::{Mutex, MutexGuard};
use crate::trace::{Cx, Trace};
use std::collections::VecDeque;
use std::fmt;
use std::ops::Deref;

/// `ReconTaskReInitializationEvent.ReInitializationReason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReInitializationReason {
    /// `POST /api/v1/triggerdbsync/om/reinit`.
    ManualOmDbRebuild,
    /// After a full OM DB snapshot (`executeFullSnapshot`).
    ManualTrigger,
}

impl ReInitializationReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ReInitializationReason::ManualOmDbRebuild => "MANUAL_OM_DB_REBUILD",
            ReInitializationReason::ManualTrigger => "MANUAL_TRIGGER",
        }
    }
}

/// `ReconEvent`: what the buffer holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReconEvent {
    /// `OM_UPDATE_BATCH`.
    OmUpdateBatch(OMUpdateEventBatch),
    /// `TASK_REINITIALIZATION` with its checkpointed OM metadata manager.
    ReInitialization(ReInitializationReason, Checkpoint),
}

impl fmt::Display for ReconEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReconEvent::OmUpdateBatch(b) => write!(f, "{b}"),
            ReconEvent::ReInitialization(r, cp) => write!(f, "REINIT({}, {cp})", r.as_str()),
        }
    }
}

/// The buffer as `[e1, e2]`, formatted only when displayed (a record's detail is formatted
/// only while recording).
fn show(buffer: &VecDeque<ReconEvent>) -> impl fmt::Display + '_ {
    fmt::from_fn(move |f| write!(f, "[{}]", super::joined(buffer, ", ")))
}

#[derive(Debug)]
pub struct ReconTaskControllerImpl {
    monitor: Mutex<()>,
    event_buffer: Mutex<VecDeque<ReconEvent>>,
    /// The Recon DB the tasks write. Only the event processor thread writes it (and the task
    /// executor threads it waits for).
    recon_db: Mutex<ReconDb>,
    /// Ghost: bumped whenever the buffer or the Recon DB is locked for writing, so that
    /// [`Self::with_quiescent`] computes the quiescent Recon DB once per state (the outcome
    /// predicates all read it, at every quiet state of a history). Not a lock of the model:
    /// std primitives, read only by the predicates.
    version: GhostU64,
    quiescent_cache: GhostMutex<Option<(u64, Arc<ReconDb>)>>,
}

impl ReconTaskControllerImpl {
    pub fn new(recon_db: ReconDb) -> Self {
        ReconTaskControllerImpl {
            monitor: Mutex::new(()),
            event_buffer: Mutex::new(VecDeque::new()),
            recon_db: Mutex::new(recon_db),
            version: GhostU64::new(0),
            quiescent_cache: GhostMutex::new(None),
        }
    }

    /// How many times the buffer or the Recon DB has been locked for writing.
    pub fn version(&self) -> u64 {
        self.version.load(GhostOrdering::SeqCst)
    }

    /// The buffer, locked for writing (every writer goes through here: see `version`).
    fn buffer_mut(&self) -> MutexGuard<'_, VecDeque<ReconEvent>> {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        self.event_buffer.lock()
    }

    /// The Recon DB, locked for writing (every writer goes through here: see `version`).
    fn db_mut(&self) -> MutexGuard<'_, ReconDb> {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        self.recon_db.lock()
    }

    /// `synchronized consumeOMEvents(events)`: buffers a non-empty batch (`tasksFailed` is
    /// never set here: no task fails and no checkpoint creation fails in this model).
    pub fn consume_om_events(&self, cx: &Cx, batch: OMUpdateEventBatch) {
        let _monitor = self.monitor.lock();
        if batch.is_empty() {
            cx.record(
                "ReconTaskControllerImpl.consumeOMEvents",
                "no events: nothing buffered",
            );
            return;
        }
        let seq = batch.last_sequence_number;
        let mut buffer = self.buffer_mut();
        buffer.push_back(ReconEvent::OmUpdateBatch(batch));
        cx.record(
            "ReconTaskControllerImpl.consumeOMEvents",
            format_args!(
                "offer (batchSequenceNumber={seq}) → buffer {}",
                show(&buffer)
            ),
        );
    }

    /// `synchronized queueReInitializationEvent(reason)`: `drainEventBufferAndCleanExistingCheckpoints`,
    /// `createOMCheckpoint(currentOMMetadataManager)`, offer the event, `resetEventFlags`, in one
    /// body of the monitor. The retry gate (`validateRetryCountAndDelay`) passes: no earlier
    /// attempt failed here.
    pub fn queue_reinitialization_event(
        &self,
        cx: &Cx,
        reason: ReInitializationReason,
        current: &ReconOMMetadataManager,
    ) {
        let _monitor = self.monitor.lock();
        self.drain_event_buffer_and_clean_existing_checkpoints(cx, reason);
        let checkpoint = current.create_checkpoint(cx);
        self.offer_reinitialization(
            cx,
            "ReconTaskControllerImpl.queueReInitializationEvent",
            reason,
            checkpoint,
        );
    }

    /// `drainEventBufferAndCleanExistingCheckpoints` (public, not synchronized: one `drainTo`).
    pub fn drain_event_buffer_and_clean_existing_checkpoints(
        &self,
        cx: &Cx,
        reason: ReInitializationReason,
    ) {
        let mut buffer = self.buffer_mut();
        // Recorded before the clear (in the same critical section), so that the detail shows
        // what was drained.
        cx.record(
            "ReconTaskControllerImpl.drainEventBufferAndCleanExistingCheckpoints",
            format_args!("{}: drained {}", reason.as_str(), show(&buffer)),
        );
        buffer.clear();
    }

    /// `eventBuffer.offer(new ReconTaskReInitializationEvent(reason, checkpoint))`, then
    /// `resetEventFlags` (no flag is ever set here), by `method`.
    pub fn offer_reinitialization(
        &self,
        cx: &Cx,
        method: &'static str,
        reason: ReInitializationReason,
        checkpoint: Checkpoint,
    ) {
        let mut buffer = self.buffer_mut();
        buffer.push_back(ReconEvent::ReInitialization(reason, checkpoint));
        cx.record(method, format_args!("offer → buffer {}", show(&buffer)));
    }

    /// `OMUpdateEventBuffer.poll(1000 ms)`: the head of the queue, or nothing after the timeout.
    pub fn poll(&self, cx: &Cx) -> Option<ReconEvent> {
        let mut buffer = self.buffer_mut();
        let event = buffer.pop_front();
        match &event {
            Some(e) => cx.record(
                "OMUpdateEventBuffer.poll",
                format_args!("{e}; buffer now {}", show(&buffer)),
            ),
            None => cx.record("OMUpdateEventBuffer.poll", "empty (timeout)"),
        }
        event
    }

    /// `f` of what the buffer holds now, read in place (for witnesses). `f` must not lock the
    /// buffer: it runs under its lock.
    pub fn with_pending<R>(&self, f: impl FnOnce(&VecDeque<ReconEvent>) -> R) -> R {
        f(&self.event_buffer.lock())
    }

    /// What the buffer holds now.
    pub fn pending(&self) -> Vec<ReconEvent> {
        self.event_buffer.lock().iter().cloned().collect()
    }

    /// `processOMUpdateBatch`: every task's `process(events)`; no monitor, no cursor check.
    pub fn process_om_update_batch(&self, cx: &Cx, batch: &OMUpdateEventBatch) {
        let mut db = self.db_mut();
        db.process(batch);
        cx.record(
            "ReconTaskControllerImpl.processOMUpdateBatch",
            format_args!(
                "NSSummaryTask.process {batch} (batchSequenceNumber={}) → {}",
                batch.last_sequence_number, *db
            ),
        );
    }

    /// `processReInitializationEvent` → `synchronized reInitializeTasks(checkpoint)`: every
    /// task rebuilt from the checkpoint, cursors := the checkpoint's sequence number. The
    /// monitor is held for the whole rebuild.
    pub fn process_reinitialization_event(
        &self,
        cx: &Cx,
        reason: ReInitializationReason,
        cp: &Checkpoint,
    ) {
        let _monitor = self.monitor.lock();
        let mut db = self.db_mut();
        db.reprocess(cp);
        cx.record(
            "ReconTaskControllerImpl.reInitializeTasks",
            format_args!(
                "{}: NSSummaryTask.reprocess({cp}) → {}",
                reason.as_str(),
                *db
            ),
        );
    }

    /// The Recon DB as it is now.
    pub fn recon_db(&self) -> ReconDb {
        self.recon_db.lock().clone()
    }

    /// The Recon DB once the event processor has applied everything still buffered, in FIFO
    /// order (what it does after the actors of a scenario have finished: nothing else runs).
    pub fn quiescent(&self) -> ReconDb {
        let buffer = self.event_buffer.lock();
        let mut db = self.recon_db();
        for e in buffer.iter() {
            match e {
                ReconEvent::OmUpdateBatch(b) => db.process(b),
                ReconEvent::ReInitialization(_, cp) => db.reprocess(cp),
            }
        }
        db
    }

    /// `f` of [`Self::quiescent`] (see [`Self::quiescent_db`]). `f` must not lock the Recon DB:
    /// it may run under its lock.
    pub fn with_quiescent<R>(&self, f: impl FnOnce(&ReconDb) -> R) -> R {
        f(&self.quiescent_db())
    }

    /// [`Self::quiescent`], computed once per state (see `version`), and not copied at all when
    /// nothing is buffered (then the Recon DB under its lock). One function for every predicate
    /// that reads it, not inlined into each: a fuzz run pays for each distinct code path.
    pub fn quiescent_db(&self) -> QuiescentDb<'_> {
        if self.event_buffer.lock().is_empty() {
            return QuiescentDb::Live(self.recon_db.lock());
        }
        let version = self.version.load(GhostOrdering::SeqCst);
        let mut cache = self.quiescent_cache.lock();
        match &*cache {
            Some((v, q)) if *v == version => QuiescentDb::Computed(q.clone()),
            _ => {
                let q = Arc::new(self.quiescent());
                *cache = Some((version, q.clone()));
                QuiescentDb::Computed(q)
            }
        }
    }
}

/// What [`ReconTaskControllerImpl::quiescent_db`] reads: the Recon DB itself (locked) when
/// nothing is buffered, else the computed copy.
pub enum QuiescentDb<'a> {
    Live(MutexGuard<'a, ReconDb>),
    Computed(Arc<ReconDb>),
}

impl Deref for QuiescentDb<'_> {
    type Target = ReconDb;

    fn deref(&self) -> &ReconDb {
        match self {
            QuiescentDb::Live(db) => db,
            QuiescentDb::Computed(db) => db,
        }
    }
}

/// The event processor thread, `processBufferedEventsAsync`: poll, then process what it got.
///
/// It polls `polls` times (a poll of an empty queue is a step with no effect: upstream's 1 s
/// timeout only loops back). Whatever is still buffered when a scenario's actors have
/// finished is applied by [`ReconTaskControllerImpl::quiescent`], in the same FIFO order.
#[derive(Debug)]
pub struct EventProcessor {
    cx: Cx,
    polls: usize,
    polled: Option<ReconEvent>,
}

impl EventProcessor {
    pub const ACTOR: &'static str = "ReconEventProcessor";

    pub fn new(trace: &Trace, polls: usize) -> Self {
        EventProcessor {
            cx: trace.actor(Self::ACTOR),
            polls,
            polled: None,
        }
    }
}

impl Program<World> for EventProcessor {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.polls == 0 && self.polled.is_none()
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        match self.polled.take() {
            None => {
                self.polls -= 1;
                self.polled = w.controller.poll(cx);
            }
            Some(ReconEvent::OmUpdateBatch(batch)) => {
                w.controller.process_om_update_batch(cx, &batch)
            }
            Some(ReconEvent::ReInitialization(reason, cp)) => {
                w.controller.process_reinitialization_event(cx, reason, &cp)
            }
        }
    }
}
