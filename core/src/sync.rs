//! The one place that chooses the synchronization primitives.
//!
//! Under `--cfg loom` every lock, atomic and thread is loom's, so loom sees (and permutes) every
//! synchronization point of the models. In cargo fuzz's build (`--cfg fuzzing`), which runs
//! every actor on one thread, they are that thread's cells ([`one_thread`]); the feature
//! `one-thread` chooses them too, for the gate's tests of the models on them (core/Cargo.toml). Otherwise they are
//! parking_lot's and std's, for the step driver and the property tests, which also run every
//! program on one thread: their condition variable fails a wait, as the fuzz build's does. The wrappers give every
//! backend parking_lot's shape: `lock()`, `read()` and `write()` return the guard directly (as
//! tokio's `src/loom/mocked.rs` does for loom).
//!
//! [`RaceCell`] stands for state upstream reads and writes without synchronization (a plain
//! `HashMap` field, say): loom reports a data race on it as a verdict.
//!
//! Nothing here is used for recording: the trace (`crate::trace`) uses real std primitives so
//! that observing a model adds no interleavings.

#[cfg(loom)]
mod backend {
    pub use loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    pub use loom::sync::{Arc, MutexGuard, RwLockReadGuard, RwLockWriteGuard};
    pub use loom::thread;

    /// A mutex whose `lock` returns the guard (loom's returns a `LockResult`).
    #[derive(Debug, Default)]
    pub struct Mutex<T>(loom::sync::Mutex<T>);

    impl<T> Mutex<T> {
        pub fn new(value: T) -> Self {
            Self(loom::sync::Mutex::new(value))
        }
        pub fn lock(&self) -> MutexGuard<'_, T> {
            self.0
                .lock()
                .expect("a model thread panicked while holding a lock")
        }
    }

    /// A read-write lock whose `read`/`write` return the guard.
    #[derive(Debug, Default)]
    pub struct RwLock<T>(loom::sync::RwLock<T>);

    impl<T> RwLock<T> {
        pub fn new(value: T) -> Self {
            Self(loom::sync::RwLock::new(value))
        }
        pub fn read(&self) -> RwLockReadGuard<'_, T> {
            self.0
                .read()
                .expect("a model thread panicked while holding a lock")
        }
        pub fn write(&self) -> RwLockWriteGuard<'_, T> {
            self.0
                .write()
                .expect("a model thread panicked while holding a lock")
        }
    }

    #[derive(Debug, Default)]
    pub struct Condvar(loom::sync::Condvar);

    impl Condvar {
        pub fn new() -> Self {
            Self(loom::sync::Condvar::new())
        }
        pub fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
            self.0
                .wait(guard)
                .expect("a model thread panicked while holding a lock")
        }
        pub fn notify_all(&self) {
            self.0.notify_all()
        }
    }
}

#[cfg(any(fuzzing, feature = "one-thread"))]
mod one_thread;
#[cfg(any(fuzzing, feature = "one-thread"))]
use one_thread as backend;

#[cfg(not(any(loom, fuzzing, feature = "one-thread")))]
mod backend {
    pub use parking_lot::{Mutex, MutexGuard, RwLockReadGuard, RwLockWriteGuard};
    pub use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    pub use std::sync::Arc;
    pub use std::thread;

    // A fuzz run pays libFuzzer for every distinct branch it executes (about 300 instructions
    // each), and a lock's fast path inlined at a call site is a few more of them. A read-write
    // lock's fast path has several branches, so its acquires are out of line: compiled once
    // per protected type, not into each of the models' call sites. A mutex's is one
    // compare-and-swap and one branch, and some models take a mutex thousands of times per
    // input, so a call costs more there than the branch it saves (measured on the five fuzz
    // targets with callgrind), and it stays parking_lot's own. The lock operations are
    // parking_lot's either way.

    /// parking_lot's read-write lock, with its acquires out of line.
    #[derive(Debug, Default)]
    pub struct RwLock<T>(parking_lot::RwLock<T>);

    impl<T> RwLock<T> {
        pub fn new(value: T) -> Self {
            Self(parking_lot::RwLock::new(value))
        }
        #[inline(never)]
        pub fn read(&self) -> RwLockReadGuard<'_, T> {
            self.0.read()
        }
        #[inline(never)]
        pub fn write(&self) -> RwLockWriteGuard<'_, T> {
            self.0.write()
        }
    }

    /// A condition variable for the step driver and the property tests, which run every
    /// program of a world on the calling thread: no other thread can notify a waiter, so a wait
    /// is a step that ran although it cannot (its program's `enabled` answered wrongly), and it
    /// fails at once instead of waiting for ever (cargo-mutants' mutants of `enabled` hung
    /// tests here until their timeout).
    #[derive(Debug, Default)]
    pub struct Condvar;

    impl Condvar {
        pub fn new() -> Self {
            Self
        }
        pub fn wait<'a, T>(&self, _guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
            panic!(
                "Condvar::wait on the step driver's thread: every program runs on it, so \
                 nothing can notify the waiter (a step ran that its program's `enabled` \
                 should have held back)"
            );
        }
        pub fn notify_all(&self) {}
    }
}

pub use backend::*;

mod linearizable;
mod race;
pub use linearizable::Linearizable;
pub use race::{track_races, tracking_races, RaceCell};
pub mod unseen;

/// What loom's threads share: `Send + Sync`, but in cargo fuzz's build, where nothing leaves
/// its thread (the models' state is made of [`one_thread`]'s cells there).
#[cfg(not(any(fuzzing, feature = "one-thread")))]
pub trait Shared: Send + Sync {}
#[cfg(not(any(fuzzing, feature = "one-thread")))]
impl<T: Send + Sync + ?Sized> Shared for T {}
#[cfg(any(fuzzing, feature = "one-thread"))]
pub trait Shared {}
#[cfg(any(fuzzing, feature = "one-thread"))]
impl<T: ?Sized> Shared for T {}

/// What moves onto a loom thread: `Send`, but in cargo fuzz's build (see [`Shared`]).
#[cfg(not(any(fuzzing, feature = "one-thread")))]
pub trait Movable: Send {}
#[cfg(not(any(fuzzing, feature = "one-thread")))]
impl<T: Send + ?Sized> Movable for T {}
#[cfg(any(fuzzing, feature = "one-thread"))]
pub trait Movable {}
#[cfg(any(fuzzing, feature = "one-thread"))]
impl<T: ?Sized> Movable for T {}

/// A lock taken in one step and released in a later one, as a Java `ReentrantLock` or a lock
/// object held across several upstream calls. A scoped guard cannot express that, because the
/// model's steps are separate calls (the step driver interleaves other actors between them).
///
/// The step driver never calls [`SpanLock::acquire`] while the lock is held (the step is not
/// enabled, see [`SpanLock::is_held`]); loom threads block in it as the Java thread would.
///
/// A release notifies only when some thread waits, as `ReentrantLock.unlock` unparks a
/// successor only when one is queued. Under loom a notify is an access to the condition
/// variable, which every other notify and wait depends on, so an unconditional one made loom
/// order the releases of two threads that no one waited for (dead-node's and
/// container-recreate's full explorations took about 1.8 times the executions).
#[derive(Debug, Default)]
pub struct SpanLock {
    state: Mutex<Held>,
    released: Condvar,
}

/// Who holds a [`SpanLock`], and how many threads wait for it.
#[derive(Debug, Default)]
struct Held {
    owner: Option<&'static str>,
    waiters: u32,
}

impl SpanLock {
    pub fn new() -> Self {
        Self::default()
    }

    /// Blocks until the lock is free, then takes it for `owner`.
    pub fn acquire(&self, owner: &'static str) {
        let mut held = self.state.lock();
        while held.owner.is_some() {
            held.waiters += 1;
            held = self.released.wait(held);
            held.waiters -= 1;
        }
        held.owner = Some(owner);
    }

    /// Releases the lock; `owner` must be the actor that holds it.
    pub fn release(&self, owner: &'static str) {
        let mut held = self.state.lock();
        // Addresses first: the name is almost always the same literal, and comparing the text
        // calls `bcmp`, which a fuzz target's libFuzzer intercepts.
        assert!(
            held.owner
                .is_some_and(|h| std::ptr::eq(h, owner) || h == owner),
            "SpanLock released by {owner}, which does not hold it (held by {:?})",
            held.owner
        );
        held.owner = None;
        let waiting = held.waiters > 0;
        drop(held);
        if waiting {
            self.released.notify_all();
        }
    }

    /// Whether some actor holds the lock (for the step driver's enabledness check).
    pub fn is_held(&self) -> bool {
        self.state.lock().owner.is_some()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::SpanLock;

    /// Released by its owner whether or not the name is the same literal; by another actor, it
    /// panics.
    #[test]
    fn only_the_owner_releases() {
        let lock = SpanLock::new();
        let copy: &'static str = Box::leak(String::from("a").into_boxed_str());
        assert_ne!(copy.as_ptr(), "a".as_ptr());
        lock.acquire("a");
        lock.release(copy);
        assert!(!lock.is_held());
        lock.acquire("a");
        let wrong = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lock.release("b")))
            .expect_err("released by an actor that does not hold it");
        let message = wrong.downcast_ref::<String>().map(String::as_str);
        assert_eq!(
            message,
            Some("SpanLock released by b, which does not hold it (held by Some(\"a\"))")
        );
    }

    /// A step that waits for a lock its program should not have been enabled for fails at
    /// once, naming why, on both single-thread backends (the step driver's and the fuzz
    /// build's): no other thread can ever notify it.
    #[test]
    fn a_wait_on_the_drivers_thread_fails_at_once() {
        let (state, released) = (super::Mutex::new(false), super::Condvar::new());
        let waited = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut held = state.lock();
            while !*held {
                held = released.wait(held);
            }
        }))
        .expect_err("a wait no thread can end");
        let message = waited
            .downcast_ref::<String>()
            .map(String::as_str)
            .or(waited.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        assert!(
            message.starts_with("Condvar::wait on the "),
            "unexpected panic: {message}"
        );
    }
}
