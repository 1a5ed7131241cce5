//! The outcomes decided on [`World::at_quiescence`] against their first form, decided on
//! [`World::settled`] (the full simulation to the horizon, on a fresh copy each time): the same
//! verdict and the same witness on every quiet state of many seeded histories and scenario
//! schedules, under every variant and mutant. The first forms are kept here verbatim.

use super::Quiescent;
use crate::contracts::reregister::cluster::{cluster, run_op, Op, Plan, Thread, REPORT_SEQUENCE};
use crate::contracts::reregister::ghost::{snapshot_after, Event};
use crate::contracts::reregister::scenarios::{
    DOUBLE_REGISTER_ACTIVE, DOUBLE_REGISTER_STANDBY, FAILED_IBR_VS_CLEAR, SINGLE_REGISTER_STANDBY,
};
use crate::contracts::reregister::{
    Block, Fix, Reregister, World, NOTIFY_FIRST, O1, O2, O3, O5, O6, P1, P2, PROPOSED, R1,
};
use crate::drive::Driver;
use crate::model::{Model, Setup};
use crate::outcome::Outcome;
use crate::splitmix::SplitMix64;
use crate::switches::Switch;
use crate::sync::unseen::Arc;
use crate::trace::Trace;

fn old_o1(w: &World) -> Option<String> {
    let w = &w.settled();
    let events = w.ghost.events();
    events.iter().enumerate().find_map(|(i, e)| match e {
        Event::Dropped { dn, nn, blocks, .. } => blocks
            .iter()
            .find(|&b| !snapshot_after(&events, i, (*dn, *nn), |s| s.contains(b)))
            .map(|b| {
                format!("block {b} dropped from dn{dn}'s pending IBRs for nn{nn}, in no later FBR")
            }),
        _ => None,
    })
}

fn old_o2(w: &World) -> Option<String> {
    let w = &w.settled();
    let events = w.ghost.events();
    events.iter().enumerate().find_map(|(i, e)| match e {
        Event::Requested { dn, nn } if !snapshot_after(&events, i, (*dn, *nn), |_| true) => {
            let next = w.actor(*dn, *nn).scheduler.next_block_report_time();
            Some(format!(
                "dn{dn}'s registration with nn{nn} asked for an FBR now; none came, the next \
                     is at {next} ms"
            ))
        }
        _ => None,
    })
}

fn old_o3(w: &World) -> Option<String> {
    let w = &w.settled();
    old_missing(w).map(|(nn, b)| format!("nn{nn} knows no location of block {b}"))
}

fn old_o5(w: &World) -> Option<String> {
    w.ghost.events().into_iter().find_map(|e| match e {
        Event::Dropped {
            dn,
            nn,
            blocks,
            npe: true,
        } => Some(format!(
            "dn{dn}/nn{nn}: putMissing threw after clearIBRs, {} not re-queued",
            blocks.list()
        )),
        _ => None,
    })
}

fn old_r1(w: &World) -> Option<String> {
    let w = &w.settled();
    let events = w.ghost.events();
    let lost = |dn: usize, nn: usize, b: Block| {
        w.datanodes[dn].dataset.finalized().contains(b)
            && !w.namenodes[nn].locations_on(dn).contains(b)
    };
    events.iter().enumerate().find_map(|(d, e)| {
        let Event::Drained { dn, nn } = *e else {
            return None;
        };
        let s = events[d + 1..].iter().position(
            |e| matches!(e, Event::Snapshot { dn: x, nn: y, .. } if (*x, *y) == (dn, nn)),
        )? + d
            + 1;
        events[d + 1..s].iter().find_map(|e| match *e {
            Event::Notified {
                dn: x,
                nn: y,
                block,
            } if (x, y) == (dn, nn) && lost(dn, nn, block) => Some(format!(
                "block {block} queued between the drain and the snapshot, unknown to nn{nn}"
            )),
            _ => None,
        })
    })
}

fn old_o6(w: &World) -> Option<String> {
    let w = &w.settled();
    let events = w.ghost.events();
    let registrations = |dn: usize, nn: usize| {
        events
            .iter()
            .filter(|e| matches!(e, Event::Requested { dn: d, nn: n } if (*d, *n) == (dn, nn)))
            .count()
    };
    old_missing(w)
        .filter(|&(nn, _)| (0..w.datanodes.len()).all(|dn| registrations(dn, nn) <= 1))
        .map(|(nn, b)| {
            format!("nn{nn} knows no location of block {b}; no DataNode registered with it twice")
        })
}

fn old_missing(w: &World) -> Option<(usize, Block)> {
    let finalized = w.finalized();
    w.namenodes.iter().enumerate().find_map(|(nn, n)| {
        let state = n.state();
        finalized
            .iter()
            .find(|&b| {
                !state
                    .datanodes
                    .iter()
                    .flatten()
                    .any(|d| d.blocks.contains(b))
            })
            .map(|b| (nn, b))
    })
}

type Reference = fn(&World) -> Option<String>;

const PAIRS: [(&Outcome<World>, Reference); 6] = [
    (&O1, old_o1),
    (&O2, old_o2),
    (&O3, old_o3),
    (&O5, old_o5),
    (&O6, old_o6),
    (&R1, old_r1),
];

/// Every variant, and the mutants of the parts and of the writer.
fn fixes() -> Vec<Fix> {
    let mut fixes: Vec<Fix> = Reregister::VARIANTS
        .iter()
        .map(Reregister::fix_of_variant)
        .collect();
    for p1 in [P1::LateEpoch, P1::Unlocked] {
        fixes.push(Fix {
            sticky_fbr_request: Switch::new(p1),
            ..Reregister::fix(PROPOSED)
        });
    }
    fixes.push(Fix {
        keep_ibrs: Switch::new(P2::SyncOnly),
        ..Fix::UPSTREAM
    });
    fixes.push(Reregister::fix(&[&NOTIFY_FIRST]));
    fixes
}

#[derive(Default)]
struct Tally {
    states: usize,
    calm: usize,
    /// A second look at a settled world found the first's copy (unless another thread wrote).
    reused: usize,
    reached: usize,
    /// Quiet states with a command batch queued (a copy must keep it).
    queued: usize,
    /// Settled worlds the memo gave again (`memo::settled`), and those of them given other events.
    memo: usize,
    rebased: usize,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, o: Tally) -> Tally {
        Tally {
            states: self.states + o.states,
            calm: self.calm + o.calm,
            reused: self.reused + o.reused,
            reached: self.reached + o.reached,
            queued: self.queued + o.queued,
            memo: self.memo + o.memo,
            rebased: self.rebased + o.rebased,
        }
    }
}

/// Every outcome twice on `w` (the second time from the cache), against its first form.
fn compare(w: &World, context: &dyn Fn() -> String, tally: &mut Tally) {
    tally.states += 1;
    // Quiescence and the memo simulate on copies: a copy is the world's whole state.
    assert!(
        w.duplicate(&Trace::new()).state() == w.state(),
        "a copy differs from its world: {}",
        context()
    );
    tally.queued += usize::from(w.pairs().any(|(dn, nn)| !w.actor(dn, nn).queue.is_empty()));
    match (w.at_quiescence(), w.at_quiescence()) {
        (Quiescent::Calm(_), _) => tally.calm += 1,
        (Quiescent::Settled(a), Quiescent::Settled(b)) if Arc::ptr_eq(&a, &b) => tally.reused += 1,
        _ => {}
    }
    for _ in 0..2 {
        for (outcome, reference) in PAIRS {
            let new = outcome.holds(w);
            assert_eq!(new, reference(w), "{}: {}", outcome.id, context());
            tally.reached += usize::from(new.is_some());
        }
    }
}

fn random_op(r: &mut SplitMix64, focus: u8) -> Op {
    let mut pick = |n: u64| r.next_u64() % n;
    let nn = if pick(5) == 0 { 1 - focus } else { focus };
    let any = pick(2) as u8;
    match pick(40) {
        0..=1 => Op::Write,
        2..=4 => Op::Heartbeats(nn),
        5..=7 => Op::Commands(nn),
        8 => Op::Restart(any),
        9 => Op::Failover(any),
        10..=11 => Op::Tick,
        12 => Op::Gap(any),
        13..=19 => Op::Lockstep(Thread::Actor, nn),
        20..=26 => Op::Lockstep(Thread::Command, nn),
        27..=30 => Op::Lockstep(Thread::Writer, nn),
        31..=32 => Op::Lockstep(Thread::Actor, any),
        _ => Op::Step(pick(16) as u8),
    }
}

/// Runs `ops` on the cluster, comparing at every quiet state and at the end.
fn history(fix: Fix, ops: &[Op], tally: &mut Tally) {
    let trace = Trace::new();
    let setup = Setup {
        world: crate::sync::Arc::new(cluster(fix, &trace)),
        threads: Vec::new(),
    };
    let mut d = Driver::<Reregister>::new(trace, setup);
    let mut plan = Plan::default();
    for (i, op) in ops.iter().enumerate() {
        if run_op(&mut d, &mut plan, op) && d.is_quiescent() {
            compare(&d.world, &|| format!("{fix:?} {:?}", &ops[..=i]), tally);
        }
    }
    d.finish().expect("the cluster's programs finish");
    compare(&d.world, &|| format!("{fix:?} {ops:?} finished"), tally);
}

/// Also the memo's test: every reuse of a settled world is checked against a fresh simulation
/// (`memo::settled`), and the outcomes decided on it against their first forms here. The fixes
/// are split between two threads, each with its own memo and generator: the test is most of the
/// suite's work, and alone on one core it ended seconds after every other test had.
#[test]
fn at_quiescence_decides_as_the_full_simulation_on_histories() {
    let fixes = fixes();
    let (first, second) = fixes.split_at(fixes.len() / 2);
    let tally = std::thread::scope(|s| {
        let halves = [(first, 0x0E0_1717), (second, 0x0E0_1718)]
            .map(|(fixes, seed)| s.spawn(move || on_histories(fixes, SplitMix64(seed))));
        halves
            .map(|half| half.join().expect("a half of the fixes panicked"))
            .into_iter()
            .fold(Tally::default(), std::ops::Add::add)
    });
    let (memo, rebased) = (tally.memo, tally.rebased);
    println!(
        "{} quiet states ({} calm, {} settled copies reused, {memo} settled worlds of equal \
         states reused, {rebased} of them with other events), {} outcomes reached",
        tally.states, tally.calm, tally.reused, tally.reached
    );
    // Both paths, the reuse (with the same events and with others), and outcomes both ways,
    // are exercised.
    assert!(tally.calm > 1000 && tally.states - tally.calm > 1000);
    assert!(
        tally.reused > 100 && memo > 1000 && rebased > 100 && memo - rebased > 100,
        "{memo} reuses of the memo, {rebased} with other events"
    );
    assert!(tally.reached > 500);
    assert!(
        tally.queued > 100,
        "{} states with a batch queued",
        tally.queued
    );
}

/// The report's sequence, 50 histories near it and 150 random ones under each of `fixes`, on
/// this thread (whose memo's reuses it counts).
fn on_histories(fixes: &[Fix], mut r: SplitMix64) -> Tally {
    let memo = super::memo::reused();
    let mut tally = Tally::default();
    for &fix in fixes {
        history(fix, REPORT_SEQUENCE, &mut tally);
        // Near the report's sequence, where the outcomes are: one operation removed or added.
        for _ in 0..50 {
            let mut ops = REPORT_SEQUENCE.to_vec();
            let at = (r.next_u64() as usize) % ops.len();
            if r.next_u64().is_multiple_of(2) {
                ops.remove(at);
            } else {
                ops.insert(at, random_op(&mut r, 1));
            }
            history(fix, &ops, &mut tally);
        }
        for _ in 0..150 {
            let len = 1 + r.next_u64() % 64;
            let mut focus = 1;
            let ops: Vec<Op> = (0..len)
                .map(|_| {
                    let op = random_op(&mut r, focus);
                    if let Op::Restart(n) | Op::Gap(n) = op {
                        focus = n;
                    }
                    op
                })
                .collect();
            history(fix, &ops, &mut tally);
        }
    }
    let (reused, rebased) = super::memo::reused();
    Tally {
        memo: reused - memo.0,
        rebased: rebased - memo.1,
        ..tally
    }
}

#[test]
fn at_quiescence_decides_as_the_full_simulation_on_scenarios() {
    let mut tally = Tally::default();
    let mut r = SplitMix64(0x5CE_4A51);
    for scenario in [
        &DOUBLE_REGISTER_STANDBY,
        &DOUBLE_REGISTER_ACTIVE,
        &SINGLE_REGISTER_STANDBY,
        &FAILED_IBR_VS_CLEAR,
    ] {
        for fix in fixes() {
            for _ in 0..100 {
                let trace = Trace::new();
                let mut d = Driver::<Reregister>::new(trace.clone(), (scenario.build)(&trace, fix));
                while d.step(r.next_u64() as usize).is_some() {}
                let context = || format!("{} {fix:?}", scenario.name);
                compare(&d.world, &context, &mut tally);
            }
        }
    }
    println!("{} final states ({} calm)", tally.states, tally.calm);
    assert!(tally.reached > 100);
}

/// A verdict a session takes as known ([`World::known_clear`]) is the verdict: sessions of
/// histories near the report's sequence and random ones, under every variant and mutant, each
/// history run twice on this thread, decide every outcome anyway and check that none recorded
/// not to hold does (`Session::decide`). Both ways a memo world is given again are exercised:
/// with the same events (its known verdicts reused) and with others (a new world, none known).
#[cfg(feature = "histories")]
#[test]
fn a_known_verdict_is_the_verdict() {
    use crate::histories::{run, KNOWN_CLEAR};
    let (known, memo) = (KNOWN_CLEAR.get(), super::memo::reused());
    let mut r = SplitMix64(0x0CE_11A5);
    let mut reached = 0;
    for fix in fixes() {
        for i in 0..120 {
            let ops: Vec<Op> = if i % 2 == 0 {
                let mut ops = REPORT_SEQUENCE.to_vec();
                let at = (r.next_u64() as usize) % ops.len();
                ops.insert(at, random_op(&mut r, 1));
                ops
            } else {
                (0..1 + r.next_u64() % 48)
                    .map(|_| random_op(&mut r, 1))
                    .collect()
            };
            let first: Vec<_> = run::<Reregister>(fix, &ops)
                .into_iter()
                .map(|v| v.outcome)
                .collect();
            let again: Vec<_> = run::<Reregister>(fix, &ops)
                .into_iter()
                .map(|v| v.outcome)
                .collect();
            assert_eq!(first, again, "{fix:?} {ops:?}");
            reached += first.len();
        }
    }
    let rebased = super::memo::reused().1 - memo.1;
    let known = KNOWN_CLEAR.get() - known;
    println!("{known} verdicts known, {rebased} memo worlds rebased, {reached} outcomes reached");
    assert!(known > 1000 && rebased > 100 && reached > 100);
}

/// Known verdicts belong to one state: at each quiet state of the report's sequence and of
/// random histories with a settled world, verdicts recorded are known to a copy with the same events (the memo gives it
/// the same world) and to no copy with other events (the memo gives it a world of its own), nor
/// to a calm state.
#[test]
fn known_verdicts_follow_the_events() {
    const SOME: u64 = 0b10_0110_0101;
    let mut tally = [0; 3];
    let mut r = SplitMix64(0x0CE_11A6);
    let mut histories = vec![REPORT_SEQUENCE.to_vec()];
    histories.extend((0..20).map(|_| (0..24).map(|_| random_op(&mut r, 1)).collect()));
    for (fix, ops) in fixes()
        .into_iter()
        .flat_map(|f| histories.iter().map(move |h| (f, h)))
    {
        let trace = Trace::new();
        let setup = Setup {
            world: crate::sync::Arc::new(cluster(fix, &trace)),
            threads: Vec::new(),
        };
        let mut d = Driver::<Reregister>::new(trace, setup);
        let mut plan = Plan::default();
        for op in ops {
            if !(run_op(&mut d, &mut plan, op) && d.is_quiescent()) {
                continue;
            }
            let w = &d.world;
            if let Quiescent::Calm(_) = w.at_quiescence() {
                w.record_clear(SOME);
                assert_eq!(w.known_clear(), 0, "{fix:?}: a calm state");
                tally[0] += 1;
                continue;
            }
            w.record_clear(SOME);
            assert_eq!(w.known_clear(), SOME);
            let same = w.duplicate(&Trace::new());
            assert_eq!(same.known_clear(), SOME, "{fix:?}: the same events");
            tally[1] += 1;
            if w.ghost.with_events(<[_]>::len) > 0 {
                let other = w.with_ghost(w.ghost.followed_by(&w.ghost, 0), &Trace::new());
                assert_eq!(other.known_clear(), 0, "{fix:?}: other events");
                tally[2] += 1;
            }
        }
    }
    assert!(tally.iter().all(|&n| n > 10), "{tally:?}");
}
