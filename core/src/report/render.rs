//! The matrix as people read it: the grid per contract, the counterexamples, the text report,
//! report.md and report.json.

use super::compare::Matrix;
use super::real_code::PremiseState;
use super::results::{CellResult, Step};
use super::View;
use crate::claims::{Checker, ExpectedCell, Verdict};
use crate::upstream::{Link, Sources};
use std::fmt::Write;

/// The version of report.json's shape; bumped when a field changes meaning.
pub const SCHEMA_VERSION: u32 = 2;

/// Mermaid reads `;` as a line break and `#` as an entity; `:` ends a message's arrow part.
fn mermaid_text(s: &str) -> String {
    s.chars()
        .fold(String::with_capacity(s.len()), |mut out, c| {
            match c {
                '#' => out.push_str("#35;"),
                ';' => out.push_str("#59;"),
                c => out.push(c),
            }
            out
        })
}

/// The upstream object a step reads or writes: the class of its `Class.method`, and for a class
/// upstream has once per datanode ([`Sources`]), the datanode the step's detail begins with
/// (`ContainerSet dn1`). A method with no class is its thread's own step.
pub fn object_of(step: &Step, sources: &Sources) -> Option<String> {
    let (class, _) = step.method.split_once('.')?;
    let node = step
        .detail
        .split(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .next()
        .filter(|w| {
            w.strip_prefix("dn")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        });
    match (sources.class(class), node) {
        (Some(c), Some(dn)) if c.per_datanode => Some(format!("{class} {dn}")),
        _ => Some(class.to_owned()),
    }
}

/// A counterexample as a Mermaid `sequenceDiagram` (GitHub draws it in report.md): the threads
/// and the upstream objects they touch as participants, each step an arrow from its thread to
/// its object ([`object_of`]) labelled with the method and the values, the violation a note on
/// the objects it names (on every participant when it names none).
pub fn sequence_diagram(events: &[Step], violation: Option<&str>, sources: &Sources) -> String {
    let text = mermaid_text;
    let mut threads: Vec<&str> = Vec::new();
    let mut objects: Vec<String> = Vec::new();
    let mut arrows: Vec<(usize, Option<usize>)> = Vec::new();
    for e in events {
        let t = threads
            .iter()
            .position(|t| *t == e.thread)
            .unwrap_or_else(|| {
                threads.push(&e.thread);
                threads.len() - 1
            });
        let o = object_of(e, sources).map(|o| {
            objects.iter().position(|x| *x == o).unwrap_or_else(|| {
                objects.push(o);
                objects.len() - 1
            })
        });
        arrows.push((t, o));
    }
    // Thread and object names may hold spaces and dashes ("dn1 RaftServer-RPC"), which Mermaid's
    // participant ids cannot: each thread is `tN` and each object `oN`, with its name as alias.
    let mut out = String::from("sequenceDiagram\n");
    for (i, t) in threads.iter().enumerate() {
        writeln!(out, "    participant t{i} as {}", text(t)).ok();
    }
    for (i, o) in objects.iter().enumerate() {
        writeln!(out, "    participant o{i} as {}", text(o)).ok();
    }
    for (e, (t, o)) in events.iter().zip(&arrows) {
        let (to, label) = match o {
            Some(o) => (
                format!("o{o}"),
                e.method.split_once('.').map_or(&*e.method, |(_, m)| m),
            ),
            None => (format!("t{t}"), &*e.method),
        };
        writeln!(
            out,
            "    t{t}->>{to}: {}. {}: {}",
            e.step,
            text(label),
            text(&e.detail)
        )
        .ok();
    }
    if let Some(v) = violation {
        // The objects whose class the violation names; every participant when it names none.
        let named: Vec<usize> = (0..objects.len())
            .filter(|&i| {
                let class = objects[i].split(' ').next().unwrap_or_default();
                v.contains(class)
            })
            .collect();
        let over = match (named.first(), named.last()) {
            (Some(a), Some(b)) if a == b => Some(format!("o{a}")),
            (Some(a), Some(b)) => Some(format!("o{a},o{b}")),
            _ if !objects.is_empty() => Some(format!("t0,o{}", objects.len() - 1)),
            _ if !threads.is_empty() => Some(format!("t0,t{}", threads.len() - 1)),
            _ => None,
        };
        if let Some(over) = over {
            writeln!(out, "    Note over {over}: {}", text(v)).ok();
        }
    }
    out
}

/// A counterexample's steps as a Markdown table, each upstream method linked to its line at
/// the row's baseline (or to its class's file, marked so, where the line is not known).
pub fn markdown_steps(events: &[Step], contract: &View, baseline: &str) -> String {
    let cell = |s: &str| {
        let s = s.replace('|', "\\|").replace('\n', " ");
        if s.contains('`') {
            format!("`` {s} ``")
        } else {
            format!("`{s}`")
        }
    };
    let mut out = String::from("| # | thread | upstream method | values |\n|---|---|---|---|\n");
    for e in events {
        let method = match contract.link(baseline, &e.method) {
            Some(Link { url, line: Some(_) }) => format!("[`{}`]({url})", e.method),
            Some(Link { url, line: None }) => format!("[`{}`]({url}) (file)", e.method),
            None => format!("`{}`", e.method),
        };
        writeln!(
            out,
            "| {} | {} | {method} | {} |",
            e.step,
            e.thread.replace('|', "\\|"),
            cell(&e.detail)
        )
        .ok();
    }
    out
}

/// What a contract's grid shows: its expected cells but the path cells (listed apart, under
/// "Failure paths"), its variants (rows) and the outcomes that have a cell (columns), in claim
/// and contract order.
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
            .filter(|e| e.contract == contract.id && !e.path)
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
                .map(|e| self.mark(e))
                .collect();
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

    /// One cell's mark in the text grid: `R`/`-` the observed verdict, then the checker's
    /// letter; `!` first where it deviates from the claim, `?` where it has no result.
    fn mark(&self, e: &ExpectedCell) -> String {
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
    }

    /// `contract`'s path cells ([`crate::claims::Method::loom_path`]), in claim order: each a
    /// loom cell and its steps twin about one failure path, on its own scenario.
    fn path_cells(&self, contract: &str) -> Vec<&ExpectedCell> {
        self.expected
            .iter()
            .filter(|e| e.contract == contract && e.path)
            .collect()
    }

    /// The path cells below a contract's text grid, one line per path (row, outcome, scenario)
    /// with its checkers' marks as the grid writes them; empty when it has none.
    pub fn path_lines(&self, contract: &str) -> String {
        let cells = self.path_cells(contract);
        let mut paths: Vec<(&str, &str, &str)> = Vec::new();
        for e in &cells {
            let path = (e.variant, e.outcome, e.scenario.unwrap_or(""));
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        let mut out = String::new();
        if paths.is_empty() {
            return out;
        }
        writeln!(out, "  failure paths (row, outcome, scenario):").ok();
        let width = |f: fn(&(&str, &str, &str)) -> usize| paths.iter().map(f).max().unwrap_or(0);
        let (wv, wo, ws) = (
            width(|p| p.0.chars().count()),
            width(|p| p.1.chars().count()),
            width(|p| p.2.chars().count()),
        );
        for (v, o, s) in &paths {
            let marks: Vec<String> = cells
                .iter()
                .filter(|e| (e.variant, e.outcome, e.scenario.unwrap_or("")) == (*v, *o, *s))
                .map(|e| self.mark(e))
                .collect();
            writeln!(
                out,
                "{}",
                format!("    {v:<wv$}  {o:<wo$}  {s:<ws$}  {}", marks.join(" ")).trim_end()
            )
            .ok();
        }
        out
    }

    /// `contract`'s path cells as a Markdown table ("Failure paths"): the row, the outcome,
    /// the scenario, the checker, the claim and what was observed, the work (executions or
    /// schedules), and the path the cell is about (its note). Empty when it has none.
    pub fn path_table(&self, contract: &str) -> String {
        let cells = self.path_cells(contract);
        let mut out = String::new();
        if cells.is_empty() {
            return out;
        }
        writeln!(
            out,
            "\n**Failure paths**: a cell per failure path, on its own scenario, beside the row's \
             headline cell of that outcome (which shows only that some path reaches it)\n\n\
             | contract | row | outcome | scenario | checker | claimed | observed | executions | the path it is about |\n\
             |---|---|---|---|---|---|---|---|---|"
        )
        .ok();
        for e in cells {
            let (observed, work) = match self.observed(e) {
                None => ("❓ no result".to_owned(), String::new()),
                Some(c) => {
                    let mark = if c.observed == e.expected {
                        "✅"
                    } else {
                        "❌"
                    };
                    let work = c
                        .schedules
                        .map(|s| format!("{s} schedules"))
                        .or(c.executions.map(|n| format!("{n}")))
                        .unwrap_or_default();
                    (format!("{mark} {}", c.observed), work)
                }
            };
            writeln!(
                out,
                "| {} | {} | {} | `{}` | {} | {} | {observed} | {work} | {} |",
                e.contract,
                e.variant,
                e.outcome,
                e.scenario.unwrap_or(""),
                e.checker.as_str(),
                e.expected,
                e.note.replace('|', "\\|")
            )
            .ok();
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
             F fuzz corpus replay (cases), J a replay of the model's counterexample order on the \
             released jar's classes, the row's fix parts applied by racelab's bytecode advice (a J \
             – is about that order, on those classes, with that rendering of the fix: evidence, \
             not a proof of unreachability). {bounds}\n"
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
            out.push_str(&self.path_lines(c.id));
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
            writeln!(out, "  {}", self.coverage_line(c)).ok();
            if let Some(t) = self.traces_line(c.id) {
                writeln!(out, "  {t}").ok();
            }
        }
        writeln!(
            out,
            "\n  legend: R reachable, - unreachable; checker L loom, S every order of whole steps, \
             P proptest, Q quickcheck, F fuzz replay, J replay on the released jar with the row's parts \
             by the fix layer (J - : this order did not reach it, not a proof); ! deviates from the expected verdict, ? no result"
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
            if !shown.insert((&c.contract, &c.variant, &c.outcome, c.path_scenario())) {
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

    /// `contract`'s J cells as one table, replay by replay: the row, the outcome, the claim,
    /// what the real classes gave and the state that decided it.
    fn real_table(&self, contract: &str) -> String {
        let mut out = String::new();
        let cells: Vec<&CellResult> = self
            .cells
            .iter()
            .filter(|r| r.contract == contract && r.checker == Checker::Real)
            .collect();
        if cells.is_empty() {
            return out;
        }
        writeln!(
            out,
            "\n| replay | row | outcome | claimed | on the released classes | the state that decided it |\n\
             |---|---|---|---|---|---|"
        )
        .ok();
        let mut sorted = cells;
        sorted.sort_by_key(|r| r.scenario.clone());
        for r in sorted {
            let state = r
                .timeline
                .first()
                .and_then(|l| l.split_once(" -- "))
                .map_or("", |(_, s)| s);
            let mark = if r.observed == r.expected { "" } else { "❌ " };
            writeln!(
                out,
                "| {} | {} | {} | {} | {mark}{} | {} |",
                r.scenario.as_deref().unwrap_or(""),
                r.variant,
                r.outcome,
                r.expected,
                if r.observed == Verdict::Reachable {
                    "reached"
                } else {
                    "not reached"
                },
                state.replace('|', "\\|")
            )
            .ok();
        }
        out
    }

    /// `contract`'s traces of the real code, as conformance.json keeps them.
    fn traces<'a>(
        &'a self,
        contract: &'a str,
    ) -> impl Iterator<Item = &'a super::real_code::TraceCheck> {
        self.real_code
            .iter()
            .flat_map(|r| r.traces.iter())
            .filter(move |t| t.contract == contract)
    }

    /// How many of `contract`'s replay runs were validated against the model step by step, their
    /// events, and the divergences; `None` when conformance did not run.
    pub fn traces_line(&self, contract: &str) -> Option<String> {
        self.real_code.as_ref().filter(|r| r.skipped.is_none())?;
        let all: Vec<_> = self.traces(contract).collect();
        let ok: Vec<_> = all.iter().filter(|t| t.problem.is_none()).collect();
        let mut replays: Vec<&str> = ok.iter().map(|t| t.replay.as_str()).collect();
        replays.dedup();
        let events: usize = ok.iter().map(|t| 2 * t.calls).sum();
        let most = ok.iter().map(|t| 2 * t.calls).max().unwrap_or(0);
        let values: usize = ok.iter().map(|t| t.values).sum();
        let mut line = format!(
            "Traces: {} of {} replay runs validated against the model step by step ({} replays; \
             {} events per trace on average, at most {most}; {values} values compared); {} diverge",
            ok.len(),
            all.len(),
            replays.len(),
            events.checked_div(ok.len()).unwrap_or(0),
            all.iter().filter(|t| t.diverges).count()
        );
        let mut declared: Vec<String> = all
            .iter()
            .filter_map(|t| Some(format!("{}: {}", t.replay, t.declared.as_deref()?)))
            .collect();
        declared.dedup();
        if !declared.is_empty() {
            line += &format!(
                "; {} of them as declared in premises.rs ({})",
                all.iter().filter(|t| t.declared.is_some()).count(),
                declared.join("; ")
            );
        }
        let mut no_order: Vec<&str> = all
            .iter()
            .filter(|t| t.no_order)
            .map(|t| t.replay.as_str())
            .collect();
        no_order.dedup();
        if !no_order.is_empty() {
            line += &format!(
                "; not validated, their order is not in the model: {}",
                no_order.join(", ")
            );
        }
        Some(line + ".")
    }

    /// How much of `c`'s headline the real code decides, and what it cannot, with why.
    pub fn coverage_line(&self, c: &View) -> String {
        let k = self.real_coverage(c);
        let mut line = format!(
            "Real code: J cells on {} of the {} headline (row, outcome) pairs a replay can decide \
             ({} headline pairs",
            k.covered, k.coverable, k.headline
        );
        if !c.races.is_empty() {
            line += &format!(
                "; data races, for a search and not a replay: {}",
                c.races.join(", ")
            );
        }
        for n in c.no_replay {
            let rows = if n.variants.is_empty() {
                "every row".to_owned()
            } else {
                n.variants.join(", ")
            };
            line += &format!("; {} on {rows}: {}", n.outcome, n.why);
        }
        line + ")."
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
            "\n| premise | upstream | jar | statement | result | cells | the jar against the baseline |\n\
             |---|---|---|---|---|---|---|"
        )
        .ok();
        for p in premises {
            // a premise that cannot run says why, in place of a bare "not run"
            let result = match (p.result, p.detail.as_deref()) {
                (PremiseState::NotRun, Some(d)) if d.starts_with("cannot run: ") => {
                    format!("not run ({})", &d["cannot run: ".len()..])
                }
                (r, _) => r.as_str().to_owned(),
            };
            writeln!(
                out,
                "| {} | `{}` | {} | {} | {} | {} | {} |",
                p.id,
                p.upstream,
                p.jar,
                p.statement.replace('|', "\\|"),
                result.replace('|', "\\|"),
                p.cells.len(),
                p.versus_baseline.replace('|', "\\|")
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
                    // Every cited cell has a result, and it is the claim's.
                    let holds = f.cells.iter().all(|k| {
                        let key = c.cell_key(k);
                        let e = self.expected.iter().find(|e| e.key() == key);
                        e.zip(self.cells.iter().find(|r| r.key() == key))
                            .is_some_and(|(e, r)| r.observed == e.expected)
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
    fn searches_of<'a>(
        &'a self,
        contract: &'a str,
    ) -> impl Iterator<Item = &'a super::searches::SearchRecord> {
        self.searches
            .iter()
            .flat_map(|s| &s.records)
            .filter(move |r| r.contract == contract)
    }

    /// `contract`'s searches (one line per search and row), then, per outcome searched on the
    /// upstream row, the model's and the real code's difficulty side by side. Empty when no
    /// search of it is recorded.
    pub fn searches_table(&self, contract: &str) -> String {
        let mut mine: Vec<&super::searches::SearchRecord> = self.searches_of(contract).collect();
        if mine.is_empty() {
            return String::new();
        }
        // each search's rows in the matrix's order, the upstream row first
        let row = |variant: &str| {
            self.expected
                .iter()
                .position(|e| e.contract == contract && e.variant == variant)
                .unwrap_or(usize::MAX)
        };
        mine.sort_by_key(|r| (&r.search, row(&r.variant), r.layer_off));
        let mut out = String::new();
        // the commits this contract's records were searched at, else the file's provenance
        let commits: std::collections::BTreeSet<&str> =
            mine.iter().filter_map(|r| r.commit.as_deref()).collect();
        let commit = if commits.is_empty() {
            self.searches
                .as_ref()
                .and_then(|s| s.provenance.as_deref())
                .map_or(String::new(), |c| format!(" ({c})"))
        } else {
            let commits: Vec<&str> = commits.into_iter().collect();
            let unnamed = if mine.iter().any(|r| r.commit.is_none()) {
                "; some records name no commit"
            } else {
                ""
            };
            format!(" (searched at commit {}{unnamed})", commits.join(", "))
        };
        writeln!(
            out,
            "\n**Searches of the real code, without latches**{commit}\n\n\
             | search | tool | row | outcome | runs that reached it | to the first | all runs | verdict |\n\
             |---|---|---|---|---|---|---|---|"
        )
        .ok();
        for r in &mine {
            let off = if r.layer_off { " (layer off)" } else { "" };
            let first = r.first_seconds.map_or("-".into(), |s| format!("{s:.1} s"));
            writeln!(
                out,
                "| {} | {} | {}{off} | {} | {} | {first} | {} | {} |",
                r.search,
                r.tool,
                r.variant,
                r.outcome_label(),
                r.rate(),
                r.seconds.map_or("-".into(), |s| format!("{s:.1} s")),
                super::searches::judge(r, &self.expected).as_str()
            )
            .ok();
        }
        writeln!(
            out,
            "\n| outcome | model: loom executions to the first violation | real code: runs to the first | replay on the real code |\n|---|---|---|---|"
        )
        .ok();
        for r in mine
            .iter()
            .filter(|r| r.variant == "upstream" && !r.layer_off)
        {
            // a union (`O2|R1`): its first violation is the earliest of its outcomes'
            let loom = self
                .cells
                .iter()
                .filter(|c| {
                    c.contract == contract
                        && c.variant == "upstream"
                        && r.outcomes().any(|o| o == c.outcome)
                        && c.checker == Checker::Loom
                        && !c.path
                        && c.observed == Verdict::Reachable
                })
                .filter_map(|c| c.executions)
                .min()
                .map_or("not reached".into(), |e| e.to_string());
            let replay = self
                .cells
                .iter()
                .filter(|c| {
                    c.contract == contract
                        && c.variant == "upstream"
                        && r.outcomes().any(|o| o == c.outcome)
                        && c.checker == Checker::Real
                })
                .map(|c| {
                    format!(
                        "{} {}",
                        c.scenario.as_deref().unwrap_or("a replay"),
                        if c.observed == Verdict::Reachable {
                            "reached"
                        } else {
                            "not reached"
                        }
                    )
                })
                .collect::<Vec<_>>();
            let replay = if replay.is_empty() {
                "no replay (a data race)".to_string()
            } else {
                replay.join(", ")
            };
            let real = match r.first_run {
                Some(f) => format!("{f} ({} of {} reached it)", r.reached, r.runs),
                None => format!("not found in {} runs", r.runs),
            };
            writeln!(
                out,
                "| {} | {loom} | {real} | {replay} |",
                r.outcome_label()
            )
            .ok();
        }
        // the contract as its test classes name it: `LincheckKeptReregisterTest`
        let camel: String = contract
            .split('-')
            .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
            .collect();
        let kept: Vec<String> = self
            .real_code
            .iter()
            .flat_map(|r| &r.kept)
            .filter(|k| k.test.contains(&format!("Kept{camel}")))
            .map(|k| {
                let verdict = if k.passed {
                    "reached its outcome again"
                } else {
                    "DID NOT reach its outcome again"
                };
                format!("`{}` ({}, {verdict}, {:.1} s)", k.test, k.tool, k.seconds)
            })
            .collect();
        if !kept.is_empty() {
            writeln!(
                out,
                "\nKept schedules, replayed by the gate: {}.",
                kept.join("; ")
            )
            .ok();
        }
        out
    }

    pub fn to_json(&self) -> String {
        let report = serde_json::json!({
            "schema_version": SCHEMA_VERSION,
            "baselines": self.contracts.iter().flat_map(|c| &c.baselines).collect::<Vec<_>>(),
            "findings": self.findings_json(),
            "real_code": self.real_code,
            "real_coverage": self.contracts.iter()
                .map(|c| (c.id, self.real_coverage(c)))
                .collect::<std::collections::BTreeMap<_, _>>(),
            "cells": self.cells,
            "searches": self.searches,
            "reproductions": self.reproductions,
            "deviations": self.deviations.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        });
        serde_json::to_string_pretty(&report).expect("the report serializes")
    }

    /// The step checker's counterexample file of `r`'s cell (its own, or its step twin's for a
    /// loom cell): its path under `target/racelab/`, and its text.
    pub fn counterexample_file(&self, r: &CellResult) -> Option<(String, &str)> {
        self.cells
            .iter()
            .find(|x| {
                x.contract == r.contract
                    && x.variant == r.variant
                    && x.outcome == r.outcome
                    && x.path_scenario() == r.path_scenario()
                    && x.replay.is_some()
            })
            .and_then(|x| {
                let path = crate::schedule::file_name(
                    &x.contract,
                    &x.variant,
                    &x.outcome,
                    x.path_scenario(),
                );
                Some((path, x.replay.as_deref()?))
            })
    }

    /// Every counterexample file, once each: what `cargo xtask report` writes.
    pub fn counterexample_files(&self) -> Vec<(String, &str)> {
        let mut files: Vec<(String, &str)> = self
            .cells
            .iter()
            .filter_map(|r| self.counterexample_file(r))
            .collect();
        files.sort();
        files.dedup();
        files
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
                    writeln!(out, "{}", f.markdown()).ok();
                }
            }
            writeln!(
                out,
                "\n| variant | outcome | checker | expected | observed | work | bound | seconds | note |\n|---|---|---|---|---|---|---|---|---|"
            )
            .ok();
            for r in self.cells.iter().filter(|r| r.contract == c.id && !r.path) {
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
            writeln!(out, "\n{}", self.coverage_line(c)).ok();
            if let Some(t) = self.traces_line(c.id) {
                writeln!(out, "\n{t}").ok();
            }
            for t in self
                .traces(c.id)
                .filter(|t| t.diverges && t.declared.is_none())
            {
                writeln!(
                    out,
                    "\n- diverges: `{}`: {}",
                    t.row(),
                    t.problem.as_deref().unwrap_or_default()
                )
                .ok();
            }
            out.push_str(&self.path_table(c.id));
            out.push_str(&self.real_table(c.id));
            out.push_str(&self.searches_table(c.id));
            let shown = |r: &&CellResult| {
                r.contract == c.id
                    && r.checker != Checker::Real
                    && !r.timeline.is_empty()
                    && (every_counterexample || r.observed != r.expected)
            };
            for r in self.cells.iter().filter(shown) {
                let path = r
                    .path_scenario()
                    .map_or(String::new(), |s| format!(", failure path `{s}`"));
                writeln!(
                    out,
                    "\n### {} {} ({}{path})\n",
                    r.variant,
                    r.outcome,
                    r.checker.as_str(),
                )
                .ok();
                if r.events.is_empty() {
                    writeln!(out, "```\n{}\n```", r.timeline.join("\n")).ok();
                    continue;
                }
                // The lines before the first step (a history's operations) stay as text.
                let header = r
                    .timeline
                    .iter()
                    .position(|l| *l == r.events[0].line)
                    .unwrap_or(0);
                if header > 0 {
                    writeln!(out, "```\n{}\n```\n", r.timeline[..header].join("\n")).ok();
                }
                out.push_str(&markdown_steps(&r.events, c, &r.baseline));
                if let Some(v) = &r.violation {
                    writeln!(out, "\n✗ {}", v.replace('|', "\\|")).ok();
                }
                let diagram = sequence_diagram(&r.events, r.violation.as_deref(), c.sources);
                writeln!(out, "\n```mermaid\n{diagram}```").ok();
                if let Some((path, _)) = self.counterexample_file(r) {
                    writeln!(
                        out,
                        "\nThe same order of whole steps as a scenario file: \
                         `cargo xtask replay target/racelab/{path}`"
                    )
                    .ok();
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
    use super::{markdown_steps, sequence_diagram, Step};
    use crate::report::{BaselineView, View};
    use crate::upstream::{Class, Line, Lines, Sources, Unlinked};

    fn step(step: usize, thread: &str, method: &str, detail: &str) -> Step {
        Step {
            step,
            thread: thread.into(),
            method: method.into(),
            detail: detail.into(),
            line: String::new(),
        }
    }

    static SOURCES: Sources = Sources {
        classes: &[
            Class::new("ContainerSet", "c/ContainerSet.java").per_datanode(),
            Class::new("SCMContext", "s/SCMContext.java"),
        ],
        lines: &[Lines {
            baseline: "report",
            lines: &[Line {
                method: "SCMContext.setLeaderReady",
                line: 119,
            }],
        }],
        unlinked: &[Unlinked {
            method: "ContainerSet.helper",
            why: "the model's name",
        }],
    };

    /// Threads and objects are aliased participants, each step an arrow from its thread to its
    /// object (per datanode where the class is), text is escaped, and the violation is a note
    /// on the object it names.
    #[test]
    fn steps_are_arrows_from_threads_to_objects() {
        let events = [
            step(
                1,
                "dn1 RaftServer-RPC",
                "ContainerSet.helper",
                "dn1 c5: x; y",
            ),
            step(2, "scm", "SCMContext.setLeaderReady", "#1"),
            step(3, "dn2 apply", "ContainerSet.helper", "dn2: done"),
            step(4, "scm", "Main", "no class"),
        ];
        assert_eq!(
            sequence_diagram(&events, Some("O1: SCMContext lost"), &SOURCES),
            "sequenceDiagram\n    participant t0 as dn1 RaftServer-RPC\n    participant t1 as scm\n    \
             participant t2 as dn2 apply\n    participant o0 as ContainerSet dn1\n    \
             participant o1 as SCMContext\n    participant o2 as ContainerSet dn2\n    \
             t0->>o0: 1. helper: dn1 c5: x#59; y\n    t1->>o1: 2. setLeaderReady: #35;1\n    \
             t2->>o2: 3. helper: dn2: done\n    t1->>t1: 4. Main: no class\n    \
             Note over o1: O1: SCMContext lost\n"
        );
        let unnamed = sequence_diagram(&events[1..2], Some("O2: lost"), &SOURCES);
        assert!(
            unnamed.ends_with("Note over t0,o0: O2: lost\n"),
            "{unnamed}"
        );
    }

    #[test]
    fn every_step_links_to_its_line_or_its_file() {
        let view = View {
            id: "x",
            report: "X-1",
            title: "t",
            outcomes: vec![],
            baselines: vec![BaselineView {
                contract: "x",
                name: "report",
                repo: "apache/ozone",
                commit: "abc",
                url: String::new(),
                about: "",
                changes: Vec::new(),
            }],
            findings: &[],
            headline: vec![],
            races: vec![],
            no_replay: &[],
            sources: &SOURCES,
        };
        let events = [
            step(1, "scm", "SCMContext.setLeaderReady", "a|b"),
            step(2, "dn1", "ContainerSet.helper", "c"),
            step(3, "dn1", "Other.m", "d"),
        ];
        assert_eq!(
            markdown_steps(&events, &view, "report"),
            "| # | thread | upstream method | values |\n|---|---|---|---|\n\
             | 1 | scm | [`SCMContext.setLeaderReady`](https://github.com/apache/ozone/blob/abc/s/SCMContext.java#L119) | `a\\|b` |\n\
             | 2 | dn1 | [`ContainerSet.helper`](https://github.com/apache/ozone/blob/abc/c/ContainerSet.java) (file) | `c` |\n\
             | 3 | dn1 | `Other.m` | `d` |\n"
        );
    }
}
