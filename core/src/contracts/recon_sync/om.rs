//! The Ozone Manager side: its RocksDB with sequence-numbered write batches, and
//! `OzoneManager.getDBUpdates`, the RPC Recon's delta sync calls (served from the RocksDB write
//! ahead log by `getUpdatesSince`).
//!
//! Simplified: every OM write batch here carries one key operation of the key table of an OBS
//! bucket (the `OzoneManagerDoubleBuffer` may group several transactions into one batch, which
//! only makes batches larger; a delete's `deletedTable` put is not watched by NSSummary). A
//! batch's sequence number advances by one per batch, as it does by one per operation upstream.

use crate::sync::Mutex;
use crate::trace::Cx;
use std::fmt;

/// A key of an OBS bucket's key table: `/vol1/bucket<bucket>/file<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub bucket: u8,
    pub name: u8,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/vol1/bucket{}/file{}", self.bucket, self.name)
    }
}

/// The key-table operation of one OM write batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOp {
    /// A key committed with its data size (a new key or an overwrite).
    Put {
        key: Key,
        size: u64,
    },
    Delete {
        key: Key,
    },
}

impl KeyOp {
    pub fn key(&self) -> Key {
        match *self {
            KeyOp::Put { key, .. } | KeyOp::Delete { key } => key,
        }
    }
}

impl fmt::Display for KeyOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyOp::Put { key, size } => write!(f, "put {key} ({size} B)"),
            KeyOp::Delete { key } => write!(f, "delete {key}"),
        }
    }
}

/// One OM RocksDB write batch, as `getDBUpdates` ships it (`byte[]` of a `WriteBatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteBatch {
    /// The sequence number of the batch in OM's RocksDB.
    pub seq: u64,
    pub op: KeyOp,
}

impl fmt::Display for WriteBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {}", self.seq, self.op)
    }
}

/// `DBUpdates`: the write batches after the requested sequence number and OM's latest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DBUpdates {
    pub data: Vec<WriteBatch>,
    pub latest_sequence_number: u64,
}

/// A key table (OM's, and the Recon OM DB's copy): each key with its data size, in key order.
/// A sorted vector, not a map: a table holds a few keys, and a fuzz run pays for every distinct
/// code path it executes (libFuzzer's bookkeeping is per edge), which a B-tree has many of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyTable(Vec<(Key, u64)>);

impl KeyTable {
    fn find(&self, key: Key) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.cmp(&key))
    }

    pub fn get(&self, key: Key) -> Option<u64> {
        self.find(key).ok().map(|i| self.0[i].1)
    }

    pub fn contains(&self, key: Key) -> bool {
        self.find(key).is_ok()
    }

    /// An empty table with room for `n` keys.
    pub fn with_room(n: usize) -> Self {
        KeyTable(Vec::with_capacity(n))
    }

    /// A copy with room for `n` more keys.
    pub fn copy_with_room(&self, n: usize) -> Self {
        let mut copy = Vec::with_capacity(self.0.len() + n);
        copy.extend_from_slice(&self.0);
        KeyTable(copy)
    }

    /// Writes one key-table operation.
    pub fn apply(&mut self, op: KeyOp) {
        match (op, self.find(op.key())) {
            (KeyOp::Put { size, .. }, Ok(i)) => self.0[i].1 = size,
            (KeyOp::Put { key, size }, Err(i)) => self.0.insert(i, (key, size)),
            (KeyOp::Delete { .. }, Ok(i)) => {
                self.0.remove(i);
            }
            (KeyOp::Delete { .. }, Err(_)) => {}
        }
    }

    /// Every key with its size, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (Key, u64)> + Clone + '_ {
        self.0.iter().copied()
    }

    /// Files and bytes under `bucket`, what NSSummary should report for it.
    pub fn files_in(&self, bucket: u8) -> (i64, i64) {
        self.iter()
            .filter(|(k, _)| k.bucket == bucket)
            .fold((0, 0), |(n, b), (_, s)| (n + 1, b + s as i64))
    }
}

/// The OM RocksDB: the key table, the latest sequence number and the write ahead log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OmDb {
    pub keys: KeyTable,
    pub seq: u64,
    pub wal: Vec<WriteBatch>,
}

impl OmDb {
    /// An empty DB with room for `batches` write batches and `keys` keys.
    pub fn with_room(batches: usize, keys: usize) -> Self {
        OmDb {
            keys: KeyTable::with_room(keys),
            seq: 0,
            wal: Vec::with_capacity(batches),
        }
    }

    /// Files and bytes under `bucket`, what NSSummary should report for it.
    pub fn files_in(&self, bucket: u8) -> (i64, i64) {
        self.keys.files_in(bucket)
    }

    /// Applies one write batch (OM's own commit of a key request).
    pub fn apply(&mut self, op: KeyOp) -> WriteBatch {
        self.seq += 1;
        self.keys.apply(op);
        let batch = WriteBatch { seq: self.seq, op };
        self.wal.push(batch);
        batch
    }
}

/// The OM, as far as Recon sees it. RocksDB makes a write batch and a WAL read atomic with
/// respect to each other; the mutex stands for that, not for a Java lock.
#[derive(Debug, Default)]
pub struct OzoneManager {
    db: Mutex<OmDb>,
}

impl OzoneManager {
    pub fn new(db: OmDb) -> Self {
        OzoneManager { db: Mutex::new(db) }
    }

    /// A key request committed by OM (`OzoneManagerDoubleBuffer.flushTransactions` writes its
    /// batch). Keys that do not exist are not deleted (OM answers KEY_NOT_FOUND).
    pub fn write(&self, cx: &Cx, op: KeyOp) -> Option<WriteBatch> {
        let mut db = self.db.lock();
        if let KeyOp::Delete { key } = op {
            if !db.keys.contains(key) {
                cx.record(
                    "OzoneManager.deleteKey",
                    format_args!("{key}: KEY_NOT_FOUND"),
                );
                return None;
            }
        }
        let batch = db.apply(op);
        let bucket = op.key().bucket;
        cx.record(
            "OzoneManagerDoubleBuffer.flushTransactions",
            fmt::from_fn(|f| {
                let (files, bytes) = db.files_in(bucket);
                write!(
                    f,
                    "write batch {batch}; OM bucket{bucket} files={files} size={bytes}"
                )
            }),
        );
        Some(batch)
    }

    /// `OzoneManager.getDBUpdates(seq, limit)`: the write batches after `from` (the limit,
    /// 50,000, is never reached here) and OM's latest sequence number.
    pub fn get_db_updates(&self, cx: &Cx, from: u64) -> DBUpdates {
        let db = self.db.lock();
        // The log is in sequence order.
        let after = db.wal.partition_point(|b| b.seq <= from);
        let data = db.wal[after..].to_vec();
        cx.record(
            "OzoneManager.getDBUpdates",
            format_args!(
                "from #{from}: [{}], latest #{}",
                super::joined(&data, ", "),
                db.seq
            ),
        );
        DBUpdates {
            data,
            latest_sequence_number: db.seq,
        }
    }

    /// Files and bytes under `bucket` (see [`KeyTable::files_in`]), without a copy of the DB.
    pub fn files_in(&self, bucket: u8) -> (i64, i64) {
        self.db.lock().files_in(bucket)
    }

    /// OM's latest sequence number.
    pub fn sequence_number(&self) -> u64 {
        self.db.lock().seq
    }

    /// The whole DB (a full snapshot download, and the observed state).
    pub fn db(&self) -> OmDb {
        self.db.lock().clone()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The key table decides as the map it replaced: the same keys, sizes and order after
    /// every operation of a fixed pseudo-random sequence.
    #[test]
    fn the_key_table_holds_what_a_map_would() {
        let (mut table, mut map) = (KeyTable::default(), BTreeMap::new());
        let mut x: u32 = 0x2545_F491;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let key = Key {
                bucket: (x % 3) as u8,
                name: (x >> 8) as u8 % 7,
            };
            let op = if x & 1 << 20 != 0 {
                map.insert(key, u64::from(x >> 24));
                KeyOp::Put {
                    key,
                    size: u64::from(x >> 24),
                }
            } else {
                map.remove(&key);
                KeyOp::Delete { key }
            };
            table.apply(op);
            assert!(table.iter().eq(map.iter().map(|(k, s)| (*k, *s))));
            assert_eq!(table.get(key), map.get(&key).copied());
            assert_eq!(table.contains(key), map.contains_key(&key));
        }
    }
}
