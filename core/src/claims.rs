//! The expected claims matrix, written once per contract as data beside its model. Every claim
//! is a test: the loom and history suites generate one per cell, named by the cell's key.

use crate::model::{Model, Scenario};
use crate::outcome::{Check, Outcome, OutcomeId};

use serde::{Deserialize, Serialize};
use std::fmt;

/// A model with its claims matrix. Apart from [`Model`], so that the model does not name the
/// claims, whose cells name the model's scenarios.
pub trait Claimed: Model {
    const CLAIMS: Claims<Self>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Reachable,
    Unreachable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Reachable => "reachable",
            Verdict::Unreachable => "unreachable",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tool that checked a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Checker {
    Loom,
    /// Every order of whole steps of the loom cell's scenario ([`crate::steps`]).
    Steps,
    Proptest,
    Quickcheck,
    FuzzReplay,
    /// A replay on the released jar's classes (`conformance/`), the row's parts applied by the
    /// fix layer: the `J` cell.
    Real,
}

impl Checker {
    pub fn as_str(self) -> &'static str {
        match self {
            Checker::Loom => "loom",
            Checker::Steps => "steps",
            Checker::Proptest => "proptest",
            Checker::Quickcheck => "quickcheck",
            Checker::FuzzReplay => "fuzz-replay",
            Checker::Real => "real",
        }
    }

    /// The letter the grid shows.
    pub fn tag(self) -> &'static str {
        match self {
            Checker::Loom => "L",
            Checker::Steps => "S",
            Checker::Proptest => "P",
            Checker::Quickcheck => "Q",
            Checker::FuzzReplay => "F",
            Checker::Real => "J",
        }
    }
}

/// How a cell is checked, with its budget.
pub enum Method<M: Model> {
    /// Every interleaving of `scenario` (up to `bound` preemptions when set). `executions` is
    /// the pinned number of executions loom explores: a change means the model changed.
    /// `final_states`, pinned for an unreachable cell ([`Method::final_states`]), is the hash
    /// ([`crate::report::results::final_states_hash`]) of the set of final states
    /// ([`Model::describe`]) its executions end in: a change to a final state that no outcome
    /// reads (the verdict and the count unchanged) changes it.
    Loom {
        scenario: &'static Scenario<M>,
        bound: Option<usize>,
        executions: u64,
        final_states: Option<u64>,
    },
    /// `cases` histories from the contract's reference state machine (seeded), shrunk.
    Proptest { cases: u32 },
    /// `tests` random byte strings decoded with the fuzz codec (seeded), shrunk.
    Quickcheck { tests: u64 },
    /// The committed fuzz corpus and regressions, replayed on stable.
    FuzzReplay,
    /// The JUnit replay `replay` (`DN_O3`: its test is `DN_O3_<words>` in `conformance/`) on the
    /// released classes, with the row's parts rendered by the fix layer; its record for this
    /// row and outcome is the verdict. Reached or not, it is about that order, on those
    /// classes, with that rendering: evidence, not a proof of unreachability.
    Real { replay: &'static str },
}

impl<M: Model> Method<M> {
    /// Every interleaving of `scenario`, unbounded, with its pinned execution count.
    pub const fn loom(scenario: &'static Scenario<M>, executions: u64) -> Self {
        Method::Loom {
            scenario,
            bound: None,
            executions,
            final_states: None,
        }
    }

    /// Every interleaving with at most `bound` preemptions; the same scenario and bound must
    /// reach the outcome in some other variant (the registry checks that twin).
    pub const fn loom_bounded(
        scenario: &'static Scenario<M>,
        bound: usize,
        executions: u64,
    ) -> Self {
        Method::Loom {
            scenario,
            bound: Some(bound),
            executions,
            final_states: None,
        }
    }

    /// This loom cell with the hash of its final states pinned (an unreachable cell's; `cargo
    /// xtask bless` writes it): `Method::loom(RACE, 13469).final_states(0x…)`.
    pub const fn final_states(self, hash: u64) -> Self {
        match self {
            Method::Loom {
                scenario,
                bound,
                executions,
                ..
            } => Method::Loom {
                scenario,
                bound,
                executions,
                final_states: Some(hash),
            },
            _ => panic!("only a loom cell pins its final states"),
        }
    }

    /// The pinned hash of a loom cell's final states, when there is one.
    pub fn pinned_final_states(&self) -> Option<u64> {
        match self {
            Method::Loom { final_states, .. } => *final_states,
            _ => None,
        }
    }

    /// The replay on the released classes whose record for the row decides the cell.
    pub const fn real(replay: &'static str) -> Self {
        Method::Real { replay }
    }

    pub fn checker(&self) -> Checker {
        match self {
            Method::Loom { .. } => Checker::Loom,
            Method::Proptest { .. } => Checker::Proptest,
            Method::Quickcheck { .. } => Checker::Quickcheck,
            Method::FuzzReplay => Checker::FuzzReplay,
            Method::Real { .. } => Checker::Real,
        }
    }

    /// The loom scenario and bound, for a loom cell.
    pub fn loom_scenario(&self) -> Option<(&'static Scenario<M>, Option<usize>)> {
        match self {
            Method::Loom {
                scenario, bound, ..
            } => Some((scenario, *bound)),
            _ => None,
        }
    }
}

/// One expected cell: what `variant` allows for `outcome`, how that is checked, and why the
/// cell is there.
pub struct Claim<M: Model> {
    pub variant: &'static str,
    pub outcome: &'static Outcome<M::World>,
    pub expected: Verdict,
    pub method: Method<M>,
    /// Why the cell is there; where the report's claim disagrees with the verdict, say so.
    pub note: &'static str,
}

impl<M: Model> Claim<M> {
    pub fn checker(&self) -> Checker {
        self.method.checker()
    }

    /// The cell's identity in reports and test names: `contract/variant/outcome/checker`
    /// (`…/real:REPLAY` for a J cell).
    pub fn key(&self) -> String {
        let replay = match self.method {
            Method::Real { replay } => Some(replay),
            _ => None,
        };
        run_key(
            M::CONTRACT.id,
            self.variant,
            self.outcome.id,
            self.checker(),
            replay,
        )
    }

    /// The switches of the claim's variant.
    pub fn fix(&self) -> M::Fix {
        M::fix_of(self.variant)
            .unwrap_or_else(|| panic!("{}: unknown variant {}", self.key(), self.variant))
    }

    /// Whether the step checker checks this cell too: every loom cell whose outcome is not a
    /// data race (whole steps cannot show one).
    pub fn has_steps_twin(&self) -> bool {
        self.method.loom_scenario().is_some() && !matches!(self.outcome.check, Check::Race)
    }

    /// The step checker's cell at this loom cell's scenario, with the same expected verdict.
    pub fn steps_expectation(&self) -> ExpectedCell {
        ExpectedCell {
            checker: Checker::Steps,
            note: "every order of whole steps of the loom cell's scenario",
            ..self.expectation()
        }
    }

    pub fn expectation(&self) -> ExpectedCell {
        let parts = M::variant(self.variant).map_or(Vec::new(), |v| crate::model::ids(v.parts));
        let baseline = M::variant(self.variant).map_or(crate::model::REPORT, |v| v.baseline);
        let (scenario, bound) = match (&self.method, self.method.loom_scenario()) {
            (_, Some((s, b))) => (Some(s.name), b),
            // a J cell's scenario is its replay
            (Method::Real { replay }, None) => (Some(*replay), None),
            _ => (None, None),
        };
        ExpectedCell {
            contract: M::CONTRACT.id,
            report: M::CONTRACT.report,
            variant: self.variant,
            parts,
            baseline,
            outcome: self.outcome.id,
            checker: self.checker(),
            expected: self.expected,
            scenario,
            bound,
            note: self.note,
        }
    }
}

/// A test-name-safe form of a description: lowercase words joined by `-`.
pub fn slug(what: &str) -> String {
    let mut s = String::new();
    for c in what.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_owned()
}

pub fn cell_key(contract: &str, variant: &str, outcome: &str, checker: Checker) -> String {
    format!("{contract}/{variant}/{outcome}/{}", checker.as_str())
}

/// Whether `key` (a cell's key, or a finding's `VARIANT/OUTCOME/CHECKER` citation) is a J
/// cell's: its checker part is `real:REPLAY` ([`run_key`]).
pub fn is_real_key(key: &str) -> bool {
    key.contains(&format!("/{}:", Checker::Real.as_str()))
}

/// A cell's key with its run: a J cell is one replay's verdict, so several replays (several
/// orders) can decide the same row and outcome, each its own cell (`…/O3/real:DN_O3`).
pub fn run_key(
    contract: &str,
    variant: &str,
    outcome: &str,
    checker: Checker,
    scenario: Option<&str>,
) -> String {
    let key = cell_key(contract, variant, outcome, checker);
    match (checker, scenario) {
        (Checker::Real, Some(replay)) => format!("{key}:{replay}"),
        _ => key,
    }
}

/// An observable result the report gives (a state string, a count, a named test's verdict).
pub struct Reproduction {
    pub what: &'static str,
    /// The value the report gives.
    pub expected: &'static str,
    /// Runs the model and renders the same value.
    pub observe: fn() -> String,
}

/// A deliberately broken fix that the suite must catch: the loom cells of `variant` run with
/// its switches mutated ([`Mutant::fix`]) must deviate at `caught_by`.
pub struct Mutant<M: Model> {
    pub name: &'static str,
    pub variant: &'static str,
    /// The slip, applied after the variant's parts: like a part's `on`, it only sets switches
    /// (a broken part's, or a whole broken design's).
    pub mutate: fn(M::Fix) -> M::Fix,
    pub caught_by: &'static Outcome<M::World>,
    /// The mutation acts inside one step (a lock dropped between a check and a write that run
    /// as one step): loom sees it, every order of whole steps cannot, and the step checker's
    /// test asserts that it does not.
    pub inside_a_step: bool,
    pub about: &'static str,
}

impl<M: Model> Mutant<M> {
    /// The switches the mutant runs with: its variant's, mutated.
    pub fn fix(&self) -> M::Fix {
        let variant = M::fix_of(self.variant)
            .unwrap_or_else(|| panic!("mutant `{}`: unknown variant {}", self.name, self.variant));
        (self.mutate)(variant)
    }
}

/// Everything a contract claims, for the gate.
pub struct Claims<M: Model> {
    pub cells: &'static [Claim<M>],
    pub reproductions: &'static [Reproduction],
    pub mutants: &'static [Mutant<M>],
}

/// A claim without its model type, for the matrix and the reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectedCell {
    pub contract: &'static str,
    pub report: &'static str,
    pub variant: &'static str,
    pub parts: Vec<&'static str>,
    /// The baseline the variant is built on ([`crate::model::Baseline`]).
    pub baseline: &'static str,
    pub outcome: OutcomeId,
    pub checker: Checker,
    pub expected: Verdict,
    pub scenario: Option<&'static str>,
    pub bound: Option<usize>,
    pub note: &'static str,
}

impl ExpectedCell {
    pub fn key(&self) -> String {
        run_key(
            self.contract,
            self.variant,
            self.outcome,
            self.checker,
            self.scenario,
        )
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_j_cell_is_keyed_by_its_replay() {
        let key = run_key("dead-node", "P2", "O3", Checker::Real, Some("DN_O3R"));
        assert_eq!(key, "dead-node/P2/O3/real:DN_O3R");
        assert!(is_real_key(&key) && is_real_key("P2/O3/real:DN_O3R"));
        let loom = run_key("dead-node", "P2", "O3", Checker::Loom, Some("a-scenario"));
        assert_eq!(loom, "dead-node/P2/O3/loom");
        assert!(!is_real_key(&loom));
    }
}
