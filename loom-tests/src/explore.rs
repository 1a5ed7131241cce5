//! One exploration: every interleaving of a scenario under one fix (up to a preemption bound
//! when set), with the verdict of each outcome, the executions explored, and the
//! counterexample's timeline.
//!
//! How an outcome is decided depends on its [`Check`]:
//! - a state outcome is evaluated on the world after every actor has finished, in every
//!   execution; the first execution where it holds is its counterexample, and the exploration
//!   stops (by the runner's own panic, [`ALL_FOUND`]) once every outcome has been found;
//! - a race outcome is loom's causality violation on a race-tracked cell
//!   ([`racelab_core::sync::RaceCell`]), which the runner turns into `reachable`;
//! - a deadlock outcome makes loom abort the process, so it is explored in a child process
//!   ([`crate::child`]) whose panic hook reports the blocked threads before it dies.
//!
//! Any other panic is a defect of the model and propagates.

use crate::hook::{self, Current, ALL_FOUND, CAUSALITY};
use racelab_core::claims::Verdict;
use racelab_core::model::{run_to_end, Model, Scenario};
use racelab_core::outcome::{Check, Outcome};
use racelab_core::report::final_states_hash;
use racelab_core::trace::{recording, set_recording, violation, Timeline, Trace};
use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// What one exploration found.
#[derive(Clone, Debug)]
pub struct Exploration {
    pub observed: Verdict,
    pub executions: u64,
    pub seconds: f64,
    /// The first violating execution (for a reachable outcome).
    pub counterexample: Option<Timeline>,
    /// The final state ([`Model::describe`]) of every execution explored.
    pub final_states: BTreeSet<String>,
    /// For an unreachable outcome, the hash of its final states
    /// ([`racelab_core::report::final_states_hash`]; a deadlock cell's child reports only this).
    pub final_states_hash: Option<u64>,
    /// The variant that made this exploration, when another variant or a mutant reuses it
    /// ([`crate::cache`]).
    pub explored_by: Option<&'static str>,
}

/// Explores every interleaving of `scenario` under `fix` (up to `bound` preemptions when set),
/// deciding `outcome` in each execution. Loom stops at the first violation.
pub fn explore<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcome: &'static Outcome<M::World>,
    bound: Option<usize>,
    expected: Verdict,
) -> Exploration {
    let mut all = explore_all(scenario, fix, &[(outcome, expected)], bound);
    all.pop().expect("one exploration per outcome")
}

/// Explores `scenario` under `fix` once for several outcomes decided on the final state, each
/// with the verdict its cell expects. For each outcome the result is what exploring it alone
/// gives: loom's search does not depend on the outcomes (they are evaluated after every actor
/// has finished, on the one thread left), so the first execution where an outcome holds is the
/// one where its own exploration would stop, and an outcome that never holds sees every
/// execution. The exploration stops once every outcome has been found.
///
/// Only a violating execution's timeline is ever shown, and formatting every step of every
/// execution costs 10–17% of the instructions (callgrind, recon-sync proposed/O1 and
/// dead-node proposed/R1). So executions are recorded only until every outcome expected
/// reachable has been found. If an outcome is found while nothing records (a cell that
/// deviates), the exploration runs again recording throughout; being deterministic, it finds
/// every outcome at the same execution, which is checked.
pub fn explore_all<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcomes: &[(&'static Outcome<M::World>, Verdict)],
    bound: Option<usize>,
) -> Vec<Exploration> {
    assert!(
        outcomes.len() == 1
            || outcomes
                .iter()
                .all(|(o, _)| matches!(o.check, Check::State(_))),
        "only outcomes decided on the final state share an exploration"
    );
    // A deadlock cell records from the start: its child process dies at the deadlock.
    let record = if outcomes
        .iter()
        .any(|(o, _)| matches!(o.check, Check::Deadlock))
    {
        Recording::Throughout
    } else {
        Recording::UntilExpectedFound
    };
    let (first, seconds) = explore_pass(scenario, fix, outcomes, bound, record);
    if first.iter().all(|(_, recorded)| *recorded) {
        return split(first.into_iter().map(|(e, _)| e).collect(), seconds);
    }
    // The second pass only needs to reach the outcomes the first found: it stops there.
    let found: Vec<_> = outcomes
        .iter()
        .zip(&first)
        .map(|(&(o, _), (e, _))| (o, e.observed))
        .collect();
    let (again, more) = explore_pass(scenario, fix, &found, bound, Recording::Rerun);
    let checked = first
        .into_iter()
        .zip(again)
        .map(|((before, _), (e, _))| {
            if before.observed == Verdict::Unreachable {
                return before;
            }
            let message =
                |e: &Exploration| e.counterexample.as_ref().and_then(|t| t.violation.clone());
            assert!(
                e.executions == before.executions && message(&e) == message(&before),
                "loom's exploration is not repeatable: {} executions to {:?} without a \
                 timeline, {} to {:?} with one",
                before.executions,
                message(&before),
                e.executions,
                message(&e),
            );
            e
        })
        .collect();
    split(checked, seconds + more)
}

/// When an exploration records its executions' timelines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Recording {
    Throughout,
    /// Throughout, stopping once every outcome expected reachable has been found: a second
    /// pass for the timelines of the outcomes a first pass found.
    Rerun,
    /// Until every outcome expected reachable has been found (never, if there is none).
    UntilExpectedFound,
}

/// Splits the `seconds` a shared exploration took between its outcomes in proportion to
/// their executions, so that the cells' seconds add up to the time spent.
fn split(mut found: Vec<Exploration>, seconds: f64) -> Vec<Exploration> {
    let executions: u64 = found.iter().map(|e| e.executions).sum();
    let outcomes = found.len() as f64;
    for e in &mut found {
        e.seconds = if executions == 0 {
            seconds / outcomes
        } else {
            seconds * e.executions as f64 / executions as f64
        };
    }
    found
}

/// The first execution where an outcome held: its number, its violation message, its
/// timeline, and whether that timeline was recorded.
type Found = (u64, String, Vec<racelab_core::trace::Event>, bool);

/// One exploration: per outcome, what it found and whether its counterexample (if any) was
/// recorded; and the seconds it took.
fn explore_pass<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcomes: &[(&'static Outcome<M::World>, Verdict)],
    bound: Option<usize>,
    record: Recording,
) -> (Vec<(Exploration, bool)>, f64) {
    hook::install();
    let race = outcomes.iter().any(|(o, _)| matches!(o.check, Check::Race));
    racelab_core::sync::track_races(race);
    let trace = Trace::new();
    let executions = Arc::new(AtomicU64::new(0));
    // Real std primitives, outside loom's view, like the trace.
    let finals = Arc::new(Mutex::new(BTreeSet::new()));
    let found: Arc<Mutex<Vec<Option<Found>>>> = Arc::new(Mutex::new(vec![None; outcomes.len()]));
    let checked: Vec<(&'static Outcome<M::World>, bool)> = outcomes
        .iter()
        .map(|&(o, v)| (o, v == Verdict::Reachable))
        .collect();
    let was_recording = set_recording(
        record != Recording::UntilExpectedFound || checked.iter().any(|&(_, reachable)| reachable),
    );
    let builder = builder(bound);
    hook::set_current(Some(Current {
        executions: executions.clone(),
        trace: trace.clone(),
        actors: Vec::new(),
    }));
    let started = Instant::now();
    let run = {
        let (trace, executions, finals, found) = (
            trace.clone(),
            executions.clone(),
            finals.clone(),
            found.clone(),
        );
        panic::catch_unwind(AssertUnwindSafe(move || {
            builder.check(move || {
                let n = executions.fetch_add(1, Ordering::Relaxed) + 1;
                trace.clear();
                let setup = (scenario.build)(&trace, fix);
                let names: Vec<&'static str> = setup.threads.iter().map(|p| p.actor()).collect();
                hook::set_actors(names);
                // The first actor runs on loom's main thread, the others on threads of their
                // own. A main thread that only spawned and joined would add nothing but its
                // joins: each blocks on a thread's exit, and loom schedules the woken main
                // thread against every remaining operation of the others, choices that change
                // no step's result (recon-sync proposed/O1: 92,484 executions then, 3,605
                // now). No order of steps is lost: the spawns come before the first actor's
                // first step, and a spawn touches nothing the steps read, so every schedule of
                // the old placement has one here with the same steps in the same order.
                //
                // The spawned threads share the world through a std `Arc` of its loom one: each
                // drops its handle at exit, and loom orders two drops of one loom `Arc` against
                // each other, which orders the ends of every two spawned threads for nothing
                // (no model reads the count). The loom `Arc` is dropped once, on main.
                let mut programs = setup.threads.into_iter();
                let first = programs.next();
                let world = Arc::new(setup.world);
                let others: Vec<_> = programs
                    .map(|mut program| {
                        let world = world.clone();
                        loom::thread::spawn(move || run_to_end(&mut *program, &**world))
                    })
                    .collect();
                if let Some(mut program) = first {
                    run_to_end(&mut *program, &**world);
                }
                for t in others {
                    t.join().expect("a model thread panicked");
                }
                finals
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(M::describe(&world));
                let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
                for ((outcome, _), slot) in checked.iter().zip(found.iter_mut()) {
                    if slot.is_none() {
                        if let Some(witness) = outcome.holds(&world) {
                            let message = violation(outcome.id, &witness);
                            *slot = Some((n, message, trace.events(), recording()));
                        }
                    }
                }
                let pending = |want_reachable: bool| {
                    checked
                        .iter()
                        .zip(found.iter())
                        .any(|(&(_, r), slot)| slot.is_none() && (r || !want_reachable))
                };
                if record == Recording::UntilExpectedFound && !pending(true) {
                    set_recording(false);
                }
                if !pending(false) || (record == Recording::Rerun && !pending(true)) {
                    // The runner turns this panic into the found verdicts.
                    panic!("{ALL_FOUND}");
                }
            })
        }))
    };
    set_recording(was_recording);
    hook::set_current(None);
    racelab_core::sync::track_races(false);
    let seconds = started.elapsed().as_secs_f64();
    let total = executions.load(Ordering::Relaxed);
    let mut found = std::mem::take(&mut *found.lock().unwrap_or_else(PoisonError::into_inner));
    if let Err(payload) = run {
        let message = hook::panic_message(&*payload);
        if race && message.contains(CAUSALITY) {
            let witness = format!("data race: {}", first_line(&message));
            found[0] = Some((
                total,
                violation(outcomes[0].0.id, &witness),
                trace.events(),
                recording(),
            ));
        } else if message != ALL_FOUND {
            panic::resume_unwind(payload)
        }
    }
    let final_states = std::mem::take(&mut *finals.lock().unwrap_or_else(PoisonError::into_inner));
    let hash = final_states_hash(final_states.iter().map(String::as_str));
    let found = found
        .into_iter()
        .map(|slot| match slot {
            None => (
                Exploration {
                    observed: Verdict::Unreachable,
                    executions: total,
                    seconds: 0.0,
                    counterexample: None,
                    final_states: final_states.clone(),
                    final_states_hash: Some(hash),
                    explored_by: None,
                },
                true,
            ),
            Some((n, message, events, recorded)) => (
                Exploration {
                    observed: Verdict::Reachable,
                    executions: n,
                    seconds: 0.0,
                    counterexample: Some(Timeline {
                        events,
                        violation: Some(message),
                    }),
                    final_states: BTreeSet::new(),
                    final_states_hash: None,
                    explored_by: None,
                },
                recorded,
            ),
        })
        .collect();
    (found, seconds)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

/// loom's builder for a proof: up to `bound` preemptions when set, and never ended early, so
/// `LOOM_MAX_DURATION`, `LOOM_MAX_PERMUTATIONS` and any leftover checkpoint file from the
/// environment are ignored.
pub fn builder(bound: Option<usize>) -> loom::model::Builder {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = bound;
    builder.max_duration = None;
    builder.max_permutations = None;
    builder.checkpoint_file = None;
    builder
}
