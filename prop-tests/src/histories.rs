//! The checkers of long histories, written once for every contract.

use arbitrary::{Arbitrary, Unstructured};
use proptest::strategy::{BoxedStrategy, Strategy};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use proptest_state_machine::ReferenceStateMachine;
use racelab_core::claims::{Checker, Claim, Verdict};
use racelab_core::drive::Driver;
use racelab_core::matrix::CellResult;
use racelab_core::model::Setup;
use racelab_core::model::{Model, OutcomeId};
use racelab_core::trace::{violation, Timeline, Trace};
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// An outcome a history reached: its first witness and the timeline up to it.
#[derive(Clone, Debug)]
pub struct Violation {
    pub outcome: OutcomeId,
    pub witness: String,
    pub timeline: Timeline,
}

/// An operation's byte encoding: what the fuzz targets decode and the corpus stores. One
/// explicit format per contract (not derived), so committed inputs stay meaningful when the
/// `arbitrary` crate changes its derive.
pub trait Codec: Sized {
    fn decode(u: &mut Unstructured<'_>) -> arbitrary::Result<Self>;
    fn encode(&self, out: &mut Vec<u8>);
}

/// A contract whose long histories the property checkers drive.
pub trait Histories: Model {
    type Op: Codec + Clone + Debug + Send + 'static;
    /// What the contract keeps beside the driver between operations: what the environment has
    /// been asked to do so far (the reference state of its generator).
    type Plan: Clone + Debug;

    /// The world a history starts from, with its first programs, and the initial plan.
    fn start(fix: Self::Fix, trace: &Trace) -> (Setup<Self>, Self::Plan);

    /// Carries out one operation: starts programs, steps the driver, injects a fault. Returns
    /// false, changing nothing, when `plan` does not allow it (a decoded byte string can hold
    /// any operation in any order).
    fn apply(driver: &mut Driver<Self>, plan: &mut Self::Plan, op: &Self::Op) -> bool;

    /// Meaningful histories, from the contract's reference state machine (see [`sequential`]).
    fn histories() -> BoxedStrategy<Generated<Self::Op>>;

    /// For scenario files: the operation named by a line's words, or what is wrong with them.
    fn parse_op(words: &[&str]) -> Result<Self::Op, String>;

    /// The names `parse_op` accepts, for error messages.
    const OP_NAMES: &'static [&'static str];

    /// The observable state, in the report's words.
    fn describe(world: &Self::World) -> String;

    /// The property the fuzz target checks: under the proposed fix a history reaches no outcome
    /// but the residual windows the contract admits. `Err` names the outcome, with the history
    /// and its timeline.
    fn fix_property(ops: &[Self::Op]) -> Result<(), String>;
}

/// Panics (for libFuzzer) when `ops` break the contract's fix property.
pub fn fuzz<M: Histories>(ops: &[M::Op]) {
    if let Err(e) = M::fix_property(ops) {
        panic!("{e}");
    }
}

/// Checks the fix property over `cases` generated histories (seeded); `Err` is the shrunk
/// counterexample.
pub fn fix_property_holds<M: Histories>(cases: u32) -> Result<(), String> {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    runner
        .run(&M::histories(), |(ops, seen)| {
            if let Some(seen) = seen {
                seen.store(ops.len(), Ordering::SeqCst); // every transition runs
            }
            M::fix_property(&ops).map_err(TestCaseError::fail)
        })
        .map_err(|e| e.to_string())
}

/// Checks the fix property on every committed corpus and regression input of the contract;
/// returns how many there were.
pub fn committed_inputs_hold<M: Histories>() -> Result<usize, String> {
    let inputs = corpus_files(&fuzz_dirs(&M::CONTRACT.id.replace('-', "_")));
    for path in &inputs {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let ops = decode::<M::Op>(&bytes).ok_or(format!("{}: does not decode", path.display()))?;
        M::fix_property(&ops).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(inputs.len())
}

/// Pseudo-outcome reported when a history cannot finish: actors are left that can never step.
pub const STUCK: OutcomeId = "stuck";

/// One history in progress: the driver, the plan, and the outcomes reached so far.
pub struct Session<M: Histories> {
    pub driver: Driver<M>,
    plan: M::Plan,
    found: Vec<Violation>,
}

impl<M: Histories> Session<M> {
    pub fn new(fix: M::Fix) -> Self {
        let trace = Trace::new();
        let (setup, plan) = M::start(fix, &trace);
        Session {
            driver: Driver::new(trace, setup),
            plan,
            found: Vec::new(),
        }
    }

    /// Applies `op` (see [`Histories::apply`]) and checks the outcomes if everything is quiet.
    pub fn apply(&mut self, op: &M::Op) -> bool {
        let applied = M::apply(&mut self.driver, &mut self.plan, op);
        if applied && self.driver.is_quiescent() {
            self.check();
        }
        applied
    }

    /// Steps the oldest unfinished program of `actor` (see [`Driver::step_named`]) and checks
    /// the outcomes if everything is quiet.
    pub fn step_named(&mut self, actor: &str) -> Result<(), String> {
        self.driver.step_named(actor)?;
        if self.driver.is_quiescent() {
            self.check();
        }
        Ok(())
    }

    /// Runs every program to its end, then checks the outcomes; a history that cannot finish
    /// reports [`STUCK`].
    pub fn finish(mut self) -> Vec<Violation> {
        if let Err(stuck) = self.driver.finish() {
            let timeline = self.driver.timeline(Some(violation(STUCK, &stuck)));
            self.found.push(Violation {
                outcome: STUCK,
                witness: stuck,
                timeline,
            });
        }
        self.check();
        self.found
    }

    /// Evaluates every outcome of the contract; keeps the first witness of each. Outcomes are
    /// defined on quiet states (no program in the middle of its work): that is where loom
    /// checks them too.
    fn check(&mut self) {
        for o in M::CONTRACT.outcomes {
            if self.found.iter().any(|v| v.outcome == o.id) {
                continue;
            }
            if let Some(witness) = self.driver.outcome(o.id) {
                let timeline = self.driver.timeline(Some(violation(o.id, &witness)));
                self.found.push(Violation {
                    outcome: o.id,
                    witness,
                    timeline,
                });
            }
        }
    }
}

/// Runs `ops` under `fix` on the step driver; returns the outcomes reached, first witness each,
/// in the order found. Every property checker and fuzz target calls this one function.
pub fn run<M: Histories>(fix: M::Fix, ops: &[M::Op]) -> Vec<Violation> {
    let mut session = Session::<M>::new(fix);
    for op in ops {
        session.apply(op);
    }
    session.finish()
}

/// A generated history and proptest-state-machine's counter of the transitions the test ran
/// (its shrinker drops unseen trailing transitions without re-running them).
pub type Generated<O> = (Vec<O>, Option<Arc<AtomicUsize>>);

/// Histories of 1 to `max` transitions of the reference state machine `R`.
pub fn sequential<R>(max: usize) -> BoxedStrategy<Generated<R::Transition>>
where
    R: ReferenceStateMachine,
    R::Transition: 'static,
{
    R::sequential_strategy(1..max)
        .prop_map(|(_, ops, seen)| (ops, seen))
        .boxed()
}

/// A whole input as libfuzzer-sys hands it over: operations until the bytes run out.
#[derive(Debug)]
pub struct History<O>(pub Vec<O>);

impl<'a, O: Codec> Arbitrary<'a> for History<O> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut ops = Vec::new();
        while !u.is_empty() {
            ops.push(O::decode(u)?);
        }
        Ok(History(ops))
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<Self> {
        Self::arbitrary(&mut u)
    }
}

pub fn encode<O: Codec>(ops: &[O]) -> Vec<u8> {
    let mut out = Vec::new();
    for op in ops {
        op.encode(&mut out);
    }
    out
}

/// Decodes `bytes` exactly as libfuzzer-sys does for `fuzz_target!(|h: History<Op>| ..)`:
/// too short for the size hint, or undecodable, is no input.
pub fn decode<O: Codec>(bytes: &[u8]) -> Option<Vec<O>> {
    if bytes.len() < <History<O> as Arbitrary>::size_hint(0).0 {
        return None;
    }
    History::<O>::arbitrary_take_rest(Unstructured::new(bytes))
        .ok()
        .map(|h| h.0)
}

/// Whether `ops` reach `outcome` under `fix`.
pub fn reaches<M: Histories>(fix: M::Fix, ops: &[M::Op], outcome: OutcomeId) -> Option<Violation> {
    run::<M>(fix, ops)
        .into_iter()
        .find(|v| v.outcome == outcome)
}

fn fix_of<M: Model>(variant: &str) -> M::Fix {
    M::variant(variant)
        .unwrap_or_else(|| panic!("unknown variant {variant}"))
        .fix
}

fn result<M: Histories>(
    claim: &Claim<M>,
    found: Option<(Vec<M::Op>, Violation)>,
    cases: u64,
    started: Instant,
) -> CellResult {
    let observed = if found.is_some() {
        Verdict::Reachable
    } else {
        Verdict::Unreachable
    };
    let mut r = CellResult::for_cell(&claim.expectation(), observed);
    r.cases = Some(cases);
    r.seconds = started.elapsed().as_secs_f64();
    if let Some((ops, v)) = found {
        r.timeline = vec![format!("history ({} operations): {ops:?}", ops.len())];
        r.timeline.extend(v.timeline.lines());
    }
    r
}

/// proptest: searches `cases` generated histories for the claim's outcome and shrinks the
/// first one found to a minimal history. Seeded, so CI sees the same histories every run.
pub fn proptest_cell<M: Histories>(claim: &Claim<M>, cases: u32) -> CellResult {
    let fix = fix_of::<M>(claim.variant);
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let count = AtomicU64::new(0);
    let first_failure = AtomicU64::new(0);
    let started = Instant::now();
    let outcome = runner.run(&M::histories(), |(ops, seen)| {
        let n = count.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(seen) = seen {
            seen.store(ops.len(), Ordering::SeqCst); // every transition runs
        }
        match reaches::<M>(fix, &ops, claim.outcome) {
            None => Ok(()),
            Some(v) => {
                let _ = first_failure.compare_exchange(0, n, Ordering::Relaxed, Ordering::Relaxed);
                Err(TestCaseError::fail(v.witness))
            }
        }
    });
    let found = match outcome {
        Ok(()) => None,
        Err(TestError::Fail(_, (ops, _))) => {
            // proptest-state-machine shrinks by transitions; deleting single operations after it
            // often shortens the schedule further.
            let ops = shrink(ops, |c| reaches::<M>(fix, c, claim.outcome).is_some());
            let v = reaches::<M>(fix, &ops, claim.outcome).expect("a shrunk failure still fails");
            Some((ops, v))
        }
        Err(e) => panic!("{}: proptest gave up: {e}", claim.key()),
    };
    // For a reachable cell: the cases run until the first failure (shrinking not counted).
    let cases = match first_failure.load(Ordering::Relaxed) {
        0 => count.load(Ordering::Relaxed),
        n => n,
    };
    result(claim, found, cases, started)
}

/// quickcheck: random byte strings decoded with the fuzz codec; a failure is shrunk by
/// deleting operations.
pub fn quickcheck_cell<M: Histories>(claim: &Claim<M>, tests: u64) -> CellResult {
    struct Prop<M: Histories> {
        fix: M::Fix,
        outcome: OutcomeId,
        tests: Arc<AtomicU64>,
        failure: Arc<Mutex<Option<Vec<M::Op>>>>,
    }
    impl<M: Histories> quickcheck::Testable for Prop<M> {
        fn result(&self, g: &mut quickcheck::Gen) -> quickcheck::TestResult {
            let bytes: Vec<u8> = quickcheck::Arbitrary::arbitrary(g);
            self.tests.fetch_add(1, Ordering::Relaxed);
            let Some(ops) = decode::<M::Op>(&bytes) else {
                return quickcheck::TestResult::discard();
            };
            if reaches::<M>(self.fix, &ops, self.outcome).is_none() {
                return quickcheck::TestResult::passed();
            }
            let minimal = shrink(ops, |c| reaches::<M>(self.fix, c, self.outcome).is_some());
            *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(minimal);
            quickcheck::TestResult::failed()
        }
    }
    let fix = fix_of::<M>(claim.variant);
    let (count, failure) = (Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(None)));
    let prop = Prop::<M> {
        fix,
        outcome: claim.outcome,
        tests: count.clone(),
        failure: failure.clone(),
    };
    let started = Instant::now();
    let passed = quickcheck::QuickCheck::new()
        .rng(quickcheck::Gen::new(96))
        .tests(tests)
        .max_tests(tests * 4)
        .quicktest(prop);
    let found = failure
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .map(|ops: Vec<M::Op>| {
            let v = reaches::<M>(fix, &ops, claim.outcome).expect("a shrunk failure still fails");
            (ops, v)
        });
    assert_eq!(
        passed.is_err(),
        found.is_some(),
        "quickcheck and the property disagree"
    );
    result(claim, found, count.load(Ordering::Relaxed), started)
}

/// The stable replay of the fuzz corpus and regressions: every input file under `dirs`,
/// decoded as the fuzz target decodes it, through the same property.
pub fn replay_cell<M: Histories>(claim: &Claim<M>, dirs: &[PathBuf]) -> CellResult {
    let fix = fix_of::<M>(claim.variant);
    let started = Instant::now();
    let inputs = corpus_files(dirs);
    assert!(
        !inputs.is_empty(),
        "{}: no corpus files under {dirs:?}",
        claim.key()
    );
    let found = inputs.iter().find_map(|path| {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let ops = decode::<M::Op>(&bytes)?;
        reaches::<M>(fix, &ops, claim.outcome).map(|v| (ops, v))
    });
    result(claim, found, inputs.len() as u64, started)
}

/// Every file below `dirs`, sorted, so the replay order is stable.
pub fn corpus_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        walk(d, &mut out);
    }
    out.sort();
    out
}

/// The fuzz inputs of `contract`: the committed seed corpus and the minimized regressions.
pub fn fuzz_dirs(contract_module: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    vec![
        fuzz.join("corpus").join(contract_module),
        fuzz.join("regressions").join(contract_module),
    ]
}

/// Asserts that the committed fuzz regression `name` of `contract_module` holds exactly `ops`,
/// so the stable replay runs the named regression test's history too.
pub fn assert_committed<O: Codec>(contract_module: &str, name: &str, ops: &[O]) {
    let path = fuzz_dirs(contract_module)[1].join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        bytes,
        encode(ops),
        "{} does not encode this history",
        path.display()
    );
}

/// Deletes operations while `still_fails` holds: chunks of halving size, then single ones.
pub fn shrink<O: Clone>(mut ops: Vec<O>, still_fails: impl Fn(&[O]) -> bool) -> Vec<O> {
    let mut chunk = ops.len().div_ceil(2).max(1);
    loop {
        let mut i = 0;
        let mut progressed = false;
        while i < ops.len() {
            let mut candidate = ops.clone();
            candidate.drain(i..(i + chunk).min(ops.len()));
            if still_fails(&candidate) {
                ops = candidate;
                progressed = true;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 && !progressed {
            return ops;
        }
        chunk = (chunk / 2).max(1);
    }
}

/// Checks a history cell with its checker, saves the result for the gate, and asserts the
/// expected verdict (printing the counterexample when it differs).
pub fn verify_history_cell<M: Histories>(claim: &Claim<M>, budget: u32) -> CellResult {
    let r = match claim.checker() {
        Checker::Proptest => proptest_cell(claim, budget),
        Checker::Quickcheck => quickcheck_cell(claim, budget.into()),
        Checker::FuzzReplay => replay_cell(claim, &fuzz_dirs(&M::CONTRACT.id.replace('-', "_"))),
        other => panic!("{} is not a history checker", other.as_str()),
    };
    r.save();
    println!("{}", r.summary());
    assert_eq!(
        r.observed,
        claim.expected,
        "{}: expected {}, observed {}\n{}",
        claim.key(),
        claim.expected,
        r.observed,
        r.timeline.join("\n")
    );
    if r.observed == Verdict::Reachable {
        let last = r.timeline.last().map(String::as_str).unwrap_or("");
        assert!(
            last.contains(&format!("{}: ", claim.outcome)),
            "{}: violation line {last:?}",
            claim.key()
        );
    }
    r
}

/// The history claim of `variant` × `outcome` checked by `checker`.
pub fn history_claim<'a, M: Model>(
    claims: &'a racelab_core::Claims<M>,
    variant: &str,
    outcome: &str,
    checker: Checker,
) -> &'a Claim<M> {
    claims
        .cells
        .iter()
        .find(|c| c.variant == variant && c.outcome == outcome && c.checker() == checker)
        .unwrap_or_else(|| {
            panic!(
                "no {} claim for {} {variant} {outcome}",
                checker.as_str(),
                M::CONTRACT.id
            )
        })
}

/// One `#[test]` per history cell (`name => (variant, outcome, Checker, budget)`, the budget
/// being cases or tests to run), a test that every history claim has one, and the fix property
/// (what the fuzz target checks) over `fix_property` generated histories and over the committed
/// fuzz inputs.
#[macro_export]
macro_rules! history_tests {
    ($model:ty, $claims:expr, fix_property: $cases:expr, { $($name:ident => ($variant:literal, $outcome:literal, $checker:ident, $budget:expr)),* $(,)? }) => {
        /// The fix property (what the fuzz target checks) over generated histories.
        #[test]
        fn the_fix_property_holds_over_histories() {
            if let Err(e) = $crate::histories::fix_property_holds::<$model>($cases) {
                panic!("{e}");
            }
        }

        /// Every committed corpus and regression input satisfies the fix property.
        #[test]
        fn the_committed_inputs_hold_the_fix_property() {
            match $crate::histories::committed_inputs_hold::<$model>() {
                Ok(n) => assert!(n > 0, "no committed fuzz inputs"),
                Err(e) => panic!("{e}"),
            }
        }

        $(
            #[test]
            fn $name() {
                let claim = $crate::histories::history_claim::<$model>(
                    &$claims, $variant, $outcome, racelab_core::Checker::$checker);
                $crate::histories::verify_history_cell::<$model>(claim, $budget);
            }
        )*

        #[test]
        fn every_history_claim_has_a_test() {
            let tested = [$(($variant, $outcome, racelab_core::Checker::$checker)),*];
            for c in $claims.cells.iter().filter(|c| c.checker() != racelab_core::Checker::Loom) {
                assert!(tested.contains(&(c.variant, c.outcome, c.checker())), "{} has no test", c.key());
            }
        }
    };
}
