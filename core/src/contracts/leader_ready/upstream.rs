//! Where leader-ready's steps are upstream: Ozone's SCM at the report baseline (78d5650c), and
//! Ratis at 3.2.1 (the `ratis.version` of Ozone's pom.xml at that commit), read with `git show
//! <commit>:<path> | grep -n`. See [`crate::upstream`].

use crate::model::REPORT;
use crate::upstream::{Class, Line, Lines, Sources, Tree, Unlinked};

/// Ratis, at the release Ozone 78d5650c builds with.
pub static RATIS: Tree = Tree {
    repo: "apache/ratis",
    commit: "07a340e37662b1f0c9fd2dfde79fccb728060d34",
    why: "tag ratis-3.2.1: ratis.version in ozone's pom.xml at 78d5650c",
};

pub static SOURCES: Sources = Sources {
    classes: &[
        Class::new("SCMContext", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/ha/SCMContext.java"),
        Class::new("SCMStateMachine", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/ha/SCMStateMachine.java"),
        Class::new("SCMHADBTransactionBuffer", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/ha/SCMHADBTransactionBuffer.java"),
        Class::new("DeletedBlockLogImpl", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/block/DeletedBlockLogImpl.java"),
        Class::new("ReplicationManager", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/container/replication/ReplicationManager.java"),
        Class::new("SCMBlockDeletingService", "hadoop-hdds/server-scm/src/main/java/org/apache/hadoop/hdds/scm/block/SCMBlockDeletingService.java"),
        Class::new("LeaderStateImpl", "ratis-server/src/main/java/org/apache/ratis/server/impl/LeaderStateImpl.java").in_tree(&RATIS),
        Class::new("RaftServerImpl", "ratis-server/src/main/java/org/apache/ratis/server/impl/RaftServerImpl.java").in_tree(&RATIS),
        Class::new("ServerState", "ratis-server/src/main/java/org/apache/ratis/server/impl/ServerState.java").in_tree(&RATIS),
    ],
    lines: &[Lines {
        baseline: REPORT,
        lines: &[
            Line {
                method: "SCMContext.updateLeaderAndTerm",
                line: 92,
            },
            Line {
                method: "SCMContext.setLeaderReady",
                line: 119,
            },
            Line {
                method: "SCMStateMachine.notifyLeaderReady",
                line: 491,
            },
            Line {
                method: "SCMHADBTransactionBuffer.flush",
                line: 45,
            },
            Line {
                method: "ReplicationManager.notifyStatusChanged",
                line: 1432,
            },
            Line {
                method: "SCMBlockDeletingService.notifyStatusChanged",
                line: 260,
            },
            Line {
                method: "LeaderStateImpl.checkReady",
                line: 422,
            },
            Line {
                method: "RaftServerImpl.changeToFollower",
                line: 587,
            },
            Line {
                method: "RaftServerImpl.changeToLeader",
                line: 635,
            },
            Line {
                method: "ServerState.initElection",
                line: 233,
            },
            Line {
                method: "ServerState.updateCurrentTerm",
                line: 216,
            },
        ],
    }],
    unlinked: &[Unlinked {
        method: "DeletedBlockLogImpl.onLeaderReady",
        why: "no such method at 78d5650c (the report's newer master calls it from notifyLeaderReady): \
              here SCMStateMachine.notifyLeaderChanged (L285) flushes the transaction buffer (L326) \
              and reloads the deleted block summary with DeletedBlockLogImpl.onBecomeLeader (L216), \
              under the RaftServerImpl monitor; notifyLeaderReady (L491) does neither",
    }],
};
