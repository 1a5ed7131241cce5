//! Critical sections through one out-of-line function per lock type: the section's body is
//! called through `dyn`, so the lock's fast paths are compiled once, not into every caller.
//! The fuzz target pays libFuzzer per distinct branch an input executes, and an inlined lock
//! and unlock are several branches at each of the model's many call sites. The lock
//! operations are the same ones (loom sees no difference); only where their code lives moves.

use crate::sync::{Mutex, RwLock};

/// `f` in one read section of `lock`.
pub fn read<T, R>(lock: &RwLock<T>, f: impl FnOnce(&T) -> R) -> R {
    let (mut f, mut out) = (Some(f), None);
    read_dyn(lock, &mut |t| out = f.take().map(|f| f(t)));
    out.expect("the section ran")
}

/// `f` in one write section of `lock`.
pub fn write<T, R>(lock: &RwLock<T>, f: impl FnOnce(&mut T) -> R) -> R {
    let (mut f, mut out) = (Some(f), None);
    write_dyn(lock, &mut |t| out = f.take().map(|f| f(t)));
    out.expect("the section ran")
}

/// `f` holding `lock`.
pub fn locked<T, R>(lock: &Mutex<T>, f: impl FnOnce(&mut T) -> R) -> R {
    let (mut f, mut out) = (Some(f), None);
    locked_dyn(lock, &mut |t| out = f.take().map(|f| f(t)));
    out.expect("the section ran")
}

#[inline(never)]
fn read_dyn<T>(lock: &RwLock<T>, f: &mut dyn FnMut(&T)) {
    f(&lock.read());
}

#[inline(never)]
fn write_dyn<T>(lock: &RwLock<T>, f: &mut dyn FnMut(&mut T)) {
    f(&mut lock.write());
}

#[inline(never)]
fn locked_dyn<T>(lock: &Mutex<T>, f: &mut dyn FnMut(&mut T)) {
    f(&mut lock.lock());
}
