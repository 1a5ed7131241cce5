//! Long histories of HDDS-17042 (recon-sync): proptest state machine, quickcheck, and the
//! stable replay of the fuzz corpus, all through `histories::run`.
#![cfg(not(loom))]

use racelab_core::recon_sync::{claims::CLAIMS, ReconSync};
use racelab_props::history_tests;

history_tests!(ReconSync, CLAIMS, fix_property: 4096, {
    proptest_upstream_o1 => ("upstream", "O1", Proptest, 256),
    proptest_proposed_o1 => ("proposed", "O1", Proptest, 4096),
    proptest_upstream_o2 => ("upstream", "O2", Proptest, 256),
    proptest_proposed_o2 => ("proposed", "O2", Proptest, 4096),
    proptest_proposed_o3 => ("proposed", "O3", Proptest, 512),
    proptest_proposed_o4 => ("proposed", "O4", Proptest, 4096),
    proptest_a1_o4 => ("A1", "O4", Proptest, 512),
    quickcheck_upstream_o1 => ("upstream", "O1", Quickcheck, 2000),
    quickcheck_proposed_o1 => ("proposed", "O1", Quickcheck, 4000),
    replay_upstream_o1 => ("upstream", "O1", FuzzReplay, 0),
    replay_proposed_o1 => ("proposed", "O1", FuzzReplay, 0),
});

mod regressions {
    use racelab_core::recon_sync::{Fix, ReconSync};
    use racelab_props::histories::{assert_committed, reaches, run};
    use racelab_props::recon_sync::{
        check_proposed, settled_violation,
        Op::{Fault, Poll, Put, Rebuild, Step, Sync},
    };

    /// Postmortem (quickcheck, upstream O1, shrunk to 7 operations): OM overwrites file1
    /// (110 B); the sync commits it to the Recon OM DB as an UPDATE; before `consumeOMEvents`
    /// the REST thread's `queueReInitializationEvent` drains an empty buffer and checkpoints the
    /// Recon OM DB at #2, which holds the write; the sync then buffers the batch behind the
    /// rebuild. The rebuild gives NSSummary 110 B, and the replayed UPDATE (old value 100 B,
    /// computed before the commit; new 110 B) adds 10 B more: 120 B against OM's 110 B, with
    /// the cursor at #2 like OM. P1 makes the rebuild wait for the hand-off, so its drain
    /// removes the batch that its checkpoint holds.
    #[test]
    fn rebuild_between_commit_and_hand_off_applies_the_delta_twice() {
        let ops = [Sync, Put(1), Step(0), Rebuild, Step(0), Step(4), Step(15)];
        assert_committed("recon_sync", "rebuild-between-commit-and-hand-off", &ops);
        let v = reaches::<ReconSync>(Fix::UPSTREAM, &ops, "O1").expect("upstream reaches O1");
        assert!(
            v.witness.contains("applied as [#2×2]") && v.witness.contains("size=120"),
            "{}",
            v.witness
        );
        assert!(run::<ReconSync>(Fix::PROPOSED, &ops).is_empty());
        // Later syncs do not repair it (the cursor is at OM's sequence number); with P1 one more
        // sync leaves Recon consistent with OM.
        let after = settled_violation(Fix::UPSTREAM, &ops).expect("still wrong after a sync");
        assert!(after.contains("NSSummary differs"), "{after}");
        assert_eq!(settled_violation(Fix::PROPOSED, &ops), None);
    }

    /// Postmortem (proptest, upstream O2, 20 operations): a first sync applies #2; OM writes #3
    /// and #4, which the second sync fetches as one delta of two write batches. The rebuild's
    /// checkpoint falls between their commits (at #3), so the rebuild holds #3 and the replayed
    /// delta applies #3 a second time and #4 once: NSSummary 140 B against OM's 130 B. P1 holds
    /// the lock from the first commit to the hand-off, so no checkpoint falls between two.
    #[test]
    fn rebuild_between_two_commits_applies_the_prefix_twice() {
        let ops = [
            Put(1),
            Sync,
            Step(0),
            Step(0),
            Put(1),
            Step(0),
            Step(0),
            Step(0),
            Poll,
            Sync,
            Put(1),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Rebuild,
            Step(5),
        ];
        assert_committed("recon_sync", "rebuild-between-two-commits", &ops);
        let v = reaches::<ReconSync>(Fix::UPSTREAM, &ops, "O2").expect("upstream reaches O2");
        assert!(
            v.witness.contains("applied as [#3×2 #4×1]"),
            "{}",
            v.witness
        );
        assert!(run::<ReconSync>(Fix::PROPOSED, &ops).is_empty());
    }

    /// Postmortem (proptest, proposed O3, 3 operations): HDDS-5146, which the patch does not
    /// address. The sync commits OM's #2 to the Recon OM DB, then throws before the hand-off;
    /// its events go with the handler, the full-snapshot fallback cannot download from OM, and
    /// the next delta starts after #2: NSSummary keeps 100 B against OM's 110 B. The property
    /// of the proposed fix names it O3 and allows it only in such a history.
    #[test]
    fn a_fault_between_commit_and_hand_off_loses_the_batch_with_the_patch_too() {
        let ops = [Fault { snapshot: false }, Put(1), Sync];
        assert_committed("recon_sync", "fault-before-hand-off", &ops);
        for fix in [Fix::UPSTREAM, Fix::PROPOSED] {
            let v = reaches::<ReconSync>(fix, &ops, "O3").expect("reaches O3");
            assert!(v.witness.contains("write batch #2"), "{}", v.witness);
        }
        assert!(check_proposed(&ops).is_ok());
    }
}
