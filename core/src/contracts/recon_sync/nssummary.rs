//! `NSSummaryTask` (its OBS sub-task, `NSSummaryTaskWithOBS`) and the Recon DB it writes: the
//! NSSummary table (per bucket: number and total size of files) and the task's status row
//! (`lastUpdatedSeqNumber`, the task cursor).
//!
//! Simplified: one task. The file size, container key and table insight tasks are fed by the
//! same controller in the same way (the report reads them as affected by code reading only),
//! so one task shows every verdict the others would.

use super::recon_om_db::{Action, Checkpoint, OMUpdateEventBatch, ReconOmDbState};
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

/// The Recon DB as the NSSummary task leaves it. Dense (vectors, not maps): a few buckets and
/// sequence numbers, and a fuzz run pays for every distinct code path it executes.
#[derive(Clone, Debug, Default)]
pub struct ReconDb {
    /// The NSSummary table: each bucket with a row, in bucket order.
    pub nssummary: Vec<(u8, NSSummary)>,
    /// `NSSummaryTask`'s `lastUpdatedSeqNumber` (the task cursor).
    pub cursor: u64,
    /// Ghost: how many times each OM write batch has been applied to this state, indexed by
    /// its sequence number (a rebuild sets every batch its checkpoint holds to once, every
    /// other to none). Written with the state it describes; read through [`Self::applied`].
    applied: Vec<u32>,
    /// Ghost: rebuilds applied.
    pub rebuilds: u32,
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
        match self.nssummary.binary_search_by_key(&bucket, |(b, _)| *b) {
            Ok(i) => self.nssummary[i].1,
            Err(_) => NSSummary::default(),
        }
    }

    /// How many times the write batch `seq` has been applied to this state.
    pub fn applied(&self, seq: u64) -> u32 {
        usize::try_from(seq)
            .ok()
            .and_then(|i| self.applied.get(i))
            .copied()
            .unwrap_or(0)
    }

    fn applied_mut(&mut self, seq: u64) -> &mut u32 {
        let i = usize::try_from(seq).expect("a sequence number fits in memory");
        if self.applied.len() <= i {
            self.applied.resize(i + 1, 0);
        }
        &mut self.applied[i]
    }

    /// The bucket's row, added (zero) when it has none.
    fn row(&mut self, bucket: u8) -> &mut NSSummary {
        let i = match self.nssummary.binary_search_by_key(&bucket, |(b, _)| *b) {
            Ok(i) => i,
            Err(i) => {
                self.nssummary.insert(i, (bucket, NSSummary::default()));
                i
            }
        };
        &mut self.nssummary[i].1
    }

    fn put(&mut self, bucket: u8, size: u64) {
        let s = self.row(bucket);
        s.files += 1;
        s.size += size as i64;
    }

    fn delete(&mut self, bucket: u8, size: u64) {
        let s = self.row(bucket);
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
        // Highest first, so that the ghost grows once.
        for seq in batch.write_batches.clone().rev() {
            *self.applied_mut(seq) += 1;
        }
        self.cursor = batch.last_sequence_number;
    }

    /// `reInitializeTasks(checkpoint)`: the staged task's `reprocess(checkpoint)` (clear the
    /// table, `handlePutKeyEventReprocess` for every key), the staged DB swapped in, and
    /// `recordAllTaskStatus(..., checkpoint.getLastSequenceNumberFromDB())`.
    pub fn reprocess(&mut self, checkpoint: &Checkpoint) {
        self.reprocess_state(&checkpoint.0);
    }

    /// [`Self::reprocess`] from a Recon OM DB state read in place (no checkpoint copy).
    pub fn reprocess_state(&mut self, cp: &ReconOmDbState) {
        self.nssummary.clear();
        for (key, size) in cp.keys.iter() {
            self.put(key.bucket, size);
        }
        self.applied.clear();
        // Highest first (the batches are in commit order), so that the ghost grows once.
        for c in cp.committed.iter().rev() {
            *self.applied_mut(c.seq) = 1;
        }
        self.cursor = cp.seq;
        self.rebuilds += 1;
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::om::{Key, KeyOp, KeyTable};
    use super::super::recon_om_db::{Committed, ReconOmDbState};
    use super::*;
    use std::collections::BTreeMap;

    /// The applied ghost counts as the map it replaced: every batch a processed delta names
    /// once more, and a rebuild sets exactly its checkpoint's batches to once.
    #[test]
    fn the_applied_ghost_counts_as_a_map_would() {
        let (mut db, mut map) = (ReconDb::default(), BTreeMap::<u64, u32>::new());
        let mut x: u32 = 0x9E37_79B9;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (first, n) = (u64::from(x % 40) + 1, u64::from(x >> 8) % 4);
            if x & 1 << 30 != 0 {
                let mut keys = KeyTable::default();
                keys.apply(KeyOp::Put {
                    key: Key { bucket: 1, name: 1 },
                    size: 100,
                });
                let committed: Vec<Committed> = (first..first + n)
                    .map(|seq| Committed {
                        seq,
                        delta: 0,
                        evented: true,
                    })
                    .collect();
                map = committed.iter().map(|c| (c.seq, 1)).collect();
                let cp = ReconOmDbState {
                    keys,
                    seq: first + n,
                    committed,
                };
                db.reprocess_state(&cp);
            } else {
                let batch = OMUpdateEventBatch {
                    events: Vec::new(),
                    last_sequence_number: first + n,
                    write_batches: first..first + n,
                };
                for seq in first..first + n {
                    *map.entry(seq).or_default() += 1;
                }
                db.process(&batch);
            }
            for seq in 0..50 {
                assert_eq!(
                    db.applied(seq),
                    map.get(&seq).copied().unwrap_or(0),
                    "#{seq}"
                );
            }
        }
    }
}
