//! Every loom cell of HDDS-17042 (recon-sync).
#![cfg(loom)]

use racelab_core::recon_sync::{claims::CLAIMS, ReconSync};

racelab_loom::cell_tests!(ReconSync, CLAIMS, {
    upstream_o1 => ("upstream", "O1"),
    proposed_o1 => ("proposed", "O1"),
    a1_o1 => ("A1", "O1"),
    upstream_o2 => ("upstream", "O2"),
    proposed_o2 => ("proposed", "O2"),
    a1_o2 => ("A1", "O2"),
    upstream_o3 => ("upstream", "O3"),
    proposed_o3 => ("proposed", "O3"),
    upstream_o4 => ("upstream", "O4"),
    proposed_o4 => ("proposed", "O4"),
    a1_o4 => ("A1", "O4"),
});

/// A deliberately broken P1 (released after the commit, before the hand-off) must show up in
/// the matrix the gate prints.
#[test]
fn a_broken_fix_is_caught() {
    racelab_loom::verify_mutants::<ReconSync>(&CLAIMS);
}
