//! The loom scenarios: an SCM leader of term 4 whose apply thread is inside (or about to enter)
//! `notifyLeaderReady`, against a Ratis thread that steps down and is re-elected.

use super::state_machine::{Change, LeaderReadyCallback, RatisThread};
use super::{Fix, LeaderReady, World};
use crate::model::{step_once, Scenario, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

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

/// A step-down and a re-election, each step of which may fall before the callback reads its
/// term (R1) or after.
pub static CHANGES_BEFORE_TERM_READ: Scenario<LeaderReady> = Scenario {
    name: "step-down-and-re-election-after-check",
    about: "leader of term 4; Ratis checked the startup entry; ratis steps down and wins term 5 \
            while apply starts notifyLeaderReady",
    build: |trace, fix| {
        callback_against(trace, fix, false, &[Change::StepDown, Change::Elected(5)])
    },
};

/// The part of R1 the report's wording leaves out: the candidacy entered term 5 before the
/// callback read its term, and the win comes one vote round trip later, during the callback.
pub static CANDIDACY_BEFORE_TERM_READ: Scenario<LeaderReady> = Scenario {
    name: "candidacy-before-term-read-win-during-callback",
    about: "leader of term 4; Ratis checked the startup entry; ratis stepped down and started \
            its candidacy for term 5 (initElection); notifyLeaderReady has started (term read); \
            the win lands while it flushes",
    build: |trace, fix| {
        let mut setup =
            callback_against(trace, fix, false, &[Change::StepDown, Change::Elected(5)]);
        let world = &setup.world;
        let [apply, ratis] = &mut setup.threads[..] else {
            unreachable!("two threads")
        };
        for _ in 0..4 {
            // changeToFollower, notifyNotLeader, services, initElection.
            step_once(&mut **ratis, &**world, "ratis's step-down and initElection");
        }
        // notifyLeaderReady starts and reads its term.
        step_once(&mut **apply, &**world, "notifyLeaderReady's term read");
        setup
    },
};

/// A leader of term 4 whose apply thread has passed `checkReady` (and read its term when
/// `started`), against a Ratis thread carrying out `changes`.
pub(super) fn callback_against(
    trace: &Trace,
    fix: Fix,
    started: bool,
    changes: &[Change],
) -> Setup<LeaderReady> {
    let world = Arc::new(World::leader_of(fix, 4));
    let mut apply = LeaderReadyCallback::new(trace, 4);
    step_once(&mut apply, &*world, "LeaderStateImpl.checkReady");
    if started {
        step_once(&mut apply, &*world, "notifyLeaderReady's term read");
    }
    Setup {
        world,
        threads: vec![Box::new(apply), Box::new(RatisThread::new(trace, changes))],
    }
}
