//! The loom cell runner: explores a scenario under a variant and returns the observed verdict,
//! the executions explored, the bound, and the counterexample's timeline.
//!
//! How an outcome is decided depends on its [`Check`]:
//! - a state outcome is evaluated on the world after every actor has finished, in every
//!   execution; the first execution where it holds panics with a violation message, which is
//!   the `reachable` verdict;
//! - a race outcome is loom's causality violation on a race-tracked cell
//!   ([`racelab_core::sync::RaceCell`]), which the runner turns into `reachable`;
//! - a deadlock outcome makes loom abort the process, so it is explored in a child process
//!   ([`explore_in_child`]) that reports the blocked threads before it dies.
//!
//! Any other panic is a defect of the model and propagates.

use racelab_core::claims::{Claim, Method, Verdict};
use racelab_core::model::{run_to_end, Model, Scenario};
use racelab_core::outcome::{Check, Outcome};
use racelab_core::report::{CellResult, Matrix, View};
use racelab_core::trace::{violation, without_recording, Timeline, Trace, VIOLATION};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::Instant;

/// What one exploration found.
#[derive(Debug)]
pub struct Exploration {
    pub observed: Verdict,
    pub executions: u64,
    pub seconds: f64,
    /// The first violating execution (for a reachable outcome).
    pub counterexample: Option<Timeline>,
    /// The final state ([`Model::describe`]) of every execution explored.
    pub final_states: BTreeSet<String>,
}

/// loom's message for two unordered accesses to an `UnsafeCell`.
const CAUSALITY: &str = "Causality violation";
/// loom's message when no thread can run.
const DEADLOCK: &str = "deadlock; threads = ";

/// The exploration in progress on a thread: its execution counter, its recorder and its
/// actors by loom thread id, for the panic hook to report a deadlock before loom aborts.
type Current = (Arc<AtomicU64>, Trace, Vec<&'static str>);

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// Explores every interleaving of `scenario` under `fix` (up to `bound` preemptions when set),
/// deciding `outcome` in each execution. Loom stops at the first violation.
///
/// Only the violating execution's timeline is ever shown, and formatting every step of every
/// execution costs 10–17% of a cell's instructions (callgrind, recon-sync proposed/O1 and
/// dead-node proposed/R1). So an exploration `expected` to find nothing runs without a
/// timeline; if it does find the outcome, it runs again, recording. Loom's search is
/// deterministic and the timeline is outside its view, so the second run stops at the same
/// execution, which is checked. A deadlock cell records from the start: its child process
/// dies at the deadlock.
pub fn explore<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcome: &'static Outcome<M::World>,
    bound: Option<usize>,
    expected: Verdict,
) -> Exploration {
    if expected == Verdict::Reachable || matches!(outcome.check, Check::Deadlock) {
        return explore_once(scenario, fix, outcome, bound);
    }
    let first = without_recording(|| explore_once(scenario, fix, outcome, bound));
    if first.observed == Verdict::Unreachable {
        return first;
    }
    let again = explore_once(scenario, fix, outcome, bound);
    let message = |e: &Exploration| e.counterexample.as_ref().and_then(|t| t.violation.clone());
    assert!(
        again.executions == first.executions && message(&again) == message(&first),
        "loom's exploration is not repeatable: {} executions to {:?} without a timeline, {} to \
         {:?} with one",
        first.executions,
        message(&first),
        again.executions,
        message(&again),
    );
    Exploration {
        seconds: first.seconds + again.seconds,
        ..again
    }
}

/// One exploration, with a timeline if this thread records (see [`without_recording`]).
fn explore_once<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcome: &'static Outcome<M::World>,
    bound: Option<usize>,
) -> Exploration {
    install_panic_hook();
    racelab_core::sync::track_races(matches!(outcome.check, Check::Race));
    let trace = Trace::new();
    let executions = Arc::new(AtomicU64::new(0));
    // Real std primitives, outside loom's view, like the trace.
    let finals = Arc::new(Mutex::new(BTreeSet::new()));
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = bound;
    // A proof must never end early: ignore LOOM_MAX_DURATION / LOOM_MAX_PERMUTATIONS and any
    // leftover checkpoint file from the environment.
    builder.max_duration = None;
    builder.max_permutations = None;
    builder.checkpoint_file = None;
    CURRENT.with(|c| *c.borrow_mut() = Some((executions.clone(), trace.clone(), Vec::new())));
    let started = Instant::now();
    let run = {
        let (trace, executions, finals) = (trace.clone(), executions.clone(), finals.clone());
        panic::catch_unwind(AssertUnwindSafe(move || {
            builder.check(move || {
                executions.fetch_add(1, Ordering::Relaxed);
                trace.clear();
                let setup = (scenario.build)(&trace, fix);
                let names: Vec<&'static str> = setup.threads.iter().map(|p| p.actor()).collect();
                CURRENT.with(|c| {
                    if let Some((_, _, actors)) = c.borrow_mut().as_mut() {
                        *actors = names;
                    }
                });
                // The first actor runs on loom's main thread, the others on threads of their
                // own. A main thread that only spawned and joined would add nothing but its
                // joins: each blocks on a thread's exit, and loom schedules the woken main
                // thread against every remaining operation of the others, choices that change
                // no step's result (recon-sync proposed/O1: 92,484 executions then, 3,605
                // now). No order of steps is lost: the spawns come before the first actor's
                // first step, and a spawn touches nothing the steps read, so every schedule of
                // the old placement has one here with the same steps in the same order.
                let mut programs = setup.threads.into_iter();
                let first = programs.next();
                let others: Vec<_> = programs
                    .map(|mut program| {
                        let world = setup.world.clone();
                        loom::thread::spawn(move || run_to_end(&mut *program, &*world))
                    })
                    .collect();
                if let Some(mut program) = first {
                    run_to_end(&mut *program, &*setup.world);
                }
                for t in others {
                    t.join().expect("a model thread panicked");
                }
                finals
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(M::describe(&setup.world));
                if let Some(witness) = outcome.holds(&setup.world) {
                    // The runner turns this panic into a `reachable` verdict.
                    panic!("{}", violation(outcome.id, &witness));
                }
            })
        }))
    };
    CURRENT.with(|c| *c.borrow_mut() = None);
    racelab_core::sync::track_races(false);
    let seconds = started.elapsed().as_secs_f64();
    let executions = executions.load(Ordering::Relaxed);
    let final_states = std::mem::take(&mut *finals.lock().unwrap_or_else(PoisonError::into_inner));
    let found = |message: String| Exploration {
        final_states: BTreeSet::new(),
        observed: Verdict::Reachable,
        executions,
        seconds,
        counterexample: Some(Timeline {
            events: trace.events(),
            violation: Some(message),
        }),
    };
    match run {
        Ok(()) => Exploration {
            observed: Verdict::Unreachable,
            executions,
            seconds,
            counterexample: None,
            final_states,
        },
        Err(payload) => {
            let message = panic_message(&*payload);
            if message.starts_with(VIOLATION) {
                found(message)
            } else if matches!(outcome.check, Check::Race) && message.contains(CAUSALITY) {
                found(violation(
                    outcome.id,
                    &format!("data race: {}", first_line(&message)),
                ))
            } else {
                panic::resume_unwind(payload)
            }
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

/// The environment variable that makes a loom test binary explore one deadlock cell and exit.
pub const CHILD_ENV: &str = "RACELAB_LOOM_CHILD";
const CHILD_RESULT: &str = "racelab-child: ";

/// In a child process: explores the loom cell `key` and prints its result for the parent. On a
/// deadlock loom aborts the process; the panic hook prints the result first.
pub fn child_main<M: Model>(claim: &Claim<M>) -> ! {
    let (scenario, bound) = claim
        .method
        .loom_scenario()
        .expect("a child explores a loom cell");
    let e = explore(scenario, claim.fix(), claim.outcome, bound, claim.expected);
    println!("{CHILD_RESULT}unreachable {}", e.executions);
    std::process::exit(0)
}

/// Explores a deadlock cell in a child process (loom aborts the process that finds one):
/// re-runs this test binary with [`CHILD_ENV`] naming the cell.
pub fn explore_in_child<M: Model>(claim: &Claim<M>) -> Result<Exploration, String> {
    let started = Instant::now();
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the test binary: {e}"))?;
    let out = std::process::Command::new(exe)
        .env(CHILD_ENV, claim.key())
        .env("RUST_BACKTRACE", "0")
        .output()
        .map_err(|e| format!("cannot run the child: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let seconds = started.elapsed().as_secs_f64();
    let result = stdout
        .lines()
        .find_map(|l| l.strip_prefix(CHILD_RESULT))
        .ok_or_else(|| {
            format!(
                "the child exploring {} reported nothing ({}):\n{}{}",
                claim.key(),
                out.status,
                stdout,
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
    let mut words = result.splitn(3, ' ');
    let (verdict, executions) = (words.next(), words.next().and_then(|n| n.parse().ok()));
    let executions = executions.ok_or(format!("bad child result {result:?}"))?;
    match verdict {
        Some("unreachable") if out.status.success() => Ok(Exploration {
            observed: Verdict::Unreachable,
            executions,
            seconds,
            counterexample: None,
            final_states: BTreeSet::new(),
        }),
        Some("deadlock") => {
            let blocked = words.next().unwrap_or_default();
            let events = stdout
                .lines()
                .filter_map(|l| l.strip_prefix("racelab-event: "))
                .filter_map(|l| {
                    let mut f = l.splitn(3, '\t');
                    Some(racelab_core::trace::Event {
                        actor: leak(f.next()?),
                        method: leak(f.next()?),
                        detail: f.next()?.to_owned(),
                    })
                })
                .collect();
            Ok(Exploration {
                observed: Verdict::Reachable,
                executions,
                seconds,
                final_states: BTreeSet::new(),
                counterexample: Some(Timeline {
                    events,
                    violation: Some(violation(
                        claim.outcome.id,
                        &format!("deadlock: blocked {blocked}"),
                    )),
                }),
            })
        }
        _ => Err(format!("bad child result {result:?} ({})", out.status)),
    }
}

/// Actor and method names come back from the child as text; the timeline holds `&'static str`.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// A loom cell's pinned executions (0 for other cells): its cost when the cells are split
/// between processes.
pub fn pinned_executions<M: Model>(claim: &Claim<M>) -> u64 {
    match claim.method {
        Method::Loom { executions, .. } => executions,
        _ => 0,
    }
}

/// Checks one loom claim with `fix` in place of its variant's, as a result record.
pub fn check_with<M: Model>(claim: &Claim<M>, fix: M::Fix) -> Result<CellResult, String> {
    let Method::Loom {
        scenario, bound, ..
    } = claim.method
    else {
        return Err(format!("{} is not a loom cell", claim.key()));
    };
    let found = if matches!(claim.outcome.check, Check::Deadlock) {
        explore_in_child(claim)?
    } else {
        explore(scenario, fix, claim.outcome, bound, claim.expected)
    };
    let mut result = CellResult::for_cell(&claim.expectation(), found.observed);
    result.executions = Some(found.executions);
    result.seconds = found.seconds;
    if let Some(t) = &found.counterexample {
        result.set_counterexample(Vec::new(), t);
    }
    if found.observed == Verdict::Unreachable && !found.final_states.is_empty() {
        result.final_states = Some(found.final_states.into_iter().collect());
    }
    Ok(result)
}

/// The body of every loom cell's test: checks the cell, saves the result for the gate, and
/// checks the verdict, the violation message and the pinned execution count.
pub fn verify_cell<M: Model>(claim: &Claim<M>) -> Result<(), String> {
    let result = check_with(claim, claim.fix())?;
    result.save();
    if result.observed != claim.expected {
        return Err(format!(
            "{}: expected {}, loom found {} after {} executions\n{}",
            claim.key(),
            claim.expected,
            result.observed,
            result.executions.unwrap_or(0),
            result.timeline.join("\n")
        ));
    }
    if result.observed == Verdict::Reachable {
        let last = result.timeline.last().map(String::as_str).unwrap_or("");
        let expected = format!("✗  {VIOLATION}{}: ", claim.outcome.id);
        if !last.contains(&expected) {
            return Err(format!(
                "{}: violation message {last:?} lacks {expected:?}",
                claim.key()
            ));
        }
    }
    let Method::Loom {
        executions: pinned, ..
    } = claim.method
    else {
        unreachable!("checked by check_with")
    };
    if result.executions != Some(pinned) {
        return Err(format!(
            "{}: loom explored {} executions, {pinned} are pinned; the model or the scenario \
             changed: review the change, then re-pin",
            claim.key(),
            result.executions.unwrap_or(0)
        ));
    }
    Ok(())
}

/// Runs the loom cells of `variant` with `fix` in place of its switches (a mutant), and
/// returns the matrix the gate would print for them (the other variants' cells are unchanged
/// by a mutant, and checked by their own tests).
pub fn matrix_with<M: Model>(variant: &str, fix: M::Fix) -> Result<Matrix, String> {
    let loom_cells: Vec<&Claim<M>> = M::CLAIMS
        .cells
        .iter()
        .filter(|c| c.variant == variant && matches!(c.method, Method::Loom { .. }))
        .collect();
    let results = loom_cells
        .iter()
        .map(|c| check_with(c, fix))
        .collect::<Result<_, _>>()?;
    let expected = loom_cells.iter().map(|c| c.expectation()).collect();
    Ok(Matrix::build(
        vec![View::of::<M>()],
        expected,
        &[],
        results,
        Vec::new(),
    ))
}

/// A mutant of a contract (a deliberately broken fix) must show up in the matrix the gate
/// prints, as the deviation its claim names.
pub fn verify_mutant<M: Model>(m: &racelab_core::claims::Mutant<M>) -> Result<(), String> {
    let matrix = matrix_with::<M>(m.variant, m.fix)?;
    let key = format!("{}/{}/{}/loom", M::CONTRACT.id, m.variant, m.caught_by.id);
    let expected = format!("{key}: expected unreachable, observed reachable");
    if !matrix.deviations.iter().any(|d| d.to_string() == expected) {
        return Err(format!(
            "mutant `{}` was not caught at {key}; deviations: {:?}",
            m.name, matrix.deviations
        ));
    }
    let text = matrix.render_text();
    if !text.contains("!RL") {
        return Err(format!(
            "the printed matrix does not flag mutant `{}`:\n{text}",
            m.name
        ));
    }
    Ok(())
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Violations and races are expected results, not failures: keep their panic messages off
/// stderr. A deadlock is reported to the parent process (loom aborts right after the panic).
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            if message.starts_with(DEADLOCK) && std::env::var_os(CHILD_ENV).is_some() {
                report_deadlock(message);
            }
            if !message.starts_with(VIOLATION) && !message.contains(CAUSALITY) {
                default(info);
            }
        }));
    });
}

/// Prints the deadlock's result for the parent: the executions, the blocked actors, and the
/// timeline up to the deadlock.
fn report_deadlock(message: &str) {
    CURRENT.with(|c| {
        let Ok(current) = c.try_borrow() else {
            return;
        };
        let Some((executions, trace, actors)) = current.as_ref() else {
            return;
        };
        // loom lists `(Id(n), State)` per thread; thread n runs the scenario's actor n.
        let blocked: Vec<String> = message
            .trim_start_matches(DEADLOCK)
            .split("), (")
            .filter(|t| t.contains("Blocked"))
            .filter_map(|t| {
                let n: usize = t
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit())
                    .take_while(|c| c.is_ascii_digit())
                    .collect::<String>()
                    .parse()
                    .ok()?;
                Some(
                    actors
                        .get(n)
                        .map_or(format!("thread {n}"), |a| a.to_string()),
                )
            })
            .collect();
        for e in trace.events() {
            println!("racelab-event: {}\t{}\t{}", e.actor, e.method, e.detail);
        }
        println!(
            "{CHILD_RESULT}deadlock {} {}",
            executions.load(Ordering::Relaxed),
            blocked.join(", ")
        );
    });
}
