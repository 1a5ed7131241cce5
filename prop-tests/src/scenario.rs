//! Scenario files: "what if it happens in this order?" without writing loom code.
//!
//! ```text
//! # HDDS-17575: the step-down lands while notifyLeaderReady flushes
//! contract leader-ready
//! variants upstream proposed      # optional; every variant by default
//! apply-startup-entry             # a contract operation (starts a program)
//! step apply 4                    # four steps of the actor `apply`
//! step-down
//! step ratis 3
//! ```
//!
//! Every line is checked before anything runs; a mistake is reported with its line number. The
//! replay runs the schedule on each variant, finishes the remaining programs in start order,
//! and prints the timeline, the final state and the outcomes reached.

use racelab_core::histories::{Histories, Session, STUCK};
use racelab_core::registry::{self, Registered, Visitor};
use std::fmt::Write;

/// A line of a scenario file, parsed.
#[derive(Clone, Debug, PartialEq)]
enum Line<O> {
    Op(O),
    Step { actor: String, times: usize },
}

/// A problem with a scenario, with the line it is on (1-based; 0 for the whole file).
#[derive(Debug, PartialEq)]
pub struct ScenarioError {
    pub line: usize,
    pub problem: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "line {}: {}", self.line, self.problem)
        }
    }
}

fn err<T>(line: usize, problem: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        line,
        problem: problem.into(),
    })
}

/// The meaningful lines of `text`: (line number, words), comments and blanks dropped.
fn lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let words: Vec<&str> = l
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        (!words.is_empty()).then_some((i + 1, words))
    })
}

/// The contract a scenario names on its first line.
pub fn contract_of(text: &str) -> Result<String, ScenarioError> {
    match lines(text).next() {
        Some((_, w)) if w.len() == 2 && w[0] == "contract" => Ok(w[1].to_owned()),
        Some((n, _)) => err(n, "the first line must be `contract NAME`"),
        None => err(0, "the scenario is empty"),
    }
}

/// Replays the scenario on each variant it names, as text.
pub fn replay<M: Histories>(text: &str) -> Result<String, ScenarioError> {
    let named = contract_of(text)?;
    if named != M::CONTRACT.id {
        return err(
            1,
            format!("this scenario is for `{named}`, not `{}`", M::CONTRACT.id),
        );
    }
    let mut variants: Option<Vec<&'static str>> = None;
    let mut schedule: Vec<(usize, Line<M::Op>)> = Vec::new();
    for (n, words) in lines(text).skip(1) {
        match words.as_slice() {
            ["variants", names @ ..] if schedule.is_empty() && variants.is_none() => {
                if names.is_empty() {
                    return err(n, "`variants` needs at least one variant name");
                }
                let mut chosen = Vec::new();
                for name in names {
                    match M::variant(name) {
                        Some(v) => chosen.push(v.name),
                        None => {
                            let known: Vec<&str> = M::VARIANTS.iter().map(|v| v.name).collect();
                            return err(
                                n,
                                format!("unknown variant `{name}` (known: {})", known.join(", ")),
                            );
                        }
                    }
                }
                variants = Some(chosen);
            }
            ["variants", ..] => return err(n, "`variants` must come once, before the first step"),
            ["contract", ..] => return err(n, "`contract` must come once, on the first line"),
            ["step", actor] => schedule.push((
                n,
                Line::Step {
                    actor: actor.to_string(),
                    times: 1,
                },
            )),
            ["step", actor, times] => match times.parse::<usize>() {
                Ok(t) if (1..=10_000).contains(&t) => schedule.push((
                    n,
                    Line::Step {
                        actor: actor.to_string(),
                        times: t,
                    },
                )),
                _ => return err(n, format!("`{times}` is not a step count from 1 to 10000")),
            },
            ["step", ..] => {
                return err(
                    n,
                    "`step` takes an actor and an optional count: `step ACTOR [N]`",
                )
            }
            op => match M::parse_op(op) {
                Ok(o) => schedule.push((n, Line::Op(o))),
                Err(e) => {
                    return err(
                        n,
                        format!(
                            "{e} (operations: step ACTOR [N], {})",
                            M::OP_NAMES.join(", ")
                        ),
                    )
                }
            },
        }
    }
    if schedule.is_empty() {
        return err(0, "the scenario has no steps");
    }
    let variants = variants.unwrap_or_else(|| M::VARIANTS.iter().map(|v| v.name).collect());
    let mut out = String::new();
    for name in variants {
        let v = M::variant(name).expect("checked above");
        let mut session = Session::<M>::new(M::fix(v.parts));
        let mut notes: Vec<String> = Vec::new();
        for (n, line) in &schedule {
            match line {
                Line::Op(op) => {
                    if !session.apply(op) {
                        return err(
                            *n,
                            format!("`{op:?}` is not possible at this point of the schedule"),
                        );
                    }
                }
                Line::Step { actor, times } => {
                    let started = session.driver.actors();
                    if !started.contains(&actor.as_str()) {
                        let started = if started.is_empty() {
                            "none".to_owned()
                        } else {
                            started.join(", ")
                        };
                        return err(
                            *n,
                            format!("no actor `{actor}` has been started (started: {started})"),
                        );
                    }
                    // The order the file asks for may be impossible in this variant (its fix
                    // makes the actor wait): say so, and leave the rest to the finish.
                    for i in 0..*times {
                        if let Err(e) = session.step_named(actor) {
                            notes.push(format!(
                                "line {n}: {e}; {} step(s) left to the finish",
                                times - i
                            ));
                            break;
                        }
                    }
                }
            }
        }
        let trace = session.driver.trace.clone();
        let world = session.driver.world.clone();
        let found = session.finish();
        let parts = if v.parts.is_empty() {
            "none".to_owned()
        } else {
            v.parts.join("+")
        };
        writeln!(
            out,
            "\n== {} ({}), variant {name} (parts: {parts})",
            M::CONTRACT.id,
            M::CONTRACT.report
        )
        .ok();
        let timeline = racelab_core::trace::Timeline {
            events: trace.events(),
            violation: None,
        };
        for l in timeline.lines() {
            writeln!(out, "  {l}").ok();
        }
        for note in &notes {
            writeln!(out, "note: {note}").ok();
        }
        writeln!(out, "final state: {}", M::describe(&world)).ok();
        if found.is_empty() {
            writeln!(out, "verdict: no outcome reached").ok();
        }
        for f in &found {
            let what = if f.outcome == STUCK {
                "stuck"
            } else {
                "reaches"
            };
            writeln!(out, "verdict: {what} {}: {}", f.outcome, f.witness).ok();
        }
    }
    Ok(out)
}

/// Replays a scenario of any registered contract (named on its first line).
pub fn replay_any(text: &str) -> Result<String, ScenarioError> {
    struct Replay<'a> {
        id: String,
        text: &'a str,
        out: Option<Result<String, ScenarioError>>,
        known: Vec<&'static str>,
    }
    impl Visitor for Replay<'_> {
        fn visit<M: Registered>(&mut self) {
            self.known.push(M::CONTRACT.id);
            if M::CONTRACT.id == self.id {
                self.out = Some(replay::<M>(self.text));
            }
        }
    }
    let mut r = Replay {
        id: contract_of(text)?,
        text,
        out: None,
        known: Vec::new(),
    };
    registry::visit(&mut r);
    r.out.unwrap_or_else(|| {
        err(
            1,
            format!(
                "unknown contract `{}` (known: {})",
                r.id,
                r.known.join(", ")
            ),
        )
    })
}

// The step driver's primitives are loom's under `--cfg loom`, usable only inside a loom model.
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use racelab_core::contracts::leader_ready::LeaderReady;

    const STEP_DOWN: &str = "\
# the step-down lands while notifyLeaderReady flushes
contract leader-ready
variants upstream proposed
apply-startup-entry
step apply 4
step-down
step ratis 3
";

    #[test]
    fn replays_each_variant_with_timeline_state_and_verdict() {
        let out = replay::<LeaderReady>(STEP_DOWN).expect("valid scenario");
        assert!(out.contains("variant upstream (parts: none)"), "{out}");
        assert!(
            out.contains("final state: isLeader=false isLeaderReady=true"),
            "{out}"
        );
        assert!(
            out.contains("verdict: reaches O1: follower is leader-ready"),
            "{out}"
        );
        assert!(out.contains("variant proposed (parts: P1+P2)"), "{out}");
        assert!(
            out.contains("final state: isLeader=false isLeaderReady=false"),
            "{out}"
        );
        assert!(out.contains("verdict: no outcome reached"), "{out}");
    }

    #[test]
    fn an_order_a_variant_forbids_is_noted_not_fatal() {
        let text = "contract leader-ready\nvariants upstream\napply-startup-entry\nstep apply 9\n";
        let out = replay::<LeaderReady>(text).expect("valid scenario");
        assert!(
            out.contains("note: line 4: `apply` has finished (no actor is running); 3 step(s) left to the finish"),
            "{out}"
        );
    }

    #[test]
    fn mistakes_name_their_line() {
        let bad = |text: &str| replay::<LeaderReady>(text).unwrap_err().to_string();
        assert_eq!(
            bad("contract leader-ready\nvariants upstream fixed\n"),
            "line 2: unknown variant `fixed` (known: upstream, P1, P2, proposed, improved)"
        );
        assert_eq!(
            bad("contract leader-ready\n\nelekt\n"),
            "line 3: unknown operation `elekt` (operations: step ACTOR [N], elect, step-down, step-down-for-higher-term, apply-startup-entry)"
        );
        assert_eq!(
            bad("contract leader-ready\napply-startup-entry\nstep apply 0\n"),
            "line 3: `0` is not a step count from 1 to 10000"
        );
        assert_eq!(
            bad("contract leader-ready\napply-startup-entry\nstep ratis\n"),
            "line 3: no actor `ratis` has been started (started: apply)"
        );
        assert_eq!(
            bad("contract leader-ready\nelect\n"),
            "line 2: `Elect` is not possible at this point of the schedule"
        );
        assert_eq!(bad("# nothing\n"), "the scenario is empty");
        assert_eq!(
            contract_of("step apply\n").unwrap_err().to_string(),
            "line 1: the first line must be `contract NAME`"
        );
    }
}
