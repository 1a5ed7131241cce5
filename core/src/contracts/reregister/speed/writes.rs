//! The write counter: every write to model state, through the primitives of [`super::counted`],
//! calls [`wrote`], so that [`super::SettledCache`] knows when a settled world may be given
//! again. Not model state.

use std::cell::Cell;

thread_local! {
    /// Writes to model state, counted over every world of this thread: every component holds
    /// its state in [`super::counted`]'s primitives, whose writes call [`wrote`]. A count
    /// equal to the one seen before means no world changed since. Per thread, since outside loom a world is built, stepped and checked on
    /// one thread (the driver, the step checker and every history run there); a process-wide
    /// count was one more locked read-modify-write per write.
    static WRITES: Cell<u64> = const { Cell::new(0) };
}

pub(crate) fn wrote() {
    WRITES.set(WRITES.get() + 1);
}

pub(crate) fn writes() -> u64 {
    WRITES.get()
}
