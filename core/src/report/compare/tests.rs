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

/// leader-ready's cells with a path cell added to proposed/O1 (a loom cell and its steps twin,
/// on a scenario of their own), with every result as claimed but the path's loom cell's,
/// which is `path_observed`.
fn with_a_path_cell(path_observed: Verdict) -> (Matrix, Matrix) {
    let (contracts, expected) = leader_ready();
    let path: Vec<ExpectedCell> = expected
        .iter()
        .filter(|e| e.variant == "proposed" && e.outcome == "O1")
        .filter(|e| matches!(e.checker, Checker::Loom | Checker::Steps))
        .map(|e| ExpectedCell {
            scenario: Some("one-failure-path"),
            path: true,
            note: "the path the cell is about",
            ..e.clone()
        })
        .collect();
    assert_eq!(path.len(), 2, "a loom cell and its steps twin");
    let results = |cells: &[ExpectedCell]| -> Vec<CellResult> {
        cells
            .iter()
            .map(|e| {
                let observed = if e.path && e.checker == Checker::Loom {
                    path_observed
                } else {
                    e.expected
                };
                let mut r = CellResult::for_cell(e, observed);
                r.executions =
                    (e.checker == Checker::Loom).then_some(if e.path { 4242 } else { 77 });
                r
            })
            .collect()
    };
    let plain = Matrix::build(
        contracts.clone(),
        expected.clone(),
        &[],
        results(&expected),
        vec![],
    );
    let all: Vec<ExpectedCell> = expected.into_iter().chain(path).collect();
    let with = Matrix::build(contracts, all.clone(), &[], results(&all), vec![]);
    (plain, with)
}

/// A path cell keeps the headline matrix as it is (the text grid, report.md's grid), is
/// counted with the cells, and is listed apart: under the text grid, and in report.md's
/// "Failure paths" table with its row, outcome, scenario, verdict, executions and note.
#[test]
fn a_path_cell_is_listed_apart_from_the_headline_matrix() {
    let (plain, with) = with_a_path_cell(Verdict::Unreachable);
    assert!(with.is_clean(), "{:?}", with.deviations);
    assert_eq!(with.expected.len(), plain.expected.len() + 2);
    let c = &with.contracts[0];
    assert_eq!(with.grid(c), plain.grid(c));
    assert_eq!(with.markdown_grid(c), plain.markdown_grid(c));
    assert_eq!(plain.path_lines(c.id), "");
    assert_eq!(plain.path_table(c.id), "");
    let lines = with.path_lines(c.id);
    assert_eq!(
        lines,
        "  failure paths (row, outcome, scenario):\n    proposed  O1  one-failure-path  -L -S\n"
    );
    assert!(with.render_text().contains(&lines));
    let table = with.path_table(c.id);
    assert!(table.contains("**Failure paths**"), "{table}");
    assert!(
        table.contains(
            "| leader-ready | proposed | O1 | `one-failure-path` | loom | unreachable | ✅ unreachable | 4242 | the path the cell is about |"
        ),
        "{table}"
    );
    assert!(
        table.contains("| steps | unreachable | ✅ unreachable |"),
        "{table}"
    );
    let md = with.to_markdown();
    assert!(md.contains(&table));
    // the every-cell table leaves it to its own table
    assert!(md.contains("| proposed | O1 | loom | unreachable | unreachable | 77 executions"));
    assert!(!md.contains("4242 executions"), "{md}");
}

/// A path cell that deviates is a deviation under its own key, flagged in its line under the
/// grid (what a mutant's check reads), and the headline grid does not show it.
#[test]
fn a_deviating_path_cell_is_flagged_under_its_own_key() {
    let (plain, with) = with_a_path_cell(Verdict::Reachable);
    assert_eq!(
        with.deviations,
        vec![Deviation::Verdict {
            key: "leader-ready/proposed/O1/loom:one-failure-path".into(),
            expected: Verdict::Unreachable,
            observed: Verdict::Reachable,
        }]
    );
    let c = &with.contracts[0];
    assert_eq!(with.grid(c), plain.grid(c));
    assert!(with.path_lines(c.id).contains("one-failure-path  !RL -S"));
    assert!(with.path_table(c.id).contains("❌ reachable"));
}

/// report.json's cells: a path cell's record says so and round-trips; a record without the
/// field (every record before path cells) loads as a headline cell's.
#[test]
fn a_path_cells_record_round_trips_and_old_records_still_load() {
    let (_, with) = with_a_path_cell(Verdict::Unreachable);
    let path = with.cells.iter().find(|c| c.path).expect("a path cell");
    let json = serde_json::to_string(path).expect("serializes");
    assert!(json.contains("\"path\":true"), "{json}");
    let back: CellResult = serde_json::from_str(&json).expect("loads");
    assert_eq!(back.key(), "leader-ready/proposed/O1/loom:one-failure-path");
    let headline = with
        .cells
        .iter()
        .find(|c| !c.path)
        .expect("a headline cell");
    let json = serde_json::to_string(headline).expect("serializes");
    assert!(!json.contains("\"path\""), "{json}");
    let back: CellResult = serde_json::from_str(&json).expect("loads");
    assert_eq!(back.key(), headline.key());
    let report: serde_json::Value = serde_json::from_str(&with.to_json()).expect("report.json");
    assert!(report["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .any(|c| c["path"] == true));
}
