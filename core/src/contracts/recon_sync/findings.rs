//! What the checkers found beyond HDDS-17042's report, each with the cells that show it (`VARIANT/OUTCOME/CHECKER`; DESIGN-NOTES.md has
//! the argument of each).

use crate::findings::{Finding, Kind};

pub const FINDINGS: &[Finding] = &[
    Finding {
        id: "RS-F1",
        kind: Kind::ResidualWindow,
        statement: "O3 (HDDS-5146) stays open under the patch and under every lock design: the \
                    fault comes after the commit, which no lock span changes.",
        cells: &[
            "proposed/O3/loom",
            "A1/O3/loom",
            "A2/O3/loom",
            "A3/O3/loom",
            "A4/O3/loom",
        ],
        no_replay: None,
    },
    Finding {
        id: "RS-F2",
        kind: Kind::BeyondReport,
        statement: "The patch's release must be in the loop iteration's finally: released \
                    without a finally (A3) or in syncDataFromOM's finally (A4) leaks a hold, \
                    though the patch's own test with OM stopped passes for both.",
        cells: &[
            "A3/O6/loom",
            "A3/O7/loom",
            "A4/O6/loom",
            "A3/O4/loom",
            "A4/O4/loom",
        ],
        no_replay: None,
    },
    Finding {
        id: "RS-F3",
        kind: Kind::BeyondReport,
        statement: "Locking only around the checkpoint on the REST side (A2) loses a batch with \
                    no fault but never applies one twice.",
        cells: &["A2/O5/loom", "A2/O1/loom", "A2/O2/loom"],
        no_replay: None,
    },
    Finding {
        id: "RS-F4",
        kind: Kind::BeyondReport,
        statement: "OzoneManagerServiceProviderImpl.scheduler is a plain field that two \
                    triggerSyncDataFromOMImmediately calls write at once (a data race, O8), \
                    under the patch too.",
        cells: &["upstream/O8/loom", "proposed/O8/loom"],
        no_replay: None,
    },
    Finding {
        id: "RS-F5",
        kind: Kind::DisagreesWithReport,
        statement: "A second requester the report misplaces: the upgrade actions \
                    (NSSummaryAggregatedTotalsUpgrade, ReplicatedSizeOfFilesUpgradeAction) call \
                    queueReInitializationEvent on ReconServer's main thread after start() has \
                    scheduled the sync (the report says before), on 2.2.0 and on 78d5650c. The \
                    patch locks only triggerTaskRebuild, so on the released classes a rebuild \
                    queued by an upgrade action inside the sync's commit-to-hand-off window \
                    applies the batch twice (O1), and one between two write-batch commits of a \
                    delta applies the prefix twice (O2), with the patch's sync side in place and \
                    with every lock design (A1..A4). The model has no such requester; its loom cells are \
                    about the REST one.",
        cells: &[
            "upstream/O1/real:RS_O1",
            "proposed/O1/real:RS_O1",
            "A1/O1/real:RS_O1",
            "A2/O1/real:RS_O1",
            "A3/O1/real:RS_O1",
            "A4/O1/real:RS_O1",
            "upstream/O2/real:RS_O2",
            "proposed/O2/real:RS_O2",
            "A1/O2/real:RS_O2",
            "A4/O2/real:RS_O2",
        ],
        no_replay: None,
    },
];
