//! leader-ready — HDDS-17575: an SCM that steps down while `notifyLeaderReady` runs stays
//! leader-ready as a follower, and is already ready when it is elected again.
//!
//! Components: [`ratis::RaftServer`] (term and role), [`context::SCMContext`] (`isLeader`,
//! `term`, `isLeaderReady` under one read-write lock), [`services::SCMServiceManager`] with
//! `ReplicationManager` and `SCMBlockDeletingService`, and the `SCMStateMachine` callbacks in
//! [`state_machine`], on the apply thread and the Ratis thread.
//!
//! The residual window as the code allows it, how early readiness is classified, the
//! baseline and where each finding stands are in `DESIGN-NOTES.md` beside this file; the
//! claims matrix is in [`claims`].

pub mod claims;
pub mod context;
pub mod findings;
#[cfg(feature = "histories")]
pub mod histories;
pub mod premises;
pub mod ratis;
pub mod reproductions;
pub mod scenarios;
pub mod services;
pub mod state_machine;
#[cfg(all(test, not(loom)))]
mod tests;
pub mod upstream;

pub use reproductions::*;
pub use scenarios::*;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{Baseline, Contract, Model, Part, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use context::SCMContext;
use ratis::RaftServer;
use services::SCMServiceManager;

/// How `setLeaderReady` decides (P1 is [`ReadyGuard::LeaderOfTerm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadyGuard {
    /// Upstream: sets the flag whatever the state.
    Unconditional,
    /// A broken P1 with the term check removed (a mutant the suite must catch).
    LeaderOnly,
    /// A broken P1 (a mutant the suite must catch): leadership of the term checked under the
    /// read lock, the flag then set under the write lock, two sections: a step-down between
    /// them leaves a follower leader-ready (O1's path).
    CheckedApart,
    /// P1: only while leader of the term the callback passes.
    LeaderOfTerm,
}

/// Which term `notifyLeaderReady` passes to `setLeaderReady`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermSource {
    /// Upstream passes none.
    None,
    /// The patch: the Ratis current term, read when the callback starts (`initElection`
    /// increments it when a candidacy starts, a vote round trip before the win).
    RatisAtCallbackStart,
    /// A broken P1 that reads the Ratis current term in `setLeaderReady` instead of at the
    /// start of the callback (a mutant the suite must catch: the window it leaves is wider
    /// than the patch's, and a change after the callback started must show up as O2).
    RatisAtSet,
    /// A broken improvement (a mutant the suite must catch): `SCMContext.getTermOfLeader()` at
    /// the callback start instead of Ratis' term. It lags Ratis until `notifyLeaderChanged`
    /// (and throws `NotLeaderException`, so no set, before it), so it refuses a candidacy
    /// that wins during the flush; a win before the read, the report's case, still passes.
    ContextAtCallbackStart,
    /// Improved (P3): the term of the startup entry Ratis checked. Needs no Ratis change:
    /// `RaftServerImpl.applyLogToStateMachine` calls `notifyConfigurationChanged(term, index, …)`
    /// for the startup (configuration) entry and then `checkReady` for the same entry, on the
    /// same apply thread, so `SCMStateMachine` can keep that term and pass it.
    CheckedEntry,
}

/// Which window an early readiness fell in (the classification of O2, R1 and R2; whether
/// early readiness happened at all is decided apart from it, see `context::State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// O2: this SCM entered the term it leads after the setting callback started.
    DuringCallback = 0,
    /// R1 as the report words it: the step-down and the whole re-election (won) fell before
    /// the callback started.
    ElectedBeforeTermRead = 1,
    /// R1 and R2: the candidacy had entered the term (`ServerState.initElection` incremented
    /// `currentTerm`) before the callback started, and the win (`changeToLeader` through
    /// `notifyLeaderChanged`) had not completed by then.
    CandidacyBeforeTermRead = 2,
}

impl Window {
    pub const ALL: usize = 3;

    /// The window of an early readiness in `term`, set by the callback `by`: the patch's read
    /// at the callback start sees `term` exactly when Ratis had entered it by then.
    pub fn of(by: context::Setter, term: u64) -> Window {
        if by.term_at_start < term {
            Window::DuringCallback
        } else if by.won_at_start < term {
            Window::CandidacyBeforeTermRead
        } else {
            Window::ElectedBeforeTermRead
        }
    }
}

crate::switches! {
    pub struct Fix {
        /// P1 (with [`Fix::term`]): `setLeaderReady(term)` checks leadership of that term.
        0 => pub guard: ReadyGuard = ReadyGuard::Unconditional,
        1 => pub term: TermSource = TermSource::None,
        /// P2: services are notified only when the flag was set.
        2 => pub notify_only_if_set: bool = false,
    }
}

/// P1 sets two switches: the guard and the term it checks come together.
pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "setLeaderReady(term) sets the flag under the write lock only if still leader of \
              that term (the term read from Ratis when the callback starts)",
    on: |fix| Fix {
        guard: Switch::new(ReadyGuard::LeaderOfTerm),
        term: Switch::new(TermSource::RatisAtCallbackStart),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary: "services are notified only when the flag was set",
    on: |fix| Fix {
        notify_only_if_set: Switch::new(true),
        ..fix
    },
};

/// Ours: applied after P1, it replaces the term P1 reads.
pub const P3: Part<Fix> = Part {
    id: "P3",
    summary: "(improved) the term passed is the one of the startup entry Ratis checked, kept \
              from notifyConfigurationChanged for that entry on the apply thread",
    on: |fix| Fix {
        term: Switch::new(TermSource::CheckedEntry),
        ..fix
    },
};

/// The patch.
pub const PROPOSED: &[&Part<Fix>] = &[&P1, &P2];
/// Ours.
pub const IMPROVED: &[&Part<Fix>] = &[&P1, &P2, &P3];

/// Everything the actors share.
#[derive(Debug)]
pub struct World {
    pub fix: Fix,
    pub ratis: RaftServer,
    pub context: SCMContext,
    pub services: SCMServiceManager,
}

impl World {
    /// An SCM just elected leader of `term` (`notifyLeaderChanged` has run; not ready yet).
    pub fn leader_of(fix: Fix, term: u64) -> World {
        World {
            fix,
            ratis: RaftServer::leader_of(term),
            context: SCMContext::leader_of(term),
            services: SCMServiceManager::default(),
        }
    }

    /// What the report states of this world, in its words: what the reproductions compare
    /// with it (the whole observable state is `Model::describe`, which starts with this).
    pub fn as_reported(&self) -> String {
        let s = self.context.state();
        format!(
            "isLeader={} isLeaderReady={}",
            s.is_leader, s.is_leader_ready
        )
    }
}

pub struct LeaderReady;

/// O1: the report's follower that stays leader-ready with both services RUNNING.
pub static O1: Outcome<World> = Outcome {
    id: "O1",
    summary: "a follower is leader-ready: isLeader=false isLeaderReady=true, \
              ReplicationManager and SCMBlockDeletingService RUNNING",
    check: Check::State(|w| {
        let s = w.context.state();
        (!s.is_leader && s.is_leader_ready && w.services.both_running()).then(|| {
            "follower is leader-ready: isLeader=false isLeaderReady=true, \
             ReplicationManager RUNNING, SCMBlockDeletingService RUNNING"
                .to_string()
        })
    }),
};

/// O2: a leader of term T is ready, the flag set by the `notifyLeaderReady` of an earlier
/// term's startup entry, and Ratis entered T after that callback started.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary: "a re-elected SCM is leader-ready before its new term's notifyLeaderReady \
              has run (it entered the new term after the setting callback started)",
    check: Check::State(|w| early_ready(w, Window::DuringCallback)),
};

/// R1: the same early readiness, where Ratis had entered T before the setting callback
/// started. What the code needs for it (`ServerState.initElection` increments `currentTerm`
/// when the candidacy starts, `RaftServerImpl.changeToLeader` runs one vote round trip later):
/// the step-down and the *start* of the candidacy between `LeaderStateImpl.checkReady` and
/// the callback's term read; the win (`changeToLeader`, `notifyLeaderChanged`) may land
/// anywhere before `setLeaderReady`, during the flush and reload. The report's wording, "a
/// step down and a re-election that both fit between Ratis' check and that read", is the
/// narrower case where the win also precedes the read; R2 is the rest.
pub static R1: Outcome<World> = Outcome {
    id: "R1",
    summary: "residual: the same early readiness when the step-down and the start of the \
              candidacy (initElection) fall between Ratis' checkReady and the callback's term \
              read; the win may land before the read or during the flush",
    check: Check::State(|w| {
        early_ready(w, Window::ElectedBeforeTermRead)
            .or_else(|| early_ready(w, Window::CandidacyBeforeTermRead))
    }),
};

/// R2: the part of R1 wider than the report's wording: the win came after the term read.
pub static R2: Outcome<World> = Outcome {
    id: "R2",
    summary: "residual, the part of R1 the report's wording leaves out: the candidacy entered \
              the new term before the callback's term read, and the win landed during the \
              callback (flush, reload), one vote round trip later",
    check: Check::State(|w| early_ready(w, Window::CandidacyBeforeTermRead)),
};

fn early_ready(w: &World, window: Window) -> Option<String> {
    w.context
        .state()
        .early_ready(window)
        .map(|witness| format!("leader-ready before its own term's callback: {witness}"))
}

impl Model for LeaderReady {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "leader-ready",
        module: "leader_ready",
        report: "HDDS-17575",
        title: "SCM stays leader-ready after stepping down during notifyLeaderReady",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] = &[&O1, &O2, &R1, &R2];
    const BASELINES: &'static [Baseline<Fix>] = &[Baseline {
        name: REPORT,
        repo: "apache/ozone",
        commit: "78d5650c313f2fa0731bdf08b76d4604090dabca",
        about: "Ozone master of 2026-08-23, read for the model, but for notifyLeaderReady's buffer flush and deleted-block summary reload before setLeaderReady, which follow the report's master 257a71ab277 (HDDS-16143; not in this commit nor in ozone-2.2.0, where notifyLeaderChanged flushes and notifyLeaderReady sets the flag alone: premise LR_P3). SCMContext is the same in ozone-2.2.0",
        changes: &[],
    }];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("P1", &[&P1]),
        Variant::new("P2", &[&P2]),
        Variant::new("proposed", PROPOSED),
        Variant::new("improved", IMPROVED),
    ];
    const FINDINGS: &'static [Finding] = findings::FINDINGS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    /// The observable state, in the report's words (also the final state the two
    /// exhaustive checkers compare).
    fn describe(w: &World) -> String {
        let s = &w.services;
        format!(
            "{} term={} ReplicationManager={:?} SCMBlockDeletingService={:?}",
            w.as_reported(),
            w.context.state().term,
            s.replication_manager.status(),
            s.block_deleting_service.status()
        )
    }
}

impl Claimed for LeaderReady {
    const CLAIMS: Claims<Self> = claims::CLAIMS;
}
