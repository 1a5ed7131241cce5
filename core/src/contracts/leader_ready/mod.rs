//! leader-ready — HDDS-17575: an SCM that steps down while `notifyLeaderReady` runs stays
//! leader-ready as a follower, and is already ready when it is elected again.
//!
//! Components: [`ratis::RaftServer`] (term and role), [`context::SCMContext`] (`isLeader`,
//! `term`, `isLeaderReady` under one read-write lock), [`services::SCMServiceManager`] with
//! `ReplicationManager` and `SCMBlockDeletingService`, and the `SCMStateMachine` callbacks in
//! [`state_machine`], on the apply thread and the Ratis thread.

pub mod claims;
pub mod context;
#[cfg(feature = "histories")]
pub mod histories;
pub mod ratis;
pub mod services;
pub mod state_machine;

use crate::claims::Claims;
use crate::drive::Driver;
use crate::model::{Contract, Model, Part, Scenario, Setup, Variant};
use crate::outcome::{Check, Outcome};
use crate::sync::Arc;
use crate::trace::Trace;
use context::SCMContext;
use ratis::RaftServer;
use services::SCMServiceManager;
use state_machine::{Change, LeaderReadyCallback, RatisThread};

/// How `setLeaderReady` decides (P1 is [`ReadyGuard::LeaderOfTerm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadyGuard {
    /// Upstream: sets the flag whatever the state.
    Unconditional,
    /// A broken P1 with the term check removed (a mutant the suite must catch).
    LeaderOnly,
    /// P1: only while leader of the term the callback passes.
    LeaderOfTerm,
}

/// Which term `notifyLeaderReady` passes to `setLeaderReady`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermSource {
    /// Upstream passes none.
    None,
    /// The patch: the Ratis current term, read when the callback starts.
    RatisAtCallbackStart,
    /// Improved (P3): the term of the startup entry Ratis checked. Needs no Ratis change:
    /// `RaftServerImpl.applyLogToStateMachine` calls `notifyConfigurationChanged(term, index, …)`
    /// for the startup (configuration) entry and then `checkReady` for the same entry, on the
    /// same apply thread, so `SCMStateMachine` can keep that term and pass it.
    CheckedEntry,
}

/// Where the leadership change a callback missed fell (ghost classification of O2 vs R1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Ratis re-elected this SCM between `checkReady` and the callback's term read: the
    /// residual window R1 (the term the callback reads is already the new one).
    BeforeTermRead,
    /// Otherwise: O2.
    DuringCallback,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    /// P1 (with [`Fix::term`]): `setLeaderReady(term)` checks leadership of that term.
    pub guard: ReadyGuard,
    pub term: TermSource,
    /// P2: services are notified only when the flag was set.
    pub notify_only_if_set: bool,
}

impl Fix {
    pub const UPSTREAM: Fix = Fix {
        guard: ReadyGuard::Unconditional,
        term: TermSource::None,
        notify_only_if_set: false,
    };
    /// P1+P2 (the variants' switches come from their parts, see `Model::with`; these two are
    /// for reproductions and mutants, and a test checks they agree).
    pub const PROPOSED: Fix = Fix {
        guard: ReadyGuard::LeaderOfTerm,
        term: TermSource::RatisAtCallbackStart,
        notify_only_if_set: true,
    };
    pub const IMPROVED: Fix = Fix {
        term: TermSource::CheckedEntry,
        ..Fix::PROPOSED
    };
}

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

    /// The observable state in the report's words.
    pub fn observed(&self) -> String {
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

/// O2: ready early after a leadership change that fell after the callback started.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary: "a re-elected SCM is leader-ready before its new term's notifyLeaderReady \
              has run (a leadership change fell after the callback started)",
    check: Check::State(|w| early_ready(w, Window::DuringCallback)),
};

/// R1: the same early readiness through changes before the callback's term read.
pub static R1: Outcome<World> = Outcome {
    id: "R1",
    summary: "residual: the same early readiness through a step-down and a re-election \
              that both fall between Ratis' checkReady and the callback's term read",
    check: Check::State(|w| early_ready(w, Window::BeforeTermRead)),
};

fn early_ready(w: &World, window: Window) -> Option<String> {
    w.context
        .state()
        .early_ready
        .filter(|(w, _)| *w == window)
        .map(|(_, witness)| format!("leader-ready before its own term's callback: {witness}"))
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
    const PARTS: &'static [Part] = &[
        Part {
            id: "P1",
            summary: "setLeaderReady(term) sets the flag under the write lock only if still \
                      leader of that term (the term read from Ratis when the callback starts)",
        },
        Part {
            id: "P2",
            summary: "services are notified only when the flag was set",
        },
        Part {
            id: "P3",
            summary: "(improved) the term passed is the one of the startup entry Ratis checked, \
                      kept from notifyConfigurationChanged for that entry on the apply thread",
        },
    ];
    const OUTCOMES: &'static [&'static Outcome<World>] = &[&O1, &O2, &R1];
    const VARIANTS: &'static [Variant] = &[
        Variant::new("upstream", &[]),
        Variant::new("P1", &["P1"]),
        Variant::new("P2", &["P2"]),
        Variant::new("proposed", &["P1", "P2"]),
        Variant::new("improved", &["P1", "P2", "P3"]),
    ];
    const CLAIMS: Claims<Self> = claims::CLAIMS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    /// The observable state, in the report's words (also the final state the two
    /// exhaustive checkers compare).
    fn describe(w: &World) -> String {
        let s = &w.services;
        format!(
            "{} term={} ReplicationManager={:?} SCMBlockDeletingService={:?}",
            w.observed(),
            w.context.state().term,
            s.replication_manager.status(),
            s.block_deleting_service.status()
        )
    }

    fn with(fix: Fix, part: &str) -> Option<Fix> {
        Some(match part {
            "P1" => Fix {
                guard: ReadyGuard::LeaderOfTerm,
                term: TermSource::RatisAtCallbackStart,
                ..fix
            },
            "P2" => Fix {
                notify_only_if_set: true,
                ..fix
            },
            "P3" => Fix {
                term: TermSource::CheckedEntry,
                ..fix
            },
            _ => return None,
        })
    }
}

/// Ratis has checked the term-4 startup entry; the step-down lands inside `notifyLeaderReady`.
pub static STEP_DOWN_DURING_CALLBACK: Scenario<LeaderReady> = Scenario {
    name: "step-down-during-callback",
    about: "leader of term 4; Ratis checked the startup entry; apply runs notifyLeaderReady \
            while ratis steps down",
    build: |trace, fix| callback_against(trace, fix, false, &[Change::StepDown]),
};

/// The callback has read its term; a step-down and a re-election land inside it.
pub static CHANGES_AFTER_TERM_READ: Scenario<LeaderReady> = Scenario {
    name: "step-down-and-re-election-after-term-read",
    about: "leader of term 4; notifyLeaderReady has started (term read); ratis steps down and \
            wins term 5 while it flushes",
    build: |trace, fix| callback_against(trace, fix, true, &[Change::StepDown, Change::Elected(5)]),
};

/// A step-down and a re-election may fall before the callback reads its term (R1).
pub static CHANGES_BEFORE_TERM_READ: Scenario<LeaderReady> = Scenario {
    name: "step-down-and-re-election-after-check",
    about: "leader of term 4; Ratis checked the startup entry; ratis steps down and wins term 5 \
            while apply starts notifyLeaderReady",
    build: |trace, fix| {
        callback_against(trace, fix, false, &[Change::StepDown, Change::Elected(5)])
    },
};

/// A leader of term 4 whose apply thread has passed `checkReady` (and read its term when
/// `started`), against a Ratis thread carrying out `changes`.
fn callback_against(
    trace: &Trace,
    fix: Fix,
    started: bool,
    changes: &[Change],
) -> Setup<LeaderReady> {
    use crate::model::Program;
    let world = Arc::new(World::leader_of(fix, 4));
    let mut apply = LeaderReadyCallback::new(trace, 4);
    apply.step(&world); // LeaderStateImpl.checkReady
    if started {
        apply.step(&world); // notifyLeaderReady reads its term
    }
    Setup {
        world,
        threads: vec![Box::new(apply), Box::new(RatisThread::new(trace, changes))],
    }
}

/// The report's reproduction, step by step through the driver: the apply thread is held after
/// the flush and reload while leadership moves away, then (with `re_elect`) comes back in term 5
/// and the term-5 callback is observed right after it starts. Returns the state strings.
pub fn reproduce(fix: Fix) -> (String, String, String) {
    let trace = Trace::new();
    let world = Arc::new(World::leader_of(fix, 4));
    let mut d = Driver::<LeaderReady>::new(
        trace.clone(),
        Setup {
            world,
            threads: vec![Box::new(LeaderReadyCallback::new(&trace, 4))],
        },
    );
    let held = |d: &mut Driver<LeaderReady>, actor: usize, steps: usize| {
        for _ in 0..steps {
            d.step_actor(actor);
        }
    };
    held(&mut d, 0, 4); // checkReady, start, flush, reload: held at the INFO line
                        // The first election, held at the same point.
    let first = d.world.observed();
    d.spawn(Box::new(RatisThread::new(&trace, &[Change::StepDown])));
    held(&mut d, 1, 3);
    held(&mut d, 0, 2); // setLeaderReady, notifyStatusChanged
    let wait = 5 * 60 * 1000; // hdds.scm.wait.time.after.safemode.exit
    d.world.services.advance_clock(wait);
    let services = &d.world.services;
    let after_step_down = format!(
        "{} ReplicationManager.shouldRun={} SCMBlockDeletingService.shouldRun={}",
        d.world.observed(),
        services
            .replication_manager
            .should_run(services.now(), wait),
        services
            .block_deleting_service
            .should_run(services.now(), wait)
    );
    d.spawn(Box::new(RatisThread::new(&trace, &[Change::Elected(5)])));
    held(&mut d, 2, 2);
    d.spawn(Box::new(LeaderReadyCallback::new(&trace, 5)));
    held(&mut d, 3, 2); // checkReady, start: inside the term-5 notifyLeaderReady
    (first, after_step_down, d.world.observed())
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn the_named_switches_are_the_variants_parts() {
        assert_eq!(LeaderReady::fix_of("proposed"), Some(Fix::PROPOSED));
        assert_eq!(LeaderReady::fix_of("improved"), Some(Fix::IMPROVED));
    }
}
