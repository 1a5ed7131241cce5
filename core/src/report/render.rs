//! The matrix as people read it: the grid per contract, the counterexamples, the text report,
//! report.md and report.json.

use super::compare::Matrix;
use super::View;
use crate::claims::Verdict;
use std::fmt::Write;

/// The version of report.json's shape; bumped when a field changes meaning.
pub const SCHEMA_VERSION: u32 = 1;

impl Matrix {
    /// The grid for one contract: a row per variant, a column per outcome; each entry lists the
    /// observed verdicts by checker (`R` reachable, `-` unreachable, `!` where it deviates from
    /// the expected verdict, `?` where a claimed check has no result).
    pub fn grid(&self, contract: &View) -> String {
        let mine: Vec<_> = self
            .expected
            .iter()
            .filter(|e| e.contract == contract.id)
            .collect();
        let mut variants: Vec<&str> = Vec::new();
        for e in &mine {
            if !variants.contains(&e.variant) {
                variants.push(e.variant);
            }
        }
        let outcomes: Vec<&str> = contract
            .outcomes
            .iter()
            .map(|(id, _)| *id)
            .filter(|o| mine.iter().any(|e| e.outcome == *o))
            .collect();
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
            marks.join(" ")
        };
        let mut rows = vec![{
            let mut header = vec!["variant".to_string()];
            header.extend(outcomes.iter().map(|o| o.to_string()));
            header
        }];
        rows.extend(variants.iter().map(|v| {
            let mut row = vec![v.to_string()];
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

    /// The whole matrix as text: per contract its grid, the outcomes' meaning, the
    /// reproductions; then the deviations.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for c in &self.contracts {
            writeln!(out, "\n{} — {} — {}", c.id, c.report, c.title).ok();
            out.push_str(&self.grid(c));
            for (id, summary) in &c.outcomes {
                writeln!(out, "    {id}  {summary}").ok();
            }
            for r in self.reproductions.iter().filter(|r| r.contract == c.id) {
                let mark = if r.matches() { "ok" } else { "!!" };
                writeln!(out, "  {mark} reproduction: {} = {}", r.what, r.observed).ok();
            }
        }
        writeln!(
            out,
            "\n  legend: R reachable, - unreachable; checker L loom, S every order of whole steps, \
             P proptest, Q quickcheck, F fuzz replay; ! deviates from the expected verdict, ? no result"
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

    /// report.json.
    pub fn to_json(&self) -> String {
        let report = serde_json::json!({
            "schema_version": SCHEMA_VERSION,
            "cells": self.cells,
            "reproductions": self.reproductions,
            "deviations": self.deviations.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        });
        serde_json::to_string_pretty(&report).expect("the report serializes")
    }

    /// report.md.
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
            for (id, summary) in &c.outcomes {
                writeln!(out, "- **{id}** {summary}").ok();
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
                    .or(r.executions.map(|e| format!("{e} executions")))
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
