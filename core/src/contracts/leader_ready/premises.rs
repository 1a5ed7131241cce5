//! The statements about Ozone's SCM that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/ozone` (see [`crate::premises`]).
use crate::premises::{Premise, UNCOMPARED};

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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "LR_O1",
        upstream: "SCMStateMachine.notifyLeaderReady",
        jar: JAR,
        statement: "replay: O1 (a follower is leader-ready, ReplicationManager runs) and then \
                    O2 (re-elected, ready before its term's notifyLeaderReady) are reached on \
                    the real classes",
        cells: &[
            "leader-ready/upstream/O1/loom",
            "leader-ready/upstream/O1/steps",
            "leader-ready/upstream/O2/loom",
            "leader-ready/upstream/O2/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
];
