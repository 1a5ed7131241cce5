//! Every loom cell of HDDS-17575 (leader-ready).
#![cfg(loom)]

use racelab_core::leader_ready::{claims::CLAIMS, LeaderReady};

racelab_loom::cell_tests!(LeaderReady, CLAIMS, {
    upstream_o1 => ("upstream", "O1"),
    p1_o1 => ("P1", "O1"),
    p2_o1 => ("P2", "O1"),
    proposed_o1 => ("proposed", "O1"),
    improved_o1 => ("improved", "O1"),
    upstream_o2 => ("upstream", "O2"),
    p1_o2 => ("P1", "O2"),
    p2_o2 => ("P2", "O2"),
    proposed_o2 => ("proposed", "O2"),
    improved_o2 => ("improved", "O2"),
    p1_r1 => ("P1", "R1"),
    proposed_r1 => ("proposed", "R1"),
    improved_r1 => ("improved", "R1"),
});

/// A deliberately broken P1 (the term check removed) must show up in the matrix the gate prints.
#[test]
fn a_broken_fix_is_caught() {
    racelab_loom::verify_mutants::<LeaderReady>(&CLAIMS);
}
