//! The `SCMStateMachine` callbacks as step programs, on the threads Ratis runs them on.
//!
//! - [`LeaderReadyCallback`]: the apply thread (`StateMachineUpdater`) applies the startup
//!   entry of a term, `LeaderStateImpl.checkReady` passes, and `notifyLeaderReady` runs without
//!   the RaftServerImpl monitor. As on master since HDDS-16143 (per the report), it flushes the
//!   transaction buffer and reloads the deleted block summary before `setLeaderReady`.
//! - [`RatisThread`]: leadership changes, run by Ratis under the RaftServerImpl monitor:
//!   `changeToFollower` → `notifyNotLeader`, and `changeToLeader` → `notifyLeaderChanged`. The
//!   monitor only serializes these changes with each other; the scenarios run all of them on
//!   one Ratis thread, in order, so program order stands in for it.

use super::context::Setter;
use super::{TermSource, Window, World};
use crate::model::Program;
use crate::trace::{Cx, Trace};

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
    /// Ghost: elections won when Ratis checked the entry.
    elections_at_check: u64,
    window: Window,
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
            elections_at_check: 0,
            window: Window::DuringCallback,
            set: false,
        }
    }
}

impl Program<World> for LeaderReadyCallback {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.next == ReadyStep::Done
    }

    /// The startup entry of a term is appended by that term's leader, so the apply thread
    /// reaches it only after Ratis entered the term (`changeToLeader`).
    fn enabled(&self, w: &World) -> bool {
        match self.next {
            ReadyStep::Done => false,
            ReadyStep::CheckReady => w.ratis.current_term() >= self.entry_term,
            _ => true,
        }
    }

    fn step(&mut self, w: &World) {
        let cx = &self.cx;
        self.next = match self.next {
            ReadyStep::CheckReady => {
                self.elections_at_check = w.ratis.elections();
                if w.ratis.check_ready(cx, self.entry_term) {
                    ReadyStep::Start
                } else {
                    ReadyStep::Done
                }
            }
            ReadyStep::Start => {
                // The patch reads the Ratis current term here (the StateMachine API does not
                // pass the checked entry's term); the improved fix uses the checked entry's.
                self.term = match w.fix.term {
                    TermSource::None => None,
                    TermSource::RatisAtCallbackStart => Some(w.ratis.current_term()),
                    TermSource::CheckedEntry => Some(self.entry_term),
                };
                // A re-election before this point is one the term read cannot see (R1).
                if w.ratis.elections() > self.elections_at_check {
                    self.window = Window::BeforeTermRead;
                }
                cx.record(
                    "SCMStateMachine.notifyLeaderReady",
                    match self.term {
                        None => "starts".to_string(),
                        Some(t) => format!("starts with term={t} ({:?})", w.fix.term),
                    },
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
                let by = Setter {
                    entry_term: self.entry_term,
                    window: self.window,
                };
                self.set = w.context.set_leader_ready(cx, w.fix.guard, self.term, by);
                ReadyStep::NotifyServices
            }
            // Then `FinalizationManager.onLeaderReady` and the Ratis event log, which touch
            // nothing the outcomes read.
            ReadyStep::NotifyServices => {
                if self.set || !w.fix.notify_only_if_set {
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
    /// Transfer, admin or higher-term step-down: `changeToFollower` → `notifyNotLeader`.
    StepDown,
    /// This SCM wins the election of a term: `changeToLeader` → `notifyLeaderChanged`.
    Elected(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RatisStep {
    ChangeToFollower,
    NotifyNotLeader,
    NotifyServices,
    ChangeToLeader(u64),
    NotifyLeaderChanged(u64),
}

/// The Ratis thread carrying out a list of leadership changes.
#[derive(Debug)]
pub struct RatisThread {
    cx: Cx,
    steps: Vec<RatisStep>,
    next: usize,
}

impl RatisThread {
    pub const ACTOR: &'static str = "ratis";

    pub fn new(trace: &Trace, changes: &[Change]) -> Self {
        let steps = changes
            .iter()
            .flat_map(|c| match *c {
                Change::StepDown => vec![
                    RatisStep::ChangeToFollower,
                    RatisStep::NotifyNotLeader,
                    RatisStep::NotifyServices,
                ],
                Change::Elected(t) => {
                    vec![
                        RatisStep::ChangeToLeader(t),
                        RatisStep::NotifyLeaderChanged(t),
                    ]
                }
            })
            .collect();
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
            RatisStep::ChangeToLeader(t) => w.ratis.change_to_leader(cx, t),
            // notifyLeaderChanged(self): reads the term Ratis just set (this thread set it) and
            // calls updateLeaderAndTerm(true, term), which leaves isLeaderReady alone.
            RatisStep::NotifyLeaderChanged(t) => w.context.update_leader_and_term(cx, true, t),
        }
        self.next += 1;
    }
}
