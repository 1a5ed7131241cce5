//! dead-node — HDDS-17067: registration does not refresh a known datanode's heartbeat time, so
//! the dead node handler keeps or erases its replicas wrongly (SCM and Recon).
//!
//! The components ([`node_state`], [`node_manager`], [`recon`], [`containers`],
//! [`dead_node_handler`], [`events`], [`ghost`]), the threads and locks, how the outcomes are
//! told apart, the simplifications, the baseline and where each finding stands are in
//! `DESIGN-NOTES.md` beside this file; the claims matrix is in [`claims`].

pub mod claims;
pub mod containers;
pub mod datanode;
pub mod dead_node_handler;
pub mod events;
pub mod findings;
pub mod ghost;
pub mod health_checker;
#[cfg(feature = "histories")]
pub mod histories;
pub mod ids;
pub mod node_manager;
pub mod node_state;
pub mod premises;
pub mod recon;
pub mod reproductions;
pub mod scenarios;
pub mod upstream;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{Baseline, Contract, Model, Part, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use containers::{ContainerManager, ContainerReport, ContainerReportHandler};
use dead_node_handler::{DeadNodeHandler, Source};
use events::EventQueue;
use ghost::{Ghost, NodeGhost};
use ids::{slot, ContainerSet, NodeSet, NODE_SLOTS};
pub use ids::{ContainerId, NodeId};
use node_state::{run_changes_health, Clock, NodeState, NodeStateManager};
use recon::{ReconNodeManager, ReconReload};
pub use scenarios::*;

/// Which node manager the datanodes talk to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    Scm,
    Recon,
}

/// How `removeContainerReplicas` decides (P2 is [`Recheck::UnderMonitor`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recheck {
    /// Upstream: acts on the status read at the start of `onMessage`.
    None,
    /// P2 written as HDDS-14834 wrote its topology guard (part `P2u`): the status read again
    /// right before removing, without the monitor (a report applied between the read and the
    /// removal is removed; also the mutant "P2 without the monitor").
    Unlocked,
    /// P2: rereads it under the `DatanodeInfo` monitor the report handlers hold.
    UnderMonitor,
    /// A broken P2 (a mutant the suite must catch): the recheck under the monitor logs that it
    /// keeps the replicas of a node that is not DEAD, then falls through (a missing `return`)
    /// and removes them anyway.
    UnderMonitorNoReturn,
}

impl Recheck {
    /// Whether the recheck takes the `DatanodeInfo` monitor.
    pub fn holds_monitor(self) -> bool {
        matches!(self, Recheck::UnderMonitor | Recheck::UnderMonitorNoReturn)
    }
}

/// One switch per part of the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    /// P1: `SCMNodeManager.register` refreshes the heartbeat time of a known node.
    pub register_refreshes_heartbeat: Switch<bool, 0>,
    /// P2 ([`Recheck::UnderMonitor`]): `DeadNodeHandler.removeContainerReplicas` takes the
    /// `DatanodeInfo` monitor, rechecks DEAD under it and only then removes.
    pub recheck: Switch<Recheck, 1>,
    /// P3: `ReconNodeManager.loadExistingNodes` does not register known nodes again.
    pub reload_skips_known: Switch<bool, 2>,
    /// P4 (improved, ours): the recheck also requires the heartbeat time to be past the stale
    /// deadline (the next health check would not resurrect the node).
    pub recheck_heartbeat_time: Switch<bool, 3>,
}

crate::switches!(Fix {
    register_refreshes_heartbeat,
    recheck,
    reload_skips_known,
    recheck_heartbeat_time,
});

impl Fix {
    pub const UPSTREAM: Fix = Fix {
        register_refreshes_heartbeat: Switch::new(false),
        recheck: Switch::new(Recheck::None),
        reload_skips_known: Switch::new(false),
        recheck_heartbeat_time: Switch::new(false),
    };
}

pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "SCMNodeManager.register refreshes the heartbeat time of a known node",
    on: |fix| Fix {
        register_refreshes_heartbeat: Switch::new(true),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary: "DeadNodeHandler.removeContainerReplicas takes the DatanodeInfo monitor, rechecks \
              DEAD under it and only then removes",
    on: |fix| Fix {
        recheck: Switch::new(Recheck::UnderMonitor),
        ..fix
    },
};

pub const P3: Part<Fix> = Part {
    id: "P3",
    summary: "ReconNodeManager.loadExistingNodes does not register known nodes again",
    on: |fix| Fix {
        reload_skips_known: Switch::new(true),
        ..fix
    },
};

/// The precedent's way, in P2's place (it sets the same switch).
pub const P2U: Part<Fix> = Part {
    id: "P2u",
    summary: "(the precedent HDDS-14834, not a part of the fix) P2 written as upstream wrote its \
              topology guard: a second getNodeStatus right before removeContainerReplicas, \
              without the DatanodeInfo monitor",
    on: |fix| Fix {
        recheck: Switch::new(Recheck::Unlocked),
        ..fix
    },
};

pub const P4: Part<Fix> = Part {
    id: "P4",
    summary: "(improved) under the monitor the handler also requires the heartbeat time to be \
              past the stale deadline: a node the next health check resurrects keeps its replicas",
    on: |fix| Fix {
        recheck_heartbeat_time: Switch::new(true),
        ..fix
    },
};

/// The patch.
pub const PROPOSED: &[&Part<Fix>] = &[&P1, &P2, &P3];
/// Ours.
pub const IMPROVED: &[&Part<Fix>] = &[&P1, &P2, &P3, &P4];

/// Everything the actors share.
#[derive(Debug)]
pub struct World {
    pub fix: Fix,
    pub service: Service,
    pub clock: Clock,
    pub nodes: NodeStateManager,
    pub containers: ContainerManager,
    /// DEAD_NODE → `DeadNodeHandler` (one `SingleThreadExecutor`).
    pub dead_node_events: EventQueue<NodeId>,
    /// CONTAINER_REPORT → `ContainerReportHandler`, one thread per datanode (affinity), by
    /// node ID (`None`: not a datanode of this world).
    reports: [Option<EventQueue<ContainerReport>>; NODE_SLOTS],
    pub recon: ReconNodeManager,
    /// Datanode side: the containers each datanode holds (its full report), by node ID.
    holdings: [ContainerSet; NODE_SLOTS],
    /// Datanodes whose RPC peer address differs from the address they report about themselves
    /// (NAT, a multi-homed host, no reverse DNS): a deployment fact.
    nat: NodeSet,
    pub ghost: Ghost,
}

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
    fn report_queues(&self) -> impl Iterator<Item = (NodeId, &EventQueue<ContainerReport>)> {
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
    fn stuck_dead_with_replicas(&self, id: crate::outcome::OutcomeId) -> Option<String> {
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
    #[inline(never)]
    fn stuck_among(
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
    fn revived_by_reload(&self, id: crate::outcome::OutcomeId) -> Option<String> {
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
    #[inline(never)]
    fn revived_among(
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
    fn live_node_missing_replicas(&self) -> Option<String> {
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
fn nodes_where(g: &ghost::GhostState, test: impl Fn(&NodeGhost) -> bool) -> NodeSet {
    let mut set = NodeSet::EMPTY;
    for (n, ghost) in g.nodes.iter().enumerate() {
        if test(ghost) {
            set.insert(n as NodeId);
        }
    }
    set
}

pub struct DeadNode;

/// O1: stays DEAD with re-added replicas.
pub static O1: Outcome<World> = Outcome {
    id: "O1",
    summary: "a DEAD node registers, its report re-adds its replicas, it stops before its first heartbeat \
                      and stays DEAD with them: the container is HEALTHY with no live replica",
    check: Check::State(|w| w.stuck_dead_with_replicas("O1")),
};

/// O2: declared DEAD after registering, replicas removed.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary:
        "a node back shortly before its dead deadline is declared DEAD after registering, and the \
                      handler removes its replicas although it is alive (MISSING on a HEALTHY node)",
    check: Check::State(|w| w.ghost.witnessed("O2")),
};

/// O3: the handler removes a returned node's replicas.
pub static O3: Outcome<World> = Outcome {
    id: "O3",
    summary:
        "a node back while the dead node handler for it runs or is queued: the handler removes the \
                      replicas of the report applied in the meantime",
    check: Check::State(|w| w.ghost.witnessed("O3")),
};

/// O4: Recon's reload revives a DEAD node.
pub static O4: Outcome<World> = Outcome {
    id: "O4",
    summary: "(Recon) a reload of the node table revives a DEAD node the datanode has not come back to (its \
                      register refreshes the heartbeat time: the next check resurrects it)",
    check: Check::State(|w| w.revived_by_reload("O4")),
};

/// O8: Recon's reload revives a DEAD node through updateNode.
pub static O8: Outcome<World> = Outcome {
    id: "O8",
    summary: "(Recon, from the code) a reload of the node table revives a DEAD node the datanode has not \
                      come back to, through updateNode: its row differs from memory (the row holds what the datanode reported, \
                      memory the RPC peer's address), so a new HEALTHY DatanodeInfo replaces the DEAD one",
    check: Check::State(|w| w.revived_by_reload("O8")),
};

/// O9: the reload's updateNode emptied the container set; the handler later removes nothing.
pub static O9: Outcome<World> = Outcome {
    id: "O9",
    summary: "(Recon, from the code) the reload's updateNode empties a node's container-ID set while a replica \
                      reported just before stays; the node goes DEAD and the handler, which removes by that set, \
                      removes nothing: the container counts a replica on a DEAD node",
    check: Check::State(|w| w.stuck_dead_with_replicas("O9")),
};

/// O5: the state the wrong removals leave, whichever window let them through.
pub static O5: Outcome<World> = Outcome {
    id: "O5",
    summary: "a datanode that is up and that SCM has not declared DEAD since its registration report (or declared \
                      so despite it) lacks a replica of that report: MISSING on a live node (the state O2, O3, R1 \
                      and R3 leave, decided apart from which window it was)",
    check: Check::State(|w| w.live_node_missing_replicas()),
};

/// O6: declared DEAD on a heartbeat time read before a refresh.
pub static O6: Outcome<World> = Outcome {
    id: "O6",
    summary: "(from the code) a registration (with P1) or a heartbeat refreshes the heartbeat time between \
                      checkNodesHealth's dead-deadline test and its write: the node is declared DEAD on the time read \
                      before, and the handler removes its replicas although it is alive",
    check: Check::State(|w| w.ghost.witnessed("O6")),
};

/// O7: updateNode inside the health check; the new object declared DEAD.
pub static O7: Outcome<World> = Outcome {
    id: "O7",
    summary: "(from the code) a registration with a new address, ports or version replaces the DatanodeInfo \
                      between checkNodesHealth's status read and its write: the new, just registered object is \
                      declared DEAD on the old one's heartbeat time, and the handler removes its replicas",
    check: Check::State(|w| w.ghost.witnessed("O7")),
};

/// O10: two first heartbeats race on Recon's `datanodeHeartbeatMap`.
pub static O10: Outcome<World> = Outcome {
    id: "O10",
    summary: "(Recon, from the code) two datanodes' first heartbeats since Recon started are served on two RPC \
                      handler threads at once, and ReconNodeManager.processHeartbeat puts both new keys into \
                      datanodeHeartbeatMap, a plain HashMap, with no lock: a data race on the map's table (an \
                      insert can be lost, so that node's next heartbeat is answered ReregisterCommand again)",
    check: Check::Race,
};

/// R1: residual: the recheck before the next health check.
pub static R1: Outcome<World> = Outcome {
    id: "R1",
    summary:
        "residual: the handler's recheck falls between a registration and the next health check \
                      (still DEAD, so it removes the returned node's replicas)",
    check: Check::State(|w| w.ghost.witnessed("R1")),
};

/// R2: residual: a report queued past the dead interval.
pub static R2: Outcome<World> = Outcome {
    id: "R2",
    summary:
        "residual: a registration report waits in the queue past the dead interval and re-adds the \
                      replicas of a node that went DEAD meanwhile",
    check: Check::State(|w| w.stuck_dead_with_replicas("R2")),
};

/// R3: residual: a new address replaces the DatanodeInfo.
pub static R3: Outcome<World> = Outcome {
    id: "R3",
    summary: "residual (from the code): a registration with a new address replaces the DatanodeInfo, so \
                      the handler holds the old object's monitor while the report handler holds the new one's",
    check: Check::State(|w| w.ghost.witnessed("R3")),
};

impl Model for DeadNode {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "dead-node",
        module: "dead_node",
        report: "HDDS-17067",
        title: "Registration does not refresh a known datanode's heartbeat time; the dead node handler keeps or erases its replicas wrongly",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] = &[
        &O1, &O2, &O3, &O4, &O5, &O6, &O7, &O8, &O9, &O10, &R1, &R2, &R3,
    ];
    const BASELINES: &'static [Baseline<Fix>] = &[Baseline {
        name: REPORT,
        repo: "apache/ozone",
        commit: "78d5650c313f2fa0731bdf08b76d4604090dabca",
        about: "Ozone master of 2026-08-23, read for the model (the report's 916aa1d and 14e0611fdd5 are newer); it holds HDDS-14834 (DeadNodeHandler returns unless DEAD and rechecks before the topology removal), as ozone-2.2.0 does, where DeadNodeHandler and DatanodeInfo are the same",
        changes: &[],
    }];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("P1", &[&P1]),
        Variant::new("P2", &[&P2]),
        Variant::new("P3", &[&P3]),
        Variant::new("P1+P2", &[&P1, &P2]),
        Variant::new("proposed", PROPOSED),
        Variant::new("improved", IMPROVED),
        Variant::new("P1+P2u+P3", &[&P1, &P2U, &P3]),
    ];
    const FINDINGS: &'static [Finding] = findings::FINDINGS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    /// The observable state, in the report's words (also the final state the two
    /// exhaustive checkers compare).
    fn describe(w: &World) -> String {
        let nodes: Vec<String> = NODES
            .iter()
            .map(|&n| {
                format!(
                    "dn{n}={}",
                    w.health(n).map_or("unknown".into(), |h| h.to_string())
                )
            })
            .collect();
        let containers: Vec<String> = w
            .containers
            .containers()
            .iter()
            .map(|c| {
                let on: Vec<String> = w
                    .containers
                    .holders(c)
                    .iter()
                    .map(|n| format!("dn{n}"))
                    .collect();
                // `replicasN=dn1+dn2` (`none`): the datanodes holding a replica of container N.
                format!(
                    "container {c} {} replicas{c}={}",
                    w.containers.health(c),
                    if on.is_empty() {
                        "none".to_string()
                    } else {
                        on.join("+")
                    }
                )
            })
            .collect();
        format!(
            "t={}: {}; {}",
            w.clock.now(),
            nodes.join(", "),
            containers.join(", ")
        )
    }
}

impl Claimed for DeadNode {
    const CLAIMS: Claims<Self> = claims::CLAIMS;
}

/// The datanodes a state description lists (the scenarios use dn1, histories all three).
pub const NODES: [NodeId; 3] = [1, 2, 3];
