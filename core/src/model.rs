//! The shape every contract shares: its parts, outcomes and variants, its actors as step
//! programs, and its scenarios. The loom runner (`racelab-loom`), the step driver
//! ([`crate::drive`]) and the history checkers all run a contract through these types, so they
//! run the same step functions.

use crate::claims::Claims;
use crate::outcome::Outcome;
use crate::sync::Arc;
use crate::trace::Trace;
use std::fmt;

/// A bug report: the names the command line, the reports and the fuzz targets use.
#[derive(Debug)]
pub struct Contract {
    /// Short name used on the command line and in reports, e.g. `leader-ready`.
    pub id: &'static str,
    /// The module, fuzz target and corpus folder name, e.g. `leader_ready`.
    pub module: &'static str,
    /// The issue key, e.g. `HDDS-17575`.
    pub report: &'static str,
    pub title: &'static str,
}

/// One separable part of a fix.
#[derive(Debug)]
pub struct Part {
    pub id: &'static str,
    pub summary: &'static str,
}

/// A set of fix parts under a name: `upstream` (none), `proposed`, `improved`, or the parts it
/// holds (`P1+P2`). Its switches are computed from the parts ([`Model::fix`]), so a variant
/// cannot claim parts it does not switch on.
#[derive(Debug)]
pub struct Variant {
    pub name: &'static str,
    pub parts: &'static [&'static str],
}

impl Variant {
    pub const fn new(name: &'static str, parts: &'static [&'static str]) -> Self {
        Variant { name, parts }
    }
}

/// A contract's reference model.
pub trait Model: Sized + 'static {
    /// One switch per fix part, each read through [`crate::switches::Switch::get`].
    type Fix: Copy + fmt::Debug + Send + Sync + crate::switches::Switches + 'static;
    /// Everything the actors share.
    type World: crate::sync::Shared + 'static;

    const CONTRACT: Contract;
    const PARTS: &'static [Part];
    const OUTCOMES: &'static [&'static Outcome<Self::World>];
    const VARIANTS: &'static [Variant];
    const CLAIMS: Claims<Self>;

    /// The upstream switches with `part` switched on (parts apply in the order a variant lists
    /// them); `None` for a part the contract does not have.
    fn with(fix: Self::Fix, part: &str) -> Option<Self::Fix>;

    /// The observable state, in the report's words: what a scenario replay prints, and the
    /// final state that loom and the step checker compare.
    fn describe(world: &Self::World) -> String;

    /// The switches of upstream: no part.
    const UPSTREAM: Self::Fix;

    /// The switches of a list of parts.
    fn fix(parts: &[&str]) -> Self::Fix {
        parts.iter().fold(Self::UPSTREAM, |fix, p| {
            Self::with(fix, p).unwrap_or_else(|| panic!("{}: no part {p}", Self::CONTRACT.id))
        })
    }

    fn variant(name: &str) -> Option<&'static Variant> {
        Self::VARIANTS.iter().find(|v| v.name == name)
    }

    /// The switches of the variant named `name`.
    fn fix_of(name: &str) -> Option<Self::Fix> {
        Self::variant(name).map(|v| Self::fix(v.parts))
    }

    fn outcome(id: &str) -> Option<&'static Outcome<Self::World>> {
        Self::OUTCOMES.iter().copied().find(|o| o.id == id)
    }
}

/// An actor's remaining work as a sequence of atomic steps: one `step` is what upstream does
/// atomically or under one lock. Loom runs each program on its own thread to completion; the
/// step driver interleaves programs one step at a time.
pub trait Program<W>: crate::sync::Movable {
    /// The upstream thread this program runs on.
    fn actor(&self) -> &'static str;
    fn is_done(&self) -> bool;
    /// Whether the next step can run now without blocking: false while a lock it takes is held
    /// across steps by another actor, or while it waits for a condition. Loom ignores this (its
    /// threads really block).
    fn enabled(&self, _world: &W) -> bool {
        !self.is_done()
    }
    fn step(&mut self, world: &W);
}

/// Two programs run one after the other on one thread (`actor`): `first` to its end, then
/// `second`. A scenario uses it where upstream's two threads are ordered anyway (the second
/// cannot begin before the first's last step, and the first does nothing after it), so that
/// loom explores one thread fewer and loses no interleaving; the constructor says why.
#[derive(Debug)]
pub struct Then<A, B> {
    pub actor: &'static str,
    pub first: A,
    pub second: B,
}

impl<W, A: Program<W>, B: Program<W>> Program<W> for Then<A, B> {
    fn actor(&self) -> &'static str {
        self.actor
    }

    fn is_done(&self) -> bool {
        self.second.is_done()
    }

    fn enabled(&self, world: &W) -> bool {
        if self.first.is_done() {
            self.second.enabled(world)
        } else {
            self.first.enabled(world)
        }
    }

    fn step(&mut self, world: &W) {
        if self.first.is_done() {
            self.second.step(world);
        } else {
            self.first.step(world);
        }
    }
}

/// Runs `program` to its end with nothing else running: a scenario's pre-state, a history's
/// setup, or one loom thread's whole life.
pub fn run_to_end<W, P: Program<W> + ?Sized>(program: &mut P, world: &W) {
    while !program.is_done() {
        program.step(world);
    }
}

/// A world and the programs that will run on it.
pub struct Setup<M: Model> {
    pub world: Arc<M::World>,
    pub threads: Vec<Box<dyn Program<M::World>>>,
}

/// A small scenario for loom: how to build the world and its threads for a variant. A
/// scenario may run steps before it hands the threads over (they happen before any
/// concurrency, as when main runs them before spawning).
pub struct Scenario<M: Model> {
    pub name: &'static str,
    pub about: &'static str,
    pub build: fn(&Trace, M::Fix) -> Setup<M>,
}

impl<M: Model> fmt::Debug for Scenario<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scenario")
            .field("name", &self.name)
            .finish()
    }
}
