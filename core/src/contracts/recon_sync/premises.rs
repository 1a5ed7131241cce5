//! The statements about Ozone's Recon that this model rests on (see [`crate::premises`]). RS_P3
//! is checked on the class's own declarations. RS_P1 and RS_P2 have no test yet: they need
//! Recon running (an OM RocksDB, a Recon SQL schema on jOOQ and Derby, a task controller),
//! which `conformance/ozone` does not wire; `cargo xtask conformance` reports them as not run.
use crate::premises::{Premise, UNCOMPARED};

const JAR: &str = "ozone-recon 2.2.0";

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "RS_P1",
        upstream: "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
        jar: JAR,
        statement: "triggerTaskRebuild queues the rebuild (drain, checkpoint, offer) with no lock \
                    that the sync thread holds between its write-batch commits and its hand-off \
                    (consumeOMEvents)",
        cells: &[
            "recon-sync/upstream/O1/loom",
            "recon-sync/upstream/O1/steps",
            "recon-sync/upstream/O2/loom",
            "recon-sync/upstream/O2/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RS_P2",
        upstream: "ReconTaskControllerImpl.processOMUpdateBatch",
        jar: JAR,
        statement: "a batch queued behind a rebuild is applied by every task with no check \
                    against the cursor the rebuild set",
        cells: &[
            "recon-sync/upstream/O1/loom",
            "recon-sync/upstream/O1/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RS_P3",
        upstream: "OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately",
        jar: JAR,
        statement: "the sync scheduler is a plain field (neither volatile nor final) that \
                    triggerSyncDataFromOMImmediately replaces without a monitor, so two REST \
                    calls at once race on it (O8)",
        cells: &["recon-sync/upstream/O8/loom", "recon-sync/proposed/O8/loom"],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RS_O1",
        upstream: "OzoneManagerServiceProviderImpl.syncDataFromOM",
        jar: JAR,
        statement: "replay of O1 (not written yet): a rebuild queued between the sync's \
                    write-batch commit and its hand-off applies a batch twice. It needs Recon \
                    running (an OM RocksDB checkpoint, the Recon SQL schema, the task \
                    controller), which conformance/ozone does not wire",
        cells: &["recon-sync/upstream/O1/loom"],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
];
