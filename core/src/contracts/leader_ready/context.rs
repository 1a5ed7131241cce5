//! `SCMContext`: `isLeader`, `term` and `isLeaderReady` under one `ReentrantReadWriteLock`.

use super::{ReadyGuard, Window};
use crate::sync::RwLock;
use crate::trace::Cx;

#[derive(Debug)]
pub struct SCMContext {
    lock: RwLock<State>,
}

/// Ghost data a `notifyLeaderReady` passes along: the term of the startup entry Ratis checked,
/// and where the leadership changes it missed fell.
#[derive(Clone, Copy, Debug)]
pub struct Setter {
    pub entry_term: u64,
    pub window: Window,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub is_leader: bool,
    pub term: u64,
    pub is_leader_ready: bool,
    /// Ghost: which callback set the flag (its checked entry term and the window the
    /// leadership changes it missed fell in). Not upstream state; written under the same lock.
    pub ready_by: Option<(u64, Window)>,
    /// Ghost: the first time a leader of some term was ready before that term's own
    /// `notifyLeaderReady` set the flag.
    pub early_ready: Option<(Window, String)>,
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
                early_ready: None,
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
        let mut s = self.lock.write();
        let allowed = match guard {
            ReadyGuard::Unconditional => true,
            ReadyGuard::LeaderOnly => s.is_leader,
            ReadyGuard::LeaderOfTerm => s.is_leader && Some(s.term) == term,
        };
        if allowed {
            s.is_leader_ready = true;
            s.ready_by = Some((by.entry_term, by.window));
        }
        let arg = term.map_or(String::new(), |t| format!("term={t}: "));
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
    /// Ghost check after every change: a leader ready in a term whose own callback did not set
    /// the flag (O2, or R1 when the changes it missed fell before the callback read the term).
    fn witness_early_ready(&mut self) {
        if self.early_ready.is_some() || !(self.is_leader && self.is_leader_ready) {
            return;
        }
        if let Some((entry_term, window)) = self.ready_by {
            if entry_term != self.term {
                let w = format!(
                    "isLeader=true term={} isLeaderReady=true, set by the notifyLeaderReady of \
                     the term-{entry_term} startup entry",
                    self.term
                );
                self.early_ready = Some((window, w));
            }
        }
    }
}
