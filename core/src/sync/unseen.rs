//! The primitives loom does not see: those of the ghosts, the timelines and the caches beside
//! the models, and the `Arc`s whose counts no upstream code reads. Recording or caching is no
//! synchronization point, so under loom these are real std primitives and add no
//! interleavings. In cargo fuzz's build they are one thread's cells, as the models' are (see
//! [`super::one_thread`]); otherwise parking_lot's and std's. Either way `lock` returns the
//! guard: a model panic (a violation) may happen while one is held, and what it guards stays
//! valid.

#[cfg(any(fuzzing, feature = "one-thread"))]
pub use super::one_thread::{
    Arc, AtomicBool, AtomicI64, AtomicU64, AtomicU8, Mutex, MutexGuard, Ordering,
};

#[cfg(not(any(fuzzing, feature = "one-thread")))]
pub use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicU8, Ordering};
#[cfg(not(any(fuzzing, feature = "one-thread")))]
pub use std::sync::Arc;

// parking_lot's where it is available: no poisoning, and one branch to release.
#[cfg(not(any(loom, fuzzing, feature = "one-thread")))]
pub use parking_lot::{Mutex, MutexGuard};

#[cfg(all(loom, not(any(fuzzing, feature = "one-thread"))))]
pub use std_mutex::{Mutex, MutexGuard};

#[cfg(all(loom, not(any(fuzzing, feature = "one-thread"))))]
mod std_mutex {
    pub use std::sync::MutexGuard;
    use std::sync::PoisonError;

    /// std's mutex, with a poisoned lock's value taken as it is.
    #[derive(Debug, Default)]
    pub struct Mutex<T>(std::sync::Mutex<T>);

    impl<T> Mutex<T> {
        pub const fn new(value: T) -> Self {
            Self(std::sync::Mutex::new(value))
        }

        pub fn lock(&self) -> MutexGuard<'_, T> {
            self.0.lock().unwrap_or_else(PoisonError::into_inner)
        }

        pub fn get_mut(&mut self) -> &mut T {
            self.0.get_mut().unwrap_or_else(PoisonError::into_inner)
        }
    }
}
