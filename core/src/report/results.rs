//! The result records: what a checker observed for one cell, or what the model produced for
//! one of a report's observable results.
//!
//! Test processes save one record per checked cell or reproduction into the directory named by
//! `RACELAB_RESULTS` (nothing is saved when it is unset); the gate reads them back, so a result
//! is never lost because the test that produced it failed.

use crate::claims::{keying_run, run_key, Checker, ExpectedCell, Reproduction, Verdict};
use crate::model::Contract;
use crate::trace::Timeline;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const RESULTS_ENV: &str = "RACELAB_RESULTS";

/// What a checker observed for one cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellResult {
    pub contract: String,
    pub report: String,
    pub variant: String,
    pub parts: Vec<String>,
    /// The baseline the variant is built on (report.json's `baselines` says which code).
    #[serde(default)]
    pub baseline: String,
    pub outcome: String,
    pub checker: Checker,
    pub expected: Verdict,
    pub observed: Verdict,
    /// Loom executions explored (until the counterexample, for a reachable cell).
    pub executions: Option<u64>,
    /// Generated cases run (property checkers).
    pub cases: Option<u64>,
    pub preemption_bound: Option<usize>,
    pub scenario: Option<String>,
    /// A path cell's result ([`crate::claims::Method::loom_path`]): keyed by its scenario, out
    /// of the headline matrix, listed under "Failure paths".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub path: bool,
    #[serde(serialize_with = "millis")]
    pub seconds: f64,
    /// The counterexample, one line per step, for a reachable cell.
    pub timeline: Vec<String>,
    /// The same counterexample as structured steps (what a sequence diagram is drawn from).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Step>,
    /// The violated predicate, for a reachable cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<String>,
    pub note: String,
    /// Schedules enumerated (the step checker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedules: Option<u64>,
    /// Every final state reached ([`crate::model::Model::describe`]), for an unreachable
    /// exhaustive cell: loom's and the step checker's must be the same set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_states: Option<Vec<String>>,
    /// For an unreachable loom cell: the [`final_states_hash`] of its final states (a deadlock
    /// cell's too, whose states stay in its child process). The cell pins it beside its
    /// execution count; `cargo xtask bless` re-pins it from here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_states_hash: Option<u64>,
    /// The variant whose loom exploration this cell's verdict comes from, when it is not the
    /// cell's own: one whose switches agree with the cell's on every switch that exploration
    /// read, so that it explored the same executions (see [`crate::switches`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explored_by: Option<String>,
    /// The counterexample as a scenario file (the step checker's), which `cargo xtask replay`
    /// runs again; `cargo xtask report` writes it to `target/racelab/counterexamples/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    /// For an unreachable history cell: the cell of the same checker (the same generator) that
    /// reaches the outcome under another variant, and the case at which it did; without one
    /// the search is not shown able to find the outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin: Option<String>,
}

/// The hash a loom cell pins of its set of final states ([`crate::model::Model::describe`] of
/// each execution's end state): 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3) over the distinct states in byte order, each followed by the byte 0xff (which
/// no UTF-8 text contains, so that no two sets share an input). Stable across runs, builds and
/// machines as long as the states are; not cryptographic: it guards against a change, not an
/// adversary.
pub fn final_states_hash<'a>(states: impl IntoIterator<Item = &'a str>) -> u64 {
    let sorted: std::collections::BTreeSet<&str> = states.into_iter().collect();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for state in sorted {
        for &b in state.as_bytes().iter().chain(&[0xff]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

fn millis<S: serde::Serializer>(s: &f64, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_f64((s * 1000.0).round() / 1000.0)
}

impl CellResult {
    /// A result for `cell`, to be completed by the checker.
    pub fn for_cell(cell: &ExpectedCell, observed: Verdict) -> CellResult {
        CellResult {
            contract: cell.contract.into(),
            report: cell.report.into(),
            variant: cell.variant.into(),
            parts: cell.parts.iter().map(|p| p.to_string()).collect(),
            baseline: cell.baseline.into(),
            outcome: cell.outcome.into(),
            checker: cell.checker,
            expected: cell.expected,
            observed,
            executions: None,
            cases: None,
            preemption_bound: cell.bound,
            scenario: cell.scenario.map(str::to_owned),
            path: cell.path,
            seconds: 0.0,
            timeline: Vec::new(),
            events: Vec::new(),
            violation: None,
            note: cell.note.into(),
            schedules: None,
            final_states: None,
            final_states_hash: None,
            explored_by: None,
            replay: None,
            twin: None,
        }
    }

    pub fn key(&self) -> String {
        run_key(
            &self.contract,
            &self.variant,
            &self.outcome,
            self.checker,
            keying_run(self.checker, self.scenario.as_deref(), self.path),
        )
    }

    /// A path cell's scenario; `None` for every other cell.
    pub fn path_scenario(&self) -> Option<&str> {
        self.scenario.as_deref().filter(|_| self.path)
    }

    /// Records `t` as the cell's counterexample: its lines, after any `header` lines (a
    /// history's operations, say), and its structured steps.
    pub fn set_counterexample(&mut self, header: Vec<String>, t: &Timeline) {
        self.timeline = header;
        self.timeline.extend(t.lines());
        self.events = t
            .events
            .iter()
            .zip(t.lines())
            .enumerate()
            .map(|(i, (e, line))| Step {
                step: i + 1,
                thread: e.actor.into(),
                method: e.method.into(),
                detail: e.detail.clone(),
                line,
            })
            .collect();
        self.violation = t.violation.clone();
    }

    /// Saves the record for the gate when `RACELAB_RESULTS` is set.
    pub fn save(&self) {
        save_record(&format!("cell-{}", self.key()), self);
    }

    /// One progress line.
    pub fn summary(&self) -> String {
        let mark = if self.observed == self.expected {
            "ok "
        } else {
            "DEVIATES"
        };
        let work = match (self.executions, self.cases) {
            _ if self.schedules.is_some() => {
                format!("{} schedules", self.schedules.unwrap_or(0))
            }
            (Some(e), _) if self.seconds > 0.0 => {
                format!("{e} executions, {:.0}/s", e as f64 / self.seconds)
            }
            (Some(e), _) => format!("{e} executions"),
            (_, Some(c)) => format!("{c} cases"),
            _ => String::new(),
        };
        let bound = self
            .preemption_bound
            .map_or(String::new(), |b| format!(", bound {b}"));
        format!(
            "{mark} {:<18} {:<10} {:<3} {:<11} {:<11} ({work}{bound}, {:.2} s)",
            self.contract,
            self.variant,
            self.outcome,
            self.checker.as_str(),
            self.observed.as_str(),
            self.seconds
        )
    }
}

/// One step of a counterexample: which thread ran which upstream method, what it read and
/// wrote, and the step as the text report prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub step: usize,
    pub thread: String,
    pub method: String,
    pub detail: String,
    pub line: String,
}

/// What the model produced for an observable result a report gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReproductionResult {
    pub contract: String,
    pub report: String,
    pub what: String,
    pub expected: String,
    pub observed: String,
}

impl ReproductionResult {
    /// Runs the model for `r`.
    pub fn of(contract: &Contract, r: &Reproduction) -> ReproductionResult {
        ReproductionResult {
            contract: contract.id.into(),
            report: contract.report.into(),
            what: r.what.into(),
            expected: r.expected.into(),
            observed: (r.observe)(),
        }
    }

    pub fn matches(&self) -> bool {
        self.expected == self.observed
    }

    pub fn save(&self) {
        save_record(&format!("repro-{}-{}", self.contract, self.what), self);
    }

    /// One progress line.
    pub fn summary(&self) -> String {
        let mark = if self.matches() { "ok " } else { "DEVIATES" };
        format!("{mark} {:<18} reproduction: {}", self.contract, self.what)
    }
}

/// A saved record: a cell or a reproduction.
#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Record {
    Cell(Box<CellResult>),
    Reproduction(ReproductionResult),
}

impl Record {
    pub fn summary(&self) -> String {
        match self {
            Record::Cell(c) => c.summary(),
            Record::Reproduction(r) => r.summary(),
        }
    }
}

fn save_record(name: &str, record: &impl Serialize) {
    let Some(dir) = std::env::var_os(RESULTS_ENV) else {
        return;
    };
    let file: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = Path::new(&dir).join(format!("{file}.json"));
    let tmp = path.with_extension("tmp");
    let json = serde_json::to_string_pretty(record).expect("a record serializes");
    // Written whole, then renamed, so the gate never reads half a record.
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&tmp, json))
        .and_then(|()| std::fs::rename(&tmp, &path))
        .unwrap_or_else(|e| panic!("cannot save result {}: {e}", path.display()));
}

/// Reads one saved record.
pub fn read_record(path: &Path) -> Result<Record, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every record saved in `dir`, in file-name order.
pub fn load_records(dir: &Path) -> Result<(Vec<CellResult>, Vec<ReproductionResult>), String> {
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    paths.retain(|p| p.extension().is_some_and(|x| x == "json"));
    paths.sort();
    let (mut cells, mut repros) = (Vec::new(), Vec::new());
    for p in paths {
        match read_record(&p)? {
            Record::Cell(c) => cells.push(*c),
            Record::Reproduction(r) => repros.push(r),
        }
    }
    Ok((cells, repros))
}

#[cfg(test)]
mod tests {
    use super::final_states_hash;

    #[test]
    fn the_final_states_hash_is_fnv1a_over_the_sorted_distinct_states() {
        // Values from an independent implementation (Python, the definition in the doc).
        assert_eq!(final_states_hash(["counter=2"]), 0xfd00_1628_7216_5885);
        assert_eq!(final_states_hash(["counter=4"]), 0xfd14_1628_7227_018f);
        assert_eq!(final_states_hash(["b", "a", "b"]), 0xd2b3_7181_9297_f98a);
        assert_eq!(final_states_hash(["ab"]), 0xe720_2e19_0542_452f);
        assert_eq!(
            final_states_hash([]),
            0xcbf2_9ce4_8422_2325,
            "the empty set"
        );
    }
}
