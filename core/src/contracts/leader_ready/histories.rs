//! Long histories of HDDS-17575 (leader-ready): elections, step-downs and startup-entry callbacks, interleaved
//! step by step on the single Ratis thread and the single apply thread.

use super::state_machine::{Change, LeaderReadyCallback, RatisThread};
use super::{Fix, LeaderReady, World, PROPOSED};
use crate::drive::Driver;
use crate::histories::{byte, reaches_only, Codec, Histories, OpForm, Plan, Regression};
use crate::model::Model;
use crate::trace::Trace;
use arbitrary::Unstructured;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use std::ops::Range;

/// One operation of a history. Byte format (one byte each): `b % 4` is the kind: 0 `Elect`,
/// 1 `StepDown` (`StepDownForHigherTerm` when bit 2 is set), 2 `ApplyStartupEntry`,
/// 3 `Step(b >> 2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// This SCM runs for the next term and wins it (queued on the Ratis thread, three steps:
    /// `initElection`, `changeToLeader`, `notifyLeaderChanged`).
    Elect,
    /// Ratis steps this SCM down, keeping the term (queued on the Ratis thread).
    StepDown,
    /// Ratis steps this SCM down for another candidate's higher term, as in a leadership
    /// transfer (queued on the Ratis thread).
    StepDownForHigherTerm,
    /// The apply thread reaches the current term's startup entry (queued on the apply thread).
    ApplyStartupEntry,
    /// One step of the `n`-th actor that can step.
    Step(u8),
}

impl Codec for Op {
    fn decode(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        let b = byte(u);
        Ok(match b % 4 {
            0 => Op::Elect,
            1 if b & 4 == 0 => Op::StepDown,
            1 => Op::StepDownForHigherTerm,
            2 => Op::ApplyStartupEntry,
            _ => Op::Step(b >> 2),
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(match *self {
            Op::Elect => 0,
            Op::StepDown => 1,
            Op::StepDownForHigherTerm => 5,
            Op::ApplyStartupEntry => 2,
            Op::Step(n) => 3 | (n.min(63) << 2),
        });
    }
}

/// What Ratis has been asked to do: the reference state of the generator, and the filter that
/// makes any decoded byte string a valid history (an operation it does not allow is skipped).
#[derive(Clone, Copy, Debug, Default)]
pub struct Intent {
    pub leader: bool,
    pub term: u64,
    pub applied: bool,
}

impl Plan for Intent {
    type Op = Op;

    /// The SCM starts as leader of term 4, before its startup entry is applied.
    fn start() -> Intent {
        Intent {
            leader: true,
            term: 4,
            applied: false,
        }
    }

    fn allows(&self, op: &Op) -> bool {
        match op {
            Op::Elect => !self.leader,
            Op::StepDown | Op::StepDownForHigherTerm => self.leader,
            Op::ApplyStartupEntry => self.leader && !self.applied,
            Op::Step(_) => true,
        }
    }

    fn update(&mut self, op: &Op) {
        match op {
            Op::Elect => {
                self.leader = true;
                self.term += 1;
                self.applied = false;
            }
            Op::StepDown => self.leader = false,
            Op::StepDownForHigherTerm => {
                self.leader = false;
                self.term += 1;
            }
            Op::ApplyStartupEntry => self.applied = true,
            Op::Step(_) => {}
        }
    }
}

impl Histories for LeaderReady {
    type Op = Op;
    type Plan = Intent;

    fn start(fix: Fix, _trace: &Trace) -> World {
        World::leader_of(fix, Intent::start().term)
    }

    fn apply(d: &mut Driver<LeaderReady>, intent: &mut Intent, op: &Op) -> bool {
        intent.update(op);
        let trace = d.trace.clone();
        match *op {
            Op::Elect => d.spawn(Box::new(RatisThread::new(
                &trace,
                &[Change::Elected(intent.term)],
            ))),
            Op::StepDown => d.spawn(Box::new(RatisThread::new(&trace, &[Change::StepDown]))),
            Op::StepDownForHigherTerm => d.spawn(Box::new(RatisThread::new(
                &trace,
                &[Change::StepDownTo(intent.term)],
            ))),
            Op::ApplyStartupEntry => {
                d.spawn(Box::new(LeaderReadyCallback::new(&trace, intent.term)))
            }
            Op::Step(n) => {
                d.step(n.into());
            }
        }
        true
    }

    fn transitions(s: &Intent) -> BoxedStrategy<Op> {
        let change = if s.leader {
            prop_oneof![Just(Op::StepDown), Just(Op::StepDownForHigherTerm)].boxed()
        } else {
            Just(Op::Elect).boxed()
        };
        if s.leader && !s.applied {
            prop_oneof![
                2 => change,
                2 => Just(Op::ApplyStartupEntry),
                8 => (0u8..64).prop_map(Op::Step),
            ]
            .boxed()
        } else {
            prop_oneof![2 => change, 8 => (0u8..64).prop_map(Op::Step)].boxed()
        }
    }

    const LENGTHS: Range<usize> = 1..64;

    const SYNTAX: &'static [OpForm<Op>] = &[
        OpForm::new("elect", &[], |_| Op::Elect),
        OpForm::new("step-down", &[], |_| Op::StepDown),
        OpForm::new("step-down-for-higher-term", &[], |_| {
            Op::StepDownForHigherTerm
        }),
        OpForm::new("apply-startup-entry", &[], |_| Op::ApplyStartupEntry),
    ];

    /// The proposed fix reaches no outcome but the admitted residual window R1 (R2 is part of it).
    fn fix_property(ops: &[Op]) -> Result<(), String> {
        reaches_only::<LeaderReady>(LeaderReady::fix(PROPOSED), &["R1", "R2"], ops)
    }

    const FIX_PROPERTY_CASES: u32 = 4096;
    const REGRESSIONS: &'static [Regression<Op>] = REGRESSIONS;
}

use Op::{ApplyStartupEntry as Apply, Elect, Step, StepDown};

/// Shrunk counterexamples (proptest), each a committed fuzz regression.
const REGRESSIONS: &[Regression<Op>] = &[
    Regression {
        name: "step-down-before-set",
        postmortem: "proptest, upstream O1, shrunk to 5 operations: the apply thread passes \
            `checkReady` for term 4; the step-down's `updateLeaderAndTerm(false, 0)` clears a flag \
            that is not set yet; then `setLeaderReady` sets it unconditionally and \
            `notifyStatusChanged` turns both services RUNNING on a follower, and the Ratis \
            thread's own notification, running last, reads the stale flag too. P1 refuses the set.",
        ops: &[Apply, Step(0), StepDown, Step(43), Step(11)],
        found: ("upstream", "O1", "follower is leader-ready"),
        reaches: &[("proposed", &[])],
    },
    Regression {
        name: "stale-flag-survives-re-election",
        postmortem: "proptest, upstream O2, 6 operations: as above the follower keeps the flag; \
            the re-election's `updateLeaderAndTerm(true, 5)` does not touch it, so the SCM leads \
            term 5 ready before term 5's startup entry is applied. P1 refuses the set in the \
            first place.",
        ops: &[Apply, Step(0), StepDown, Elect, Step(19), Step(43)],
        found: ("upstream", "O2", "term=5 isLeaderReady=true"),
        reaches: &[("proposed", &[])],
    },
    Regression {
        name: "residual-re-election-before-term-read",
        postmortem: "proposed R1 as the report words it. Found by proptest (16 operations) \
            when the election was one step; written again by hand, minimal, after the election \
            was split into its candidacy and its win. Ratis checks the term-4 startup entry, \
            then steps down, runs for term 5 and wins it, all before `notifyLeaderReady` reads \
            the current term; the callback reads 5, `setLeaderReady(5)` passes, and term 5 is \
            ready before its own startup entry. Taking the checked entry's term (improved) \
            refuses it.",
        ops: &[
            Apply,
            Step(0),
            StepDown,
            Step(1),
            Step(1),
            Step(1),
            Elect,
            Step(1),
            Step(1),
            Step(1),
        ],
        found: (
            "proposed",
            "R1",
            "term=5 isLeaderReady=true, set by the notifyLeaderReady of the term-4",
        ),
        reaches: &[("improved", &[])],
    },
    Regression {
        name: "residual-win-during-flush",
        postmortem: "proposed R2, by hand, the part of R1 wider than the report's wording \
            (the proptest cell finds the same shape in longer histories). Ratis checks the \
            term-4 startup entry, steps down and starts its candidacy for term 5 \
            (`ServerState.initElection`); `notifyLeaderReady` starts and reads 5; the win \
            (`changeToLeader`, `notifyLeaderChanged`) lands during the flush, and \
            `setLeaderReady(5)` passes. The re-election had not finished when the term was \
            read. Improved refuses it; so does reading SCMContext's term (the mutant), which \
            is still 0 then.",
        ops: &[
            Apply,
            Step(0),
            StepDown,
            Step(1),
            Step(1),
            Step(1),
            Elect,
            Step(1),
            Step(0),
            Step(0),
            Step(1),
            Step(1),
        ],
        found: ("proposed", "R2", "started in Ratis term 5 (last won: 4)"),
        reaches: &[("improved", &[])],
    },
];
