//! The expected claims matrix of HDDS-17575, as data. Every cell is checked by a test; the
//! loom cells' `executions` are pinned (a change means the model changed: review, re-pin).

use super::{
    re_elected_with_the_entry_queued, reproduce, undisturbed, Fix, LeaderReady, ReadyGuard,
    TermSource, CANDIDACY_BEFORE_TERM_READ, CHANGES_AFTER_TERM_READ, CHANGES_BEFORE_TERM_READ,
    IMPROVED, O1, O2, PROPOSED, R1, R2, STEP_DOWN_DURING_CALLBACK,
};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};
use crate::switches::Switch;

const STEP_DOWN: &Scenario<LeaderReady> = &STEP_DOWN_DURING_CALLBACK;
const AFTER_READ: &Scenario<LeaderReady> = &CHANGES_AFTER_TERM_READ;
const BEFORE_READ: &Scenario<LeaderReady> = &CHANGES_BEFORE_TERM_READ;
const CANDIDACY: &Scenario<LeaderReady> = &CANDIDACY_BEFORE_TERM_READ;

pub const CLAIMS: Claims<LeaderReady> = Claims {
    cells: &[
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(STEP_DOWN, 18),
            note: "report: a step-down between checkReady and setLeaderReady leaves the follower ready" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::loom(STEP_DOWN, 35).final_states(0xebef_f55a_5798_9a3e),
            note: "P1 alone closes O1: a notify after a refused set recomputes PAUSING (P2 is not needed for O1)" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::loom(STEP_DOWN, 18),
            note: "P2 alone changes nothing: upstream's set always succeeds, so services are always notified" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom(STEP_DOWN, 28).final_states(0xebef_f55a_5798_9a3e),
            note: "report: closed, the set and the step-down are ordered by the SCMContext write lock" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::loom(STEP_DOWN, 28).final_states(0xebef_f55a_5798_9a3e),
            note: "closed as with the patch" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::loom(AFTER_READ, 23),
            note: "report: updateLeaderAndTerm(true, 5) keeps the stale flag; the re-elected SCM is ready early" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::loom(AFTER_READ, 70).final_states(0x2a75_2028_0f89_27de),
            note: "P1 alone closes O2 (the term check); P2 is not needed for it" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::loom(AFTER_READ, 23),
            note: "P2 alone leaves O2 as upstream" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::loom(AFTER_READ, 39).final_states(0x2a75_2028_0f89_27de),
            note: "report: a step-down plus a new election inside the callback fails the term check; so it does \
                   when the candidacy starts after the read (an earlier start is R2)" },
        Claim { variant: "improved", outcome: &O2, expected: U, method: Method::loom(AFTER_READ, 39).final_states(0x2a75_2028_0f89_27de),
            note: "closed as with the patch" },
        Claim { variant: "P1", outcome: &R1, expected: R, method: Method::loom(BEFORE_READ, 72),
            note: "the window belongs to P1's term read; P2 plays no part in it" },
        Claim { variant: "proposed", outcome: &R1, expected: R, method: Method::loom(BEFORE_READ, 41),
            note: "report admits it (argued, not run): loom confirms that changes before the term read pass the \
                   check; the code needs less than the report says: only the candidacy's start before the read (R2)" },
        Claim { variant: "improved", outcome: &R1, expected: U, method: Method::loom(BEFORE_READ, 39).final_states(0x2a75_2028_0f89_27de),
            note: "the checked entry's term cannot be overtaken: the residual window closes" },
        Claim { variant: "upstream", outcome: &R2, expected: R, method: Method::loom(CANDIDACY, 1),
            note: "upstream sets the flag whatever the term, so the term-5 leader is ready through the \
                   term-4 callback: the state R2 names (upstream reads no term; R2 is where the patch's read would be)" },
        Claim { variant: "P1", outcome: &R2, expected: R, method: Method::loom(CANDIDACY, 10),
            note: "P1 alone leaves it: the read at the callback start returns 5, which ServerState.initElection \
                   set one vote round trip before changeToLeader; setLeaderReady(5) passes once notifyLeaderChanged ran" },
        Claim { variant: "proposed", outcome: &R2, expected: R, method: Method::loom(CANDIDACY, 2),
            note: "R1 needs only the step-down and the start of the candidacy \
                   (initElection) before the term read; the win (changeToLeader, notifyLeaderChanged) lands \
                   during the flush and setLeaderReady(5) passes. Wider than the report's 'step down and \
                   re-election both before the read'" },
        Claim { variant: "improved", outcome: &R2, expected: U, method: Method::loom(CANDIDACY, 4).final_states(0x2a75_2028_0f89_27de),
            note: "the checked entry's term (4) is not the one a later candidacy enters: closed (twin: proposed)" },
        Claim { variant: "upstream", outcome: &R1, expected: R, method: Method::loom(CANDIDACY, 1),
            note: "upstream sets the flag whatever the term, so a candidacy started before the callback and won during it leaves the term-5 leader ready through the term-4 callback: R1's state (through its R2 part). At step-down-and-re-election-after-check loom does not find it for upstream: upstream's callback start reads nothing synchronized, so loom runs it before Ratis' steps; every order of whole steps does find it there (unit test upstream_reaches_r1_where_the_term_read_would_be)" },
        Claim { variant: "P2", outcome: &R1, expected: R, method: Method::loom(CANDIDACY, 1),
            note: "P2 alone notifies only when the flag was set, and upstream's set always succeeds: R1 as upstream" },
        Claim { variant: "P2", outcome: &R2, expected: R, method: Method::loom(CANDIDACY, 1),
            note: "P2 alone: R2 as upstream (the unconditional set passes whatever the term)" },
        // J cells: the replays on Ozone 2.2.0's real SCMStateMachine, SCMContext and services
        // (conformance/ozone, ReplayLeaderReady{O1,R1,R2}Test), each order on every row with the
        // parts as advice (racelab.fix.leaderready). A J "not reached" is about that order, on
        // those classes, with that rendering of the parts (P1's term in a ThreadLocal, since
        // 2.2.0's setLeaderReady takes none): evidence, not a proof of unreachability. Each
        // order was also replayed on the model for all five variants (xtask replay; the steps
        // are in DESIGN-NOTES.md), which gives the verdicts claimed here. 2.2.0 has no flush or
        // reload in notifyLeaderReady (LR_P3): the holds sit at its first call instead.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::real("LR_O1"),
            note: "the step-down while the term-4 callback is held after its start, before setLeaderReady: the follower ends isLeader=false isLeaderReady=true, ReplicationManager and SCMBlockDeletingService shouldRun() true" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::real("LR_O1"),
            note: "the set is refused (isLeader=false) and the services notified after it compute PAUSING, as the model's P1/O1" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::real("LR_O1"),
            note: "P2 alone: upstream's set always sets, so the services are notified: as upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::real("LR_O1"),
            note: "the set is refused and the services are not notified: the follower stays not ready, both shouldRun() false (the report's patched result)" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::real("LR_O1"),
            note: "as proposed (the checked entry's term is 4, the context a follower)" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::real("LR_O1"),
            note: "the same run, then elected in term 5 through the real notifyLeaderChanged: leader of term 5 and leader-ready before any term-5 notifyLeaderReady (the report's second observation). The model's O2 counterexample re-elects during the callback; this order re-elects after it, which the model also classifies O2 (Ratis entered term 5 after the setting callback started)" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::real("LR_O1"),
            note: "no flag was set on the follower, so the election finds it false" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::real("LR_O1"),
            note: "as upstream" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::real("LR_O1"),
            note: "as P1" },
        Claim { variant: "improved", outcome: &O2, expected: U, method: Method::real("LR_O1"),
            note: "as P1" },
        Claim { variant: "upstream", outcome: &R1, expected: R, method: Method::real("LR_R1"),
            note: "step-down, candidacy and win all before the term-4 callback starts: the unconditional set makes the term-5 leader ready (the steps checker's upstream R1 at this scenario; loom finds it only at candidacy-before-term-read)" },
        Claim { variant: "P1", outcome: &R1, expected: R, method: Method::real("LR_R1"),
            note: "the read at the callback's start sees Ratis' term 5 and the context is leader of 5: the set passes" },
        Claim { variant: "P2", outcome: &R1, expected: R, method: Method::real("LR_R1"),
            note: "as upstream" },
        Claim { variant: "proposed", outcome: &R1, expected: R, method: Method::real("LR_R1"),
            note: "the report's residual, run on the real classes: setLeaderReady(5) passes for the term-4 startup entry" },
        Claim { variant: "improved", outcome: &R1, expected: U, method: Method::real("LR_R1"),
            note: "the term kept from notifyConfigurationChanged of the term-4 startup entry (4) is not the context's (5): refused, services not notified" },
        Claim { variant: "upstream", outcome: &R2, expected: R, method: Method::real("LR_R2"),
            note: "step-down and candidacy before the callback's start, the win while it is held before setLeaderReady: the unconditional set makes the term-5 leader ready" },
        Claim { variant: "P1", outcome: &R2, expected: R, method: Method::real("LR_R2"),
            note: "the read at the start sees 5 (initElection had run); the win lands before the set, which passes" },
        Claim { variant: "P2", outcome: &R2, expected: R, method: Method::real("LR_R2"),
            note: "as upstream" },
        Claim { variant: "proposed", outcome: &R2, expected: R, method: Method::real("LR_R2"),
            note: "the residual wider than the report's wording, run on the real classes: the win need not precede the read" },
        Claim { variant: "improved", outcome: &R2, expected: U, method: Method::real("LR_R2"),
            note: "the checked entry's term (4) is refused in term 5" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Proptest { cases: 256 },
            note: "long histories of elections, step-downs and callbacks reach O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history reaches O1 with the patch" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::Proptest { cases: 256 },
            note: "long histories reach O2 upstream" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history reaches O2 with the patch (histories through R1 are told apart)" },
        Claim { variant: "proposed", outcome: &R1, expected: R, method: Method::Proptest { cases: 512 },
            note: "the generator reaches the residual window and the test names it R1" },
        Claim { variant: "improved", outcome: &R1, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history reaches R1 with the improved fix" },
        Claim { variant: "proposed", outcome: &R2, expected: R, method: Method::Proptest { cases: 512 },
            note: "long histories reach R2 too: a candidacy before the callback's read, its win during the callback" },
        Claim { variant: "improved", outcome: &R2, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no history reaches R2 with the improved fix" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Quickcheck { tests: 2000 },
            note: "quickcheck over random schedules finds O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::Quickcheck { tests: 2000 },
            note: "quickcheck finds no O1 with the patch" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::FuzzReplay,
            note: "the committed corpus and regressions reach O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::FuzzReplay,
            note: "no corpus input reaches O1 with the patch" },
    ],
    reproductions: &[
        Reproduction {
            what: "upstream: first election, held inside notifyLeaderReady",
            expected: "isLeader=true isLeaderReady=false",
            observe: || reproduce(Fix::UPSTREAM).0,
        },
        Reproduction {
            what: "upstream: after the step-down",
            expected: "isLeader=false isLeaderReady=true ReplicationManager.shouldRun=true SCMBlockDeletingService.shouldRun=true",
            observe: || reproduce(Fix::UPSTREAM).1,
        },
        Reproduction {
            what: "upstream: re-elected, inside notifyLeaderReady",
            expected: "isLeader=true isLeaderReady=true",
            observe: || reproduce(Fix::UPSTREAM).2,
        },
        Reproduction {
            what: "proposed: no leadership change while notifyLeaderReady runs",
            expected: "isLeader=true isLeaderReady=true ReplicationManager.shouldRun=true SCMBlockDeletingService.shouldRun=true",
            observe: || undisturbed(LeaderReady::fix(PROPOSED)),
        },
        Reproduction {
            what: "improved: no leadership change while notifyLeaderReady runs",
            expected: "isLeader=true isLeaderReady=true ReplicationManager.shouldRun=true SCMBlockDeletingService.shouldRun=true",
            observe: || undisturbed(LeaderReady::fix(IMPROVED)),
        },
        Reproduction {
            what: "proposed: re-elected, the new term's startup entry queued before the win",
            expected: "isLeader=true isLeaderReady=true ReplicationManager.shouldRun=true SCMBlockDeletingService.shouldRun=true",
            observe: || re_elected_with_the_entry_queued(LeaderReady::fix(PROPOSED)),
        },
        Reproduction {
            what: "proposed: after the step-down",
            expected: "isLeader=false isLeaderReady=false ReplicationManager.shouldRun=false SCMBlockDeletingService.shouldRun=false",
            observe: || reproduce(LeaderReady::fix(PROPOSED)).1,
        },
        Reproduction {
            what: "proposed: re-elected, inside notifyLeaderReady",
            expected: "isLeader=true isLeaderReady=false",
            observe: || reproduce(LeaderReady::fix(PROPOSED)).2,
        },
    ],
    mutants: &[
        Mutant {
            name: "P1 without the term check",
            variant: "proposed",
            mutate: |fix| Fix { guard: Switch::new(ReadyGuard::LeaderOnly), ..fix },
            caught_by: &O2,
            caught_at: None,
            inside_a_step: false,
            about: "setLeaderReady checks isLeader but not the term: a re-election inside the callback passes",
        },
        Mutant {
            name: "P1 checking apart from the set",
            variant: "proposed",
            mutate: |fix| Fix { guard: Switch::new(ReadyGuard::CheckedApart), ..fix },
            caught_by: &O1,
            caught_at: None,
            inside_a_step: true,
            about: "setLeaderReady checks leadership of the term under the read lock and sets the flag \
                    under the write lock, two sections: a step-down between them leaves the flag set on a \
                    follower (O1's path: the two mutants above drop a check and are caught at O2, since a \
                    step-down sets SCMContext's term to 0 and either check alone refuses a follower)",
        },
        Mutant {
            name: "P1 reading the term at setLeaderReady",
            variant: "proposed",
            mutate: |fix| Fix { term: Switch::new(TermSource::RatisAtSet), ..fix },
            caught_by: &O2,
            caught_at: None,
            inside_a_step: false,
            about: "the term is read when the flag is set, not when the callback starts: a re-election \
                    during the flush passes the check; the window is the callback's start, so it is O2, not R1",
        },
        Mutant {
            name: "improved reading SCMContext's term",
            variant: "improved",
            mutate: |fix| Fix { term: Switch::new(TermSource::ContextAtCallbackStart), ..fix },
            caught_by: &R1,
            caught_at: None,
            inside_a_step: false,
            about: "the callback takes SCMContext.getTermOfLeader() at its start instead of the checked \
                    entry's term: it lags Ratis' term until notifyLeaderChanged, so a candidacy that \
                    wins during the flush is refused, but a win before the read still passes",
        },
    ],
};
