//! What a history's environment has been asked to do so far. A contract's plan is the
//! reference state of its history generator and the filter that makes any decoded byte string
//! a valid history: the session ([`crate::histories::Session`]) skips an operation its plan does
//! not allow, and the generator draws only operations it allows. Outside the `histories`
//! feature, because a contract may run its own histories in the models' build (reregister's
//! reproduction).

use std::fmt::Debug;

pub trait Plan: Clone + Debug + 'static {
    type Op;

    /// The plan every history starts from.
    fn start() -> Self;

    /// Whether `op` may come next.
    fn allows(&self, op: &Self::Op) -> bool;

    /// The plan after `op`, in place (a plan returned by value is written a byte at a time and
    /// read back whole: a store-forwarding stall at every operation of a fuzz run).
    fn update(&mut self, op: &Self::Op);
}
