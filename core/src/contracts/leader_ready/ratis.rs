//! The Ratis server state the SCM callbacks read: `ServerState.currentTerm` (an `AtomicLong`)
//! and whether a `LeaderStateImpl` exists (the role). Ratis changes both on its own threads
//! (`RaftServerImpl.changeToLeader` / `changeToFollower`, under the RaftServerImpl monitor).

use crate::sync::{AtomicBool, AtomicU64, Ordering};
use crate::trace::Cx;
use std::sync::atomic::{AtomicU64 as GhostCounter, Ordering as GhostOrdering};

#[derive(Debug)]
pub struct RaftServer {
    current_term: AtomicU64,
    leader: AtomicBool,
    /// Ghost: elections won so far, bumped right after the term store with no synchronization
    /// point between, so a callback can tell whether a re-election preceded its term read. A
    /// std atomic: loom does not see it.
    elections: GhostCounter,
}

impl RaftServer {
    /// A server that is leader of `term`.
    pub fn leader_of(term: u64) -> Self {
        RaftServer {
            current_term: AtomicU64::new(term),
            leader: AtomicBool::new(true),
            elections: GhostCounter::new(0),
        }
    }

    /// `ServerState.getCurrentTerm`, as `division.getInfo().getCurrentTerm()` reads it.
    pub fn current_term(&self) -> u64 {
        self.current_term.load(Ordering::SeqCst)
    }

    /// Ghost: elections won so far.
    pub fn elections(&self) -> u64 {
        self.elections.load(GhostOrdering::SeqCst)
    }

    /// `LeaderStateImpl.checkReady(entry)` on the apply thread: the startup entry of `entry_term`
    /// has been applied; Ratis calls `notifyLeaderReady` if this server still leads that term.
    pub fn check_ready(&self, cx: &Cx, entry_term: u64) -> bool {
        let leader = self.leader.load(Ordering::SeqCst);
        let term = self.current_term();
        let ready = leader && term == entry_term;
        cx.record(
            "LeaderStateImpl.checkReady",
            format_args!(
                "startup entry term {entry_term}, leader={leader} currentTerm={term} → {}",
                if ready {
                    "notifyLeaderReady"
                } else {
                    "no callback"
                }
            ),
        );
        ready
    }

    /// `RaftServerImpl.changeToFollower` → `LeaderStateImpl.stop`: the leader state is gone.
    /// A transfer or an admin step-down keeps the term; a higher term arrives with the election.
    pub fn change_to_follower(&self) {
        self.leader.store(false, Ordering::SeqCst);
    }

    /// `ServerState.initElection` then `RaftServerImpl.changeToLeader`: this server wins `term`.
    pub fn change_to_leader(&self, cx: &Cx, term: u64) {
        self.current_term.store(term, Ordering::SeqCst);
        self.elections.fetch_add(1, GhostOrdering::SeqCst);
        self.leader.store(true, Ordering::SeqCst);
        cx.record(
            "RaftServerImpl.changeToLeader",
            format_args!("currentTerm={term} role=LEADER"),
        );
    }
}
