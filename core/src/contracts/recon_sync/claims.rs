//! The expected claims matrix of HDDS-17042, as data. Every cell is checked by a test; the loom
//! cells' `executions` are pinned (a change means the model changed: review, re-pin).

use super::service_provider::{LockFrom, LockUntil, RestSpan};
use super::{
    delete, lock, put, reproduce, Fix, ReconSync, A2, A3, A4, FAULT_BEFORE_HAND_OFF,
    HANG_AFTER_FAULT, O1, O2, O3, O4, O5, O6, O7, O8, PROPOSED, REBUILD_DURING_SYNC,
    REBUILD_DURING_TWO_BATCH_SYNC, REBUILD_WHILE_RPC_HANGS, TRIGGER_SYNC_AFTER_FAULT, TWO_TRIGGERS,
};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};

const ONE_BATCH: &Scenario<ReconSync> = &REBUILD_DURING_SYNC;
const TWO_BATCHES: &Scenario<ReconSync> = &REBUILD_DURING_TWO_BATCH_SYNC;
const FAULT: &Scenario<ReconSync> = &FAULT_BEFORE_HAND_OFF;
const RPC_HANGS: &Scenario<ReconSync> = &REBUILD_WHILE_RPC_HANGS;
const DOWNLOAD_HANGS: &Scenario<ReconSync> = &HANG_AFTER_FAULT;
const TRIGGER_SYNC: &Scenario<ReconSync> = &TRIGGER_SYNC_AFTER_FAULT;
const TWO_MANUAL_SYNCS: &Scenario<ReconSync> = &TWO_TRIGGERS;

pub const CLAIMS: Claims<ReconSync> = Claims {
    cells: &[
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(ONE_BATCH, 77),
            note: "report: a rebuild queued between the commit and consumeOMEvents checkpoints the batch, and the batch is buffered behind it" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "report: with P1 the checkpoint is taken before the commit or after the batch is buffered (then drained); loom agrees. Model: the sync thread's start and RPC run before the concurrency (they touch only OM's DB); the processor polls once and the rest of the buffer is applied in FIFO order at quiescence; NSSummary stands for every task." },
        Claim { variant: "A1", outcome: &O1, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "the rejected design closes O1 too: it is a superset of P1's critical section" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::loom(TWO_BATCHES, 187),
            note: "report: a checkpoint between the two write-batch commits of one delta holds a prefix; the whole delta is replayed" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::loom(TWO_BATCHES, 1212),
            note: "report: P1 spans every commit of the delta, so no checkpoint falls between two of them; loom agrees. Model: the sync thread's start and RPC run before the concurrency (they touch only OM's DB); the processor polls once and the rest of the buffer is applied in FIFO order at quiescence; NSSummary stands for every task." },
        Claim { variant: "A1", outcome: &O2, expected: U, method: Method::loom(TWO_BATCHES, 1212),
            note: "the rejected design closes O2 too" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::loom(FAULT, 19),
            note: "HDDS-5146: an exception after the commit drops the events; with the full-snapshot fallback failing, the batch is never applied" },
        Claim { variant: "proposed", outcome: &O3, expected: R, method: Method::loom(FAULT, 212),
            note: "report: P1 does not address HDDS-5146 (a rebuild after the failure would repair it; one before it does not). O3 is decided on the final state alone: a write batch in the Recon OM DB whose event NSSummary never applied, once the buffer is drained in FIFO order; no classification of the window enters it. This cell's scenario injects the fault, so it says nothing about a loss without one: that is O5" },
        Claim { variant: "upstream", outcome: &O5, expected: U, method: Method::loom(ONE_BATCH, 567),
            note: "upstream queues a rebuild in one body of the controller monitor, and consumeOMEvents follows the commit: a checkpoint taken before the commit is offered before the batch, so no batch is lost without a fault (it is applied twice instead, O1)" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "O3 with no fault, in its own cell: with P1 no batch is lost when no sync throws; loom agrees. O5 is O3's state predicate (a committed write batch with an event that NSSummary never applied) less the batches of a delta whose sync threw before its hand-off (a ghost that the failing step sets), so a loss outside a failed sync cannot hide behind O3's admitted fault. The mutant that holds the lock in triggerTaskRebuild only around createOMCheckpoint turns this cell reachable (4,196 executions). This is the loom cell of a loss without a fault (proposed/O3 is reachable only through its injected fault)" },
        Claim { variant: "A2", outcome: &O5, expected: R, method: Method::loom(ONE_BATCH, 1376),
            note: "the lock only around createOMCheckpoint: the REST thread drains, checkpoints before the commit, the sync commits and hands off, then the rebuild is offered behind the batch; the rebuild from the older checkpoint erases the batch and sets the cursor back, and the next delta starts after it" },
        Claim { variant: "upstream", outcome: &O4, expected: U, method: Method::loom(RPC_HANGS, 9),
            note: "upstream takes no lock: the rebuild completes while the sync thread is stuck in getDBUpdates" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::loom(RPC_HANGS, 9),
            note: "report: P1 is never held during the OM RPC, so a rebuild while OM is unreachable completes; loom agrees (REST and the processor finish, the rebuild runs). Model: the sync thread parks in getDBUpdates before the concurrency, holding what the variant holds there; a holder that never returns abandons the lock (a ghost that wakes its waiters), and a wait for it is recorded as a forever-wait instead of blocking loom." },
        Claim { variant: "A1", outcome: &O4, expected: R, method: Method::loom(RPC_HANGS, 1),
            note: "report (why A1 was rejected): a lock held across the RPC blocks triggerTaskRebuild for as long as OM is unreachable" },
        Claim { variant: "A3", outcome: &O4, expected: U, method: Method::loom(RPC_HANGS, 9),
            note: "without a finally the lock is still never held during getDBUpdates: the patch's own test of a rebuild with OM stopped passes for A3 as for P1, and cannot tell them apart" },
        Claim { variant: "A4", outcome: &O4, expected: U, method: Method::loom(RPC_HANGS, 9),
            note: "released only at the end of syncDataFromOM, the lock is still not taken before getDBUpdates: the same test passes for A4" },
        Claim { variant: "upstream", outcome: &O6, expected: U, method: Method::loom(DOWNLOAD_HANGS, 62),
            note: "upstream takes no lock: the rebuild completes while the fallback's download hangs" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: Method::loom(DOWNLOAD_HANGS, 590),
            note: "the delta fails between the commit and the hand-off (ReconTaskStatusUpdater.recordRunCompletion throws, syncDataFromOM's catch (Exception) sets fullSnapshot) and executeFullSnapshot never returns (getServiceList, RDBSnapshotProvider.downloadDBSnapshotFromLeader): with P1 released in a finally of the loop iteration, before executeFullSnapshot, the manual rebuild completes; loom agrees. The report does not show the patch's release; this verdict holds for a release in a finally (A3 and A4 are the two that do not, and both mutants of P1 turn this cell reachable). The rebuild completes only if the patch releases the lock in a finally of the loop iteration: a reviewer must find that finally in the patch, because the patch's own test with OM stopped passes without it (A3/O4, A4/O4)" },
        Claim { variant: "A4", outcome: &O6, expected: R, method: Method::loom(DOWNLOAD_HANGS, 1),
            note: "the lock released in syncDataFromOM's finally is held across executeFullSnapshot: getServiceList (an OM RPC) and the chunked snapshot download, so a manual rebuild waits for as long as they do, the wait the report rejected A1 for" },
        Claim { variant: "A3", outcome: &O6, expected: R, method: Method::loom(FAULT, 1),
            note: "the release not in a finally: the exception before the hand-off skips it, executeFullSnapshot fails fast, and syncDataFromOM returns holding the ReentrantLock; SyncOM-0 re-enters it in every later sync and releases only its own hold, so every later triggerTaskRebuild blocks forever, with no hang at all (and, after a GET /triggerdbsync/om, the sync too: A3/O7)" },
        Claim { variant: "A3", outcome: &O7, expected: R, method: Method::loom(TRIGGER_SYNC, 1),
            note: "the leaked hold, then GET /api/v1/triggerdbsync/om: triggerSyncDataFromOMImmediately finds no sync running, shuts SyncOM-0's executor down and starts SyncOM-1, whose sync takes isSyncDataFromOMRunning and then waits forever in lock() for the hold SyncOM-0 left (a ReentrantLock is released only by its owner thread, which has exited): Recon never syncs again (OM at #3, the Recon OM DB at #2), every later scheduled run and trigger answers that a sync is running, and every triggerTaskRebuild still blocks (O6). A fault and one manual sync suffice; no hang" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::loom(TRIGGER_SYNC, 53),
            note: "with P1 released in a finally of the loop iteration, SyncOM-0 holds nothing once syncDataFromOM returns, so the thread the trigger starts takes the lock and syncs #3; loom agrees. The trigger takes no lock: it reads isSyncDataFromOMRunning, then shuts the executor down and waits for it (no lock spans the two), so it either answers that a sync is running or replaces a thread that holds no hand-off lock" },
        Claim { variant: "upstream", outcome: &O7, expected: U, method: Method::loom(TRIGGER_SYNC, 53),
            note: "upstream has no hand-off lock: the replacement thread's sync cannot wait for one" },
        Claim { variant: "A1", outcome: &O7, expected: U, method: Method::loom(TRIGGER_SYNC, 53),
            note: "the lock across the RPC, released in the same finally as P1's: nothing leaks, and the new thread's sync takes it" },
        Claim { variant: "A4", outcome: &O7, expected: U, method: Method::loom(TRIGGER_SYNC, 53),
            note: "released in syncDataFromOM's finally, the lock is free whenever isSyncDataFromOMRunning is, and the trigger replaces the thread only then: A4 keeps a rebuild waiting behind a hanging fallback (A4/O6) but never a sync" },
        Claim { variant: "A1", outcome: &O3, expected: R, method: Method::loom(FAULT, 212),
            note: "the lock across the RPC changes nothing after the commit: an exception before the hand-off still drops the events, and with the fallback failing the batch is never applied (HDDS-5146, as with P1)" },
        Claim { variant: "A1", outcome: &O5, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "without a fault A1 loses no batch: its critical section holds P1's (the rebuild's drain, checkpoint and offer fall before the commit or after the hand-off), so the checkpoint and the buffer agree; twin A2" },
        Claim { variant: "A1", outcome: &O6, expected: U, method: Method::loom(DOWNLOAD_HANGS, 590),
            note: "A1 is released in the same finally of the loop iteration as P1, before executeFullSnapshot, so a rebuild does not wait behind the hanging download (its wait is behind the OM RPC, A1/O4); twin A4" },
        Claim { variant: "A2", outcome: &O1, expected: U, method: Method::loom(ONE_BATCH, 3857),
            note: "the sync side holds the lock from before the first commit to after the hand-off, and the REST side's checkpoint is taken under it: no checkpoint holds a batch that is offered after the rebuild, so no batch is applied twice; A2's harm is the loss, A2/O5; twin upstream" },
        Claim { variant: "A2", outcome: &O2, expected: U, method: Method::loom(TWO_BATCHES, 3857),
            note: "as A2/O1: no checkpoint falls between two commits of one delta, since the checkpoint is taken under the lock the sync holds across every commit; twin upstream" },
        Claim { variant: "A2", outcome: &O3, expected: R, method: Method::loom(FAULT, 206),
            note: "the injected fault between the commit and the hand-off loses the batch whatever the REST side locks (HDDS-5146)" },
        Claim { variant: "A2", outcome: &O4, expected: U, method: Method::loom(RPC_HANGS, 9),
            note: "A2 takes the lock after the OM RPC as P1 does, so a rebuild while the sync is stuck in getDBUpdates completes; twin A1" },
        Claim { variant: "A2", outcome: &O6, expected: U, method: Method::loom(DOWNLOAD_HANGS, 538),
            note: "A2's sync side releases the lock in P1's finally, before executeFullSnapshot: a rebuild does not wait behind the hanging download; twin A4" },
        Claim { variant: "A2", outcome: &O7, expected: U, method: Method::loom(TRIGGER_SYNC, 53),
            note: "A2's sync side releases the lock in P1's finally: no hold leaks to a thread that exits, so the replacement sync thread takes it; twin A3" },
        Claim { variant: "A3", outcome: &O1, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "without a fault A3's release runs on the normal path as P1's does: the same critical section, so no double application; twin upstream" },
        Claim { variant: "A3", outcome: &O2, expected: U, method: Method::loom(TWO_BATCHES, 1212),
            note: "as A3/O1 for a delta of two write batches; twin upstream" },
        Claim { variant: "A3", outcome: &O3, expected: R, method: Method::loom(FAULT, 1),
            note: "the injected fault drops the batch (HDDS-5146) before the hand-off, as with P1; in A3 it also leaks the lock (A3/O6)" },
        Claim { variant: "A3", outcome: &O5, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "no loss without a fault: with no exception A3 is P1; twin A2" },
        Claim { variant: "A4", outcome: &O1, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "without a fault A4's critical section spans P1's (it only ends later, in syncDataFromOM's finally): no double application; twin upstream" },
        Claim { variant: "A4", outcome: &O2, expected: U, method: Method::loom(TWO_BATCHES, 1212),
            note: "as A4/O1 for a delta of two write batches; twin upstream" },
        Claim { variant: "A4", outcome: &O3, expected: R, method: Method::loom(FAULT, 212),
            note: "the injected fault drops the batch before the hand-off (HDDS-5146), as with P1" },
        Claim { variant: "A4", outcome: &O5, expected: U, method: Method::loom(ONE_BATCH, 1212),
            note: "no loss without a fault: A4 holds the lock at least as long as P1; twin A2" },
        Claim { variant: "upstream", outcome: &O8, expected: R, method: Method::loom(TWO_MANUAL_SYNCS, 1),
            note: "two REST threads in triggerSyncDataFromOMImmediately, both past isSyncDataFromOMRunning: one reads scheduler in stopSyncDataFromOMThread while the other writes it (newScheduledThreadPool), with nothing ordering them; loom reports the data race" },
        Claim { variant: "proposed", outcome: &O8, expected: R, method: Method::loom(TWO_MANUAL_SYNCS, 1),
            note: "P1's lock is not taken by triggerSyncDataFromOMImmediately: the race on scheduler is as upstream (the report's patch does not touch this path)" },
        Claim { variant: "A1", outcome: &O8, expected: R, method: Method::loom(TWO_MANUAL_SYNCS, 1),
            note: "the lock in A1 is not taken by triggerSyncDataFromOMImmediately either: as upstream" },
        Claim { variant: "A2", outcome: &O8, expected: R, method: Method::loom(TWO_MANUAL_SYNCS, 1),
            note: "A2 changes only triggerTaskRebuild's span: as upstream" },
        Claim { variant: "A3", outcome: &O8, expected: R, method: Method::loom(TWO_MANUAL_SYNCS, 1),
            note: "A3 changes only the sync side's release: as upstream" },
        Claim { variant: "A4", outcome: &O8, expected: R, method: Method::loom(TWO_MANUAL_SYNCS, 1),
            note: "A4 changes only the sync side's release: as upstream" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Proptest { cases: 256 },
            note: "long histories of puts, deletes, syncs, rebuilds, polls and faults reach O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history reaches O1 with P1" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::Proptest { cases: 256 },
            note: "histories whose delta holds several write batches reach O2 upstream" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history reaches O2 with P1" },
        Claim { variant: "proposed", outcome: &O3, expected: R, method: Method::Proptest { cases: 512 },
            note: "histories with the HDDS-5146 fault reach O3 with P1 too; the test names it O3 (and only such histories reach it)" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 },
            note: "rebuilds requested while a sync is stuck in its RPC (histories with `hang`) complete with P1" },
        Claim { variant: "A1", outcome: &O4, expected: R, method: Method::Proptest { cases: 512 },
            note: "the generator does reach the liveness window: with the lock across the RPC, such a rebuild waits forever" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history loses a batch whose sync did not fail, with P1" },
        Claim { variant: "A2", outcome: &O5, expected: R, method: Method::Proptest { cases: 512 },
            note: "the generator reaches the loss without a fault when the lock covers only the checkpoint" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history leaves a rebuild waiting for a lock held outside the OM RPC, with P1 (histories with `fault snapshot-hangs` reach the fallback's hang)" },
        Claim { variant: "A3", outcome: &O6, expected: R, method: Method::Proptest { cases: 512 },
            note: "the generator reaches the leaked hold: one fault, and every later rebuild waits forever, however many syncs re-enter and release the lock" },
        Claim { variant: "A4", outcome: &O6, expected: R, method: Method::Proptest { cases: 512 },
            note: "the generator reaches a rebuild behind the hanging fallback when the lock spans executeFullSnapshot" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history leaves a sync thread waiting forever for the hand-off lock, with P1 (histories with `trigger-sync` replace the scheduler's thread, also while a sync runs or hangs)" },
        Claim { variant: "A3", outcome: &O7, expected: R, method: Method::Proptest { cases: 512 },
            note: "the generator reaches the replacement thread's forever-wait: a fault, then a manual sync once the failed one has returned" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Quickcheck { tests: 2000 },
            note: "quickcheck over random byte strings (the fuzz codec) finds O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::Quickcheck { tests: 4000 },
            note: "quickcheck finds no O1 with P1" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::FuzzReplay,
            note: "the committed corpus and regressions reach O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::FuzzReplay,
            note: "no corpus input reaches O1 with P1" },
    ],
    reproductions: &[
        Reproduction {
            what: "upstream: rebuild queued while the sync is paused in updateOMMetadataManager (rebuildQueuedInWindow)",
            expected: "true",
            observe: || reproduce(Fix::UPSTREAM, &[put(1)], put(2)).queued_in_window.to_string(),
        },
        Reproduction {
            what: "upstream: after the rebuild",
            expected: "OM files=2 NSSummary files=3",
            observe: || reproduce(Fix::UPSTREAM, &[put(1)], put(2)).after_rebuild,
        },
        Reproduction {
            what: "upstream: after one more ordinary sync",
            expected: "OM files=3 NSSummary files=4",
            observe: || reproduce(Fix::UPSTREAM, &[put(1)], put(2)).after_next_sync,
        },
        Reproduction {
            what: "proposed: rebuild queued while the sync is paused in updateOMMetadataManager (rebuildQueuedInWindow)",
            expected: "false",
            observe: || reproduce(ReconSync::fix(PROPOSED), &[put(1)], put(2)).queued_in_window.to_string(),
        },
        Reproduction {
            what: "proposed: after the rebuild",
            expected: "OM files=2 NSSummary files=2",
            observe: || reproduce(ReconSync::fix(PROPOSED), &[put(1)], put(2)).after_rebuild,
        },
        Reproduction {
            what: "proposed: after one more ordinary sync",
            expected: "OM files=3 NSSummary files=3",
            observe: || reproduce(ReconSync::fix(PROPOSED), &[put(1)], put(2)).after_next_sync,
        },
        Reproduction {
            what: "upstream: a replayed delete (OM deletes file2 of 2)",
            expected: "OM files=1 NSSummary files=0",
            observe: || reproduce(Fix::UPSTREAM, &[put(1), put(2)], delete(2)).after_rebuild,
        },
        Reproduction {
            what: "proposed: the same delete",
            expected: "OM files=1 NSSummary files=1",
            observe: || reproduce(ReconSync::fix(PROPOSED), &[put(1), put(2)], delete(2)).after_rebuild,
        },
    ],
    mutants: &[Mutant {
        name: "P1 released after the commit, before the hand-off",
        variant: "proposed",
        mutate: |_| lock(LockFrom::RpcReturned, LockUntil::LastCommit, RestSpan::Queueing),
        caught_by: &O1,
        inside_a_step: false,
        about: "the lock must span commit to hand-off: released after the commit, a rebuild still \
                checkpoints the batch before it is buffered",
    }, Mutant {
        name: "the REST thread locks only around the checkpoint",
        variant: "proposed",
        mutate: A2.on,
        caught_by: &O5,
        inside_a_step: false,
        about: "triggerTaskRebuild must hold the lock around the whole queueReInitializationEvent: \
                with only the checkpoint under it, a rebuild checkpointed before the commit is \
                offered after the hand-off, and erases the batch with no fault injected",
    }, Mutant {
        name: "P1 released after the hand-off but not in a finally",
        variant: "proposed",
        mutate: A3.on,
        caught_by: &O6,
        inside_a_step: false,
        about: "an exception between the commit and the hand-off must release the lock before the \
                full-snapshot fallback: without a finally it is held through executeFullSnapshot \
                and after syncDataFromOM returns",
    }, Mutant {
        name: "P1 released at the end of syncDataFromOM",
        variant: "proposed",
        mutate: A4.on,
        caught_by: &O6,
        inside_a_step: false,
        about: "released in syncDataFromOM's finally, the lock spans executeFullSnapshot's \
                download from OM, and a manual rebuild waits for it",
    }],
};

#[cfg(all(test, not(loom)))]
mod tests {
    use super::CLAIMS;

    #[test]
    fn the_reproductions_match_the_report() {
        for r in CLAIMS.reproductions {
            assert_eq!((r.observe)(), r.expected, "{}", r.what);
        }
    }
}
