//! `IncrementalBlockReportManager`: one per `BPServiceActor` (so one pending-IBR queue per
//! NameNode). Its methods are `synchronized` on the manager (the monitor here), except
//! `clearIBRs`, which clears the `pendingIBRs` `HashMap` from the command thread while writers
//! and the actor thread use it under the monitor: the map is a [`RaceCell`], so loom reports
//! that data race (O4).

use super::blocks::BlockSet;
use super::speed::counted::{Mutex, RaceCell};
use super::{StorageId, MAX_DATANODES};
use crate::trace::Cx;

/// Per storage (indexed by its id, one per DataNode), `Some` when the map has an entry for
/// it: upstream's `HashMap`, iterated in storage order as a `BTreeMap` would be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerStorage([Option<BlockSet>; MAX_DATANODES]);

impl PerStorage {
    /// The storages with an entry, in storage order.
    pub fn iter(&self) -> impl Iterator<Item = (StorageId, BlockSet)> + '_ {
        (0..).zip(self.0).filter_map(|(s, b)| Some((s, b?)))
    }

    /// Whether no storage has an entry.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }

    /// The blocks of every entry.
    pub fn blocks(&self) -> BlockSet {
        self.iter()
            .fold(BlockSet::EMPTY, |all, (_, b)| all.union(b))
    }

    fn entry(&mut self, storage: StorageId) -> &mut Option<BlockSet> {
        &mut self.0[storage as usize]
    }
}

/// `pendingIBRs`: per storage, the blocks not yet reported (RECEIVED_BLOCK only: the model
/// writes finalized blocks).
pub type PendingIbrs = PerStorage;

/// The IBRs `generateIBRs` drained, per storage (only storages with blocks), to send and, on
/// failure, to put back.
pub type Reports = PerStorage;

#[derive(Debug)]
pub struct IncrementalBlockReportManager {
    /// The manager's monitor; it guards `readyToSend` too (a `volatile` upstream, read here
    /// under the monitor: only when the actor sends IBRs depends on it, never what it sends).
    monitor: Mutex<bool>,
    pending_ibrs: RaceCell<PendingIbrs>,
    /// Whether `clearIBRs` can run without the monitor here (the report's code without P2).
    /// Otherwise every access to `pendingIBRs` holds the monitor, which orders them for loom,
    /// and the map is a [`RaceCell::guarded`].
    clear_unlocked: bool,
}

/// `putMissing` dereferenced `pendingIBRs.get(storage)` after a concurrent `clearIBRs` removed
/// the storage's entry: a `NullPointerException` upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PutMissingNpe {
    pub storage: StorageId,
    pub lost: BlockSet,
}

impl Default for IncrementalBlockReportManager {
    fn default() -> Self {
        Self::new(true)
    }
}

impl IncrementalBlockReportManager {
    /// An empty manager; `clear_unlocked`: whether `clearIBRs` can run without the monitor.
    pub fn new(clear_unlocked: bool) -> Self {
        Self::holding(PendingIbrs::default(), false, clear_unlocked)
    }

    fn holding(pending: PendingIbrs, ready: bool, clear_unlocked: bool) -> Self {
        IncrementalBlockReportManager {
            monitor: Mutex::new(ready),
            pending_ibrs: if clear_unlocked {
                RaceCell::new(pending)
            } else {
                RaceCell::guarded(pending)
            },
            clear_unlocked,
        }
    }

    /// `notifyNamenodeBlock(RECEIVED_BLOCK)`: `addRDBI` then `triggerIBR`, under the monitor.
    pub fn notify_namenode_block(
        &self,
        cx: &Cx,
        storage: StorageId,
        block: super::Block,
        ghost: impl FnOnce(),
    ) {
        let mut ready = self.monitor.lock();
        self.pending_ibrs.with_mut(|p| {
            p.entry(storage).get_or_insert_default().insert(block);
            ghost();
        });
        *ready = true;
        crate::record!(
            cx,
            "IncrementalBlockReportManager.notifyNamenodeBlock",
            "pendingIBRs += {block}, readyToSend=true"
        );
    }

    /// `sendImmediately()` with `dfs.blockreport.incremental.intervalMsec` = 0: `readyToSend`.
    pub fn send_immediately(&self) -> bool {
        *self.monitor.lock()
    }

    /// `generateIBRs`: drains every storage's blocks (the entries stay), under the monitor.
    pub fn generate_ibrs(&self, cx: &Cx, ghost: impl FnOnce(&Reports)) -> Reports {
        let mut ready = self.monitor.lock();
        let reports: Reports = self.pending_ibrs.with_mut(|p| {
            let mut reports = Reports::default();
            for (entry, report) in p.0.iter_mut().zip(&mut reports.0) {
                if let Some(blocks) = entry.as_mut().filter(|b| !b.is_empty()) {
                    *report = Some(blocks.take());
                }
            }
            ghost(&reports);
            reports
        });
        *ready = false;
        crate::record!(
            cx,
            "IncrementalBlockReportManager.generateIBRs",
            "drained {}",
            reports.blocks().list()
        );
        reports
    }

    /// `putMissing` after a failed `blockReceivedAndDeleted`: puts the blocks back unless newer
    /// ones are queued, under the monitor. Upstream before HDFS-17953 does not check that the
    /// storage's entry is still there (a `NullPointerException` loses that storage's blocks and
    /// every later one); with HDFS-17953 (`trunk`) a storage whose entry a clear removed is
    /// skipped, and its blocks are lost silently (`ghost` gets them either way).
    pub fn put_missing(
        &self,
        cx: &Cx,
        reports: &Reports,
        trunk: bool,
        ghost: impl FnOnce(BlockSet, bool),
    ) -> Result<(), PutMissingNpe> {
        let mut ready = self.monitor.lock();
        let mut skipped = BlockSet::EMPTY;
        let result = self.pending_ibrs.with_mut(|p| {
            for (storage, blocks) in reports.iter() {
                let Some(queued) = p.entry(storage) else {
                    if trunk {
                        skipped = skipped.union(blocks);
                        continue;
                    }
                    // The exception loses this storage's blocks and every one after it.
                    let lost = reports
                        .iter()
                        .skip_while(|&(s, _)| s != storage)
                        .fold(BlockSet::EMPTY, |all, (_, b)| all.union(b));
                    return Err(PutMissingNpe { storage, lost });
                };
                *queued = queued.union(blocks);
            }
            Ok(())
        });
        match &result {
            Ok(()) => {
                *ready = !reports.is_empty();
                if !skipped.is_empty() {
                    ghost(skipped, false);
                }
                crate::record!(
                    cx,
                    "IncrementalBlockReportManager.putMissing",
                    "re-queued {}{}",
                    reports.blocks().difference(skipped).list(),
                    if skipped.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; {} skipped: their storage's entry was cleared",
                            skipped.list()
                        )
                    }
                );
            }
            Err(npe) => {
                ghost(npe.lost, true);
                crate::record!(
                    cx,
                    "IncrementalBlockReportManager.putMissing",
                    "pendingIBRs.get({}) is null: NullPointerException, {} not re-queued",
                    npe.storage,
                    npe.lost.list()
                )
            }
        }
        result
    }

    /// `clearIBRs()`: `pendingIBRs.clear()`, without the monitor before HDFS-17953
    /// (`synchronized` on trunk, and in the P2-sync-only mutant; trunk also resets
    /// `pendingBlockCount`, which only `clearIBRsIfNeeded` reads).
    pub fn clear_ibrs(&self, cx: &Cx, synchronized: bool, ghost: impl FnOnce(BlockSet)) {
        assert!(
            synchronized || self.clear_unlocked,
            "an unsynchronized clearIBRs on a manager built for synchronized ones"
        );
        let _monitor = synchronized.then(|| self.monitor.lock());
        let dropped = self.pending_ibrs.with_mut(|p| {
            let dropped = p.blocks();
            *p = PendingIbrs::default();
            ghost(dropped);
            dropped
        });
        crate::record!(
            cx,
            "IncrementalBlockReportManager.clearIBRs",
            "{}pendingIBRs.clear() drops {}",
            if synchronized { "synchronized " } else { "" },
            dropped.list()
        );
    }

    /// A copy in the same state.
    pub fn duplicate(&self) -> Self {
        let ready = self.monitor.lock();
        let pending = self.pending_ibrs.with(|p| *p);
        Self::holding(pending, *ready, self.clear_unlocked)
    }

    /// Appends `readyToSend` and the pending IBRs to `fingerprint` (see `World::fingerprint`):
    /// which storages have an entry (an empty one is not a missing one: `putMissing`), and each
    /// entry's blocks.
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        let ready = self.monitor.lock();
        self.pending_ibrs.with(|p| {
            let entries = p.0.iter().enumerate();
            let present = entries.fold(0, |mask, (s, e)| mask | u64::from(e.is_some()) << s);
            fingerprint.push(u64::from(*ready) | present << 1);
            for b in p.0.iter().flatten() {
                fingerprint.push(b.word());
            }
        });
    }

    /// Whether no block is pending for any storage (then `generateIBRs` sends nothing).
    pub fn nothing_pending(&self) -> bool {
        let _monitor = self.monitor.lock();
        self.pending_ibrs.with(|p| p.blocks().is_empty())
    }

    /// The pending blocks (for witnesses, after the actors have finished).
    pub fn pending(&self) -> BlockSet {
        let _monitor = self.monitor.lock();
        self.pending_ibrs.with(|p| p.blocks())
    }
}
