//! `SCMContext`: `isLeader`, `term` and `isLeaderReady` under one `ReentrantReadWriteLock`.

use super::{ReadyGuard, Window};
use crate::sync::RwLock;
use crate::trace::Cx;
use std::fmt;

#[derive(Debug)]
pub struct SCMContext {
    lock: RwLock<State>,
}

/// Ghost data a `notifyLeaderReady` passes along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setter {
    /// The term of the startup entry Ratis checked.
    pub entry_term: u64,
    /// The term Ratis had entered when the callback started (where the patch reads it).
    pub term_at_start: u64,
    /// The last term this server had won by then (`changeToLeader` completed, with its
    /// `notifyLeaderChanged`).
    pub won_at_start: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub is_leader: bool,
    pub term: u64,
    pub is_leader_ready: bool,
    /// Ghost: the callback that set the flag. Not upstream state; written under the same lock.
    pub ready_by: Option<Setter>,
    /// Ghost: the first witness, in each window, of a leader ready before its own term's
    /// `notifyLeaderReady` set the flag. Both windows are recorded, so that one cannot hide
    /// the other.
    pub early_ready: [Option<String>; Window::ALL],
}

/// `setLeaderReady`'s test of the state: upstream's none, P1's (leader of the callback's
/// term), or a mutant's.
fn allows(guard: ReadyGuard, s: &State, term: Option<u64>) -> bool {
    match guard {
        ReadyGuard::Unconditional => true,
        ReadyGuard::LeaderOnly => s.is_leader,
        ReadyGuard::LeaderOfTerm | ReadyGuard::CheckedApart => s.is_leader && Some(s.term) == term,
    }
}

impl SCMContext {
    /// The context of an SCM just elected leader of `term`, not ready yet.
    pub fn leader_of(term: u64) -> Self {
        SCMContext {
            lock: RwLock::new(State {
                is_leader: true,
                term,
                is_leader_ready: false,
                ready_by: None,
                early_ready: [None, None, None],
            }),
        }
    }

    /// `updateLeaderAndTerm(leader, newTerm)` under the write lock; clears the ready flag only
    /// when stepping down (election leaves it as it is).
    pub fn update_leader_and_term(&self, cx: &Cx, leader: bool, new_term: u64) {
        let mut s = self.lock.write();
        s.is_leader = leader;
        if !leader {
            s.is_leader_ready = false;
            s.ready_by = None;
        }
        s.term = new_term;
        cx.record(
            "SCMContext.updateLeaderAndTerm",
            format_args!(
                "isLeader={leader} term={new_term} → isLeaderReady={}",
                s.is_leader_ready
            ),
        );
        s.witness_early_ready();
    }

    /// `setLeaderReady` under the write lock. Upstream sets the flag unconditionally; the fix
    /// (P1) takes the term and sets it only while leader of that term. Returns whether it set.
    /// `by` is ghost data about the calling callback.
    pub fn set_leader_ready(
        &self,
        cx: &Cx,
        guard: ReadyGuard,
        term: Option<u64>,
        by: Setter,
    ) -> bool {
        // The mutant `CheckedApart` tests under the read lock, then sets under the write lock.
        let checked_apart =
            (guard == ReadyGuard::CheckedApart).then(|| allows(guard, &self.lock.read(), term));
        let mut s = self.lock.write();
        let allowed = checked_apart.unwrap_or_else(|| allows(guard, &s, term));
        if allowed {
            s.is_leader_ready = true;
            s.ready_by = Some(by);
        }
        let arg = fmt::from_fn(|f| match term {
            Some(t) => write!(f, "term={t}: "),
            None => Ok(()),
        });
        cx.record(
            "SCMContext.setLeaderReady",
            format_args!(
                "{arg}isLeader={} term={} → {}",
                s.is_leader,
                s.term,
                if allowed {
                    "isLeaderReady=true"
                } else {
                    "not set"
                }
            ),
        );
        s.witness_early_ready();
        allowed
    }

    /// `getTermOfLeader()` under the read lock: the term, or `None` where upstream throws
    /// `NotLeaderException` (a follower).
    pub fn term_of_leader(&self) -> Option<u64> {
        let s = self.lock.read();
        s.is_leader.then_some(s.term)
    }

    /// `isLeaderReady()` under the read lock (never the non-HA `term == -1` case here).
    pub fn is_leader_ready(&self) -> bool {
        self.lock.read().is_leader_ready
    }

    /// The whole state (after the actors finished, or between driver steps).
    pub fn state(&self) -> State {
        self.lock.read().clone()
    }
}

impl State {
    /// Ghost check after every change: a leader of term T is ready, and the flag was set by
    /// the callback of another term's startup entry. Whether it happened is decided here, on
    /// the state alone; [`Window::of`] only says which window it fell in.
    fn witness_early_ready(&mut self) {
        let Some(by) = self.ready_by else { return };
        if !(self.is_leader && self.is_leader_ready) || by.entry_term == self.term {
            return;
        }
        let slot = &mut self.early_ready[Window::of(by, self.term) as usize];
        if slot.is_none() {
            *slot = Some(format!(
                "isLeader=true term={} isLeaderReady=true, set by the notifyLeaderReady of the \
                 term-{} startup entry, which started in Ratis term {} (last won: {})",
                self.term, by.entry_term, by.term_at_start, by.won_at_start
            ));
        }
    }

    /// The first witness of early readiness in `window`.
    pub fn early_ready(&self, window: Window) -> Option<&str> {
        self.early_ready[window as usize].as_deref()
    }
}
