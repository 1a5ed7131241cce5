//! The Ratis server state the SCM callbacks read: `ServerState.currentTerm` (an `AtomicLong`)
//! and whether a `LeaderStateImpl` exists (the role). Ratis changes both on its own threads,
//! under the RaftServerImpl monitor, and an election changes them one vote round trip apart:
//! `ServerState.initElection` increments `currentTerm` when the candidacy starts,
//! `RaftServerImpl.changeToLeader` creates the leader state when it has won.

use crate::sync::unseen::{AtomicU64 as Ghost, Ordering as GhostOrdering};
use crate::sync::{AtomicBool, AtomicU64, Ordering};
use crate::trace::Cx;

#[derive(Debug)]
pub struct RaftServer {
    current_term: AtomicU64,
    leader: AtomicBool,
    /// Ghost: `currentTerm` again, written right after it with no synchronization point
    /// between, so that a callback can note the term Ratis was in when it started without a
    /// read upstream does not make. A std atomic: loom does not see it.
    entered_term: Ghost,
    /// Ghost: the last term this server won and started leading (`LeaderStateImpl.start`
    /// appends that term's startup entry, after `notifyLeaderChanged`).
    won_term: Ghost,
}

impl RaftServer {
    /// A server that is leader of `term`.
    pub fn leader_of(term: u64) -> Self {
        RaftServer {
            current_term: AtomicU64::new(term),
            leader: AtomicBool::new(true),
            entered_term: Ghost::new(term),
            won_term: Ghost::new(term),
        }
    }

    /// `ServerState.getCurrentTerm`, as `division.getInfo().getCurrentTerm()` reads it.
    pub fn current_term(&self) -> u64 {
        self.current_term.load(Ordering::SeqCst)
    }

    /// Ghost: the term Ratis has entered, read without a synchronization point.
    pub fn entered_term(&self) -> u64 {
        self.entered_term.load(GhostOrdering::SeqCst)
    }

    /// Ghost: the last term won and led (see [`RaftServer::start_leader_state`]).
    pub fn won_term(&self) -> u64 {
        self.won_term.load(GhostOrdering::SeqCst)
    }

    /// `LeaderStateImpl.checkReady(entry)` on the apply thread: the startup entry of `entry_term`
    /// has been applied; Ratis calls `notifyLeaderReady` if a leader state exists and the current
    /// term is still the entry's.
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

    /// `RaftServerImpl.changeToFollower` → `RoleInfo.shutdownLeaderState`: the leader state is
    /// gone. An admin step-down keeps the term; a higher-term one sets it afterwards
    /// ([`RaftServer::update_current_term`]).
    pub fn change_to_follower(&self) {
        self.leader.store(false, Ordering::SeqCst);
    }

    /// `ServerState.updateCurrentTerm(term)` at the end of a higher-term `changeToFollower`.
    pub fn update_current_term(&self, cx: &Cx, term: u64) {
        let old = self.current_term.fetch_max(term, Ordering::SeqCst);
        self.entered_term
            .store(old.max(term), GhostOrdering::SeqCst);
        cx.record(
            "ServerState.updateCurrentTerm",
            format_args!("currentTerm {old} → {}", old.max(term)),
        );
    }

    /// `RaftServerImpl.changeToCandidate`, then `ServerState.initElection(ELECTION)` (in
    /// `LeaderElection.askForVotes`, or its constructor for a forced election):
    /// `currentTerm.incrementAndGet()` before the vote requests go out. Returns the new term.
    pub fn init_election(&self, cx: &Cx) -> u64 {
        let term = self.current_term.fetch_add(1, Ordering::SeqCst) + 1;
        self.entered_term.store(term, GhostOrdering::SeqCst);
        cx.record(
            "ServerState.initElection",
            format_args!("role=CANDIDATE currentTerm={term}, vote requests sent"),
        );
        term
    }

    /// `RaftServerImpl.changeToLeader` (the votes are in): `RoleInfo.updateLeaderState`, so the
    /// leader state exists; `state.becomeLeader()` follows ([`RaftServer::start_leader_state`]
    /// after it).
    pub fn change_to_leader(&self, cx: &Cx) {
        self.leader.store(true, Ordering::SeqCst);
        cx.record(
            "RaftServerImpl.changeToLeader",
            format_args!("elected in term {}, role=LEADER", self.entered_term()),
        );
    }

    /// Ghost: the end of `changeToLeader`, `leader.start()`, which appends the term's startup
    /// entry; `becomeLeader` → `notifyLeaderChanged` has run before it.
    pub fn start_leader_state(&self) {
        self.won_term
            .store(self.entered_term(), GhostOrdering::SeqCst);
    }
}
