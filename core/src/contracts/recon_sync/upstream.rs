//! Where recon-sync's steps are upstream: Ozone's Recon and OM at the report baseline
//! (78d5650c), read with `git show <commit>:<path> | grep -n`. See [`crate::upstream`].

use crate::model::REPORT;
use crate::upstream::{Class, Line, Lines, Sources, Unlinked};

pub static SOURCES: Sources = Sources {
    classes: &[
        Class::new("OzoneManagerServiceProviderImpl", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/spi/impl/OzoneManagerServiceProviderImpl.java"),
        Class::new("ReconTaskControllerImpl", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/tasks/ReconTaskControllerImpl.java"),
        Class::new("OMUpdateEventBuffer", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/tasks/OMUpdateEventBuffer.java"),
        Class::new("ReconTaskStatusUpdater", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/tasks/updater/ReconTaskStatusUpdater.java"),
        Class::new("ReconOmMetadataManagerImpl", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/recovery/ReconOmMetadataManagerImpl.java"),
        Class::new("TriggerDBSyncEndpoint", "hadoop-ozone/recon/src/main/java/org/apache/hadoop/ozone/recon/api/TriggerDBSyncEndpoint.java"),
        Class::new("RDBBatchOperation", "hadoop-hdds/framework/src/main/java/org/apache/hadoop/hdds/utils/db/RDBBatchOperation.java"),
        Class::new("OzoneManager", "hadoop-ozone/ozone-manager/src/main/java/org/apache/hadoop/ozone/om/OzoneManager.java"),
        Class::new("OzoneManagerDoubleBuffer", "hadoop-ozone/ozone-manager/src/main/java/org/apache/hadoop/ozone/om/ratis/OzoneManagerDoubleBuffer.java"),
    ],
    lines: &[Lines {
        baseline: REPORT,
        lines: &[
            Line {
                method: "OzoneManagerServiceProviderImpl.stopSyncDataFromOMThread",
                line: 363,
            },
            Line {
                method: "OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately",
                line: 380,
            },
            Line {
                method: "OzoneManagerServiceProviderImpl.getOzoneManagerDBSnapshot",
                line: 448,
            },
            Line {
                method: "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
                line: 576,
            },
            Line {
                method: "OzoneManagerServiceProviderImpl.innerGetAndApplyDeltaUpdatesFromOM",
                line: 636,
            },
            Line {
                method: "OzoneManagerServiceProviderImpl.syncDataFromOM",
                line: 729,
            },
            Line {
                method: "ReconTaskControllerImpl.consumeOMEvents",
                line: 180,
            },
            Line {
                method: "ReconTaskControllerImpl.reInitializeTasks",
                line: 212,
            },
            Line {
                method: "ReconTaskControllerImpl.processOMUpdateBatch",
                line: 551,
            },
            Line {
                method: "ReconTaskControllerImpl.queueReInitializationEvent",
                line: 615,
            },
            Line {
                method: "ReconTaskControllerImpl.drainEventBufferAndCleanExistingCheckpoints",
                line: 721,
            },
            Line {
                method: "ReconTaskControllerImpl.updateOMMetadataManager",
                line: 744,
            },
            Line {
                method: "ReconTaskControllerImpl.createOMCheckpoint",
                line: 758,
            },
            Line {
                method: "OMUpdateEventBuffer.poll",
                line: 88,
            },
            Line {
                method: "ReconTaskStatusUpdater.recordRunCompletion",
                line: 107,
            },
            Line {
                method: "ReconOmMetadataManagerImpl.updateOmDB",
                line: 144,
            },
            Line {
                method: "TriggerDBSyncEndpoint.triggerOMDBSync",
                line: 52,
            },
            Line {
                method: "TriggerDBSyncEndpoint.triggerOMDBReinit",
                line: 60,
            },
            Line {
                method: "RDBBatchOperation.commit",
                line: 413,
            },
            Line {
                method: "OzoneManager.getDBUpdates",
                line: 4839,
            },
            Line {
                method: "OzoneManagerDoubleBuffer.flushTransactions",
                line: 295,
            },
        ],
    }],
    unlinked: &[Unlinked {
        method: "OzoneManager.deleteKey",
        why: "OzoneManager declares no deleteKey at 78d5650c: it inherits the default \
              OzoneManagerProtocol.deleteKey (hadoop-ozone/common/.../om/protocol/OzoneManagerProtocol.java \
              L354); a key delete is applied through Ratis by OMKeyDeleteRequest, whose KEY_NOT_FOUND \
              the model's step stands for",
    }],
};
