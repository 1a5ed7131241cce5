//! Trace validation: a run of the real code, recorded call by call in the test JVM
//! (`conformance/common/src/test/java/racelab/trace`), checked against the model.
//!
//! The recorder logs the entry and exit of every observed method (a `Class.method` the
//! contract's `upstream.rs` names) on the threads that play a model actor, with the values the
//! model's steps record. The validator runs the model in the run's order file
//! (`scenarios/<contract>-real-<REPLAY>.scn`: its start, its operations in file order) and
//! searches every interleaving of the model's steps for one that explains the run:
//!
//! - each model event of an observed method is placed in a real call of that method on the
//!   same actor, calls consumed in their order (several events may share one call: finer steps
//!   of one method);
//! - the events' times increase in the model's order: a model order the real run contradicts
//!   (a call placed before another that had ended before it began) is not an explanation;
//! - a value both sides give (`key=value` in the model's detail, a recorded value of the call)
//!   is equal; steps of methods not observed are free;
//! - every real call is explained, and the final observable state the test read from the real
//!   objects is the model's (`Model::describe`) on every key the test gives.
//!
//! A run the model cannot follow is a divergence: the message names the first real call no
//! order of the model explains, the steps the model could take there, and its state.

use crate::scenario::{parse, Line};
use racelab_core::drive::Driver;
use racelab_core::histories::Histories;
use racelab_core::model::Setup;
use racelab_core::plan::Plan;
use racelab_core::registry::{self, Registered, Visitor};
use racelab_core::trace::Trace;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The first line's `trace` field: the format this module reads.
pub const SCHEMA: &str = "racelab-trace/1";

/// One call of an observed method in the real run.
#[derive(Clone, Debug)]
pub struct Call {
    pub actor: String,
    pub thread: String,
    pub method: String,
    pub enter: u64,
    /// `u64::MAX` when the recording ended inside the call.
    pub exit: u64,
    /// What the recorder read at the exit (and the entry): the values the model's steps record.
    pub values: BTreeMap<String, String>,
    /// The exception the call ended with.
    pub threw: Option<String>,
}

impl Call {
    fn describe(&self) -> String {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let threw = self
            .threw
            .as_ref()
            .map(|t| format!(", threw {t}"))
            .unwrap_or_default();
        format!(
            "#{} {} ({}) {}({}){threw}",
            self.enter,
            self.actor,
            self.thread,
            self.method,
            values.join(" ")
        )
    }
}

/// A recorded run: which replay on which row, the methods observed, the calls, the final state.
#[derive(Clone, Debug)]
pub struct RealTrace {
    pub path: PathBuf,
    pub contract: String,
    pub replay: String,
    pub variant: String,
    pub parts: Vec<String>,
    /// The row ran with its parts off: the model's upstream row explains it.
    pub layer_off: bool,
    pub observed: BTreeSet<String>,
    /// The run's part of the model's setup was not recorded (`"setup": "skipped"`: the
    /// recorder dropped what a thread finished before the point where the model's scenario hands
    /// its threads over), so the model's setup is not matched either.
    pub setup_skipped: bool,
    /// In entry order.
    pub calls: Vec<Call>,
    pub final_state: BTreeMap<String, String>,
}

/// `FILE:LINE: problem`.
fn at(path: &Path, line: usize, problem: impl std::fmt::Display) -> String {
    format!("{}:{line}: {problem}", path.display())
}

fn text_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn string_map(v: Option<&Value>) -> Option<BTreeMap<String, String>> {
    match v {
        None => Some(BTreeMap::new()),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| {
                let s = match v {
                    Value::String(s) => s.clone(),
                    Value::Bool(_) | Value::Number(_) => v.to_string(),
                    _ => return None,
                };
                Some((k.clone(), s))
            })
            .collect(),
        Some(_) => None,
    }
}

impl RealTrace {
    pub fn read(path: &Path) -> Result<RealTrace, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Self::parse(path, &text)
    }

    /// Reads a trace: a header line, one line per entry and exit, then the final state.
    pub fn parse(path: &Path, text: &str) -> Result<RealTrace, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines
            .next()
            .ok_or_else(|| at(path, 1, "the trace is empty"))?;
        let head: Value =
            serde_json::from_str(first).map_err(|e| at(path, 1, format!("not JSON: {e}")))?;
        if head.get("trace").and_then(Value::as_str) != Some(SCHEMA) {
            return Err(at(
                path,
                1,
                format!("the first line must say \"trace\": \"{SCHEMA}\""),
            ));
        }
        let need =
            |key: &str| text_field(&head, key).ok_or_else(|| at(path, 1, format!("no `{key}`")));
        let strings = |key: &str| -> Result<Vec<String>, String> {
            head.get(key)
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect())
                .ok_or_else(|| at(path, 1, format!("`{key}` must be a list of strings")))
        };
        let mut trace = RealTrace {
            path: path.to_owned(),
            contract: need("contract")?,
            replay: need("replay")?,
            variant: need("variant")?,
            parts: strings("parts")?,
            layer_off: head
                .get("layer_off")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            observed: strings("observed")?.into_iter().collect(),
            setup_skipped: match head.get("setup").and_then(Value::as_str) {
                None | Some("recorded") => false,
                Some("skipped") => true,
                Some(other) => {
                    return Err(at(
                        path,
                        1,
                        format!("`setup` is `recorded` or `skipped`, not `{other}`"),
                    ))
                }
            },
            calls: Vec::new(),
            final_state: BTreeMap::new(),
        };
        // Each thread's open calls, innermost last, by index into `calls`.
        let mut open: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut last_seq = 0;
        let mut finished = false;
        for (i, line) in lines {
            let n = i + 1;
            let v: Value =
                serde_json::from_str(line).map_err(|e| at(path, n, format!("not JSON: {e}")))?;
            if finished {
                return Err(at(path, n, "nothing may follow the `final` line"));
            }
            if let Some(f) = v.get("final") {
                trace.final_state = string_map(Some(f))
                    .ok_or_else(|| at(path, n, "`final` must map names to values"))?;
                finished = true;
                continue;
            }
            let seq = v
                .get("seq")
                .and_then(Value::as_u64)
                .ok_or_else(|| at(path, n, "an event needs a `seq` number"))?;
            if seq <= last_seq {
                return Err(at(path, n, format!("seq {seq} does not follow {last_seq}")));
            }
            last_seq = seq;
            let (Some(event), Some(actor), Some(thread), Some(method)) = (
                text_field(&v, "event"),
                text_field(&v, "actor"),
                text_field(&v, "thread"),
                text_field(&v, "method"),
            ) else {
                return Err(at(
                    path,
                    n,
                    "an event needs `event`, `actor`, `thread` and `method`",
                ));
            };
            if !trace.observed.contains(&method) {
                return Err(at(
                    path,
                    n,
                    format!("{method} is not in the header's `observed`"),
                ));
            }
            let values = string_map(v.get("values"))
                .ok_or_else(|| at(path, n, "`values` must map names to values"))?;
            let stack = open.entry(thread.clone()).or_default();
            match event.as_str() {
                "enter" => {
                    stack.push(trace.calls.len());
                    trace.calls.push(Call {
                        actor,
                        thread,
                        method,
                        enter: seq,
                        exit: u64::MAX,
                        values,
                        threw: None,
                    });
                }
                "exit" => {
                    let Some(top) = stack.pop() else {
                        return Err(at(
                            path,
                            n,
                            format!("{method} exits on {thread}, which is in no call"),
                        ));
                    };
                    let c = &mut trace.calls[top];
                    if c.method != method {
                        return Err(at(
                            path,
                            n,
                            format!("{method} exits on {thread} inside {}", c.method),
                        ));
                    }
                    c.exit = seq;
                    c.values.extend(values);
                    c.threw = text_field(&v, "threw");
                }
                other => {
                    return Err(at(
                        path,
                        n,
                        format!("unknown event `{other}` (enter or exit)"),
                    ))
                }
            }
        }
        if !finished {
            return Err(at(
                path,
                0,
                "no `final` line: the recording was not finished",
            ));
        }
        Ok(trace)
    }
}

/// The `key=value` words of a model event's detail or state, the last of each key.
pub fn values_in(text: &str) -> BTreeMap<&str, &str> {
    let mut out = BTreeMap::new();
    for word in text.split_whitespace() {
        let Some((k, v)) = word.split_once('=') else {
            continue;
        };
        let k = k.trim_start_matches(['(', '[', ',']);
        let v = v.trim_end_matches([',', ';', ':', ')', ']']);
        let name = |c: char| c.is_ascii_alphanumeric() || "_.#[]-".contains(c);
        if !k.is_empty() && !v.is_empty() && k.chars().all(name) {
            out.insert(k, v);
        }
    }
    out
}

/// Where a partial explanation stands: the time of the model's last observed event, and per
/// (actor, method) the last real call explained.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    time: u64,
    cursor: Vec<Option<usize>>,
    compared: usize,
}

/// The real calls, grouped by (actor, method).
struct Calls<'t> {
    trace: &'t RealTrace,
    keys: Vec<(&'t str, &'t str)>,
    /// Per key, indices into `trace.calls`, in entry order.
    by_key: Vec<Vec<usize>>,
}

impl<'t> Calls<'t> {
    fn new(trace: &'t RealTrace) -> Self {
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let mut by_key: Vec<Vec<usize>> = Vec::new();
        for (i, c) in trace.calls.iter().enumerate() {
            let key = (c.actor.as_str(), c.method.as_str());
            match keys.iter().position(|k| *k == key) {
                Some(k) => by_key[k].push(i),
                None => {
                    keys.push(key);
                    by_key.push(vec![i]);
                }
            }
        }
        Calls {
            trace,
            keys,
            by_key,
        }
    }

    fn start(&self) -> Place {
        Place {
            time: 0,
            cursor: vec![None; self.keys.len()],
            compared: 0,
        }
    }

    fn explained(&self, p: &Place) -> usize {
        p.cursor.iter().map(|c| c.map_or(0, |i| i + 1)).sum()
    }

    /// The real calls not yet explained, earliest entry first.
    fn unexplained(&self, p: &Place) -> Vec<&'t Call> {
        let mut out: Vec<&Call> = self
            .by_key
            .iter()
            .zip(&p.cursor)
            .flat_map(|(calls, c)| calls[c.map_or(0, |i| i + 1)..].iter())
            .map(|&i| &self.trace.calls[i])
            .collect();
        out.sort_by_key(|c| c.enter);
        out
    }

    /// The places after the model's event `(actor, method, detail)`, or why there is none.
    fn advance(
        &self,
        p: &Place,
        actor: &str,
        method: &str,
        detail: &str,
    ) -> Result<Vec<Place>, String> {
        let Some(k) = self.keys.iter().position(|key| *key == (actor, method)) else {
            return Err(format!("the code made no call of {method} on {actor}"));
        };
        let calls = &self.by_key[k];
        let mut out = Vec::new();
        let mut why = Vec::new();
        // A later step of the call already begun, or the first step of the next call.
        let options = [
            p.cursor[k].map(|i| (i, false)),
            Some((p.cursor[k].map_or(0, |i| i + 1), true)),
        ];
        for (i, first) in options.into_iter().flatten() {
            let Some(&ci) = calls.get(i) else {
                why.push(format!("every call of {method} on {actor} is explained"));
                continue;
            };
            let c = &self.trace.calls[ci];
            if p.time > c.exit {
                let which = if first {
                    "its next call"
                } else {
                    "the call it is in"
                };
                why.push(format!(
                    "{which}, {}, had returned (#{}) before #{}, where the model is",
                    c.describe(),
                    c.exit,
                    p.time
                ));
                continue;
            }
            let model = values_in(detail);
            let differ: Vec<String> = c
                .values
                .iter()
                .filter_map(|(k, v)| match model.get(k.as_str()) {
                    Some(m) if m != v => Some(format!("{k}: the code {v}, the model {m}")),
                    _ => None,
                })
                .collect();
            if !differ.is_empty() {
                why.push(format!("{}: {}", c.describe(), differ.join("; ")));
                continue;
            }
            let compared = c
                .values
                .keys()
                .filter(|k| model.contains_key(k.as_str()))
                .count();
            let mut next = p.clone();
            next.time = p.time.max(c.enter);
            next.cursor[k] = Some(i);
            next.compared += compared;
            // A call that returned before the model's time can never be explained.
            if self.unexplained(&next).iter().all(|u| u.exit >= next.time) {
                out.push(next);
            } else {
                why.push(format!(
                    "placing it at #{} leaves an earlier call unexplained for ever",
                    next.time
                ));
            }
        }
        if out.is_empty() {
            Err(why.join("; "))
        } else {
            Ok(out)
        }
    }
}

/// A change to the model as the validator runs it: what the tests use to show that a model
/// which can no longer do what the code does is rejected. Each is a mutation of the model's
/// steps, applied where the actor's step records `method`.
#[derive(Clone, Copy, Debug)]
pub enum Mutation {
    /// That step and the actor's next one run as one atomic step: no other actor between them.
    Merge {
        actor: &'static str,
        method: &'static str,
    },
    /// That step and the actor's next one run in the other order (atomically, the next step's
    /// events first).
    Swap {
        actor: &'static str,
        method: &'static str,
    },
    /// That step records `key=value`, a value the code does not produce.
    Value {
        method: &'static str,
        key: &'static str,
        value: &'static str,
    },
}

/// A choice of the search: the file's next operation, or a step of a started program.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Choice {
    Op,
    Step(usize),
}

/// The result of validating one trace: conformance.json's record of it (`problem` the
/// divergence, in words, when the model cannot follow the run).
pub use racelab_core::report::real_code::TraceCheck as Validation;

/// The deepest point a failed search reached, for the message.
#[derive(Default)]
struct Furthest {
    explained: usize,
    message: Option<String>,
}

struct Search<'t, M: Histories> {
    calls: Calls<'t>,
    fix: M::Fix,
    start: Option<&'static racelab_core::model::Scenario<M>>,
    ops: Vec<M::Op>,
    /// The file's order, as the search prefers it.
    script: Vec<Pref>,
    schedules: u64,
    furthest: Furthest,
    /// The values compared on the explanation found.
    compared: usize,
    mutations: &'t [Mutation],
}

#[derive(Clone, Debug, PartialEq)]
enum Pref {
    Op,
    Actor(String),
}

/// What a prefix of choices leaves: the driver, the plan, the operations applied, the places.
struct State<M: Histories> {
    driver: Driver<M>,
    plan: M::Plan,
    applied: usize,
    places: BTreeSet<Place>,
}

impl<'t, M: Histories> Search<'t, M> {
    /// The model at its start, with what the scenario did before handing its threads over
    /// (its steps in their one order) matched like any other steps, unless the trace did not
    /// record it: `None` when the run did not begin so.
    fn begin(&mut self) -> Option<State<M>> {
        let trace = Trace::new();
        let setup = match self.start {
            Some(s) => (s.build)(&trace, self.fix),
            None => Setup {
                world: racelab_core::sync::Arc::new(M::start(self.fix, &trace)),
                threads: Vec::new(),
            },
        };
        let mut s = State {
            driver: Driver::new(trace, setup),
            plan: M::Plan::start(),
            applied: 0,
            places: [self.calls.start()].into(),
        };
        if self.calls.trace.setup_skipped {
            s.driver.trace.clear();
        }
        let events = s.driver.trace.events();
        self.matches(&mut s, &events).then_some(s)
    }

    /// Takes `choice` and matches the events it recorded; false when it cannot be taken.
    fn take(&mut self, s: &mut State<M>, choice: Choice) -> bool {
        let before = s.driver.trace.events().len();
        match choice {
            Choice::Op => {
                let op = &self.ops[s.applied];
                if !(s.plan.allows(op) && M::apply(&mut s.driver, &mut s.plan, op)) {
                    return false;
                }
                s.applied += 1;
            }
            Choice::Step(i) => s.driver.step_actor(i),
        }
        let mut events = s.driver.trace.events().split_off(before);
        if let Choice::Step(i) = choice {
            self.mutate(s, i, &mut events);
        }
        self.matches(s, &events)
    }

    /// Places each of `events` that is observed; false, keeping why, when one cannot be.
    fn matches(&mut self, s: &mut State<M>, events: &[racelab_core::trace::Event]) -> bool {
        for e in events {
            if !self.calls.trace.observed.contains(e.method) {
                continue;
            }
            let mut next = BTreeSet::new();
            let mut why = Vec::new();
            for p in &s.places {
                match self.calls.advance(p, e.actor, e.method, &e.detail) {
                    Ok(ps) => next.extend(ps),
                    Err(w) => why.push(w),
                }
            }
            if next.is_empty() {
                let why = format!(
                    "the model's {} took {} ({}): {}",
                    e.actor,
                    e.method,
                    e.detail,
                    why.join("; ")
                );
                self.note(s, Some(why));
                return false;
            }
            s.places = next;
        }
        true
    }

    /// Applies the mutations to the events program `i`'s step recorded (stepping it again for a
    /// merge or a swap).
    fn mutate(&self, s: &mut State<M>, i: usize, events: &mut Vec<racelab_core::trace::Event>) {
        for m in self.mutations {
            match *m {
                Mutation::Merge { actor, method } | Mutation::Swap { actor, method } => {
                    let hit = events
                        .iter()
                        .any(|e| e.actor == actor && e.method == method);
                    if !hit || !s.driver.enabled().contains(&i) {
                        continue;
                    }
                    let before = s.driver.trace.events().len();
                    s.driver.step_actor(i);
                    let next = s.driver.trace.events().split_off(before);
                    if matches!(m, Mutation::Swap { .. }) {
                        events.splice(0..0, next);
                    } else {
                        events.extend(next);
                    }
                }
                Mutation::Value { method, key, value } => {
                    for e in events.iter_mut().filter(|e| e.method == method) {
                        e.detail = format!("{} {key}={value}", e.detail);
                    }
                }
            }
        }
    }

    /// Keeps the message of the deepest failure.
    fn note(&mut self, s: &State<M>, why: Option<String>) {
        let explained = s
            .places
            .iter()
            .map(|p| self.calls.explained(p))
            .max()
            .unwrap_or(0);
        if self.furthest.message.is_some() && explained <= self.furthest.explained {
            return;
        }
        let best = s.places.iter().max_by_key(|p| self.calls.explained(p));
        let next = best
            .and_then(|p| self.calls.unexplained(p).first().map(|c| c.describe()))
            .unwrap_or_else(|| "none (every call explained)".into());
        let mut enabled: Vec<&str> = s
            .driver
            .enabled()
            .iter()
            .map(|&i| s.driver.actor(i))
            .collect();
        if s.applied < self.ops.len() {
            enabled.push("the file's next operation");
        }
        let mut m = format!(
            "after {explained} of {} real calls, the code's next is {next}; the model could take: [{}]; model state: {}",
            self.calls.trace.calls.len(),
            enabled.join(", "),
            M::describe(&s.driver.world)
        );
        if let Some(w) = why {
            m.push_str("; ");
            m.push_str(&w);
        }
        self.furthest = Furthest {
            explained,
            message: Some(m),
        };
    }

    fn candidates(&self, s: &State<M>, path: &[Choice], on_script: bool) -> Vec<Choice> {
        let mut out: Vec<Choice> = Vec::new();
        if s.applied < self.ops.len() {
            out.push(Choice::Op);
        }
        out.extend(s.driver.enabled().into_iter().map(Choice::Step));
        if on_script {
            let preferred = self.script.get(path.len()).and_then(|want| {
                out.iter().position(|c| match (c, want) {
                    (Choice::Op, Pref::Op) => true,
                    (Choice::Step(i), Pref::Actor(a)) => s.driver.actor(*i) == a,
                    _ => false,
                })
            });
            if let Some(i) = preferred {
                let c = out.remove(i);
                out.insert(0, c);
            }
        }
        out
    }

    fn replay(&mut self, path: &[Choice]) -> Option<State<M>> {
        let mut s = self.begin()?;
        for &c in path {
            if !self.take(&mut s, c) {
                return None;
            }
        }
        Some(s)
    }

    /// Depth first from `path`: true when an order explains the whole run.
    fn explore(&mut self, path: &mut Vec<Choice>, on_script: bool) -> bool {
        let Some(s) = self.replay(path) else {
            return false;
        };
        let cands = self.candidates(&s, path, on_script);
        if cands.is_empty() {
            self.schedules += 1;
            return self.ends_well(&s);
        }
        drop(s);
        for (n, c) in cands.into_iter().enumerate() {
            path.push(c);
            let script = on_script && n == 0;
            let found = self.explore(path, script);
            path.pop();
            if found {
                return true;
            }
        }
        false
    }

    /// At the end of a model schedule: every call explained, the final state the test read.
    fn ends_well(&mut self, s: &State<M>) -> bool {
        if !s.driver.is_quiescent() {
            self.note(
                s,
                Some("the model is stuck: no step can run, and programs are unfinished".into()),
            );
            return false;
        }
        let complete: BTreeSet<Place> = s
            .places
            .iter()
            .filter(|p| self.calls.explained(p) == self.calls.trace.calls.len())
            .cloned()
            .collect();
        if complete.is_empty() {
            self.note(
                s,
                Some("the model's schedule ended before these calls".into()),
            );
            return false;
        }
        let state = M::describe(&s.driver.world);
        let model = values_in(&state);
        let differ: Vec<String> = self
            .calls
            .trace
            .final_state
            .iter()
            .filter_map(|(k, v)| match model.get(k.as_str()) {
                Some(m) if m == v => None,
                Some(m) => Some(format!("{k}: the code {v}, the model {m}")),
                None => Some(format!("{k}: the code {v}, the model's state has no {k}")),
            })
            .collect();
        if !differ.is_empty() {
            self.note(
                s,
                Some(format!("the final state differs: {}", differ.join("; "))),
            );
            return false;
        }
        self.compared = complete.iter().map(|p| p.compared).max().unwrap_or(0);
        true
    }
}

/// Validates `trace` against `M` in the order file `scn` (its text).
pub fn validate<M: Histories>(trace: &RealTrace, scn: &str) -> Result<Validation, String> {
    validate_mutated::<M>(trace, scn, &[])
}

/// [`validate`] against `M` changed by `mutations`.
pub fn validate_mutated<M: Histories>(
    trace: &RealTrace,
    scn: &str,
    mutations: &[Mutation],
) -> Result<Validation, String> {
    validate_as::<M>(trace, scn, mutations, None)
}

/// [`validate_mutated`], with the row's switches replaced by `fix` when given (a claims
/// mutant's: [`racelab_core::claims::Mutant::fix`]).
pub fn validate_as<M: Histories>(
    trace: &RealTrace,
    scn: &str,
    mutations: &[Mutation],
    fix: Option<M::Fix>,
) -> Result<Validation, String> {
    let started = Instant::now();
    let parsed = parse::<M>(scn).map_err(|e| format!("the order file: {e}"))?;
    let row = if trace.layer_off {
        "upstream"
    } else {
        trace.variant.as_str()
    };
    let variant = M::variant(row).ok_or_else(|| {
        format!(
            "{}: {} has no variant {row}",
            trace.path.display(),
            M::CONTRACT.id
        )
    })?;
    let held: Vec<&str> = M::baseline_of(variant)
        .changes
        .iter()
        .chain(variant.parts)
        .map(|p| p.id)
        .collect();
    if !trace.layer_off && held != trace.parts {
        return Err(format!(
            "{}: row {} holds [{}] in the model, the trace says [{}]",
            trace.path.display(),
            trace.variant,
            held.join(", "),
            trace.parts.join(", ")
        ));
    }
    let sources = registry::sources(M::CONTRACT.id);
    let named: BTreeSet<&str> = sources
        .lines
        .iter()
        .flat_map(|l| l.lines.iter().map(|l| l.method))
        .chain(sources.unlinked.iter().map(|u| u.method))
        .collect();
    if let Some(m) = trace.observed.iter().find(|m| !named.contains(m.as_str())) {
        return Err(format!(
            "{}: observes {m}, which upstream.rs of {} does not name",
            trace.path.display(),
            M::CONTRACT.id
        ));
    }
    let mut ops = Vec::new();
    let mut script = Vec::new();
    for (_, line) in parsed.schedule {
        match line {
            Line::Op(op) => {
                ops.push(op);
                script.push(Pref::Op);
            }
            Line::Step { actor, times } => {
                script.extend(std::iter::repeat_n(Pref::Actor(actor), times));
            }
        }
    }
    let mut search = Search::<M> {
        calls: Calls::new(trace),
        fix: fix.unwrap_or_else(|| M::fix_of_variant(variant)),
        start: parsed.start,
        ops,
        script,
        schedules: 0,
        furthest: Furthest::default(),
        compared: 0,
        mutations,
    };
    let found = search.explore(&mut Vec::new(), true);
    let divergence = (!found).then(|| {
        search
            .furthest
            .message
            .unwrap_or_else(|| "no schedule of the model explains the run".into())
    });
    Ok(Validation {
        trace: trace.path.display().to_string(),
        contract: trace.contract.clone(),
        replay: trace.replay.clone(),
        variant: trace.variant.clone(),
        layer_off: trace.layer_off,
        calls: trace.calls.len(),
        values: search.compared,
        schedules: search.schedules,
        seconds: started.elapsed().as_secs_f64(),
        diverges: divergence.is_some(),
        problem: divergence,
        ..Validation::default()
    })
}

/// Validates a trace of any registered contract, against its replay's committed order.
pub fn validate_any(trace: &RealTrace) -> Result<Validation, String> {
    let scn = crate::real_orders::order_file(&trace.contract, &trace.replay);
    let text = std::fs::read_to_string(&scn).map_err(|e| {
        format!(
            "{}: no order file for {} ({}: {e})",
            trace.path.display(),
            trace.replay,
            scn.display()
        )
    })?;
    struct V<'a> {
        trace: &'a RealTrace,
        text: &'a str,
        out: Option<Result<Validation, String>>,
    }
    impl Visitor for V<'_> {
        fn visit<M: Registered>(&mut self) {
            if M::CONTRACT.id == self.trace.contract {
                self.out = Some(validate::<M>(self.trace, self.text));
            }
        }
    }
    let mut v = V {
        trace,
        text: &text,
        out: None,
    };
    registry::visit(&mut v);
    v.out.unwrap_or_else(|| {
        Err(format!(
            "{}: unknown contract {}",
            trace.path.display(),
            trace.contract
        ))
    })
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_from_words() {
        let v = values_in("isLeader=false term=0 → isLeaderReady=true, (ratisTerm=5) term=4:");
        assert_eq!(v.get("isLeader"), Some(&"false"));
        assert_eq!(v.get("term"), Some(&"4"));
        assert_eq!(v.get("isLeaderReady"), Some(&"true"));
        assert_eq!(v.get("ratisTerm"), Some(&"5"));
    }

    #[test]
    fn a_bad_line_is_named() {
        let p = Path::new("t.jsonl");
        let head = format!(
            r#"{{"trace":"{SCHEMA}","contract":"leader-ready","replay":"LR_O1","variant":"upstream","parts":[],"observed":["A.b"]}}"#
        );
        let e = RealTrace::parse(p, &format!("{head}\n{{\"seq\":1}}\n")).unwrap_err();
        assert_eq!(
            e,
            "t.jsonl:2: an event needs `event`, `actor`, `thread` and `method`"
        );
        let e = RealTrace::parse(p, &format!("{head}\n")).unwrap_err();
        assert_eq!(
            e,
            "t.jsonl:0: no `final` line: the recording was not finished"
        );
        let bad = format!(
            "{head}\n{}\n",
            r#"{"seq":1,"event":"enter","actor":"a","thread":"t","method":"C.d"}"#
        );
        assert_eq!(
            RealTrace::parse(p, &bad).unwrap_err(),
            "t.jsonl:2: C.d is not in the header's `observed`"
        );
    }
}

/// The committed traces of real runs (`prop-tests/traces/<contract>/<REPLAY>/<row>.jsonl`,
/// copied from `conformance/*/target/racelab-traces`): the models are checked against them in
/// every build, with or without a JVM, and the validator's own tests use them.
pub fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("traces")
}

#[cfg(all(test, not(loom)))]
mod committed_traces {
    use super::*;
    use racelab_core::contracts::leader_ready::LeaderReady;

    fn trace(rel: &str) -> RealTrace {
        RealTrace::read(&committed().join(rel)).expect("a committed trace")
    }

    fn scn(t: &RealTrace) -> String {
        std::fs::read_to_string(crate::real_orders::order_file(&t.contract, &t.replay))
            .expect("its order file")
    }

    /// The divergence of `rel` against leader-ready changed by `m`.
    fn rejected(rel: &str, m: Mutation) -> String {
        let t = trace(rel);
        let v = validate_mutated::<LeaderReady>(&t, &scn(&t), &[m]).expect("validates");
        v.problem
            .unwrap_or_else(|| panic!("{rel}: {m:?} is not rejected"))
    }

    #[test]
    fn every_committed_trace_is_explained_by_its_model() {
        let mut files = Vec::new();
        let mut stack = vec![committed()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("a folder").flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    files.push(p);
                }
            }
        }
        assert!(files.len() >= 6, "{} committed traces", files.len());
        for f in files {
            let t = RealTrace::read(&f).expect("readable");
            let v = validate_any(&t).expect("validates");
            assert_eq!(v.problem, None, "{}", f.display());
            assert!(v.values > 0, "{}: no value compared", f.display());
        }
    }

    /// Reregister's P1-unlocked mutant drops the lock P1's epoch check takes: the model is more
    /// permissive, and it still explains every real run of P1, so no trace can show it. Loom
    /// does: the mutant's claim (caught by O2, inside one step) is checked by the loom suite.
    #[test]
    fn a_lock_removed_is_not_seen_by_the_traces_and_loom_catches_it() {
        use racelab_core::claims::Claimed;
        use racelab_core::contracts::reregister::Reregister;
        let mutant = Reregister::CLAIMS
            .mutants
            .iter()
            .find(|m| m.name == "P1-unlocked")
            .expect("the mutant is declared");
        assert!(mutant.inside_a_step, "whole steps cannot see it either");
        for rel in ["reregister/RR_O2/P1.jsonl", "reregister/RR_O9/P1.jsonl"] {
            let t = trace(rel);
            let v = validate_as::<Reregister>(&t, &scn(&t), &[], Some(mutant.fix()))
                .expect("validates");
            assert_eq!(v.problem, None, "{rel}: the mutant explains the run");
        }
    }

    /// LR_R2's order: the step-down and the candidacy land after checkReady passed and before
    /// notifyLeaderReady started. A model that runs the two as one step cannot place them there.
    #[test]
    fn two_steps_merged_where_the_code_splits_them_are_rejected() {
        let m = rejected(
            "leader-ready/LR_R2/P1.jsonl",
            Mutation::Merge {
                actor: "apply",
                method: "LeaderStateImpl.checkReady",
            },
        );
        // merged, checkReady fails after the step-down: no notifyLeaderReady follows it
        assert!(
            m.contains("the code's next is #7 apply (StateMachineUpdater) SCMStateMachine.notifyLeaderReady")
                && m.contains("the model's schedule ended before these calls"),
            "{m}"
        );
    }

    #[test]
    fn a_value_the_code_does_not_produce_is_rejected() {
        let m = rejected(
            "leader-ready/LR_O1/upstream.jsonl",
            Mutation::Value {
                method: "SCMContext.setLeaderReady",
                key: "isLeaderReady",
                value: "false",
            },
        );
        assert!(
            m.contains("SCMContext.setLeaderReady")
                && m.contains("isLeaderReady: the code true, the model false"),
            "{m}"
        );
    }

    #[test]
    fn two_steps_of_one_method_swapped_are_rejected() {
        let m = rejected(
            "leader-ready/LR_O1/upstream.jsonl",
            Mutation::Swap {
                actor: "apply",
                method: "SCMContext.setLeaderReady",
            },
        );
        assert!(
            m.contains(
                "the code's next is #8 apply (StateMachineUpdater) SCMContext.setLeaderReady"
            ) && m.contains("the model's apply took ReplicationManager.notifyStatusChanged"),
            "{m}"
        );
    }
}
