//! One comment per contract, ready to paste where the report is reviewed: JIRA's wiki markup
//! (`||` tables, `{noformat}`, `h3.`), or plain text for e-mail. Short enough to read: the
//! baselines, the matrix with its legend, what the checks prove, the findings, and only the
//! counterexamples the findings cite; everything else is in the report artifact.

use super::compare::Matrix;
use super::results::CellResult;
use super::View;
use crate::claims::Verdict;
use crate::upstream::Link;
use std::fmt::Write;

/// The output a reviewer pastes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Jira,
    Text,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "jira" => Some(Format::Jira),
            "text" => Some(Format::Text),
            _ => None,
        }
    }
}

/// Text in JIRA wiki markup: every character that starts markup is escaped with a backslash
/// (`*bold*`, `_italic_`, `-strike-`, `+under+`, `^sup^`, `~sub~`, `{macro}`, `[link]`, `|`,
/// `!image!`, `#` and `\` itself), so names and values print as they are.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '{' | '}' | '[' | ']' | '|' | '*' | '_' | '-' | '+' | '^' | '~' | '!' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text inside `{noformat}`: literal, but for the closing macro itself.
fn noformat(s: &str) -> String {
    s.replace("{noformat}", "{ noformat}")
}

/// What the checks prove and what they do not, in three sentences.
const SCOPE: &str = "An unreachable loom cell is a proof for its small scenario: loom explored \
every interleaving of the real lock and atomic operations inside each step, with no preemption \
bound unless the cell states one, and a twin row reaches the outcome at the same scenario. The \
history checkers (proptest, quickcheck, the fuzz corpus) search long histories of many \
operations and prove nothing by not finding. All of it is about the model, which names the \
upstream method of every step and holds the locks upstream holds at the baseline shown; where \
premises were checked on the released jars, they are listed with their results. A J cell is \
the real code's own verdict: a JUnit replay drove the model's counterexample order on the \
released jar's classes, each fix part applied by racelab's bytecode advice (no upstream source \
copied), and decided the outcome from the real state. A J \"–\" means this order, on these \
classes, with this rendering of the fix, did not reach the outcome: evidence, not a proof that \
no order can; every such cell has a row where the same replay reaches it, and with the advice \
switched off every row gives the upstream row's verdict.";

fn verdict_letter(c: &CellResult) -> &'static str {
    match (c.observed == c.expected, c.observed) {
        (true, Verdict::Reachable) => "R",
        (true, Verdict::Unreachable) => "–",
        (false, Verdict::Reachable) => "!R",
        (false, Verdict::Unreachable) => "!–",
    }
}

/// One upstream method of a counterexample, with its link and the steps that ran it.
struct Source {
    method: String,
    link: Option<Link>,
    steps: Vec<usize>,
}

impl Source {
    /// `step 3` or `steps 1, 4`.
    fn steps_label(&self) -> String {
        let steps: Vec<String> = self.steps.iter().map(usize::to_string).collect();
        let s = if steps.len() == 1 { "" } else { "s" };
        format!("step{s} {}", steps.join(", "))
    }
}

/// The upstream methods of `r`'s counterexample, in the order they first run: a numbered list
/// after the block (JIRA's `{noformat}` cannot hold links).
fn sources(c: &View, r: &CellResult) -> Vec<Source> {
    let mut out: Vec<Source> = Vec::new();
    for e in &r.events {
        match out.iter_mut().find(|s| s.method == e.method) {
            Some(s) => s.steps.push(e.step),
            None => out.push(Source {
                method: e.method.clone(),
                link: c.link(&r.baseline, &e.method),
                steps: vec![e.step],
            }),
        }
    }
    out
}

impl Matrix {
    /// Per row of `contract`: its variant, baseline, and per outcome the verdict with the
    /// checkers that gave it (`R (L S P)`). The headline cells only: a path cell is about one
    /// failure path, not the row's verdict.
    fn rows(&self, contract: &View) -> (Vec<&'static str>, Vec<Vec<String>>) {
        let outcomes: Vec<&'static str> = contract
            .outcomes
            .iter()
            .map(|(id, _)| *id)
            .filter(|o| {
                self.expected
                    .iter()
                    .any(|e| e.contract == contract.id && e.outcome == *o && !e.path)
            })
            .collect();
        let mut variants: Vec<(&str, &str)> = Vec::new();
        for e in self
            .expected
            .iter()
            .filter(|e| e.contract == contract.id && !e.path)
        {
            if !variants.iter().any(|(v, _)| *v == e.variant) {
                variants.push((e.variant, e.baseline));
            }
        }
        let rows = variants
            .iter()
            .map(|(v, b)| {
                let mut row = vec![v.to_string(), b.to_string()];
                for o in &outcomes {
                    let mut by_verdict: Vec<(&str, Vec<&str>)> = Vec::new();
                    for e in self.expected.iter().filter(|e| {
                        e.contract == contract.id && e.variant == *v && e.outcome == *o && !e.path
                    }) {
                        let (mark, tag) = match self.observed(e) {
                            Some(c) => (verdict_letter(c), e.checker.tag()),
                            None => ("?", e.checker.tag()),
                        };
                        match by_verdict.iter_mut().find(|(m, _)| *m == mark) {
                            Some((_, tags)) => tags.push(tag),
                            None => by_verdict.push((mark, vec![tag])),
                        }
                    }
                    let entry: Vec<String> = by_verdict
                        .iter()
                        .map(|(m, tags)| format!("{m} ({})", tags.join(" ")))
                        .collect();
                    row.push(entry.join(", "));
                }
                row
            })
            .collect();
        (outcomes, rows)
    }

    /// The cited cell's result, with a counterexample when it has one.
    fn cited(&self, contract: &View, cited: &str) -> Option<&CellResult> {
        let key = contract.cell_key(cited);
        self.cells.iter().find(|c| c.key() == key)
    }

    /// The comment for `contract` in `format`.
    pub fn comment(&self, contract: &View, format: Format) -> String {
        match format {
            Format::Jira => self.jira(contract),
            Format::Text => self.text(contract),
        }
    }

    fn jira(&self, c: &View) -> String {
        let mut out = String::new();
        let w = &mut out;
        writeln!(w, "h3. racelab: {} — {}\n", c.report, escape(c.title)).ok();
        writeln!(w, "*Baselines* (the upstream code each row is about):").ok();
        for b in &c.baselines {
            writeln!(
                w,
                "* {{{{{}}}}}: [{}@{}|{}] — {}",
                b.name,
                b.repo,
                b.commit,
                b.url,
                escape(b.about)
            )
            .ok();
        }
        let (outcomes, rows) = self.rows(c);
        writeln!(w, "\n||variant||baseline||{}||", outcomes.join("||")).ok();
        for r in rows {
            let cells: Vec<String> = r.iter().map(|s| escape(s)).collect();
            writeln!(w, "|{}|", cells.join("|")).ok();
        }
        writeln!(
            w,
            "\n_R reachable, – unreachable, ! deviates from the claim, ? did not run; \
             checkers: L loom (every interleaving of a small scenario), S every order of whole \
             steps, P proptest, Q quickcheck, F fuzz corpus replay, J a replay of the model's \
             counterexample order on the released jar's classes, the row's fix parts applied by \
             racelab's bytecode advice (a J \"–\" means this order, on these classes, with this \
             rendering of the fix, did not reach the outcome: evidence, not a proof that it is \
             unreachable)._\n"
        )
        .ok();
        for (id, summary) in &c.outcomes {
            writeln!(w, "* *{id}* {}", escape(summary)).ok();
        }
        writeln!(
            w,
            "\nh4. What this proves and what it does not\n{}",
            escape(SCOPE)
        )
        .ok();
        if !c.findings.is_empty() {
            writeln!(w, "\nh4. Findings").ok();
            for f in c.findings {
                let cells: Vec<String> = f
                    .cells
                    .iter()
                    .map(|k| {
                        let v = self
                            .cited(c, k)
                            .map_or("no result".to_string(), |r| r.observed.to_string());
                        format!("{{{{{k}}}}} {v}")
                    })
                    .collect();
                writeln!(
                    w,
                    "* *{}* ({}): {} Cells: {}.",
                    f.id,
                    f.kind.as_str(),
                    escape(f.statement),
                    cells.join(", ")
                )
                .ok();
            }
        }
        // The counterexamples, as many as JIRA's comment limit leaves room for once the rest
        // (premises, footer) is counted; the others are named, with where to find them.
        let mut tail = String::new();
        self.jira_tail(c, &mut tail);
        let blocks: Vec<(&CellResult, String)> = self
            .cited_counterexamples(c)
            .into_iter()
            .map(|r| (r, counterexample_block(c, r)))
            .collect();
        let mut left_out: Vec<String> = Vec::new();
        let mut shown = String::new();
        // What the note on the counterexamples left out may take, at most.
        let note_room = 200
            + blocks
                .iter()
                .map(|(r, _)| r.variant.len() + 8)
                .sum::<usize>();
        for (r, block) in &blocks {
            let total = out.len() + shown.len() + block.len() + tail.len() + note_room;
            if total <= JIRA_LIMIT {
                shown.push_str(block);
            } else {
                left_out.push(format!("{} {}", escape(&r.variant), r.outcome));
            }
        }
        let w = &mut out;
        if !blocks.is_empty() {
            writeln!(w, "\nh4. Counterexamples").ok();
        }
        w.push_str(&shown);
        if !left_out.is_empty() {
            writeln!(
                w,
                "\nNot shown, to keep the comment within JIRA's {JIRA_LIMIT} characters: the \
                 counterexamples of {} (report.md has each; the step checker's are also \
                 scenario files that `cargo xtask replay` runs).",
                left_out.join(", ")
            )
            .ok();
        }
        out.push_str(&tail);
        out
    }

    /// The part of a JIRA comment after the counterexamples: the premises and the footer.
    fn jira_tail(&self, c: &View, out: &mut String) {
        let w = out;
        let premises = self.premises(c.id);
        if !premises.is_empty() {
            writeln!(w, "\nh4. Premises on the released jars\n||premise||upstream||jar||statement||result||").ok();
            for p in premises {
                writeln!(
                    w,
                    "|{}|{{{{{}}}}}|{}|{}|{}|",
                    escape(&p.id),
                    p.upstream,
                    escape(&p.jar),
                    escape(&p.statement),
                    p.result.as_str()
                )
                .ok();
            }
            let replays: Vec<String> = self
                .premises(c.id)
                .iter()
                .filter(|p| p.is_replay())
                .filter_map(|p| p.test.as_deref().map(|t| format!("{{{{{t}}}}}")))
                .collect();
            if !replays.is_empty() {
                writeln!(
                    w,
                    "\nJUnit replays to attach (conformance/ in the racelab repository): {}",
                    replays.join(", ")
                )
                .ok();
            }
        }
        writeln!(
            w,
            "\nEvery cell, its counterexample and its note: report.md and report.json of the \
             racelab run (`cargo xtask verify {}`).",
            c.id
        )
        .ok();
    }

    fn text(&self, c: &View) -> String {
        let mut out = String::new();
        let w = &mut out;
        writeln!(w, "racelab: {} — {}\n", c.report, c.title).ok();
        for b in &c.baselines {
            writeln!(
                w,
                "baseline {}: {}@{} — {}",
                b.name, b.repo, b.commit, b.about
            )
            .ok();
        }
        writeln!(w).ok();
        out.push_str(&self.grid(c));
        let w = &mut out;
        for (id, summary) in &c.outcomes {
            writeln!(w, "  {id}  {summary}").ok();
        }
        writeln!(w, "\nWhat this proves and what it does not: {SCOPE}").ok();
        if !c.findings.is_empty() {
            writeln!(w, "\nFindings:").ok();
            for f in c.findings {
                writeln!(
                    w,
                    "- {} ({}): {} Cells: {}.",
                    f.id,
                    f.kind.as_str(),
                    f.statement,
                    f.cells.join(", ")
                )
                .ok();
            }
        }
        for r in self.cited_counterexamples(c) {
            writeln!(w, "\n{} {} ({}):", r.variant, r.outcome, r.checker.as_str()).ok();
            for l in &r.timeline {
                writeln!(w, "  {l}").ok();
            }
            let sources = sources(c, r);
            if !sources.is_empty() {
                writeln!(w, "  sources:").ok();
            }
            for s in sources {
                let url = s
                    .link
                    .as_ref()
                    .map_or("(not in the map)", |l| l.url.as_str());
                writeln!(w, "    {} {url} ({})", s.method, s.steps_label()).ok();
            }
        }
        out
    }

    /// The reachable cells the findings cite that have a counterexample, once each.
    fn cited_counterexamples(&self, c: &View) -> Vec<&CellResult> {
        let mut shown: Vec<&CellResult> = Vec::new();
        for f in c.findings {
            for k in f.cells {
                if let Some(r) = self.cited(c, k) {
                    let seen = shown
                        .iter()
                        .any(|s| (&s.variant, &s.outcome) == (&r.variant, &r.outcome));
                    if !r.timeline.is_empty() && !seen {
                        shown.push(r);
                    }
                }
            }
        }
        shown
    }
}

/// JIRA's default limit on a comment (`jira.text.field.character.limit`).
pub const JIRA_LIMIT: usize = 32_767;

/// One counterexample of a JIRA comment: its heading, its timeline, and its steps' sources.
fn counterexample_block(c: &View, r: &CellResult) -> String {
    let mut out = String::new();
    let w = &mut out;
    writeln!(
        w,
        "\n*{} {}* ({}{})\n{{noformat}}\n{}\n{{noformat}}",
        escape(&r.variant),
        r.outcome,
        r.checker.as_str(),
        r.scenario
            .as_deref()
            .map_or(String::new(), |s| format!(", scenario {}", escape(s))),
        noformat(&r.timeline.join("\n"))
    )
    .ok();
    let sources = sources(c, r);
    if !sources.is_empty() {
        writeln!(w, "Sources of the steps (upstream, at the row's baseline):").ok();
    }
    for s in sources {
        let what = match &s.link {
            Some(l) if l.line.is_some() => format!("[{}|{}]", s.method, l.url),
            Some(l) => format!("[{}|{}] (file)", s.method, l.url),
            None => escape(&s.method),
        };
        writeln!(w, "# {what} — {}", s.steps_label()).ok();
    }
    out
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::escape;

    #[test]
    fn every_markup_character_is_escaped() {
        assert_eq!(
            escape("{a} [b] c|d *e* _f_ -g- +h+ ^i^ ~j~ !k! #l \\m"),
            "\\{a\\} \\[b\\] c\\|d \\*e\\* \\_f\\_ \\-g\\- \\+h\\+ \\^i\\^ \\~j\\~ \\!k\\! \\#l \\\\m"
        );
        assert_eq!(
            escape("dn1 OPEN→CLOSED (BCSID 7)"),
            "dn1 OPEN→CLOSED (BCSID 7)"
        );
    }
}
