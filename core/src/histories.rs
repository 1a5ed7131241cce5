//! Long histories (with the `histories` feature): each contract's operations, with a byte codec
//! that the fuzz target and the committed corpus share, a reference state machine that
//! generates meaningful histories for proptest, and the one function that runs a history on
//! the step driver and reports every outcome it reaches. The checkers in `racelab-props` and
//! the fuzz targets all call [`run`].

use crate::drive::Driver;
use crate::model::Setup;
use crate::outcome::OutcomeId;
use crate::trace::{violation, Timeline, Trace};
use arbitrary::{Arbitrary, Unstructured};
use proptest::strategy::{BoxedStrategy, Strategy};
use proptest_state_machine::ReferenceStateMachine;
use std::fmt::Debug;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

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
pub trait Histories: crate::claims::Claimed {
    type Op: Codec + Clone + Debug + Send + Sync + 'static;
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

    /// The property the fuzz target checks: under the proposed fix a history reaches no outcome
    /// but the residual windows the contract admits. `Err` names the outcome, with the history
    /// and its timeline.
    fn fix_property(ops: &[Self::Op]) -> Result<(), String>;

    /// How many generated histories the fix property is checked on.
    const FIX_PROPERTY_CASES: u32;

    /// Shrunk counterexamples, each kept as a named regression with its postmortem.
    const REGRESSIONS: &'static [Regression<Self::Op>];

    /// A count of the writes to model state that changes whenever `world` may have changed, or
    /// `None` where the contract keeps none. A quiet state whose count is the one read at the
    /// end of the last check is that state again, and every outcome is a property of the state,
    /// so [`Session`] does not decide them again (every test still does, and checks that
    /// nothing new is found).
    fn changes(_world: &Self::World) -> Option<u64> {
        None
    }
}

/// A shrunk counterexample kept as a named test: the committed file
/// `fuzz/regressions/<module>/<name>` holds exactly `ops`; under `found.0` it reaches outcome
/// `found.1` with a witness containing `found.2`; and each variant of `reaches` reaches exactly
/// the outcomes listed, in the order found.
pub struct Regression<O: 'static> {
    pub name: &'static str,
    /// How the history was found, what it does, and which part closes it.
    pub postmortem: &'static str,
    pub ops: &'static [O],
    pub found: (&'static str, OutcomeId, &'static str),
    pub reaches: &'static [(&'static str, &'static [OutcomeId])],
}

/// The standard fix property: under `fix` (the parts it is about, `M::fix(PROPOSED)`) no
/// history reaches an outcome outside `admitted`.
pub fn reaches_only<M: Histories>(
    fix: M::Fix,
    admitted: &[OutcomeId],
    ops: &[M::Op],
) -> Result<(), String> {
    match run::<M>(fix, ops)
        .into_iter()
        .find(|v| !admitted.contains(&v.outcome))
    {
        Some(v) => Err(format!("{}\nhistory: {ops:?}\n{}", v.witness, v.timeline)),
        None => Ok(()),
    }
}

/// Pseudo-outcome reported when a history cannot finish: actors are left that can never step.
pub const STUCK: OutcomeId = "stuck";

#[cfg(test)]
thread_local! {
    /// The checks this thread's sessions would have skipped (for the tests' tallies).
    pub(crate) static SKIPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One history in progress: the driver, the plan, and the outcomes reached so far.
pub struct Session<M: Histories> {
    pub driver: Driver<M>,
    plan: M::Plan,
    found: Vec<Violation>,
    /// [`Histories::changes`] at the end of the last check.
    checked: Option<u64>,
}

impl<M: Histories> Session<M> {
    pub fn new(fix: M::Fix) -> Self {
        let trace = Trace::new();
        let (setup, plan) = M::start(fix, &trace);
        Session {
            driver: Driver::new(trace, setup),
            plan,
            found: Vec::new(),
            checked: None,
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

    /// Evaluates every outcome of the contract, unless nothing changed since the last check;
    /// keeps the first witness of each. Outcomes are defined on quiet states (no program in the
    /// middle of its work): that is where loom checks them too.
    fn check(&mut self) {
        let unchanged = self.checked.is_some() && M::changes(&self.driver.world) == self.checked;
        if !unchanged {
            self.decide();
        } else if cfg!(test) {
            let found = self.found.len();
            self.decide();
            assert_eq!(
                self.found.len(),
                found,
                "a state with no write since the last check reached a new outcome"
            );
            #[cfg(test)]
            SKIPPED.set(SKIPPED.get() + 1);
        }
        self.checked = M::changes(&self.driver.world);
    }

    fn decide(&mut self) {
        for o in M::OUTCOMES {
            if self.found.iter().any(|v| v.outcome == o.id) {
                continue;
            }
            if let Some(witness) = o.holds(&self.driver.world) {
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

/// Whether `ops` reach `outcome` under `fix`.
pub fn reaches<M: Histories>(fix: M::Fix, ops: &[M::Op], outcome: OutcomeId) -> Option<Violation> {
    run::<M>(fix, ops)
        .into_iter()
        .find(|v| v.outcome == outcome)
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
        // Sized once: an operation takes at least one byte (a fuzz run otherwise regrows it).
        let mut ops = Vec::with_capacity(u.len());
        while !u.is_empty() {
            ops.push(O::decode(u)?);
        }
        Ok(History(ops))
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<Self> {
        Self::arbitrary(&mut u)
    }
}

/// The next byte of an input, 0 when none is left: what `u8::arbitrary` returns, read without
/// its buffer (every codec reads its operations a byte at a time, in every fuzz run).
pub fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.bytes(1).map_or(0, |b| b[0])
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

/// The environment variable that points a fuzz target at a variant instead of the fix
/// property: with `RACELAB_FUZZ_VARIANT=upstream` any outcome is a crash, so a run from an
/// empty corpus shows that the fuzzer finds the bug.
pub const FUZZ_VARIANT_ENV: &str = "RACELAB_FUZZ_VARIANT";

/// Panics (for libFuzzer) when `ops` break the contract's fix property, or, with
/// [`FUZZ_VARIANT_ENV`] set, when they reach any outcome under that variant.
pub fn fuzz<M: Histories>(ops: &[M::Op]) {
    static VARIANT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let variant = VARIANT.get_or_init(|| std::env::var(FUZZ_VARIANT_ENV).ok());
    let violates = || match variant {
        None => M::fix_property(ops).err(),
        Some(name) => {
            let fix =
                M::fix_of(name).unwrap_or_else(|| panic!("{FUZZ_VARIANT_ENV}: no variant {name}"));
            run::<M>(fix, ops).into_iter().next().map(|v| {
                format!(
                    "{name} reaches {}: {}\n{}",
                    v.outcome, v.witness, v.timeline
                )
            })
        }
    };
    // Most inputs break nothing: run them without a timeline, and a violating one again with.
    if crate::trace::without_recording(violates).is_some() {
        if let Some(e) = violates() {
            panic!("{e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `byte` reads what `u8::arbitrary` reads, and leaves the same rest, on every input of up
    /// to two bytes.
    #[test]
    fn byte_reads_as_u8_arbitrary() {
        let mut inputs = vec![vec![]];
        for a in 0..=255u8 {
            inputs.push(vec![a]);
            inputs.push(vec![a, a.wrapping_mul(7)]);
        }
        for input in inputs {
            let (mut u, mut v) = (Unstructured::new(&input), Unstructured::new(&input));
            for _ in 0..3 {
                assert_eq!(byte(&mut u), u8::arbitrary(&mut v).unwrap());
                assert_eq!(u.len(), v.len());
            }
        }
    }
}
