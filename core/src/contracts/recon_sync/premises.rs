//! The statements about Ozone's Recon that this model rests on (see [`crate::premises`]), each
//! checked by driving the real classes of ozone-recon 2.2.0 (conformance/ozone,
//! `ReconSyncPremisesTest` and `ReplayReconSync*Test`): the real `OzoneManagerServiceProviderImpl`
//! and `ReconTaskControllerImpl` over two real RocksDBs (OM's, serving its log through a mocked
//! `getDBUpdates`, and the Recon OM DB), with the SQL status rows, the Recon DB provider and the
//! task mocked. RS_P1 is about `triggerTaskRebuild`, which is in no release (HDDS-15863 added it
//! after 2.2.0): it cannot run; RS_P4 checks on 2.2.0 the half of it that the release holds.
use crate::premises::{NoReplay, Premise};

const JAR: &str = "ozone-recon 2.2.0";

/// Where the thread that waits, or whose lock span the design breaks, is triggerTaskRebuild's
/// (the REST requester), which no release holds.
const IN_NO_RELEASE: &str = "the REST requester's side (triggerTaskRebuild, HDDS-15863) is in no \
                             release, ozone-recon 2.2.0 included";

pub static NO_REPLAY: &[NoReplay] = &[
    NoReplay {
        outcome: "O4",
        variants: &[],
        why: IN_NO_RELEASE,
    },
    NoReplay {
        outcome: "O5",
        variants: &[],
        why: IN_NO_RELEASE,
    },
    NoReplay {
        outcome: "O6",
        variants: &[],
        why: IN_NO_RELEASE,
    },
];

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "RS_P1",
        upstream: "OzoneManagerServiceProviderImpl.triggerTaskRebuild",
        jar: "ozone master 78d5650c (read; in no release)",
        statement: "triggerTaskRebuild queues the rebuild (drain, checkpoint, offer) with no lock \
                    that the sync thread holds between its write-batch commits and its hand-off \
                    (consumeOMEvents)",
        cells: &[
            "recon-sync/upstream/O1/loom",
            "recon-sync/upstream/O1/steps",
            "recon-sync/upstream/O2/loom",
            "recon-sync/upstream/O2/steps",
        ],
        versus_baseline: "the method exists only at the baseline: HDDS-15863 (d9b6cd4fb31) added \
                          it after ozone-2.2.0. At 78d5650c it is a null check of the Recon OM DB \
                          store, one call of queueReInitializationEvent(MANUAL_OM_DB_REBUILD) and \
                          a mapping of the result (read: no lock); the queueing it calls is the \
                          release's but for failure handling no verdict takes (RS_P4 runs it)",
        not_run: Some(
            "triggerTaskRebuild is in no release (HDDS-15863 added it after ozone-2.2.0, \
             ozone-recon 2.2.0 included); building ozone-recon at 78d5650c was assessed and not \
             done (DESIGN-NOTES.md). Its other half, that queueReInitializationEvent holds \
             nothing the sync thread holds in its window, runs on 2.2.0 as RS_P4",
        ),
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
        versus_baseline: "processOMUpdateBatch, processTasks, consumeOMEvents, reInitializeTasks \
                          and processBufferedEventsAsync are identical at 2.2.0 and 78d5650c; \
                          processReInitializationEvent differs only in how it closes and deletes \
                          the checkpoint (HDDS-16091), after the rebuild: no verdict depends on it",
        not_run: None,
    },
    Premise {
        id: "RS_P3",
        upstream: "OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately",
        jar: JAR,
        statement: "triggerSyncDataFromOMImmediately takes no monitor and replaces the plain \
                    scheduler field: two REST calls at once are both inside it, both return \
                    true and both write the field, which keeps one executor; with both writes \
                    before either reads it back (held at the tar extractor's start), both \
                    schedule on the kept one and the other is dropped (O8: the race on the \
                    field)",
        cells: &["recon-sync/upstream/O8/loom", "recon-sync/proposed/O8/loom"],
        versus_baseline: "triggerSyncDataFromOMImmediately and stopSyncDataFromOMThread differ \
                          only by 2.2.0's tarExtractor.stop()/start() (HDDS-15766 replaced the \
                          tar extractor); the check of isSyncDataFromOMRunning, the shutdown and \
                          the write of the plain field are the same: no verdict depends on it",
        not_run: None,
    },
    Premise {
        id: "RS_P4",
        upstream: "ReconTaskControllerImpl.queueReInitializationEvent",
        jar: JAR,
        statement: "queueReInitializationEvent, reached from a requester on another thread \
                    (2.2.0's upgrade action), completes while syncDataFromOM is between its \
                    commit and its hand-off: its checkpoint holds the committed batch, and the \
                    batch is then buffered behind the rebuild",
        cells: &[
            "recon-sync/upstream/O1/loom",
            "recon-sync/upstream/O1/steps",
            "recon-sync/upstream/O2/loom",
            "recon-sync/upstream/O2/steps",
        ],
        versus_baseline: "same monitor and order at 2.2.0 and 78d5650c (validate retries, drain, \
                          checkpoint, offer, reset flags); 78d5650c adds a retry-timestamp reset \
                          for MANUAL_OM_DB_REBUILD, RETRY_LATER and the checkpoint deleted on a \
                          failed offer (2.2.0 returns null), and a null-checkpoint check: none is \
                          on a path a verdict takes. syncDataFromOM is identical",
        not_run: None,
    },
    Premise {
        id: "RS_O1",
        upstream: "OzoneManagerServiceProviderImpl.syncDataFromOM",
        jar: JAR,
        statement: "replay: OM writes file2; the sync commits it and is held before its hand-off; \
                    2.2.0's upgrade action (NSSummaryAggregatedTotalsUpgrade) queues a rebuild; \
                    the sync hands off; the processor rebuilds, then applies the batch again \
                    (OM 2 keys, the task 3; after one more sync 3 and 4), on every row",
        cells: &["recon-sync/upstream/O1/loom"],
        versus_baseline: "syncDataFromOM and the controller's paths are identical at 2.2.0 and \
                          78d5650c, and so is the upgrade action and ReconServer's order (start, \
                          then finalizeLayoutFeatures). The model's requester, triggerTaskRebuild, \
                          is in no release: the replay's requester is the upgrade action, which \
                          the model lacks; on the fixed rows its verdict (reached) is about that \
                          requester, not the model's",
        not_run: None,
    },
    Premise {
        id: "RS_O2",
        upstream: "OzoneManagerServiceProviderImpl.syncDataFromOM",
        jar: JAR,
        statement: "replay: OM writes file2 and file3 (two write batches, one delta); the sync \
                    commits #2 and is held before #3's commit; 2.2.0's upgrade action \
                    (NSSummaryAggregatedTotalsUpgrade) queues a rebuild from a checkpoint of \
                    file1, file2; the sync commits #3 and hands the whole delta off; the processor \
                    rebuilds, then applies it: file2 counted twice (OM 3 keys, the task 4), on \
                    every row",
        cells: &[],
        versus_baseline: "syncDataFromOM and its per-write-batch commit loop \
                          (innerGetAndApplyDeltaUpdatesFromOM), OMDBUpdatesHandler and \
                          consumeOMEvents are identical at 2.2.0 and 78d5650c, and so is the \
                          upgrade action; queueReInitializationEvent, createOMCheckpoint and the \
                          drain differ only on their failure paths (a failed checkpoint, the \
                          cleanup), which this order does not take. The model's requester, \
                          triggerTaskRebuild, is in no release: the replay's requester is the \
                          upgrade action, which the model lacks; on the fixed rows its verdict \
                          (reached) is about that requester, not the model's",
        not_run: None,
    },
    Premise {
        id: "RS_O3",
        upstream: "OzoneManagerServiceProviderImpl.syncDataFromOM",
        jar: JAR,
        statement: "replay: the sync commits file2 and fails before its hand-off (the status \
                    row's recordRunCompletion throws), the full-snapshot fallback fails; after \
                    one more sync the task counts 2 of the 3 keys (HDDS-5146), on every row",
        cells: &[],
        versus_baseline: "syncDataFromOM and executeFullSnapshot are identical; \
                          getOzoneManagerDBSnapshot differs (2.2.0 downloads a tar over HTTP, \
                          78d5650c the chunked RDBSnapshotProvider after getServiceList): the \
                          replay needs only that the fallback fails, which both can",
        not_run: None,
    },
    Premise {
        id: "RS_O7",
        upstream: "OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately",
        jar: JAR,
        statement: "replay: a manual sync (triggerSyncDataFromOMImmediately) fails between its \
                    commit and hand-off; a second manual sync replaces its executor; the new \
                    sync thread waits forever for a hand-off lock held by the terminated one \
                    (reached on A3 only)",
        cells: &[],
        versus_baseline:
            "syncDataFromOM, its catch and executeFullSnapshot are identical; \
                          triggerSyncDataFromOMImmediately differs only by 2.2.0's tarExtractor \
                          calls. The parts' sync side is the code they change here; their REST \
                          side (triggerTaskRebuild) is not in 2.2.0 and this order does not call it",
        not_run: None,
    },
];
