//! The container side: `ContainerManagerImpl` (each container's replicas, under its lock), the
//! full-report handler `ContainerReportHandler` on its container-report thread, and the health
//! a replication check derives (`RatisContainerReplicaCount` for SCM's `ReplicationManager`,
//! the same chain in `ReconReplicationManager.processAll`).
//!
//! Simplified: every container is CLOSED and RATIS/ONE (one replica expected), so the check
//! says HEALTHY with a replica and MISSING without one; under-replication needs more replicas
//! and adds nothing to the outcomes, which are about a container's only replica. The
//! `ContainerInfo` monitor `processContainerReplica` takes is not modelled: it serializes report
//! handlers of *different* datanodes on one container, whose updates touch different replica
//! keys and commute, and the dead node handler does not take it. The sequence-id and state
//! updates of `processContainerReplica` do not apply to CLOSED replicas of a CLOSED container.
//! `ReconContainerReportHandler` first adds containers Recon does not know
//! (`checkAndAddNewContainerBatch`); every container is known here. The CONTAINER_REGISTRATION_REPORT
//! a registration's report fires at the end feeds the safe-mode rules only (not modelled).

use super::ids::{slot, ContainerId, ContainerSet, NodeId, NodeSet, CONTAINER_SLOTS, NODE_SLOTS};
use super::node_state::DatanodeInfo;
use super::World;
use crate::model::Program;
use crate::sync::RwLock;
use crate::trace::{Cx, Trace};
// std's Arc, not the shim's: which `DatanodeInfo` object an entry points at is model state,
// its reference count is not, and loom's Arc would add a scheduling point to every clone.
use crate::sync::unseen::Arc;

/// A `ContainerReplica` of a container on a datanode, with ghost facts about the report that
/// put it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replica {
    /// Ghost order of the report apply that wrote it (0: there before the scenario).
    pub applied: u64,
    /// The `DatanodeInfo` object whose monitor the apply held.
    pub incarnation: u32,
    /// Ghost order of the registration whose report wrote it (`None`: not a registration
    /// report, or there before the scenario).
    pub registration: Option<u64>,
}

/// The containers SCM knows and their replicas, by container and datanode ID.
#[derive(Debug, Default)]
struct Containers {
    known: ContainerSet,
    replicas: [[Option<Replica>; NODE_SLOTS]; CONTAINER_SLOTS],
}

/// `ContainerManagerImpl` (with its `ContainerStateManager`): replicas per container.
#[derive(Debug)]
pub struct ContainerManager {
    lock: RwLock<Containers>,
}

impl ContainerManager {
    /// CLOSED containers, each with a replica on the nodes that hold it.
    pub fn new(nodes: &[(NodeId, &[ContainerId])]) -> Self {
        let mut m = Containers::default();
        for &(id, containers) in nodes {
            for &c in containers {
                m.known.insert(c);
                m.replicas[slot(c)][slot(id)] = Some(Replica {
                    applied: 0,
                    incarnation: 0,
                    registration: None,
                });
            }
        }
        ContainerManager {
            lock: RwLock::new(m),
        }
    }

    /// `ContainerManager.updateContainerReplica` (from `processContainerReplica`).
    /// `applied` is the ghost order of the report's apply.
    pub fn update_replica(
        &self,
        cx: &Cx,
        c: ContainerId,
        node: NodeId,
        info: &DatanodeInfo,
        applied: u64,
        registration: Option<u64>,
    ) {
        let mut m = self.lock.write();
        m.known.insert(c);
        let had = m.replicas[slot(c)][slot(node)]
            .replace(Replica {
                applied,
                incarnation: info.incarnation,
                registration,
            })
            .is_some();
        cx.record(
            "ContainerManager.updateContainerReplica",
            format_args!(
                "container {c}: replica on dn{node} {}",
                if had { "updated" } else { "added" }
            ),
        );
    }

    /// `ContainerManager.removeContainerReplica` of the replica on `node`, if there is one
    /// (upstream finds it with `getContainerReplicas` and removes it by key: one section here,
    /// which loses no outcome, see `DeadNodeHandler`).
    pub fn remove_replica(&self, c: ContainerId, node: NodeId) -> Option<Replica> {
        self.lock
            .write()
            .replicas
            .get_mut(slot(c))?
            .get_mut(slot(node))?
            .take()
    }

    /// `ContainerManager.reinitialize` (Recon's snapshot swap): the container state is rebuilt
    /// from the snapshot's table, with no replica.
    pub fn reinitialize(&self, cx: &Cx) {
        let mut m = self.lock.write();
        m.replicas = Default::default();
        cx.record(
            "ContainerManager.reinitialize",
            "new ContainerStateMap from the snapshot: no replica until the next reports",
        );
    }

    /// The datanodes with a replica of `c` (`getContainerReplicas`).
    pub fn holders(&self, c: ContainerId) -> NodeSet {
        let m = self.lock.read();
        let mut on = NodeSet::EMPTY;
        for (node, r) in m.replicas.get(slot(c)).into_iter().flatten().enumerate() {
            if r.is_some() {
                on.insert(node as NodeId);
            }
        }
        on
    }

    /// The replica of `c` on `node` (`getContainerReplicas`, then the one of that datanode).
    pub fn replica(&self, c: ContainerId, node: NodeId) -> Option<Replica> {
        *self.lock.read().replicas.get(slot(c))?.get(slot(node))?
    }

    /// The containers SCM knows.
    pub fn containers(&self) -> ContainerSet {
        self.lock.read().known
    }

    /// The replication check's verdict (`RatisContainerReplicaCount`: node health is not an
    /// input, so a replica on a DEAD node counts).
    pub fn health(&self, c: ContainerId) -> &'static str {
        if self.holders(c).is_empty() {
            "MISSING"
        } else {
            "HEALTHY"
        }
    }
}

/// A full container report from a datanode (`ContainerReportFromDatanode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContainerReport {
    pub node: NodeId,
    pub containers: ContainerSet,
    /// Ghost order of the registration that sent it (`isRegister`).
    pub registration: Option<u64>,
}

#[derive(Debug)]
enum ReportStep {
    Take,
    GetNode(ContainerReport),
    Apply(ContainerReport, Arc<DatanodeInfo>),
    Done,
}

/// The container-report thread for one datanode: `ContainerReportHandler.onMessage` for each
/// report, in order.
#[derive(Debug)]
pub struct ContainerReportHandler {
    cx: Cx,
    node: NodeId,
    next: ReportStep,
    /// Reports still to handle when a loom scenario knows how many will come (the thread then
    /// ends without waiting on its queue); `None`: until the queue is empty and closed.
    remaining: Option<usize>,
}

impl ContainerReportHandler {
    /// The report thread of `node` (the affinity executor runs one datanode's reports on one
    /// thread).
    pub fn actor_of(node: NodeId) -> &'static str {
        match node {
            1 => "CR-thread-dn1",
            2 => "CR-thread-dn2",
            3 => "CR-thread-dn3",
            _ => "CR-thread",
        }
    }

    pub fn new(trace: &Trace, node: NodeId) -> Self {
        ContainerReportHandler {
            cx: trace.actor(Self::actor_of(node)),
            node,
            next: ReportStep::Take,
            remaining: None,
        }
    }

    /// A thread that handles exactly `reports` reports, then ends.
    pub fn handling(trace: &Trace, node: NodeId, reports: usize) -> Self {
        ContainerReportHandler {
            remaining: Some(reports),
            ..Self::new(trace, node)
        }
    }
}

impl Program<World> for ContainerReportHandler {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        self.cx.actor
    }

    fn is_done(&self) -> bool {
        matches!(self.next, ReportStep::Done)
            || (matches!(self.next, ReportStep::Take) && self.remaining == Some(0))
    }

    fn enabled(&self, w: &World) -> bool {
        match &self.next {
            ReportStep::Take => w.reports(self.node).ready(),
            ReportStep::GetNode(_) => true,
            ReportStep::Apply(_, info) => !info.monitor.is_held(),
            ReportStep::Done => false,
        }
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        self.next = match std::mem::replace(&mut self.next, ReportStep::Done) {
            ReportStep::Take if self.remaining == Some(0) => ReportStep::Done,
            ReportStep::Take => match w.reports(self.node).take() {
                Some(report) => {
                    self.remaining = self.remaining.map(|n| n - 1);
                    ReportStep::GetNode(report)
                }
                None => ReportStep::Done,
            },
            // `getNodeManager().getNode(id)`: the DatanodeInfo object current now.
            ReportStep::GetNode(report) => match w.nodes.get_node(report.node) {
                Some(info) => ReportStep::Apply(report, info),
                None => ReportStep::Take,
            },
            // `synchronized (datanodeInfo) { ... }`: the whole report, whatever the health.
            ReportStep::Apply(report, info) => {
                info.monitor.acquire(cx.actor);
                cx.record(
                    "ContainerReportHandler.onMessage",
                    format_args!(
                        "synchronized (DatanodeInfo #{}): {} report of dn{} {:?} (registration={})",
                        info.incarnation,
                        if report.registration.is_some() {
                            "registration"
                        } else {
                            "full"
                        },
                        report.node,
                        report.containers,
                        report.registration.is_some()
                    ),
                );
                let (missing, applied) =
                    w.nodes
                        .reconcile_containers(cx, &w.ghost, report.node, report.containers);
                if let Some(r) = report.registration {
                    w.ghost.with(|g| g.node(report.node).reported = Some(r));
                }
                for c in report.containers.iter() {
                    w.containers.update_replica(
                        cx,
                        c,
                        report.node,
                        &info,
                        applied,
                        report.registration,
                    );
                }
                // processMissingReplicas(datanode, missing): called on every full report (the
                // set may be empty); it removes the replicas of the containers the report no
                // longer lists.
                let mut removed = ContainerSet::EMPTY;
                for c in missing.iter() {
                    if w.containers.remove_replica(c, report.node).is_some() {
                        removed.insert(c);
                    }
                }
                cx.record(
                    "ContainerReportHandler.processMissingReplicas",
                    format_args!(
                        "dn{}: containers no longer reported {missing:?}, replicas removed {removed:?}",
                        report.node
                    ),
                );
                info.monitor.release(cx.actor);
                ReportStep::Take
            }
            ReportStep::Done => ReportStep::Done,
        };
    }
}
