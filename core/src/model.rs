//! The shape every contract shares: its parts and outcomes, its variants, its actors as
//! step programs, its scenarios, and the outcome predicates. The loom runner
//! (`racelab-loom`), the step driver ([`crate::drive`]) and the fuzz targets all run a
//! contract through these types, so they run the same step functions.

use crate::sync::Arc;
use crate::trace::Trace;
use std::fmt;

/// `O1`.. for wrong results a report names or the code shows, `R1`.. for residual windows.
pub type OutcomeId = &'static str;

/// A bug report and the claims racelab checks about it.
#[derive(Debug)]
pub struct Contract {
    /// Short name used on the command line and in reports, e.g. `leader-ready`.
    pub id: &'static str,
    /// The issue key, e.g. `HDDS-17575`.
    pub report: &'static str,
    pub title: &'static str,
    pub parts: &'static [Part],
    pub outcomes: &'static [Outcome],
}

impl Contract {
    pub fn outcome(&self, id: &str) -> Option<&'static Outcome> {
        self.outcomes.iter().find(|o| o.id == id)
    }
}

/// One separable part of a fix.
#[derive(Debug)]
pub struct Part {
    pub id: &'static str,
    pub summary: &'static str,
}

/// A wrong result (or a residual window) as a checkable predicate; the predicate itself is
/// [`Model::outcome`].
#[derive(Debug)]
pub struct Outcome {
    pub id: OutcomeId,
    pub summary: &'static str,
}

/// A set of fix parts: `upstream` (none), `proposed`, `improved`, or the parts it holds.
#[derive(Debug)]
pub struct Variant<F> {
    pub name: &'static str,
    pub parts: &'static [&'static str],
    pub fix: F,
}

impl<F> Variant<F> {
    pub const fn new(name: &'static str, parts: &'static [&'static str], fix: F) -> Self {
        Variant { name, parts, fix }
    }
}

/// A contract's reference model.
pub trait Model: Sized + 'static {
    /// One switch per fix part.
    type Fix: Copy + fmt::Debug + Send + Sync + 'static;
    /// Everything the actors share.
    type World: Send + Sync + 'static;

    const CONTRACT: &'static Contract;
    const VARIANTS: &'static [Variant<Self::Fix>];

    /// Evaluates outcome `id` on a world whose actors have all finished: `Some(witness)`, the
    /// state that shows the outcome, when it holds.
    fn outcome(world: &Self::World, id: OutcomeId) -> Option<String>;

    fn variant(name: &str) -> Option<&'static Variant<Self::Fix>> {
        Self::VARIANTS.iter().find(|v| v.name == name)
    }
}

/// An actor's remaining work as a sequence of atomic steps: one `step` is what upstream does
/// atomically or under one lock. Loom runs each program on its own thread to completion; the
/// step driver interleaves programs one step at a time.
pub trait Program<W>: Send {
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
