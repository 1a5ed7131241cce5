//! Premises: statements about the upstream Java code that a contract's model rests on. Each is
//! checked by one JUnit test on the released jar in `conformance/` (named by the premise's id),
//! run by `cargo xtask conformance`. A premise lists the claimed cells whose verdict depends on
//! it: a premise that does not hold on the real class marks those cells as deviations.
//!
//! Replays of upstream counterexamples on the real classes are premises too: their statement
//! is that the outcome is reached there, and their cells are the `upstream` cells of that
//! outcome.
//!
//! Each contract lists its premises in `contracts/<contract>/premises.rs` as `PREMISES`; the
//! registry gathers them ([`crate::registry::premises`]).

/// One statement about the upstream code, with the cells that rest on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Premise {
    /// `RR_P1`: the JUnit test that checks it is `RR_P1_<words>` (the id, then `_`).
    pub id: &'static str,
    /// The upstream method the statement is about (`Class.method`).
    pub upstream: &'static str,
    /// The released artifact the test runs on (`hadoop-hdfs 3.5.0`).
    pub jar: &'static str,
    pub statement: &'static str,
    /// Cell keys (`contract/variant/outcome/checker`) whose verdict rests on the statement.
    pub cells: &'static [&'static str],
    /// Whether the method under test differs between `jar` and the model's baseline, and
    /// whether a verdict depends on the difference.
    pub versus_baseline: &'static str,
    /// Why no test can run it, when none can (a method in no release): reported as the
    /// reason, never as a silent "not run".
    pub not_run: Option<&'static str>,
}

/// Headline cells no replay on a released jar can decide, and why: an outcome (every row of
/// it, or the rows named) whose mechanism no release holds. Race outcomes need no entry: a data
/// race is found by a search of the unmodified classes, not driven by a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoReplay {
    pub outcome: &'static str,
    /// The rows it covers; empty for every row.
    pub variants: &'static [&'static str],
    pub why: &'static str,
}

/// A replay whose runs the model cannot follow, with why: the order it drives on the real
/// classes is not one any scenario file can state, or a model gap is kept open (its
/// DESIGN-NOTES say why). Its traces are still validated: a divergence is then listed with this
/// reason, not a failure, and a declaration none of whose traces diverge is stale (the gate
/// fails until it is removed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unvalidated {
    pub replay: &'static str,
    pub why: &'static str,
}

impl NoReplay {
    pub fn covers(&self, variant: &str, outcome: &str) -> bool {
        self.outcome == outcome && (self.variants.is_empty() || self.variants.contains(&variant))
    }
}

/// A premise whose jar has not been compared with the model's baseline yet.
pub const UNCOMPARED: &str = "not compared with the baseline yet";

/// Whether `id` names a replay of a counterexample (`RR_O5`, `DN_R1`): its outcome after the
/// contract's prefix.
pub fn is_replay_id(id: &str) -> bool {
    id.split_once('_')
        .is_some_and(|(_, rest)| rest.starts_with(['O', 'R']))
}

impl Premise {
    /// A replay of a counterexample on the real classes, whose verdicts are J cells.
    pub fn is_replay(&self) -> bool {
        is_replay_id(self.id)
    }

    /// Whether `test` (a JUnit method name) is this premise's test.
    pub fn is_test(&self, test: &str) -> bool {
        test.strip_prefix(self.id)
            .is_some_and(|rest| rest.starts_with('_'))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_test_is_named_by_its_id() {
        let p = super::Premise {
            id: "RR_P1",
            upstream: "Class.method",
            jar: "a jar",
            statement: "a statement",
            cells: &[],
            versus_baseline: super::UNCOMPARED,
            not_run: None,
        };
        assert!(p.is_test("RR_P1_schedulerOverwritesPendingFbr"));
        assert!(!p.is_test("RR_P10_other"));
        assert!(!p.is_test("RR_P1"));
    }
}
