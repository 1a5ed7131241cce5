//! The `SCMStateMachine` callbacks as step programs, on the threads Ratis runs them on.
//!
//! - [`LeaderReadyCallback`]: the apply thread (`StateMachineUpdater`) applies the startup
//!   entry of a term, `LeaderStateImpl.checkReady` passes, and `notifyLeaderReady` runs without
//!   the RaftServerImpl monitor. As on master since HDDS-16143 (per the report), it flushes the
//!   transaction buffer and reloads the deleted block summary before `setLeaderReady`.
//! - [`RatisThread`]: leadership changes, run by Ratis under the RaftServerImpl monitor:
//!   `changeToFollower` → `notifyNotLeader`; an election in its two upstream steps,
//!   `changeToCandidate` → `ServerState.initElection` (the term is incremented) and, one vote
//!   round trip later, `changeToLeader` → `notifyLeaderChanged`. The monitor only serializes
//!   these changes with each other; the scenarios run all of them on one Ratis thread, in
//!   order, so program order stands in for it.

use super::context::Setter;
use super::{TermSource, World};
use crate::model::Program;
use crate::trace::{Cx, Trace};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReadyStep {
    CheckReady,
    Start,
    Flush,
    ReloadSummary,
    SetLeaderReady,
    NotifyServices,
    Done,
}

/// Ratis' readiness check of a term's startup entry and the `notifyLeaderReady` it triggers.
#[derive(Debug)]
pub struct LeaderReadyCallback {
    cx: Cx,
    entry_term: u64,
    next: ReadyStep,
    term: Option<u64>,
    /// Ghost: the term Ratis had entered, and the last term it had won, when the callback
    /// started.
    term_at_start: u64,
    won_at_start: u64,
    set: bool,
}

impl LeaderReadyCallback {
    pub const ACTOR: &'static str = "apply";

    pub fn new(trace: &Trace, entry_term: u64) -> Self {
        LeaderReadyCallback {
            cx: trace.actor(Self::ACTOR),
            entry_term,
            next: ReadyStep::CheckReady,
            term: None,
            term_at_start: 0,
            won_at_start: 0,
            set: false,
        }
    }
}

impl Program<World> for LeaderReadyCallback {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.next == ReadyStep::Done
    }

    /// The startup entry of a term is appended by that term's leader (`LeaderStateImpl.start`,
    /// at the end of `changeToLeader`), so the apply thread reaches it only after that.
    fn enabled(&self, w: &World) -> bool {
        match self.next {
            ReadyStep::Done => false,
            ReadyStep::CheckReady => w.ratis.won_term() >= self.entry_term,
            _ => true,
        }
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        self.next = match self.next {
            ReadyStep::CheckReady => {
                if w.ratis.check_ready(cx, self.entry_term) {
                    ReadyStep::Start
                } else {
                    ReadyStep::Done
                }
            }
            ReadyStep::Start => {
                // The patch reads the Ratis current term here (the StateMachine API does not
                // pass the checked entry's term); the improved fix uses the checked entry's.
                self.term = match w.fix.term.get() {
                    TermSource::None => None,
                    TermSource::RatisAtCallbackStart => Some(w.ratis.current_term()),
                    TermSource::CheckedEntry => Some(self.entry_term),
                    TermSource::RatisAtSet => None, // read in SetLeaderReady
                    TermSource::ContextAtCallbackStart => w.context.term_of_leader(),
                };
                // Where the patch reads the term, whatever this variant reads: a term Ratis
                // entered before this point is one the patch's read sees (R1).
                self.term_at_start = w.ratis.entered_term();
                self.won_at_start = w.ratis.won_term();
                let term = self.term;
                cx.record(
                    "SCMStateMachine.notifyLeaderReady",
                    fmt::from_fn(|f| match term {
                        None => f.write_str("starts"),
                        Some(t) => write!(f, "starts with term={t} ({:?})", w.fix.term),
                    }),
                );
                ReadyStep::Flush
            }
            ReadyStep::Flush => {
                // Touches only the transaction buffer, which no other actor here uses: it adds
                // time to the window, not interleavings.
                cx.record("SCMHADBTransactionBuffer.flush", "flushed");
                ReadyStep::ReloadSummary
            }
            ReadyStep::ReloadSummary => {
                cx.record(
                    "DeletedBlockLogImpl.onLeaderReady",
                    "deleted block summary reloaded",
                );
                ReadyStep::SetLeaderReady
            }
            ReadyStep::SetLeaderReady => {
                if w.fix.term.get() == TermSource::RatisAtSet {
                    self.term = Some(w.ratis.current_term());
                }
                let by = Setter {
                    entry_term: self.entry_term,
                    term_at_start: self.term_at_start,
                    won_at_start: self.won_at_start,
                };
                self.set = w
                    .context
                    .set_leader_ready(cx, w.fix.guard.get(), self.term, by);
                ReadyStep::NotifyServices
            }
            // Then `FinalizationManager.onLeaderReady` and the Ratis event log, which touch
            // nothing the outcomes read.
            ReadyStep::NotifyServices => {
                if self.set || !w.fix.notify_only_if_set.get() {
                    w.services.notify_status_changed(cx, &w.context);
                } else {
                    cx.record(
                        "SCMStateMachine.notifyLeaderReady",
                        "flag not set: services not notified",
                    );
                }
                ReadyStep::Done
            }
            ReadyStep::Done => ReadyStep::Done,
        };
    }
}

/// One leadership change as Ratis performs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// An admin step-down (`LeaderStateImpl.stepDown` with the current term), or one on lost
    /// heartbeats or a JVM pause: `changeToFollower` → `notifyNotLeader`; the term stays.
    StepDown,
    /// A step-down for a higher term (another candidate's vote request, as in a transfer, or
    /// a higher-term append reply): the same, then `ServerState.updateCurrentTerm(term)`.
    StepDownTo(u64),
    /// This SCM runs for and wins the election of a term, in two steps one vote round trip
    /// apart: the candidacy enters the term (`ServerState.initElection`), then the win
    /// (`changeToLeader` → `notifyLeaderChanged`).
    Elected(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RatisStep {
    ChangeToFollower,
    NotifyNotLeader,
    NotifyServices,
    UpdateCurrentTerm(u64),
    InitElection(u64),
    ChangeToLeader,
    NotifyLeaderChanged,
}

/// The Ratis threads carrying out a list of leadership changes, in order.
///
/// Upstream runs them on several threads (an RPC thread for a vote request, append reply or
/// transfer, the `FollowerState` timer for `changeToCandidate`, the `LeaderElection` daemon for
/// `initElection` and `changeToLeader`), each under the RaftServerImpl monitor and each caused
/// by the one before, so one program in that order stands in for them. The monitor sections
/// are split into steps where the apply thread, which does not take the monitor, can observe
/// the difference: `changeToLeader` creates the leader state before `setLeader` calls
/// `notifyLeaderChanged`.
///
/// A higher-term step-down sets `currentTerm` to another candidate's term, a term this SCM
/// never leads: `LeaderElection.askForVotes` wins only the term its own `initElection`
/// entered (`shouldRun(electionTerm)`). A callback that reads it fails P1's check as one that
/// reads the old term does (a unit test checks this on every order of steps). Not modelled, for
/// the same reason: a lost candidacy, which enters a term and falls back to follower without
/// touching `SCMContext`. The pre-vote round (`Phase.PRE_VOTE`) does not change the term.
#[derive(Debug)]
pub struct RatisThread {
    cx: Cx,
    steps: Vec<RatisStep>,
    next: usize,
}

impl RatisThread {
    pub const ACTOR: &'static str = "ratis";

    pub fn new(trace: &Trace, changes: &[Change]) -> Self {
        let mut steps = Vec::with_capacity(4 * changes.len());
        for c in changes {
            let step_down = [
                RatisStep::ChangeToFollower,
                RatisStep::NotifyNotLeader,
                RatisStep::NotifyServices,
            ];
            match *c {
                Change::StepDown => steps.extend(step_down),
                Change::StepDownTo(t) => {
                    steps.extend(step_down);
                    steps.push(RatisStep::UpdateCurrentTerm(t));
                }
                Change::Elected(t) => steps.extend([
                    RatisStep::InitElection(t),
                    RatisStep::ChangeToLeader,
                    RatisStep::NotifyLeaderChanged,
                ]),
            }
        }
        RatisThread {
            cx: trace.actor(Self::ACTOR),
            steps,
            next: 0,
        }
    }
}

impl Program<World> for RatisThread {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.next == self.steps.len()
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        match self.steps[self.next] {
            RatisStep::ChangeToFollower => {
                w.ratis.change_to_follower();
                cx.record("RaftServerImpl.changeToFollower", "role=FOLLOWER");
            }
            // notifyNotLeader: updateLeaderAndTerm(false, 0), then notifyStatusChanged.
            RatisStep::NotifyNotLeader => w.context.update_leader_and_term(cx, false, 0),
            RatisStep::NotifyServices => w.services.notify_status_changed(cx, &w.context),
            // Still in changeToFollower, after shutdownLeaderState.
            RatisStep::UpdateCurrentTerm(t) => w.ratis.update_current_term(cx, t),
            RatisStep::InitElection(t) => {
                let term = w.ratis.init_election(cx);
                assert_eq!(term, t, "the scenario's election term");
            }
            RatisStep::ChangeToLeader => w.ratis.change_to_leader(cx),
            // ServerState.setLeader(self) → notifyLeaderChanged: reads the Ratis current term
            // (under the monitor, so the one this candidacy entered) and calls
            // updateLeaderAndTerm(true, term), which leaves isLeaderReady alone; then
            // leader.start() appends the term's startup entry.
            RatisStep::NotifyLeaderChanged => {
                let term = w.ratis.current_term();
                w.context.update_leader_and_term(cx, true, term);
                w.ratis.start_leader_state();
            }
        }
        self.next += 1;
    }
}
