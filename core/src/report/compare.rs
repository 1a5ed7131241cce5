//! The claims matrix: the expected cells joined with the observed ones, and every difference.

use super::real_code::{PremiseRecord, PremiseState, RealCode};
use super::results::{CellResult, ReproductionResult};
use super::View;
use crate::claims::{Checker, ExpectedCell, Verdict};
use std::collections::BTreeMap;

/// An expected reproduction: the value a report gives.
#[derive(Clone, Debug)]
pub struct ExpectedReproduction {
    pub contract: &'static str,
    pub what: &'static str,
    pub expected: &'static str,
}

/// A difference between what was expected and what was observed.
#[derive(Clone, Debug, PartialEq)]
pub enum Deviation {
    Verdict {
        key: String,
        expected: Verdict,
        observed: Verdict,
    },
    Missing {
        key: String,
    },
    Unexpected {
        key: String,
    },
    Reproduction {
        contract: String,
        what: String,
        expected: String,
        observed: String,
    },
    ReproductionMissing {
        contract: String,
        what: String,
    },
    /// A premise about the upstream code does not hold on the released jar: the cells that
    /// rest on it are not shown to be about the code.
    Premise {
        id: String,
        jar: String,
        cell: String,
    },
    /// A finding cites a cell that deviates or did not run: the finding no longer holds.
    Finding {
        contract: String,
        id: String,
        key: String,
    },
    /// A search of the real code reached an outcome the model proves unreachable on its row.
    Search {
        key: String,
        tool: String,
        rate: String,
    },
    /// loom and the step checker proved the same cell with different sets of final states.
    FinalStates {
        key: String,
        only_loom: Vec<String>,
        only_steps: Vec<String>,
    },
}

/// The states only in `a` and only in `b`, or `None` when the sets are the same.
pub fn final_states_differ(
    a: &std::collections::BTreeSet<String>,
    b: &std::collections::BTreeSet<String>,
) -> Option<(Vec<String>, Vec<String>)> {
    let only_a: Vec<String> = a.difference(b).cloned().collect();
    let only_b: Vec<String> = b.difference(a).cloned().collect();
    (!only_a.is_empty() || !only_b.is_empty()).then_some((only_a, only_b))
}

impl std::fmt::Display for Deviation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Deviation::Verdict { key, expected, observed } => {
                write!(f, "{key}: expected {expected}, observed {observed}")
            }
            Deviation::Missing { key } => write!(f, "{key}: no result (the check did not run)"),
            Deviation::Unexpected { key } => write!(f, "{key}: a result for a cell no claim names"),
            Deviation::Reproduction { contract, what, expected, observed } => write!(
                f,
                "{contract} reproduction `{what}`: the report gives {expected:?}, the model {observed:?}"
            ),
            Deviation::Premise { id, jar, cell } => write!(
                f,
                "{cell}: rests on premise {id}, which does not hold on {jar}"
            ),
            Deviation::Finding { contract, id, key } => write!(
                f,
                "{contract} finding {id}: its cell {key} does not hold as claimed"
            ),
            Deviation::ReproductionMissing { contract, what } => {
                write!(f, "{contract} reproduction `{what}`: no result")
            }
            Deviation::Search { key, tool, rate } => write!(
                f,
                "{key}: {tool} reached it on the real code ({rate}), where the model proves it \
                 unreachable"
            ),
            Deviation::FinalStates { key, only_loom, only_steps } => write!(
                f,
                "{key}: loom and the step checker reach different final states; only loom: \
                 {only_loom:?}; only steps: {only_steps:?}"
            ),
        }
    }
}

/// For an unreachable history cell, the first cell of the same contract, outcome and checker
/// that reached the outcome, with the cases it ran until it did.
fn history_twin(c: &CellResult, cells: &[CellResult]) -> Option<String> {
    let history = matches!(
        c.checker,
        Checker::Proptest | Checker::Quickcheck | Checker::FuzzReplay
    );
    if !history || c.observed != Verdict::Unreachable {
        return None;
    }
    cells
        .iter()
        .find(|t| {
            t.observed == Verdict::Reachable
                && (&t.contract, &t.outcome, t.checker) == (&c.contract, &c.outcome, c.checker)
        })
        .map(|t| match t.cases {
            Some(n) => format!("{} reached it at case {n}", t.key()),
            None => format!("{} reached it", t.key()),
        })
}

/// The headline (row, outcome) pairs of a contract with a verdict on the real code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RealCoverage {
    pub headline: usize,
    /// Those a replay on a released jar could decide.
    pub coverable: usize,
    /// Those with a J cell.
    pub covered: usize,
}

/// The claims matrix: expectations joined with observations.
#[derive(Debug)]
pub struct Matrix {
    pub contracts: Vec<View>,
    pub expected: Vec<ExpectedCell>,
    pub cells: Vec<CellResult>,
    pub reproductions: Vec<ReproductionResult>,
    pub deviations: Vec<Deviation>,
    /// The premises' results on the released jars, when conformance ran.
    pub real_code: Option<RealCode>,
    /// Why the real code was not checked, when it was not (no JVM): its J cells are then
    /// unchecked, not deviations, and the verdict says so.
    pub real_code_unchecked: Option<String>,
    /// The searches of the real code, when any are recorded.
    pub searches: Option<super::searches::Searched>,
}

impl Matrix {
    pub fn build(
        contracts: Vec<View>,
        expected: Vec<ExpectedCell>,
        expected_repros: &[ExpectedReproduction],
        mut cells: Vec<CellResult>,
        reproductions: Vec<ReproductionResult>,
    ) -> Matrix {
        let order: BTreeMap<String, usize> = expected
            .iter()
            .enumerate()
            .map(|(i, c)| (c.key(), i))
            .collect();
        cells.sort_by_key(|c| order.get(&c.key()).copied().unwrap_or(usize::MAX));
        let twins: Vec<Option<String>> = cells.iter().map(|c| history_twin(c, &cells)).collect();
        for (c, twin) in cells.iter_mut().zip(twins) {
            c.twin = twin;
        }
        let observed: BTreeMap<String, &CellResult> = cells.iter().map(|c| (c.key(), c)).collect();
        let mut deviations = Vec::new();
        for e in &expected {
            match observed.get(&e.key()) {
                None => deviations.push(Deviation::Missing { key: e.key() }),
                Some(o) if o.observed != e.expected => deviations.push(Deviation::Verdict {
                    key: e.key(),
                    expected: e.expected,
                    observed: o.observed,
                }),
                Some(_) => {}
            }
        }
        for c in &cells {
            if !order.contains_key(&c.key()) {
                deviations.push(Deviation::Unexpected { key: c.key() });
            }
        }
        // Where loom and the step checker both proved a cell, they must agree on its states.
        for l in cells.iter().filter(|c| c.checker == Checker::Loom) {
            // its steps twin: the same row and outcome, and the same path cell's scenario
            let twin = cells.iter().find(|s| {
                s.checker == Checker::Steps
                    && (&s.contract, &s.variant, &s.outcome, s.path_scenario())
                        == (&l.contract, &l.variant, &l.outcome, l.path_scenario())
            });
            if let (Some(a), Some(b)) =
                (&l.final_states, twin.and_then(|t| t.final_states.as_ref()))
            {
                let set =
                    |v: &Vec<String>| v.iter().cloned().collect::<std::collections::BTreeSet<_>>();
                if let Some((only_loom, only_steps)) = final_states_differ(&set(a), &set(b)) {
                    deviations.push(Deviation::FinalStates {
                        key: l.key(),
                        only_loom,
                        only_steps,
                    });
                }
            }
        }
        for c in &contracts {
            for f in c.findings {
                for cited in f.cells {
                    // A cell outside this matrix, or without a result (already a `Missing`
                    // deviation), adds nothing here; a verdict other than the claim's does.
                    let key = c.cell_key(cited);
                    let deviates = expected.iter().find(|e| e.key() == key).is_some_and(|e| {
                        observed.get(&key).is_some_and(|o| o.observed != e.expected)
                    });
                    if deviates {
                        deviations.push(Deviation::Finding {
                            contract: c.id.into(),
                            id: f.id.into(),
                            key,
                        });
                    }
                }
            }
        }
        for e in expected_repros {
            match reproductions
                .iter()
                .find(|r| r.contract == e.contract && r.what == e.what)
            {
                None => deviations.push(Deviation::ReproductionMissing {
                    contract: e.contract.into(),
                    what: e.what.into(),
                }),
                Some(r) if r.observed != e.expected => deviations.push(Deviation::Reproduction {
                    contract: r.contract.clone(),
                    what: r.what.clone(),
                    expected: e.expected.into(),
                    observed: r.observed.clone(),
                }),
                Some(_) => {}
            }
        }
        Matrix {
            contracts,
            expected,
            cells,
            reproductions,
            deviations,
            real_code: None,
            real_code_unchecked: None,
            searches: None,
        }
    }

    /// The real code was not checked (`why`): its J cells have no result, which is said, not
    /// counted as a deviation.
    pub fn without_real_code(mut self, why: String) -> Matrix {
        self.deviations.retain(
            |d| !matches!(d, Deviation::Missing { key } if crate::claims::is_real_key(key)),
        );
        self.real_code_unchecked = Some(why);
        self
    }

    /// The J cells claimed (in these contracts).
    pub fn real_cells_claimed(&self) -> usize {
        self.expected
            .iter()
            .filter(|e| e.checker == Checker::Real)
            .count()
    }

    /// Joins the premises' results: every cell of a broken premise of these contracts is a
    /// deviation.
    pub fn with_real_code(mut self, mut real: RealCode) -> Matrix {
        real.premises
            .retain(|p| self.contracts.iter().any(|c| c.id == p.contract));
        for p in real
            .premises
            .iter()
            .filter(|p| p.result == PremiseState::Broken)
        {
            for cell in &p.cells {
                self.deviations.push(Deviation::Premise {
                    id: p.id.clone(),
                    jar: p.jar.clone(),
                    cell: cell.clone(),
                });
            }
        }
        self.real_code = Some(real);
        self
    }

    /// The matrix with the searches' records; a search that reached an outcome the model
    /// proves unreachable on its row is a deviation.
    pub fn with_searches(mut self, searched: super::searches::Searched) -> Matrix {
        for r in &searched.records {
            if matches!(
                super::searches::judge(r, &self.expected),
                super::searches::Judgement::Deviates { .. }
            ) {
                self.deviations.push(Deviation::Search {
                    key: format!("{}/{}/{}/search", r.contract, r.variant, r.outcome),
                    tool: r.tool.clone(),
                    rate: r.rate(),
                });
            }
        }
        self.searches = Some(searched);
        self
    }

    /// The premises and replays of `contract`.
    pub fn premises(&self, contract: &str) -> Vec<&PremiseRecord> {
        self.real_code
            .iter()
            .flat_map(|r| &r.premises)
            .filter(|p| p.contract == contract)
            .collect()
    }

    /// How many of `contract`'s headline (row, outcome) pairs have a J cell, of those a replay
    /// on a released jar could decide (not a data race, not in `no_replay`).
    pub fn real_coverage(&self, contract: &View) -> RealCoverage {
        let mut c = RealCoverage::default();
        for v in &contract.headline {
            for (o, _) in &contract.outcomes {
                c.headline += 1;
                if contract.races.contains(o) || contract.no_replay.iter().any(|n| n.covers(v, o)) {
                    continue;
                }
                c.coverable += 1;
                let covered = self.expected.iter().any(|e| {
                    (e.contract, e.variant, e.outcome, e.checker)
                        == (contract.id, *v, *o, Checker::Real)
                });
                if covered {
                    c.covered += 1;
                }
            }
        }
        c
    }

    pub fn is_clean(&self) -> bool {
        self.deviations.is_empty()
    }

    /// The observed result of an expected cell.
    pub fn observed(&self, e: &ExpectedCell) -> Option<&CellResult> {
        self.cells.iter().find(|c| c.key() == e.key())
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
