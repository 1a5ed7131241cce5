//! Long histories of HDDS-17067 (dead-node): proptest state machine, quickcheck, and the stable
//! replay of the fuzz corpus, all through `histories::run`.
#![cfg(not(loom))]

use racelab_core::dead_node::{claims::CLAIMS, DeadNode};
use racelab_props::history_tests;

history_tests!(DeadNode, CLAIMS, fix_property: 2048, {
    proptest_upstream_o1 => ("upstream", "O1", Proptest, 512),
    proptest_upstream_o2 => ("upstream", "O2", Proptest, 512),
    proptest_upstream_o3 => ("upstream", "O3", Proptest, 512),
    proptest_proposed_o1 => ("proposed", "O1", Proptest, 1024),
    proptest_proposed_o2 => ("proposed", "O2", Proptest, 1024),
    proptest_proposed_o3 => ("proposed", "O3", Proptest, 1024),
    proptest_proposed_o4 => ("proposed", "O4", Proptest, 1024),
    proptest_proposed_r1 => ("proposed", "R1", Proptest, 2048),
    proptest_proposed_r2 => ("proposed", "R2", Proptest, 2048),
    proptest_proposed_r3 => ("proposed", "R3", Proptest, 4096),
    proptest_improved_r1 => ("improved", "R1", Proptest, 1024),
    proptest_improved_o1 => ("improved", "O1", Proptest, 1024),
    proptest_p1_p2_o4 => ("P1+P2", "O4", Proptest, 512),
    quickcheck_upstream_o1 => ("upstream", "O1", Quickcheck, 4000),
    quickcheck_proposed_o1 => ("proposed", "O1", Quickcheck, 4000),
    replay_upstream_o1 => ("upstream", "O1", FuzzReplay, 0),
    replay_proposed_o1 => ("proposed", "O1", FuzzReplay, 0),
});

mod regressions {
    use racelab_core::dead_node::{DeadNode, Fix};
    use racelab_props::dead_node::Op::{
        self, HandleDeadNodes as Dnh, HandleReports as Reports, Register, RegisterAtNewAddress,
        Reload, Step, Stop, Tick,
    };
    use racelab_props::histories::{assert_committed, reaches, run};

    fn outcomes(fix: Fix, ops: &[Op]) -> Vec<&'static str> {
        run::<DeadNode>(fix, ops)
            .iter()
            .map(|v| v.outcome)
            .collect()
    }

    /// Seven ticks without a heartbeat: every datanode goes DEAD at t=7.
    fn outage() -> Vec<Op> {
        vec![Tick; 7]
    }

    /// Postmortem (quickcheck, upstream O1, shrunk to 11 operations): dn1 registers at t=2 (its
    /// registration refreshes nothing) and the DEAD_NODE handler removes its replicas at t=7; the
    /// registration's report, queued on its report thread, is applied only after dn1 stopped
    /// again. dn1 stays DEAD with replicas for good: no check resurrects it and DEAD_NODE never
    /// fires again; container 1 counts the replica on a dead node. With P1 the registration's
    /// heartbeat time puts dn1's DEAD at t=9, after its report.
    #[test]
    fn registers_while_dead_and_stops() {
        let ops = [
            Tick,
            Tick,
            Register(1),
            Dnh,
            Tick,
            Tick,
            Stop(1),
            Tick,
            Tick,
            Tick,
            Reports(1),
        ];
        assert_committed("dead_node", "registers-while-dead-and-stops", &ops);
        let v = reaches::<DeadNode>(Fix::UPSTREAM, &ops, "O1").expect("upstream reaches O1");
        assert!(
            v.witness.contains("dn1 DEAD since t=7, stopped"),
            "{}",
            v.witness
        );
        assert!(outcomes(Fix::PROPOSED, &ops).is_empty());
    }

    /// Postmortem (proptest, upstream O2, 10 operations): dn1 registers at t=4, while STALE; the
    /// check at t=7 still uses its heartbeat time 0 and declares it DEAD, although it registered
    /// three ticks before, and the handler removes its replicas. P1 keeps dn1 alive until t=11.
    #[test]
    fn declared_dead_after_registering() {
        let ops = [
            Register(1),
            Tick,
            Tick,
            Tick,
            Dnh,
            Tick,
            Step(0),
            Tick,
            Tick,
            Tick,
        ];
        assert_committed("dead_node", "declared-dead-after-registering", &ops);
        let v = reaches::<DeadNode>(Fix::UPSTREAM, &ops, "O2").expect("upstream reaches O2");
        assert!(
            v.witness.contains("registered within the dead interval"),
            "{}",
            v.witness
        );
        assert!(outcomes(Fix::PROPOSED, &ops).is_empty());
    }

    /// Postmortem (proptest, upstream O3, 10 operations): all three datanodes go DEAD at t=7 and
    /// their DEAD_NODE events wait for the handler thread; dn3 registers again and its report is
    /// applied first; the handler then reads DEAD (no check has run) and removes the replicas the
    /// report just re-added: container 1 is MISSING. The patch's recheck under the monitor still
    /// sees DEAD, but P1 has refreshed the heartbeat time: that removal is the residual R1.
    #[test]
    fn handler_after_the_registration_report() {
        let mut ops = vec![Tick; 6];
        ops.extend([Register(3), Reports(3), Dnh, Tick]);
        assert_committed("dead_node", "handler-after-the-registration-report", &ops);
        let v = reaches::<DeadNode>(Fix::UPSTREAM, &ops, "O3").expect("upstream reaches O3");
        assert!(
            v.witness.contains("replica on dn3 removed"),
            "{}",
            v.witness
        );
        assert_eq!(outcomes(Fix::PROPOSED, &ops), ["R1"]);
        assert!(outcomes(Fix::IMPROVED, &ops).is_empty());
    }

    /// Postmortem (proptest, proposed R1, 10 operations): the residual window the report admits.
    /// dn1 registers at t=7 (P1 refreshes its heartbeat time) and its report is applied; the
    /// handler's recheck under the monitor comes before the next health check, still sees DEAD
    /// and removes the report's replicas. The improved fix (P4) sees the heartbeat time within
    /// the stale deadline and keeps them; the check at t=8 resurrects dn1.
    #[test]
    fn residual_recheck_before_the_next_check() {
        let mut ops = outage();
        ops.extend([Register(1), Reports(1), Dnh]);
        assert_committed("dead_node", "residual-recheck-before-the-next-check", &ops);
        let v = reaches::<DeadNode>(Fix::PROPOSED, &ops, "R1").expect("proposed reaches R1");
        assert!(
            v.witness.contains("no health check had run since"),
            "{}",
            v.witness
        );
        assert_eq!(outcomes(Fix::PROPOSED, &ops), ["R1"]);
        assert!(outcomes(Fix::IMPROVED, &ops).is_empty());
    }

    /// Postmortem (proptest, proposed R2, 12 operations): the other window the report admits.
    /// dn1 registers at t=0 and its report waits in its report thread's queue while dn1 stops
    /// and goes DEAD at t=7 (its registration's heartbeat time is 0 too) and the handler removes
    /// its replicas; the late report then re-adds them to a DEAD node for good. Not closed by the
    /// improved fix, which acts in the handler.
    #[test]
    fn residual_report_queued_past_the_dead_interval() {
        let ops = [
            Register(1),
            Step(5),
            Dnh,
            Tick,
            Tick,
            Tick,
            Tick,
            Stop(1),
            Tick,
            Tick,
            Tick,
            Reports(1),
        ];
        assert_committed(
            "dead_node",
            "residual-report-queued-past-dead-interval",
            &ops,
        );
        let v = reaches::<DeadNode>(Fix::PROPOSED, &ops, "R2").expect("proposed reaches R2");
        assert!(v.witness.contains("applied after"), "{}", v.witness);
        assert_eq!(outcomes(Fix::IMPROVED, &ops), ["R2"]);
    }

    /// Found in the code (R3, the shortest schedule, 19 operations; proptest finds longer ones):
    /// the handler rechecks dn1 under DatanodeInfo #1's monitor (DEAD); dn1 registers at a new
    /// address, `updateNode` replaces the object (#4, HEALTHY, empty container set); the report
    /// thread applies the report under #4's monitor, which the handler does not hold; the handler
    /// removes the replicas it re-added. Neither the patch nor the improved fix closes it.
    #[test]
    fn residual_new_address_during_the_handler() {
        let mut ops = outage();
        ops.extend([
            Dnh,
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            RegisterAtNewAddress(1),
        ]);
        ops.extend([Step(1), Step(1), Reports(1), Step(1), Step(1), Step(1)]);
        assert_committed("dead_node", "residual-new-address-during-handler", &ops);
        let v = reaches::<DeadNode>(Fix::PROPOSED, &ops, "R3").expect("proposed reaches R3");
        assert!(
            v.witness.contains("the object was replaced"),
            "{}",
            v.witness
        );
        assert_eq!(outcomes(Fix::IMPROVED, &ops), ["R3"]);
    }

    /// The patch's third part (P3): without it, Recon's reload registers every stored node
    /// again; with P1 that refreshes the heartbeat time of DEAD nodes nobody heard from, and the
    /// next check resurrects them (`testReinitializeKeepsDeadNodeDead`: "expected: DEAD but was:
    /// HEALTHY").
    #[test]
    fn reload_revives_dead_nodes_without_p3() {
        let mut ops = outage();
        ops.extend([Reload, Step(0), Step(0), Step(0), Step(0), Tick]);
        assert_committed("dead_node", "reload-revives-dead-node", &ops);
        let v = reaches::<DeadNode>(Fix::P1_P2, &ops, "O4").expect("P1+P2 reaches O4");
        assert!(
            v.witness.contains("written by Recon's reload"),
            "{}",
            v.witness
        );
        assert!(outcomes(Fix::UPSTREAM, &ops).is_empty());
        assert!(outcomes(Fix::PROPOSED, &ops).is_empty());
    }
}
