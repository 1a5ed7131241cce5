//! The statements about Ozone's SCM that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/ozone` (see [`crate::premises`]).
use crate::premises::Premise;

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
        versus_baseline: "SCMNodeManager.register differs: 78d5650c adds a branch (a changed port set goes through NodeStateManager.updateNode) after the address branch; a known node with unchanged address, ports and version takes neither branch in both, refreshing nothing, so no verdict resting on this premise changes (no scenario changes a port set)",
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
        versus_baseline: "the address branch of SCMNodeManager.register and NodeStateManager.updateNode are the same in ozone-2.2.0 and 78d5650c (the new port-set branch also calls updateNode, a second way to replace the DatanodeInfo that the model does not exercise); no verdict depends on the difference",
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
        versus_baseline: "DeadNodeHandler.onMessage and removeContainerReplicas are identical in ozone-2.2.0 and 78d5650c (git diff empty; both hold HDDS-14834's early return and topology recheck); no verdict depends on the version",
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
        versus_baseline: "ContainerReportHandler.onMessage differs only in types (getNode returns DatanodeInfo at 78d5650c; the pending-allocation call loses its null guard); it still applies the report under the same DatanodeInfo monitor whatever the health, so no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_O1",
        upstream: "SCMNodeManager.register",
        jar: JAR,
        statement: "replay (J cells, every row): dn1 DEAD and handled; it registers again and stops before its first heartbeat; its registration report is applied; checks past the dead interval, every DEAD_NODE handled",
        cells: &["dead-node/upstream/O1/real:DN_O1", "dead-node/P1/O1/real:DN_O1", "dead-node/P2/O1/real:DN_O1", "dead-node/P3/O1/real:DN_O1", "dead-node/P1+P2/O1/real:DN_O1", "dead-node/proposed/O1/real:DN_O1", "dead-node/improved/O1/real:DN_O1", "dead-node/P1+P2u+P3/O1/real:DN_O1"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_O2",
        upstream: "NodeStateManager.checkNodesHealth",
        jar: JAR,
        statement: "replay (J cells, every row): dn1 STALE registers and reports a minute before its dead deadline; the check at the deadline; its DEAD_NODE handled; then its first heartbeat",
        cells: &["dead-node/upstream/O2/real:DN_O2", "dead-node/P1/O2/real:DN_O2", "dead-node/P2/O2/real:DN_O2", "dead-node/P3/O2/real:DN_O2", "dead-node/P1+P2/O2/real:DN_O2", "dead-node/proposed/O2/real:DN_O2", "dead-node/improved/O2/real:DN_O2", "dead-node/P1+P2u+P3/O2/real:DN_O2"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_O3",
        upstream: "DeadNodeHandler.removeContainerReplicas",
        jar: JAR,
        statement: "replay (J cells, every row), the order of scenarios/dead-node-unlocked-recheck.scn: DEAD_NODE fired by the real NodeStateManager (its DatanodeInfo payload to the handler); dn1 registers; the handler runs to its removal's first lookup; the registration report is applied (or blocks on P2's monitor); the handler removes",
        cells: &["dead-node/upstream/O3/real:DN_O3", "dead-node/P1/O3/real:DN_O3", "dead-node/P2/O3/real:DN_O3", "dead-node/P3/O3/real:DN_O3", "dead-node/P1+P2/O3/real:DN_O3", "dead-node/proposed/O3/real:DN_O3", "dead-node/improved/O3/real:DN_O3", "dead-node/P1+P2u+P3/O3/real:DN_O3"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_O5",
        upstream: "DeadNodeHandler.removeContainerReplicas",
        jar: JAR,
        statement: "replay (J cells, every row), the order of scenarios/dead-node-resurrected-while-handled.scn: the handler reads DEAD and waits in closeContainers while dn1 registers and its report is applied; it goes on to its removal (P2: its recheck under the monitor), a health check runs, it removes",
        cells: &["dead-node/upstream/O5/real:DN_O5", "dead-node/P1/O5/real:DN_O5", "dead-node/P2/O5/real:DN_O5", "dead-node/P3/O5/real:DN_O5", "dead-node/P1+P2/O5/real:DN_O5", "dead-node/proposed/O5/real:DN_O5", "dead-node/improved/O5/real:DN_O5", "dead-node/P1+P2u+P3/O5/real:DN_O5"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_R1",
        upstream: "DeadNodeHandler.onMessage",
        jar: JAR,
        statement: "replay (J cells, every row), the model's P1.R1 order: DEAD_NODE queued; dn1 registers and its report is applied; the handler runs before the next health check",
        cells: &["dead-node/upstream/R1/real:DN_R1", "dead-node/P1/R1/real:DN_R1", "dead-node/P2/R1/real:DN_R1", "dead-node/P3/R1/real:DN_R1", "dead-node/P1+P2/R1/real:DN_R1", "dead-node/proposed/R1/real:DN_R1", "dead-node/improved/R1/real:DN_R1", "dead-node/P1+P2u+P3/R1/real:DN_R1"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_R2",
        upstream: "ContainerReportHandler.onMessage",
        jar: JAR,
        statement: "replay (J cells, every row): dn1 registers again and stops with its registration report queued; it goes DEAD and is handled; the queued report is applied; checks past the dead interval",
        cells: &["dead-node/upstream/R2/real:DN_R2", "dead-node/P1/R2/real:DN_R2", "dead-node/P2/R2/real:DN_R2", "dead-node/P3/R2/real:DN_R2", "dead-node/P1+P2/R2/real:DN_R2", "dead-node/proposed/R2/real:DN_R2", "dead-node/improved/R2/real:DN_R2", "dead-node/P1+P2u+P3/R2/real:DN_R2"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_R3",
        upstream: "NodeStateManager.updateNode",
        jar: JAR,
        statement: "replay (J cells, every row), the model's proposed.R3 order: the handler held at its removal (P2: inside the old DatanodeInfo's monitor); dn1 registers at a new address (updateNode) and its report is applied under the new object's monitor; the handler removes",
        cells: &["dead-node/upstream/R3/real:DN_R3", "dead-node/P1/R3/real:DN_R3", "dead-node/P2/R3/real:DN_R3", "dead-node/P3/R3/real:DN_R3", "dead-node/P1+P2/R3/real:DN_R3", "dead-node/proposed/R3/real:DN_R3", "dead-node/improved/R3/real:DN_R3", "dead-node/P1+P2u+P3/R3/real:DN_R3"],
        versus_baseline: "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference",
        not_run: None,
    },
];
