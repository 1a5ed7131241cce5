//! The statements about Ozone's Recon that this model rests on (see [`crate::premises`]). None
//! has a test yet: the Recon classes need an OM RocksDB, a Recon SQL schema (jOOQ on Derby) and
//! a running task controller, which `conformance/ozone` does not wire; `cargo xtask
//! conformance` reports them as not run.
use crate::premises::Premise;

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
    },
];
