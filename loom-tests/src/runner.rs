//! The loom cell runner: explores a scenario under a variant, returns the observed verdict,
//! the executions explored, the bound, and the counterexample's timeline.

use racelab_core::claims::{Claim, Claims, ExpectedCell, Method, Verdict};
use racelab_core::matrix::{CellResult, Matrix};
use racelab_core::model::{Model, OutcomeId, Scenario};
use racelab_core::trace::{violation, Timeline, Trace, VIOLATION};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Once};
use std::time::Instant;

/// What one exploration found.
#[derive(Debug)]
pub struct Exploration {
    pub observed: Verdict,
    pub executions: u64,
    pub seconds: f64,
    /// The first violating execution (for a reachable outcome).
    pub counterexample: Option<Timeline>,
}

/// Explores every interleaving of `scenario` under `fix` (up to `bound` preemptions when set),
/// checking `outcome` at the end of each execution. Loom stops at the first violation.
pub fn explore<M: Model>(
    scenario: &'static Scenario<M>,
    fix: M::Fix,
    outcome: OutcomeId,
    bound: Option<usize>,
) -> Exploration {
    quiet_violations();
    let trace = Trace::new();
    let executions = Arc::new(AtomicU64::new(0));
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = bound;
    // A proof must never end early: ignore LOOM_MAX_DURATION / LOOM_MAX_PERMUTATIONS and any
    // leftover checkpoint file from the environment.
    builder.max_duration = None;
    builder.max_permutations = None;
    builder.checkpoint_file = None;
    let started = Instant::now();
    let run = {
        let (trace, executions) = (trace.clone(), executions.clone());
        panic::catch_unwind(AssertUnwindSafe(move || {
            builder.check(move || {
                executions.fetch_add(1, Ordering::Relaxed);
                trace.clear();
                let setup = (scenario.build)(&trace, fix);
                let threads: Vec<_> = setup
                    .threads
                    .into_iter()
                    .map(|mut program| {
                        let world = setup.world.clone();
                        loom::thread::spawn(move || {
                            while !program.is_done() {
                                program.step(&world);
                            }
                        })
                    })
                    .collect();
                for t in threads {
                    t.join().expect("a model thread panicked");
                }
                if let Some(witness) = M::outcome(&setup.world, outcome) {
                    // The runner turns this panic into a `reachable` verdict; any other panic is
                    // a defect of the model and propagates.
                    panic!("{}", violation(outcome, &witness));
                }
            })
        }))
    };
    let seconds = started.elapsed().as_secs_f64();
    let executions = executions.load(Ordering::Relaxed);
    match run {
        Ok(()) => Exploration {
            observed: Verdict::Unreachable,
            executions,
            seconds,
            counterexample: None,
        },
        Err(payload) => {
            let message = panic_message(&*payload);
            if !message.starts_with(VIOLATION) {
                panic::resume_unwind(payload);
            }
            Exploration {
                observed: Verdict::Reachable,
                executions,
                seconds,
                counterexample: Some(Timeline {
                    events: trace.events(),
                    violation: Some(message),
                }),
            }
        }
    }
}

/// Checks one loom claim with `fix` in place of its variant's, as a result record.
pub fn check_with<M: Model>(claim: &Claim<M>, fix: M::Fix) -> CellResult {
    let Method::Loom {
        scenario, bound, ..
    } = claim.method
    else {
        panic!("{} is not a loom cell", claim.key());
    };
    let found = explore(scenario, fix, claim.outcome, bound);
    let mut result = CellResult::for_cell(&claim.expectation(), found.observed);
    result.executions = Some(found.executions);
    result.seconds = found.seconds;
    result.timeline = found.counterexample.map(|t| t.lines()).unwrap_or_default();
    result
}

/// The loom claim of `variant` × `outcome`.
pub fn loom_claim<'a, M: Model>(
    claims: &'a Claims<M>,
    variant: &str,
    outcome: &str,
) -> &'a Claim<M> {
    claims
        .cells
        .iter()
        .find(|c| {
            c.variant == variant && c.outcome == outcome && matches!(c.method, Method::Loom { .. })
        })
        .unwrap_or_else(|| panic!("no loom claim for {} {variant} {outcome}", M::CONTRACT.id))
}

/// The body of every loom cell test: checks the cell, saves the result for the gate, and
/// asserts the verdict, the violation message and the pinned execution count.
pub fn verify_cell<M: Model>(claims: &Claims<M>, variant: &str, outcome: &str) {
    let claim = loom_claim(claims, variant, outcome);
    let fix = M::variant(variant).expect("claims name known variants").fix;
    let result = check_with(claim, fix);
    result.save();
    println!("{}", result.summary());
    let timeline = result.timeline.join("\n");
    assert_eq!(
        result.observed,
        claim.expected,
        "{}: expected {}, loom found {} after {} executions\n{timeline}",
        claim.key(),
        claim.expected,
        result.observed,
        result.executions.unwrap_or(0)
    );
    if result.observed == Verdict::Reachable {
        let last = result.timeline.last().map(String::as_str).unwrap_or("");
        let expected = format!("✗  {VIOLATION}{outcome}: ");
        assert!(
            last.contains(&expected),
            "{}: violation message {last:?} lacks {expected:?}",
            claim.key()
        );
    }
    let Method::Loom {
        executions: pinned, ..
    } = claim.method
    else {
        unreachable!()
    };
    assert_eq!(
        result.executions,
        Some(pinned),
        "{}: loom explored a different number of executions than pinned; the model or the \
         scenario changed: review the change, then re-pin",
        claim.key()
    );
}

/// Runs every loom cell of a contract with `fix` in place of `variant`'s (a mutant), and
/// returns the matrix the gate would print.
pub fn matrix_with<M: Model>(claims: &Claims<M>, variant: &str, fix: M::Fix) -> Matrix {
    let loom_cells: Vec<&Claim<M>> = claims
        .cells
        .iter()
        .filter(|c| matches!(c.method, Method::Loom { .. }))
        .collect();
    let results = loom_cells
        .iter()
        .map(|c| {
            let f = if c.variant == variant {
                fix
            } else {
                M::variant(c.variant).expect("known").fix
            };
            check_with(c, f)
        })
        .collect();
    let expected: Vec<ExpectedCell> = loom_cells.iter().map(|c| c.expectation()).collect();
    Matrix::build(vec![M::CONTRACT], expected, &[], results, Vec::new())
}

/// Every mutant of a contract (a deliberately broken fix) must show up in the matrix the gate
/// prints, as the deviation its claim names.
pub fn verify_mutants<M: Model>(claims: &Claims<M>) {
    assert!(
        !claims.mutants.is_empty(),
        "{} names no mutant",
        M::CONTRACT.id
    );
    for m in claims.mutants {
        let matrix = matrix_with::<M>(claims, m.variant, m.fix);
        let key = format!("{}/{}/{}/loom", M::CONTRACT.id, m.variant, m.caught_by);
        let expected = format!("{key}: expected unreachable, observed reachable");
        assert!(
            matrix.deviations.iter().any(|d| d.to_string() == expected),
            "mutant `{}` was not caught at {key}; deviations: {:?}",
            m.name,
            matrix.deviations
        );
        let text = matrix.render_text();
        assert!(
            text.contains("!RL"),
            "the printed matrix does not flag mutant `{}`:\n{text}",
            m.name
        );
        println!("mutant `{}` caught: {expected}", m.name);
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Violations are expected results, not failures: keep their panic messages off stderr.
fn quiet_violations() {
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
            if !message.starts_with(VIOLATION) {
                default(info);
            }
        }));
    });
}

/// One `#[test]` per loom cell, plus a test that every loom claim has one.
#[macro_export]
macro_rules! cell_tests {
    ($model:ty, $claims:expr, { $($name:ident => ($variant:literal, $outcome:literal)),* $(,)? }) => {
        $(
            #[test]
            fn $name() {
                $crate::verify_cell::<$model>(&$claims, $variant, $outcome);
            }
        )*

        #[test]
        fn every_loom_claim_has_a_test() {
            let tested: Vec<(&str, &str)> = vec![$(($variant, $outcome)),*];
            for c in $claims.cells.iter().filter(|c| c.checker() == racelab_core::Checker::Loom) {
                assert!(tested.contains(&(c.variant, c.outcome)), "{} has no loom test", c.key());
            }
        }
    };
}
