//! Recon's copy of the OM DB (`ReconOMMetadataManager` over its own RocksDB), its checkpoints
//! (`createOMCheckpoint`), and `OMDBUpdatesHandler`, which turns each OM write batch into
//! events against this copy before the batch is committed to it.

use super::om::{Key, KeyOp, KeyTable, OmDb, WriteBatch};
use crate::sync::unseen::{AtomicU64 as GhostU64, Ordering as GhostOrdering};
use crate::sync::{Mutex, MutexGuard};
use crate::trace::Cx;
use std::fmt;
use std::ops::Range;

/// Ghost: the delta response a committed write batch came with (its first batch's sequence
/// number), or [`FULL_SNAPSHOT`] for batches that arrived inside a full OM DB snapshot.
pub type DeltaId = u64;
pub const FULL_SNAPSHOT: DeltaId = 0;

/// Ghost: a write batch the Recon OM DB holds, the delta that committed it, and whether it
/// produced an event for the tasks (a batch without one has nothing to apply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Committed {
    pub seq: u64,
    pub delta: DeltaId,
    pub evented: bool,
}

/// The Recon OM DB's content: the key table and the last sequence number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReconOmDbState {
    pub keys: KeyTable,
    pub seq: u64,
    /// Ghost: every write batch this DB holds, in commit order (written under the DB lock by
    /// the committing step; never read by a modelled actor).
    pub committed: Vec<Committed>,
}

impl ReconOmDbState {
    /// A copy of a whole OM DB (a full snapshot): holds every batch of its write ahead log.
    pub fn from_om(om: &OmDb) -> Self {
        Self::from_om_with_room(om, 0, 0)
    }

    /// [`Self::from_om`], with room for `batches` more committed write batches and `keys`
    /// more keys.
    pub fn from_om_with_room(om: &OmDb, batches: usize, keys: usize) -> Self {
        let mut committed = Vec::with_capacity(om.wal.len() + batches);
        committed.extend(om.wal.iter().map(|b| Committed {
            seq: b.seq,
            delta: FULL_SNAPSHOT,
            evented: true,
        }));
        ReconOmDbState {
            keys: om.keys.copy_with_room(keys),
            seq: om.seq,
            committed,
        }
    }
}

/// A RocksDB checkpoint of the Recon OM DB, opened as a `ReconOMMetadataManager`
/// (`createCheckpointReconMetadataManager`): an immutable copy as of the moment it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint(pub ReconOmDbState);

impl Checkpoint {
    /// `getLastSequenceNumberFromDB()` of the checkpoint.
    pub fn last_sequence_number(&self) -> u64 {
        self.0.seq
    }
}

impl fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys = self
            .0
            .keys
            .iter()
            .map(|(k, _)| fmt::from_fn(move |f| write!(f, "file{}", k.name)));
        write!(
            f,
            "checkpoint@#{} [{}]",
            self.0.seq,
            super::joined(keys, " ")
        )
    }
}

/// `ReconOMMetadataManager`: the Recon OM DB. RocksDB makes one write batch's commit and a
/// checkpoint atomic with respect to each other; the mutex stands for that, not for a Java
/// lock. Only the sync thread writes it; `createOMCheckpoint` reads it.
#[derive(Debug)]
pub struct ReconOMMetadataManager {
    db: Mutex<ReconOmDbState>,
    /// Ghost: bumped by every write of the DB (see `World::unless_absent`). Not a lock of the
    /// model: a std atomic, read only by the predicates.
    version: GhostU64,
}

impl ReconOMMetadataManager {
    pub fn new(state: ReconOmDbState) -> Self {
        ReconOMMetadataManager {
            db: Mutex::new(state),
            version: GhostU64::new(0),
        }
    }

    /// How many times the DB has been written.
    pub fn version(&self) -> u64 {
        self.version.load(GhostOrdering::SeqCst)
    }

    /// The DB, locked for writing (every writer goes through here: see `version`).
    fn db_mut(&self) -> MutexGuard<'_, ReconOmDbState> {
        self.version.fetch_add(1, GhostOrdering::SeqCst);
        self.db.lock()
    }

    /// `writeBatch.iterate(omdbUpdatesHandler)` then `RDBBatchOperation.commit` of one write
    /// batch of a delta response. One step: the events are computed against this DB and the
    /// commit writes it, and no other actor writes it in between (only the sync thread writes
    /// it; a checkpoint in between sees the same content as one before the iterate).
    pub fn iterate_and_commit(
        &self,
        cx: &Cx,
        handler: &mut OMDBUpdatesHandler,
        batch: WriteBatch,
        delta: DeltaId,
    ) -> u64 {
        let mut db = self.db_mut();
        let event = handler.process_event(&db, batch);
        db.keys.apply(batch.op);
        db.seq = batch.seq;
        db.committed.push(Committed {
            seq: batch.seq,
            delta,
            evented: event.is_some(),
        });
        let event = fmt::from_fn(|f| match event {
            Some(e) => write!(f, "{e}"),
            None => f.write_str("no event"),
        });
        cx.record(
            "RDBBatchOperation.commit",
            format_args!(
                "write batch {batch} → event {event}; Recon OM DB at #{}",
                db.seq
            ),
        );
        db.seq
    }

    /// `ReconTaskControllerImpl.createOMCheckpoint(currentOMMetadataManager)`: a RocksDB
    /// checkpoint of this DB as of now.
    pub fn create_checkpoint(&self, cx: &Cx) -> Checkpoint {
        let db = self.db.lock();
        let cp = Checkpoint(db.clone());
        cx.record("ReconTaskControllerImpl.createOMCheckpoint", &cp);
        cp
    }

    /// `OMMetadataManager.updateOmDB(snapshotDir)`: the DB replaced by a full OM snapshot.
    pub fn update_om_db(&self, cx: &Cx, snapshot: &OmDb) {
        let mut db = self.db_mut();
        *db = ReconOmDbState::from_om(snapshot);
        cx.record(
            "ReconOmMetadataManagerImpl.updateOmDB",
            format_args!("Recon OM DB replaced, at #{}", db.seq),
        );
    }

    /// `getLastSequenceNumberFromDB()`.
    pub fn sequence_number(&self) -> u64 {
        self.db.lock().seq
    }

    pub fn state(&self) -> ReconOmDbState {
        self.db.lock().clone()
    }

    /// `f` of [`Self::state`], without copying it (for the outcome predicates). `f` must not
    /// lock this DB: it runs under its lock.
    pub fn with_state<R>(&self, f: impl FnOnce(&ReconOmDbState) -> R) -> R {
        f(&self.db.lock())
    }
}

/// `OMDBUpdateEvent.OMDBUpdateAction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Put,
    Update,
    Delete,
}

/// `OMDBUpdateEvent` of the key table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OMDBUpdateEvent {
    pub action: Action,
    pub key: Key,
    /// The key's size: the new value for PUT and UPDATE, the deleted value for DELETE.
    pub value: u64,
    pub old_value: Option<u64>,
}

impl fmt::Display for OMDBUpdateEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let action = match self.action {
            Action::Put => "PUT",
            Action::Update => "UPDATE",
            Action::Delete => "DELETE",
        };
        write!(f, "{action}(file{}, {} B)", self.key.name, self.value)
    }
}

/// `OMDBUpdatesHandler`: one per sync loop iteration (one delta response). Events are computed
/// against the Recon OM DB before the batch is committed, or against the latest event of the
/// same key earlier in this response.
#[derive(Debug, Default)]
pub struct OMDBUpdatesHandler {
    /// The events so far; upstream's map of the latest event per key is the last event of that
    /// key here (every event goes into both, a batch without one into neither).
    events: Vec<OMDBUpdateEvent>,
    latest_sequence_number: u64,
    /// Ghost: the write batches iterated into this handler (a delta's batches are consecutive:
    /// OM numbers its batches one by one, and a sync iterates every batch after its start).
    write_batches: Range<u64>,
}

impl OMDBUpdatesHandler {
    /// A handler for a delta of `n` write batches (room for an event each).
    pub fn for_batches(n: usize) -> Self {
        OMDBUpdatesHandler {
            events: Vec::with_capacity(n),
            ..OMDBUpdatesHandler::default()
        }
    }

    /// `processEvent`: a PUT of an existing key becomes an UPDATE; a DELETE carries the old
    /// value; a DELETE of a key Recon does not have produces no event.
    fn process_event(&mut self, db: &ReconOmDbState, batch: WriteBatch) -> Option<OMDBUpdateEvent> {
        if self.write_batches.is_empty() {
            self.write_batches = batch.seq..batch.seq;
        }
        assert_eq!(
            self.write_batches.end, batch.seq,
            "a delta's batches are consecutive"
        );
        self.write_batches.end += 1;
        let key = batch.op.key();
        let latest = self.events.iter().rev().find(|e| e.key == key).copied();
        let old = latest.map(|e| e.value).or_else(|| db.keys.get(key));
        let event = match batch.op {
            KeyOp::Put { size, .. } => {
                let update = old.is_some() && latest.is_none_or(|e| e.action != Action::Delete);
                OMDBUpdateEvent {
                    action: if update { Action::Update } else { Action::Put },
                    key,
                    value: size,
                    old_value: old,
                }
            }
            KeyOp::Delete { .. } => {
                let old = old?;
                OMDBUpdateEvent {
                    action: Action::Delete,
                    key,
                    value: old,
                    old_value: None,
                }
            }
        };
        self.events.push(event);
        Some(event)
    }

    /// `setLatestSequenceNumber(getCurrentOMDBSequenceNumber())`.
    pub fn set_latest_sequence_number(&mut self, seq: u64) {
        self.latest_sequence_number = seq;
    }

    /// `new OMUpdateEventBatch(getEvents(), getLatestSequenceNumber())`.
    pub fn into_batch(self) -> OMUpdateEventBatch {
        OMUpdateEventBatch {
            events: self.events,
            last_sequence_number: self.latest_sequence_number,
            write_batches: self.write_batches,
        }
    }
}

/// `OMUpdateEventBatch`: the events of one delta response and its last sequence number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OMUpdateEventBatch {
    pub events: Vec<OMDBUpdateEvent>,
    pub last_sequence_number: u64,
    /// Ghost: the write batches the events came from.
    pub write_batches: Range<u64>,
}

impl OMUpdateEventBatch {
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

impl fmt::Display for OMUpdateEventBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "batch[{}]@#{}",
            super::joined(&self.events, ", "),
            self.last_sequence_number
        )
    }
}
