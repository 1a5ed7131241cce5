//! What the checkers found beyond HDDS-17643's report, each with the cells that show it (`VARIANT/OUTCOME/CHECKER`; DESIGN-NOTES.md has
//! the argument of each).

use crate::findings::{Finding, Kind};

pub const FINDINGS: &[Finding] = &[
    Finding {
        id: "CR-F1",
        kind: Kind::DisagreesWithReport,
        statement: "The report's fix (P1) leaves the pipeline failure: the leader's COMMIT_DATA of the \
                    refused WriteChunk finds no container and answers CONTAINER_NOT_FOUND, which \
                    applyTransaction does not ignore; P2 answers CONTAINER_NOT_OPEN there.",
        cells: &["P1/O5/loom", "proposed/O5/loom", "P3+P7+P8/O5/loom", "improved/O5/loom", "P1/O5/real:CR_R3", "proposed/O5/real:CR_R3", "improved/O5/real:CR_R3"],
        no_replay: None,
    },
    Finding {
        id: "CR-F2",
        kind: Kind::BeyondReport,
        statement: "A write in flight across the close and the delete reads the replica DELETED: \
                    CONTAINER_INTERNAL_ERROR, then dispatchRequest's Preconditions.checkState throws and \
                    the pipeline fails, with P1+P2 too; P7 (CONTAINER_NOT_OPEN for a DELETED replica) is \
                    needed.",
        cells: &["P1+P2/O5/loom", "P2+P3+P8/O5/loom", "improved/O5/loom", "P1+P2/O5/real:CR_R2", "improved/O5/real:CR_R2"],
        no_replay: None,
    },
    Finding {
        id: "CR-F3",
        kind: Kind::BeyondReport,
        statement: "handleWriteChunk checks the state and opens the chunk file in separate steps: a close and \
                    a force delete in between make the open throw, and writeStateMachineData's catch fails \
                    the pipeline whatever the state check answers; P8 (catch, re-read the state, answer \
                    CONTAINER_NOT_OPEN) is needed.",
        cells: &[
            "P1+P2+P7/O5/loom",
            "P2+P3+P7/O5/loom",
            "P1+P2+P7+P8/O5/loom",
            "improved/O5/loom", "P1+P2+P7/O5/real:CR_O5", "improved/O5/real:CR_O5"],
        no_replay: None,
    },
    Finding {
        id: "CR-F4",
        kind: Kind::DisagreesWithReport,
        statement: "The SCM defence (P4+P5) prevents the loss of the blocks from before the close but deletes \
                    the recreated replica, and with it a block the client was told was written; only a \
                    datanode part that refuses the write prevents both.",
        cells: &["P4+P5/O4/proptest", "P4+P5/O6/proptest", "improved/O6/proptest", ],
        no_replay: Some("SCM's side over long histories (moves, losses, over- and under-replication by \
                              ReplicationManager): no replay drives those on the real classes yet; the proptest \
                              histories are the evidence"),
    },
    Finding {
        id: "CR-F5",
        kind: Kind::BeyondReport,
        statement: "P5 without P4 makes it worse: with the sequence id raised to the recreated replica's \
                    BCSID, the real replicas are the mismatched ones and are deleted first.",
        cells: &["P5/O2/proptest", "P5/O4/proptest", "P4+P5/O4/proptest"],
        no_replay: None,
    },
    Finding {
        id: "CR-F6",
        kind: Kind::ResidualWindow,
        statement: "The restart gap is wider than HDDS-17435: replaying a streamed container's StreamInit and \
                    PutBlock puts nothing back in container2BCSIDMap, so after any restart whose snapshot \
                    predates the container P1 forgets it and the live leader recreates it; P3's tombstone, \
                    kept in the container ID table, does not forget.",
        cells: &[
            "P1/O2/proptest",
            "proposed/O1/proptest",
            "proposed/O6/proptest",
            "P1+P2/O7/proptest",
            "P1+P2+P7+P8/O7/proptest",
            "tombstone/O7/proptest",
            "improved/O7/proptest",
        ],
        no_replay: None,
    },
    Finding {
        id: "CR-F7",
        kind: Kind::DisagreesWithReport,
        statement: "The issue's candidate, a check in the leader's startTransaction (P6), leaves the recreate: \
                    a WriteChunk validated while the container was OPEN reaches WRITE_DATA after the close \
                    and the delete and auto-creates; the check must stay in dispatchRequest.",
        cells: &["P6/O1/loom", "P6/O7/loom", "P1/O1/loom", "P6/O1/real:CR_O1", "P6/O7/real:CR_O1", "P1/O1/real:CR_O1"],
        no_replay: None,
    },
    Finding {
        id: "CR-F8",
        kind: Kind::BeyondReport,
        statement: "A follower whose replica the balancer moved away auto-creates it in WRITE_DATA like the \
                    leader: one late write recreates the container on several members, and two recreated \
                    replicas can push out two real ones at once.",
        cells: &["upstream/O4/proptest", "upstream/O4/fuzz-replay"],
        no_replay: None,
    },
    Finding {
        id: "CR-F9",
        kind: Kind::BeyondReport,
        statement: "The smallest set of parts that closes every outcome is P2+P3+P7+P8 (improved): leaving out \
                    any one of them reopens the pipeline failure or the recreate.",
        cells: &[
            "improved/O1/loom",
            "improved/O5/loom",
            "improved/O7/loom",
            "improved/O4/proptest",
            "improved/O7/proptest",
            "P2+P7+P8/O1/loom",
            "P3+P7+P8/O5/loom",
            "P2+P3+P8/O5/loom",
            "P2+P3+P7/O5/loom",
        ],
        no_replay: None,
    },
    Finding {
        id: "CR-F10",
        kind: Kind::Precedent,
        statement: "HDDS-15791's refusal (containerAutoCreate=false answers CONTAINER_NOT_FOUND) in place of \
                    P1's stops the recreate but fails the pipeline: handleCommandResult ignores \
                    CONTAINER_NOT_OPEN, not CONTAINER_NOT_FOUND. The answer code matters.",
        cells: &["HDDS-15791/O1/loom", "HDDS-15791/O5/loom", "P1+P2+P7+P8/O5/loom", "HDDS-15791/O5/real:CR_R3", "P1+P2+P7+P8/O5/real:CR_R3"],
        no_replay: None,
    },
    Finding {
        id: "CR-F11",
        kind: Kind::Precedent,
        statement: "HDDS-14831 made CONTAINER_ALREADY_EXISTS pass canIgnoreException, but handleCommandResult \
                    still does not ignore it: an auto-create between the delete's map removal and its \
                    directory move fails the pipeline, in rows that auto-create after a delete (which fail \
                    it by other orders already); rows that refuse the auto-create never reach it.",
        cells: &["upstream/O5/loom", "P2/O5/loom", "improved/O7/loom", "P1+P2+P7+P8/O5/loom"],
        no_replay: None,
    },
    Finding {
        id: "CR-F12",
        kind: Kind::BeyondReport,
        statement: "P4 alone is no defence: a CLOSED replica of any BCSID still counts, over-replication still \
                    deletes by hashCode and getSources still prefers the recreated replica's own higher \
                    BCSID; P4 with P5 marks it unhealthy, deleted first and never a source.",
        cells: &["P4/O3/proptest", "P4/O4/proptest", "P4+P5/O3/proptest"],
        no_replay: None,
    },
    Finding {
        id: "CR-F13",
        kind: Kind::BeyondReport,
        statement: "KeyValueContainerData.blockCommitSequenceId is a plain long that the PutBlock's apply \
                    writes and the container report thread reads with no lock: a data race no part of any \
                    fix touches (a report can carry a stale BCSID; SCM's next report corrects it).",
        cells: &["upstream/O8/loom", "proposed/O8/loom", "improved/O8/loom"],
        no_replay: None,
    },
];
