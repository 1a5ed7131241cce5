//! The comparison on a registered contract's claims (leader-ready's): in a file of its own,
//! since it needs the registry, which lists every contract and so sits above this module.

use super::*;
use crate::registry;

fn leader_ready() -> (Vec<View>, Vec<ExpectedCell>) {
    let e = registry::find("leader-ready").unwrap_or_else(|_| panic!("registered"));
    (vec![e.view], e.cells)
}

#[test]
fn a_check_that_did_not_run_is_a_deviation() {
    let (contracts, expected) = leader_ready();
    let first = expected[0].key();
    let cells: Vec<CellResult> = expected[1..]
        .iter()
        .map(|e| CellResult::for_cell(e, e.expected))
        .collect();
    let m = Matrix::build(contracts, expected, &[], cells, vec![]);
    assert_eq!(m.deviations, vec![Deviation::Missing { key: first }]);
    assert!(m
        .render_text()
        .contains("no result (the check did not run)"));
}

#[test]
fn a_flipped_verdict_is_flagged_in_the_grid() {
    let (contracts, expected) = leader_ready();
    let cells: Vec<CellResult> = expected
        .iter()
        .map(|e| {
            let flipped = if e.key() == "leader-ready/proposed/O1/loom" {
                Verdict::Reachable
            } else {
                e.expected
            };
            CellResult::for_cell(e, flipped)
        })
        .collect();
    let m = Matrix::build(contracts, expected, &[], cells, vec![]);
    assert_eq!(m.deviations.len(), 1);
    let grid = m.grid(&m.contracts[0]);
    assert!(grid.contains("!RL"), "{grid}");
}

#[test]
fn loom_and_steps_proving_different_final_states_is_a_deviation() {
    let (contracts, expected) = leader_ready();
    let loom = expected
        .iter()
        .find(|e| e.key() == "leader-ready/proposed/O1/loom")
        .expect("claimed");
    let steps = expected
        .iter()
        .find(|e| e.key() == "leader-ready/proposed/O1/steps")
        .expect("every loom cell has a steps twin");
    let mut a = CellResult::for_cell(loom, Verdict::Unreachable);
    a.final_states = Some(vec!["x".into(), "y".into()]);
    let mut b = CellResult::for_cell(steps, Verdict::Unreachable);
    b.final_states = Some(vec!["x".into()]);
    let cells = vec![a, b];
    let m = Matrix::build(
        contracts,
        vec![loom.clone(), steps.clone()],
        &[],
        cells,
        vec![],
    );
    assert_eq!(
        m.deviations,
        vec![Deviation::FinalStates {
            key: "leader-ready/proposed/O1/loom".into(),
            only_loom: vec!["y".into()],
            only_steps: vec![],
        }]
    );
}

#[test]
fn records_round_trip_through_json() {
    let (_, expected) = leader_ready();
    let mut r = CellResult::for_cell(&expected[0], Verdict::Reachable);
    r.executions = Some(145);
    r.seconds = 0.25;
    r.timeline = vec!["  1  apply  X.y  z".into()];
    let json = serde_json::to_string(&r).expect("serializes");
    assert_eq!(serde_json::from_str::<CellResult>(&json).ok(), Some(r));
}
