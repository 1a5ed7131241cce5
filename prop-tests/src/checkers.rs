//! The checkers of long histories, written once for every contract: proptest over the
//! contract's reference state machine, quickcheck over the fuzz codec, and the stable replay of
//! the committed fuzz inputs. Every one runs histories through `racelab_core::histories::run`.
//!
//! Deterministic: each checker takes a [`Seed`]; the gate always passes [`Seed::Gate`], and no
//! environment variable (`PROPTEST_*`, `QUICKCHECK_*`) reaches a configuration.

use proptest::test_runner::{
    Config, RngAlgorithm, RngSeed, TestCaseError, TestError, TestRng, TestRunner,
};
use racelab_core::claims::{Checker, Claim, Method, Verdict};
use racelab_core::histories::{decode, encode, reaches, Histories, Regression, Violation};
use racelab_core::model::Model;
use racelab_core::outcome::OutcomeId;
use racelab_core::report::CellResult;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Which random histories a checker draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seed {
    /// The gate's fixed choice: the same histories on every run.
    Gate,
    /// A seed asked for explicitly (`cargo xtask explore`), printed with any counterexample.
    Given(u64),
}

/// quickcheck's seed in the gate.
const GATE_QUICKCHECK_SEED: u64 = 0x07ac_e1ab;
/// quickcheck's size: byte strings of up to this many bytes.
const QUICKCHECK_SIZE: usize = 96;

impl Seed {
    fn proptest_rng(self) -> TestRng {
        match self {
            Seed::Gate => TestRng::deterministic_rng(RngAlgorithm::ChaCha),
            Seed::Given(s) => {
                let mut bytes = [0u8; 32];
                for (i, chunk) in bytes.chunks_mut(8).enumerate() {
                    chunk.copy_from_slice(&s.wrapping_add(i as u64).to_le_bytes());
                }
                TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
            }
        }
    }

    fn quickcheck_gen(self) -> quickcheck::Gen {
        let seed = match self {
            Seed::Gate => GATE_QUICKCHECK_SEED,
            Seed::Given(s) => s,
        };
        quickcheck::Gen::from_size_and_seed(QUICKCHECK_SIZE, seed)
    }

    fn describe(self) -> String {
        match self {
            Seed::Gate => "the gate's fixed seed".into(),
            Seed::Given(s) => format!("seed {s}"),
        }
    }
}

/// proptest's configuration with every field given: `Config::default()` would read
/// `PROPTEST_*` from the environment.
fn proptest_config(cases: u32, max_shrink_iters: u32) -> Config {
    Config {
        cases,
        max_local_rejects: 65_536,
        max_global_rejects: 1024,
        max_flat_map_regens: 1_000_000,
        failure_persistence: None,
        source_file: None,
        test_name: None,
        fork: false,
        timeout: 0,
        max_shrink_time: 0,
        max_shrink_iters,
        max_default_size_range: 100,
        result_cache: proptest::test_runner::noop_result_cache,
        verbose: 0,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Random, // unused: the runner is handed its rng
        _non_exhaustive: (),
    }
}

/// Checks the fix property over `cases` generated histories; `Err` is the shrunk
/// counterexample.
pub fn fix_property_holds<M: Histories>(cases: u32, seed: Seed) -> Result<(), String> {
    let mut runner =
        TestRunner::new_with_rng(proptest_config(cases, u32::MAX), seed.proptest_rng());
    runner
        .run(&M::histories(), |(ops, seen)| {
            if let Some(seen) = seen {
                seen.store(ops.len(), Ordering::SeqCst); // every transition runs
            }
            M::fix_property(&ops).map_err(TestCaseError::fail)
        })
        .map_err(|e| format!("{e} ({})", seed.describe()))
}

/// Checks the fix property on every committed corpus and regression input of the contract;
/// returns how many there were.
pub fn committed_inputs_hold<M: Histories>() -> Result<usize, String> {
    let inputs = corpus_files(&fuzz_dirs(M::CONTRACT.module));
    if inputs.is_empty() {
        return Err(format!(
            "no committed fuzz inputs under fuzz/corpus/{0} or fuzz/regressions/{0}",
            M::CONTRACT.module
        ));
    }
    for path in &inputs {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let ops = decode::<M::Op>(&bytes).ok_or(format!("{}: does not decode", path.display()))?;
        M::fix_property(&ops).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(inputs.len())
}

/// Checks a named regression: its committed file, the outcome it was found with, and what
/// every listed variant reaches on it.
pub fn check_regression<M: Histories>(r: &Regression<M::Op>) -> Result<(), String> {
    let path = fuzz_dirs(M::CONTRACT.module)[1].join(r.name);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes != encode(r.ops) {
        return Err(format!("{} does not encode this history", path.display()));
    }
    let fix_of = |v: &str| M::fix_of(v).ok_or(format!("unknown variant {v}"));
    let (variant, outcome, witness) = r.found;
    let v = reaches::<M>(fix_of(variant)?, r.ops, outcome)
        .ok_or(format!("{variant} no longer reaches {outcome}"))?;
    if !v.witness.contains(witness) {
        return Err(format!(
            "{variant} reaches {outcome}, but the witness lacks {witness:?}: {}",
            v.witness
        ));
    }
    for (variant, expected) in r.reaches {
        let found: Vec<OutcomeId> = racelab_core::histories::run::<M>(fix_of(variant)?, r.ops)
            .iter()
            .map(|v| v.outcome)
            .collect();
        if found != *expected {
            return Err(format!(
                "{variant} reaches {found:?}, the regression says {expected:?}"
            ));
        }
    }
    Ok(())
}

fn result<M: Histories>(
    claim: &Claim<M>,
    found: Option<(Vec<M::Op>, Violation)>,
    cases: u64,
    started: Instant,
    seed: Seed,
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
        let from = match seed {
            Seed::Gate => String::new(),
            Seed::Given(s) => format!(", seed {s}"),
        };
        let history = format!("history ({} operations{from}): {ops:?}", ops.len());
        r.set_counterexample(vec![history], &v.timeline);
    }
    r
}

/// proptest: searches `cases` generated histories for the claim's outcome and shrinks the
/// first one found to a minimal history.
pub fn proptest_cell<M: Histories>(claim: &Claim<M>, cases: u32, seed: Seed) -> CellResult {
    let fix = claim.fix();
    let outcome = claim.outcome.id;
    let mut runner = TestRunner::new_with_rng(proptest_config(cases, 4096), seed.proptest_rng());
    let count = AtomicU64::new(0);
    let first_failure = AtomicU64::new(0);
    let started = Instant::now();
    let run = runner.run(&M::histories(), |(ops, seen)| {
        let n = count.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(seen) = seen {
            seen.store(ops.len(), Ordering::SeqCst); // every transition runs
        }
        match reaches::<M>(fix, &ops, outcome) {
            None => Ok(()),
            Some(v) => {
                let _ = first_failure.compare_exchange(0, n, Ordering::Relaxed, Ordering::Relaxed);
                Err(TestCaseError::fail(v.witness))
            }
        }
    });
    let found = match run {
        Ok(()) => None,
        Err(TestError::Fail(_, (ops, _))) => {
            // proptest-state-machine shrinks by transitions; deleting single operations after it
            // often shortens the schedule further.
            let ops = shrink(ops, |c| reaches::<M>(fix, c, outcome).is_some());
            let v = reaches::<M>(fix, &ops, outcome).expect("a shrunk failure still fails");
            Some((ops, v))
        }
        Err(e) => panic!("{}: proptest gave up: {e}", claim.key()),
    };
    // For a reachable cell: the cases run until the first failure (shrinking not counted).
    let cases = match first_failure.load(Ordering::Relaxed) {
        0 => count.load(Ordering::Relaxed),
        n => n,
    };
    result(claim, found, cases, started, seed)
}

/// quickcheck: random byte strings decoded with the fuzz codec; a failure is shrunk by
/// deleting operations.
pub fn quickcheck_cell<M: Histories>(claim: &Claim<M>, tests: u64, seed: Seed) -> CellResult {
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
    let fix = claim.fix();
    let (count, failure) = (Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(None)));
    let prop = Prop::<M> {
        fix,
        outcome: claim.outcome.id,
        tests: count.clone(),
        failure: failure.clone(),
    };
    let started = Instant::now();
    // Every knob set here: `QuickCheck::new` reads `QUICKCHECK_*` from the environment.
    let passed = quickcheck::QuickCheck::new()
        .rng(seed.quickcheck_gen())
        .tests(tests)
        .max_tests(tests * 4)
        .min_tests_passed(0)
        .quicktest(prop);
    let found = failure
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .map(|ops: Vec<M::Op>| {
            let v =
                reaches::<M>(fix, &ops, claim.outcome.id).expect("a shrunk failure still fails");
            (ops, v)
        });
    assert_eq!(
        passed.is_err(),
        found.is_some(),
        "quickcheck and the property disagree"
    );
    result(claim, found, count.load(Ordering::Relaxed), started, seed)
}

/// The stable replay of the fuzz corpus and regressions: every committed input, decoded as the
/// fuzz target decodes it, through the same property.
pub fn replay_cell<M: Histories>(claim: &Claim<M>) -> CellResult {
    let fix = claim.fix();
    let started = Instant::now();
    let inputs = corpus_files(&fuzz_dirs(M::CONTRACT.module));
    assert!(
        !inputs.is_empty(),
        "{}: no committed fuzz inputs for {}",
        claim.key(),
        M::CONTRACT.module
    );
    let found = inputs.iter().find_map(|path| {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let ops = decode::<M::Op>(&bytes)?;
        reaches::<M>(fix, &ops, claim.outcome.id).map(|v| (ops, v))
    });
    result(claim, found, inputs.len() as u64, started, Seed::Gate)
}

/// Checks a history cell with the checker and budget its claim names.
pub fn check_cell<M: Histories>(claim: &Claim<M>, seed: Seed) -> CellResult {
    match claim.method {
        Method::Proptest { cases } => proptest_cell(claim, cases, seed),
        Method::Quickcheck { tests } => quickcheck_cell(claim, tests, seed),
        Method::FuzzReplay => replay_cell(claim),
        Method::Loom { .. } => panic!("{} is a loom cell", claim.key()),
        Method::Real { .. } => panic!("{} is decided on the real code", claim.key()),
    }
}

/// The body of every history cell's test: checks it, saves the result for the gate, and says
/// what differs from the claim (with the counterexample).
pub fn verify_cell<M: Histories>(claim: &Claim<M>) -> Result<CellResult, String> {
    let r = check_cell(claim, Seed::Gate);
    r.save();
    if r.observed != claim.expected {
        return Err(format!(
            "{}: expected {}, observed {}\n{}",
            claim.key(),
            claim.expected,
            r.observed,
            r.timeline.join("\n")
        ));
    }
    if r.observed == Verdict::Reachable {
        let last = r.timeline.last().map(String::as_str).unwrap_or("");
        let expected = format!("{}: ", claim.outcome.id);
        if !last.contains(&expected) {
            return Err(format!("{}: violation line {last:?}", claim.key()));
        }
    }
    Ok(r)
}

/// Whether `claim` is checked by one of the history checkers.
pub fn is_history<M: Model>(claim: &Claim<M>) -> bool {
    matches!(
        claim.checker(),
        Checker::Proptest | Checker::Quickcheck | Checker::FuzzReplay
    )
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

/// The fuzz inputs of a contract's module: the committed seed corpus and the minimized
/// regressions.
pub fn fuzz_dirs(module: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    vec![
        fuzz.join("corpus").join(module),
        fuzz.join("regressions").join(module),
    ]
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
