//! Outcomes as values: an id, what it means, and how it is decided, together, so that no claim
//! can name an outcome that has no predicate.

use std::fmt;

/// `O1`.. for wrong results a report names or the code shows, `R1`.. for residual windows.
pub type OutcomeId = &'static str;

/// A wrong result (or a residual window) of a contract.
pub struct Outcome<W: 'static> {
    pub id: OutcomeId,
    pub summary: &'static str,
    pub check: Check<W>,
}

/// How an outcome is decided.
pub enum Check<W: 'static> {
    /// A property of the world once every actor has finished: `Some(witness)`, the state that
    /// shows the outcome, when it holds. Every checker decides it this way.
    State(fn(&W) -> Option<String>),
    /// A data race on a race-tracked cell ([`crate::sync::RaceCell`]): loom reports the
    /// unsynchronized accesses. Only loom can decide it; in every other cell the racy accesses
    /// are serialized, so that a state outcome is decided on the orders a race could give.
    Race,
    /// Every unfinished actor is blocked. loom aborts its process on a deadlock, so the loom
    /// runner decides it in a child process; the step driver reports it as actors that can
    /// never step.
    Deadlock,
}

impl<W> Outcome<W> {
    /// The witness when `world` shows this outcome (`None` for races and deadlocks, which are
    /// not properties of a final state).
    pub fn holds(&self, world: &W) -> Option<String> {
        match self.check {
            Check::State(p) => p(world),
            Check::Race | Check::Deadlock => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self.check {
            Check::State(_) => "state",
            Check::Race => "race",
            Check::Deadlock => "deadlock",
        }
    }
}

impl<W> fmt::Debug for Outcome<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id, self.kind())
    }
}
