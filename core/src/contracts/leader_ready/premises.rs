//! The statements about Ozone's SCM that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/ozone` (see [`crate::premises`]).
use crate::premises::Premise;

const JAR: &str = "hdds-server-scm 2.2.0";

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "LR_P1",
        upstream: "SCMContext.setLeaderReady",
        jar: JAR,
        statement: "setLeaderReady sets isLeaderReady whatever isLeader and the term are (no \
                    leadership or term check)",
        cells: &[
            "leader-ready/upstream/O1/loom",
            "leader-ready/upstream/O1/steps",
            "leader-ready/upstream/O2/loom",
            "leader-ready/upstream/O2/steps",
            "leader-ready/P2/O1/loom",
            "leader-ready/P2/O1/steps",
            "leader-ready/P2/O2/loom",
            "leader-ready/P2/O2/steps",
        ],
        versus_baseline: "SCMContext is identical in ozone-2.2.0 and 78d5650c (git diff empty): \
                    setLeaderReady is the model's; no verdict depends on a difference",
        not_run: None,
    },
    Premise {
        id: "LR_P2",
        upstream: "SCMContext.updateLeaderAndTerm",
        jar: JAR,
        statement: "updateLeaderAndTerm clears isLeaderReady only when stepping down; an \
                    election leaves it as it was",
        cells: &[
            "leader-ready/upstream/O2/loom",
            "leader-ready/upstream/O2/steps",
        ],
        versus_baseline: "SCMContext is identical in ozone-2.2.0 and 78d5650c (git diff empty): \
                    updateLeaderAndTerm is the model's; no verdict depends on a difference",
        not_run: None,
    },
    Premise {
        id: "LR_P3",
        upstream: "SCMStateMachine.notifyLeaderReady",
        jar: JAR,
        statement: "notifyLeaderReady, run after a step-down, sets the flag with no leadership \
                    check and no buffer flush before it: on 2.2.0 the window is the callback's \
                    start; the model's flush and reload before setLeaderReady are the report's \
                    newer master (HDDS-16143), which no release holds",
        cells: &[
            "leader-ready/upstream/O1/loom",
            "leader-ready/upstream/O1/steps",
            "leader-ready/upstream/O2/loom",
            "leader-ready/upstream/O2/steps",
        ],
        versus_baseline: "notifyLeaderReady and notifyNotLeader are identical in ozone-2.2.0 and \
                    78d5650c (SCMStateMachine's diff is in applyTransaction, notifyLeaderChanged, \
                    notifyTermIndexUpdated and the new tryStartDNServerAndRefreshSafeMode). \
                    Neither has the flush and reload before setLeaderReady that the model takes \
                    from the report's newer master (HDDS-16143): that difference is this \
                    statement; they widen the window in time only and touch nothing another actor \
                    reads, so no verdict depends on it",
        not_run: None,
    },
    Premise {
        id: "LR_P4",
        upstream: "ReplicationManager.notifyStatusChanged",
        jar: JAR,
        statement: "ReplicationManager goes RUNNING when isLeaderReady and out of safe mode, \
                    without checking isLeader",
        cells: &[
            "leader-ready/upstream/O1/loom",
            "leader-ready/upstream/O1/steps",
        ],
        versus_baseline: "ReplicationManager.notifyStatusChanged and shouldRun are the same in \
                    ozone-2.2.0 and 78d5650c (its diff is in the pending-op scheduling of sent \
                    replicate commands, a catch clause and the push setting); SCMServiceManager \
                    and SCMBlockDeletingService are identical: no verdict depends on a difference",
        not_run: None,
    },
    Premise {
        id: "LR_P5",
        upstream: "LeaderStateImpl.checkReady",
        jar: "ratis-server 3.2.1 (Ozone 2.2.0's Ratis)",
        statement: "on a real RaftServer (one peer, gRPC), checkReady calls notifyLeaderReady on \
                    the StateMachineUpdater thread without the RaftServerImpl monitor, right \
                    after notifyConfigurationChanged for the same startup entry's term on that \
                    thread; while it has not returned (held by a latch in the test's own state \
                    machine), an admin step-down's notifyNotLeader and the re-election's \
                    notifyLeaderChanged in the next term run to completion on other threads \
                    under the monitor, and Ratis' current term is the new one",
        cells: &[
            "leader-ready/upstream/O1/loom",
            "leader-ready/upstream/O1/steps",
            "leader-ready/upstream/O2/loom",
            "leader-ready/upstream/O2/steps",
            "leader-ready/upstream/R1/loom",
            "leader-ready/upstream/R1/steps",
            "leader-ready/upstream/R2/loom",
            "leader-ready/upstream/R2/steps",
            "leader-ready/P2/O1/loom",
            "leader-ready/P2/O1/steps",
            "leader-ready/P2/O2/loom",
            "leader-ready/P2/O2/steps",
            "leader-ready/P2/R1/loom",
            "leader-ready/P2/R1/steps",
            "leader-ready/P2/R2/loom",
            "leader-ready/P2/R2/steps",
            "leader-ready/P1/R1/loom",
            "leader-ready/P1/R1/steps",
            "leader-ready/P1/R2/loom",
            "leader-ready/P1/R2/steps",
            "leader-ready/proposed/R1/loom",
            "leader-ready/proposed/R1/steps",
            "leader-ready/proposed/R2/loom",
            "leader-ready/proposed/R2/steps",
            "leader-ready/improved/R1/loom",
            "leader-ready/improved/R1/steps",
            "leader-ready/improved/R2/loom",
            "leader-ready/improved/R2/steps",
            "leader-ready/upstream/O1/real:LR_O1",
            "leader-ready/upstream/O2/real:LR_O1",
            "leader-ready/upstream/R1/real:LR_R1",
            "leader-ready/upstream/R2/real:LR_R2",
            "leader-ready/P2/O1/real:LR_O1",
            "leader-ready/P2/O2/real:LR_O1",
            "leader-ready/P2/R1/real:LR_R1",
            "leader-ready/P2/R2/real:LR_R2",
            "leader-ready/P1/R1/real:LR_R1",
            "leader-ready/P1/R2/real:LR_R2",
            "leader-ready/proposed/R1/real:LR_R1",
            "leader-ready/proposed/R2/real:LR_R2",
            "leader-ready/improved/R1/real:LR_R1",
            "leader-ready/improved/R2/real:LR_R2",
        ],
        versus_baseline: "ozone-2.2.0 and 78d5650c both depend on ratis 3.2.1 \
                    (ratis.version in the root pom): the same Ratis classes, no difference",
        not_run: None,
    },
    Premise {
        id: "LR_O1",
        upstream: "SCMStateMachine.notifyLeaderReady",
        jar: JAR,
        statement: "replay, on every row: the step-down (notifyNotLeader) while the term-4 \
                    notifyLeaderReady is held after its start, before setLeaderReady; O1 \
                    decided after both; then elected in term 5 (notifyLeaderChanged) and O2 \
                    decided before any term-5 notifyLeaderReady",
        cells: &[],
        versus_baseline: "runs 2.2.0's notifyLeaderReady and notifyNotLeader (identical at \
                    78d5650c) and 2.2.0's notifyLeaderChanged, which differs at 78d5650c: the \
                    term read into a local instead of the AtomicLong currentLeaderTerm, and \
                    tryStartDNServerAndRefreshSafeMode (an isLeader read, the datanode server's \
                    start, the safe-mode refresh) for the isStateMachineReady refresh; both call \
                    updateLeaderAndTerm(true, Ratis' term) and neither writes the flag, so no \
                    verdict depends on it. The hold sits at the callback's first call, not in the \
                    flush of the report's master (LR_P3)",
        not_run: None,
    },
    Premise {
        id: "LR_R1",
        upstream: "SCMStateMachine.notifyLeaderReady",
        jar: JAR,
        statement: "replay, on every row: after checkReady of the term-4 startup entry, the \
                    step-down, the candidacy (Ratis term 5) and the win (notifyLeaderChanged) \
                    all before notifyLeaderReady starts; R1 decided after the callback",
        cells: &[],
        versus_baseline: "as LR_O1: notifyLeaderReady and notifyNotLeader identical at 78d5650c; \
                    notifyLeaderChanged differs there only in what it does besides \
                    updateLeaderAndTerm(true, Ratis' term), which writes no flag: no verdict \
                    depends on it",
        not_run: None,
    },
    Premise {
        id: "LR_R2",
        upstream: "SCMStateMachine.notifyLeaderReady",
        jar: JAR,
        statement: "replay, on every row: after checkReady of the term-4 startup entry, the \
                    step-down and the candidacy (Ratis term 5) before notifyLeaderReady starts, \
                    the win (notifyLeaderChanged) while it is held before setLeaderReady; R2 \
                    decided after the callback",
        cells: &[],
        versus_baseline: "as LR_O1: notifyLeaderReady and notifyNotLeader identical at 78d5650c; \
                    notifyLeaderChanged differs there only in what it does besides \
                    updateLeaderAndTerm(true, Ratis' term), which writes no flag: no verdict \
                    depends on it; the win lands at the callback's first call, where the report's \
                    master would have the flush",
        not_run: None,
    },
];
