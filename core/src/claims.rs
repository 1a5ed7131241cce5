//! The expected claims matrix, written once per contract as data beside its model.

use crate::model::{Model, OutcomeId, Scenario};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub fn parse(s: &str) -> Option<Verdict> {
        [Verdict::Reachable, Verdict::Unreachable]
            .into_iter()
            .find(|v| v.as_str() == s)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tool that checked a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Checker {
    Loom,
    Proptest,
    Quickcheck,
    FuzzReplay,
    Fuzz,
}

impl Checker {
    pub const ALL: [Checker; 5] = [
        Checker::Loom,
        Checker::Proptest,
        Checker::Quickcheck,
        Checker::FuzzReplay,
        Checker::Fuzz,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Checker::Loom => "loom",
            Checker::Proptest => "proptest",
            Checker::Quickcheck => "quickcheck",
            Checker::FuzzReplay => "fuzz-replay",
            Checker::Fuzz => "fuzz",
        }
    }
    pub fn parse(s: &str) -> Option<Checker> {
        Checker::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// How a cell is checked.
pub enum Method<M: Model> {
    /// Every interleaving of `scenario` (up to `bound` preemptions when set). `executions` is
    /// the pinned number of executions loom explores: a change means the model changed.
    Loom {
        scenario: &'static Scenario<M>,
        bound: Option<usize>,
        executions: u64,
    },
    /// Long generated histories through the step driver.
    Histories(Checker),
}

impl<M: Model> Method<M> {
    /// Every interleaving of `scenario`, unbounded, with its pinned execution count.
    pub const fn loom(scenario: &'static Scenario<M>, executions: u64) -> Self {
        Method::Loom {
            scenario,
            bound: None,
            executions,
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
        }
    }
}

/// One expected cell: what `variant` allows for `outcome`, and why the cell is there.
pub struct Claim<M: Model> {
    pub variant: &'static str,
    pub outcome: OutcomeId,
    pub expected: Verdict,
    pub method: Method<M>,
    /// Why the cell is there; where the report's claim disagrees with the verdict, say so.
    pub note: &'static str,
}

impl<M: Model> Claim<M> {
    pub fn checker(&self) -> Checker {
        match self.method {
            Method::Loom { .. } => Checker::Loom,
            Method::Histories(c) => c,
        }
    }

    /// The cell's identity in reports: `contract/variant/outcome/checker`.
    pub fn key(&self) -> String {
        cell_key(
            M::CONTRACT.id,
            self.variant,
            self.outcome,
            self.checker().as_str(),
        )
    }

    pub fn expectation(&self) -> ExpectedCell {
        let variant = M::variant(self.variant)
            .unwrap_or_else(|| panic!("claim names unknown variant {}", self.variant));
        let (scenario, bound) = match &self.method {
            Method::Loom {
                scenario, bound, ..
            } => (Some(scenario.name), *bound),
            Method::Histories(_) => (None, None),
        };
        ExpectedCell {
            contract: M::CONTRACT.id,
            report: M::CONTRACT.report,
            variant: self.variant,
            parts: variant.parts,
            outcome: self.outcome,
            checker: self.checker(),
            expected: self.expected,
            scenario,
            bound,
            note: self.note,
        }
    }
}

pub fn cell_key(contract: &str, variant: &str, outcome: &str, checker: &str) -> String {
    format!("{contract}/{variant}/{outcome}/{checker}")
}

/// An observable result the report gives (a state string, a count, a named test's verdict).
pub struct Reproduction {
    pub what: &'static str,
    /// The value the report gives.
    pub expected: &'static str,
    /// Runs the model and renders the same value.
    pub observe: fn() -> String,
}

/// A deliberately broken fix that the suite must catch: the matrix run with `fix` in place of
/// `variant`'s must deviate at `caught_by`.
pub struct Mutant<M: Model> {
    pub name: &'static str,
    pub variant: &'static str,
    pub fix: M::Fix,
    pub caught_by: OutcomeId,
    pub about: &'static str,
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
    pub parts: &'static [&'static str],
    pub outcome: OutcomeId,
    pub checker: Checker,
    pub expected: Verdict,
    pub scenario: Option<&'static str>,
    pub bound: Option<usize>,
    pub note: &'static str,
}

impl ExpectedCell {
    pub fn key(&self) -> String {
        cell_key(
            self.contract,
            self.variant,
            self.outcome,
            self.checker.as_str(),
        )
    }
}
