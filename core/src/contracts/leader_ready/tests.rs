//! Model tests that are no matrix cell.

use super::scenarios::callback_against;
use super::state_machine::Change;
use super::*;
use crate::claims::Verdict;
use crate::model::Scenario;
use crate::steps::{enumerate, every_choice};

fn reaches(scenario: &Scenario<LeaderReady>, fix: Fix, outcome: &Outcome<World>) -> bool {
    enumerate(scenario, fix, outcome, every_choice).observed == Verdict::Reachable
}

/// A follower left ready (O1) is not a leader ready early: with a step-down and no
/// re-election, upstream reaches O1 in some order and O2, R1 in none.
#[test]
fn a_ready_follower_is_o1_alone() {
    assert!(reaches(&STEP_DOWN_DURING_CALLBACK, Fix::UPSTREAM, &O1));
    assert!(!reaches(&STEP_DOWN_DURING_CALLBACK, Fix::UPSTREAM, &O2));
    assert!(!reaches(&STEP_DOWN_DURING_CALLBACK, Fix::UPSTREAM, &R1));
}

/// With the election in its two steps, every order of whole steps of the report's
/// residual scenario shows both shapes of R1: the win before the term read, and after it.
#[test]
fn the_residual_scenario_reaches_the_win_after_the_read_too() {
    assert!(reaches(
        &CHANGES_BEFORE_TERM_READ,
        LeaderReady::fix(PROPOSED),
        &R1
    ));
    assert!(reaches(
        &CHANGES_BEFORE_TERM_READ,
        LeaderReady::fix(PROPOSED),
        &R2
    ));
    assert!(!reaches(
        &CHANGES_BEFORE_TERM_READ,
        LeaderReady::fix(PROPOSED),
        &O2
    ));
}

/// Upstream's `notifyLeaderReady` reads no term, so its start is a step with no
/// synchronization: loom runs it before the Ratis thread's steps (the callback is loom's
/// first thread) and does not find R1 at this scenario, which the cell therefore checks at
/// candidacy-before-term-read. Every order of whole steps, which runs the start as a step of
/// its own, finds it here, for upstream and P2 alike.
#[test]
fn upstream_reaches_r1_where_the_term_read_would_be() {
    for fix in [Fix::UPSTREAM, LeaderReady::fix(&[&P2])] {
        assert!(reaches(&CHANGES_BEFORE_TERM_READ, fix, &R1), "{fix:?}");
        assert!(reaches(&CHANGES_BEFORE_TERM_READ, fix, &R2), "{fix:?}");
    }
}

/// A higher-term step-down (term 5, another candidate's) and this SCM's own election of
/// term 6, against a callback that has passed `checkReady`: the term the step-down enters
/// is one this SCM never leads, so it changes the numbers, not the verdicts.
static HIGHER_TERM_BEFORE_TERM_READ: Scenario<LeaderReady> = Scenario {
    name: "higher-term-step-down-and-re-election-after-check",
    about: "as step-down-and-re-election-after-check, the step-down for term 5",
    build: |trace, fix| {
        callback_against(
            trace,
            fix,
            false,
            &[Change::StepDownTo(5), Change::Elected(6)],
        )
    },
};

#[test]
fn a_higher_term_step_down_changes_no_verdict() {
    for fix in [
        Fix::UPSTREAM,
        LeaderReady::fix(PROPOSED),
        LeaderReady::fix(IMPROVED),
    ] {
        for o in LeaderReady::OUTCOMES {
            assert_eq!(
                reaches(&HIGHER_TERM_BEFORE_TERM_READ, fix, o),
                reaches(&CHANGES_BEFORE_TERM_READ, fix, o),
                "{fix:?} {}",
                o.id
            );
        }
    }
    assert!(reaches(
        &HIGHER_TERM_BEFORE_TERM_READ,
        LeaderReady::fix(PROPOSED),
        &R2
    ));
}

/// Reading SCMContext's term at the callback start (the mutant) narrows the residual to
/// the report's wording: a win during the callback is refused, a win before the read is not.
#[test]
fn scm_context_term_narrows_the_residual_to_the_reports_wording() {
    let mutant = Fix {
        term: Switch::new(TermSource::ContextAtCallbackStart),
        ..LeaderReady::fix(PROPOSED)
    };
    assert!(!reaches(&CANDIDACY_BEFORE_TERM_READ, mutant, &R2));
    assert!(!reaches(&CHANGES_BEFORE_TERM_READ, mutant, &R2));
    assert!(reaches(&CHANGES_BEFORE_TERM_READ, mutant, &R1));
}

/// A setup that cannot go on names the step it waits at (issue 37, item 5): a callback for an
/// entry of term 5 on a leader of term 4 is not enabled before `checkReady`, and the error says
/// so in the callback's own words rather than "its next step".
#[test]
fn a_stuck_callback_names_its_next_step() {
    use super::state_machine::LeaderReadyCallback;
    use crate::model::{try_step_until, Program};
    let trace = crate::trace::Trace::new();
    let world = World::leader_of(Fix::UPSTREAM, 4);
    let mut callback = LeaderReadyCallback::new(&trace, 5);
    let e = try_step_until(&mut callback, &world, "the callback's end", |p, _| {
        p.is_done()
    })
    .expect_err("term 5 is never won");
    assert_eq!(
        e,
        "setup: never reached the callback's end: apply: CheckReady is not enabled"
    );
}
