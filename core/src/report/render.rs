//! The matrix as people read it: the grid per contract, the counterexamples, the text report,
//! report.md and report.json.

use super::compare::{Deviation, Matrix};
use super::results::{CellResult, Step};
use super::View;
use crate::claims::{Checker, ExpectedCell, Verdict};
use std::fmt::Write;

/// The version of report.json's shape; bumped when a field changes meaning.
pub const SCHEMA_VERSION: u32 = 2;

/// A counterexample as a Mermaid `sequenceDiagram` (GitHub draws it in report.md): the threads
/// as participants, each step a message of its thread, the violation as a note.
pub fn sequence_diagram(events: &[Step], violation: Option<&str>) -> String {
    // Mermaid reads `;` as a line break and `#` as an entity; `:` ends a message's arrow part.
    let text = |s: &str| {
        s.chars()
            .fold(String::with_capacity(s.len()), |mut out, c| {
                match c {
                    '#' => out.push_str("#35;"),
                    ';' => out.push_str("#59;"),
                    c => out.push(c),
                }
                out
            })
    };
    let mut threads: Vec<&str> = Vec::new();
    for e in events {
        if !threads.contains(&e.thread.as_str()) {
            threads.push(&e.thread);
        }
    }
    // Thread names may hold spaces and dashes ("dn1 RaftServer-RPC"), which Mermaid's
    // participant ids cannot: each thread is `tN` with its name as the alias.
    let id = |thread: &str| threads.iter().position(|t| *t == thread).unwrap_or(0);
    let mut out = String::from("sequenceDiagram\n");
    for (i, t) in threads.iter().enumerate() {
        writeln!(out, "    participant t{i} as {}", text(t)).ok();
    }
    for e in events {
        writeln!(
            out,
            "    t{n}->>t{n}: {}. {}: {}",
            e.step,
            text(&e.method),
            text(&e.detail),
            n = id(&e.thread)
        )
        .ok();
    }
    if let Some(v) = violation {
        if !threads.is_empty() {
            writeln!(out, "    Note over t0,t{}: {}", threads.len() - 1, text(v)).ok();
        }
    }
    out
}

/// What a contract's grid shows: its expected cells, its variants (rows) and the outcomes
/// that have a cell (columns), in claim and contract order.
struct Layout<'a> {
    mine: Vec<&'a ExpectedCell>,
    /// Each row's variant and the baseline it is built on.
    variants: Vec<(&'static str, &'static str)>,
    outcomes: Vec<&'static str>,
}

impl Matrix {
    fn layout(&self, contract: &View) -> Layout<'_> {
        let mine: Vec<&ExpectedCell> = self
            .expected
            .iter()
            .filter(|e| e.contract == contract.id)
            .collect();
        let mut variants: Vec<(&'static str, &'static str)> = Vec::new();
        for e in &mine {
            if !variants.iter().any(|(v, _)| *v == e.variant) {
                variants.push((e.variant, e.baseline));
            }
        }
        let outcomes = contract
            .outcomes
            .iter()
            .map(|(id, _)| *id)
            .filter(|o| mine.iter().any(|e| e.outcome == *o))
            .collect();
        Layout {
            mine,
            variants,
            outcomes,
        }
    }

    /// The grid for one contract: a row per variant, a column per outcome; each entry lists the
    /// observed verdicts by checker (`R` reachable, `-` unreachable, `!` where it deviates from
    /// the expected verdict, `?` where a claimed check has no result).
    pub fn grid(&self, contract: &View) -> String {
        let Layout {
            mine,
            variants,
            outcomes,
        } = self.layout(contract);
        let entry = |variant: &str, outcome: &str| -> String {
            let marks: Vec<String> = mine
                .iter()
                .filter(|e| e.variant == variant && e.outcome == outcome)
                .map(|e| {
                    let tag = e.checker.tag();
                    match self.observed(e) {
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
                    }
                })
                .collect();
            let mut marks = marks;
            marks.extend(
                self.real_code_mark(contract.id, variant, outcome)
                    .map(String::from),
            );
            marks.join(" ")
        };
        let mut rows = vec![{
            let mut header = vec!["variant".to_string(), "baseline".to_string()];
            header.extend(outcomes.iter().map(|o| o.to_string()));
            header
        }];
        rows.extend(variants.iter().map(|(v, b)| {
            let mut row = vec![v.to_string(), b.to_string()];
            row.extend(outcomes.iter().map(|o| entry(v, o)));
            row
        }));
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for r in &rows {
            let cells: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            writeln!(out, "{}", format!("  {}", cells.join("  ")).trim_end()).ok();
        }
        out
    }

    /// The grid as a Markdown table: per checker, ✅ where the observed verdict is the claim's,
    /// ❌ where it deviates, ❓ where the check did not run; `R`/`–` is the verdict, then the
    /// checker's letter and its work (executions, schedules or cases).
    pub fn markdown_grid(&self, contract: &View) -> String {
        let Layout {
            mine,
            variants,
            outcomes,
        } = self.layout(contract);
        let mut out = format!(
            "| variant | baseline | {} |\n|---|---|{}\n",
            outcomes.join(" | "),
            "---|".repeat(outcomes.len())
        );
        for (v, b) in &variants {
            let entries: Vec<String> = outcomes
                .iter()
                .map(|o| {
                    let marks: Vec<String> = mine
                        .iter()
                        .filter(|e| e.variant == *v && e.outcome == *o)
                        .map(|e| match self.observed(e) {
                            None => format!("❓{}", e.checker.tag()),
                            Some(c) => {
                                let mark = if c.observed == e.expected {
                                    "✅"
                                } else {
                                    "❌"
                                };
                                let verdict = if c.observed == Verdict::Reachable {
                                    "R"
                                } else {
                                    "–"
                                };
                                let work = c
                                    .schedules
                                    .or(c.executions)
                                    .or(c.cases)
                                    .map_or(String::new(), |n| format!(" {n}"));
                                format!("{mark}{verdict}{}{work}", e.checker.tag())
                            }
                        })
                        .collect();
                    let mut marks = marks;
                    marks.extend(
                        self.real_code_mark(contract.id, v, o)
                            .map(|m| format!("{m} (replay)")),
                    );
                    marks.join("<br>")
                })
                .collect();
            writeln!(out, "| {v} | {b} | {} |", entries.join(" | ")).ok();
        }
        let mut bounded: Vec<String> = mine
            .iter()
            .filter(|e| e.checker == Checker::Loom)
            .filter_map(|e| {
                e.bound
                    .map(|b| format!("{} {} (bound {b})", e.variant, e.outcome))
            })
            .collect();
        bounded.dedup();
        let bounds = if bounded.is_empty() {
            "Every loom cell is unbounded.".to_owned()
        } else {
            format!(
                "Loom cells with a preemption bound: {}; every other is unbounded.",
                bounded.join(", ")
            )
        };
        writeln!(
            out,
            "\n✅ as claimed, ❌ deviates, ❓ no result; R reachable, – unreachable; L loom \
             (executions), S every order of whole steps (schedules), P proptest, Q quickcheck, \
             F fuzz corpus replay (cases), J a replay on the released jar's classes. {bounds}\n"
        )
        .ok();
        for b in &contract.baselines {
            writeln!(
                out,
                "- baseline `{}`: [{}@{}]({}): {}",
                b.name, b.repo, b.commit, b.url, b.about
            )
            .ok();
        }
        out.push('\n');
        out
    }

    /// The whole matrix as text: per contract its grid, the outcomes' meaning, the
    /// reproductions; then the deviations.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for c in &self.contracts {
            writeln!(out, "\n{} — {} — {}", c.id, c.report, c.title).ok();
            out.push_str(&self.grid(c));
            for b in &c.baselines {
                writeln!(
                    out,
                    "    baseline {}: {}@{}  {}",
                    b.name, b.repo, b.commit, b.about
                )
                .ok();
            }
            for (id, summary) in &c.outcomes {
                writeln!(out, "    {id}  {summary}").ok();
            }
            for r in self.reproductions.iter().filter(|r| r.contract == c.id) {
                let mark = if r.matches() { "ok" } else { "!!" };
                writeln!(out, "  {mark} reproduction: {} = {}", r.what, r.observed).ok();
            }
            for p in self.premises(c.id) {
                writeln!(
                    out,
                    "  premise {} on {}: {}",
                    p.id,
                    p.jar,
                    p.result.as_str()
                )
                .ok();
            }
        }
        writeln!(
            out,
            "\n  legend: R reachable, - unreachable; checker L loom, S every order of whole steps, \
             P proptest, Q quickcheck, F fuzz replay, J replay on the released jar; ! deviates from the expected verdict, ? no result"
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
            let scenario = c
                .scenario
                .as_deref()
                .map_or(String::new(), |s| format!(", scenario {s}"));
            writeln!(
                out,
                "\n{} {} {} ({}{scenario}):",
                c.contract,
                c.variant,
                c.outcome,
                c.checker.as_str()
            )
            .ok();
            for l in &c.timeline {
                writeln!(out, "  {l}").ok();
            }
        }
        out
    }

    /// The premises of `contract` on the released jars, as a Markdown table (empty when
    /// conformance did not run); or why nothing ran.
    pub fn premises_table(&self, contract: &str) -> String {
        let mut out = String::new();
        if let Some(why) = self.real_code.as_ref().and_then(|r| r.skipped.as_deref()) {
            writeln!(out, "\nPremises on the released jars: not run ({why}).").ok();
            return out;
        }
        let premises = self.premises(contract);
        if premises.is_empty() {
            return out;
        }
        writeln!(
            out,
            "\n| premise | upstream | jar | statement | result | cells |\n|---|---|---|---|---|---|"
        )
        .ok();
        for p in premises {
            writeln!(
                out,
                "| {} | `{}` | {} | {} | {} | {} |",
                p.id,
                p.upstream,
                p.jar,
                p.statement.replace('|', "\\|"),
                p.result.as_str(),
                p.cells.len()
            )
            .ok();
        }
        out
    }

    /// Every contract's findings, each with whether all its cells hold as claimed.
    fn findings_json(&self) -> Vec<serde_json::Value> {
        self.contracts
            .iter()
            .flat_map(|c| {
                c.findings.iter().map(move |f| {
                    let holds = !self.deviations.iter().any(|d| {
                        matches!(d, Deviation::Finding { contract, id, .. }
                            if contract == c.id && id == f.id)
                    });
                    serde_json::json!({
                        "contract": c.id,
                        "id": f.id,
                        "kind": f.kind,
                        "statement": f.statement,
                        "cells": f.cells.iter().map(|k| c.cell_key(k)).collect::<Vec<_>>(),
                        "holds": holds,
                    })
                })
            })
            .collect()
    }

    /// report.json.
    pub fn to_json(&self) -> String {
        let report = serde_json::json!({
            "schema_version": SCHEMA_VERSION,
            "baselines": self.contracts.iter().flat_map(|c| &c.baselines).collect::<Vec<_>>(),
            "findings": self.findings_json(),
            "real_code": self.real_code,
            "cells": self.cells,
            "reproductions": self.reproductions,
            "deviations": self.deviations.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        });
        serde_json::to_string_pretty(&report).expect("the report serializes")
    }

    /// report.md: the matrices, every cell, and each counterexample as a timeline and a
    /// sequence diagram.
    pub fn to_markdown(&self) -> String {
        self.markdown(true)
    }

    /// summary.md, for a CI job summary (GitHub takes at most 1 MiB there): report.md without
    /// the counterexamples but those of deviating cells.
    pub fn to_summary(&self) -> String {
        self.markdown(false)
    }

    fn markdown(&self, every_counterexample: bool) -> String {
        let mut out = String::from("# racelab report\n");
        for c in &self.contracts {
            writeln!(
                out,
                "\n## {} — {} — {}\n\n{}",
                c.id,
                c.report,
                c.title,
                self.markdown_grid(c)
            )
            .ok();
            for (id, summary) in &c.outcomes {
                writeln!(out, "- **{id}** {summary}").ok();
            }
            if !c.findings.is_empty() {
                writeln!(out, "\n**Findings**\n").ok();
                for f in c.findings {
                    let cells: Vec<String> = f.cells.iter().map(|k| format!("`{k}`")).collect();
                    writeln!(
                        out,
                        "- **{}** ({}): {} Cells: {}.",
                        f.id,
                        f.kind.as_str(),
                        f.statement,
                        cells.join(", ")
                    )
                    .ok();
                }
            }
            writeln!(
                out,
                "\n| variant | outcome | checker | expected | observed | work | bound | seconds | note |\n|---|---|---|---|---|---|---|---|---|"
            )
            .ok();
            for r in self.cells.iter().filter(|r| r.contract == c.id) {
                let work = r
                    .schedules
                    .map(|s| format!("{s} schedules"))
                    .or(r.executions.map(|e| match &r.explored_by {
                        Some(v) => format!("{e} executions (explored under {v})"),
                        None => format!("{e} executions"),
                    }))
                    .or(r.cases.map(|n| match &r.twin {
                        Some(t) => format!("{n} cases ({t})"),
                        None => format!("{n} cases"),
                    }))
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
            out.push_str(&self.premises_table(c.id));
            let shown = |r: &&CellResult| {
                r.contract == c.id
                    && !r.timeline.is_empty()
                    && (every_counterexample || r.observed != r.expected)
            };
            for r in self.cells.iter().filter(shown) {
                writeln!(
                    out,
                    "\n### {} {} ({})\n\n```\n{}\n```",
                    r.variant,
                    r.outcome,
                    r.checker.as_str(),
                    r.timeline.join("\n")
                )
                .ok();
                if !r.events.is_empty() {
                    let diagram = sequence_diagram(&r.events, r.violation.as_deref());
                    writeln!(out, "\n```mermaid\n{diagram}```").ok();
                }
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

#[cfg(test)]
mod tests {
    use super::{sequence_diagram, Step};

    fn step(step: usize, thread: &str, method: &str, detail: &str) -> Step {
        Step {
            step,
            thread: thread.into(),
            method: method.into(),
            detail: detail.into(),
            line: String::new(),
        }
    }

    #[test]
    fn threads_are_aliased_participants_and_text_is_escaped() {
        let events = [
            step(1, "dn1 RaftServer-RPC", "A.b", "x; y"),
            step(2, "scm", "C.d", "#1"),
            step(3, "dn1 RaftServer-RPC", "A.e", "done"),
        ];
        assert_eq!(
            sequence_diagram(&events, Some("O1: lost")),
            "sequenceDiagram\n    participant t0 as dn1 RaftServer-RPC\n    participant t1 as scm\n    \
             t0->>t0: 1. A.b: x#59; y\n    t1->>t1: 2. C.d: #35;1\n    t0->>t0: 3. A.e: done\n    \
             Note over t0,t1: O1: lost\n"
        );
    }
}
