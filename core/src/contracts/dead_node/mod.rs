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
pub mod world;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{Baseline, Contract, Model, Part, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use containers::{ContainerManager, ContainerReport, ContainerReportHandler};
pub use dead_node_handler::HeartbeatTest;
use dead_node_handler::{DeadNodeHandler, Source};
use events::EventQueue;
use ghost::Ghost;
pub use ids::{ContainerId, NodeId};
use ids::{ContainerSet, NodeSet, NODE_SLOTS};
pub use node_manager::Refresh;
use node_state::{Clock, NodeStateManager};
pub use recon::SkipKnown;
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

crate::switches! {
    /// One switch per part of the fix.
    pub struct Fix {
        /// P1: `SCMNodeManager.register` refreshes the heartbeat time of a known node.
        0 => pub register_refreshes_heartbeat: Refresh = Refresh::Off,
        /// P2 ([`Recheck::UnderMonitor`]): `DeadNodeHandler.removeContainerReplicas` takes the
        /// `DatanodeInfo` monitor, rechecks DEAD under it and only then removes.
        1 => pub recheck: Recheck = Recheck::None,
        /// P3: `ReconNodeManager.loadExistingNodes` does not register known nodes again.
        2 => pub reload_skips_known: SkipKnown = SkipKnown::Off,
        /// P4 (improved, ours): the recheck also requires the heartbeat time to be past the stale
        /// deadline (the next health check would not resurrect the node).
        3 => pub recheck_heartbeat_time: HeartbeatTest = HeartbeatTest::Off,
    }
}

pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "SCMNodeManager.register refreshes the heartbeat time of a known node",
    on: |fix| Fix {
        register_refreshes_heartbeat: Switch::new(Refresh::Known),
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
        reload_skips_known: Switch::new(SkipKnown::Known),
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
        recheck_heartbeat_time: Switch::new(HeartbeatTest::UnderMonitor),
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
