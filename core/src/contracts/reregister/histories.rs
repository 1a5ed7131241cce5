//! Long histories of HDFS-17969 on the [`cluster`](super::cluster): the byte codec of its
//! operations, the generator (a reference state machine) and the `Histories` impl.

use super::cluster::{apply, cluster, Op, Plan, Thread, DATANODES, NAMENODES};
use super::{Fix, Reregister, World, PROPOSED};
use crate::drive::Driver;
use crate::histories::{
    byte, reaches_only, sequential, Codec, Generated, Histories, OpForm, Regression, Word,
};
use crate::model::Model;
use crate::trace::Trace;
use arbitrary::Unstructured;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use std::ops::Range;

impl Codec for Op {
    fn decode(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        let b = byte(u);
        let nn = (b >> 4) % 2;
        Ok(match b % 16 {
            0 => match (b >> 4) % 4 {
                0 => Op::Write,
                dn => Op::WriteOne(dn - 1),
            },
            1 => Op::Heartbeats(nn),
            2 => Op::Commands(nn),
            3 => Op::Restart(nn),
            4 => Op::Failover(nn),
            5 => Op::Tick,
            6 => Op::Gap(nn),
            7 | 10 | 11 => Op::Lockstep(Thread::Actor, nn),
            8 | 12 | 13 => Op::Lockstep(Thread::Command, nn),
            9 => Op::Lockstep(Thread::Writer, nn),
            14 => {
                let seed = u32::from_le_bytes([byte(u), byte(u), byte(u), byte(u)]);
                Op::Reregistration { nn, seed }
            }
            _ => Op::Step(b >> 4),
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        if let Op::Reregistration { seed, .. } = *self {
            let arg = |n: u8| (n.min(1)) << 4;
            let Op::Reregistration { nn, .. } = *self else {
                unreachable!()
            };
            out.push(14 | arg(nn));
            out.extend(seed.to_le_bytes());
            return;
        }
        let arg = |n: u8| (n.min(1)) << 4;
        out.push(match *self {
            Op::Write => 0,
            Op::WriteOne(dn) => (dn.min(2) + 1) << 4,
            Op::Heartbeats(n) => 1 | arg(n),
            Op::Commands(n) => 2 | arg(n),
            Op::Restart(n) => 3 | arg(n),
            Op::Failover(n) => 4 | arg(n),
            Op::Tick => 5,
            Op::Gap(n) => 6 | arg(n),
            Op::Lockstep(Thread::Actor, n) => 7 | arg(n),
            Op::Lockstep(Thread::Command, n) => 8 | arg(n),
            Op::Lockstep(Thread::Writer, n) => 9 | arg(n),
            Op::Step(n) => 15 | (n.min(15) << 4),
            Op::Reregistration { .. } => unreachable!("encoded above"),
        });
    }
}

impl Histories for Reregister {
    type Op = Op;
    type Plan = Plan;

    fn start(fix: Fix, trace: &Trace) -> World {
        cluster(fix, trace)
    }

    fn apply(d: &mut Driver<Reregister>, plan: &mut Plan, op: &Op) -> bool {
        apply(d, plan, op)
    }

    /// Most operations go to the NameNode last restarted or cut off (the re-registrations happen
    /// there), and a thread kind is stepped in proportion to the steps its programs have left.
    fn transitions(s: &Plan) -> BoxedStrategy<Op> {
        let focus = s.focus;
        let nn = prop_oneof![4 => Just(focus), 1 => Just(1 - focus)];
        let [a, c, w] = s.expected.map(|e| u32::from(e) + 1);
        let lockstep = prop_oneof![
            a => Just(Op::Lockstep(Thread::Actor, focus)),
            c => Just(Op::Lockstep(Thread::Command, focus)),
            w => Just(Op::Lockstep(Thread::Writer, focus)),
        ];
        prop_oneof![
            1 => Just(Op::Write),
            2 => (0u8..3).prop_map(Op::WriteOne),
            3 => nn.clone().prop_map(Op::Heartbeats),
            3 => nn.clone().prop_map(Op::Commands),
            1 => (0u8..2).prop_map(Op::Restart),
            1 => (0u8..2).prop_map(Op::Failover),
            2 => Just(Op::Tick),
            1 => (0u8..2).prop_map(Op::Gap),
            20 => lockstep,
            2 => (0u8..2).prop_map(|n| Op::Lockstep(Thread::Actor, n)),
            4 => (0u8..16).prop_map(Op::Step),
        ]
        .boxed()
    }

    /// Each history draws its thread-kind weights (swarm testing).
    fn first_plans() -> BoxedStrategy<Plan> {
        [1u8..=8, 1u8..=8, 1u8..=8]
            .prop_map(|swarm| Plan {
                swarm,
                ..Plan::default()
            })
            .boxed()
    }

    const LENGTHS: Range<usize> = 1..96;

    /// Half from the generator, half re-registrations: a restart or a heartbeat gap of one
    /// NameNode and the first heartbeat answered REGISTER, then a random order of what the
    /// DataNodes' threads for it do next (their steps, the command threads started, a
    /// heartbeat, a tick, one block written). The same generator for every variant.
    fn histories() -> BoxedStrategy<Generated<Op>> {
        prop_oneof![
            sequential::<Reregister>(),
            reregistrations().prop_map(|ops| (ops, None)),
        ]
        .boxed()
    }

    const SYNTAX: &'static [OpForm<Op>] = &[
        OpForm::new("write", &[], |_| Op::Write),
        OpForm::new("write", &[DN], |v| Op::WriteOne(v[0])),
        OpForm::new("heartbeats", &[NN], |v| Op::Heartbeats(v[0])),
        OpForm::new("commands", &[NN], |v| Op::Commands(v[0])),
        OpForm::new("restart", &[NN], |v| Op::Restart(v[0])),
        OpForm::new("failover", &[NN], |v| Op::Failover(v[0])),
        OpForm::new("tick", &[], |_| Op::Tick),
        OpForm::new("gap", &[NN], |v| Op::Gap(v[0])),
        OpForm::new("lockstep", &[THREAD, NN], |v| {
            Op::Lockstep(THREADS[usize::from(v[0])], v[1])
        }),
        OpForm::new("lockstep", &[THREAD], |v| {
            Op::Lockstep(THREADS[usize::from(v[0])], 0)
        }),
    ];

    /// The proposed fix reaches no outcome but O8: it keeps the duplicate registration (P3 is
    /// not part of it), which loses nothing with P1 and P2.
    fn fix_property(ops: &[Op]) -> Result<(), String> {
        reaches_only::<Reregister>(Reregister::fix(PROPOSED), &["O8"], ops)
    }

    const FIX_PROPERTY_CASES: u32 = 512;
    const REGRESSIONS: &'static [Regression<Op>] = REGRESSIONS;

    /// This thread's write count ([`super::speed::writes`]): every test checks that no write to
    /// model state goes uncounted.
    fn changes(_world: &super::World) -> Option<u64> {
        Some(super::speed::writes::writes())
    }

    fn known_clear(world: &super::World) -> u64 {
        world.known_clear()
    }

    fn record_clear(world: &super::World, clear: u64) {
        world.record_clear(clear);
    }
}

/// A NameNode, a DataNode and a thread kind in scenario files.
const NN: Word = Word::Value("NN", |w| {
    match w.strip_prefix("nn").unwrap_or(w).parse::<u8>() {
        Ok(n) if usize::from(n) < NAMENODES => Ok(n),
        _ => Err(format!("`{w}` is not a NameNode: nn0 or nn1")),
    }
});
const DN: Word = Word::Value("DN", |w| {
    match w.strip_prefix("dn").and_then(|d| d.parse::<u8>().ok()) {
        Some(d) if usize::from(d) < DATANODES => Ok(d),
        _ => Err(format!("`{w}` is not a DataNode: dn0, dn1 or dn2")),
    }
});
const THREAD: Word = Word::Value("THREAD", |w| match w {
    "actor" => Ok(0),
    "command" => Ok(1),
    "writer" => Ok(2),
    _ => Err(format!(
        "`{w}` is not a thread kind: actor, command or writer"
    )),
});
const THREADS: [Thread; 3] = [Thread::Actor, Thread::Command, Thread::Writer];

/// A re-registration's operations (see [`super::cluster::reregistration`]), listed.
fn reregistrations() -> BoxedStrategy<Vec<Op>> {
    (0u8..2, any::<u32>())
        .prop_map(|(nn, seed)| super::cluster::reregistration(nn, seed))
        .boxed()
}

use Op::{Commands, Gap, Heartbeats, Lockstep, Restart, Tick, Write};
use Thread::{Actor as A, Command as C, Writer as W};

/// The shrunk counterexamples, each a committed fuzz regression.
const REGRESSIONS: &[Regression<Op>] = &[
    Regression {
        name: "report-sequence",
        postmortem: "the report's ten steps on all three holders against nn1 (the corpus input \
            `report-sequence`), shrunk by removing one operation at a time while upstream still \
            reaches O3, with a third writer step (the writer notifies nn0's IBR manager, then \
            nn1's): nn1 restarts, REG1 and REG2 are queued, REG1's FBR \
            snapshot is taken, block 0 is written, REG2 clears it from every pending IBR queue and \
            asks for an FBR that the in-flight FBR's rescheduling overwrites. nn1 locates block 0 \
            nowhere (nn0 does: O9). P1 keeps the request, but nn1 is in startup safe mode and \
            the in-flight FBR, processed after REG2's registerDatanode, was the first: the FBR \
            P1 keeps, which carries block 0, is discarded as non-initial (O3 under P1). P2 keeps \
            the IBRs (O2 remains: the FBR request is still lost), P3 drops REG2; trunk \
            (HDFS-17953) loses the block as upstream does.",
        ops: &[
            Restart(1), Heartbeats(1), Lockstep(A, 1), Lockstep(A, 1), Lockstep(A, 1),
            Commands(1), Lockstep(C, 1), Tick, Heartbeats(1), Lockstep(A, 1), Lockstep(A, 1),
            Lockstep(A, 1), Lockstep(C, 1), Lockstep(C, 1), Lockstep(C, 1), Lockstep(C, 1),
            Lockstep(C, 1), Lockstep(C, 1), Heartbeats(1), Lockstep(A, 1), Lockstep(A, 1),
            Lockstep(A, 1), Lockstep(A, 1), Lockstep(A, 1), Write, Lockstep(W, 1),
            Lockstep(W, 1), Lockstep(W, 1), Commands(1), Lockstep(C, 1), Lockstep(C, 1), Lockstep(C, 1),
            Lockstep(C, 1), Lockstep(C, 1),
        ],
        found: ("upstream", "O3", "nn1 knows no location of block 0"),
        reaches: &[
            ("upstream", &["O8", "O1", "O2", "O3", "O9"]),
            ("P1", &["O8", "O3", "O9"]),
            ("P2", &["O8", "O2"]),
            ("P3", &[]),
            ("proposed", &["O8"]),
            ("trunk", &["O8", "O1", "O2", "O3", "O9"]),
            ("trunk+P1+P2", &["O8"]),
        ],
    },
    Regression {
        name: "single-registration",
        postmortem: "the single-registration race (scenarios/reregister-single-registration.scn), \
            shrunk the same way (the end of the FBR and of the registration are left to the \
            driver's finish, which runs the actor thread first): nn1 marks the DataNodes dead after a \
            heartbeat gap and keeps their descriptors, so the next heartbeats are answered \
            REGISTER and a lease at once; the FBR starts in the same iteration, block 0 is \
            written after its snapshot, the one registration clears it and its FBR request is \
            overwritten. P3 changes nothing (the REGISTER is not stale); P1 or P2 close the loss.",
        ops: &[
            Gap(1), Heartbeats(1), Lockstep(A, 1), Lockstep(A, 1), Lockstep(A, 1),
            Lockstep(A, 1), Lockstep(A, 1), Write, Lockstep(W, 1), Lockstep(W, 1),
            Lockstep(W, 1), Commands(1),
            Lockstep(C, 1), Lockstep(C, 1), Lockstep(C, 1), Lockstep(C, 1), Lockstep(C, 1),
        ],
        found: ("P3", "O6", "no DataNode registered with it twice"),
        reaches: &[
            ("upstream", &["O1", "O2", "O3", "O6", "O9"]),
            ("P3", &["O1", "O2", "O3", "O6", "O9"]),
            ("P1", &[]),
            ("P2", &["O2"]),
            ("proposed", &[]),
            ("trunk", &["O1", "O2", "O3", "O6", "O9"]),
            ("trunk+P1+P2", &[]),
        ],
    },
];

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::cluster::REPORT_SEQUENCE;
    use super::*;
    use crate::histories::{reaches, SKIPPED};

    /// A quiet state with no write since the last check is not decided again: the committed
    /// corpus and the regressions, under upstream (which reaches outcomes late in them) and
    /// the proposed fix, have such states, and at each the session decides anyway and checks
    /// that nothing new is found (see `Session::check`).
    #[test]
    fn a_state_unchanged_since_its_check_reaches_nothing_new() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
        let mut histories: Vec<Vec<Op>> = REGRESSIONS.iter().map(|r| r.ops.to_vec()).collect();
        for entry in std::fs::read_dir(dir.join("corpus/reregister")).expect("the corpus") {
            let bytes = std::fs::read(entry.expect("a corpus entry").path()).expect("an input");
            histories.extend(crate::histories::decode::<Op>(&bytes));
        }
        let before = SKIPPED.get();
        for ops in &histories {
            for fix in [Fix::UPSTREAM, Reregister::fix(PROPOSED)] {
                crate::histories::run::<Reregister>(fix, ops);
            }
        }
        assert!(
            SKIPPED.get() > before,
            "no history had a state unchanged since its check"
        );
    }

    /// How often the generator's histories reach upstream's O3 (run by hand with `--ignored
    /// --nocapture`).
    #[test]
    #[ignore]
    fn generator_hit_rate() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::{Config, TestRunner};
        let mut runner = TestRunner::new(Config::default());
        let strategy = <Reregister as Histories>::histories();
        let (mut hits, n) = (0, 3000);
        let mut first = None;
        for i in 0..n {
            let (ops, _) = strategy.new_tree(&mut runner).unwrap().current();
            if reaches::<Reregister>(Fix::UPSTREAM, &ops, "O3").is_some() {
                hits += 1;
                first.get_or_insert(i);
            }
        }
        println!("O3: {hits} of {n}, first at {first:?}");
        let mut counts = std::collections::BTreeMap::new();
        let rr = reregistrations();
        for _ in 0..1000 {
            let ops = rr.new_tree(&mut runner).unwrap().current();
            for v in crate::histories::run::<Reregister>(Fix::UPSTREAM, &ops) {
                *counts.entry(v.outcome).or_insert(0) += 1;
            }
        }
        println!("reregistrations: {counts:?}");
        let (mut qhits, mut qfirst) = (0, None);
        let mut r = crate::splitmix::SplitMix64(7);
        for i in 0..2000 {
            let len = (r.next_u64() % 97) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| r.next_u64() as u8).collect();
            let Some(ops) = crate::histories::decode::<Op>(&bytes) else {
                continue;
            };
            if reaches::<Reregister>(Fix::UPSTREAM, &ops, "O3").is_some() {
                qhits += 1;
                qfirst.get_or_insert(i);
            }
        }
        println!("bytes O3: {qhits} of 2000, first at {qfirst:?}");
        use Op::*;
        use Thread::*;
        let manual = [
            vec![Gap(1), Heartbeats(1)],
            vec![Lockstep(Actor, 1); 5],
            vec![
                WriteOne(0),
                Lockstep(Writer, 1),
                Lockstep(Writer, 1),
                Lockstep(Writer, 1),
            ],
            vec![Commands(1)],
            vec![Lockstep(Command, 1); 5],
        ]
        .concat();
        let found: Vec<&str> = crate::histories::run::<Reregister>(Fix::UPSTREAM, &manual)
            .into_iter()
            .map(|v| v.outcome)
            .collect();
        println!("manual: {found:?}");
        for _ in 0..3 {
            let (ops, _) = strategy.new_tree(&mut runner).unwrap().current();
            println!("{ops:?}");
        }
    }

    /// What each variant reaches on each regression (run by hand with `--ignored --nocapture`).
    #[test]
    #[ignore]
    fn regression_outcomes() {
        for r in REGRESSIONS {
            for v in [
                "upstream",
                "P1",
                "P2",
                "P3",
                "proposed",
                "trunk",
                "trunk+P1+P2",
            ] {
                let fix = <Reregister as crate::model::Model>::fix_of(v).unwrap();
                let found: Vec<&str> = crate::histories::run::<Reregister>(fix, r.ops)
                    .into_iter()
                    .map(|f| f.outcome)
                    .collect();
                println!("{} {v}: {found:?}", r.name);
            }
        }
    }

    /// Greedy one-operation-at-a-time shrinking of the report's sequence (run by hand with
    /// `--ignored --nocapture`; its result is the regression below).
    #[test]
    #[ignore]
    fn shrink_report_sequence() {
        use Op::*;
        use Thread::*;
        let single = [
            vec![Gap(1), Heartbeats(1)],
            vec![Lockstep(Actor, 1); 5],
            vec![
                Write,
                Lockstep(Writer, 1),
                Lockstep(Writer, 1),
                Lockstep(Writer, 1),
                Commands(1),
            ],
            vec![Lockstep(Command, 1); 8],
            vec![Lockstep(Actor, 1); 4],
        ]
        .concat();
        for (outcome, start) in [("O3", REPORT_SEQUENCE.to_vec()), ("O6", single)] {
            let mut ops = start;
            loop {
                let shorter = (0..ops.len()).find_map(|i| {
                    let mut o = ops.clone();
                    o.remove(i);
                    reaches::<Reregister>(Fix::UPSTREAM, &o, outcome).map(|_| o)
                });
                match shorter {
                    Some(o) => ops = o,
                    None => break,
                }
            }
            println!("{outcome}: {} ops: {ops:?}", ops.len());
            println!("{:?}", crate::histories::encode(&ops));
            for v in ["upstream", "P1", "P2", "P3", "proposed", "P1+P2+P3"] {
                let found: Vec<&str> = crate::histories::run::<Reregister>(
                    <Reregister as crate::model::Model>::fix_of(v).unwrap(),
                    &ops,
                )
                .into_iter()
                .map(|f| f.outcome)
                .collect();
                println!("  {v}: {found:?}");
            }
        }
    }
}
