//! The statements about Ozone's SCM that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/ozone` (see [`crate::premises`]).
use crate::premises::{Premise, UNCOMPARED};

const JAR: &str = "hdds-server-scm 2.2.0";

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "DN_P1",
        upstream: "SCMNodeManager.register",
        jar: JAR,
        statement: "register of a known node with unchanged address, ports and version does not \
                    refresh its heartbeat time: a DEAD node stays DEAD at the next health check",
        cells: &[
            "dead-node/upstream/O1/loom",
            "dead-node/upstream/O1/steps",
            "dead-node/upstream/O2/loom",
            "dead-node/upstream/O2/steps",
            "dead-node/P2/O1/loom",
            "dead-node/P2/O1/steps",
            "dead-node/P2/O2/loom",
            "dead-node/P2/O2/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "DN_P2",
        upstream: "NodeStateManager.updateNode",
        jar: JAR,
        statement: "register with a changed address replaces the DatanodeInfo (a new monitor), \
                    empties the node's container-ID set and makes it HEALTHY at once",
        cells: &[
            "dead-node/upstream/O7/loom",
            "dead-node/upstream/O7/steps",
            "dead-node/proposed/R3/loom",
            "dead-node/proposed/R3/steps",
            "dead-node/improved/R3/loom",
            "dead-node/improved/R3/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "DN_P3",
        upstream: "DeadNodeHandler.onMessage",
        jar: JAR,
        statement: "onMessage reads the node status once before removeContainerReplicas and \
                    removes the replicas although the node is no longer DEAD then (2.2.0's \
                    second read, HDDS-14834, guards only the topology removal)",
        cells: &[
            "dead-node/upstream/O3/loom",
            "dead-node/upstream/O3/steps",
            "dead-node/P1/O3/loom",
            "dead-node/P1/O3/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "DN_P4",
        upstream: "ContainerReportHandler.onMessage",
        jar: JAR,
        statement: "a full container report is applied whatever the node's health: a DEAD \
                    node's reported replica is added",
        cells: &[
            "dead-node/upstream/O1/loom",
            "dead-node/upstream/O1/steps",
            "dead-node/upstream/O2/loom",
            "dead-node/upstream/O2/steps",
            "dead-node/upstream/O3/loom",
            "dead-node/upstream/O3/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "DN_O3",
        upstream: "DeadNodeHandler.removeContainerReplicas",
        jar: JAR,
        statement: "replay: O3 is reached on the real classes (a node that comes back while \
                    the dead node handler runs is alive and loses the replica of its \
                    registration report)",
        cells: &["dead-node/upstream/O3/loom", "dead-node/upstream/O3/steps"],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
];
