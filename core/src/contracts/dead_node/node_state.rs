//! `NodeStateManager`, its `NodeStateMap` and the `DatanodeInfo` objects the map holds, and the
//! health checker thread that runs `NodeStateManager.checkNodesHealth` (`SCMHeartbeatProcessor`).
//!
//! Upstream, `NodeStateMap` keeps one `DatanodeEntry` per datanode (the `DatanodeInfo` object and
//! the node's container-ID set) under its own `ReentrantReadWriteLock`, and each `DatanodeInfo`
//! keeps `lastHeartbeatTime` and `nodeStatus` under an internal `ReentrantReadWriteLock` of its
//! own. Both are short locks: every operation takes them for one read or one write (the status
//! read and update nest the `DatanodeInfo` lock inside the map lock). The model keeps them as
//! one loom `RwLock` over the table (in [`NodeStateManager`]): each upstream operation is still exactly
//! one critical section, so no ordering upstream allows is lost; merging them only adds
//! orderings between operations that commute (a heartbeat-time write and a container-ID write).
//! What the merge gives up is a lookup and the access that follows it being two sections; the
//! only writer that could act between them is `updateNode` replacing the entry, and the one
//! effect of that interleaving that matters (a health update computed from the old object's
//! heartbeat time but applied by ID to the new object) is named in the contract's notes rather
//! than modelled.
//!
//! The `DatanodeInfo` *monitor* (`synchronized (datanodeInfo)`, held by the report handlers for
//! the whole report, and by the fix's dead node handler) is a different lock: it is held across
//! several steps, so it is a [`SpanLock`] on the object, and a replaced object brings a new one.
//!
//! Logical time: [`Clock`] counts runs of the health check (`ozone.scm.heartbeat.thread.interval`,
//! 3 s upstream). Only the checker advances it, one tick per run, so a check runs in every tick;
//! the stale and dead intervals are [`STALE_INTERVAL`] and [`DEAD_INTERVAL`] ticks (5 and 10 min
//! upstream: only their order matters for the verdicts, stale < dead, and the Recon re-register
//! gap below stale). `shouldSkipCheck` (a run delayed by a JVM pause longer than the stale
//! interval is skipped) is not modelled: the model's checker is never delayed.

use super::ghost::{Episode, Ghost};
use super::{ContainerId, NodeId};
use crate::model::Program;
use crate::sync::{AtomicU64, Ordering, RwLock, SpanLock};
use crate::trace::{Cx, Trace};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
// std's Arc, not the shim's: which `DatanodeInfo` object an entry points at is model state,
// its reference count is not, and loom's Arc would add a scheduling point to every clone.
use std::sync::Arc;

/// `ozone.scm.stale.node.interval`, in health-check ticks.
pub const STALE_INTERVAL: u64 = 3;
/// `ozone.scm.dead.node.interval`, in health-check ticks.
pub const DEAD_INTERVAL: u64 = 6;

/// `Time.monotonicNow()` as the model sees it: the tick of the last health check.
#[derive(Debug)]
pub struct Clock(AtomicU64);

impl Clock {
    pub fn new(now: u64) -> Self {
        Clock(AtomicU64::new(now))
    }

    /// `Time.monotonicNow()`.
    pub fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }

    /// The scheduled health check's run starts one tick after the previous one.
    pub fn advance(&self) -> u64 {
        self.0.fetch_add(1, Ordering::SeqCst) + 1
    }
}

/// `HddsProtos.NodeState` (the health part of `NodeStatus`; the operational state is always
/// IN_SERVICE here: maintenance and decommissioning are outside the report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    Healthy,
    HealthyReadonly,
    Stale,
    Dead,
}

impl fmt::Display for NodeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeState::Healthy => "HEALTHY",
            NodeState::HealthyReadonly => "HEALTHY_READONLY",
            NodeState::Stale => "STALE",
            NodeState::Dead => "DEAD",
        })
    }
}

/// The event `fireHealthStateEvent` fires for a new health (`state2EventMap`).
pub fn health_event(health: NodeState) -> &'static str {
    match health {
        NodeState::Healthy => "HEALTHY_READONLY_TO_HEALTHY_NODE",
        NodeState::HealthyReadonly => "HEALTHY_READONLY_NODE",
        NodeState::Stale => "STALE_NODE",
        NodeState::Dead => "DEAD_NODE",
    }
}

/// A `DatanodeInfo` object: its identity (the monitor the report handlers synchronize on) and
/// what its constructor fixes. `lastHeartbeatTime` and `nodeStatus` live in its table entry.
///
/// Shared through a std `Arc`: reference counting is memory management here, not a
/// synchronization of the model (loom's `Arc` would add a scheduling point to every lookup).
#[derive(Debug)]
pub struct DatanodeInfo {
    pub id: NodeId,
    /// Which object this is: a new one per `addNode`/`updateNode` (Java object identity).
    pub incarnation: u32,
    /// Address, ports and version, as one number: a change makes `register` call `updateNode`.
    pub address: u8,
    /// `synchronized (datanodeInfo)`.
    pub monitor: SpanLock,
}

/// One `DatanodeEntry` with its `DatanodeInfo`'s mutable fields.
#[derive(Debug)]
pub struct DatanodeEntry {
    pub info: Arc<DatanodeInfo>,
    /// `DatanodeInfo.lastHeartbeatTime`.
    pub last_heartbeat: u64,
    /// `DatanodeInfo.nodeStatus` (health).
    pub health: NodeState,
    /// The node's container-ID set (`DatanodeEntry`).
    pub containers: BTreeSet<ContainerId>,
}

#[derive(Debug, Default)]
pub struct Table {
    pub entries: BTreeMap<NodeId, DatanodeEntry>,
    incarnations: u32,
}

impl Table {
    /// A fresh entry for `info`: HEALTHY, heartbeat time `now`, an empty container-ID set (as
    /// both `addNode` and `updateNode` leave it); the ghost notes the refresh.
    fn insert_fresh(
        &mut self,
        ghost: &Ghost,
        id: NodeId,
        info: Arc<DatanodeInfo>,
        now: u64,
        by_datanode: bool,
    ) {
        let entry = DatanodeEntry {
            info,
            last_heartbeat: now,
            health: NodeState::Healthy,
            containers: BTreeSet::new(),
        };
        self.entries.insert(id, entry);
        ghost.with(|g| {
            let seq = g.next_seq();
            let n = g.node(id);
            n.refreshed = seq;
            n.refreshed_by_datanode = by_datanode;
            n.dead = None;
        });
    }

    fn new_info(&mut self, id: NodeId, address: u8) -> Arc<DatanodeInfo> {
        self.incarnations += 1;
        Arc::new(DatanodeInfo {
            id,
            incarnation: self.incarnations,
            address,
            monitor: SpanLock::new(),
        })
    }
}

/// A status read (`getNodeStatus`), with the ghost facts the outcome predicates need.
#[derive(Clone, Copy, Debug)]
pub struct StatusRead {
    pub health: NodeState,
    pub last_heartbeat: u64,
    pub incarnation: u32,
    /// Ghost: the read happened after every event up to this order.
    pub at: u64,
    /// Ghost: the DEAD episode the node is in (when DEAD).
    pub episode: Option<Episode>,
    /// Ghost: the heartbeat time was written (by a registration or a heartbeat) after the node
    /// went DEAD: the next health check will resurrect it.
    pub refreshed_since_dead: bool,
}

/// `NodeStateManager` with its `NodeStateMap`.
#[derive(Debug)]
pub struct NodeStateManager {
    lock: RwLock<Table>,
}

impl NodeStateManager {
    /// Nodes already registered, HEALTHY, with a heartbeat at `now`, holding `containers`.
    pub fn new(nodes: &[(NodeId, &[ContainerId])], now: u64) -> Self {
        let mut table = Table::default();
        for &(id, containers) in nodes {
            let info = table.new_info(id, 0);
            table.entries.insert(
                id,
                DatanodeEntry {
                    info,
                    last_heartbeat: now,
                    health: NodeState::Healthy,
                    containers: containers.iter().copied().collect(),
                },
            );
        }
        NodeStateManager {
            lock: RwLock::new(table),
        }
    }

    /// `NodeStateMap.getNodeInfo` (`SCMNodeManager.getNode`, `isNodeRegistered`).
    pub fn get_node(&self, id: NodeId) -> Option<Arc<DatanodeInfo>> {
        self.lock.read().entries.get(&id).map(|e| e.info.clone())
    }

    /// `NodeStateMap.getNodeStatus` (map read lock, then the `DatanodeInfo` read lock).
    pub fn get_node_status(&self, ghost: &Ghost, id: NodeId) -> Option<StatusRead> {
        let t = self.lock.read();
        let e = t.entries.get(&id)?;
        Some(status_read(ghost, id, e))
    }

    /// `getNodeStatus` and then `getContainers`, as the fix's handler calls them under the
    /// monitor: two read sections upstream, one here. The writers of the container set are the
    /// report handler, which the monitor excludes, and `updateNode`, whose empty replacement set
    /// between the two reads would only make the handler remove nothing.
    pub fn get_node_status_and_containers(
        &self,
        ghost: &Ghost,
        id: NodeId,
    ) -> Option<(StatusRead, BTreeSet<ContainerId>)> {
        let t = self.lock.read();
        let e = t.entries.get(&id)?;
        Some((status_read(ghost, id, e), e.containers.clone()))
    }

    /// `NodeStateMap.getContainers`.
    pub fn get_containers(&self, id: NodeId) -> BTreeSet<ContainerId> {
        self.lock
            .read()
            .entries
            .get(&id)
            .map(|e| e.containers.clone())
            .unwrap_or_default()
    }

    /// `NodeStateManager.updateLastHeartbeatTime` → `DatanodeInfo.updateLastHeartbeatTime`,
    /// with `now` read from the clock before the write lock, as upstream. `why` names the caller.
    pub fn update_last_heartbeat_time(
        &self,
        cx: &Cx,
        ghost: &Ghost,
        id: NodeId,
        now: u64,
        why: &str,
        by_datanode: bool,
    ) {
        let mut t = self.lock.write();
        let Some(e) = t.entries.get_mut(&id) else {
            return;
        };
        let before = e.last_heartbeat;
        e.last_heartbeat = e.last_heartbeat.max(now);
        ghost.with(|g| {
            let seq = g.next_seq();
            let n = g.node(id);
            n.refreshed = seq;
            n.refreshed_by_datanode = by_datanode;
        });
        cx.record(
            "DatanodeInfo.updateLastHeartbeatTime",
            format_args!(
                "{why}: lastHeartbeatTime {before} → {now} (health stays {})",
                e.health
            ),
        );
    }

    /// `NodeStateManager.addNode`: a new `DatanodeInfo`, HEALTHY, heartbeat time now.
    pub fn add_node(
        &self,
        cx: &Cx,
        ghost: &Ghost,
        id: NodeId,
        address: u8,
        now: u64,
        by_datanode: bool,
    ) {
        let mut t = self.lock.write();
        let info = t.new_info(id, address);
        cx.record(
            "NodeStateManager.addNode",
            format_args!(
                "new DatanodeInfo #{} HEALTHY, lastHeartbeatTime {now}",
                info.incarnation
            ),
        );
        t.insert_fresh(ghost, id, info, now, by_datanode);
    }

    /// `NodeStateManager.updateNode` → `NodeStateMap.updateNode`: a *new* `DatanodeInfo` (new
    /// monitor, HEALTHY, heartbeat time now, no transition event) in a new entry whose
    /// container-ID set is empty.
    pub fn update_node(
        &self,
        cx: &Cx,
        ghost: &Ghost,
        id: NodeId,
        address: u8,
        now: u64,
        by_datanode: bool,
    ) {
        let mut t = self.lock.write();
        let info = t.new_info(id, address);
        let Some(old) = t.entries.get(&id) else {
            return;
        };
        cx.record(
            "NodeStateManager.updateNode",
            format_args!(
                "DatanodeInfo #{} {} replaced by #{} HEALTHY, lastHeartbeatTime {now}, container set {{}} (was {:?})",
                old.info.incarnation, old.health, info.incarnation, old.containers
            ),
        );
        t.insert_fresh(ghost, id, info, now, by_datanode);
    }

    /// One node of `checkNodesHealth` at `now`: its status, its heartbeat time and the update
    /// (see the module doc for why one section). Returns the events to fire, in order.
    pub fn check_node(&self, cx: &Cx, ghost: &Ghost, id: NodeId, now: u64) -> Vec<&'static str> {
        let mut t = self.lock.write();
        let Some(e) = t.entries.get_mut(&id) else {
            return Vec::new();
        };
        let from = e.health;
        let transitions = next_health(from, e.last_heartbeat, now);
        let fired: Vec<&'static str> = transitions
            .iter()
            .map(|&(_, to)| health_event(to))
            .collect();
        if let Some(&(_, to)) = transitions.last() {
            e.health = to;
        }
        let steps: Vec<String> = transitions
            .iter()
            .map(|(ev, to)| format!("{ev} → {to}"))
            .collect();
        cx.record(
            "NodeStateManager.checkNodesHealth",
            if steps.is_empty() {
                format!(
                    "t={now}: {from}, lastHeartbeatTime {} → stays {from}",
                    e.last_heartbeat
                )
            } else {
                format!(
                    "t={now}: {from}, lastHeartbeatTime {}: {} (fires {})",
                    e.last_heartbeat,
                    steps.join(", "),
                    fired.join(", ")
                )
            },
        );
        let (last_heartbeat, to) = (e.last_heartbeat, e.health);
        if from != to && (from == NodeState::Dead || to == NodeState::Dead) {
            ghost.with(|g| {
                let seq = g.next_seq();
                let down = g.down.contains(&id);
                let n = g.node(id);
                if to == NodeState::Dead {
                    // Evidence of life SCM had and did not use: the datanode (still up)
                    // registered within the dead interval, while the heartbeat time is older.
                    let despite_registration = !down
                        && n.registered.is_some_and(|(_, at)| at + DEAD_INTERVAL >= now);
                    n.dead = Some(Episode {
                        seq,
                        time: now,
                        despite_registration,
                    });
                    n.last_dead = n.dead;
                } else {
                    n.dead = None;
                    if !n.refreshed_by_datanode {
                        g.witness(
                            "O4",
                            format!(
                                "t={now}: RESURRECT DEAD → {to} on lastHeartbeatTime {last_heartbeat}, \
                                 written by Recon's reload, not by the datanode (which is {})",
                                if down { "down" } else { "up" }
                            ),
                        );
                    }
                }
            });
        }
        fired
    }

    /// The whole table (after the actors finished, or between driver steps).
    pub fn read<R>(&self, f: impl FnOnce(&Table) -> R) -> R {
        f(&self.lock.read())
    }

    /// The CR thread's reconciliation of the node's container-ID set with a full report
    /// (`getContainers`, then `addContainer` for each new ID and `removeContainer` for each ID
    /// the report lacks): a read section, and a write section only when the set changes.
    /// Returns the IDs the report lacks (their replicas are removed next) and the ghost order of
    /// the apply, taken in this first section of the report under the monitor, so that it is
    /// ordered by the table lock against every status read and transition.
    pub fn reconcile_containers(
        &self,
        cx: &Cx,
        ghost: &Ghost,
        id: NodeId,
        reported: &BTreeSet<ContainerId>,
    ) -> (BTreeSet<ContainerId>, u64) {
        let t = self.lock.read();
        let applied = ghost.with(|g| g.next_seq());
        if t.entries.get(&id).is_none_or(|e| &e.containers == reported) {
            return (BTreeSet::new(), applied);
        }
        drop(t);
        let mut t = self.lock.write();
        let Some(e) = t.entries.get_mut(&id) else {
            return (BTreeSet::new(), applied);
        };
        let missing: BTreeSet<ContainerId> = e.containers.difference(reported).copied().collect();
        let added: BTreeSet<ContainerId> = reported.difference(&e.containers).copied().collect();
        e.containers = reported.clone();
        cx.record(
            "NodeStateMap.addContainer",
            format_args!(
                "DatanodeInfo #{} container set +{added:?} −{missing:?}",
                e.info.incarnation
            ),
        );
        (missing, applied)
    }
}

fn status_read(ghost: &Ghost, id: NodeId, e: &DatanodeEntry) -> StatusRead {
    let (episode, refreshed, at) = ghost.with(|g| {
        let at = g.last_seq();
        let n = g.node(id);
        (n.dead, n.refreshed, at)
    });
    StatusRead {
        health: e.health,
        last_heartbeat: e.last_heartbeat,
        incarnation: e.info.incarnation,
        at,
        episode,
        refreshed_since_dead: episode.is_some_and(|ep| refreshed > ep.seq),
    }
}

/// `checkNodesHealth`'s decision for one node (`NodeStateMachine` transitions), the status read
/// once: HEALTHY → STALE on `TIMEOUT` when the heartbeat is older than the stale deadline;
/// HEALTHY_READONLY → HEALTHY on `LAYOUT_MATCH` (layouts always match here), then `TIMEOUT` from
/// HEALTHY_READONLY → STALE; STALE → DEAD on `TIMEOUT` past the dead deadline, STALE →
/// HEALTHY_READONLY on `RESTORE` within the stale deadline; DEAD → HEALTHY_READONLY on
/// `RESURRECT` within the stale deadline.
pub fn next_health(
    health: NodeState,
    last_heartbeat: u64,
    now: u64,
) -> Vec<(&'static str, NodeState)> {
    let stale = last_heartbeat + STALE_INTERVAL < now;
    let dead = last_heartbeat + DEAD_INTERVAL < now;
    let mut out = Vec::new();
    match health {
        NodeState::Healthy => {
            if stale {
                out.push(("TIMEOUT", NodeState::Stale));
            }
        }
        NodeState::HealthyReadonly => {
            out.push(("LAYOUT_MATCH", NodeState::Healthy));
            if stale {
                out.push(("TIMEOUT", NodeState::Stale));
            }
        }
        NodeState::Stale => {
            if dead {
                out.push(("TIMEOUT", NodeState::Dead));
            } else if !stale {
                out.push(("RESTORE", NodeState::HealthyReadonly));
            }
        }
        NodeState::Dead => {
            if !stale {
                out.push(("RESURRECT", NodeState::HealthyReadonly));
            }
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CheckStep {
    Tick,
    Node(usize),
}

/// The health checker thread (`NodeStateManager.run`, rescheduled every tick): `runs` runs of
/// `checkNodesHealth`, each over every node, firing each node's events right after its update.
///
/// The `NodeStateManager` monitor (`synchronized checkNodesHealth`) is not modelled: the only
/// other method that takes it is `forceNodesToHealthyReadOnly` (upgrade finalization), which no
/// actor here runs, so holding it would never block anyone.
#[derive(Debug)]
pub struct HealthChecker {
    cx: Cx,
    nodes: Vec<NodeId>,
    runs: u32,
    next: CheckStep,
    now: u64,
    /// Close the DEAD_NODE queue after the last run (a loom scenario's handler then ends).
    closes: bool,
}

impl HealthChecker {
    pub const ACTOR: &'static str = "HB-checker";

    pub fn new(trace: &Trace, nodes: &[NodeId], runs: u32, closes: bool) -> Self {
        HealthChecker {
            cx: trace.actor(Self::ACTOR),
            nodes: nodes.to_vec(),
            runs,
            next: CheckStep::Tick,
            now: 0,
            closes,
        }
    }
}

impl Program<super::World> for HealthChecker {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.runs == 0
    }

    fn step(&mut self, w: &super::World) {
        match self.next {
            CheckStep::Tick => {
                self.now = w.clock.advance();
                let now = self.now;
                w.ghost.with(|g| g.now = now);
                self.next = CheckStep::Node(0);
            }
            CheckStep::Node(i) => {
                let id = self.nodes[i];
                let fired = w.nodes.check_node(&self.cx, &w.ghost, id, self.now);
                let last_node = i + 1 == self.nodes.len();
                let last_run = last_node && self.runs == 1;
                // fireHealthStateEvent: only DEAD_NODE's handler is modelled (STALE_NODE and the
                // HEALTHY ones close or create pipelines, which hold no replicas).
                let dead: Vec<NodeId> = fired
                    .iter()
                    .filter(|&&f| f == "DEAD_NODE")
                    .map(|_| id)
                    .collect();
                w.dead_node_events
                    .fire(&self.cx, dead, last_run && self.closes);
                if last_node {
                    self.runs -= 1;
                    self.next = CheckStep::Tick;
                } else {
                    self.next = CheckStep::Node(i + 1);
                }
            }
        }
    }
}
