//! Observed results, their comparison with the expected matrix, and the printed matrix.
//!
//! Test processes save one record per checked cell or reproduction into the directory named by
//! `RACELAB_RESULTS` (nothing is saved when it is unset); the gate reads them back, so a result
//! is never lost because the test that produced it failed.

use crate::claims::{cell_key, Checker, ExpectedCell, Verdict};
use crate::json::Json;
use crate::model::Contract;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

pub const RESULTS_ENV: &str = "RACELAB_RESULTS";

/// What a checker observed for one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct CellResult {
    pub contract: String,
    pub report: String,
    pub variant: String,
    pub parts: Vec<String>,
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
    pub seconds: f64,
    /// The counterexample, one line per step, for a reachable cell.
    pub timeline: Vec<String>,
    pub note: String,
}

impl CellResult {
    /// A result for `cell`, to be completed by the checker.
    pub fn for_cell(cell: &ExpectedCell, observed: Verdict) -> CellResult {
        CellResult {
            contract: cell.contract.into(),
            report: cell.report.into(),
            variant: cell.variant.into(),
            parts: cell.parts.iter().map(|p| p.to_string()).collect(),
            outcome: cell.outcome.into(),
            checker: cell.checker,
            expected: cell.expected,
            observed,
            executions: None,
            cases: None,
            preemption_bound: cell.bound,
            scenario: cell.scenario.map(str::to_owned),
            seconds: 0.0,
            timeline: Vec::new(),
            note: cell.note.into(),
        }
    }

    pub fn key(&self) -> String {
        cell_key(
            &self.contract,
            &self.variant,
            &self.outcome,
            self.checker.as_str(),
        )
    }

    pub fn to_json(&self) -> Json {
        Json::obj([
            ("contract", Json::str(&self.contract)),
            ("report", Json::str(&self.report)),
            ("variant", Json::str(&self.variant)),
            ("parts", Json::strs(&self.parts)),
            ("outcome", Json::str(&self.outcome)),
            ("checker", Json::str(self.checker.as_str())),
            ("expected", Json::str(self.expected.as_str())),
            ("observed", Json::str(self.observed.as_str())),
            (
                "executions",
                Json::opt_num(self.executions.map(|n| n as f64)),
            ),
            ("cases", Json::opt_num(self.cases.map(|n| n as f64))),
            (
                "preemption_bound",
                Json::opt_num(self.preemption_bound.map(|n| n as f64)),
            ),
            (
                "scenario",
                self.scenario.as_deref().map_or(Json::Null, Json::str),
            ),
            (
                "seconds",
                Json::Num((self.seconds * 1000.0).round() / 1000.0),
            ),
            ("timeline", Json::strs(&self.timeline)),
            ("note", Json::str(&self.note)),
        ])
    }

    pub fn from_json(j: &Json) -> Result<CellResult, String> {
        let s = |k: &str| field_str(j, k);
        let n = |k: &str| j.get(k).and_then(Json::as_f64);
        let verdict = |k: &str| Verdict::parse(&s(k)?).ok_or(format!("bad verdict in {k}"));
        Ok(CellResult {
            contract: s("contract")?,
            report: s("report")?,
            variant: s("variant")?,
            parts: strings(j, "parts")?,
            outcome: s("outcome")?,
            checker: Checker::parse(&s("checker")?).ok_or("bad checker")?,
            expected: verdict("expected")?,
            observed: verdict("observed")?,
            executions: n("executions").map(|x| x as u64),
            cases: n("cases").map(|x| x as u64),
            preemption_bound: n("preemption_bound").map(|x| x as usize),
            scenario: j.get("scenario").and_then(Json::as_str).map(str::to_owned),
            seconds: n("seconds").unwrap_or(0.0),
            timeline: strings(j, "timeline")?,
            note: s("note")?,
        })
    }

    /// Saves the record for the gate when `RACELAB_RESULTS` is set.
    pub fn save(&self) {
        save_record(&format!("cell-{}", self.key()), &self.to_json());
    }

    /// One progress line.
    pub fn summary(&self) -> String {
        let mark = if self.observed == self.expected {
            "ok "
        } else {
            "DEVIATES"
        };
        let work = match (self.executions, self.cases) {
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

/// What the model produced for an observable result a report gives.
#[derive(Clone, Debug, PartialEq)]
pub struct ReproductionResult {
    pub contract: String,
    pub report: String,
    pub what: String,
    pub expected: String,
    pub observed: String,
}

impl ReproductionResult {
    pub fn matches(&self) -> bool {
        self.expected == self.observed
    }

    pub fn to_json(&self) -> Json {
        Json::obj([
            ("contract", Json::str(&self.contract)),
            ("report", Json::str(&self.report)),
            ("what", Json::str(&self.what)),
            ("expected", Json::str(&self.expected)),
            ("observed", Json::str(&self.observed)),
        ])
    }

    pub fn from_json(j: &Json) -> Result<ReproductionResult, String> {
        Ok(ReproductionResult {
            contract: field_str(j, "contract")?,
            report: field_str(j, "report")?,
            what: field_str(j, "what")?,
            expected: field_str(j, "expected")?,
            observed: field_str(j, "observed")?,
        })
    }

    pub fn save(&self) {
        save_record(
            &format!("repro-{}-{}", self.contract, self.what),
            &self.to_json(),
        );
    }
}

fn field_str(j: &Json, k: &str) -> Result<String, String> {
    j.get(k)
        .and_then(Json::as_str)
        .map(str::to_owned)
        .ok_or(format!("missing string field {k}"))
}

fn strings(j: &Json, k: &str) -> Result<Vec<String>, String> {
    let arr = j
        .get(k)
        .and_then(Json::as_array)
        .ok_or(format!("missing list field {k}"))?;
    arr.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or(format!("non-string in {k}"))
        })
        .collect()
}

fn save_record(name: &str, json: &Json) {
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
    // Written whole, then renamed, so the gate never reads half a record.
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&tmp, json.pretty()))
        .and_then(|()| std::fs::rename(&tmp, &path))
        .unwrap_or_else(|e| panic!("cannot save result {}: {e}", path.display()));
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
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let j = Json::parse(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("cell-") {
            cells.push(CellResult::from_json(&j).map_err(|e| format!("{}: {e}", p.display()))?);
        } else if name.starts_with("repro-") {
            repros.push(
                ReproductionResult::from_json(&j).map_err(|e| format!("{}: {e}", p.display()))?,
            );
        }
    }
    Ok((cells, repros))
}

/// An expected reproduction, for the gate.
#[derive(Clone, Debug)]
pub struct ExpectedReproduction {
    pub contract: &'static str,
    pub report: &'static str,
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
            Deviation::ReproductionMissing { contract, what } => {
                write!(f, "{contract} reproduction `{what}`: no result")
            }
        }
    }
}

/// The claims matrix: expectations joined with observations.
#[derive(Debug)]
pub struct Matrix {
    pub contracts: Vec<&'static Contract>,
    pub expected: Vec<ExpectedCell>,
    pub cells: Vec<CellResult>,
    pub reproductions: Vec<ReproductionResult>,
    pub deviations: Vec<Deviation>,
}

impl Matrix {
    pub fn build(
        contracts: Vec<&'static Contract>,
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
        }
    }

    pub fn is_clean(&self) -> bool {
        self.deviations.is_empty()
    }

    /// The grid for one contract: a row per variant, a column per outcome; each entry lists the
    /// observed verdicts by checker (`R` reachable, `-` unreachable, `!` where it deviates from
    /// the expected verdict, `?` where a claimed check has no result).
    pub fn grid(&self, contract: &Contract) -> String {
        let mut variants: Vec<&str> = Vec::new();
        for e in self.expected.iter().filter(|e| e.contract == contract.id) {
            if !variants.contains(&e.variant) {
                variants.push(e.variant);
            }
        }
        let outcomes: Vec<&str> = contract
            .outcomes
            .iter()
            .map(|o| o.id)
            .filter(|o| {
                self.expected
                    .iter()
                    .any(|e| e.contract == contract.id && e.outcome == *o)
            })
            .collect();
        let entry = |variant: &str, outcome: &str| -> String {
            let mut parts = Vec::new();
            for e in self.expected.iter().filter(|e| {
                e.contract == contract.id && e.variant == variant && e.outcome == outcome
            }) {
                let tag = checker_tag(e.checker);
                let s = match self.cells.iter().find(|c| c.key() == e.key()) {
                    None => format!("?{tag}"),
                    Some(c) => {
                        let v = if c.observed == Verdict::Reachable {
                            "R"
                        } else {
                            "-"
                        };
                        let bang = if c.observed == e.expected { "" } else { "!" };
                        format!("{bang}{v}{tag}")
                    }
                };
                parts.push(s);
            }
            parts.join(" ")
        };
        let rows: Vec<Vec<String>> = variants
            .iter()
            .map(|v| {
                let mut row = vec![v.to_string()];
                row.extend(outcomes.iter().map(|o| entry(v, o)));
                row
            })
            .collect();
        let mut header = vec!["variant".to_string()];
        header.extend(outcomes.iter().map(|o| o.to_string()));
        let widths: Vec<usize> = (0..header.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([header[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cols: &[String]| -> String {
            let cells: Vec<String> = cols
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}", w = *w))
                .collect();
            format!("  {}", cells.join("  ")).trim_end().to_owned()
        };
        let mut out = String::new();
        writeln!(out, "{}", line(&header)).ok();
        for r in &rows {
            writeln!(out, "{}", line(r)).ok();
        }
        out
    }

    /// The whole matrix as text: per contract its grid, the outcomes' meaning, the
    /// reproductions; then the deviations.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for c in &self.contracts {
            writeln!(out, "\n{} — {} — {}", c.id, c.report, c.title).ok();
            out.push_str(&self.grid(c));
            for o in c.outcomes {
                writeln!(out, "    {}  {}", o.id, o.summary).ok();
            }
            for r in self.reproductions.iter().filter(|r| r.contract == c.id) {
                let mark = if r.matches() { "ok" } else { "!!" };
                writeln!(out, "  {mark} reproduction: {} = {}", r.what, r.observed).ok();
            }
        }
        writeln!(
            out,
            "\n  legend: R reachable, - unreachable; checker L loom, P proptest, Q quickcheck, \
             F fuzz replay; ! deviates from the expected verdict, ? no result"
        )
        .ok();
        if self.deviations.is_empty() {
            writeln!(out, "\nevery cell and reproduction matches its claim").ok();
        } else {
            writeln!(out, "\n{} deviation(s):", self.deviations.len()).ok();
            for d in &self.deviations {
                writeln!(out, "  ✗ {d}").ok();
            }
        }
        out
    }

    /// The counterexample of every reachable variant × outcome (the first checker's, loom's
    /// where there is one: cells are in claim order).
    pub fn render_timelines(&self) -> String {
        let mut out = String::new();
        let mut shown = std::collections::BTreeSet::new();
        for c in self.cells.iter().filter(|c| !c.timeline.is_empty()) {
            if !shown.insert((&c.contract, &c.variant, &c.outcome)) {
                continue;
            }
            writeln!(
                out,
                "\n{} {} {} ({}{}):",
                c.contract,
                c.variant,
                c.outcome,
                c.checker.as_str(),
                c.scenario
                    .as_deref()
                    .map_or(String::new(), |s| format!(", scenario {s}"))
            )
            .ok();
            for l in &c.timeline {
                writeln!(out, "  {l}").ok();
            }
        }
        out
    }

    pub fn to_json(&self) -> Json {
        Json::obj([
            (
                "cells",
                Json::Arr(self.cells.iter().map(CellResult::to_json).collect()),
            ),
            (
                "reproductions",
                Json::Arr(
                    self.reproductions
                        .iter()
                        .map(ReproductionResult::to_json)
                        .collect(),
                ),
            ),
            (
                "deviations",
                Json::strs(
                    &self
                        .deviations
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>(),
                ),
            ),
        ])
    }

    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# racelab report\n");
        for c in &self.contracts {
            writeln!(
                out,
                "\n## {} — {} — {}\n\n```\n{}```\n",
                c.id,
                c.report,
                c.title,
                self.grid(c)
            )
            .ok();
            for o in c.outcomes {
                writeln!(out, "- **{}** {}", o.id, o.summary).ok();
            }
            writeln!(out, "\n| variant | outcome | checker | expected | observed | work | bound | seconds | note |\n|---|---|---|---|---|---|---|---|---|").ok();
            for r in self.cells.iter().filter(|r| r.contract == c.id) {
                let work = r
                    .executions
                    .map(|e| format!("{e} executions"))
                    .or(r.cases.map(|n| format!("{n} cases")))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} | {:.2} | {} |",
                    r.variant,
                    r.outcome,
                    r.checker.as_str(),
                    r.expected,
                    r.observed,
                    work,
                    r.preemption_bound.map_or("none".into(), |b| b.to_string()),
                    r.seconds,
                    r.note.replace('|', "\\|")
                )
                .ok();
            }
            let repros: Vec<_> = self
                .reproductions
                .iter()
                .filter(|r| r.contract == c.id)
                .collect();
            if !repros.is_empty() {
                writeln!(
                    out,
                    "\n| reproduction | report gives | model gives |\n|---|---|---|"
                )
                .ok();
                for r in repros {
                    writeln!(out, "| {} | `{}` | `{}` |", r.what, r.expected, r.observed).ok();
                }
            }
            for r in self
                .cells
                .iter()
                .filter(|r| r.contract == c.id && !r.timeline.is_empty())
            {
                writeln!(
                    out,
                    "\n### {} {} ({})\n\n```\n{}\n```",
                    r.variant,
                    r.outcome,
                    r.checker.as_str(),
                    r.timeline.join("\n")
                )
                .ok();
            }
        }
        writeln!(out, "\n## Deviations\n").ok();
        if self.deviations.is_empty() {
            writeln!(out, "None: every cell and reproduction matches its claim.").ok();
        }
        for d in &self.deviations {
            writeln!(out, "- {d}").ok();
        }
        out
    }
}

fn checker_tag(c: Checker) -> &'static str {
    match c {
        Checker::Loom => "L",
        Checker::Proptest => "P",
        Checker::Quickcheck => "Q",
        Checker::FuzzReplay => "F",
        Checker::Fuzz => "Z",
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::registry;

    fn leader_ready() -> (Vec<&'static Contract>, Vec<ExpectedCell>) {
        let e = registry::find("leader-ready").unwrap_or_else(|_| panic!("registered"));
        (vec![e.contract], e.cells)
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
        assert!(
            m.grid(m.contracts[0]).contains("!RL"),
            "{}",
            m.grid(m.contracts[0])
        );
    }

    #[test]
    fn records_round_trip_through_json() {
        let (_, expected) = leader_ready();
        let mut r = CellResult::for_cell(&expected[0], Verdict::Reachable);
        r.executions = Some(145);
        r.timeline = vec!["  1  apply  X.y  z".into()];
        assert_eq!(CellResult::from_json(&r.to_json()), Ok(r));
    }
}
