//! Long histories of HDDS-17575 (leader-ready): proptest state machine, quickcheck, and the
//! stable replay of the fuzz corpus, all through `LeaderReady::run`.
#![cfg(not(loom))]

use racelab_core::leader_ready::{claims::CLAIMS, LeaderReady};
use racelab_props::history_tests;

history_tests!(LeaderReady, CLAIMS, fix_property: 4096, {
    proptest_upstream_o1 => ("upstream", "O1", Proptest, 256),
    proptest_proposed_o1 => ("proposed", "O1", Proptest, 4096),
    proptest_upstream_o2 => ("upstream", "O2", Proptest, 256),
    proptest_proposed_o2 => ("proposed", "O2", Proptest, 4096),
    proptest_proposed_r1 => ("proposed", "R1", Proptest, 512),
    proptest_improved_r1 => ("improved", "R1", Proptest, 4096),
    quickcheck_upstream_o1 => ("upstream", "O1", Quickcheck, 2000),
    quickcheck_proposed_o1 => ("proposed", "O1", Quickcheck, 2000),
    replay_upstream_o1 => ("upstream", "O1", FuzzReplay, 0),
    replay_proposed_o1 => ("proposed", "O1", FuzzReplay, 0),
});

mod regressions {
    use racelab_core::leader_ready::{Fix, LeaderReady};
    use racelab_props::histories::{assert_committed, reaches, run};
    use racelab_props::leader_ready::Op::{ApplyStartupEntry as Apply, Elect, Step, StepDown};

    /// Postmortem (proptest, upstream O1, shrunk to 5 operations): the apply thread passes
    /// `checkReady` for term 4; the step-down's `updateLeaderAndTerm(false, 0)` clears a flag
    /// that is not set yet; then `setLeaderReady` sets it unconditionally and
    /// `notifyStatusChanged` turns both services RUNNING on a follower, and the Ratis thread's
    /// own notification, running last, reads the stale flag too. P1 refuses the set.
    #[test]
    fn step_down_before_set_leaves_a_follower_ready() {
        let ops = [Apply, Step(0), StepDown, Step(43), Step(11)];
        assert_committed("leader_ready", "step-down-before-set", &ops);
        let v = reaches::<LeaderReady>(Fix::UPSTREAM, &ops, "O1").expect("upstream reaches O1");
        assert!(
            v.witness.contains("follower is leader-ready"),
            "{}",
            v.witness
        );
        assert!(run::<LeaderReady>(Fix::PROPOSED, &ops).is_empty());
    }

    /// Postmortem (proptest, upstream O2, 6 operations): as above the follower keeps the flag;
    /// the re-election's `updateLeaderAndTerm(true, 5)` does not touch it, so the SCM leads term
    /// 5 ready before term 5's startup entry is applied. P1 refuses the set in the first place.
    #[test]
    fn stale_flag_survives_the_re_election() {
        let ops = [Apply, Step(0), StepDown, Elect, Step(19), Step(43)];
        assert_committed("leader_ready", "stale-flag-survives-re-election", &ops);
        let v = reaches::<LeaderReady>(Fix::UPSTREAM, &ops, "O2").expect("upstream reaches O2");
        assert!(
            v.witness.contains("term=5 isLeaderReady=true"),
            "{}",
            v.witness
        );
        assert!(run::<LeaderReady>(Fix::PROPOSED, &ops).is_empty());
    }

    /// Postmortem (proptest, proposed R1, 16 operations): the residual window the report admits.
    /// Ratis checks the term-5 startup entry, then steps down and wins term 6 before
    /// `notifyLeaderReady` reads the current term; the callback reads 6, `setLeaderReady(6)`
    /// passes, and term 6 is ready before its own startup entry. Taking the checked entry's term
    /// (improved) refuses it.
    #[test]
    fn re_election_before_the_term_read_passes_the_patch() {
        let ops = [
            StepDown,
            Step(0),
            Elect,
            Apply,
            Step(0),
            Step(0),
            Step(0),
            StepDown,
            Step(0),
            Step(8),
            Elect,
            Step(1),
            Step(13),
            Step(43),
            Step(1),
            Step(13),
        ];
        assert_committed(
            "leader_ready",
            "residual-re-election-before-term-read",
            &ops,
        );
        let v = reaches::<LeaderReady>(Fix::PROPOSED, &ops, "R1").expect("proposed reaches R1");
        assert!(
            v.witness
                .contains("term=6 isLeaderReady=true, set by the notifyLeaderReady of the term-5"),
            "{}",
            v.witness
        );
        assert!(run::<LeaderReady>(Fix::IMPROVED, &ops).is_empty());
    }
}
