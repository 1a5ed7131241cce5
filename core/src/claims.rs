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
    /// reads (the verdict and the count unchanged) changes it. `path` marks a *path cell*
    /// ([`Method::loom_path`]): about one failure path, on its own scenario, keyed by it.
    Loom {
        scenario: &'static Scenario<M>,
        bound: Option<usize>,
        executions: u64,
        final_states: Option<u64>,
        path: bool,
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
            path: false,
        }
    }

    /// A *path cell*: every interleaving of `scenario`, a scenario about one failure path of
    /// the row's outcome (where the row's own cell of that outcome, on its headline scenario,
    /// shows only that some path reaches it). Its key names the scenario
    /// (`…/O5/loom:SCENARIO`, its steps twin's `…/O5/steps:SCENARIO`), so a row may hold one
    /// per path beside its headline cell; the headline matrix leaves it out, report.md lists it
    /// under "Failure paths". An unreachable one needs the same scenario reaching the outcome in
    /// some variant, and pins its final states, as every loom cell does.
    pub const fn loom_path(scenario: &'static Scenario<M>, executions: u64) -> Self {
        Method::Loom {
            scenario,
            bound: None,
            executions,
            final_states: None,
            path: true,
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
            path: false,
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
                path,
                ..
            } => Method::Loom {
                scenario,
                bound,
                executions,
                final_states: Some(hash),
                path,
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

    /// Whether this is a path cell ([`Method::loom_path`]).
    pub fn is_path(&self) -> bool {
        matches!(self, Method::Loom { path: true, .. })
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
    /// (`…/real:REPLAY` for a J cell, `…/loom:SCENARIO` for a path cell).
    pub fn key(&self) -> String {
        let scenario = match (&self.method, self.method.loom_scenario()) {
            (_, Some((s, _))) => Some(s.name),
            (Method::Real { replay }, None) => Some(*replay),
            _ => None,
        };
        run_key(
            M::CONTRACT.id,
            self.variant,
            self.outcome.id,
            self.checker(),
            keying_run(self.checker(), scenario, self.is_path()),
        )
    }

    /// Whether this is a path cell ([`Method::loom_path`]).
    pub fn is_path(&self) -> bool {
        self.method.is_path()
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
            path: self.method.is_path(),
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
/// cell's: its checker part is `real:REPLAY` ([`run_key`]). The checker part is the word
/// before the key's first `:` (a run, a replay's or a path cell's scenario, may itself hold
/// `/` and `:`; a contract, a variant and an outcome hold neither), so a path cell
/// (`…/loom:SCENARIO`) is never taken for one.
pub fn is_real_key(key: &str) -> bool {
    key.split_once(':')
        .is_some_and(|(head, _)| head.rsplit('/').next() == Some(Checker::Real.as_str()))
}

/// A cell's key with its run, the run that keys it when there is one: a J cell is one
/// replay's verdict, so several replays (several orders) can decide the same row and outcome,
/// each its own cell (`…/O3/real:DN_O3`); a path cell ([`Method::loom_path`]) is one failure
/// path's scenario, beside the row's headline cell of that outcome (`…/O5/loom:SCENARIO`, its
/// steps twin `…/O5/steps:SCENARIO`). `run` is `None` for every other cell
/// ([`ExpectedCell::run`]).
pub fn run_key(
    contract: &str,
    variant: &str,
    outcome: &str,
    checker: Checker,
    run: Option<&str>,
) -> String {
    let key = cell_key(contract, variant, outcome, checker);
    match run {
        Some(run) => format!("{key}:{run}"),
        None => key,
    }
}

/// The run that keys a cell ([`run_key`]): a J cell's replay, a path cell's scenario (its loom
/// cell's and its steps twin's); `None` for every other cell, whose key is its row, outcome
/// and checker alone.
pub fn keying_run(checker: Checker, scenario: Option<&str>, path: bool) -> Option<&str> {
    match checker {
        Checker::Real => scenario,
        Checker::Loom | Checker::Steps if path => scenario,
        _ => None,
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
/// its switches mutated ([`Mutant::fix`]) must deviate at `caught_by`: at the row's headline
/// cell of that outcome, or, when `caught_at` names a scenario, at the row's path cell on it.
pub struct Mutant<M: Model> {
    pub name: &'static str,
    pub variant: &'static str,
    /// The slip, applied after the variant's parts: like a part's `on`, it only sets switches
    /// (a broken part's, or a whole broken design's).
    pub mutate: fn(M::Fix) -> M::Fix,
    pub caught_by: &'static Outcome<M::World>,
    /// The scenario of the path cell ([`Method::loom_path`]) that catches it: the mutant breaks
    /// that one failure path, and must deviate at that cell. `None`: the row's headline cell.
    pub caught_at: Option<&'static Scenario<M>>,
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

    /// Whether `c` is the loom cell that must catch the mutant: its variant's, at `caught_by`,
    /// the path cell on `caught_at` when it names one, else the headline cell.
    pub fn is_caught_at(&self, c: &Claim<M>) -> bool {
        c.variant == self.variant
            && c.outcome.id == self.caught_by.id
            && match (self.caught_at, c.method.loom_scenario()) {
                (_, None) => false,
                (Some(at), Some((s, _))) => c.is_path() && std::ptr::eq(at, s),
                (None, Some(_)) => !c.is_path(),
            }
    }

    /// Where the mutant is caught, as the loom cell's key would name it (`VARIANT/OUTCOME/loom`,
    /// `…/loom:SCENARIO` at a path cell).
    pub fn catching_key(&self) -> String {
        run_key(
            M::CONTRACT.id,
            self.variant,
            self.caught_by.id,
            Checker::Loom,
            self.caught_at.map(|s| s.name),
        )
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
    /// A path cell's loom cell or steps twin ([`Method::loom_path`]): keyed by its scenario,
    /// out of the headline matrix.
    pub path: bool,
    pub note: &'static str,
}

impl ExpectedCell {
    pub fn key(&self) -> String {
        run_key(
            self.contract,
            self.variant,
            self.outcome,
            self.checker,
            self.run(),
        )
    }

    /// The run that keys the cell ([`keying_run`]).
    pub fn run(&self) -> Option<&'static str> {
        keying_run(self.checker, self.scenario, self.path)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn cell(checker: Checker, scenario: &'static str, path: bool) -> ExpectedCell {
        ExpectedCell {
            contract: "dead-node",
            report: "HDDS-1",
            variant: "P2",
            parts: vec!["P2"],
            baseline: "report",
            outcome: "O3",
            checker,
            expected: Verdict::Unreachable,
            scenario: Some(scenario),
            bound: None,
            path,
            note: "",
        }
    }

    #[test]
    fn a_j_cell_is_keyed_by_its_replay() {
        let key = run_key("dead-node", "P2", "O3", Checker::Real, Some("DN_O3R"));
        assert_eq!(key, "dead-node/P2/O3/real:DN_O3R");
        assert_eq!(cell(Checker::Real, "DN_O3R", false).key(), key);
        assert!(is_real_key(&key) && is_real_key("P2/O3/real:DN_O3R"));
        // a headline loom cell is keyed by its row and outcome alone, whatever its scenario
        let loom = cell(Checker::Loom, "a-scenario", false).key();
        assert_eq!(loom, "dead-node/P2/O3/loom");
        assert_eq!(
            cell(Checker::Steps, "a-scenario", false).key(),
            "dead-node/P2/O3/steps"
        );
        assert!(!is_real_key(&loom));
    }

    /// A path cell's loom cell and steps twin are keyed by their scenario, beside the row's
    /// headline cells of that outcome, and neither is taken for a J cell, even where the
    /// scenario's name holds a `/` or reads like a checker.
    #[test]
    fn a_path_cell_is_keyed_by_its_scenario() {
        let loom = cell(Checker::Loom, "falls-through", true);
        assert_eq!(loom.key(), "dead-node/P2/O3/loom:falls-through");
        assert_eq!(loom.run(), Some("falls-through"));
        assert_eq!(
            cell(Checker::Steps, "falls-through", true).key(),
            "dead-node/P2/O3/steps:falls-through"
        );
        assert_ne!(
            loom.key(),
            cell(Checker::Loom, "falls-through", false).key()
        );
        for key in [
            loom.key(),
            cell(Checker::Steps, "double-register/real:x", true).key(),
            "P2/O3/loom:a/real:b".to_owned(),
        ] {
            assert!(!is_real_key(&key), "{key} is taken for a J cell");
        }
        // a path flag means nothing to the other checkers
        let mut history = cell(Checker::Proptest, "x", true);
        history.scenario = None;
        assert_eq!(history.key(), "dead-node/P2/O3/proptest");
    }
}
