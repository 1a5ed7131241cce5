//! `NodeStateManager`, its `NodeStateMap` and the `DatanodeInfo` objects the map holds (the
//! health checker thread that runs `NodeStateManager.checkNodesHealth` is in
//! [`health_checker`](super::health_checker)).
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
//! only writer that could act between them is `updateNode` replacing the entry. Where that
//! matters it is kept: the health check reads the heartbeat time of the object it *listed*
//! (a replaced object keeps the time it had, [`Table::heartbeat_of`]) and writes the health by
//! ID, to whatever object is current then, as `updateNodeHealthState` does (O7).
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

use super::ghost::{Against, Episode, Ghost};
use super::ids::{slot, ContainerId, ContainerSet, NodeId, NODE_SLOTS};
use crate::record;
use crate::sync::{AtomicU64, Ordering, RwLock, SpanLock};
use crate::trace::Cx;
use std::fmt;
// std's Arc, not the shim's: which `DatanodeInfo` object an entry points at is model state,
// its reference count is not, and loom's Arc would add a scheduling point to every clone.
use crate::sync::unseen::Arc;

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

impl DatanodeInfo {
    pub fn object(&self) -> Object {
        Object {
            id: self.id,
            incarnation: self.incarnation,
        }
    }
}

/// Which `DatanodeInfo` object: its ID and incarnation (Java object identity). What the health
/// check keeps of the objects it listed: a replaced object's heartbeat time stays readable by
/// its incarnation ([`Table::heartbeat_of`]), and the check writes by ID.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Object {
    pub id: NodeId,
    pub incarnation: u32,
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
    pub containers: ContainerSet,
}

#[derive(Debug, Default)]
pub struct Table {
    /// By node ID ([`Table::entry`]).
    entries: [Option<DatanodeEntry>; NODE_SLOTS],
    incarnations: u32,
    /// The heartbeat time each replaced `DatanodeInfo` kept, by incarnation: nothing writes
    /// it after `updateNode`, but a health check that listed the object still reads it.
    retired: Vec<(u32, u64)>,
}

impl Table {
    /// The entry of node `id` (`NodeStateMap` by ID).
    pub fn entry(&self, id: NodeId) -> Option<&DatanodeEntry> {
        self.entries.get(slot(id))?.as_ref()
    }

    fn entry_mut(&mut self, id: NodeId) -> Option<&mut DatanodeEntry> {
        self.entries.get_mut(slot(id))?.as_mut()
    }

    /// Every entry, by ascending ID.
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, &DatanodeEntry)> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(id, e)| Some((id as NodeId, e.as_ref()?)))
    }

    /// `info.getLastHeartbeatTime()`, for the current object of its ID or a replaced one.
    pub fn heartbeat_of(&self, info: Object) -> u64 {
        match self.entry(info.id) {
            Some(e) if e.info.incarnation == info.incarnation => e.last_heartbeat,
            _ => self
                .retired
                .iter()
                .find(|r| r.0 == info.incarnation)
                .map_or(0, |r| r.1),
        }
    }

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
            containers: ContainerSet::EMPTY,
        };
        self.entries[slot(id)] = Some(entry);
        ghost.with(|g| {
            let seq = g.next_seq();
            let n = g.node(id);
            n.refreshed = seq;
            n.refreshed_by_datanode = by_datanode;
            n.replaced_by_reload = !by_datanode;
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

/// The `DatanodeInfo` objects `getAllDatanodeInfos` listed, by ascending ID: `objects[..len]`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Listed {
    objects: [Object; NODE_SLOTS],
    len: usize,
}

impl Listed {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th object listed.
    pub fn get(&self, i: usize) -> Object {
        self.objects[..self.len][i]
    }

    pub fn iter(&self) -> impl Iterator<Item = &Object> {
        self.objects[..self.len].iter()
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
    /// Nodes already registered at `address(node)`, HEALTHY, with a heartbeat at `now`,
    /// holding `containers`.
    pub fn new(
        nodes: &[(NodeId, &[ContainerId])],
        address: impl Fn(NodeId) -> u8,
        now: u64,
    ) -> Self {
        let mut table = Table::default();
        for &(id, containers) in nodes {
            let info = table.new_info(id, address(id));
            table.entries[slot(id)] = Some(DatanodeEntry {
                info,
                last_heartbeat: now,
                health: NodeState::Healthy,
                containers: ContainerSet::of(containers),
            });
        }
        NodeStateManager {
            lock: RwLock::new(table),
        }
    }

    /// `NodeStateMap.getNodeInfo` (`SCMNodeManager.getNode`, `isNodeRegistered`).
    pub fn get_node(&self, id: NodeId) -> Option<Arc<DatanodeInfo>> {
        self.read(|t| t.entry(id).map(|e| e.info.clone()))
    }

    /// The address `getNode(id)` holds (`SCMNodeManager.register` compares it), without a
    /// reference to the object.
    pub fn address_of(&self, id: NodeId) -> Option<u8> {
        self.read(|t| t.entry(id).map(|e| e.info.address))
    }

    /// Whether some actor holds the monitor of `getNode(id)` (for the step driver).
    pub fn is_monitor_held(&self, id: NodeId) -> bool {
        self.read(|t| t.entry(id).is_some_and(|e| e.info.monitor.is_held()))
    }

    /// `NodeStateMap.getNodeStatus` (map read lock, then the `DatanodeInfo` read lock).
    pub fn get_node_status(&self, ghost: &Ghost, id: NodeId) -> Option<StatusRead> {
        self.read(|t| Some(status_read(ghost, id, t.entry(id)?)))
    }

    /// `getNodeStatus` and then `getContainers`, as the fix's handler calls them under the
    /// monitor: two read sections upstream, one here. The writers of the container set are the
    /// report handler, which the monitor excludes, and `updateNode`, whose empty replacement set
    /// between the two reads would only make the handler remove nothing.
    pub fn get_node_status_and_containers(
        &self,
        ghost: &Ghost,
        id: NodeId,
    ) -> Option<(StatusRead, ContainerSet)> {
        self.read(|t| {
            let e = t.entry(id)?;
            Some((status_read(ghost, id, e), e.containers))
        })
    }

    /// `NodeStateMap.getContainers`.
    pub fn get_containers(&self, id: NodeId) -> ContainerSet {
        self.read(|t| t.entry(id).map_or(ContainerSet::EMPTY, |e| e.containers))
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
        self.write(|t| {
            let Some(e) = t.entry_mut(id) else {
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
            record!(
                cx,
                "DatanodeInfo.updateLastHeartbeatTime",
                "{why}: lastHeartbeatTime {before} → {now} (health stays {})",
                e.health
            );
        });
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
        self.write(|t| {
            let info = t.new_info(id, address);
            record!(
                cx,
                "NodeStateManager.addNode",
                "new DatanodeInfo #{} HEALTHY, lastHeartbeatTime {now}",
                info.incarnation
            );
            t.insert_fresh(ghost, id, info, now, by_datanode);
        });
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
        self.write(|t| {
        let info = t.new_info(id, address);
        let Some(old) = t.entry(id) else {
            return;
        };
        let retired = (old.info.incarnation, old.last_heartbeat);
        record!(
            cx,
            "NodeStateManager.updateNode",
            "DatanodeInfo #{} {} replaced by #{} HEALTHY, lastHeartbeatTime {now}, container set {{}} (was {:?})",
            old.info.incarnation, old.health, info.incarnation, old.containers
        );
        t.retired.push(retired);
        t.insert_fresh(ghost, id, info, now, by_datanode);
        });
    }

    /// `NodeStateMap.getAllDatanodeInfos`: the `DatanodeInfo` objects current now (one read
    /// section; the health check works on these objects, whatever replaces them later).
    pub fn get_all_datanode_infos(&self) -> Listed {
        self.read(|t| {
            let mut listed = Listed::default();
            for (_, e) in t.iter() {
                listed.objects[listed.len] = e.info.object();
                listed.len += 1;
            }
            listed
        })
    }

    /// `NodeStateMap.getNodeStatus` by ID, the health only (the checker's read).
    pub fn node_health(&self, id: NodeId) -> Option<NodeState> {
        self.read(|t| t.entry(id).map(|e| e.health))
    }

    /// `DatanodeInfo.getLastHeartbeatTime` on `info`, the object itself: a replaced object
    /// keeps the time it had when `updateNode` replaced it (heartbeats go to the current one).
    pub fn last_heartbeat_time(&self, info: Object) -> u64 {
        self.read(|t| t.heartbeat_of(info))
    }

    /// `NodeStateMap.updateNodeHealthState(id, to)`: writes the health of the object current
    /// *now* for the ID, which need not be `listed`, the object whose heartbeat time the
    /// checker tested (`tested`: `None` for LAYOUT_MATCH, which tests no heartbeat time).
    /// The ghost notes a transition into or out of DEAD; a DEAD written against the state at
    /// the write (a heartbeat time within the dead deadline, or a registration within the dead
    /// interval of a datanode that is up) says which evidence it overrode.
    #[allow(clippy::too_many_arguments)]
    pub fn update_node_health_state(
        &self,
        cx: &Cx,
        ghost: &Ghost,
        listed: Object,
        event: LifeCycleEvent,
        tested: Option<u64>,
        to: NodeState,
        now: u64,
    ) {
        let id = listed.id;
        self.write(|t| {
        let Some(e) = t.entry_mut(id) else {
            return;
        };
        let from = e.health;
        e.health = to;
        let (current, last_heartbeat) = (e.info.incarnation, e.last_heartbeat);
        let was = listed.incarnation;
        let on = fmt::from_fn(|f| match tested {
            Some(hb) => write!(f, " on lastHeartbeatTime {hb} of #{was}"),
            None => Ok(()),
        });
        let replaced = fmt::from_fn(|f| match current == was {
            true => Ok(()),
            false => write!(f, ", which replaced #{was}"),
        });
        let whose = fmt::from_fn(|f| {
            if current != was || last_heartbeat != tested.unwrap_or(last_heartbeat) {
                write!(f, " whose lastHeartbeatTime is {last_heartbeat}")
            } else {
                Ok(())
            }
        });
        record!(
            cx,
            "NodeStateMap.updateNodeHealthState",
            "t={now}: {event}{on} → health={to}, written to DatanodeInfo #{current}{replaced} (was {from}){whose}"
        );
        if from == to || (from != NodeState::Dead && to != NodeState::Dead) {
            return;
        }
        ghost.with(|g| {
            let seq = g.next_seq();
            let down = g.down.contains(id);
            let n = g.node(id);
            if to == NodeState::Dead {
                let alive_by_heartbeat = last_heartbeat + DEAD_INTERVAL >= now;
                let against = if current != listed.incarnation && alive_by_heartbeat {
                    Some(Against::ReplacedObject)
                } else if tested.is_some_and(|hb| last_heartbeat > hb) && alive_by_heartbeat {
                    Some(Against::RefreshDuringCheck)
                } else if !down
                    && n.registered
                        .is_some_and(|(_, at)| at + DEAD_INTERVAL >= now)
                {
                    // Evidence of life SCM had and did not use: the datanode (still up)
                    // registered within the dead interval, while the heartbeat time is older.
                    Some(Against::Registration)
                } else {
                    None
                };
                n.dead = Some(Episode {
                    seq,
                    time: now,
                    against,
                });
                n.last_dead = n.dead;
            } else {
                n.dead = None;
            }
        });
        });
    }

    /// One read section of the table (or, after the actors finished or between driver steps,
    /// the whole table).
    pub fn read<R>(&self, f: impl FnOnce(&Table) -> R) -> R {
        f(&self.lock.read())
    }

    /// One write section of the table.
    fn write<R>(&self, f: impl FnOnce(&mut Table) -> R) -> R {
        f(&mut self.lock.write())
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
        reported: ContainerSet,
    ) -> (ContainerSet, u64) {
        let (unchanged, applied) = self.read(|t| {
            let applied = ghost.with(|g| g.next_seq());
            (
                t.entry(id).is_none_or(|e| e.containers == reported),
                applied,
            )
        });
        if unchanged {
            return (ContainerSet::EMPTY, applied);
        }
        self.write(|t| {
            let Some(e) = t.entry_mut(id) else {
                return (ContainerSet::EMPTY, applied);
            };
            let missing = e.containers.difference(reported);
            let added = reported.difference(e.containers);
            e.containers = reported;
            record!(
                cx,
                "NodeStateMap.addContainer",
                "DatanodeInfo #{} container set +{added:?} −{missing:?}",
                e.info.incarnation
            );
            (missing, applied)
        })
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

/// The `NodeLifeCycleEvent`s `checkNodesHealth` applies, each with the condition it tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LifeCycleEvent {
    Timeout,
    Restore,
    Resurrect,
    LayoutMatch,
}

impl fmt::Display for LifeCycleEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LifeCycleEvent::Timeout => "TIMEOUT",
            LifeCycleEvent::Restore => "RESTORE",
            LifeCycleEvent::Resurrect => "RESURRECT",
            LifeCycleEvent::LayoutMatch => "LAYOUT_MATCH",
        })
    }
}

impl LifeCycleEvent {
    /// The events `checkNodesHealth` tries, in order, for a node whose status it read once as
    /// `health` (each with that same status): HEALTHY: the layout check, then `TIMEOUT` on the
    /// stale condition; HEALTHY_READONLY: `LAYOUT_MATCH`, then `TIMEOUT`; STALE: `TIMEOUT` on
    /// the dead condition, then `RESTORE` on the healthy one; DEAD: `RESURRECT` on the healthy
    /// one. Layouts always match here, so HEALTHY's `LAYOUT_MISMATCH` never applies.
    pub fn plan(health: NodeState) -> &'static [LifeCycleEvent] {
        use LifeCycleEvent::*;
        match health {
            NodeState::Healthy => &[Timeout],
            NodeState::HealthyReadonly => &[LayoutMatch, Timeout],
            NodeState::Stale => &[Timeout, Restore],
            NodeState::Dead => &[Resurrect],
        }
    }

    /// Whether the event tests the heartbeat time (`LAYOUT_MATCH` tests the layout version).
    pub fn tests_heartbeat(self) -> bool {
        self != LifeCycleEvent::LayoutMatch
    }

    /// The condition `updateNodeState` tests for a node read as `health`, on a heartbeat time
    /// at `now`: `staleNodeCondition`, `deadNodeCondition` or `healthyNodeCondition`.
    pub fn holds(self, health: NodeState, last_heartbeat: u64, now: u64) -> bool {
        let stale = last_heartbeat + STALE_INTERVAL < now;
        let dead = last_heartbeat + DEAD_INTERVAL < now;
        match self {
            LifeCycleEvent::Timeout if health == NodeState::Stale => dead,
            LifeCycleEvent::Timeout => stale,
            LifeCycleEvent::Restore | LifeCycleEvent::Resurrect => !stale,
            LifeCycleEvent::LayoutMatch => true,
        }
    }

    /// `nodeHealthSM.getNextState(health, event)`.
    pub fn next(self, health: NodeState) -> NodeState {
        match (self, health) {
            (LifeCycleEvent::Timeout, NodeState::Stale) => NodeState::Dead,
            (LifeCycleEvent::Timeout, _) => NodeState::Stale,
            (LifeCycleEvent::LayoutMatch, _) => NodeState::Healthy,
            (LifeCycleEvent::Restore | LifeCycleEvent::Resurrect, _) => NodeState::HealthyReadonly,
        }
    }
}

/// What one run of `checkNodesHealth` does to a node whose status and heartbeat time nothing
/// changes during the run: the events whose conditions hold, with the health each writes.
pub fn next_health(
    health: NodeState,
    last_heartbeat: u64,
    now: u64,
) -> Vec<(LifeCycleEvent, NodeState)> {
    LifeCycleEvent::plan(health)
        .iter()
        .filter(|ev| ev.holds(health, last_heartbeat, now))
        .map(|&ev| (ev, ev.next(health)))
        .collect()
}

/// Whether [`next_health`] is not empty: some event of the run applies (without collecting
/// them, for the outcome predicates, which run at every quiet state of a history).
pub fn run_changes_health(health: NodeState, last_heartbeat: u64, now: u64) -> bool {
    LifeCycleEvent::plan(health)
        .iter()
        .any(|ev| ev.holds(health, last_heartbeat, now))
}
