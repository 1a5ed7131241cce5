//! The fix's hand-off lock: a `java.util.concurrent.locks.ReentrantLock` in
//! `OzoneManagerServiceProviderImpl`: taken in one step and released in a later one, re-entered
//! by the thread that holds it (the sync thread is the scheduler's one thread, `SyncOM-0`, so
//! every sync runs on it, until `triggerSyncDataFromOMImmediately` replaces that thread: see
//! [`super::sync_scheduler`]), and free only when every hold is released.
//!
//! A holder that will never release its holds (it is inside a network call to OM that never
//! returns, or it left `syncDataFromOM` with a hold no code path releases, which its thread
//! alone can re-enter and no other thread can ever take) *abandons* the lock.
//! That is a ghost: upstream, a thread waiting for the lock would stay parked forever. Here the
//! abandoning step wakes the waiters, and each one returns [`Forever`] instead of waiting, so
//! that the forever-wait is a property of the final state (outcomes O4 and O6) that loom, the
//! step checker and the histories all decide, instead of a global deadlock that would abort
//! loom's process. No verdict depends on it: a waiter that returns `Forever` does nothing more,
//! as a parked Java thread would do nothing more.

use crate::sync::{Condvar, Mutex};
use std::fmt;

/// Why the holder will never release the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forever {
    /// It is inside `getDBUpdates`, which never returns (OM unreachable).
    InGetDbUpdates,
    /// It is inside `executeFullSnapshot`'s snapshot download, which never returns.
    InSnapshotDownload,
    /// It returned from `syncDataFromOM` with a hold that no code path releases.
    Leaked,
}

impl Forever {
    const ALL: [Forever; 3] = [
        Forever::InGetDbUpdates,
        Forever::InSnapshotDownload,
        Forever::Leaked,
    ];

    /// A non-zero code (for a ghost atomic: 0 is "none").
    pub fn code(self) -> u8 {
        self as u8 + 1
    }

    /// The reason of `code`; `None` for 0.
    pub fn from_code(code: u8) -> Option<Forever> {
        Self::ALL.get(usize::from(code).checked_sub(1)?).copied()
    }
}

impl fmt::Display for Forever {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forever::InGetDbUpdates => "inside getDBUpdates",
            Forever::InSnapshotDownload => "inside the full-snapshot download",
            Forever::Leaked => "leaked by an exception (no finally released it)",
        })
    }
}

/// An abandoned lock, as a waiter finds it: who holds it, and why it never releases it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abandoned {
    pub holder: &'static str,
    pub why: Forever,
}

#[derive(Debug, Default)]
struct State {
    owner: Option<&'static str>,
    holds: u32,
    abandoned: Option<Forever>,
}

#[derive(Debug, Default)]
pub struct ReentrantLock {
    state: Mutex<State>,
    released: Condvar,
}

impl ReentrantLock {
    /// `lock()`: blocks until the lock is free or held by `actor` (then one more hold), or
    /// returns [`Abandoned`] once its holder has abandoned it.
    pub fn acquire(&self, actor: &'static str) -> Result<u32, Abandoned> {
        let mut s = self.state.lock();
        loop {
            if s.owner.is_none() || s.owner == Some(actor) {
                s.owner = Some(actor);
                s.holds += 1;
                return Ok(s.holds);
            }
            if let (Some(why), Some(holder)) = (s.abandoned, s.owner) {
                return Err(Abandoned { holder, why });
            }
            s = self.released.wait(s);
        }
    }

    /// `unlock()`: one hold of `actor`'s released; the lock is free when none is left.
    pub fn release(&self, actor: &'static str) -> u32 {
        let mut s = self.state.lock();
        assert_eq!(
            s.owner,
            Some(actor),
            "unlock by a thread that does not hold the lock"
        );
        s.holds -= 1;
        let left = s.holds;
        if left == 0 {
            s.owner = None;
            drop(s);
            self.released.notify_all();
        }
        left
    }

    /// Ghost: `actor`, which holds the lock, will never release it (see the module notes).
    pub fn abandon(&self, actor: &'static str, why: Forever) {
        let mut s = self.state.lock();
        assert_eq!(s.owner, Some(actor), "only the holder abandons the lock");
        s.abandoned = Some(why);
        drop(s);
        self.released.notify_all();
    }

    /// Whether `acquire(actor)` returns now without waiting (for the step driver).
    pub fn ready_for(&self, actor: &'static str) -> bool {
        let s = self.state.lock();
        s.owner.is_none() || s.owner == Some(actor) || s.abandoned.is_some()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Forever;

    #[test]
    fn every_reason_survives_its_code() {
        assert_eq!(Forever::from_code(0), None);
        for why in Forever::ALL {
            assert_ne!(why.code(), 0);
            assert_eq!(Forever::from_code(why.code()), Some(why));
        }
    }
}
