//! `IncrementalBlockReportManager`: one per `BPServiceActor` (so one pending-IBR queue per
//! NameNode). Its methods are `synchronized` on the manager (the monitor here), except
//! `clearIBRs`, which clears the `pendingIBRs` `HashMap` from the command thread while writers
//! and the actor thread use it under the monitor: the map is a [`RaceCell`], so loom reports
//! that data race (O4).

use super::{wrote, Block, StorageId};
use crate::sync::{Mutex, RaceCell};
use crate::trace::Cx;
use std::collections::{BTreeMap, BTreeSet};

/// `pendingIBRs`: per storage, the blocks not yet reported (RECEIVED_BLOCK only: the model
/// writes finalized blocks).
pub type PendingIbrs = BTreeMap<StorageId, BTreeSet<Block>>;

/// The IBRs `generateIBRs` drained, per storage, to send and, on failure, to put back.
pub type Reports = Vec<(StorageId, Vec<Block>)>;

#[derive(Debug)]
pub struct IncrementalBlockReportManager {
    /// The manager's monitor; it guards `readyToSend` too (a `volatile` upstream, read here
    /// under the monitor: only when the actor sends IBRs depends on it, never what it sends).
    monitor: Mutex<bool>,
    pending_ibrs: RaceCell<PendingIbrs>,
}

/// `putMissing` dereferenced `pendingIBRs.get(storage)` after a concurrent `clearIBRs` removed
/// the storage's entry: a `NullPointerException` upstream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PutMissingNpe {
    pub storage: StorageId,
    pub lost: Vec<Block>,
}

impl Default for IncrementalBlockReportManager {
    fn default() -> Self {
        IncrementalBlockReportManager {
            monitor: Mutex::new(false),
            pending_ibrs: RaceCell::new(PendingIbrs::new()),
        }
    }
}

impl IncrementalBlockReportManager {
    /// `notifyNamenodeBlock(RECEIVED_BLOCK)`: `addRDBI` then `triggerIBR`, under the monitor.
    pub fn notify_namenode_block(
        &self,
        cx: &Cx,
        storage: StorageId,
        block: Block,
        ghost: impl FnOnce(),
    ) {
        wrote();
        let mut ready = self.monitor.lock();
        self.pending_ibrs.with_mut(|p| {
            p.entry(storage).or_default().insert(block);
            ghost();
        });
        *ready = true;
        cx.record(
            "IncrementalBlockReportManager.notifyNamenodeBlock",
            format_args!("pendingIBRs += {block}, readyToSend=true"),
        );
    }

    /// `sendImmediately()` with `dfs.blockreport.incremental.intervalMsec` = 0: `readyToSend`.
    pub fn send_immediately(&self) -> bool {
        *self.monitor.lock()
    }

    /// `generateIBRs`: drains every storage's blocks (the entries stay), under the monitor.
    pub fn generate_ibrs(&self, cx: &Cx, ghost: impl FnOnce(&Reports)) -> Reports {
        wrote();
        let mut ready = self.monitor.lock();
        let reports: Reports = self.pending_ibrs.with_mut(|p| {
            let reports = p
                .iter_mut()
                .filter(|(_, blocks)| !blocks.is_empty())
                .map(|(s, blocks)| (*s, std::mem::take(blocks).into_iter().collect()))
                .collect();
            ghost(&reports);
            reports
        });
        *ready = false;
        cx.record(
            "IncrementalBlockReportManager.generateIBRs",
            format_args!("drained {}", render(&reports)),
        );
        reports
    }

    /// `putMissing` after a failed `blockReceivedAndDeleted`: puts the blocks back unless newer
    /// ones are queued, under the monitor. Upstream does not check that the storage's entry is
    /// still there.
    pub fn put_missing(
        &self,
        cx: &Cx,
        reports: &Reports,
        ghost: impl FnOnce(&[Block]),
    ) -> Result<(), PutMissingNpe> {
        wrote();
        let mut ready = self.monitor.lock();
        let result = self.pending_ibrs.with_mut(|p| {
            for (storage, blocks) in reports {
                let Some(queued) = p.get_mut(storage) else {
                    // The exception loses this storage's blocks and every one after it.
                    let lost: Vec<Block> = reports
                        .iter()
                        .skip_while(|(s, _)| s != storage)
                        .flat_map(|(_, b)| b.iter().copied())
                        .collect();
                    ghost(&lost);
                    return Err(PutMissingNpe {
                        storage: *storage,
                        lost,
                    });
                };
                queued.extend(blocks.iter().copied());
            }
            Ok(())
        });
        match &result {
            Ok(()) => {
                *ready = !reports.is_empty();
                cx.record(
                    "IncrementalBlockReportManager.putMissing",
                    format_args!("re-queued {}", render(reports)),
                );
            }
            Err(npe) => cx.record(
                "IncrementalBlockReportManager.putMissing",
                format_args!(
                    "pendingIBRs.get({}) is null: NullPointerException, {:?} not re-queued",
                    npe.storage, npe.lost
                ),
            ),
        }
        result
    }

    /// `clearIBRs()`: `pendingIBRs.clear()`, without the monitor upstream (`synchronized` is
    /// the P2-sync-only mutant).
    pub fn clear_ibrs(&self, cx: &Cx, synchronized: bool, ghost: impl FnOnce(&[Block])) {
        wrote();
        let _monitor = synchronized.then(|| self.monitor.lock());
        let dropped: Vec<Block> = self.pending_ibrs.with_mut(|p| {
            let dropped: Vec<Block> = p.values().flatten().copied().collect();
            p.clear();
            ghost(&dropped);
            dropped
        });
        cx.record(
            "IncrementalBlockReportManager.clearIBRs",
            format_args!(
                "{}pendingIBRs.clear() drops {dropped:?}",
                if synchronized { "synchronized " } else { "" }
            ),
        );
    }

    /// A copy in the same state.
    pub fn duplicate(&self) -> Self {
        let ready = self.monitor.lock();
        IncrementalBlockReportManager {
            monitor: Mutex::new(*ready),
            pending_ibrs: RaceCell::new(self.pending_ibrs.with(|p| p.clone())),
        }
    }

    /// Whether `other` (a copy of this manager) is in the same state.
    pub fn same_state(&self, other: &Self) -> bool {
        *self.monitor.lock() == *other.monitor.lock()
            && self
                .pending_ibrs
                .with(|p| other.pending_ibrs.with(|q| p == q))
    }

    /// Whether no block is pending for any storage (then `generateIBRs` sends nothing).
    pub fn nothing_pending(&self) -> bool {
        let _monitor = self.monitor.lock();
        self.pending_ibrs
            .with(|p| p.values().all(BTreeSet::is_empty))
    }

    /// The pending blocks (for witnesses, after the actors have finished).
    pub fn pending(&self) -> BTreeSet<Block> {
        let _monitor = self.monitor.lock();
        self.pending_ibrs
            .with(|p| p.values().flatten().copied().collect())
    }
}

/// The blocks of `reports` as one list, formatted only when a timeline is recorded.
fn render(reports: &Reports) -> impl std::fmt::Display + '_ {
    struct Blocks<'a>(&'a Reports);
    impl std::fmt::Display for Blocks<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_list()
                .entries(self.0.iter().flat_map(|(_, b)| b))
                .finish()
        }
    }
    Blocks(reports)
}
