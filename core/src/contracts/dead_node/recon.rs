//! Recon's node manager: `ReconNodeManager` extends `SCMNodeManager` (same `register`, same
//! `NodeStateManager` and health checks, `ReconDeadNodeHandler` extends `DeadNodeHandler`), and
//! differs in three places modelled here:
//! - `processHeartbeat`: a heartbeat after a gap of at least 3 × `hdds.heartbeat.recon.interval`
//!   (or the first one) only updates Recon's own `datanodeHeartbeatMap` and answers
//!   `ReregisterCommand`; the `NodeStateManager` heartbeat time is not written;
//! - `register`: a known node's row in the node table is rewritten, then `SCMNodeManager.register`;
//! - `reinitialize` → `loadExistingNodes` after an SCM DB snapshot swap (which first
//!   reinitializes the container manager: no replica until the next reports): `register` for
//!   every row of the node table, outside any RPC, so the row's address stands; where it
//!   differs from memory (the row holds what the datanode reported, memory the RPC peer's),
//!   `register` goes through `updateNode`.
//!
//! `datanodeHeartbeatMap` is a plain `HashMap` upstream, written by `processHeartbeat` on the
//! RPC handler threads with no lock. A `put` of a key already present finds its entry and
//! replaces the value: each node's value is written only by that node's own heartbeats, which
//! the datanode sends one after another, modelled as one atomic per node (`put` returns the
//! previous value: a swap). A `put` of a new key (a node's first heartbeat since Recon started)
//! changes the table itself (a bucket, `size`, `modCount`, perhaps a resize), which every other
//! `put` reads to find its entry: the table is a race-tracked cell, written by an insert and
//! read by every lookup, so that two datanodes' first heartbeats on two handler threads are a
//! data race (O10).

use super::ids::{slot, ContainerId, NodeId, NodeSet, NODE_SLOTS};
use super::node_manager;
use super::World;
use crate::model::Program;
use crate::sync::{AtomicU64, Mutex, Ordering, RaceCell};
use crate::trace::{Cx, Trace};
use std::fmt;

/// Which known nodes Recon's reload skips (P3 is [`SkipKnown::Known`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipKnown {
    /// Upstream: it registers every row again.
    Off,
    /// P3: every node the node manager already knows.
    Known,
    /// A broken P3 (a mutant the suite must catch): a known node whose row equals memory; a
    /// row that differs (behind NAT) is registered, through updateNode (O8's and O9's path).
    SameRowOnly,
    /// A broken P3 (a mutant the suite must catch): a known node whose row differs from memory;
    /// an equal row is registered, and P1 refreshes it (O4's path).
    OtherRowOnly,
}

impl SkipKnown {
    /// Whether the reload skips a row (`row`, its address); `known` reads the node's address
    /// in memory (`None`: not known), and only when a variant skips (upstream reads nothing).
    pub fn skips(self, known: impl FnOnce() -> Option<u8>, row: u8) -> bool {
        if self == SkipKnown::Off {
            return false;
        }
        match (self, known()) {
            (_, None) | (SkipKnown::Off, _) => false,
            (SkipKnown::Known, Some(_)) => true,
            (SkipKnown::SameRowOnly, Some(a)) => a == row,
            (SkipKnown::OtherRowOnly, Some(a)) => a != row,
        }
    }
}

/// 3 × `hdds.heartbeat.recon.interval` (3 × 60 s), in health-check ticks: below the stale
/// interval, so every node that comes back from STALE or DEAD is told to re-register; above the
/// datanode's heartbeat interval (`hdds.heartbeat.interval`, 30 s), one tick here.
pub const RECON_OUTDATED: u64 = 2;

const ABSENT: u64 = u64::MAX;

/// The node table's rows: each stored node's address, by node ID.
pub type Rows = [Option<u8>; NODE_SLOTS];

/// Recon's own state beside the shared node manager.
#[derive(Debug)]
pub struct ReconNodeManager {
    /// `nodeDB`: the node table (a RocksDB table, thread-safe).
    node_db: Mutex<Rows>,
    /// `datanodeHeartbeatMap`'s table: the nodes it holds a key for (see the module notes).
    table: RaceCell<NodeSet>,
    /// `datanodeHeartbeatMap`'s values: last heartbeat per node (Recon's wall clock, the same
    /// ticks), by node ID; [`ABSENT`] while the table holds no key for it.
    heartbeats: [Option<AtomicU64>; NODE_SLOTS],
}

impl ReconNodeManager {
    /// Rows for `nodes` at `address(node)` (what `ReconNewNodeHandler` stored when each first
    /// registered: the details after `register` set the peer's address); each last heard from
    /// at `now`.
    pub fn new(
        nodes: &[(NodeId, &[ContainerId])],
        address: impl Fn(NodeId) -> u8,
        now: u64,
    ) -> Self {
        let mut rows = [None; NODE_SLOTS];
        for &(n, _) in nodes {
            rows[slot(n)] = Some(address(n));
        }
        let node_db = Mutex::new(rows);
        let mut keys = NodeSet::EMPTY;
        for &(n, _) in nodes {
            keys.insert(n);
        }
        let table = RaceCell::new(keys);
        let mut heartbeats: [Option<AtomicU64>; NODE_SLOTS] = Default::default();
        for &(n, _) in nodes {
            heartbeats[slot(n)] = Some(AtomicU64::new(now));
        }
        ReconNodeManager {
            node_db,
            table,
            heartbeats,
        }
    }

    /// Recon has just started: `datanodeHeartbeatMap` is empty (the node table is loaded, no
    /// heartbeat has arrived yet). Run before any actor.
    pub fn started_empty(&self) {
        self.table.with_mut(|t| *t = NodeSet::EMPTY);
        for h in self.heartbeats.iter().flatten() {
            h.store(ABSENT, Ordering::SeqCst);
        }
    }

    pub fn rows(&self) -> Rows {
        *self.node_db.lock()
    }
}

/// `ReconNodeManager.processHeartbeat`.
pub fn process_heartbeat(cx: &Cx, w: &World, node: NodeId) {
    let now = w.clock.now();
    // `datanodeHeartbeatMap.put`: the lookup reads the table; a new key changes it.
    if !w.recon.table.with(|t| t.contains(node)) {
        w.recon.table.with_mut(|t| t.insert(node));
    }
    let last = w
        .recon
        .heartbeats
        .get(slot(node))
        .and_then(Option::as_ref)
        .map_or(ABSENT, |h| h.swap(now, Ordering::SeqCst));
    if last == ABSENT || now - last >= RECON_OUTDATED {
        cx.record(
            "ReconNodeManager.processHeartbeat",
            format_args!(
                "dn{node}: last heartbeat {} → ReregisterCommand (NodeStateManager not updated)",
                fmt::from_fn(|f| match last {
                    ABSENT => f.write_str("none"),
                    _ => write!(f, "t={last}"),
                })
            ),
        );
    } else {
        node_manager::process_heartbeat(cx, w, node);
        cx.record(
            "ReconNodeManager.processHeartbeat",
            format_args!("dn{node}: last heartbeat t={last}: SCMNodeManager.processHeartbeat"),
        );
    }
}

/// `ReconNodeManager.register`: a known node's row is rewritten with the `DatanodeDetails` as
/// the datanode sent them (`nodeDB.put`), *before* `SCMNodeManager.register` replaces their
/// hostname and IP with the RPC peer's: behind NAT, on a multi-homed host or without reverse
/// DNS, the row then differs from the node manager's memory.
pub fn register(
    cx: &Cx,
    w: &World,
    node: NodeId,
    reported: u8,
    remote: Option<u8>,
    by_datanode: bool,
) -> Option<u64> {
    if w.nodes.address_of(node).is_some() {
        w.recon.node_db.lock()[slot(node)] = Some(reported);
        cx.record(
            "ReconNodeManager.register",
            format_args!("dn{node} known: node table row rewritten (address {reported})"),
        );
    }
    node_manager::register(cx, w, node, reported, remote, by_datanode)
}

#[derive(Debug)]
enum ReloadStep {
    ReinitializeContainers,
    ReadRows,
    /// The rows still to register, by ascending node ID.
    Register(Rows),
    Done,
}

/// `ReconStorageContainerManagerFacade` swapping in a new SCM DB snapshot (its sync thread),
/// which ends with `ReconNodeManager.reinitialize(nodeTable)` → `loadExistingNodes`.
#[derive(Debug)]
pub struct ReconReload {
    cx: Cx,
    next: ReloadStep,
}

impl ReconReload {
    pub const ACTOR: &'static str = "Recon-sync";

    pub fn new(trace: &Trace) -> Self {
        ReconReload {
            cx: trace.actor(Self::ACTOR),
            next: ReloadStep::ReinitializeContainers,
        }
    }
}

impl Program<World> for ReconReload {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        matches!(self.next, ReloadStep::Done)
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        self.next = match std::mem::replace(&mut self.next, ReloadStep::Done) {
            // `ReconContainerManager.reinitialize` (just before the node manager's): a new
            // `ContainerStateMap` from the snapshot, with no replica until the next reports.
            ReloadStep::ReinitializeContainers => {
                w.containers.reinitialize(cx);
                w.ghost
                    .with(|g| g.nodes.iter_mut().for_each(|n| n.reported = None));
                ReloadStep::ReadRows
            }
            ReloadStep::ReadRows => {
                let rows = w.recon.rows();
                let n = rows.iter().flatten().count();
                cx.record(
                    "ReconNodeManager.reinitialize",
                    format_args!("loadExistingNodes: {n} rows"),
                );
                // The private method reinitialize calls; it registers the rows one by one (the
                // steps that follow are inside it).
                cx.record(
                    "ReconNodeManager.loadExistingNodes",
                    format_args!("{n} rows of the node table"),
                );
                ReloadStep::Register(rows)
            }
            ReloadStep::Register(mut rows) => {
                let Some((node, address)) = rows
                    .iter_mut()
                    .enumerate()
                    .find_map(|(n, row)| Some((n as NodeId, row.take()?)))
                else {
                    return;
                };
                // P3: a node the node manager already knows is not registered again.
                if w.fix
                    .reload_skips_known
                    .get()
                    .skips(|| w.nodes.address_of(node), address)
                {
                    cx.record(
                        "ReconNodeManager.loadExistingNodes",
                        format_args!("dn{node} already registered: skipped (P3)"),
                    );
                } else {
                    register(cx, w, node, address, None, false);
                }
                if rows.iter().all(Option::is_none) {
                    ReloadStep::Done
                } else {
                    ReloadStep::Register(rows)
                }
            }
            ReloadStep::Done => ReloadStep::Done,
        };
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::{Fix, Service, World};
    use super::*;

    /// A node's first heartbeat since Recon started inserts its key into the table (the write
    /// O10 races on) and is answered `ReregisterCommand`; another node's key stays absent.
    #[test]
    fn a_first_heartbeat_inserts_its_key() {
        let w = World::new(Fix::UPSTREAM, Service::Recon, &[(1, &[1]), (2, &[1])], 0, 0);
        w.recon.started_empty();
        let keys = |w: &World| w.recon.table.with(|t| (t.contains(1), t.contains(2)));
        assert_eq!(keys(&w), (false, false));
        let trace = Trace::new();
        process_heartbeat(&trace.actor("RPC-dn1"), &w, 1);
        assert_eq!(keys(&w), (true, false));
        let answered = trace
            .events()
            .iter()
            .any(|e| e.detail.contains("ReregisterCommand"));
        assert!(
            answered,
            "the first heartbeat is answered ReregisterCommand"
        );
    }
}
