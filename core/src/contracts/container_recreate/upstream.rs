//! Where container-recreate's steps are upstream: Ozone's datanode and SCM at the report
//! baseline (78d5650c), read with `git show <commit>:<path> | grep -n`. See
//! [`crate::upstream`].

use crate::model::REPORT;
use crate::upstream::{Class, Line, Lines, Sources};

pub static SOURCES: Sources = Sources {
    classes: &[
        Class::new("ContainerSet", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/common/impl/ContainerSet.java").per_datanode(),
        Class::new("HddsDispatcher", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/common/impl/HddsDispatcher.java").per_datanode(),
        Class::new("ContainerStateMachine", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/common/transport/server/ratis/ContainerStateMachine.java").per_datanode(),
        Class::new("KeyValueHandler", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/keyvalue/KeyValueHandler.java").per_datanode(),
        Class::new("KeyValueContainer", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/keyvalue/KeyValueContainer.java").per_datanode(),
        Class::new("ContainerController", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/ozoneimpl/ContainerController.java").per_datanode(),
        Class::new("AbstractContainerReportHandler", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/AbstractContainerReportHandler.java"),
        Class::new("KeyValueContainerUtil", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/keyvalue/helpers/KeyValueContainerUtil.java").per_datanode(),
        Class::new("ReplicationManager", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/replication/ReplicationManager.java"),
        Class::new("EmptyContainerHandler", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/replication/health/EmptyContainerHandler.java"),
        Class::new("MismatchedReplicasHandler", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/replication/health/MismatchedReplicasHandler.java"),
        Class::new("CloseContainerCommandHandler", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/common/statemachine/commandhandler/CloseContainerCommandHandler.java").per_datanode(),
        Class::new("KeyValueContainerData", "hadoop-hdds/container-service/src/main/java/org/apache/hadoop/ozone/container/keyvalue/KeyValueContainerData.java").per_datanode(),
        Class::new("MoveManager", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/balancer/MoveManager.java"),
    ],
    lines: &[Lines {
        baseline: REPORT,
        lines: &[
            Line {
                method: "ContainerSet.getContainerWithWriteLock",
                line: 305,
            },
            Line {
                method: "ContainerSet.removeContainer",
                line: 375,
            },
            Line {
                method: "ContainerSet.handleVolumeFailures",
                line: 454,
            },
            Line {
                method: "CloseContainerCommandHandler.handle",
                line: 87,
            },
            Line {
                method: "KeyValueHandler.markContainerForClose",
                line: 1459,
            },
            Line {
                method: "KeyValueHandler.closeContainer",
                line: 1655,
            },
            Line {
                method: "KeyValueContainerData.buildContainerReplicaProto",
                line: 277,
            },
            Line {
                method: "ReplicationManager.sendCloseContainerReplicaCommand",
                line: 898,
            },
            Line {
                method: "ContainerStateMachine.notifyGroupRemove",
                line: 1317,
            },
            Line {
                method: "HddsDispatcher.dispatchRequest",
                line: 207,
            },
            Line {
                method: "KeyValueHandler.checkContainerOpen",
                line: 1373,
            },
            Line {
                method: "ContainerStateMachine.loadSnapshot",
                line: 344,
            },
            Line {
                method: "ContainerStateMachine.startTransaction",
                line: 474,
            },
            Line {
                method: "ContainerStateMachine.handleCommandResult",
                line: 652,
            },
            Line {
                method: "ContainerStateMachine.applyTransaction",
                line: 1127,
            },
            Line {
                method: "KeyValueHandler.handleCreateContainer",
                line: 446,
            },
            Line {
                method: "KeyValueHandler.handleCloseContainer",
                line: 630,
            },
            Line {
                method: "KeyValueHandler.handlePutBlock",
                line: 662,
            },
            Line {
                method: "KeyValueHandler.handleWriteChunk",
                line: 1085,
            },
            Line {
                method: "KeyValueHandler.importContainer",
                line: 1426,
            },
            Line {
                method: "KeyValueHandler.deleteInternal",
                line: 2519,
            },
            Line {
                method: "KeyValueContainer.markContainerForDelete",
                line: 413,
            },
            Line {
                method: "KeyValueContainer.exportContainerData",
                line: 696,
            },
            Line {
                method: "ContainerController.deleteContainer",
                line: 245,
            },
            Line {
                method: "AbstractContainerReportHandler.processContainerReplica",
                line: 106,
            },
            Line {
                method: "ReplicationManager.sendDeleteCommand",
                line: 434,
            },
            Line {
                method: "EmptyContainerHandler.handle",
                line: 55,
            },
            Line {
                method: "MismatchedReplicasHandler.handle",
                line: 59,
            },
            Line {
                method: "MoveManager.startMove",
                line: 124,
            },
            Line {
                method: "MoveManager.handleSuccessfulAdd",
                line: 375,
            },
            Line {
                method: "KeyValueContainerUtil.removeContainer",
                line: 131,
            },
            Line {
                method: "KeyValueHandler.handleStreamInit",
                line: 413,
            },
            Line {
                method: "ContainerStateMachine.checkContainerHealthy",
                line: 402,
            },
            Line {
                method: "ReplicationManager.sendThrottledReplicationCommand",
                line: 515,
            },
        ],
    }],
    unlinked: &[],
};
