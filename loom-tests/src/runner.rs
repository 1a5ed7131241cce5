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
use racelab_core::switches::{take_reads, Switches};
use racelab_core::trace::{recording, set_recording, violation, Timeline, Trace, VIOLATION};
use std::any::Any;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Once, OnceLock, PoisonError};
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
    /// The variant that made this exploration, when another variant reuses it
    /// ([`explore_reusing`]).
    pub explored_by: Option<&'static str>,
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

/// Loom's stop when every outcome of an exploration has been found.
const ALL_FOUND: &str = "racelab: every outcome found";

/// One exploration: per outcome, what it found and whether its counterexample (if any) was
/// recorded; and the seconds it took.
fn explore_pass<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcomes: &[(&'static Outcome<M::World>, Verdict)],
    bound: Option<usize>,
    record: Recording,
) -> (Vec<(Exploration, bool)>, f64) {
    install_panic_hook();
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
                let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
                for ((outcome, _), slot) in checked.iter().zip(found.iter_mut()) {
                    if slot.is_none() {
                        if let Some(witness) = outcome.holds(&setup.world) {
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
    CURRENT.with(|c| *c.borrow_mut() = None);
    racelab_core::sync::track_races(false);
    let seconds = started.elapsed().as_secs_f64();
    let total = executions.load(Ordering::Relaxed);
    let mut found = std::mem::take(&mut *found.lock().unwrap_or_else(PoisonError::into_inner));
    if let Err(payload) = run {
        let message = panic_message(&*payload);
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
            explored_by: None,
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
                explored_by: None,
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
    let found = match claim.outcome.check {
        Check::Deadlock => explore_in_child(claim)?,
        Check::Race => explore(scenario, fix, claim.outcome, bound, claim.expected),
        Check::State(_) => {
            let outcomes = [(claim.outcome, claim.expected)];
            let mut found = explore_reusing(claim.variant, scenario, fix, &outcomes, bound);
            found.pop().expect("one exploration per outcome")
        }
    };
    Ok(record(claim, found))
}

/// A cell's result record from its exploration.
fn record<M: Model>(claim: &Claim<M>, found: Exploration) -> CellResult {
    let mut result = CellResult::for_cell(&claim.expectation(), found.observed);
    result.executions = Some(found.executions);
    result.seconds = found.seconds;
    if let Some(t) = &found.counterexample {
        result.set_counterexample(Vec::new(), t);
    }
    if found.observed == Verdict::Unreachable && !found.final_states.is_empty() {
        result.final_states = Some(found.final_states.into_iter().collect());
    }
    result.explored_by = found.explored_by.map(str::to_owned);
    result
}

/// The loom cells that share `claim`'s exploration (see [`explore_all`]), `claim` among them:
/// the cells of its contract with the same variant, scenario and bound whose outcomes are
/// decided on the final state. A race or deadlock cell explores alone.
pub fn companions<M: Model>(claim: &Claim<M>) -> Vec<&'static Claim<M>> {
    let shares = |c: &Claim<M>| match (c.method.loom_scenario(), claim.method.loom_scenario()) {
        (Some((s, b)), Some((t, d))) => {
            std::ptr::eq(s, t) && b == d && matches!(c.outcome.check, Check::State(_))
        }
        _ => false,
    };
    if !shares(claim) {
        return M::CLAIMS
            .cells
            .iter()
            .filter(|c| c.key() == claim.key())
            .collect();
    }
    M::CLAIMS
        .cells
        .iter()
        .filter(|c| c.variant == claim.variant && shares(c))
        .collect()
}

/// The name of the exploration `claim` shares with its [`companions`]: the key of the first.
pub fn exploration_key<M: Model>(claim: &Claim<M>) -> String {
    companions(claim)
        .first()
        .map_or_else(|| claim.key(), |c| c.key())
}

/// The cells the gate's shard split keeps in one process: a state cell with the other state
/// cells of its scenario and bound that pin the same executions. Such cells of different
/// variants often explore the same executions, and only the process that made an exploration
/// can reuse it ([`explore_reusing`]). A heuristic for placing cells: it decides no verdict.
pub fn shard_group<M: Model>(claim: &Claim<M>) -> String {
    match (&claim.method, &claim.outcome.check) {
        (
            Method::Loom {
                scenario,
                bound,
                executions,
            },
            Check::State(_),
        ) => format!(
            "{}/{}/{bound:?}/{executions}",
            M::CONTRACT.id,
            scenario.name
        ),
        _ => exploration_key(claim),
    }
}

/// Explorations already made in this process, by [`exploration_key`]: each cell's result.
type Shared = HashMap<String, Arc<OnceLock<HashMap<String, Exploration>>>>;
static SHARED: LazyLock<Mutex<Shared>> = LazyLock::new(Default::default);

/// Checks `claim` on the exploration it shares with its companions, made once per process.
fn check_shared<M: Model>(claim: &Claim<M>) -> Result<CellResult, String> {
    let group = companions(claim);
    if group.len() < 2 {
        return check_with(claim, claim.fix());
    }
    let once = SHARED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(exploration_key(claim))
        .or_default()
        .clone();
    let all = once.get_or_init(|| explore_group(&group, claim.fix()));
    let found = all
        .get(&claim.key())
        .expect("the cell is among its companions");
    Ok(record(claim, found.clone()))
}

/// Explores the cells of `group` (one exploration's [`companions`]) under `fix` at once: each
/// cell's exploration, by key.
fn explore_group<M: Model>(group: &[&Claim<M>], fix: M::Fix) -> HashMap<String, Exploration> {
    let (scenario, bound) = group[0].method.loom_scenario().expect("a loom cell");
    let outcomes: Vec<_> = group.iter().map(|c| (c.outcome, c.expected)).collect();
    let found = explore_reusing(group[0].variant, scenario, fix, &outcomes, bound);
    group.iter().map(|c| c.key()).zip(found).collect()
}

/// A finished exploration of outcomes decided on the final state, kept for the variants that
/// cannot tell it from their own.
struct Explored<F> {
    variant: &'static str,
    fix: F,
    /// The switches the exploration read ([`racelab_core::switches`]).
    read: u64,
    found: HashMap<&'static str, Exploration>,
}

/// This process's explorations, by scenario and bound, for [`explore_reusing`].
type ExploredByScenario = HashMap<(usize, Option<usize>), Vec<Arc<dyn Any + Send + Sync>>>;
static EXPLORED: LazyLock<Mutex<ExploredByScenario>> = LazyLock::new(Default::default);

/// [`explore_all`] for the outcomes of a cell of `variant` decided on the final state (under
/// `fix`, a mutant's switches in place of the variant's), unless this process
/// has already explored `scenario` at `bound` under switches that agree with `fix` on every
/// switch that exploration read, for all of `outcomes`. Such an exploration is the one `fix`
/// would make, execution for execution (see [`racelab_core::switches`]), so its results are
/// this exploration's, and the reused ones name the variant that made them.
pub(crate) fn explore_reusing<M: Model>(
    variant: &'static str,
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcomes: &[(&'static Outcome<M::World>, Verdict)],
    bound: Option<usize>,
) -> Vec<Exploration> {
    let key = (std::ptr::from_ref(scenario) as usize, bound);
    let reused = EXPLORED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
        .into_iter()
        .flatten()
        .filter_map(|e| e.clone().downcast::<Explored<M::Fix>>().ok())
        .find(|e| {
            e.read & e.fix.differing(&fix) == 0
                && outcomes.iter().all(|(o, _)| e.found.contains_key(o.id))
        });
    if let Some(e) = reused {
        return outcomes
            .iter()
            .map(|(o, _)| Exploration {
                seconds: 0.0,
                explored_by: Some(e.variant),
                ..e.found[o.id].clone()
            })
            .collect();
    }
    take_reads();
    let found = explore_all(scenario, fix, outcomes, bound);
    let read = take_reads();
    // A mutant's exploration is not kept: the variant it would be named after did not make it.
    if M::fix_of(variant).is_none_or(|own| own.differing(&fix) != 0) {
        return found;
    }
    let explored = Explored {
        variant,
        fix,
        read,
        found: outcomes
            .iter()
            .map(|(o, _)| o.id)
            .zip(found.clone())
            .collect(),
    };
    EXPLORED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key)
        .or_default()
        .push(Arc::new(explored));
    found
}

/// The body of every loom cell's test: checks the cell, saves the result for the gate, and
/// checks the verdict, the violation message and the pinned execution count.
pub fn verify_cell<M: Model>(claim: &Claim<M>) -> Result<(), String> {
    let result = check_shared(claim)?;
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
    // Cells that share an exploration share it under the mutant too.
    let mut explored: HashMap<String, HashMap<String, Exploration>> = HashMap::new();
    let mut results = Vec::new();
    for c in &loom_cells {
        let group = companions(c);
        if group.len() < 2 {
            results.push(check_with(c, fix)?);
            continue;
        }
        let found = explored
            .entry(exploration_key(c))
            .or_insert_with(|| explore_group(&group, fix));
        results.push(record(c, found[&c.key()].clone()));
    }
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
            if !message.starts_with(VIOLATION)
                && !message.contains(CAUSALITY)
                && message != ALL_FOUND
            {
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
