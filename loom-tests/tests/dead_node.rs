//! Every loom cell of HDDS-17067 (dead-node).
#![cfg(loom)]

use racelab_core::dead_node::{claims::CLAIMS, DeadNode};

racelab_loom::cell_tests!(DeadNode, CLAIMS, {
    upstream_o1 => ("upstream", "O1"),
    p1_o1 => ("P1", "O1"),
    p2_o1 => ("P2", "O1"),
    p3_o1 => ("P3", "O1"),
    p1_p2_o1 => ("P1+P2", "O1"),
    proposed_o1 => ("proposed", "O1"),
    improved_o1 => ("improved", "O1"),
    upstream_o2 => ("upstream", "O2"),
    p1_o2 => ("P1", "O2"),
    p2_o2 => ("P2", "O2"),
    p1_p2_o2 => ("P1+P2", "O2"),
    proposed_o2 => ("proposed", "O2"),
    improved_o2 => ("improved", "O2"),
    upstream_o3 => ("upstream", "O3"),
    p1_o3 => ("P1", "O3"),
    p2_o3 => ("P2", "O3"),
    p1_p2_o3 => ("P1+P2", "O3"),
    proposed_o3 => ("proposed", "O3"),
    improved_o3 => ("improved", "O3"),
    p1_p2_r1 => ("P1+P2", "R1"),
    proposed_r1 => ("proposed", "R1"),
    improved_r1 => ("improved", "R1"),
    upstream_o4 => ("upstream", "O4"),
    p1_o4 => ("P1", "O4"),
    p3_o4 => ("P3", "O4"),
    p1_p2_o4 => ("P1+P2", "O4"),
    proposed_o4 => ("proposed", "O4"),
    improved_o4 => ("improved", "O4"),
    proposed_r2 => ("proposed", "R2"),
    improved_r2 => ("improved", "R2"),
    proposed_r3 => ("proposed", "R3"),
    improved_r3 => ("improved", "R3"),
});

/// A deliberately broken P2 (the recheck without the monitor) must show up in the matrix.
#[test]
fn a_broken_fix_is_caught() {
    racelab_loom::verify_mutants::<DeadNode>(&CLAIMS);
}

/// The O3 scenario's unreachable cells are pinned at preemption bound 4 (27,903 executions, ~2 s
/// each); without a bound each takes 505,185 executions (~40 s), too long for the suite's budget.
/// This explores them unbounded: `--ignored unbounded` (last run: all four unreachable, 156 s).
#[test]
#[ignore]
fn unbounded_exploration_of_the_bounded_cells() {
    use racelab_core::claims::{Method, Verdict};
    use racelab_core::model::Model;
    for c in CLAIMS
        .cells
        .iter()
        .filter(|c| c.expected == Verdict::Unreachable)
    {
        let Method::Loom {
            scenario,
            bound: Some(_),
            ..
        } = c.method
        else {
            continue;
        };
        let fix = DeadNode::variant(c.variant).expect("known").fix;
        let e = racelab_loom::explore(scenario, fix, c.outcome, None);
        println!(
            "{} unbounded: {} ({} executions, {:.0} s)",
            c.key(),
            e.observed,
            e.executions,
            e.seconds
        );
        assert_eq!(e.observed, Verdict::Unreachable, "{}", c.key());
    }
}
