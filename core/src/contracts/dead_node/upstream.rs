//! Where dead-node's steps are upstream: Ozone's SCM and Recon at the report baseline
//! (78d5650c), read with `git show <commit>:<path> | grep -n`. See [`crate::upstream`].

use crate::model::REPORT;
use crate::upstream::{Class, Line, Lines, Sources};

pub static SOURCES: Sources = Sources {
    classes: &[
        Class::new("SCMNodeManager", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/node/SCMNodeManager.java"),
        Class::new("NodeStateManager", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/node/NodeStateManager.java"),
        Class::new("NodeStateMap", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/node/states/NodeStateMap.java"),
        Class::new("DatanodeInfo", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/node/DatanodeInfo.java"),
        Class::new("DeadNodeHandler", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/node/DeadNodeHandler.java"),
        // An interface: the lines are its declarations (ContainerManagerImpl implements them).
        Class::new("ContainerManager", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/ContainerManager.java"),
        Class::new("ContainerReportHandler", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/ContainerReportHandler.java"),
        Class::new("EventQueue", "hadoop-hdds/framework/src/main/java/org/apache/hadoop/hdds/server/events/EventQueue.java"),
        Class::new("ReconNodeManager", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/scm/ReconNodeManager.java"),
    ],
    lines: &[Lines {
        baseline: REPORT,
        lines: &[
            Line {
                method: "SCMNodeManager.register",
                line: 405,
            },
            Line {
                method: "SCMNodeManager.processHeartbeat",
                line: 562,
            },
            Line {
                method: "NodeStateManager.addNode",
                line: 308,
            },
            Line {
                method: "NodeStateManager.updateNode",
                line: 417,
            },
            Line {
                method: "NodeStateManager.checkNodesHealth",
                line: 800,
            },
            Line {
                method: "NodeStateManager.updateNodeState",
                line: 943,
            },
            Line {
                method: "NodeStateMap.updateNodeHealthState",
                line: 112,
            },
            Line {
                method: "NodeStateMap.getAllDatanodeInfos",
                line: 170,
            },
            Line {
                method: "NodeStateMap.addContainer",
                line: 261,
            },
            Line {
                method: "DatanodeInfo.updateLastHeartbeatTime",
                line: 101,
            },
            Line {
                method: "DeadNodeHandler.onMessage",
                line: 76,
            },
            Line {
                method: "DeadNodeHandler.closeContainers",
                line: 188,
            },
            Line {
                method: "DeadNodeHandler.removeContainerReplicas",
                line: 212,
            },
            Line {
                method: "ContainerManager.reinitialize",
                line: 43,
            },
            Line {
                method: "ContainerManager.updateContainerReplica",
                line: 195,
            },
            Line {
                method: "ContainerReportHandler.onMessage",
                line: 134,
            },
            Line {
                method: "ContainerReportHandler.processMissingReplicas",
                line: 245,
            },
            Line {
                method: "EventQueue.fireEvent",
                line: 264,
            },
            Line {
                method: "ReconNodeManager.loadExistingNodes",
                line: 109,
            },
            Line {
                method: "ReconNodeManager.processHeartbeat",
                line: 176,
            },
            Line {
                method: "ReconNodeManager.register",
                line: 211,
            },
            Line {
                method: "ReconNodeManager.reinitialize",
                line: 260,
            },
        ],
    }],
    unlinked: &[],
};
