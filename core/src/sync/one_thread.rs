//! The primitives of cargo fuzz's build (`--cfg fuzzing`, which cargo-fuzz passes to every crate
//! it builds): libFuzzer runs one input at a time on one thread, and the step driver runs every
//! actor of a history on that thread, one step at a time. A lock there is never contended and
//! an atomic never shared, yet each costs a locked read-modify-write: 42% of the reregister
//! target's time samples fell just after one (perf, cpu-clock, mapped onto the binary's
//! instructions). So here each is a `Cell` or a `RefCell` with the same API, and `Arc` is `Rc`.
//!
//! A single thread sees the same values through either: the driver never runs a step that would
//! block (its `enabled` check), so no acquire here ever has to wait. One that would (a model bug)
//! panics with "already borrowed" where parking_lot's would hang, and a `Condvar::wait` panics,
//! since no other thread could notify it. The corpus replay in `cargo test` runs the same
//! histories on parking_lot's primitives, and the gate's fuzz phase on these.

use std::cell::{Cell, RefCell};
use std::fmt;

pub use std::cell::{Ref as RwLockReadGuard, RefMut as MutexGuard, RefMut as RwLockWriteGuard};
pub use std::rc::Rc as Arc;
pub use std::sync::atomic::Ordering;

/// A mutex on one thread: `lock` borrows the value mutably.
#[derive(Default)]
pub struct Mutex<T>(RefCell<T>);

impl<T> Mutex<T> {
    pub const fn new(value: T) -> Self {
        Self(RefCell::new(value))
    }

    pub fn lock(&self) -> MutexGuard<'_, T> {
        self.0.borrow_mut()
    }

    pub fn get_mut(&mut self) -> &mut T {
        self.0.get_mut()
    }
}

/// A read-write lock on one thread: `read` borrows, `write` borrows mutably.
#[derive(Default)]
pub struct RwLock<T>(RefCell<T>);

impl<T> RwLock<T> {
    pub const fn new(value: T) -> Self {
        Self(RefCell::new(value))
    }

    pub fn read(&self) -> RwLockReadGuard<'_, T> {
        self.0.borrow()
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, T> {
        self.0.borrow_mut()
    }
}

/// Formatted as parking_lot formats its locks, so that no message depends on the build.
macro_rules! debug_as_parking_lot {
    ($($lock:ident),*) => {$(
        impl<T: fmt::Debug> fmt::Debug for $lock<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.0.try_borrow() {
                    Ok(v) => f.debug_struct(stringify!($lock)).field("data", &&*v).finish(),
                    Err(_) => f
                        .debug_struct(stringify!($lock))
                        .field("data", &format_args!("<locked>"))
                        .finish(),
                }
            }
        }
    )*};
}
debug_as_parking_lot!(Mutex, RwLock);

/// A condition variable on one thread: nothing can notify a waiter.
#[derive(Debug, Default)]
pub struct Condvar;

impl Condvar {
    pub const fn new() -> Self {
        Self
    }

    pub fn wait<'a, T>(&self, _guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        panic!("Condvar::wait on the only thread: no other thread can ever notify it");
    }

    pub fn notify_all(&self) {}
}

/// An atomic on one thread: a `Cell`, with the orderings accepted and ignored.
macro_rules! atomic {
    ($($name:ident($t:ty)),*) => {$(
        #[derive(Default)]
        pub struct $name(Cell<$t>);

        impl $name {
            pub const fn new(value: $t) -> Self {
                Self(Cell::new(value))
            }
            pub fn load(&self, _: Ordering) -> $t {
                self.0.get()
            }
            pub fn store(&self, value: $t, _: Ordering) {
                self.0.set(value);
            }
            pub fn swap(&self, value: $t, _: Ordering) -> $t {
                self.0.replace(value)
            }
            pub fn compare_exchange(
                &self,
                current: $t,
                new: $t,
                _: Ordering,
                _: Ordering,
            ) -> Result<$t, $t> {
                let old = self.0.get();
                if old == current {
                    self.0.set(new);
                    Ok(old)
                } else {
                    Err(old)
                }
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.get().fmt(f)
            }
        }
    )*};
}
atomic!(
    AtomicBool(bool),
    AtomicU8(u8),
    AtomicU64(u64),
    AtomicI64(i64)
);

/// The integer operations std's atomics have (wrapping, as theirs).
macro_rules! arithmetic {
    ($($name:ident($t:ty)),*) => {$(
        impl $name {
            pub fn fetch_add(&self, by: $t, _: Ordering) -> $t {
                self.0.replace(self.0.get().wrapping_add(by))
            }
            pub fn fetch_sub(&self, by: $t, _: Ordering) -> $t {
                self.0.replace(self.0.get().wrapping_sub(by))
            }
            pub fn fetch_max(&self, other: $t, _: Ordering) -> $t {
                self.0.replace(self.0.get().max(other))
            }
        }
    )*};
}
arithmetic!(AtomicU8(u8), AtomicU64(u64), AtomicI64(i64));
