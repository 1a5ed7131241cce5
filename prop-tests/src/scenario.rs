//! Scenario files: "what if it happens in this order?" without writing loom code.
//!
//! ```text
//! # HDDS-17575: the step-down lands while notifyLeaderReady flushes
//! contract leader-ready
//! variants upstream proposed      # optional; every variant by default
//! expect upstream O1              # optional: the outcomes a variant reaches, exactly
//! expect proposed nothing
//! apply-startup-entry             # a contract operation (starts a program)
//! step apply 4                    # four steps of the actor `apply`
//! step-down
//! step ratis 3
//! ```
//!
//! A file may start from a loom scenario instead of the contract's history start: a
//! `scenario NAME` line after `contract`, then only `step` lines (the step checker writes its
//! counterexamples this way). An actor whose name holds a space is written in double quotes:
//! `step "close, then force delete" 2`.
//!
//! Every line is checked before anything runs; a mistake is reported with its line number. The
//! replay runs the schedule on each variant, finishes the remaining programs in start order,
//! and prints the timeline, the final state and the outcomes reached. An `expect` line that
//! the replay contradicts is reported with its line ([`Replay::differs`]): the committed files
//! expect something of every variant they replay, so that a test replaying them can fail.

use racelab_core::drive::Driver;
use racelab_core::histories::{op_usages, parse_op, Histories, Session, STUCK};
use racelab_core::model::{Model, Scenario};
use racelab_core::registry::{self, Registered, Visitor};
use std::fmt::Write;

/// A line of a scenario file, parsed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Line<O> {
    Op(O),
    Step { actor: String, times: usize },
}

/// A replay: what it prints, and how it compares with the file's `expect` lines.
#[derive(Debug)]
pub struct Replay {
    pub out: String,
    /// The `expect` lines the replay contradicts, each with what the variant reached.
    pub differs: Vec<ScenarioError>,
    /// The variants replayed that no `expect` line names.
    pub unchecked: Vec<&'static str>,
}

/// An `expect` line: its number, the variant and the outcomes it reaches, sorted.
struct Expect {
    line: usize,
    variant: &'static str,
    outcomes: Vec<String>,
}

/// How a set of outcomes is written: `O2, O5`, or `nothing`.
fn listed(outcomes: &[String]) -> String {
    if outcomes.is_empty() {
        "nothing".to_owned()
    } else {
        outcomes.join(", ")
    }
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

/// The meaningful lines of `text`: (line number, words), comments and blanks dropped. A word in
/// double quotes may hold spaces and `#`; an unclosed quote is a mistake on its line.
fn lines(text: &str) -> Result<Vec<(usize, Vec<&str>)>, ScenarioError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = Vec::new();
        let mut rest = line.trim_start();
        while !rest.is_empty() && !rest.starts_with('#') {
            let (word, after) = match rest.strip_prefix('"') {
                Some(quoted) => match quoted.find('"') {
                    Some(end) => (&quoted[..end], &quoted[end + 1..]),
                    None => return err(i + 1, "a double quote is not closed"),
                },
                None => {
                    let end = rest.find(|c: char| c.is_whitespace() || c == '#');
                    rest.split_at(end.unwrap_or(rest.len()))
                }
            };
            words.push(word);
            rest = after.trim_start();
        }
        if !words.is_empty() {
            out.push((i + 1, words));
        }
    }
    Ok(out)
}

/// The contract a scenario names on its first line.
pub fn contract_of(text: &str) -> Result<String, ScenarioError> {
    match lines(text)?.first() {
        Some((_, w)) if w.len() == 2 && w[0] == "contract" => Ok(w[1].to_owned()),
        Some((n, _)) => err(*n, "the first line must be `contract NAME`"),
        None => err(0, "the scenario is empty"),
    }
}

/// The loom scenario `name` of `M` (one that some claim explores), or the mistake of naming it
/// on line `n`.
fn loom_scenario<M: Histories>(
    n: usize,
    name: &str,
) -> Result<&'static Scenario<M>, ScenarioError> {
    let mut known: Vec<&'static Scenario<M>> = M::CLAIMS
        .cells
        .iter()
        .filter_map(|c| c.method.loom_scenario().map(|(s, _)| s))
        .collect();
    known.sort_by_key(|s| s.name);
    known.dedup_by_key(|s| s.name);
    match known.iter().find(|s| s.name == name) {
        Some(s) => Ok(s),
        None => {
            let names: Vec<&str> = known.iter().map(|s| s.name).collect();
            err(
                n,
                format!("unknown scenario `{name}` (known: {})", names.join(", ")),
            )
        }
    }
}

/// The variant `name` of `M`, or the mistake of naming it on line `n`.
fn variant_named<M: Histories>(n: usize, name: &str) -> Result<&'static str, ScenarioError> {
    match M::variant(name) {
        Some(v) => Ok(v.name),
        None => {
            let known: Vec<&str> = M::VARIANTS.iter().map(|v| v.name).collect();
            err(
                n,
                format!("unknown variant `{name}` (known: {})", known.join(", ")),
            )
        }
    }
}

/// An `expect` line's outcomes (`nothing`, or outcome IDs of `M`, or `stuck`), sorted.
fn expected_outcomes<M: Histories>(n: usize, words: &[&str]) -> Result<Vec<String>, ScenarioError> {
    if words == ["nothing"] {
        return Ok(Vec::new());
    }
    let known = || {
        let mut ids: Vec<&str> = M::OUTCOMES.iter().map(|o| o.id).collect();
        ids.push(STUCK);
        ids.join(", ")
    };
    let mut outcomes = Vec::new();
    for w in words {
        if !M::OUTCOMES.iter().any(|o| o.id == *w) && *w != STUCK {
            return err(
                n,
                format!("unknown outcome `{w}` (known: {}; or `nothing`)", known()),
            );
        }
        outcomes.push(w.to_string());
    }
    outcomes.sort();
    outcomes.dedup();
    Ok(outcomes)
}

/// A scenario file, parsed and checked: where it starts, the variants it replays (all when
/// `None`), its `expect` lines and its schedule.
pub(crate) struct Parsed<M: Histories> {
    pub start: Option<&'static Scenario<M>>,
    variants: Option<Vec<&'static str>>,
    expects: Vec<Expect>,
    pub schedule: Vec<(usize, Line<M::Op>)>,
}

/// Parses a scenario of `M`, every line checked before anything runs.
pub(crate) fn parse<M: Histories>(text: &str) -> Result<Parsed<M>, ScenarioError> {
    let named = contract_of(text)?;
    if named != M::CONTRACT.id {
        return err(
            1,
            format!("this scenario is for `{named}`, not `{}`", M::CONTRACT.id),
        );
    }
    let mut variants: Option<Vec<&'static str>> = None;
    let mut expects: Vec<Expect> = Vec::new();
    let mut schedule: Vec<(usize, Line<M::Op>)> = Vec::new();
    let mut start: Option<&'static Scenario<M>> = None;
    for (n, words) in lines(text)?.into_iter().skip(1) {
        match words.as_slice() {
            ["scenario", name]
                if schedule.is_empty()
                    && variants.is_none()
                    && expects.is_empty()
                    && start.is_none() =>
            {
                start = Some(loom_scenario::<M>(n, name)?);
            }
            ["scenario", ..] => {
                return err(n, "`scenario NAME` must come once, right after `contract`")
            }
            ["variants", names @ ..]
                if schedule.is_empty() && variants.is_none() && expects.is_empty() =>
            {
                if names.is_empty() {
                    return err(n, "`variants` needs at least one variant name");
                }
                let chosen = names.iter().map(|name| variant_named::<M>(n, name));
                variants = Some(chosen.collect::<Result<_, _>>()?);
            }
            ["variants", ..] => {
                return err(
                    n,
                    "`variants` must come once, before the `expect` lines and the first step",
                )
            }
            ["expect", variant, outcomes @ ..] if schedule.is_empty() && !outcomes.is_empty() => {
                let variant = variant_named::<M>(n, variant)?;
                if variants.as_ref().is_some_and(|vs| !vs.contains(&variant)) {
                    return err(n, format!("`{variant}` is not among the variants replayed"));
                }
                if expects.iter().any(|e| e.variant == variant) {
                    return err(n, format!("`{variant}` is expected twice"));
                }
                let outcomes = expected_outcomes::<M>(n, outcomes)?;
                expects.push(Expect {
                    line: n,
                    variant,
                    outcomes,
                });
            }
            ["expect", ..] if schedule.is_empty() => {
                return err(
                    n,
                    "`expect` takes a variant and what it reaches: `expect VARIANT O1 O2` or \
                     `expect VARIANT nothing`",
                )
            }
            ["expect", ..] => return err(n, "`expect` lines come before the first step"),
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
            op if start.is_some() => {
                return err(
                    n,
                    format!(
                        "`{}`: a file that starts from a loom scenario has only `step` lines",
                        op.join(" ")
                    ),
                )
            }
            op => match parse_op::<M>(op) {
                Ok(o) => schedule.push((n, Line::Op(o))),
                Err(e) => {
                    return err(
                        n,
                        format!(
                            "{e} (operations: step ACTOR [N], {})",
                            op_usages::<M>().join(", ")
                        ),
                    )
                }
            },
        }
    }
    if schedule.is_empty() {
        return err(0, "the scenario has no steps");
    }
    Ok(Parsed {
        start,
        variants,
        expects,
        schedule,
    })
}

/// Replays the scenario on each variant it names.
pub fn replay<M: Histories>(text: &str) -> Result<Replay, ScenarioError> {
    let Parsed {
        start,
        variants,
        expects,
        schedule,
    } = parse::<M>(text)?;
    let variants = variants.unwrap_or_else(|| M::VARIANTS.iter().map(|v| v.name).collect());
    let mut out = String::new();
    let (mut differs, mut unchecked) = (Vec::new(), Vec::new());
    for name in variants {
        let v = M::variant(name).expect("checked above");
        let fix = M::fix_of_variant(v);
        let mut notes: Vec<String> = Vec::new();
        let (trace, world, found) = match start {
            Some(scenario) => run_from_scenario::<M>(scenario, fix, &schedule, &mut notes)?,
            None => run_history::<M>(fix, &schedule, &mut notes)?,
        };
        let parts = if v.parts.is_empty() {
            "none".to_owned()
        } else {
            racelab_core::model::ids(v.parts).join("+")
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
        for (outcome, witness) in &found {
            let what = if *outcome == STUCK {
                "stuck"
            } else {
                "reaches"
            };
            writeln!(out, "verdict: {what} {outcome}: {witness}").ok();
        }
        let Some(e) = expects.iter().find(|e| e.variant == name) else {
            unchecked.push(name);
            continue;
        };
        let mut reached: Vec<String> = found.iter().map(|f| f.0.to_owned()).collect();
        reached.sort();
        let holds = reached == e.outcomes;
        let how = if holds { "as replayed" } else { "DIFFERS" };
        let expected = listed(&e.outcomes);
        writeln!(out, "expected (line {}): {expected}: {how}", e.line).ok();
        if !holds {
            differs.push(ScenarioError {
                line: e.line,
                problem: format!(
                    "variant {name} reaches {}; the file expects {expected}",
                    listed(&reached)
                ),
            });
        }
    }
    Ok(Replay {
        out,
        differs,
        unchecked,
    })
}

/// What one variant's replay leaves: the trace, the world, and each outcome reached with its
/// witness.
type Ran<M> = (
    racelab_core::trace::Trace,
    racelab_core::sync::Arc<<M as Model>::World>,
    Vec<(&'static str, String)>,
);

/// Runs `schedule` (operations and steps) on a history's start, then finishes it.
fn run_history<M: Histories>(
    fix: M::Fix,
    schedule: &[(usize, Line<M::Op>)],
    notes: &mut Vec<String>,
) -> Result<Ran<M>, ScenarioError> {
    let mut session = Session::<M>::new(fix);
    for (n, line) in schedule {
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
                steps(
                    &started,
                    |a| session.step_named(a),
                    (*n, actor, *times),
                    notes,
                )?;
            }
        }
    }
    let trace = session.driver.trace.clone();
    let world = session.driver.world.clone();
    let found = session.finish();
    Ok((
        trace,
        world,
        found.into_iter().map(|f| (f.outcome, f.witness)).collect(),
    ))
}

/// Runs the `step` lines from a loom scenario's start, finishes the actors left in start order,
/// and decides every outcome on the end as the exhaustive checkers do.
fn run_from_scenario<M: Histories>(
    scenario: &Scenario<M>,
    fix: M::Fix,
    schedule: &[(usize, Line<M::Op>)],
    notes: &mut Vec<String>,
) -> Result<Ran<M>, ScenarioError> {
    let trace = racelab_core::trace::Trace::new();
    let mut d = Driver::<M>::new(trace.clone(), (scenario.build)(&trace, fix));
    for (n, line) in schedule {
        if let Line::Step { actor, times } = line {
            let started = d.actors();
            steps(&started, |a| d.step_named(a), (*n, actor, *times), notes)?;
        }
    }
    let stuck = d.finish().err();
    let found = M::OUTCOMES
        .iter()
        .filter(|o| racelab_core::steps::shows(o, &d.world, stuck.is_some()))
        .map(|o| {
            let witness = o.holds(&d.world).or(stuck.clone()).unwrap_or_default();
            (o.id, witness)
        })
        .collect();
    Ok((trace, d.world.clone(), found))
}

/// `step ACTOR N` on line `n`, each step through `step` (a history's steps are checked at every
/// quiet point, a loom scenario's at its end). The order the file asks for may be impossible in
/// this variant (its fix makes the actor wait): that is noted, and the rest is left to the
/// finish.
fn steps(
    started: &[&str],
    mut step: impl FnMut(&str) -> Result<(), String>,
    (n, actor, times): (usize, &str, usize),
    notes: &mut Vec<String>,
) -> Result<(), ScenarioError> {
    if !started.contains(&actor) {
        let started = if started.is_empty() {
            "none".to_owned()
        } else {
            started.join(", ")
        };
        return err(
            n,
            format!("no actor `{actor}` has been started (started: {started})"),
        );
    }
    for i in 0..times {
        if let Err(e) = step(actor) {
            notes.push(format!(
                "line {n}: {e}; {} step(s) left to the finish",
                times - i
            ));
            break;
        }
    }
    Ok(())
}

/// Replays a file that expects something of every variant it replays, and fails unless each
/// reaches exactly what it expects: what a written counterexample must do.
pub fn replays_as_written(text: &str) -> Result<(), String> {
    let r = replay_any(text).map_err(|e| format!("does not parse: {e}"))?;
    if let Some(v) = r.unchecked.first() {
        return Err(format!("expects nothing of variant {v}"));
    }
    match r.differs.first() {
        Some(e) => Err(format!("does not replay: {e}\n{}", r.out)),
        None => Ok(()),
    }
}

/// Replays a scenario of any registered contract (named on its first line).
pub fn replay_any(text: &str) -> Result<Replay, ScenarioError> {
    struct Replaying<'a> {
        id: String,
        text: &'a str,
        out: Option<Result<Replay, ScenarioError>>,
        known: Vec<&'static str>,
    }
    impl Visitor for Replaying<'_> {
        fn visit<M: Registered>(&mut self) {
            self.known.push(M::CONTRACT.id);
            if M::CONTRACT.id == self.id {
                self.out = Some(replay::<M>(self.text));
            }
        }
    }
    let mut r = Replaying {
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

    /// Every contract's scenario syntax: names and literals in lower case, values in capitals
    /// (so a usage line shows which is which), and no two forms with the same usage (the
    /// second could never parse).
    #[test]
    fn scenario_syntax_is_unambiguous() {
        use racelab_core::histories::Word;
        struct Check;
        impl Visitor for Check {
            fn visit<M: Registered>(&mut self) {
                let usages = op_usages::<M>();
                for (i, form) in M::SYNTAX.iter().enumerate() {
                    let id = M::CONTRACT.id;
                    assert!(!form.name.is_empty() && form.name == form.name.to_lowercase());
                    for w in form.words {
                        match w {
                            Word::Literal(s) => assert_eq!(*s, s.to_lowercase(), "{id}"),
                            Word::Value(s, _) => assert_eq!(*s, s.to_uppercase(), "{id}"),
                        }
                    }
                    assert!(!usages[..i].contains(&usages[i]), "{id}: {}", usages[i]);
                }
            }
        }
        registry::visit(&mut Check);
    }

    /// What a scenario line parses to, and what is wrong with one that does not.
    #[test]
    fn scenario_lines_parse_from_the_syntax_table() {
        use racelab_core::contracts::container_recreate::{histories as cr, ContainerRecreate};
        use racelab_core::contracts::dead_node::{histories as dn, DeadNode};
        use racelab_core::contracts::recon_sync::{histories as rs, ReconSync};
        let dead = |line: &str| parse_op::<DeadNode>(&line.split(' ').collect::<Vec<_>>());
        assert_eq!(dead("heartbeat dn2"), Ok(dn::Op::Heartbeat(2)));
        assert_eq!(dead("stop 3"), Ok(dn::Op::Stop(3)));
        assert_eq!(
            dead("heartbeat dn9"),
            Err("`dn9` is not a datanode: dn1, dn2 or dn3".into())
        );
        assert_eq!(
            dead("heartbeat"),
            Err("`heartbeat` is written `heartbeat DN`".into())
        );
        assert_eq!(dead("tick 3"), Err("`tick` takes no arguments".into()));
        assert_eq!(dead("tock"), Err("unknown operation `tock`".into()));
        let recon = |line: &str| parse_op::<ReconSync>(&line.split(' ').collect::<Vec<_>>());
        assert_eq!(
            recon("fault snapshot-ok"),
            Ok(rs::Op::Fault {
                snapshot: rs::Fallback::Succeeds
            })
        );
        assert_eq!(
            recon("fault snapshot"),
            Err(
                "`fault` is written `fault` or `fault snapshot-ok` or `fault snapshot-hangs`"
                    .into()
            )
        );
        assert_eq!(
            recon("put 9"),
            Err("`9` is not a file number from 1 to 4".into())
        );
        // A name the old hand-kept list of names had left out.
        assert_eq!(
            parse_op::<ContainerRecreate>(&["force-delete", "1", "2"]),
            Ok(cr::Op::ForceDelete(1, 2))
        );
    }

    const STEP_DOWN: &str = "\
# the step-down lands while notifyLeaderReady flushes
contract leader-ready
variants upstream proposed
expect upstream O1
expect proposed nothing
apply-startup-entry
step apply 4
step-down
step ratis 3
";

    #[test]
    fn replays_each_variant_with_timeline_state_and_verdict() {
        let r = replay::<LeaderReady>(STEP_DOWN).expect("valid scenario");
        assert!(r.differs.is_empty() && r.unchecked.is_empty(), "{r:?}");
        let out = r.out;
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
        assert!(
            out.contains("expected (line 5): nothing: as replayed"),
            "{out}"
        );
    }

    #[test]
    fn an_expectation_the_replay_contradicts_is_reported_with_its_line() {
        let wrong = STEP_DOWN.replace("expect proposed nothing", "expect proposed O1");
        let r = replay::<LeaderReady>(&wrong).expect("valid scenario");
        assert_eq!(
            r.differs,
            [ScenarioError {
                line: 5,
                problem: "variant proposed reaches nothing; the file expects O1".into()
            }]
        );
        assert!(
            r.out.contains("expected (line 5): O1: DIFFERS"),
            "{}",
            r.out
        );
        let unnamed = STEP_DOWN.replace("expect upstream O1\n", "");
        let r = replay::<LeaderReady>(&unnamed).expect("valid scenario");
        assert_eq!((r.differs.len(), r.unchecked), (0, vec!["upstream"]));
    }

    #[test]
    fn an_order_a_variant_forbids_is_noted_not_fatal() {
        let text = "contract leader-ready\nvariants upstream\napply-startup-entry\nstep apply 9\n";
        let out = replay::<LeaderReady>(text).expect("valid scenario").out;
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
        assert_eq!(
            bad("contract leader-ready\nexpect upstream O9\n"),
            "line 2: unknown outcome `O9` (known: O1, O2, R1, R2, stuck; or `nothing`)"
        );
        assert_eq!(
            bad("contract leader-ready\nvariants proposed\nexpect upstream O1\n"),
            "line 3: `upstream` is not among the variants replayed"
        );
        assert_eq!(
            bad("contract leader-ready\nexpect upstream O1\nexpect upstream nothing\n"),
            "line 3: `upstream` is expected twice"
        );
        assert_eq!(
            bad("contract leader-ready\nexpect upstream\n"),
            "line 2: `expect` takes a variant and what it reaches: `expect VARIANT O1 O2` or \
             `expect VARIANT nothing`"
        );
        assert_eq!(
            bad("contract leader-ready\napply-startup-entry\nexpect upstream O1\n"),
            "line 3: `expect` lines come before the first step"
        );
        assert_eq!(
            bad("contract leader-ready\nexpect upstream O1\nvariants upstream\n"),
            "line 3: `variants` must come once, before the `expect` lines and the first step"
        );
        assert_eq!(bad("# nothing\n"), "the scenario is empty");
        assert_eq!(
            contract_of("step apply\n").unwrap_err().to_string(),
            "line 1: the first line must be `contract NAME`"
        );
    }

    #[test]
    fn a_written_counterexample_replays_and_a_wrong_one_does_not() {
        use racelab_core::contracts::leader_ready::{O1, STEP_DOWN_DURING_CALLBACK};
        use racelab_core::schedule::Counterexample;
        use racelab_core::steps::{enumerate, every_choice};
        let e = enumerate(
            &STEP_DOWN_DURING_CALLBACK,
            LeaderReady::UPSTREAM,
            &O1,
            every_choice,
        );
        let written = |reached: &[&str], steps: &[&str]| {
            Counterexample {
                contract: "leader-ready",
                scenario: STEP_DOWN_DURING_CALLBACK.name,
                variant: "upstream",
                reached,
                steps,
            }
            .to_file()
        };
        let file = written(&e.reached, &e.schedule);
        assert_eq!(replays_as_written(&file), Ok(()), "{file}");
        // Expecting too little, or replaying only the first step (the finish then runs the
        // rest in start order, which does not reach O1 here), is caught.
        let wrong = written(&["O2"], &e.schedule);
        let got = replays_as_written(&wrong).unwrap_err();
        assert!(
            got.starts_with("does not replay: line 6: variant upstream reaches O1"),
            "{got}"
        );
        let cut = written(&e.reached, &e.schedule[..1]);
        assert!(replays_as_written(&cut).is_err(), "{cut}");
    }

    #[test]
    fn a_loom_scenario_start_takes_only_steps_and_quoted_actors() {
        let bad = |text: &str| replay::<LeaderReady>(text).unwrap_err().to_string();
        assert_eq!(
            bad("contract leader-ready\nscenario nowhere\nstep apply\n"),
            "line 2: unknown scenario `nowhere` (known: \
             candidacy-before-term-read-win-during-callback, step-down-and-re-election-after-check, \
             step-down-and-re-election-after-term-read, step-down-during-callback)"
        );
        assert_eq!(
            bad("contract leader-ready\nscenario step-down-during-callback\nstep-down\n"),
            "line 3: `step-down`: a file that starts from a loom scenario has only `step` lines"
        );
        assert_eq!(
            bad("contract leader-ready\nvariants upstream\nscenario step-down-during-callback\n"),
            "line 3: `scenario NAME` must come once, right after `contract`"
        );
        assert_eq!(
            bad("contract leader-ready\nscenario step-down-during-callback\nstep \"apply 2\n"),
            "line 3: a double quote is not closed"
        );
        assert_eq!(
            bad("contract leader-ready\nscenario step-down-during-callback\nstep \"no one\" 2\n"),
            "line 3: no actor `no one` has been started (started: apply, ratis)"
        );
    }
}
