//! The write counter: every method of a component that writes model state calls [`wrote`], so
//! that [`super::SettledCache`] knows when a settled world may be given again. Not model state.

use std::cell::Cell;

thread_local! {
    /// Writes to model state, counted over every world of this thread: every method of a
    /// component that writes its state calls [`wrote`] (their fields are private; a world is
    /// checked when nothing writes to it). A count equal to the one seen before means no world
    /// changed since. Per thread, since outside loom a world is built, stepped and checked on
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
