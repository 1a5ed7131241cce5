//! Long histories (with the `histories` feature): each contract's operations, with a byte codec
//! that the fuzz target and the committed corpus share, a reference state machine that
//! generates meaningful histories for proptest, and the one function that runs a history on
//! the step driver and reports every outcome it reaches. The checkers in `racelab-props` and
//! the fuzz targets all call [`run`].

pub use crate::plan::Plan;

use crate::drive::Driver;
use crate::model::Setup;
use crate::outcome::OutcomeId;
use crate::trace::{violation, Timeline, Trace};
use arbitrary::{Arbitrary, Unstructured};
use proptest::strategy::{BoxedStrategy, Just, Strategy};
use proptest_state_machine::ReferenceStateMachine;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::Range;
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

/// A contract whose long histories the property checkers drive. A contract writes what
/// differs: its operations, how each is carried out, what its generator draws, and its scenario
/// syntax. The harness gates every operation on the plan ([`Session::apply`]), adapts the plan
/// to proptest-state-machine ([`Generator`]) and parses scenario lines ([`parse_op`]).
pub trait Histories: crate::claims::Claimed {
    type Op: Codec + Clone + Debug + Send + Sync + 'static;
    /// What the contract keeps beside the driver between operations: what the environment has
    /// been asked to do so far (the reference state of its generator).
    type Plan: Plan<Op = Self::Op>;

    /// The world a history starts from. It has no thread: operations start the programs.
    fn start(fix: Self::Fix, trace: &Trace) -> Self::World;

    /// Carries out one operation that `plan` allows (the session asks [`Plan::allows`] first):
    /// starts programs, steps the driver, injects a fault, and updates `plan`. Returns false,
    /// changing nothing, when the world refuses the operation all the same.
    fn apply(driver: &mut Driver<Self>, plan: &mut Self::Plan, op: &Self::Op) -> bool;

    /// What the generator draws next after `plan` (a draw the plan does not allow is drawn
    /// again, see [`Generator`]).
    fn transitions(plan: &Self::Plan) -> BoxedStrategy<Self::Op>;

    /// The plans generated histories start from: [`Plan::start`], unless the contract draws
    /// something per history.
    fn first_plans() -> BoxedStrategy<Self::Plan> {
        Just(Self::Plan::start()).boxed()
    }

    /// How many operations a generated history has.
    const LENGTHS: Range<usize>;

    /// Meaningful histories, from the contract's generator (see [`sequential`]).
    fn histories() -> BoxedStrategy<Generated<Self::Op>> {
        sequential::<Self>()
    }

    /// How scenario files write the operations: the one list of their names (see [`parse_op`]).
    const SYNTAX: &'static [OpForm<Self::Op>];

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

    /// The outcomes known not to hold in `world`'s quiet state, a bit per index in `OUTCOMES`:
    /// those [`Histories::record_clear`] recorded on a state the contract can tell is this one
    /// (reregister: the same settled world from its memo, in a later fuzz run). [`Session`]
    /// does not decide them again (every test still does, and checks that none holds). 0 where
    /// the contract keeps none.
    fn known_clear(_world: &Self::World) -> u64 {
        0
    }

    /// Records that the outcomes in `clear` (a bit per index in `OUTCOMES`) do not hold in
    /// `world`'s quiet state (see [`Histories::known_clear`]).
    fn record_clear(_world: &Self::World, _clear: u64) {}
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
/// history reaches an outcome outside `admitted`. The admitted outcomes are not decided at all
/// (no witness or timeline is written for them): each outcome is decided on its own, so the
/// others are found, first witness each, in the order [`run`] finds them, and the first of them
/// is the one reported.
pub fn reaches_only<M: Histories>(
    fix: M::Fix,
    admitted: &[OutcomeId],
    ops: &[M::Op],
) -> Result<(), String> {
    let mut session = Session::<M>::new(fix);
    session.ignore(admitted);
    for op in ops {
        session.apply(op);
    }
    match session.finish().into_iter().next() {
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
    /// The outcomes this thread's sessions would not have decided, known not to hold
    /// ([`Histories::known_clear`]; for the tests' tallies).
    pub(crate) static KNOWN_CLEAR: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One history in progress: the driver, the plan, and the outcomes reached so far.
pub struct Session<M: Histories> {
    pub driver: Driver<M>,
    plan: M::Plan,
    found: Vec<Violation>,
    /// [`Histories::changes`] at the end of the last check.
    checked: Option<u64>,
    /// Outcomes not decided again, a bit per index in `M::OUTCOMES`: those found, and
    /// [`reaches_only`]'s admitted ones.
    ignored: u64,
}

impl<M: Histories> Session<M> {
    pub fn new(fix: M::Fix) -> Self {
        assert!(
            M::OUTCOMES.len() <= 64,
            "more than 64 outcomes: widen `Session::ignored`"
        );
        let trace = Trace::new();
        let world = crate::sync::Arc::new(M::start(fix, &trace));
        let setup = Setup {
            world,
            threads: Vec::new(),
        };
        Session {
            driver: Driver::new(trace, setup),
            plan: M::Plan::start(),
            found: Vec::new(),
            checked: None,
            ignored: 0,
        }
    }

    /// Decides none of `outcomes` from now on. Names are compared a byte at a time, once per
    /// session: not a `bcmp` call, which libFuzzer intercepts, per outcome and check.
    fn ignore(&mut self, outcomes: &[OutcomeId]) {
        for (i, o) in M::OUTCOMES.iter().enumerate() {
            let same = |a: &str| a.len() == o.id.len() && a.bytes().eq(o.id.bytes());
            if outcomes.iter().any(|a| same(a)) {
                self.ignored |= 1 << i;
            }
        }
    }

    /// Applies `op` if the plan allows it (see [`Histories::apply`]) and checks the outcomes if
    /// everything is quiet. False, changing nothing, when `op` is not applied: a decoded byte
    /// string can hold any operation in any order.
    pub fn apply(&mut self, op: &M::Op) -> bool {
        let applied = self.plan.allows(op) && M::apply(&mut self.driver, &mut self.plan, op);
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
        let known = M::known_clear(&self.driver.world);
        let mut clear = 0;
        for (i, o) in M::OUTCOMES.iter().enumerate() {
            let bit = 1 << i;
            if self.ignored & bit != 0 {
                continue;
            }
            // Tests decide a known verdict all the same, and check it below.
            if known & bit != 0 {
                #[cfg(test)]
                KNOWN_CLEAR.set(KNOWN_CLEAR.get() + 1);
                if !cfg!(test) {
                    continue;
                }
            }
            let Some(witness) = o.holds(&self.driver.world) else {
                clear |= bit;
                continue;
            };
            #[cfg(test)]
            assert!(
                known & bit == 0,
                "{} holds in a state where it was recorded not to",
                o.id
            );
            // Found once: its first witness is the one kept.
            self.ignored |= bit;
            let timeline = self.driver.timeline(Some(violation(o.id, &witness)));
            self.found.push(Violation {
                outcome: o.id,
                witness,
                timeline,
            });
        }
        if clear & !known != 0 {
            M::record_clear(&self.driver.world, clear);
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

/// A contract's generator: proptest-state-machine's reference state machine over its plan.
pub struct Generator<M>(PhantomData<M>);

impl<M: Histories> ReferenceStateMachine for Generator<M> {
    type State = M::Plan;
    type Transition = M::Op;

    fn init_state() -> BoxedStrategy<M::Plan> {
        M::first_plans()
    }

    fn transitions(plan: &M::Plan) -> BoxedStrategy<M::Op> {
        M::transitions(plan)
    }

    fn apply(mut plan: M::Plan, op: &M::Op) -> M::Plan {
        plan.update(op);
        plan
    }

    fn preconditions(plan: &M::Plan, op: &M::Op) -> bool {
        plan.allows(op)
    }
}

/// Histories of [`Histories::LENGTHS`] operations from the contract's [`Generator`].
pub fn sequential<M: Histories>() -> BoxedStrategy<Generated<M::Op>> {
    Generator::<M>::sequential_strategy(M::LENGTHS)
        .prop_map(|(_, ops, seen)| (ops, seen))
        .boxed()
}

/// One way to write an operation in a scenario file: its name, then its words. Every name a
/// scenario may use, and every usage an error message lists, comes from a contract's
/// [`Histories::SYNTAX`].
pub struct OpForm<O: 'static> {
    pub name: &'static str,
    pub words: &'static [Word],
    /// The operation, from the values of the form's [`Word::Value`]s, in order.
    pub make: fn(&[u8]) -> O,
}

/// A word after an operation's name.
pub enum Word {
    /// Written as is (`fault snapshot-ok`).
    Literal(&'static str),
    /// A value: how usage lines write it (`DN`), and its parser, whose error names the word
    /// and what it should be.
    Value(&'static str, fn(&str) -> Result<u8, String>),
}

impl<O> OpForm<O> {
    pub const fn new(name: &'static str, words: &'static [Word], make: fn(&[u8]) -> O) -> Self {
        OpForm { name, words, make }
    }

    /// The form as usage lines write it: `heartbeat DN`.
    pub fn usage(&self) -> String {
        let mut out = self.name.to_owned();
        for w in self.words {
            out.push(' ');
            out.push_str(match w {
                Word::Literal(s) | Word::Value(s, _) => s,
            });
        }
        out
    }

    /// The operation `args` (the words after the name) write, or the first value that does
    /// not parse (`Ok(None)` when the words do not have this form at all).
    fn parse(&self, args: &[&str]) -> Result<Option<O>, String> {
        if args.len() != self.words.len() {
            return Ok(None);
        }
        let mut values = Vec::new();
        for (w, arg) in self.words.iter().zip(args) {
            match w {
                Word::Literal(s) if s == arg => {}
                Word::Literal(_) => return Ok(None),
                Word::Value(_, parse) => values.push(parse(arg)?),
            }
        }
        Ok(Some((self.make)(&values)))
    }
}

/// The operation a scenario line's words name, in the contract's [`Histories::SYNTAX`], or
/// what is wrong with them: an unknown name, a value that does not parse, or words in no form
/// of the name (with its usages).
pub fn parse_op<M: Histories>(words: &[&str]) -> Result<M::Op, String> {
    let unknown = || format!("unknown operation `{}`", words.join(" "));
    let (name, args) = words.split_first().ok_or_else(unknown)?;
    let forms: Vec<&OpForm<M::Op>> = M::SYNTAX.iter().filter(|f| f.name == *name).collect();
    if forms.is_empty() {
        return Err(unknown());
    }
    let mut bad_value = None;
    for form in &forms {
        match form.parse(args) {
            Ok(Some(op)) => return Ok(op),
            Ok(None) => {}
            Err(e) => {
                bad_value.get_or_insert(e);
            }
        }
    }
    Err(bad_value.unwrap_or_else(|| {
        if forms.iter().all(|f| f.words.is_empty()) {
            format!("`{name}` takes no arguments")
        } else {
            let usages: Vec<String> = forms.iter().map(|f| format!("`{}`", f.usage())).collect();
            format!("`{name}` is written {}", usages.join(" or "))
        }
    }))
}

/// Every form of the contract's operations as usage lines write them, for error messages.
pub fn op_usages<M: Histories>() -> Vec<String> {
    M::SYNTAX.iter().map(OpForm::usage).collect()
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
