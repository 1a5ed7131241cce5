//! The race-tracked cell: state that upstream shares between threads without synchronization.
//!
//! Under loom, in a cell whose outcome is a data race, it is loom's `UnsafeCell`: loom tracks
//! every access and reports two accesses that no happens-before relation orders as a causality
//! violation, which the loom runner turns into the race outcome's `reachable` verdict. In every
//! other cell, and outside loom, each access runs under a lock of its own: the accesses are
//! serialized in every order loom can choose, so that a state outcome is decided on the
//! results a racy program can give when its accesses do not tear.
//!
//! This is the one module allowed `unsafe` (docs/DESIGN.md): loom's `UnsafeCell` hands out raw
//! pointers, and the safe closures below are the only way the models touch them.
#![allow(unsafe_code)]

use std::cell::Cell;

thread_local! {
    /// Per thread, not per process: loom runs every model thread of an exploration on the
    /// thread that started it, and the cells of a parallel test run explore on threads of
    /// their own (a process-wide switch let one race cell's tracking into another's scenario).
    static TRACK: Cell<bool> = const { Cell::new(false) };
}

/// Whether cells built from now on on this thread are race-tracked (the loom runner sets it
/// for a race outcome's cell and clears it otherwise). Without loom it changes nothing.
pub fn track_races(on: bool) {
    TRACK.with(|t| t.set(on));
}

/// Whether cells built now on this thread are race-tracked: a model whose racy field it keeps
/// elsewhere builds its tracking cell only then, so that no other cell sees a new primitive.
pub fn tracking_races() -> bool {
    cfg!(loom) && TRACK.with(Cell::get)
}

pub struct RaceCell<T>(Inner<T>);

enum Inner<T> {
    #[cfg(loom)]
    Tracked(loom::cell::UnsafeCell<T>),
    Serialized(super::Mutex<T>),
    /// Serialized by a lock every caller already holds: loom needs no second one.
    #[cfg(loom)]
    Guarded(super::unseen::Mutex<T>),
}

// Sound: loom runs every model thread on one OS thread, and loom's tracking reports any access
// pair that a real run could make concurrent; the `Serialized` form is `Sync` on its own.
#[cfg(loom)]
unsafe impl<T: Send> Sync for RaceCell<T> {}

impl<T> RaceCell<T> {
    pub fn new(value: T) -> Self {
        #[cfg(loom)]
        if TRACK.with(Cell::get) {
            return RaceCell(Inner::Tracked(loom::cell::UnsafeCell::new(value)));
        }
        let _ = &TRACK;
        RaceCell(Inner::Serialized(super::Mutex::new(value)))
    }

    /// A cell whose every access, in the world being built, holds one lock the model takes
    /// anyway (an upstream monitor). That lock orders the accesses for loom, so outside a race
    /// cell this cell's own lock is one loom does not see: a second loom lock taken inside the
    /// first only adds scheduling points at which no other thread can touch the cell. In a race
    /// cell it is race-tracked as [`RaceCell::new`]'s; outside loom it is [`RaceCell::new`]'s.
    pub fn guarded(value: T) -> Self {
        #[cfg(loom)]
        if !TRACK.with(Cell::get) {
            return RaceCell(Inner::Guarded(super::unseen::Mutex::new(value)));
        }
        Self::new(value)
    }

    /// An unsynchronized read upstream.
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        match &self.0 {
            #[cfg(loom)]
            // SAFETY: loom checks that no write is concurrent with this read, and panics with
            // a causality violation (the race verdict) before `f` runs if one is.
            Inner::Tracked(c) => c.with(|p| f(unsafe { &*p })),
            Inner::Serialized(m) => f(&m.lock()),
            #[cfg(loom)]
            Inner::Guarded(m) => f(&m.lock()),
        }
    }

    /// An unsynchronized write upstream.
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        match &self.0 {
            #[cfg(loom)]
            // SAFETY: loom checks that no other access is concurrent with this write, and
            // panics with a causality violation (the race verdict) before `f` runs if one is.
            Inner::Tracked(c) => c.with_mut(|p| f(unsafe { &mut *p })),
            Inner::Serialized(m) => f(&mut m.lock()),
            #[cfg(loom)]
            Inner::Guarded(m) => f(&mut m.lock()),
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for RaceCell<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.with(|v| v.fmt(f))
    }
}
