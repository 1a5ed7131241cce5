//! The searches of the real code (`cargo xtask search`): Fray and Lincheck run the released
//! classes without latches, on the rows the fix layer expresses, and choose the interleavings
//! themselves. A record says how many runs reached the outcome and which was the first; the
//! report sets it beside the model's verdict on that row and the replay's. A fix row's search
//! that reaches an outcome the model calls unreachable is a deviation. One that reaches
//! nothing is "not found in N runs", never "unreachable": a search is evidence, not a proof.

use crate::claims::{Checker, ExpectedCell, Verdict};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A run that reached the outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// Its number among the search's runs, from 1.
    pub run: u64,
    /// How to run it again (a kept Fray recording, a Lincheck seed), when known.
    pub schedule: Option<String>,
    /// The state that decided it.
    pub observed: Option<String>,
}

/// One search on one row (`racelab-search/1`, written by `racelab.search.Tally`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRecord {
    /// The search's id, named as the replays are (`LR_O1`).
    pub search: String,
    /// `fray` or `lincheck`.
    pub tool: String,
    pub contract: String,
    pub variant: String,
    /// `P1+P2`, or `-` for none.
    pub parts: String,
    pub layer_off: bool,
    pub outcome: String,
    pub runs: u64,
    pub reached: u64,
    pub first_run: Option<u64>,
    pub first_seconds: Option<f64>,
    /// From the search's start on this row to the end of its last run; `None` where it was not
    /// measured.
    #[serde(default)]
    pub seconds: Option<f64>,
    /// The first failures (at most five); `reached` counts them all.
    pub failures: Vec<Failure>,
    /// The commit searched, as `cargo xtask search` names it when it gathers the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

impl SearchRecord {
    /// `k of N, first at run r`, in the style of Fray's evaluation.
    pub fn rate(&self) -> String {
        match self.first_run {
            Some(r) => format!("{} of {}, first at run {r}", self.reached, self.runs),
            None => format!("0 of {}", self.runs),
        }
    }

    /// The model's outcomes the search decides: one, or a union written `O2|R1`.
    pub fn outcomes(&self) -> impl Iterator<Item = &str> {
        self.outcome.split('|')
    }

    /// The outcome as a table cell says it (`O2 or R1`: a `|` would split a Markdown cell).
    pub fn outcome_label(&self) -> String {
        self.outcomes().collect::<Vec<_>>().join(" or ")
    }
}

/// What `searches.json` holds: the searches of one run of `cargo xtask search`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Searched {
    /// Where and how the searches ran (`searched at commit 1a2b3c4d5e6f by cargo xtask search`).
    #[serde(default)]
    pub provenance: Option<String>,
    pub records: Vec<SearchRecord>,
}

impl Searched {
    /// The searches in `path`; `None` when there is no file.
    pub fn load(path: &Path) -> Result<Option<Searched>, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
}

/// One kept schedule replayed in the gate (`cargo xtask conformance`): a failure a search found,
/// run again in its recorded order, which must reach its outcome again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptReplay {
    /// `fray` or `lincheck`.
    pub tool: String,
    /// `Class#method`.
    pub test: String,
    pub passed: bool,
    pub seconds: f64,
    /// Why it failed, when it did.
    pub detail: Option<String>,
}

/// A search's result against the model's verdict on its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Reached, where the model reaches it too.
    Agrees,
    /// The model reaches it; these runs did not.
    NotFound,
    /// Not reached in these runs, where the model says unreachable: `proved` by an exhaustive
    /// cell (loom's, the step checker's), or else by its histories' (proptest's) alone.
    Consistent { proved: bool },
    /// Reached, where the model says unreachable (`proved` as for `Consistent`): a deviation.
    Deviates { proved: bool },
    /// Reached where the model proves it unreachable, and the replay of the same wiring (the
    /// search's id is its replay's) reaches it too: the J cell already records that
    /// disagreement and its reason (a path of the real code the model lacks), so the search
    /// is not a new one.
    AsItsReplay,
    /// Not reached in these runs, where the model reaches it on this row but not in the order
    /// its replay drives (the replay's J cell on the row says unreachable): the search runs the
    /// replay's wiring, which may leave out the orders that reach it.
    NotInItsOrder,
    /// No cell of the model is about this row and outcome.
    Unclaimed,
}

impl Judgement {
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Agrees => "reached, as the model",
            Judgement::NotFound => "not found in these runs; the model reaches it",
            Judgement::Consistent { proved: true } => {
                "not found in these runs; the model proves it unreachable"
            }
            Judgement::Consistent { proved: false } => {
                "not found in these runs; the model's histories never reach it"
            }
            Judgement::Deviates { proved: true } => {
                "DEVIATES: reached, the model proves it unreachable"
            }
            Judgement::Deviates { proved: false } => {
                "DEVIATES: reached, the model's histories never reach it"
            }
            Judgement::AsItsReplay => {
                "reached, as its replay's J cell, which disagrees with the model (see its note)"
            }
            Judgement::NotInItsOrder => {
                "not found in these runs; the model reaches it on this row, not in its replay's order"
            }
            Judgement::Unclaimed => "no model cell for this row",
        }
    }
}

/// The model's verdict on the search's row and outcome: its loom cell's, or else any
/// exhaustive cell's (the step checker's), or else its histories' (proptest's: an outcome that
/// only long histories reach, as SCM's, has no exhaustive cell). A search may decide a union of
/// the model's outcomes, written `O2|R1`, where the real state cannot tell them apart (the
/// model splits one state by the window that led to it): the union is reachable where any of
/// them is, unreachable where all of them are, and unclaimed where one has no cell.
pub fn model_verdict(r: &SearchRecord, expected: &[ExpectedCell]) -> Option<Verdict> {
    model_cell(r, expected).map(|(verdict, _)| verdict)
}

/// [`model_verdict`], and whether an exhaustive cell decides it (every outcome of a union's).
fn model_cell(r: &SearchRecord, expected: &[ExpectedCell]) -> Option<(Verdict, bool)> {
    let one = |outcome: &str| {
        let about = |e: &&ExpectedCell| {
            // the row's headline cells: a path cell is about one path, not the row's verdict
            e.contract == r.contract && e.variant == r.variant && e.outcome == outcome && !e.path
        };
        let of = |checker: Checker| {
            expected
                .iter()
                .filter(about)
                .find(|e| e.checker == checker)
                .map(|e| e.expected)
        };
        let exhaustive = of(Checker::Loom).or(of(Checker::Steps));
        exhaustive
            .map(|v| (v, true))
            .or(of(Checker::Proptest).map(|v| (v, false)))
    };
    r.outcomes().map(one).try_fold(
        (Verdict::Unreachable, true),
        |(union, proved), cell| match cell? {
            (Verdict::Reachable, _) => Some((Verdict::Reachable, proved)),
            (Verdict::Unreachable, by) => Some((union, proved && by)),
        },
    )
}

/// The verdict of the J cell of the replay the search is named after (`RS_O1`) on the
/// search's row and outcome: the model's verdict for the order that replay drives.
fn its_replay(r: &SearchRecord, expected: &[ExpectedCell]) -> Option<Verdict> {
    expected
        .iter()
        .find(|e| {
            e.checker == Checker::Real
                && e.scenario == Some(r.search.as_str())
                && e.contract == r.contract
                && e.variant == r.variant
                && e.outcome == r.outcome
        })
        .map(|e| e.expected)
}

pub fn judge(r: &SearchRecord, expected: &[ExpectedCell]) -> Judgement {
    let replay = its_replay(r, expected);
    match (model_cell(r, expected), r.reached > 0) {
        (None, _) => Judgement::Unclaimed,
        (Some((Verdict::Unreachable, _)), true) if replay == Some(Verdict::Reachable) => {
            Judgement::AsItsReplay
        }
        (Some((Verdict::Reachable, _)), true) => Judgement::Agrees,
        (Some((Verdict::Reachable, _)), false) if replay == Some(Verdict::Unreachable) => {
            Judgement::NotInItsOrder
        }
        (Some((Verdict::Reachable, _)), false) => Judgement::NotFound,
        (Some((Verdict::Unreachable, proved)), false) => Judgement::Consistent { proved },
        (Some((Verdict::Unreachable, proved)), true) => Judgement::Deviates { proved },
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::claims::Checker;

    fn record(variant: &str, reached: u64) -> SearchRecord {
        SearchRecord {
            search: "LR_O1".into(),
            tool: "fray".into(),
            contract: "leader-ready".into(),
            variant: variant.into(),
            parts: "-".into(),
            layer_off: false,
            outcome: "O1".into(),
            runs: 200,
            reached,
            first_run: (reached > 0).then_some(7),
            first_seconds: (reached > 0).then_some(0.5),
            seconds: Some(12.0),
            failures: vec![],
            commit: None,
        }
    }

    fn cell(variant: &'static str, checker: Checker, expected: Verdict) -> ExpectedCell {
        ExpectedCell {
            contract: "leader-ready",
            report: "HDDS-17575",
            variant,
            parts: vec![],
            baseline: "report",
            outcome: "O1",
            checker,
            expected,
            scenario: None,
            bound: None,
            path: false,
            note: "",
        }
    }

    #[test]
    fn a_search_is_judged_by_the_models_verdict_on_its_row() {
        let expected = [
            cell("upstream", Checker::Loom, Verdict::Reachable),
            cell("proposed", Checker::Loom, Verdict::Unreachable),
            cell("proposed", Checker::Proptest, Verdict::Reachable),
            cell("P1", Checker::Steps, Verdict::Reachable),
        ];
        assert_eq!(judge(&record("upstream", 4), &expected), Judgement::Agrees);
        assert_eq!(
            judge(&record("upstream", 0), &expected),
            Judgement::NotFound
        );
        assert_eq!(
            judge(&record("proposed", 0), &expected),
            Judgement::Consistent { proved: true }
        );
        assert_eq!(
            judge(&record("proposed", 2), &expected),
            Judgement::Deviates { proved: true }
        );
        assert_eq!(judge(&record("P1", 1), &expected), Judgement::Agrees);
        assert_eq!(judge(&record("P2", 1), &expected), Judgement::Unclaimed);
        // an outcome only histories reach (SCM's): the proptest cell is the model's verdict
        let histories = [
            cell("P4", Checker::Proptest, Verdict::Unreachable),
            cell("P5", Checker::Proptest, Verdict::Reachable),
        ];
        assert_eq!(
            judge(&record("P4", 1), &histories),
            Judgement::Deviates { proved: false }
        );
        assert_eq!(
            judge(&record("P4", 0), &histories),
            Judgement::Consistent { proved: false }
        );
        assert_eq!(judge(&record("P5", 3), &histories), Judgement::Agrees);
        // a path cell (first in claim order) is not the row's verdict
        let path = ExpectedCell {
            scenario: Some("one-path"),
            path: true,
            ..cell("proposed", Checker::Loom, Verdict::Reachable)
        };
        let with_path = [path, expected[1].clone()];
        assert_eq!(
            judge(&record("proposed", 2), &with_path),
            Judgement::Deviates { proved: true }
        );
    }

    #[test]
    fn a_search_its_replay_already_reaches_against_the_model_is_no_new_deviation() {
        let j = |variant, expected| ExpectedCell {
            scenario: Some("LR_O1"),
            ..cell(variant, Checker::Real, expected)
        };
        let expected = [
            cell("proposed", Checker::Loom, Verdict::Unreachable),
            j("proposed", Verdict::Reachable),
            cell("improved", Checker::Loom, Verdict::Unreachable),
            j("improved", Verdict::Unreachable),
        ];
        assert_eq!(
            judge(&record("proposed", 3), &expected),
            Judgement::AsItsReplay
        );
        assert_eq!(
            judge(&record("improved", 1), &expected),
            Judgement::Deviates { proved: true }
        );
        let other = SearchRecord {
            search: "LR_X".into(),
            ..record("proposed", 3)
        };
        assert_eq!(
            judge(&other, &expected),
            Judgement::Deviates { proved: true },
            "another wiring"
        );
    }

    #[test]
    fn a_search_that_misses_what_the_row_reaches_only_by_another_order_says_so() {
        // container-recreate's CR_R1 on P1: the row reaches O5 (by CR_R3's order), the order
        // CR_R1's replay drives does not
        let j = |expected| ExpectedCell {
            scenario: Some("LR_O1"),
            ..cell("P1", Checker::Real, expected)
        };
        let reaches = cell("P1", Checker::Loom, Verdict::Reachable);
        let not_in_its_order = [reaches.clone(), j(Verdict::Unreachable)];
        assert_eq!(
            judge(&record("P1", 0), &not_in_its_order),
            Judgement::NotInItsOrder
        );
        assert_eq!(
            judge(&record("P1", 2), &not_in_its_order),
            Judgement::Agrees
        );
        let in_its_order = [reaches.clone(), j(Verdict::Reachable)];
        assert_eq!(judge(&record("P1", 0), &in_its_order), Judgement::NotFound);
        // another search's replay says nothing of this one's order
        let other = SearchRecord {
            search: "LR_X".into(),
            ..record("P1", 0)
        };
        assert_eq!(judge(&other, &not_in_its_order), Judgement::NotFound);
    }

    #[test]
    fn a_union_is_reachable_where_one_outcome_is_and_unreachable_where_all_are() {
        let o2 = |variant, expected| ExpectedCell {
            outcome: "O2",
            ..cell(variant, Checker::Loom, expected)
        };
        let r1 = |variant, expected| ExpectedCell {
            outcome: "R1",
            ..cell(variant, Checker::Loom, expected)
        };
        let expected = [
            o2("P1", Verdict::Unreachable),
            r1("P1", Verdict::Reachable),
            o2("improved", Verdict::Unreachable),
            r1("improved", Verdict::Unreachable),
            o2("P2", Verdict::Reachable),
        ];
        let union = |variant, reached| SearchRecord {
            outcome: "O2|R1".into(),
            ..record(variant, reached)
        };
        assert_eq!(judge(&union("P1", 3), &expected), Judgement::Agrees);
        assert_eq!(judge(&union("P1", 0), &expected), Judgement::NotFound);
        assert_eq!(
            judge(&union("improved", 0), &expected),
            Judgement::Consistent { proved: true }
        );
        assert_eq!(
            judge(&union("improved", 1), &expected),
            Judgement::Deviates { proved: true }
        );
        assert_eq!(judge(&union("P2", 1), &expected), Judgement::Unclaimed);
        assert_eq!(union("P1", 3).outcome_label(), "O2 or R1");
    }

    #[test]
    fn a_rate_is_said_as_fray_says_it() {
        assert_eq!(record("upstream", 4).rate(), "4 of 200, first at run 7");
        assert_eq!(record("proposed", 0).rate(), "0 of 200");
    }

    #[test]
    fn a_record_reads_as_tally_writes_it() {
        let text = r#"{"schema":"racelab-search/1","search":"LR_O1","tool":"fray","contract":"leader-ready","variant":"upstream","parts":"-","layer_off":false,"outcome":"O1","runs":20,"reached":4,"first_run":3,"first_seconds":1.250,"seconds":9.000,"failures":[{"run":3,"schedule":null,"observed":"isLeaderReady=true"}]}"#;
        let r: SearchRecord = serde_json::from_str(text).unwrap();
        assert_eq!(r.rate(), "4 of 20, first at run 3");
        assert_eq!(
            r.failures[0].observed.as_deref(),
            Some("isLeaderReady=true")
        );
    }
}
