//! `FsDatasetImpl`: the DataNode's replica map, and the writer that finalizes a block into it.
//! `finalizeBlock` takes the block pool's write lock, `getBlockReports` (the FBR snapshot) its
//! read lock. `BlockReceiver`'s `PacketResponder` finalizes a replica and then, in
//! `DataNode.closeBlock`, notifies every `BPServiceActor`'s IBR manager
//! (`BPOfferService.notifyNamenodeReceivedBlock`, no BPOfferService lock).

use super::blocks::BlockSet;
use super::speed::counted::RwLock;
use super::threads::writer_thread;
use super::{Block, StorageId, World};
use crate::model::Program;
use crate::trace::{Cx, Trace};

#[derive(Debug, Default)]
pub struct FsDataset {
    /// The FINALIZED replicas (one storage per DataNode in the model).
    finalized: RwLock<BlockSet>,
}

impl FsDataset {
    /// `finalizeBlock`: the replica becomes FINALIZED in the replica map.
    pub fn finalize_block(&self, cx: &Cx, block: Block) {
        let mut finalized = self.finalized.write();
        finalized.insert(block);
        drop(finalized);
        crate::record!(cx, "FsDatasetImpl.finalizeBlock", "{block} FINALIZED");
    }

    /// `getBlockReports`: the FBR snapshot of every replica.
    pub fn get_block_reports(&self, cx: &Cx, ghost: impl FnOnce(BlockSet)) -> BlockSet {
        let finalized = self.finalized.read();
        let snapshot = *finalized;
        ghost(snapshot);
        drop(finalized);
        crate::record!(cx, "FsDatasetImpl.getBlockReports", "snapshot {snapshot:?}");
        snapshot
    }

    /// Appends the replicas to `fingerprint` (see `World::fingerprint`).
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        fingerprint.push(self.finalized().word());
    }

    pub fn duplicate(&self) -> Self {
        FsDataset {
            finalized: RwLock::new(self.finalized()),
        }
    }

    /// The finalized replicas (for outcomes, after the actors have finished).
    pub fn finalized(&self) -> BlockSet {
        *self.finalized.read()
    }
}

/// The order in which the writer finalizes and notifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriterOrder {
    /// Upstream: `finalizeBlock`, then `closeBlock` notifies the IBR managers.
    FinalizeThenNotify,
    /// An order mutant: the IBR is queued before the replica is FINALIZED, so an FBR snapshot
    /// taken in between misses a block whose IBR a concurrent `clearIBRs` drops (R1's twin).
    NotifyThenFinalize,
}

/// A `DataXceiver` thread receiving block `block` on DataNode `dn`.
pub struct Writer {
    name: &'static str,
    cx: Cx,
    dn: usize,
    storage: StorageId,
    block: Block,
    order: WriterOrder,
    next: usize,
}

impl Writer {
    pub fn new(trace: &Trace, dn: usize, block: Block, order: WriterOrder) -> Self {
        let name = writer_thread(dn);
        Writer {
            name,
            cx: trace.actor(name),
            dn,
            storage: dn as StorageId,
            block,
            order,
            next: 0,
        }
    }

    fn finalize(&self, w: &World) {
        w.datanodes[self.dn]
            .dataset
            .finalize_block(&self.cx, self.block);
    }

    /// `BPOfferService.notifyNamenodeReceivedBlock`'s loop: one actor's
    /// `notifyNamenodeBlock` (each call holds that IBR manager's monitor, and only it).
    fn notify(&self, w: &World, nn: usize) {
        w.datanodes[self.dn].actors[nn].ibrs.notify_namenode_block(
            &self.cx,
            self.storage,
            self.block,
            || w.ghost.notified(self.dn, nn, self.block),
        );
    }

    /// The NameNodes this DataNode reports to.
    fn namenodes(w: &World, dn: usize) -> usize {
        w.datanodes[dn].actors.len()
    }
}

impl Program<World> for Writer {
    fn actor(&self) -> &'static str {
        self.name
    }

    fn is_done(&self) -> bool {
        self.next == usize::MAX
    }

    /// `finalizeBlock`, then one `notifyNamenodeBlock` per actor in `bpServices` order (the
    /// mutant: the notifications first).
    fn step(&mut self, w: &World) {
        let actors = Self::namenodes(w, self.dn);
        let finalize_at = match self.order {
            WriterOrder::FinalizeThenNotify => 0,
            WriterOrder::NotifyThenFinalize => actors,
        };
        if self.next == finalize_at {
            self.finalize(w);
        } else {
            let nn = if self.next < finalize_at {
                self.next
            } else {
                self.next - 1
            };
            self.notify(w, nn);
        }
        self.next = if self.next == actors {
            usize::MAX
        } else {
            self.next + 1
        };
    }
}
