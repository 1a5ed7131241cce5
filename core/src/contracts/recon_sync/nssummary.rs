//! `NSSummaryTask` (its OBS sub-task, `NSSummaryTaskWithOBS`) and the Recon DB it writes: the
//! NSSummary table (per bucket: number and total size of files) and the task's status row
//! (`lastUpdatedSeqNumber`, the task cursor).
//!
//! Simplified: one task. The file size, container key and table insight tasks are fed by the
//! same controller in the same way (the report reads them as affected by code reading only),
//! so one task shows every verdict the others would.

use super::recon_om_db::{Action, Checkpoint, OMUpdateEventBatch, ReconOmDbState};
use std::collections::BTreeMap;
use std::fmt;

/// `NSSummary` of a bucket: `numOfFiles` and `sizeOfFiles` (the other fields follow them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NSSummary {
    pub files: i64,
    pub size: i64,
}

impl fmt::Display for NSSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "files={} size={}", self.files, self.size)
    }
}

/// The Recon DB as the NSSummary task leaves it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReconDb {
    /// The NSSummary table, by bucket.
    pub nssummary: BTreeMap<u8, NSSummary>,
    /// `NSSummaryTask`'s `lastUpdatedSeqNumber` (the task cursor).
    pub cursor: u64,
    /// Ghost: how many times each OM write batch has been applied to this state (a rebuild
    /// sets every batch its checkpoint holds to once). Written with the state it describes.
    pub applied: BTreeMap<u64, u32>,
    /// Ghost: rebuilds applied, by reason.
    pub rebuilds: Vec<&'static str>,
}

impl fmt::Display for ReconDb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let buckets = self
            .nssummary
            .iter()
            .map(|(b, s)| fmt::from_fn(move |f| write!(f, "bucket{b} {s}")));
        write!(
            f,
            "NSSummary {{{}}} cursor #{}",
            super::joined(buckets, ", "),
            self.cursor
        )
    }
}

impl ReconDb {
    pub fn summary(&self, bucket: u8) -> NSSummary {
        self.nssummary.get(&bucket).copied().unwrap_or_default()
    }

    fn put(&mut self, bucket: u8, size: u64) {
        let s = self.nssummary.entry(bucket).or_default();
        s.files += 1;
        s.size += size as i64;
    }

    fn delete(&mut self, bucket: u8, size: u64) {
        let s = self.nssummary.entry(bucket).or_default();
        s.files -= 1;
        s.size -= size as i64;
    }

    /// `NSSummaryTask.process(events)` (`NSSummaryTaskWithOBS.processWithOBS`:
    /// `handlePutKeyEvent`, `handleDeleteKeyEvent`, UPDATE = delete the old value, put the new)
    /// and, on success, the task status `lastUpdatedSeqNumber := batch.lastSequenceNumber`.
    /// Nothing compares the batch with the cursor.
    pub fn process(&mut self, batch: &OMUpdateEventBatch) {
        for e in &batch.events {
            match e.action {
                Action::Put => self.put(e.key.bucket, e.value),
                Action::Update => {
                    if let Some(old) = e.old_value {
                        self.delete(e.key.bucket, old);
                    }
                    self.put(e.key.bucket, e.value);
                }
                Action::Delete => self.delete(e.key.bucket, e.value),
            }
        }
        for seq in &batch.write_batches {
            *self.applied.entry(*seq).or_default() += 1;
        }
        self.cursor = batch.last_sequence_number;
    }

    /// `reInitializeTasks(checkpoint)`: the staged task's `reprocess(checkpoint)` (clear the
    /// table, `handlePutKeyEventReprocess` for every key), the staged DB swapped in, and
    /// `recordAllTaskStatus(..., checkpoint.getLastSequenceNumberFromDB())`.
    pub fn reprocess(&mut self, checkpoint: &Checkpoint, reason: &'static str) {
        self.reprocess_state(&checkpoint.0, reason);
    }

    /// [`Self::reprocess`] from a Recon OM DB state read in place (no checkpoint copy).
    pub fn reprocess_state(&mut self, cp: &ReconOmDbState, reason: &'static str) {
        self.nssummary.clear();
        for (key, size) in &cp.keys {
            self.put(key.bucket, *size);
        }
        self.applied = cp.committed.iter().map(|c| (c.seq, 1)).collect();
        self.cursor = cp.seq;
        self.rebuilds.push(reason);
    }
}
