//! The second exhaustive checker: every order of whole steps of a scenario.
//!
//! A stateless depth-first search over the step driver's choices: each schedule re-runs the
//! scenario from its start, takes the recorded prefix of choices, and extends it with the first
//! enabled program until none can step. A step that would block is not enabled, so a schedule
//! that ends with unfinished programs is a stuck one (a deadlock). The outcome is decided at the
//! end of every schedule, as the loom runner decides it at the end of every execution.
//!
//! It checks the same step functions as loom, one whole step at a time: loom proves the real
//! synchronization inside the steps, this proves every order of the steps themselves, with no
//! reduction. Where the two disagree, either loom missed an execution or a step hides an
//! interleaving inside it: both are worth a reviewer's look.

use crate::claims::{Claim, Claimed, Mutant, Verdict};
use crate::drive::Driver;
use crate::model::{catching_setup, Model, Scenario, ALONE_STEPS};
use crate::outcome::{Check, Outcome};
use crate::report::CellResult;
use crate::trace::{violation, without_recording, Timeline, Trace};
use std::collections::BTreeSet;
use std::ops::Range;
use std::time::Instant;

/// What an enumeration found.
#[derive(Debug)]
pub struct Enumeration {
    pub observed: Verdict,
    pub schedules: u64,
    /// Schedules that ended with programs that can never step.
    pub stuck: u64,
    pub seconds: f64,
    pub counterexample: Option<Timeline>,
    /// The counterexample's schedule: the actor of each step.
    pub schedule: Vec<&'static str>,
    /// Every outcome the counterexample's final state shows, the one searched for first.
    pub reached: Vec<&'static str>,
    /// The final states ([`Model::describe`]) of every schedule explored.
    pub final_states: BTreeSet<String>,
}

/// Every choice at every point: the checker's exploration.
pub fn every_choice(_depth: usize, enabled: usize) -> Range<usize> {
    0..enabled
}

/// Enumerates every order of whole steps of `scenario` under `fix`, deciding `outcome` at the
/// end of each; stops at the first schedule that reaches it. `choices(depth, n)` says which of
/// the `n` enabled programs to try at a depth ([`every_choice`]; a test narrows it to show that
/// a broken exploration is caught).
pub fn enumerate<M: Model>(
    scenario: &Scenario<M>,
    fix: M::Fix,
    outcome: &Outcome<M::World>,
    choices: impl Fn(usize, usize) -> Range<usize>,
) -> Enumeration {
    let mut one = enumerate_each(scenario, fix, &[outcome], choices);
    one.pop().expect("one enumeration per outcome")
}

/// [`enumerate`] for several outcomes at once, in one pass over the schedules: each outcome's
/// enumeration is the one [`enumerate`] would return for it alone (the schedules run in the
/// same order, and an outcome's result is taken where it would have stopped), and the pass
/// stops when every outcome is found.
pub fn enumerate_each<M: Model>(
    scenario: &Scenario<M>,
    fix: M::Fix,
    outcomes: &[&Outcome<M::World>],
    choices: impl Fn(usize, usize) -> Range<usize>,
) -> Vec<Enumeration> {
    let started = Instant::now();
    let mut found: Vec<Option<Enumeration>> = outcomes.iter().map(|_| None).collect();
    let (mut schedules, mut stuck_schedules) = (0, 0);
    let mut final_states = BTreeSet::new();
    // The schedule in progress: at each depth, the choice taken and the last one to try.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    loop {
        // Every schedule runs unrecorded (the trace's formatting was about a quarter of a
        // schedule's time); one that shows an outcome not yet found runs again, recorded, for
        // its timeline. The models decide nothing on whether they record.
        let (mut d, mut actors) =
            without_recording(|| run_schedule(scenario, fix, &mut stack, &choices));
        let shows_new = outcomes
            .iter()
            .zip(&found)
            .any(|(o, slot)| slot.is_none() && shows(o, &d.world, !d.is_quiescent()));
        if shows_new {
            let taken = stack.len();
            (d, actors) = run_schedule(scenario, fix, &mut stack, &choices);
            assert_eq!(
                stack.len(),
                taken,
                "{}: a schedule ran differently when recorded",
                scenario.name
            );
        }
        schedules += 1;
        let stuck = !d.is_quiescent();
        stuck_schedules += u64::from(stuck);
        final_states.insert(M::describe(&d.world));
        // State outcomes first: a deadlock's message comes from `finish`, which would step a
        // schedule cut short by `choices`.
        let mut blocked = None;
        for pass in [false, true] {
            for (outcome, slot) in outcomes.iter().zip(found.iter_mut()) {
                let deadlock = matches!(outcome.check, Check::Deadlock);
                if slot.is_some() || deadlock != pass {
                    continue;
                }
                let witness = match outcome.check {
                    Check::State(_) if !stuck => outcome.holds(&d.world),
                    Check::Deadlock if stuck => Some(format!(
                        "deadlock: blocked {}",
                        blocked.get_or_insert_with(|| d.finish().err().unwrap_or_default())
                    )),
                    _ => None,
                };
                if let Some(w) = witness {
                    *slot = Some(Enumeration {
                        observed: Verdict::Reachable,
                        schedules,
                        stuck: stuck_schedules,
                        seconds: started.elapsed().as_secs_f64(),
                        counterexample: Some(d.timeline(Some(violation(outcome.id, &w)))),
                        schedule: actors.clone(),
                        reached: std::iter::once(outcome.id)
                            .chain(
                                M::OUTCOMES
                                    .iter()
                                    .filter(|o| o.id != outcome.id && shows(o, &d.world, stuck))
                                    .map(|o| o.id),
                            )
                            .collect(),
                        final_states: final_states.clone(),
                    });
                }
            }
        }
        if found.iter().all(Option::is_some) {
            break;
        }
        if !next_schedule(&mut stack) {
            break;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    found
        .into_iter()
        .map(|slot| {
            slot.unwrap_or_else(|| Enumeration {
                observed: Verdict::Unreachable,
                schedules,
                stuck: stuck_schedules,
                seconds,
                counterexample: None,
                schedule: Vec::new(),
                reached: Vec::new(),
                final_states: final_states.clone(),
            })
        })
        .collect()
}

/// Every order of whole steps of `scenario` under `fix`, as [`enumerate`] explores them,
/// recorded, with `f` called on each schedule's end (its driver: the world and the trace);
/// returns how many schedules ran. For a test's argument over every schedule's events.
#[cfg(all(test, not(loom)))]
pub(crate) fn each_schedule<M: Model>(
    scenario: &Scenario<M>,
    fix: M::Fix,
    mut f: impl FnMut(&Driver<M>),
) -> u64 {
    let mut stack = Vec::new();
    let mut schedules = 0;
    loop {
        let (d, _) = run_schedule(scenario, fix, &mut stack, &every_choice);
        schedules += 1;
        f(&d);
        if !next_schedule(&mut stack) {
            return schedules;
        }
    }
}

/// Moves `stack` to the next schedule: the deepest choice with an alternative left takes it,
/// and the choices below it are dropped. False when every schedule has run.
fn next_schedule(stack: &mut Vec<(usize, usize)>) -> bool {
    while let Some((taken, last)) = stack.last_mut() {
        if taken < last {
            *taken += 1;
            return true;
        }
        stack.pop();
    }
    false
}

/// Runs one schedule of `scenario` from its start: the choices on `stack`, then (past its end)
/// the first of `choices` at each new depth, pushed, until no program can step. Returns the
/// driver and the actor of each step.
fn run_schedule<M: Model>(
    scenario: &Scenario<M>,
    fix: M::Fix,
    stack: &mut Vec<(usize, usize)>,
    choices: &impl Fn(usize, usize) -> Range<usize>,
) -> (Driver<M>, Vec<&'static str>) {
    let trace = Trace::new();
    let mut d = Driver::<M>::new(trace.clone(), (scenario.build)(&trace, fix));
    let mut depth = 0;
    let mut actors = Vec::new();
    loop {
        let enabled = d.enabled();
        if enabled.is_empty() {
            break;
        }
        // A program that steps on forever fails the cell here instead of hanging it (no
        // scenario's schedule comes near: they are tens of steps).
        assert!(
            depth < ALONE_STEPS,
            "{}: a schedule took {ALONE_STEPS} steps and has not ended; still enabled: {}",
            scenario.name,
            enabled
                .iter()
                .map(|&i| d.actor(i))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if depth == stack.len() {
            let range = choices(depth, enabled.len());
            if range.is_empty() {
                break;
            }
            stack.push((range.start, range.end - 1));
        }
        let chosen = enabled[stack[depth].0];
        actors.push(d.actor(chosen));
        d.step_actor(chosen);
        depth += 1;
    }
    (d, actors)
}

/// Whether a schedule's end shows `outcome` (`stuck`: some actor can never step), as loom decides
/// it at the end of an execution: a state outcome on a finished world, a deadlock when stuck.
pub fn shows<W>(outcome: &Outcome<W>, world: &W, stuck: bool) -> bool {
    match outcome.check {
        Check::State(_) => !stuck && outcome.holds(world).is_some(),
        Check::Deadlock => stuck,
        Check::Race => false,
    }
}

/// The step checker's cell for a loom claim: its result record (saved for the gate), or what
/// differs from the claim.
pub fn verify<M: Model>(claim: &Claim<M>) -> Result<CellResult, String> {
    let (scenario, _) = claim
        .method
        .loom_scenario()
        .ok_or(format!("{} is not a loom cell", claim.key()))?;
    let e = catching_setup(|| enumerate(scenario, claim.fix(), claim.outcome, every_choice))
        .map_err(|setup| format!("{}: {setup}", claim.steps_expectation().key()))?;
    let mut r = CellResult::for_cell(&claim.steps_expectation(), e.observed);
    r.schedules = Some(e.schedules);
    r.seconds = e.seconds;
    if let Some(t) = &e.counterexample {
        r.set_counterexample(Vec::new(), t);
        let file = crate::schedule::Counterexample {
            contract: M::CONTRACT.id,
            scenario: scenario.name,
            variant: claim.variant,
            reached: &e.reached,
            steps: &e.schedule,
        };
        r.replay = Some(file.to_file());
    }
    if e.observed == Verdict::Unreachable {
        r.final_states = Some(e.final_states.into_iter().collect());
    }
    r.save();
    let key = r.key();
    if e.stuck > 0 && !matches!(claim.outcome.check, Check::Deadlock) {
        return Err(format!(
            "{key}: {} of {} schedules end with actors that can never step (loom would abort \
             on the deadlock): a defect of the model",
            e.stuck, e.schedules
        ));
    }
    if r.observed != claim.expected {
        return Err(format!(
            "{key}: expected {}, observed {} after {} schedules\n{}",
            claim.expected,
            r.observed,
            e.schedules,
            r.timeline.join("\n")
        ));
    }
    Ok(r)
}

/// The step checker's half of a mutant's check (loom's is `racelab_loom::mutants::verify_mutant`):
/// with the mutant's switches in place of its variant's, every order of whole steps of the
/// catching cell's scenario reaches the outcome that cell claims unreachable (or, for a mutant
/// that acts inside a step, does not: that one is loom's to catch).
pub fn verify_mutant<M: Claimed>(m: &Mutant<M>) -> Result<(), String> {
    let cell = M::CLAIMS
        .cells
        .iter()
        .find(|c| m.is_caught_at(c) && c.has_steps_twin())
        .ok_or(format!(
            "mutant `{}`: no loom cell {} to catch it",
            m.name,
            m.catching_key()
        ))?;
    let (scenario, _) = cell.method.loom_scenario().expect("a loom cell");
    let key = cell.steps_expectation().key();
    let e = catching_setup(|| enumerate(scenario, m.fix(), m.caught_by, every_choice))
        .map_err(|setup| format!("mutant `{}` at {key}: {setup}", m.name))?;
    match (e.observed, m.inside_a_step) {
        (Verdict::Reachable, false) | (Verdict::Unreachable, true) => Ok(()),
        (Verdict::Unreachable, false) => Err(format!(
            "mutant `{}` was not caught at {key}: {} schedules, none reaches {}",
            m.name, e.schedules, m.caught_by.id
        )),
        (Verdict::Reachable, true) => Err(format!(
            "mutant `{}` is declared inside a step, yet whole steps reach {} at {key}: it is \
             not (set `inside_a_step: false`)",
            m.name, m.caught_by.id
        )),
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::model::{Baseline, Contract, Model, Program, Scenario, Setup, Variant};
    use crate::outcome::{Check, Outcome};
    use crate::report::compare::final_states_differ;
    use crate::sync::Arc;
    use std::sync::Mutex;

    /// The harness's own model: actors that append their names to a log, one per step.
    struct Log;

    crate::switches! {
        struct Fix {
            /// No part: the one switch a model needs.
            0 => none: bool = false,
        }
    }

    type World = Mutex<Vec<&'static str>>;

    /// An actor and how many appends it has left; each append is recorded.
    struct Append(crate::trace::Cx, u8);

    impl Program<World> for Append {
        fn actor(&self) -> &'static str {
            self.0.actor
        }
        fn is_done(&self) -> bool {
            self.1 == 0
        }
        fn step(&mut self, w: &World) {
            w.lock().expect("no step panics").push(self.0.actor);
            self.1 -= 1;
            self.0.record("Log.append", format_args!("{} left", self.1));
        }
    }

    impl Model for Log {
        type Fix = Fix;
        type World = World;
        const CONTRACT: Contract = Contract {
            id: "log",
            module: "log",
            report: "-",
            title: "the step checker's own test",
        };
        const OUTCOMES: &'static [&'static Outcome<World>] = &[&O1];
        const VARIANTS: &'static [Variant<Fix>] = &[];
        const BASELINES: &'static [Baseline<Fix>] = &[];
        const UPSTREAM: Fix = Fix::UPSTREAM;
        fn describe(w: &World) -> String {
            w.lock().expect("no step panics").join("")
        }
    }

    /// `A` appends twice, `B` once: three orders, three final logs.
    static TWO_AND_ONE: Scenario<Log> = Scenario {
        name: "two-and-one",
        about: "A appends twice, B once",
        build: |trace, _| Setup {
            world: Arc::new(Mutex::new(Vec::new())),
            threads: vec![
                Box::new(Append(trace.actor("A"), 2)),
                Box::new(Append(trace.actor("B"), 1)),
            ],
        },
    };

    /// `B` appends before `A` has finished: reachable by whole steps.
    static O1: Outcome<World> = Outcome {
        id: "O1",
        summary: "B interleaves A",
        check: Check::State(|w| {
            let log = Log::describe(w);
            (log != "AAB").then_some(log)
        }),
    };

    /// Never holds: the enumeration runs to its end and collects every final state.
    static NOTHING: Outcome<World> = Outcome {
        id: "none",
        summary: "never",
        check: Check::State(|_| None),
    };

    #[test]
    fn every_order_is_enumerated_and_a_pruned_exploration_is_caught() {
        let fix = Log::UPSTREAM;
        let full = enumerate(&TWO_AND_ONE, fix, &NOTHING, every_choice);
        assert_eq!(full.observed, Verdict::Unreachable);
        assert_eq!(full.stuck, 0);
        assert_eq!(full.final_states.len(), 3, "{:?}", full.final_states);
        // A checker that never lets the last enabled actor go while another can: it misses
        // orders, and here the final states where B is not last.
        let broken = enumerate(&TWO_AND_ONE, fix, &NOTHING, |_, n| 0..n.max(2) - 1);
        assert!(broken.schedules < full.schedules);
        let (only_full, only_broken) =
            final_states_differ(&full.final_states, &broken.final_states)
                .expect("the pruned exploration reaches fewer final states");
        assert!(
            !only_full.is_empty() && only_broken.is_empty(),
            "{only_full:?}"
        );
        assert!(final_states_differ(&full.final_states, &full.final_states).is_none());
    }

    /// `A` has appended twice before `B`: the schedule `enumerate` tries first.
    static A_FIRST: Outcome<World> = Outcome {
        id: "O2",
        summary: "A runs first",
        check: Check::State(|w| (Log::describe(w) == "AAB").then(|| "AAB".to_owned())),
    };

    #[test]
    fn several_outcomes_at_once_are_each_enumerated_as_alone() {
        let fix = Log::UPSTREAM;
        let outcomes = [&O1, &NOTHING, &A_FIRST];
        let each = enumerate_each(&TWO_AND_ONE, fix, &outcomes, every_choice);
        for (o, together) in outcomes.into_iter().zip(&each) {
            let alone = enumerate(&TWO_AND_ONE, fix, o, every_choice);
            let violation = |e: &Enumeration| {
                e.counterexample
                    .as_ref()
                    .map(|t| t.to_string())
                    .unwrap_or_default()
            };
            assert_eq!(together.observed, alone.observed, "{}", o.id);
            assert_eq!(together.schedules, alone.schedules, "{}", o.id);
            assert_eq!(together.schedule, alone.schedule, "{}", o.id);
            assert_eq!(together.reached, alone.reached, "{}", o.id);
            assert_eq!(together.final_states, alone.final_states, "{}", o.id);
            assert_eq!(violation(together), violation(&alone), "{}", o.id);
        }
        // Found at different schedules, so the comparison above can tell them apart.
        assert_eq!(
            each.iter().map(|e| e.schedules).collect::<Vec<_>>(),
            [2, 3, 1]
        );
    }

    #[test]
    fn an_outcome_is_found_by_whole_steps() {
        let e = enumerate(&TWO_AND_ONE, Log::UPSTREAM, &O1, every_choice);
        assert_eq!(e.observed, Verdict::Reachable);
        let t = e.counterexample.expect("a timeline");
        // Schedules run unrecorded; the counterexample's is run again, recorded: its events
        // are the steps of the schedule that showed the outcome (A, B, then A).
        let steps: Vec<_> = t
            .events
            .iter()
            .map(|e| (e.actor, e.detail.as_str()))
            .collect();
        assert_eq!(
            steps,
            [("A", "1 left"), ("B", "0 left"), ("A", "0 left")],
            "{t}"
        );
        assert!(t.to_string().contains("violation: O1: AB"), "{t}");
    }
}
