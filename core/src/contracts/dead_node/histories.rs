//! Long histories of HDDS-17067 (Recon): three datanodes holding overlapping containers that
//! stop, heartbeat and register again (some with a new address), health-check ticks, the DEAD_NODE
//! and container-report threads running what is queued, and reloads of Recon's node table, all
//! interleaved step by step.
//!
//! Recon, because it has every mechanism of the report: the shared `SCMNodeManager` code, the
//! re-register answer after a heartbeat gap and the node table reload. The SCM-only difference
//! (a heartbeat after an outage refreshes the heartbeat time directly) is in the loom cells.

use super::containers::ContainerReportHandler;
use super::datanode::{Datanode, DnAction};
use super::dead_node_handler::{DeadNodeHandler, Source};
use super::health_checker::HealthChecker;
use super::recon::ReconReload;
use super::{ContainerId, DeadNode, Fix, NodeId, Service, World, PROPOSED};
use crate::drive::Driver;
use crate::histories::{byte, run, Codec, Histories, OpForm, Plan as _, Regression, Word};
use crate::model::{Model, Program};
use crate::trace::Trace;
use arbitrary::Unstructured;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use std::ops::Range;

/// The datanodes and what they hold: every container has replicas on two of them but
/// container 1's second copy is dn3's, so a lost replica shows as a count, and container 4 has
/// only dn1's (a MISSING container when dn1's replica goes).
pub const HOLDINGS: &[(NodeId, &[ContainerId])] = &[(1, &[1, 2, 4]), (2, &[2, 3]), (3, &[3, 1])];
pub use super::NODES;

/// One operation of a history. Byte format (one byte each): `b % 16` is the kind: 0
/// `Heartbeat`, 1 `Register`, 2 `RegisterAtNewAddress`, 3 `Stop`, 4 to 7 `Tick` (a node goes
/// DEAD only after seven ticks without a heartbeat, so random bytes need many), 8
/// `HandleDeadNodes`, 9 `HandleReports`, 10 `Reload`, 11 to 15 `Step(b >> 4)` (random bytes need
/// many steps to interleave the programs the other operations start); a datanode operation
/// names datanode `(b >> 4) % 3 + 1`. `TickInSteps` is for scenario files only: no byte
/// decodes to it and the generator never makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The datanode heartbeats (Recon answers `ReregisterCommand` after a gap).
    Heartbeat(NodeId),
    /// The datanode registers (a restart, or the answer to `ReregisterCommand`); its full
    /// report is queued for its report thread.
    Register(NodeId),
    /// The datanode registers with a changed address: `updateNode` replaces its `DatanodeInfo`.
    RegisterAtNewAddress(NodeId),
    /// The datanode stops (or is cut off).
    Stop(NodeId),
    /// The health checker's next run (one tick of the clock).
    Tick,
    /// The same run as a program that a scenario file steps section by section (`step
    /// HB-checker`), so that a registration or heartbeat can land inside it (O6, O7). The
    /// histories keep to whole runs, whose inner windows are loom's (see `apply`).
    TickInSteps,
    /// The DEAD_NODE thread handles what is queued.
    HandleDeadNodes,
    /// The datanode's report thread applies what is queued.
    HandleReports(NodeId),
    /// Recon swaps in an SCM DB snapshot and reloads its node table.
    Reload,
    /// One step of the `n`-th actor that can step.
    Step(u8),
}

fn node_of(b: u8) -> NodeId {
    (b >> 4) % 3 + 1
}

fn node_bits(n: NodeId) -> u8 {
    (n.clamp(1, 3) - 1) << 4
}

impl Codec for Op {
    fn decode(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        let b = byte(u);
        Ok(match b % 16 {
            0 => Op::Heartbeat(node_of(b)),
            1 => Op::Register(node_of(b)),
            2 => Op::RegisterAtNewAddress(node_of(b)),
            3 => Op::Stop(node_of(b)),
            4..=7 => Op::Tick,
            8 => Op::HandleDeadNodes,
            9 => Op::HandleReports(node_of(b)),
            10 => Op::Reload,
            _ => Op::Step(b >> 4),
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(match *self {
            Op::Heartbeat(n) => node_bits(n),
            Op::Register(n) => 1 | node_bits(n),
            Op::RegisterAtNewAddress(n) => 2 | node_bits(n),
            Op::Stop(n) => 3 | node_bits(n),
            // Not in the byte format (nothing decodes to it): written as the run it is when
            // nothing steps in between.
            Op::Tick | Op::TickInSteps => 4,
            Op::HandleDeadNodes => 8,
            Op::HandleReports(n) => 9 | node_bits(n),
            Op::Reload => 10,
            Op::Step(n) => 11 | (n.min(15) << 4),
        });
    }
}

/// What the datanodes have been asked to do: the reference state of the generator, and the
/// filter that makes any decoded byte string a valid history.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan {
    /// Whether each datanode (index `n - 1`) runs.
    pub up: [bool; 3],
    /// Each datanode's current address (flipped by `RegisterAtNewAddress`).
    pub address: [u8; 3],
}

impl crate::histories::Plan for Plan {
    type Op = Op;

    /// Every datanode runs, registered at address 0.
    fn start() -> Plan {
        Plan {
            up: [true; 3],
            address: [0; 3],
        }
    }

    fn allows(&self, op: &Op) -> bool {
        // Datanode 0 wraps to an index past the end: no datanode.
        let up = |n: NodeId| self.up.get(usize::from(n.wrapping_sub(1))) == Some(&true);
        match *op {
            Op::Heartbeat(n) | Op::Stop(n) => up(n),
            Op::Register(n) | Op::RegisterAtNewAddress(n) | Op::HandleReports(n) => {
                (1..=3).contains(&n)
            }
            Op::Tick | Op::TickInSteps | Op::HandleDeadNodes | Op::Reload | Op::Step(_) => true,
        }
    }

    fn update(&mut self, op: &Op) {
        match *op {
            Op::Register(n) => self.up[usize::from(n - 1)] = true,
            Op::RegisterAtNewAddress(n) => {
                let i = usize::from(n - 1);
                self.up[i] = true;
                self.address[i] ^= 1;
            }
            Op::Stop(n) => self.up[usize::from(n - 1)] = false,
            _ => {}
        }
    }
}

impl Histories for DeadNode {
    type Op = Op;
    type Plan = Plan;

    fn start(fix: Fix, _trace: &Trace) -> World {
        // No producer is waited for: each handler program runs what is queued, then ends.
        // dn3 is behind NAT: after it registers again, its node table row differs from memory.
        World::behind_nat(fix, Service::Recon, HOLDINGS, 0, 0, &[3])
    }

    fn transitions(s: &Plan) -> BoxedStrategy<Op> {
        let up: Vec<NodeId> = NODES
            .iter()
            .copied()
            .filter(|&n| s.up[usize::from(n - 1)])
            .collect();
        let node = proptest::sample::select(NODES.to_vec());
        let (heartbeat, stop) = if up.is_empty() {
            (Just(Op::Tick).boxed(), Just(Op::Tick).boxed())
        } else {
            (
                proptest::sample::select(up.clone())
                    .prop_map(Op::Heartbeat)
                    .boxed(),
                proptest::sample::select(up).prop_map(Op::Stop).boxed(),
            )
        };
        prop_oneof![
            2 => heartbeat,
            2 => node.clone().prop_map(Op::Register),
            3 => node.clone().prop_map(Op::RegisterAtNewAddress),
            1 => stop,
            8 => Just(Op::Tick),
            2 => Just(Op::HandleDeadNodes),
            4 => node.prop_map(Op::HandleReports),
            1 => Just(Op::Reload),
            24 => (0u8..16).prop_map(Op::Step),
        ]
        .boxed()
    }

    fn apply(d: &mut Driver<DeadNode>, plan: &mut Plan, op: &Op) -> bool {
        // `checkNodesHealth` is synchronized and runs on one scheduled thread: no run starts
        // while a scenario's stepped run has sections left.
        if matches!(op, Op::Tick | Op::TickInSteps) && d.is_running(HealthChecker::ACTOR) {
            return false;
        }
        plan.update(op);
        let trace = &d.trace;
        let address = |n: NodeId| plan.address[usize::from(n - 1)];
        let program: Box<dyn Program<World>> = match *op {
            Op::Heartbeat(n) => Box::new(Datanode::new(trace, n, &[DnAction::Heartbeat])),
            Op::Register(n) | Op::RegisterAtNewAddress(n) => {
                let register = DnAction::Register {
                    address: address(n),
                };
                Box::new(Datanode::new(trace, n, &[register]))
            }
            Op::Stop(n) => Box::new(Datanode::new(trace, n, &[DnAction::Stop])),
            Op::Tick => {
                // A whole run at once: its per-node updates are independent of one another. A
                // registration or heartbeat landing inside a run (between a node's deadline test
                // and its write) is a window of its own, O6 and O7, short-lived and checked by
                // loom in its steps; the histories keep to whole runs, where such a call has the
                // effect it has just before or after the run.
                // The checker never blocks (it takes no lock across steps and waits for
                // nothing), so it runs to its end here, as stepping it by name in the driver
                // would (`run_whole`: the same sections, without dispatching each); the first
                // is started in the driver finished, so that the driver knows its actor (a
                // finished program tells the driver nothing else).
                let mut checker = HealthChecker::new(trace, 1, false);
                checker.run_whole(&d.world);
                if d.knows_actor(HealthChecker::ACTOR) {
                    return true;
                }
                Box::new(checker)
            }
            Op::TickInSteps => Box::new(HealthChecker::new(trace, 1, false)),
            Op::HandleDeadNodes => Box::new(DeadNodeHandler::new(trace, Source::Queue)),
            Op::HandleReports(n) => Box::new(ContainerReportHandler::new(trace, n)),
            Op::Reload => Box::new(ReconReload::new(trace)),
            Op::Step(n) => {
                d.step(n.into());
                return true;
            }
        };
        d.spawn(program);
        true
    }

    const LENGTHS: Range<usize> = 1..128;

    const SYNTAX: &'static [OpForm<Op>] = &[
        OpForm::new("heartbeat", &[DN], |v| Op::Heartbeat(v[0])),
        OpForm::new("register", &[DN], |v| Op::Register(v[0])),
        OpForm::new("register-at-new-address", &[DN], |v| {
            Op::RegisterAtNewAddress(v[0])
        }),
        OpForm::new("stop", &[DN], |v| Op::Stop(v[0])),
        OpForm::new("tick", &[], |_| Op::Tick),
        OpForm::new("tick-in-steps", &[], |_| Op::TickInSteps),
        OpForm::new("handle-dead-nodes", &[], |_| Op::HandleDeadNodes),
        OpForm::new("handle-reports", &[DN], |v| Op::HandleReports(v[0])),
        OpForm::new("reload", &[], |_| Op::Reload),
    ];

    /// The proposed fix reaches no outcome but the residual windows R1, R2 and R3, and O5 (a
    /// live node's replica lost) only together with R1 or R3, the windows that explain it.
    fn fix_property(ops: &[Op]) -> Result<(), String> {
        fix_property_of(DeadNode::fix(PROPOSED), ops)
    }

    const FIX_PROPERTY_CASES: u32 = 2048;
    const REGRESSIONS: &'static [Regression<Op>] = REGRESSIONS;
}

/// A datanode in a scenario file: `dn1` (or `1`) to `dn3`.
const DN: Word = Word::Value("DN", |w| {
    match w.strip_prefix("dn").unwrap_or(w).parse::<u8>() {
        Ok(n) if (1..=3).contains(&n) => Ok(n),
        _ => Err(format!("`{w}` is not a datanode: dn1, dn2 or dn3")),
    }
});

/// The outcomes the proposed fix leaves open: the residual windows, each named by its witness,
/// and O5, the state two of them leave.
pub const RESIDUAL: [&str; 4] = ["R1", "R2", "R3", "O5"];

/// [`Histories::fix_property`] under `fix` (the proposed one, or a mutant of it).
fn fix_property_of(fix: Fix, ops: &[Op]) -> Result<(), String> {
    let found = run::<DeadNode>(fix, ops);
    let explained = found.iter().any(|v| ["R1", "R3"].contains(&v.outcome));
    match found
        .iter()
        .find(|v| !RESIDUAL.contains(&v.outcome) || (v.outcome == "O5" && !explained))
    {
        Some(v) => Err(format!(
            "{}: {}\nhistory: {ops:?}\n{}",
            v.outcome, v.witness, v.timeline
        )),
        None => Ok(()),
    }
}

use Op::{
    HandleDeadNodes as Dnh, HandleReports as Reports, Register, RegisterAtNewAddress, Reload, Step,
    Stop, Tick,
};

/// Shrunk counterexamples, each a committed fuzz regression. `Tick` ×7 is the outage that takes
/// every datanode DEAD at t=7.
const REGRESSIONS: &[Regression<Op>] = &[
    Regression {
        name: "registers-while-dead-and-stops",
        postmortem: "quickcheck, upstream O1, shrunk to 11 operations: dn1 registers at t=2 (its \
            registration refreshes nothing) and the DEAD_NODE handler removes its replicas at t=7; \
            the registration's report, queued on its report thread, is applied only after dn1 \
            stopped again. dn1 stays DEAD with replicas for good: no check resurrects it and \
            DEAD_NODE never fires again; container 1 counts the replica on a dead node. With P1 \
            the registration's heartbeat time puts dn1's DEAD at t=9, after its report.",
        ops: &[
            Tick,
            Tick,
            Register(1),
            Dnh,
            Tick,
            Tick,
            Stop(1),
            Tick,
            Tick,
            Tick,
            Reports(1),
        ],
        found: ("upstream", "O1", "dn1 DEAD since t=7, stopped"),
        reaches: &[("proposed", &[])],
    },
    Regression {
        name: "declared-dead-after-registering",
        postmortem: "proptest, upstream O2, 10 operations: dn1 registers at t=4, while STALE; the \
            check at t=7 still uses its heartbeat time 0 and declares it DEAD, although it \
            registered three ticks before, and the handler removes its replicas. P1 keeps dn1 \
            alive until t=11.",
        ops: &[
            Register(1),
            Tick,
            Tick,
            Tick,
            Dnh,
            Tick,
            Step(0),
            Tick,
            Tick,
            Tick,
        ],
        found: ("upstream", "O2", "registered within the dead interval"),
        reaches: &[("proposed", &[])],
    },
    Regression {
        name: "handler-after-the-registration-report",
        postmortem: "proptest, upstream O3, 10 operations: all three datanodes go DEAD at t=7 and \
            their DEAD_NODE events wait for the handler thread; dn3 registers again and its report \
            is applied first; the handler then reads DEAD (no check has run) and removes the \
            replicas the report just re-added: container 1 is MISSING. The patch's recheck under \
            the monitor still sees DEAD, but P1 has refreshed the heartbeat time: that removal is \
            the residual R1.",
        ops: &[
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Register(3),
            Reports(3),
            Dnh,
            Tick,
        ],
        found: ("upstream", "O3", "replica on dn3 removed"),
        reaches: &[("proposed", &["O5", "R1"]), ("improved", &[])],
    },
    Regression {
        name: "residual-recheck-before-the-next-check",
        postmortem: "proptest, proposed R1, 10 operations: the residual window the report admits. \
            dn1 registers at t=7 (P1 refreshes its heartbeat time) and its report is applied; the \
            handler's recheck under the monitor comes before the next health check, still sees \
            DEAD and removes the report's replicas. The improved fix (P4) sees the heartbeat time \
            within the stale deadline and keeps them; the check at t=8 resurrects dn1.",
        ops: &[
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Register(1),
            Reports(1),
            Dnh,
        ],
        found: ("proposed", "R1", "no health check had run since"),
        reaches: &[("proposed", &["O5", "R1"]), ("improved", &[])],
    },
    Regression {
        name: "residual-report-queued-past-dead-interval",
        postmortem: "proptest, proposed R2, 12 operations: the other window the report admits. \
            dn1 registers at t=0 and its report waits in its report thread's queue while dn1 stops \
            and goes DEAD at t=7 (its registration's heartbeat time is 0 too) and the handler \
            removes its replicas; the late report then re-adds them to a DEAD node for good. Not \
            closed by the improved fix, which acts in the handler.",
        ops: &[
            Register(1),
            Step(5),
            Dnh,
            Tick,
            Tick,
            Tick,
            Tick,
            Stop(1),
            Tick,
            Tick,
            Tick,
            Reports(1),
        ],
        found: ("proposed", "R2", "applied after"),
        reaches: &[("improved", &["R2"])],
    },
    Regression {
        name: "residual-new-address-during-handler",
        postmortem: "found in the code (R3, the shortest schedule, 19 operations; proptest finds \
            longer ones): the handler rechecks dn1 under DatanodeInfo #1's monitor (DEAD); dn1 \
            registers at a new address, `updateNode` replaces the object (#4, HEALTHY, empty \
            container set); the report thread applies the report under #4's monitor, which the \
            handler does not hold; the handler removes the replicas it re-added. Neither the patch \
            nor the improved fix closes it.",
        ops: &[
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Dnh,
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            RegisterAtNewAddress(1),
            Step(1),
            Step(1),
            Reports(1),
            Step(1),
            Step(1),
            Step(1),
        ],
        found: ("proposed", "R3", "the object was replaced"),
        reaches: &[("improved", &["O5", "R3"])],
    },
    Regression {
        name: "reload-revives-dead-node",
        postmortem: "the patch's third part (P3): without it, Recon's reload registers every \
            stored node again; with P1 that refreshes the heartbeat time of DEAD nodes nobody \
            heard from, and the next check resurrects them (`testReinitializeKeepsDeadNodeDead`: \
            \"expected: DEAD but was: HEALTHY\").",
        ops: &[
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Tick,
            Reload,
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Tick,
        ],
        found: ("P1+P2", "O4", "written by Recon's reload"),
        reaches: &[("upstream", &[]), ("proposed", &[])],
    },
];

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::outcome::OutcomeId;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

    /// `tick-in-steps` (scenario files only): no byte decodes to it, and no run of the health
    /// checker starts while a stepped run has sections left (`checkNodesHealth` is
    /// synchronized, on one thread), whole or stepped; once it ends, the next run starts.
    #[test]
    fn a_stepped_run_is_for_scenarios_and_excludes_other_runs() {
        use crate::histories::{decode, Session};
        for b in 0..=u8::MAX {
            assert_ne!(decode::<Op>(&[b]), Some(vec![Op::TickInSteps]), "byte {b}");
        }
        let mut s = Session::<DeadNode>::new(Fix::UPSTREAM);
        assert!(s.apply(&Op::TickInSteps));
        s.driver.step_named(HealthChecker::ACTOR).unwrap();
        assert!(!s.apply(&Tick) && !s.apply(&Op::TickInSteps));
        while s.driver.is_running(HealthChecker::ACTOR) {
            s.driver.step_named(HealthChecker::ACTOR).unwrap();
        }
        assert!(s.apply(&Tick) && s.apply(&Op::TickInSteps));
        // The stepped run at t=1, the whole one at t=2; the next starts at its first step.
        assert_eq!(s.driver.world.clock.now(), 2);
    }

    /// `HealthChecker::run_whole` (the histories' tick) runs the sections stepping the checker
    /// runs, in the same order: after the states of generated histories (programs mid-way
    /// included), one run each way leaves the same timeline, state, ghost and fired events.
    #[test]
    fn a_whole_run_does_what_stepping_the_run_does() {
        use crate::histories::Session;
        let mut runner = TestRunner::new_with_rng(
            Default::default(),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        let strategy = DeadNode::histories();
        for _ in 0..256 {
            let (ops, _) = strategy.new_tree(&mut runner).unwrap().current();
            for fix in [Fix::UPSTREAM, DeadNode::fix(PROPOSED)] {
                let after_a_run = |whole: bool| {
                    let mut s = Session::<DeadNode>::new(fix);
                    for op in &ops {
                        s.apply(op);
                    }
                    let (w, trace) = (&*s.driver.world, &s.driver.trace);
                    let before = trace.events().len();
                    let mut checker = HealthChecker::new(trace, 1, false);
                    if whole {
                        checker.run_whole(w);
                    } else {
                        crate::model::run_alone(&mut checker, w);
                    }
                    assert!(checker.is_done());
                    (
                        trace.events()[before..].to_vec(),
                        DeadNode::describe(w),
                        w.ghost.with(|g| format!("{g:?}")),
                        w.dead_node_events.drain(),
                    )
                };
                let stepped = after_a_run(false);
                assert!(!stepped.0.is_empty());
                assert_eq!(after_a_run(true), stepped, "{ops:?}");
            }
        }
    }

    /// The fall-through mutant of the recheck (`Recheck::UnderMonitorNoReturn`) in the proposed
    /// fix: loom cannot catch it there by state (O5 is open through R1 and R3), so the
    /// histories must, through the window classification (a removal after a recheck that did
    /// not read DEAD is O3's). The first `FIX_PROPERTY_CASES` histories of the gate's seed.
    #[test]
    fn proposed_histories_catch_the_recheck_that_falls_through() {
        let mutant = Fix {
            recheck: crate::switches::Switch::new(super::super::Recheck::UnderMonitorNoReturn),
            ..DeadNode::fix(PROPOSED)
        };
        let mut runner = TestRunner::new_with_rng(
            Default::default(),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        let strategy = DeadNode::histories();
        let (mut broken, mut first) = (0, None::<OutcomeId>);
        for _ in 0..DeadNode::FIX_PROPERTY_CASES {
            let (ops, _) = strategy.new_tree(&mut runner).unwrap().current();
            assert!(
                fix_property_of(DeadNode::fix(PROPOSED), &ops).is_ok(),
                "{ops:?}"
            );
            if let Err(e) = fix_property_of(mutant, &ops) {
                broken += 1;
                first.get_or_insert(if e.starts_with("O3") { "O3" } else { "other" });
            }
        }
        println!("the mutant breaks the fix property in {broken} histories");
        assert!(broken > 0);
        assert_eq!(first, Some("O3"));
    }
}
