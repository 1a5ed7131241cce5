//! What the checkers found beyond HDFS-17969's report, each with the cells that show it
//! (`VARIANT/OUTCOME/CHECKER`; DESIGN-NOTES.md, "Findings", has the argument of each).
//!
//! Two findings of the notes have no cell and are argued by unit tests instead: the cap clear
//! of HDFS-17953 (`ibr_cap`) and the ConcurrentModificationException of several storages
//! (`every_row_with_an_unsynchronized_clear_but_p1_p3_already_loses_a_block`).

use crate::findings::{Finding, Kind};

pub const FINDINGS: &[Finding] = &[
    Finding {
        id: "RR-F1",
        kind: Kind::Precedent,
        statement: "HDFS-17953 (trunk) closes the race on pendingIBRs (O4) and putMissing's \
                    NullPointerException (O5) and nothing else: trunk still clears the IBRs and \
                    still loses the block.",
        cells: &[
            "upstream/O4/loom",
            "trunk/O4/loom",
            "upstream/O5/loom",
            "trunk/O5/loom",
            "trunk/O3/loom",
        ],
        no_replay: None,
    },
    Finding {
        id: "RR-F2",
        kind: Kind::BeyondReport,
        statement: "Keeping the registration's FBR request (P1) does not save the block after a \
                    NameNode restart: in startup safe mode BlockManager.processReport discards \
                    a storage's second report, so when the in-flight FBR lands after the \
                    re-registration it counts as the first and P1's FBR, the one that carries \
                    the cleared block, is dropped without the DataNode knowing. Without a restart \
                    (the dead-node path, O6) P1 does keep the block.",
        cells: &["P1/O3/loom", "trunk+P1/O3/loom", "P1/O1/loom", "P1/O6/loom"],
        no_replay: None,
    },
    Finding {
        id: "RR-F3",
        kind: Kind::BeyondReport,
        statement: "Keeping the pending IBRs on re-registration (P2) is what closes the missing \
                    block, on both baselines: the block stays queued and goes out as an IBR once \
                    the DataNode is registered again, and the IBRs the NameNode drops from an \
                    unregistered node are in the in-flight FBR's snapshot.",
        cells: &[
            "P2/O3/loom",
            "P2/O6/loom",
            "P2/O9/loom",
            "trunk+P2/O3/loom",
            "trunk+P2/O6/loom",
            "trunk+P2/O9/loom",
        ],
        no_replay: None,
    },
    Finding {
        id: "RR-F4",
        kind: Kind::BeyondReport,
        statement: "Dropping stale DNA_REGISTER commands (P3) is not a fix: a DataNode the \
                    NameNode declared dead gets REGISTER and a block report lease in one \
                    heartbeat answer, and the FBR it starts races that single registration.",
        cells: &["P3/O6/loom", "P3/O3/loom"],
        no_replay: None,
    },
    Finding {
        id: "RR-F5",
        kind: Kind::BeyondReport,
        statement: "A stale REGISTER also comes back as the answer to a block report sent before \
                    a NameNode restart; P3 must tag it with the registration the report was sent \
                    under (read at its IBR drain) to drop it.",
        cells: &[
            "upstream/O8/loom",
            "P3/O8/loom",
            "P3/O8/steps",
            "trunk+P3/O8/loom",
        ],
        no_replay: None,
    },
    Finding {
        id: "RR-F6",
        kind: Kind::BeyondReport,
        statement: "On the report's code, an IBR RPC that fails while clearIBRs runs makes \
                    putMissing dereference the removed storage entry (a NullPointerException): \
                    the blocks it would re-queue are lost.",
        cells: &["upstream/O5/loom", "P2/O5/loom"],
        no_replay: None,
    },
    Finding {
        id: "RR-F7",
        kind: Kind::BeyondReport,
        statement: "A second data race: resetBlockReportTime is a plain boolean that register's \
                    scheduleBlockReport writes and the in-flight FBR's scheduleNextBlockReport \
                    reads and clears; a stale read loses the request all the same. P1's request \
                    lock orders them.",
        cells: &["upstream/O7/loom", "P1/O7/loom", "proposed/O7/loom"],
        no_replay: None,
    },
    Finding {
        id: "RR-F8",
        kind: Kind::DisagreesWithReport,
        statement: "The report's window as worded, a block queued between the IBR send and the \
                    snapshot, loses nothing: the block was finalized before it was queued, so the \
                    in-flight FBR's snapshot carries it. Only a writer that queues before it \
                    finalizes would lose it.",
        cells: &[
            "upstream/R1/loom",
            "upstream/R1/steps",
            "notify-first/R1/loom",
        ],
        no_replay: Some(
            "no J cell can show it: upstream's side (a block queued between the IBR drain and \
             the snapshot is in the in-flight FBR's snapshot, R1 not reached) could be replayed \
             on the real classes, but a J not-reached cell needs a reached twin of the same \
             replay, and the only row that reaches R1 is notify-first, the writer-order mutant, \
             which is not renderable: the writer's order is BlockReceiver's PacketResponder's, \
             which no replay runs (the harness plays the writer: finalize, then \
             BPOfferService.notifyNamenodeReceivedBlock), and no released class queues before \
             it finalizes",
        ),
    },
    Finding {
        id: "RR-F9",
        kind: Kind::DisagreesWithReport,
        statement: "reRegister clears the IBRs before it registers, and only when the actor \
                    last saw the NameNode as STANDBY or OBSERVER: against an ACTIVE NameNode \
                    nothing is cleared, and the registration's FBR request is still lost (O2).",
        cells: &[
            "upstream/O2/loom",
            "upstream/O2/real:RR_O2",
            "upstream/O1/real:RR_O3",
            "upstream/O2/real:RR_O3",
        ],
        no_replay: None,
    },
    Finding {
        id: "RR-F10",
        kind: Kind::BeyondReport,
        statement: "With two NameNodes the DataNode notifies each actor in turn, so one NameNode \
                    can learn a block the restarted one loses: the block is missing once the \
                    second becomes active.",
        cells: &[
            "upstream/O9/real:RR_O9",
            "trunk/O9/real:RR_O9",
            "upstream/O9/loom",
            "proposed/O9/loom",
            "proposed/O9/proptest",
        ],
        no_replay: None,
    },
    Finding {
        id: "RR-F11",
        kind: Kind::ResidualWindow,
        statement: "P1+P2 closes every outcome on both baselines but the duplicate registration \
                    (O8), which only P3 closes and which loses nothing once P1 and P2 are in.",
        cells: &[
            "proposed/O8/loom",
            "P1+P2+P3/O8/loom",
            "proposed/O3/loom",
            "proposed/O3/proptest",
            "upstream/O3/proptest",
            "trunk+P1+P2/O3/loom",
        ],
        no_replay: None,
    },
];
