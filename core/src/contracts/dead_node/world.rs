//! Building a world, reading it, and the predicates the outcomes share.

use super::containers::{ContainerManager, ContainerReport};
use super::events::EventQueue;
use super::ghost::{self, Ghost, NodeGhost};
use super::ids::{slot, ContainerSet, NodeSet, NODE_SLOTS};
use super::node_state::{run_changes_health, Clock, NodeState, NodeStateManager};
use super::recon::ReconNodeManager;
use super::{ContainerId, Fix, NodeId, Service, World};
/// What NAT adds to a datanode's address as SCM sees it (any difference will do).
const NAT_PEER: u8 = 100;

impl World {
    /// Registered, HEALTHY nodes that last heartbeated at tick 0, each with a replica of the
    /// CLOSED containers it holds; `dead_node_producers` and `report_producers` actors will
    /// still fire into the queues (0: the handlers end when the queues are empty).
    pub fn new(
        fix: Fix,
        service: Service,
        holdings: &[(NodeId, &[ContainerId])],
        dead_node_producers: usize,
        report_producers: usize,
    ) -> World {
        Self::behind_nat(
            fix,
            service,
            holdings,
            dead_node_producers,
            report_producers,
            &[],
        )
    }

    /// As [`World::new`], with the datanodes `nat` behind NAT: each first registered (before the
    /// world starts) from its peer address, which the node manager and Recon's row hold.
    pub fn behind_nat(
        fix: Fix,
        service: Service,
        holdings: &[(NodeId, &[ContainerId])],
        dead_node_producers: usize,
        report_producers: usize,
        nat: &[NodeId],
    ) -> World {
        let nat = NodeSet::of(nat);
        let address = |n: NodeId| if nat.contains(n) { NAT_PEER } else { 0 };
        // The loom objects are made in the order the fields list them, each field's in the
        // order of `holdings`.
        let clock = Clock::new(0);
        let nodes = NodeStateManager::new(holdings, address, 0);
        let containers = ContainerManager::new(holdings);
        let dead_node_events = EventQueue::new("DEAD_NODE", dead_node_producers);
        let mut reports: [Option<EventQueue<ContainerReport>>; NODE_SLOTS] = Default::default();
        let mut held = [ContainerSet::EMPTY; NODE_SLOTS];
        for &(n, cs) in holdings {
            reports[slot(n)] = Some(EventQueue::new("CONTAINER_REPORT", report_producers));
            held[slot(n)] = ContainerSet::of(cs);
        }
        World {
            fix,
            service,
            clock,
            nodes,
            containers,
            dead_node_events,
            reports,
            recon: ReconNodeManager::new(holdings, address, 0),
            holdings: held,
            nat,
            ghost: Ghost::default(),
        }
    }

    /// The address SCM sees for `node` reporting `address` (`Server.getRemoteIp()`).
    pub fn peer_address(&self, node: NodeId, address: u8) -> u8 {
        if self.nat.contains(node) {
            address + NAT_PEER
        } else {
            address
        }
    }

    /// The CONTAINER_REPORT queue of `node`'s report thread.
    pub fn reports(&self, node: NodeId) -> &EventQueue<ContainerReport> {
        self.reports[slot(node)]
            .as_ref()
            .expect("a datanode of this world")
    }

    /// The CONTAINER_REPORT queues, by ascending node ID.
    pub(super) fn report_queues(
        &self,
    ) -> impl Iterator<Item = (NodeId, &EventQueue<ContainerReport>)> {
        self.reports
            .iter()
            .enumerate()
            .filter_map(|(n, q)| Some((n as NodeId, q.as_ref()?)))
    }

    /// What `node` holds (its full container report).
    pub fn holdings(&self, node: NodeId) -> ContainerSet {
        self.holdings
            .get(slot(node))
            .copied()
            .unwrap_or(ContainerSet::EMPTY)
    }

    pub fn health(&self, node: NodeId) -> Option<NodeState> {
        self.nodes.read(|t| t.entry(node).map(|e| e.health))
    }

    /// What the reports state of one node, in their words: its health and each of its
    /// containers' health from the replication check. What the reproductions compare with them
    /// (the whole observable state is `Model::describe`).
    pub fn as_reported(&self, node: NodeId) -> String {
        let health = self
            .health(node)
            .map_or("unknown".into(), |h| h.to_string());
        let containers: Vec<String> = self
            .holdings(node)
            .iter()
            .map(|c| format!("container {c} {}", self.containers.health(c)))
            .collect();
        format!("dn{node} {health}, {}", containers.join(", "))
    }

    /// O1 and R2: a node that is DEAD, stopped, will not be resurrected by any health check (its
    /// heartbeat time is past the stale deadline of the next one) and has no DEAD_NODE pending,
    /// yet still has replicas: it stays that way for as long as the datanode is down.
    ///
    /// The three predicates below read the ghost first, once, and return early when no node
    /// can satisfy them: each is a conjunction of reads of a quiet state (nothing runs
    /// between them), so the order of the reads decides nothing, and a node the ghost rules
    /// out fails the conjunction whatever the rest reads.
    pub(super) fn stuck_dead_with_replicas(&self, id: crate::outcome::OutcomeId) -> Option<String> {
        // The DEAD episode of each stopped node, by ID (the ghost first: most states have none).
        let episodes = self.ghost.with(|g| {
            if g.down.iter().all(|n| g.nodes[slot(n)].dead.is_none()) {
                return None;
            }
            let mut episodes = [None; NODE_SLOTS];
            for n in g.down.iter() {
                episodes[slot(n)] = g.nodes[slot(n)].dead;
            }
            Some(episodes)
        })?;
        self.stuck_among(id, &episodes)
    }

    /// [`World::stuck_dead_with_replicas`] past the ghost's test, for the stopped nodes in
    /// `episodes` (out of line: most checks end at the ghost, without this frame).
    pub(super) fn stuck_among(
        &self,
        id: crate::outcome::OutcomeId,
        episodes: &[Option<ghost::Episode>; NODE_SLOTS],
    ) -> Option<String> {
        let quiet =
            self.dead_node_events.is_empty() && self.report_queues().all(|(_, q)| q.is_empty());
        if !quiet {
            return None;
        }
        let next_check = self.clock.now() + 1;
        // The heartbeat time of each such node, by ID.
        let dead: [Option<u64>; NODE_SLOTS] = self.nodes.read(|t| {
            let mut dead = [None; NODE_SLOTS];
            for (n, e) in t.iter() {
                if e.health == NodeState::Dead
                    && !run_changes_health(e.health, e.last_heartbeat, next_check)
                {
                    dead[slot(n)] = Some(e.last_heartbeat);
                }
            }
            dead
        });
        let dead = dead
            .iter()
            .enumerate()
            .filter_map(|(n, hb)| Some((n as NodeId, (*hb)?)));
        for (node, last_heartbeat) in dead {
            let Some(e) = episodes[slot(node)] else {
                continue;
            };
            for c in self.containers.containers().iter() {
                let Some(r) = self.containers.replica(c, node) else {
                    continue;
                };
                let (outcome, how) = if r.registration.is_some_and(|s| s > e.seq) {
                    (
                        "O1",
                        "written by the report of a registration after it went DEAD",
                    )
                } else if r.applied > e.seq {
                    (
                        "R2",
                        "written by a registration report from before it went DEAD, applied after",
                    )
                } else if !self.nodes.get_containers(node).contains(c) {
                    (
                        "O9",
                        "which its container-ID set does not list (Recon's reload replaced the \
                         DatanodeInfo with an empty set), so the handler removed nothing",
                    )
                } else {
                    (
                        "O1",
                        "which the dead node handler left although the node's container set lists it",
                    )
                };
                if outcome == id {
                    return Some(format!(
                        "dn{node} DEAD since t={}, stopped, lastHeartbeatTime {last_heartbeat}: no health check \
                         resurrects it and DEAD_NODE will not fire again; container {c} {} counting the \
                         replica on dn{node}, {how}",
                        e.time,
                        self.containers.health(c)
                    ));
                }
            }
        }
        None
    }

    /// O4 and O8: a node that went DEAD, and whose datanode has sent nothing since, is alive for SCM (not DEAD,
    /// or DEAD with a heartbeat time the next check resurrects) because Recon's reload wrote
    /// its heartbeat time (O4) or replaced its `DatanodeInfo` (O8) after it went DEAD. A
    /// property of the state: nothing the datanode sent explains the node's health.
    pub(super) fn revived_by_reload(&self, id: crate::outcome::OutcomeId) -> Option<String> {
        // The ghost first (most states have no node whose heartbeat time something other than
        // its datanode wrote after it went DEAD): a node outside this set fails the test below.
        let written_since_dead = self.ghost.with(|g| {
            nodes_where(g, |n| {
                n.last_dead
                    .is_some_and(|died| !n.refreshed_by_datanode && n.refreshed > died.seq)
            })
        });
        if written_since_dead.is_empty() {
            return None;
        }
        self.revived_among(id, written_since_dead)
    }

    /// [`World::revived_by_reload`] past the ghost's test, for the nodes `written_since_dead`
    /// (out of line: most checks end at the ghost, without this frame).
    pub(super) fn revived_among(
        &self,
        id: crate::outcome::OutcomeId,
        written_since_dead: NodeSet,
    ) -> Option<String> {
        let next_check = self.clock.now() + 1;
        self.nodes.read(|t| {
            t.iter().find_map(|(node, e)| {
                if !written_since_dead.contains(node) {
                    return None;
                }
                let g = self.ghost.with(|g| *g.node(node));
                let died = g.last_dead?;
                let alive = e.health != NodeState::Dead
                    || run_changes_health(e.health, e.last_heartbeat, next_check);
                let outcome = if g.replaced_by_reload { "O8" } else { "O4" };
                (alive && !g.refreshed_by_datanode && g.refreshed > died.seq && outcome == id)
                    .then(|| {
                        format!(
                            "dn{node}, DEAD since t={}, is {} with lastHeartbeatTime {}, written by \
                             Recon's reload{}, not by the datanode",
                            died.time,
                            e.health,
                            e.last_heartbeat,
                            if g.replaced_by_reload {
                                " (updateNode: a new DatanodeInfo, HEALTHY)"
                            } else {
                                ""
                            }
                        )
                    })
            })
        })
    }

    /// O5: a datanode that is up, whose registration report was applied, and that SCM has not
    /// declared DEAD since that registration (or did so against it, O2's case), lacks a
    /// replica of that report. Decided from the end state alone: it does not ask which removal
    /// did it or what that removal read, so a broken recheck cannot hide in a window's name.
    pub(super) fn live_node_missing_replicas(&self) -> Option<String> {
        // The ghost first: the datanodes up whose registration report was applied and that
        // have not (rightly) gone DEAD since.
        let candidates = self.ghost.with(|g| {
            let down = g.down;
            nodes_where(g, |n| {
                n.reported.is_some_and(|reported| {
                    !n.last_dead
                        .is_some_and(|e| e.seq > reported && e.against.is_none())
                })
            })
            .difference(down)
        });
        if candidates.is_empty() {
            return None;
        }
        for (node, queue) in self.report_queues() {
            if !candidates.contains(node) || !queue.is_empty() {
                continue;
            }
            let missing = self
                .holdings(node)
                .iter()
                .find(|&c| self.containers.replica(c, node).is_none());
            if let Some(c) = missing {
                let health = self
                    .health(node)
                    .map_or("unknown".into(), |h| h.to_string());
                return Some(format!(
                    "dn{node} is up ({health}), its registration report applied and no DEAD \
                     declared since: container {c} {} lacks the replica on dn{node} that the report \
                     holds",
                    self.containers.health(c)
                ));
            }
        }
        None
    }
}

/// The nodes whose ghost satisfies `test`.
pub(super) fn nodes_where(g: &ghost::GhostState, test: impl Fn(&NodeGhost) -> bool) -> NodeSet {
    let mut set = NodeSet::EMPTY;
    for (n, ghost) in g.nodes.iter().enumerate() {
        if test(ghost) {
            set.insert(n as NodeId);
        }
    }
    set
}
