//! The statements about Ozone's SCM that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/ozone` (see [`crate::premises`]).
use crate::premises::{NoReplay, Premise};

const JAR: &str = "hdds-server-scm 2.2.0";

/// How the methods the SCM replays drive compare with the baseline.
const REPLAY_METHODS: &str = "the methods these orders drive (SCMNodeManager.register, NodeStateManager.checkNodesHealth, DeadNodeHandler, DatanodeInfo, ContainerReportHandler) are those of the premises: DeadNodeHandler and DatanodeInfo identical in 78d5650c, register differs only by the port-set branch (not exercised), checkNodesHealth and ContainerReportHandler only in types and ordering of getAllNodes; the fix parts are racelab's advice on 2.2.0 (P2 and P4 use NodeManager.getDatanodeInfo, which 78d5650c replaced by getNode returning DatanodeInfo); no verdict depends on the difference";
const RECON_JAR: &str = "ozone-recon 2.2.0";

/// No order on the real classes can be held inside these windows by a latch in a collaborator:
/// both lie inside `NodeStateManager.checkNodesHealth` (synchronized; identical in ozone-2.2.0 and
/// 78d5650c), between steps that call only objects NodeStateManager builds itself.
pub static NO_REPLAY: &[NoReplay] = &[
    NoReplay {
        outcome: "O6",
        variants: &[],
        why: "O6's window is NodeStateManager.updateNodeState between its deadline test \
              (condition.test(node.getLastHeartbeatTime())) and its write \
              (nodeStateMap.updateNodeHealthState): the only calls between are DatanodeInfo's own \
              getter, the lambda built in checkNodesHealth and nodeHealthSM.getNextState, and \
              DatanodeInfo, the StateMachine and the NodeStateMap are built by NodeStateManager \
              itself (its constructor and addNode), not injected; the event publisher is called only \
              after the write. No collaborator call lies in the window, so a latch could hold the \
              health check there only inside the code under test (e.g. by holding NodeStateMap's \
              private lock, which also blocks the heartbeat's own getNodeInfo), which the replays \
              must not do",
    },
    NoReplay {
        outcome: "O7",
        variants: &[],
        why: "O7's window is checkNodesHealth's handling of one node, from its status read \
              (nodeStateMap.getNodeStatus on a STALE node) to the DEAD write by ID \
              (updateNodeState: getLastHeartbeatTime of the listed, old DatanodeInfo, the \
              StateMachine, nodeStateMap.updateNodeHealthState): no collaborator call lies between \
              (the STALE branch makes no layout-version call; the event publisher, injected, is \
              called only after a write). A latch in the publisher on another node's event holds \
              the check after the listing but before dn1's status read, and a replacement there is \
              read by ID as HEALTHY: the check then writes STALE, not DEAD, so it is not O7's order. \
              Holding the order needs a latch inside the code under test (NodeStateMap's private \
              lock, which updateNode's own NodeStateMap.updateNode also takes), which the replays \
              must not do",
    },
];

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
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_O2",
        upstream: "NodeStateManager.checkNodesHealth",
        jar: JAR,
        statement: "replay (J cells, every row): dn1 STALE registers and reports a minute before its dead deadline; the check at the deadline; its DEAD_NODE handled; then its first heartbeat",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_O3",
        upstream: "DeadNodeHandler.removeContainerReplicas",
        jar: JAR,
        statement: "replay (J cells, every row), the order of scenarios/dead-node-unlocked-recheck.scn: DEAD_NODE fired by the real NodeStateManager (its DatanodeInfo payload to the handler); dn1 registers; the handler runs to its removal's first lookup; the registration report is applied (or blocks on P2's monitor); the handler removes",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_O3R",
        upstream: "DeadNodeHandler.removeContainerReplicas",
        jar: JAR,
        statement: "replay (J cells, every row), the model's P2/O3 order (scenarios/dead-node-real-DN_O3R.scn, DN-F1): DEAD_NODE fired by the real NodeStateManager; the handler reads DEAD and is held in closeContainers; dn1 registers and its registration report is applied; the handler removes (P2: its recheck under the monitor; P2u: its unlocked reread) before any heartbeat or health check; then dn1 heartbeats and a check runs",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_O5",
        upstream: "DeadNodeHandler.removeContainerReplicas",
        jar: JAR,
        statement: "replay (J cells, every row), the order of scenarios/dead-node-resurrected-while-handled.scn: the handler reads DEAD and waits in closeContainers while dn1 registers and its report is applied; it goes on to its removal (P2: its recheck under the monitor), a health check runs, it removes",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_O4",
        upstream: "ReconNodeManager.loadExistingNodes",
        jar: RECON_JAR,
        statement: "replay (J cells, every row), the model's P1.O4 order at recon-reload-with-dead-node: dn1, its node table row equal to memory, goes DEAD and ReconDeadNodeHandler removes its replica; Recon's sync thread swaps in a snapshot (container manager reinitialized, then ReconNodeManager.reinitialize: loadExistingNodes registers every row); then a health check; the datanode sends nothing",
        cells: &[],
        versus_baseline: "ReconNodeManager differs between ozone-2.2.0 and 78d5650c only in the declared type of the node table iterator in loadExistingNodes and getNodeDBKeyCount (TableIterator<DatanodeID, ? extends KeyValue> vs TableIterator<DatanodeID, KeyValue>); register, reinitialize and loadExistingNodes are otherwise identical, and ReconDeadNodeHandler and ReconContainerReportHandler are identical (git diff empty); SCMNodeManager.register's address and version branches and NodeStateManager.updateNode are the same, 78d5650c adding after them a third branch that calls updateNode when a known node's port set changes (in this order the row's port set equals memory's, so that branch is not taken on either); the parts are racelab's advice on 2.2.0 (P1 on SCMNodeManager.register, which ReconNodeManager.register calls; P3 on loadExistingNodes); no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_O8",
        upstream: "ReconNodeManager.loadExistingNodes",
        jar: RECON_JAR,
        statement: "replay (J cells, every row), the model's upstream.O8 order at recon-reload-row-differs: dn1 behind NAT registers again over RPC (its row gets the address it reports, memory keeps the RPC peer's) and its report is applied; it goes DEAD and ReconDeadNodeHandler removes its replica; Recon's sync thread swaps in a snapshot (loadExistingNodes registers the row outside any RPC); then a health check; the datanode sends nothing",
        cells: &[],
        versus_baseline: "ReconNodeManager differs between ozone-2.2.0 and 78d5650c only in the declared type of the node table iterator in loadExistingNodes and getNodeDBKeyCount (TableIterator<DatanodeID, ? extends KeyValue> vs TableIterator<DatanodeID, KeyValue>); register, reinitialize and loadExistingNodes are otherwise identical, and ReconDeadNodeHandler and ReconContainerReportHandler are identical (git diff empty); SCMNodeManager.register's address and version branches and NodeStateManager.updateNode are the same, 78d5650c adding after them a third branch that calls updateNode when a known node's port set changes (a second way for a reload's register to reach updateNode on 78d5650c, not needed here: the address branch is taken on both); the parts are racelab's advice on 2.2.0; no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_O9",
        upstream: "ReconNodeManager.loadExistingNodes",
        jar: RECON_JAR,
        statement: "replay (J cells, every row), the model's upstream.O9 order at recon-reload-empties-container-set: dn1 behind NAT registers again over RPC (row: its own address, memory: the peer's) and stops; Recon's sync thread reinitializes the container manager and reinitializes the node manager, held by the node table's iterator after it read dn1's row while ReconContainerReportHandler applies the registration report; the reload goes on; checks past the dead interval, every DEAD_NODE handled by ReconDeadNodeHandler",
        cells: &[],
        versus_baseline: "ReconNodeManager differs between ozone-2.2.0 and 78d5650c only in the declared type of the node table iterator in loadExistingNodes and getNodeDBKeyCount (TableIterator<DatanodeID, ? extends KeyValue> vs TableIterator<DatanodeID, KeyValue>); register, reinitialize and loadExistingNodes are otherwise identical, and ReconDeadNodeHandler and ReconContainerReportHandler are identical (git diff empty); SCMNodeManager.register's address and version branches and NodeStateManager.updateNode are the same, 78d5650c adding after them a third branch that calls updateNode when a known node's port set changes (not needed here: the address branch is taken on both); DeadNodeHandler.removeContainerReplicas, which removes by the node's container-ID set, is identical; the parts are racelab's advice on 2.2.0; no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "DN_R1",
        upstream: "DeadNodeHandler.onMessage",
        jar: JAR,
        statement: "replay (J cells, every row), the model's P1.R1 order: DEAD_NODE queued; dn1 registers and its report is applied; the handler runs before the next health check",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_R2",
        upstream: "ContainerReportHandler.onMessage",
        jar: JAR,
        statement: "replay (J cells, every row): dn1 registers again and stops with its registration report queued; it goes DEAD and is handled; the queued report is applied; checks past the dead interval",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
    Premise {
        id: "DN_R3",
        upstream: "NodeStateManager.updateNode",
        jar: JAR,
        statement: "replay (J cells, every row), the model's proposed.R3 order: the handler held at its removal (P2: inside the old DatanodeInfo's monitor); dn1 registers at a new address (updateNode) and its report is applied under the new object's monitor; the handler removes",
        cells: &[],
        versus_baseline: REPLAY_METHODS,
        not_run: None,
    },
];
