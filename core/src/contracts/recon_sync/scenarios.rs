//! The loom scenarios: each starts where its window opens (the prefix it runs first touches
//! nothing another actor reads; the argument is in each scenario's doc) and hands loom the
//! threads that race there.

use super::service_provider::{RestThread, SyncFaults, SyncThread};
use super::task_controller::EventProcessor;
use super::trigger_sync::{trigger_then_first_run, TriggerSyncThread};
use super::{put, Fix, KeyOp, ReconSync, World};
use crate::model::{step_until, Program, Scenario, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

/// OM has `/vol1/bucket1/file1`, Recon is in sync; OM writes `writes` (one write batch each);
/// the sync thread starts and runs up to its first step that takes the hand-off lock or
/// commits (upstream and P1: its RPC has returned all of them in one delta; A1: before the RPC,
/// which then runs concurrently under the lock); from there it applies the delta while the REST
/// thread requests a rebuild and the event processor polls once. Running the start and the RPC
/// before the concurrency removes no behaviour: they touch only OM's DB, which no actor here
/// writes, and the sync thread's own state. A sync thread whose RPC hangs parks in it there.
fn rebuild_during_sync(
    trace: &Trace,
    fix: Fix,
    writes: &[KeyOp],
    faults: SyncFaults,
) -> Setup<ReconSync> {
    let (world, sync) = sync_until_concurrency(trace, fix, writes, faults);
    let rest = RestThread::new(trace, &world);
    // One poll covers every behaviour: the only event that can be in the buffer before the
    // REST thread's drain is the sync thread's batch; later polls only apply what is left in
    // FIFO order, which `quiescent` does.
    let processor = EventProcessor::new(trace, 1);
    let threads: Vec<Box<dyn Program<World>>> = if sync.is_done() {
        vec![Box::new(rest), Box::new(processor)]
    } else {
        vec![Box::new(sync), Box::new(rest), Box::new(processor)]
    };
    Setup { world, threads }
}

/// The world and `SyncOM-0`'s run of [`rebuild_during_sync`], before the concurrency.
fn sync_until_concurrency(
    trace: &Trace,
    fix: Fix,
    writes: &[KeyOp],
    faults: SyncFaults,
) -> (Arc<World>, SyncThread) {
    let world = Arc::new(World::in_sync(fix, &[put(1)]));
    let om = trace.actor("OM");
    for op in writes {
        world.om.write(&om, *op);
    }
    let mut sync = SyncThread::new(trace, faults);
    step_until(
        &mut sync,
        &*world,
        "SyncOM-0's end, or its lock or commit",
        |sync, _| sync.is_done() || (!faults.rpc_hangs && sync.before_lock_or_commit()),
    );
    (world, sync)
}

/// The report's trigger: a delta of one write batch (put file2).
pub static REBUILD_DURING_SYNC: Scenario<ReconSync> = Scenario {
    name: "rebuild-during-one-batch-delta",
    about: "OM has file1, Recon in sync; OM writes file2; SyncOM applies the delta while REST \
            requests a rebuild; the processor polls once",
    build: |trace, fix| rebuild_during_sync(trace, fix, &[put(2)], SyncFaults::default()),
};

/// A delta of two write batches (put file2, put file3).
pub static REBUILD_DURING_TWO_BATCH_SYNC: Scenario<ReconSync> = Scenario {
    name: "rebuild-during-two-batch-delta",
    about: "OM has file1, Recon in sync; OM writes file2 and file3 (one delta, two write \
            batches); SyncOM applies it while REST requests a rebuild; the processor polls once",
    build: |trace, fix| rebuild_during_sync(trace, fix, &[put(2), put(3)], SyncFaults::default()),
};

/// The sync fails between the commit and the hand-off, and its full-snapshot fallback cannot
/// reach OM, while REST requests a rebuild.
pub static FAULT_BEFORE_HAND_OFF: Scenario<ReconSync> = Scenario {
    name: "fault-between-commit-and-hand-off",
    about: "OM has file1, Recon in sync; OM writes file2; SyncOM commits it, then throws before \
            the hand-off and its full-snapshot download fails; REST requests a rebuild; the \
            processor polls once",
    build: |trace, fix| {
        let faults = SyncFaults {
            throw_before_hand_off: true,
            snapshot_download_fails: true,
            ..SyncFaults::default()
        };
        rebuild_during_sync(trace, fix, &[put(2)], faults)
    },
};

/// The sync fails between the commit and the hand-off, and its full-snapshot fallback never
/// returns (OM became unreachable, or a large OM DB downloads for hours), while REST requests a
/// rebuild: the bootstrapping case the endpoint exists for, reached through the fallback.
pub static HANG_AFTER_FAULT: Scenario<ReconSync> = Scenario {
    name: "fault-then-snapshot-download-hangs",
    about: "OM has file1, Recon in sync; OM writes file2; SyncOM commits it, then throws before \
            the hand-off and its full-snapshot download never returns; REST requests a rebuild; \
            the processor polls once",
    build: |trace, fix| {
        let faults = SyncFaults {
            throw_before_hand_off: true,
            snapshot_download_hangs: true,
            ..SyncFaults::default()
        };
        rebuild_during_sync(trace, fix, &[put(2)], faults)
    },
};

/// OM is unreachable: the sync thread is inside `getDBUpdates` and never returns (it entered it
/// before the concurrency starts, holding what the variant holds there); REST requests a
/// rebuild; the processor polls once.
pub static REBUILD_WHILE_RPC_HANGS: Scenario<ReconSync> = Scenario {
    name: "rebuild-while-om-rpc-hangs",
    about: "OM has file1 and file2, Recon has file1; SyncOM is stuck forever in getDBUpdates; \
            REST requests a rebuild; the processor polls once",
    build: |trace, fix| {
        let faults = SyncFaults {
            rpc_hangs: true,
            ..SyncFaults::default()
        };
        rebuild_during_sync(trace, fix, &[put(2)], faults)
    },
};

/// The sync fails between the commit and the hand-off, its full-snapshot download fails, and
/// OM writes on; `GET /api/v1/triggerdbsync/om` asks for a sync now, which replaces the
/// scheduler's thread when no sync is running, and the new thread syncs at once.
pub static TRIGGER_SYNC_AFTER_FAULT: Scenario<ReconSync> = Scenario {
    name: "fault-then-trigger-sync",
    about: "OM has file1, Recon in sync; OM writes file2; SyncOM-0 commits it, then throws before \
            the hand-off and its full-snapshot download fails; OM writes file3; SyncOM-0 returns \
            from syncDataFromOM while REST-sync calls triggerSyncDataFromOMImmediately, and \
            SyncOM-1, if it creates it, syncs at once",
    build: |trace, fix| trigger_sync_after_fault(trace, fix, true),
};

/// [`TRIGGER_SYNC_AFTER_FAULT`]; without `shortcuts`, SyncOM-0 runs concurrently from its RPC on
/// (as in [`FAULT_BEFORE_HAND_OFF`]) and SyncOM-1's first run on a thread of its own: the
/// shortcuts remove no final state (a test checks it), and loom explores 53 executions instead
/// of 37,156.
fn trigger_sync_after_fault(trace: &Trace, fix: Fix, shortcuts: bool) -> Setup<ReconSync> {
    let faults = SyncFaults {
        throw_before_hand_off: true,
        snapshot_download_fails: true,
        ..SyncFaults::default()
    };
    let (world, mut sync) = sync_until_concurrency(trace, fix, &[put(2)], faults);
    // A1 takes the lock before its RPC: SyncOM-0 runs its RPC before the concurrency in every
    // variant (no other actor takes the lock before SyncOM-0 has returned).
    step_until(&mut sync, &*world, "SyncOM-0's fetch", |sync, _| {
        sync.fetched()
    });
    // SyncOM-0 runs up to its return before the concurrency. That removes no behaviour: the
    // trigger reads isSyncDataFromOMRunning, which from here only that return writes, and
    // touches nothing else SyncOM-0 does; SyncOM-1 runs only once the trigger found it false.
    if shortcuts {
        step_until(&mut sync, &*world, "SyncOM-0's return", |sync, _| {
            sync.returning()
        });
    }
    // From here only SyncOM-1's RPC reads OM's DB, so a write before the concurrency is the
    // one order that matters (it is there for that RPC to fetch).
    world.om.write(&trace.actor("OM"), put(3));
    // No rebuild and no processor: neither plays a part in whether a sync takes the lock.
    let threads: Vec<Box<dyn Program<World>>> = if shortcuts {
        vec![Box::new(sync), Box::new(trigger_then_first_run(trace, 1))]
    } else {
        let (trigger, first_run) = TriggerSyncThread::with_first_run(trace, 1);
        vec![Box::new(sync), Box::new(trigger), Box::new(first_run)]
    };
    Setup { world, threads }
}

/// O8: two REST threads call `triggerSyncDataFromOMImmediately` while no sync runs (SyncOM-0
/// is between its runs). Only the race on the `scheduler` field is decided here (the runs the
/// new executors would start are left out: they do not touch the field).
pub static TWO_TRIGGERS: Scenario<ReconSync> = Scenario {
    name: "two-manual-syncs-at-once",
    about: "OM has file1, Recon in sync, SyncOM-0 between runs; two REST threads call \
            triggerSyncDataFromOMImmediately at once",
    build: |trace, fix| {
        let world = Arc::new(World::in_sync(fix, &[put(1)]));
        let (first, _) = TriggerSyncThread::with_first_run(trace, 1);
        let (second, _) = TriggerSyncThread::with_first_run(trace, 2);
        Setup {
            world,
            threads: vec![Box::new(first), Box::new(second)],
        }
    },
};

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::O7;
    use super::*;
    use crate::model::Model;
    use crate::steps::{enumerate, every_choice};

    /// A setup that cannot go on names the step it waits at (issue 37, item 5): with P1, the
    /// REST thread cannot take the hand-off lock the sync holds, nor the sync the lock REST
    /// holds, and each error says which step waits in the thread's own words.
    #[test]
    fn a_stuck_thread_names_its_next_step() {
        use crate::model::try_step_until;
        let fix = ReconSync::fix(super::super::PROPOSED);

        let trace = Trace::new();
        let (world, mut sync) =
            sync_until_concurrency(&trace, fix, &[put(2)], SyncFaults::default());
        crate::model::step_once(&mut sync, &*world, "SyncOM-0 takes the hand-off lock");
        let mut rest = RestThread::new(&trace, &world);
        let e = try_step_until(&mut rest, &*world, "REST's end", |p, _| p.is_done())
            .expect_err("SyncOM-0 holds the lock");
        assert_eq!(
            e,
            "setup: never reached REST's end: REST: Lock is not enabled"
        );

        let trace = Trace::new();
        let world = World::in_sync(fix, &[put(1)]);
        let mut rest = RestThread::new(&trace, &world);
        crate::model::step_once(&mut rest, &world, "REST takes the hand-off lock");
        let mut sync = SyncThread::new(&trace, SyncFaults::default());
        let e = try_step_until(&mut sync, &world, "SyncOM-0's end", |p, _| p.is_done())
            .expect_err("REST holds the lock");
        assert_eq!(
            e,
            "setup: never reached SyncOM-0's end: SyncOM-0: LockAfterRpc is not enabled"
        );
    }

    /// The REST thread's accepted rebuild is counted (what O4's "accepted, and none ran" reads),
    /// and `World::unless_absent` decides again once a write changes the state it found
    /// nothing in: REST's acceptance is such a write.
    #[test]
    fn an_accepted_rebuild_is_counted_and_seen_by_the_memo() {
        let trace = Trace::new();
        let world = World::in_sync(ReconSync::fix(&[]), &[put(1)]);
        let accepted = |w: &World| {
            w.unless_absent(0, |w| {
                (w.provider.rebuilds_accepted() > 0).then(String::new)
            })
        };
        assert_eq!(accepted(&world), None);
        let mut rest = RestThread::new(&trace, &world);
        crate::model::run_alone(&mut rest, &world);
        assert_eq!(world.provider.rebuilds_accepted(), 1);
        assert_eq!(
            accepted(&world),
            Some(String::new()),
            "the memo kept a stale answer"
        );
    }

    /// `World::unless_absent` decides again after a write of the provider's ghosts alone: a
    /// sync that throws before its hand-off writes nothing else in its failing step, and the
    /// memo must not keep the "no delta failed" it found just before.
    #[test]
    fn the_memo_sees_a_failed_delta() {
        let trace = Trace::new();
        let world = World::in_sync(ReconSync::fix(&[]), &[put(1)]);
        world.om.write(&trace.actor("OM"), put(2));
        let faults = SyncFaults {
            throw_before_hand_off: true,
            snapshot_download_fails: true,
            ..SyncFaults::default()
        };
        let mut sync = SyncThread::new(&trace, faults);
        let failed = |w: &World| {
            w.unless_absent(0, |w| {
                (0..8).any(|d| w.provider.delta_failed(d)).then(String::new)
            })
        };
        while failed(&world).is_none() {
            assert!(
                !sync.is_done(),
                "the sync ended and the memo saw no failed delta"
            );
            sync.step(&world);
        }
    }

    /// The hand-off lock's lines in the timeline: a first hold is "acquired", and its release
    /// "released" (a re-entry and a partial release say their hold counts).
    #[test]
    fn the_hand_off_lock_says_acquired_and_released() {
        let trace = Trace::new();
        let world = World::in_sync(ReconSync::fix(super::super::PROPOSED), &[put(1)]);
        let mut sync = SyncThread::new(&trace, SyncFaults::default());
        crate::model::run_alone(&mut sync, &world);
        let timeline: Vec<String> = trace.events().into_iter().map(|e| e.detail).collect();
        let timeline = timeline.join("\n");
        for line in ["hand-off lock acquired", "hand-off lock released"] {
            assert!(timeline.contains(line), "no {line:?} in\n{timeline}");
        }
        assert!(!timeline.contains("re-entered"), "{timeline}");
        assert!(!timeline.contains("still held"), "{timeline}");
    }

    /// The shortcuts of [`TRIGGER_SYNC_AFTER_FAULT`] lose no final state: every order of whole
    /// steps reaches the same final states with them as without, in every variant that does
    /// not reach O7 (which stops the enumeration at its first schedule), and the same verdict.
    #[test]
    fn the_trigger_scenarios_shortcuts_lose_no_final_state() {
        static WITHOUT: Scenario<ReconSync> = Scenario {
            name: "fault-then-trigger-sync-without-shortcuts",
            about: "",
            build: |trace, fix| trigger_sync_after_fault(trace, fix, false),
        };
        for v in ReconSync::VARIANTS {
            let fix = ReconSync::fix_of_variant(v);
            let with = enumerate(&TRIGGER_SYNC_AFTER_FAULT, fix, &O7, every_choice);
            let without = enumerate(&WITHOUT, fix, &O7, every_choice);
            assert_eq!(with.observed, without.observed, "{}", v.name);
            assert_eq!((with.stuck, without.stuck), (0, 0), "{}", v.name);
            if with.counterexample.is_none() {
                assert_eq!(with.final_states, without.final_states, "{}", v.name);
                assert!(with.schedules < without.schedules, "{}", v.name);
            }
        }
    }
}
