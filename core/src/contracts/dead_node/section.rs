//! Critical sections whose lock is taken in one out-of-line function per lock type, so that
//! the lock's fast path is compiled once and not into every caller (the guard's release stays
//! inline: one branch). The fuzz target pays libFuzzer per distinct branch an input executes,
//! and an inlined lock is several branches at each of the model's many call sites. The lock
//! operations are the same ones (loom sees no difference); only where their code lives moves.

use crate::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// `f` in one read section of `lock`.
pub fn read<T, R>(lock: &RwLock<T>, f: impl FnOnce(&T) -> R) -> R {
    f(&read_guard(lock))
}

/// `f` in one write section of `lock`.
pub fn write<T, R>(lock: &RwLock<T>, f: impl FnOnce(&mut T) -> R) -> R {
    f(&mut write_guard(lock))
}

/// `f` holding `lock`.
pub fn locked<T, R>(lock: &Mutex<T>, f: impl FnOnce(&mut T) -> R) -> R {
    f(&mut guard(lock))
}

#[inline(never)]
fn read_guard<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read()
}

#[inline(never)]
fn write_guard<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write()
}

#[inline(never)]
fn guard<T>(lock: &Mutex<T>) -> MutexGuard<'_, T> {
    lock.lock()
}
