//! reregister's primitives: `crate::sync`'s, with each write to model state counted for the
//! settled cache ([`super::writes`]), so that the mechanism files hold no counter of their own.
//! A write is a lock guard's mutable access, an atomic's store, swap or add, and a
//! [`RaceCell::with_mut`]; reads never count. A mutable access that writes nothing counts too:
//! the cache is then given up once more than it needs to be, never kept too long (the unit tests
//! check every cached answer against the world's state).
//!
//! The same operations as `crate::sync`'s, in the same order: loom and the step driver see the
//! same synchronization points.

use super::writes::wrote;
use crate::sync;
use std::fmt;
use std::ops::{Deref, DerefMut};

pub use crate::sync::Ordering;

/// A lock's guard whose mutable access counts as a write.
pub struct Counted<G>(G);

impl<G: Deref> Deref for Counted<G> {
    type Target = G::Target;

    fn deref(&self) -> &G::Target {
        &self.0
    }
}

impl<G: DerefMut> DerefMut for Counted<G> {
    fn deref_mut(&mut self) -> &mut G::Target {
        wrote();
        &mut self.0
    }
}

/// A mutex over `$inner`, whose guard counts its mutable accesses.
macro_rules! counted_mutex {
    ($inner:path, $inner_guard:path) => {
        /// The model's mutex (see the module's comment).
        #[derive(Default)]
        pub struct Mutex<T>($inner);

        pub type MutexGuard<'a, T> =
            $crate::contracts::reregister::speed::counted::Counted<$inner_guard>;

        impl<T> Mutex<T> {
            pub fn new(value: T) -> Self {
                Self(<$inner>::new(value))
            }

            pub fn lock(&self) -> MutexGuard<'_, T> {
                $crate::contracts::reregister::speed::counted::Counted(self.0.lock())
            }
        }

        impl<T: std::fmt::Debug> std::fmt::Debug for Mutex<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

/// Atomics over `$inner`, whose stores, swaps and adds count.
macro_rules! counted_atomics {
    ($($name:ident($inner:ty): $t:ty $(, $add:ident)?;)*) => {$(
        /// The model's atomic (see the module's comment).
        #[derive(Default)]
        pub struct $name($inner);

        impl $name {
            pub fn new(value: $t) -> Self {
                Self(<$inner>::new(value))
            }

            pub fn load(&self, order: $crate::sync::Ordering) -> $t {
                self.0.load(order)
            }

            pub fn store(&self, value: $t, order: $crate::sync::Ordering) {
                $crate::contracts::reregister::speed::writes::wrote();
                self.0.store(value, order)
            }

            pub fn swap(&self, value: $t, order: $crate::sync::Ordering) -> $t {
                $crate::contracts::reregister::speed::writes::wrote();
                self.0.swap(value, order)
            }

            $(
            pub fn $add(&self, by: $t, order: $crate::sync::Ordering) -> $t {
                $crate::contracts::reregister::speed::writes::wrote();
                self.0.$add(by, order)
            }
            )?
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

mod seen {
    counted_mutex!(crate::sync::Mutex<T>, crate::sync::MutexGuard<'a, T>);
    counted_atomics! {
        AtomicBool(crate::sync::AtomicBool): bool;
        AtomicU64(crate::sync::AtomicU64): u64, fetch_add;
    }
}
pub use seen::{AtomicBool, AtomicU64, Mutex, MutexGuard};

/// `crate::sync::unseen`'s, counted: the ghost, the clock and the scheduler's random numbers are
/// model state that loom need not see.
pub mod unseen {
    pub use crate::sync::unseen::Ordering;
    counted_mutex!(
        crate::sync::unseen::Mutex<T>,
        crate::sync::unseen::MutexGuard<'a, T>
    );
    counted_atomics! {
        AtomicBool(crate::sync::unseen::AtomicBool): bool;
        AtomicI64(crate::sync::unseen::AtomicI64): i64;
    }

    impl<T> Mutex<T> {
        /// The value of a mutex no other thread can reach (a copy being built).
        pub fn get_mut(&mut self) -> &mut T {
            crate::contracts::reregister::speed::writes::wrote();
            self.0.get_mut()
        }
    }
}

/// The model's read-write lock: a write guard's mutable access counts.
#[derive(Default)]
pub struct RwLock<T>(sync::RwLock<T>);

impl<T> RwLock<T> {
    pub fn new(value: T) -> Self {
        Self(sync::RwLock::new(value))
    }

    pub fn read(&self) -> sync::RwLockReadGuard<'_, T> {
        self.0.read()
    }

    pub fn write(&self) -> Counted<sync::RwLockWriteGuard<'_, T>> {
        Counted(self.0.write())
    }
}

impl<T: fmt::Debug> fmt::Debug for RwLock<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The model's condition variable, waiting with a counted guard.
#[derive(Debug, Default)]
pub struct Condvar(sync::Condvar);

impl Condvar {
    pub fn new() -> Self {
        Self(sync::Condvar::new())
    }

    pub fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        Counted(self.0.wait(guard.0))
    }

    pub fn notify_all(&self) {
        self.0.notify_all();
    }
}

/// State upstream reads and writes without synchronization ([`sync::RaceCell`]): a
/// [`RaceCell::with_mut`] counts.
#[derive(Debug)]
pub struct RaceCell<T>(sync::RaceCell<T>);

impl<T> RaceCell<T> {
    pub fn new(value: T) -> Self {
        Self(sync::RaceCell::new(value))
    }

    pub fn guarded(value: T) -> Self {
        Self(sync::RaceCell::guarded(value))
    }

    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.0.with(f)
    }

    pub fn with_mut<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        wrote();
        self.0.with_mut(f)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::writes::writes;
    use super::*;

    /// Whether `f` counted a write.
    fn counts(f: impl FnOnce()) -> bool {
        let before = writes();
        f();
        writes() != before
    }

    #[test]
    fn a_write_counts_and_a_read_does_not() {
        let m = Mutex::new(0u8);
        assert!(
            !counts(|| {
                let _ = *m.lock();
            }),
            "a guard's read"
        );
        assert!(counts(|| *m.lock() += 1), "a guard's write");
        let mut u = unseen::Mutex::new(0u8);
        assert!(counts(|| *u.lock() += 1), "an unseen guard's write");
        assert!(counts(|| *u.get_mut() += 1), "get_mut");
        let l = RwLock::new(0u8);
        assert!(
            !counts(|| {
                let _ = *l.read();
            }),
            "a read lock"
        );
        assert!(counts(|| *l.write() += 1), "a write lock's write");
        let c = RaceCell::new(0u8);
        assert!(
            !counts(|| {
                let _ = c.with(|v| *v);
            }),
            "a plain read"
        );
        assert!(counts(|| c.with_mut(|v| *v += 1)), "a plain write");
        let a = AtomicU64::new(0);
        assert!(
            !counts(|| {
                let _ = a.load(Ordering::SeqCst);
            }),
            "a load"
        );
        assert!(counts(|| a.store(1, Ordering::SeqCst)), "a store");
        assert!(
            counts(|| {
                let _ = a.swap(2, Ordering::SeqCst);
            }),
            "a swap"
        );
        assert!(
            counts(|| {
                let _ = a.fetch_add(1, Ordering::SeqCst);
            }),
            "an add"
        );
        let b = unseen::AtomicI64::new(0);
        assert!(
            counts(|| b.store(1, unseen::Ordering::SeqCst)),
            "an unseen store"
        );
    }
}
