//! Long histories of HDDS-17042: OM puts and deletes, scheduled delta syncs, manual rebuilds,
//! manual syncs (`triggerSyncDataFromOMImmediately`), event processor polls and sync faults,
//! interleaved step by step on the sync threads, the REST threads and the event processor
//! thread.

use super::om::KeyOp;
use super::service_provider::{RestThread, SyncFaults, SyncThread};
use super::sync_scheduler::{Executor, SYNC_THREADS};
use super::task_controller::EventProcessor;
use super::trigger_sync::TriggerSyncThread;
use super::{delete, file, put, Fix, ReconSync, World, PROPOSED};
use crate::drive::Driver;
use crate::histories::{byte, Codec, Histories, OpForm, Plan as _, Regression, Session, Word};
use crate::model::{Model, Program};
use crate::sync::Arc;
use crate::trace::{Timeline, Trace};
use arbitrary::Unstructured;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use std::ops::Range;

/// Keys a history writes: `/vol1/bucket1/file1` .. `file4`.
pub const FILES: u8 = 4;

/// Write batches a history's start makes room for (see [`Histories::start`]).
const ROOM: usize = 16;

/// One operation of a history. Byte format (one byte each): `b % 16` is the kind: 0 `Put`,
/// 1 `Delete`, 2 `Sync` (but 0xF2 is `TriggerSync`), 3 `Rebuild`, 4 `Poll`, 5 `Fault`,
/// 6 `Hang`, 7 to 15 `Step(b >> 4)` (random bytes need many steps to interleave the programs
/// the other operations start); a `Put` or `Delete` names file `(b >> 4) % 4 + 1`; a `Fault`'s
/// full-snapshot download succeeds with `b & 16`, else never returns with `b & 32`, else
/// fails. `TriggerSync` took one of `Sync`'s unused encodings, which no committed input holds,
/// so every committed input decodes as it did before it existed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// OM commits a put of `file<n>` (a new key, or an overwrite: an UPDATE for Recon).
    Put(u8),
    /// OM deletes `file<n>` (when it exists).
    Delete(u8),
    /// The scheduler runs `syncDataFromOM` (queued on the thread of the executor the
    /// `scheduler` field points to when the operation is applied).
    Sync,
    /// `GET /api/v1/triggerdbsync/om` (on a REST thread of its own):
    /// `triggerSyncDataFromOMImmediately`, with the first run of the thread it may create.
    TriggerSync,
    /// `POST /api/v1/triggerdbsync/om/reinit` (queued on the REST thread).
    Rebuild,
    /// The event processor polls once (and processes what it got).
    Poll,
    /// HDDS-5146: the next sync throws between its commit and its hand-off and falls back to
    /// a full snapshot, whose download from OM fails, succeeds, or never returns (then no sync
    /// runs after it: the one sync thread is stuck).
    Fault { snapshot: Fallback },
    /// OM becomes unreachable: the next sync's `getDBUpdates` never returns (and no sync runs
    /// after it: the one sync thread is stuck).
    Hang,
    /// One step of the `n`-th actor that can step.
    Step(u8),
}

impl Codec for Op {
    fn decode(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        let b = byte(u);
        let file = (b >> 4) % FILES + 1;
        Ok(match b % 16 {
            0 => Op::Put(file),
            1 => Op::Delete(file),
            2 if b == TRIGGER_SYNC => Op::TriggerSync,
            2 => Op::Sync,
            3 => Op::Rebuild,
            4 => Op::Poll,
            5 => Op::Fault {
                snapshot: if b & 16 != 0 {
                    Fallback::Succeeds
                } else if b & 32 != 0 {
                    Fallback::Hangs
                } else {
                    Fallback::Fails
                },
            },
            6 => Op::Hang,
            _ => Op::Step(b >> 4),
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        let file = |n: u8| (n.clamp(1, FILES) - 1) << 4;
        out.push(match *self {
            Op::Put(n) => file(n),
            Op::Delete(n) => 1 | file(n),
            Op::Sync => 2,
            Op::TriggerSync => TRIGGER_SYNC,
            Op::Rebuild => 3,
            Op::Poll => 4,
            Op::Fault { snapshot } => {
                5 | match snapshot {
                    Fallback::Fails => 0,
                    Fallback::Succeeds => 16,
                    Fallback::Hangs => 32,
                }
            }
            Op::Hang => 6,
            Op::Step(n) => 7 | (n.min(15) << 4),
        });
    }
}

/// A file in a scenario file: its number.
const FILE: Word = Word::Value("FILE", |w| match w.parse::<u8>() {
    Ok(n) if (1..=FILES).contains(&n) => Ok(n),
    _ => Err(format!("`{w}` is not a file number from 1 to {FILES}")),
});

/// `TriggerSync`'s byte.
const TRIGGER_SYNC: u8 = 0xF2;

/// How the full-snapshot fallback of a failed sync ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// `getOzoneManagerDBSnapshot` returns null (OM unreachable).
    Fails,
    Succeeds,
    /// The download never returns.
    Hangs,
}

/// What the environment has been asked to do so far: the reference state of the generator,
/// and the filter that makes any decoded byte string a valid history.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Files OM holds: bit `n` for `file<n>`.
    pub files: u8,
    /// Puts so far of `file<n>`, at `n - 1`: an overwrite gets a new size (`put_size`), so that
    /// an UPDATE applied twice shows in NSSummary's size.
    pub puts: [u64; FILES as usize],
    /// The next sync throws before its hand-off, with this full-snapshot fallback.
    pub fault_armed: Option<Fallback>,
    /// The next sync's RPC hangs.
    pub hang_armed: bool,
    /// A sync is stuck in its RPC: no sync runs any more.
    pub sync_stuck: bool,
    /// `TriggerSync`s so far: the next one's thread is executor `triggers + 1`'s.
    pub triggers: u8,
}

impl Plan {
    /// Whether OM holds `file<n>`.
    pub fn has(&self, n: u8) -> bool {
        (1..=FILES).contains(&n) && self.files & (1 << n) != 0
    }

    /// The executor the next `TriggerSync` would create.
    fn next_executor(&self) -> Executor {
        self.triggers + 1
    }

    /// The size of the next put of file `n`: `100 n` for the first (as the start's file1 has),
    /// 10 bytes more for each overwrite.
    pub fn put_size(&self, n: u8) -> u64 {
        let first = if n == 1 { 1 } else { 0 };
        100 * u64::from(n) + 10 * (first + self.puts[usize::from(n) - 1])
    }

    /// The faults of the sync an `Op::Sync` starts now.
    fn faults(&self) -> SyncFaults {
        SyncFaults {
            rpc_hangs: self.hang_armed,
            throw_before_hand_off: self.fault_armed.is_some(),
            snapshot_download_fails: self.fault_armed == Some(Fallback::Fails),
            snapshot_download_hangs: self.fault_armed == Some(Fallback::Hangs),
        }
    }
}

impl crate::histories::Plan for Plan {
    type Op = Op;

    /// OM has file1 and Recon is in sync with it.
    fn start() -> Plan {
        Plan {
            files: 1 << 1,
            ..Plan::default()
        }
    }

    fn allows(&self, op: &Op) -> bool {
        match *op {
            Op::Put(n) => (1..=FILES).contains(&n),
            Op::Delete(n) => self.has(n),
            Op::Sync => !self.sync_stuck,
            Op::Fault { .. } | Op::Hang => {
                !self.sync_stuck && self.fault_armed.is_none() && !self.hang_armed
            }
            Op::TriggerSync => usize::from(self.triggers) + 1 < SYNC_THREADS.len(),
            Op::Rebuild | Op::Poll | Op::Step(_) => true,
        }
    }

    fn update(&mut self, op: &Op) {
        match *op {
            Op::Put(n) => {
                self.files |= 1 << n;
                self.puts[usize::from(n) - 1] += 1;
            }
            Op::Delete(n) => self.files &= !(1 << n),
            Op::Sync => {
                self.sync_stuck = self.hang_armed || self.fault_armed == Some(Fallback::Hangs);
                self.fault_armed = None;
                self.hang_armed = false;
            }
            Op::Fault { snapshot } => self.fault_armed = Some(snapshot),
            Op::Hang => self.hang_armed = true,
            Op::TriggerSync => self.triggers += 1,
            Op::Rebuild | Op::Poll | Op::Step(_) => {}
        }
    }
}

impl Histories for ReconSync {
    type Op = Op;
    type Plan = Plan;

    fn start(fix: Fix, _trace: &Trace) -> World {
        // Room for the writes of most histories (about one operation in eight is a write), so
        // that OM's log, the Recon OM DB and their key tables do not regrow with them.
        World::in_sync_with_room(fix, &[put(1)], ROOM, FILES.into())
    }

    fn apply(d: &mut Driver<ReconSync>, plan: &mut Plan, op: &Op) -> bool {
        match *op {
            Op::Put(n) => {
                let size = plan.put_size(n);
                d.world
                    .om
                    .write(&d.trace.actor("OM"), KeyOp::Put { key: file(n), size });
            }
            Op::Delete(n) => {
                d.world.om.write(&d.trace.actor("OM"), delete(n));
            }
            Op::Sync => {
                let executor = d.world.provider.scheduler.live();
                d.spawn(Box::new(SyncThread::on(&d.trace, plan.faults(), executor)));
            }
            Op::TriggerSync => {
                let (trigger, first_run) =
                    TriggerSyncThread::with_first_run(&d.trace, plan.next_executor());
                d.spawn(Box::new(trigger));
                d.spawn(Box::new(first_run));
            }
            Op::Rebuild => {
                let rest = RestThread::new(&d.trace, &d.world);
                d.spawn(Box::new(rest));
            }
            Op::Poll => d.spawn(Box::new(EventProcessor::new(&d.trace, 1))),
            Op::Fault { .. } | Op::Hang => {}
            Op::Step(n) => {
                // No actor can step: the step changes nothing, as an operation the plan does
                // not allow (so the session does not check the same quiet state again).
                if d.step(n.into()).is_none() {
                    return false;
                }
            }
        }
        plan.update(op);
        true
    }

    fn transitions(s: &Plan) -> BoxedStrategy<Op> {
        let present: Vec<u8> = (1..=FILES).filter(|&n| s.has(n)).collect();
        let delete = if present.is_empty() {
            Just(Op::Poll).boxed()
        } else {
            proptest::sample::select(present)
                .prop_map(Op::Delete)
                .boxed()
        };
        let armable = !s.sync_stuck && s.fault_armed.is_none() && !s.hang_armed;
        let fault = if armable {
            prop_oneof![
                Just(Fallback::Fails),
                Just(Fallback::Succeeds),
                Just(Fallback::Hangs)
            ]
            .prop_map(|snapshot| Op::Fault { snapshot })
            .boxed()
        } else {
            Just(Op::Poll).boxed()
        };
        let trigger = if s.allows(&Op::TriggerSync) {
            Op::TriggerSync
        } else {
            Op::Poll
        };
        prop_oneof![
            3 => (1..=FILES).prop_map(Op::Put),
            1 => delete,
            3 => Just(if s.sync_stuck { Op::Poll } else { Op::Sync }),
            1 => Just(trigger),
            2 => Just(Op::Rebuild),
            2 => Just(Op::Poll),
            1 => fault,
            1 => Just(if armable { Op::Hang } else { Op::Poll }),
            12 => (0u8..16).prop_map(Op::Step),
        ]
        .boxed()
    }

    const LENGTHS: Range<usize> = 1..64;

    const SYNTAX: &'static [OpForm<Op>] = &[
        OpForm::new("put", &[FILE], |v| Op::Put(v[0])),
        OpForm::new("delete", &[FILE], |v| Op::Delete(v[0])),
        OpForm::new("sync", &[], |_| Op::Sync),
        OpForm::new("trigger-sync", &[], |_| Op::TriggerSync),
        OpForm::new("rebuild", &[], |_| Op::Rebuild),
        OpForm::new("poll", &[], |_| Op::Poll),
        OpForm::new("fault", &[], |_| Op::Fault {
            snapshot: Fallback::Fails,
        }),
        OpForm::new("fault", &[Word::Literal("snapshot-ok")], |_| Op::Fault {
            snapshot: Fallback::Succeeds,
        }),
        OpForm::new("fault", &[Word::Literal("snapshot-hangs")], |_| Op::Fault {
            snapshot: Fallback::Hangs,
        }),
        OpForm::new("hang", &[], |_| Op::Hang),
    ];

    fn fix_property(ops: &[Op]) -> Result<(), String> {
        check_proposed(ops)
    }

    const FIX_PROPERTY_CASES: u32 = 4096;
    const REGRESSIONS: &'static [Regression<Op>] = REGRESSIONS;
}

/// Whether a history can reach O3 at all: a sync it starts fails between its commit and its
/// hand-off and its full-snapshot fallback does not complete (the HDDS-5146 fault).
pub fn has_fault(ops: &[Op]) -> bool {
    fault_and_plan(ops).0
}

/// [`has_fault`], and the plan after `ops` (an operation the plan does not allow changes
/// nothing, as in [`Histories::apply`]).
fn fault_and_plan(ops: &[Op]) -> (bool, Plan) {
    let mut plan = Plan::start();
    let mut armed = false;
    for op in ops {
        if !plan.allows(op) {
            continue;
        }
        if *op == Op::Sync && plan.fault_armed.is_some_and(|f| f != Fallback::Succeeds) {
            armed = true;
        }
        plan.update(op);
    }
    (armed, plan)
}

/// The contract's invariant after `ops` and then one more ordinary sync, with every program
/// finished: NSSummary equals what the Recon OM DB holds, and the task cursor, the Recon OM DB
/// and OM are at the same sequence number. `None` when it holds, and for a history that leaves
/// the one sync thread stuck in its RPC (no sync can run after it).
pub fn settled_violation(fix: Fix, ops: &[Op]) -> Option<String> {
    let mut plan = Plan::start();
    for op in ops {
        if plan.allows(op) {
            plan.update(op);
        }
    }
    if plan.sync_stuck {
        return None;
    }
    let mut session = Session::<ReconSync>::new(fix);
    for op in ops {
        session.apply(op);
    }
    let d = &mut session.driver;
    let trace = d.trace.clone();
    let executor = d.world.provider.scheduler.live();
    d.spawn(Box::new(SyncThread::on(
        &trace,
        SyncFaults::default(),
        executor,
    )));
    if let Err(stuck) = d.finish() {
        return Some(stuck);
    }
    d.world
        .invariant_violation()
        .map(|v| format!("after one more sync: {v}\n{}", d.timeline(None)))
}

/// The property of the proposed fix over any history: it reaches no outcome but O3, and O3
/// only in a history whose sync failed between its commit and its hand-off; without that
/// fault, one more sync leaves Recon consistent with OM ([`settled_violation`]). `Err` names
/// the violation with its timeline.
pub fn check_proposed(ops: &[Op]) -> Result<(), String> {
    // `run`, keeping the world and the timeline for the one more sync below, and
    // `fault_and_plan` as the session goes: an operation is applied exactly when the plan
    // allows it (a step that no actor can take is not, and changes no plan either).
    let mut session = Session::<ReconSync>::new(ReconSync::fix(PROPOSED));
    let (mut fault, mut plan) = (false, Plan::start());
    for op in ops {
        let armed = *op == Op::Sync && plan.fault_armed.is_some_and(|f| f != Fallback::Succeeds);
        if session.apply(op) {
            fault |= armed;
            plan.update(op);
        }
    }
    let world = session.driver.world.clone();
    let trace = session.driver.trace.clone();
    for v in session.finish() {
        if v.outcome == "O3" && fault {
            continue;
        }
        return Err(format!("{}\nhistory: {ops:?}\n{}", v.witness, v.timeline));
    }
    // What `settled_violation` checks, without running the history again: every program has
    // finished here (a history that cannot finish is `STUCK`, reported above), and there the
    // sync it starts last steps only once every earlier program is done (the driver always
    // steps the first enabled one), so it sees this very world.
    if !fault && !plan.sync_stuck {
        if let Some(v) = one_more_sync(world, trace) {
            return Err(format!("{v}\nhistory: {ops:?}"));
        }
    }
    Ok(())
}

/// One more ordinary sync on `world`, whose programs have all finished, then the contract's
/// invariant, as [`settled_violation`] reports it. The sync is the only program left, so it is
/// stepped here as [`Driver::finish`] would step it alone (while it can), without a second
/// driver: a fuzz run pays for every allocation.
fn one_more_sync(world: Arc<World>, trace: Trace) -> Option<String> {
    let executor = world.provider.scheduler.live();
    let mut sync = SyncThread::on(&trace, SyncFaults::default(), executor);
    let mut steps = 0;
    while !sync.is_done() && sync.enabled(&world) {
        if steps == crate::model::ALONE_STEPS {
            return Some(format!(
                "no end after {steps} steps; still running: {}",
                sync.actor()
            ));
        }
        sync.step(&world);
        steps += 1;
    }
    if !sync.is_done() {
        // `Driver::finish`'s words for a program that can never step.
        return Some(format!(
            "no actor can step; still waiting: {}",
            sync.actor()
        ));
    }
    world.invariant_violation().map(|v| {
        let timeline = Timeline {
            events: trace.events(),
            violation: None,
        };
        format!("after one more sync: {v}\n{timeline}")
    })
}

use Op::{Fault, Poll, Put, Rebuild, Step, Sync, TriggerSync};

/// Shrunk counterexamples, each a committed fuzz regression.
const REGRESSIONS: &[Regression<Op>] = &[
    Regression {
        name: "rebuild-between-commit-and-hand-off",
        postmortem:
            "quickcheck, upstream O1, shrunk to 7 operations: OM overwrites file1 (110 B); \
            the sync commits it to the Recon OM DB as an UPDATE; before `consumeOMEvents` the REST \
            thread's `queueReInitializationEvent` drains an empty buffer and checkpoints the Recon \
            OM DB at #2, which holds the write; the sync then buffers the batch behind the \
            rebuild. The rebuild gives NSSummary 110 B, and the replayed UPDATE (old value 100 B, \
            computed before the commit; new 110 B) adds 10 B more: 120 B against OM's 110 B, with \
            the cursor at #2 like OM. P1 makes the rebuild wait for the hand-off, so its drain \
            removes the batch that its checkpoint holds.",
        ops: &[Sync, Put(1), Step(0), Rebuild, Step(0), Step(4), Step(15)],
        found: ("upstream", "O1", "applied as [#2×2]"),
        reaches: &[("proposed", &[])],
    },
    Regression {
        name: "rebuild-between-two-commits",
        postmortem: "proptest, upstream O2, 20 operations: a first sync applies #2; OM writes #3 \
            and #4, which the second sync fetches as one delta of two write batches. The \
            rebuild's checkpoint falls between their commits (at #3), so the rebuild holds #3 and \
            the replayed delta applies #3 a second time and #4 once: NSSummary 140 B against OM's \
            130 B. P1 holds the lock from the first commit to the hand-off, so no checkpoint falls \
            between two.",
        ops: &[
            Put(1),
            Sync,
            Step(0),
            Step(0),
            Put(1),
            Step(0),
            Step(0),
            Step(0),
            Poll,
            Sync,
            Put(1),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Step(0),
            Rebuild,
            Step(5),
        ],
        found: ("upstream", "O2", "applied as [#3×2 #4×1]"),
        reaches: &[("proposed", &[])],
    },
    Regression {
        name: "fault-before-hand-off",
        postmortem: "proptest, proposed O3, 3 operations: HDDS-5146, which the patch does not \
            address. The sync commits OM's #2 to the Recon OM DB, then throws before the hand-off; \
            its events go with the handler, the full-snapshot fallback cannot download from OM, \
            and the next delta starts after #2: NSSummary keeps 100 B against OM's 110 B. The \
            property of the proposed fix names it O3 and allows it only in such a history.",
        ops: &[
            Fault {
                snapshot: Fallback::Fails,
            },
            Put(1),
            Sync,
        ],
        found: ("proposed", "O3", "write batch #2"),
        reaches: &[("upstream", &["O3"]), ("proposed", &["O3"])],
    },
    Regression {
        name: "leaked-hold-then-trigger-sync",
        postmortem: "proptest, A3 O7, shrunk to 3 operations: a sync throws before its hand-off \
            (here with an empty delta) and, with no finally, returns holding the hand-off lock; \
            GET /triggerdbsync/om then finds no sync running, shuts SyncOM-0's executor down \
            and starts SyncOM-1, whose sync waits forever in lock() for the hold SyncOM-0 left, \
            with isSyncDataFromOMRunning set: no sync runs again. P1's finally releases the \
            hold before syncDataFromOM returns, so SyncOM-1 takes the lock.",
        ops: &[
            Fault {
                snapshot: Fallback::Fails,
            },
            Sync,
            TriggerSync,
        ],
        found: ("A3", "O7", "on SyncOM-1 waits forever"),
        reaches: &[("upstream", &[]), ("proposed", &[]), ("A3", &["O7"])],
    },
];

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::A3;
    use super::*;
    use crate::histories::run;
    use crate::outcome::Outcome;
    use std::collections::{BTreeMap, BTreeSet};

    /// Random histories from a fixed seed (xorshift), decoded with the fuzz codec.
    fn random_histories(n: usize) -> Vec<Vec<Op>> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|_| {
                let len = (next() % 64) as usize;
                let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                crate::histories::decode::<Op>(&bytes).unwrap_or_default()
            })
            .collect()
    }

    /// The fix property as it was written before it ran the history once: `run`, then the
    /// history again with one more sync ([`settled_violation`]).
    fn check_proposed_twice(ops: &[Op]) -> Result<(), String> {
        let fix = ReconSync::fix(PROPOSED);
        for v in run::<ReconSync>(fix, ops) {
            if v.outcome == "O3" && has_fault(ops) {
                continue;
            }
            return Err(format!("{}\nhistory: {ops:?}\n{}", v.witness, v.timeline));
        }
        if !has_fault(ops) {
            if let Some(v) = settled_violation(fix, ops) {
                return Err(format!("{v}\nhistory: {ops:?}"));
            }
        }
        Ok(())
    }

    #[test]
    fn the_fix_property_decides_as_it_did_when_it_ran_the_history_twice() {
        let mut histories = random_histories(3000);
        histories.extend(REGRESSIONS.iter().map(|r| r.ops.to_vec()));
        for ops in &histories {
            let (fast, slow) = (check_proposed(ops), check_proposed_twice(ops));
            assert_eq!(fast.is_ok(), slow.is_ok(), "{ops:?}");
            if let (Err(f), Err(s)) = (&fast, &slow) {
                assert_eq!(f.lines().next(), s.lines().next(), "{ops:?}");
            }
        }
    }

    /// The outcome predicates as they were written before they read the DBs in place
    /// (copies of both, and a map of every delta).
    fn reference(w: &World, id: &str) -> Option<String> {
        use super::super::recon_om_db::FULL_SNAPSHOT;
        let twice = |whole: bool| {
            let q = w.controller.quiescent();
            let recon = w.recon_om_db.state();
            let mut deltas: BTreeMap<u64, Vec<(u64, u32)>> = BTreeMap::new();
            for c in recon
                .committed
                .iter()
                .filter(|c| c.delta != FULL_SNAPSHOT && c.evented)
            {
                let n = q.applied(c.seq);
                deltas.entry(c.delta).or_default().push((c.seq, n));
            }
            deltas.values().any(|batches| {
                let twice = batches.iter().filter(|(_, n)| *n >= 2).count();
                twice > 0 && ((twice == batches.len()) == whole)
            })
        };
        let never = |of: &dyn Fn(u64) -> bool| {
            let q = w.controller.quiescent();
            w.recon_om_db
                .state()
                .committed
                .iter()
                .any(|c| c.evented && of(c.delta) && q.applied(c.seq) == 0)
        };
        let holds = match id {
            "O1" => twice(true),
            "O2" => twice(false),
            "O3" => never(&|_| true),
            "O5" => never(&|d| !w.provider.delta_failed(d)),
            _ => return None,
        };
        holds.then(String::new)
    }

    #[test]
    fn the_outcome_predicates_decide_as_they_did_with_copies() {
        let outcomes: Vec<&Outcome<World>> = vec![
            &super::super::O1,
            &super::super::O2,
            &super::super::O3,
            &super::super::O5,
        ];
        let mut reached = BTreeSet::new();
        for ops in random_histories(1500) {
            for v in ReconSync::VARIANTS {
                let mut session = Session::<ReconSync>::new(ReconSync::fix_of_variant(v));
                for op in &ops {
                    session.apply(op);
                    if session.driver.is_quiescent() {
                        let w = &session.driver.world;
                        for o in &outcomes {
                            let (fast, slow) = (o.holds(w).is_some(), reference(w, o.id).is_some());
                            assert_eq!(fast, slow, "{} {} after {ops:?}", v.name, o.id);
                            if fast {
                                reached.insert(o.id);
                            }
                        }
                    }
                }
            }
        }
        // Both sides of every predicate were exercised.
        assert_eq!(reached.len(), outcomes.len(), "{reached:?}");
    }

    /// The first regression's damage is for good: later syncs do not repair it (the cursor is
    /// at OM's sequence number); with P1 one more sync leaves Recon consistent with OM.
    #[test]
    fn a_double_application_is_not_repaired_by_later_syncs() {
        let ops = REGRESSIONS[0].ops;
        let upstream = Fix::UPSTREAM;
        let after = settled_violation(upstream, ops).expect("still wrong after a sync");
        assert!(after.contains("NSSummary differs"), "{after}");
        assert_eq!(settled_violation(ReconSync::fix(PROPOSED), ops), None);
        let v = crate::histories::reaches::<ReconSync>(upstream, ops, "O1").expect("reaches O1");
        assert!(v.witness.contains("size=120"), "{}", v.witness);
        assert!(check_proposed(REGRESSIONS[2].ops).is_ok());
    }

    /// A3's leaked hold: SyncOM-0 re-enters the lock in the next sync, which hands its batch
    /// off and releases only its own hold; a rebuild after both still waits forever (O6), and
    /// only the failed sync's batch is lost (O3, not O5). With P1 that rebuild runs, and its
    /// checkpoint repairs the lost batch: no outcome.
    #[test]
    fn a_leaked_hold_is_re_entered_by_later_syncs_and_blocks_every_rebuild() {
        let fault = Fault {
            snapshot: Fallback::Fails,
        };
        let ops = [fault, Put(1), Sync, Put(2), Sync, Rebuild];
        let a3 = ReconSync::fix(&[&A3]);
        let found = crate::histories::run::<ReconSync>(a3, &ops);
        let ids: Vec<&str> = found.iter().map(|v| v.outcome).collect();
        assert_eq!(ids, ["O3", "O6"], "{found:?}");
        let o6 = &found[1];
        assert!(o6.witness.contains("leaked"), "{}", o6.witness);
        let timeline = o6.timeline.to_string();
        assert!(
            timeline.contains("re-entered: hold count 2")
                && timeline.contains("one hold released, 1 left"),
            "{timeline}"
        );
        let p1 = crate::histories::run::<ReconSync>(ReconSync::fix(PROPOSED), &ops);
        assert!(p1.is_empty(), "{p1:?}");
    }

    /// A3's leaked hold, then a manual sync: the trigger replaces SyncOM-0, and SyncOM-1's sync
    /// waits forever for the hold SyncOM-0 left (O7); the sync queued on SyncOM-0's executor
    /// before it was shut down is cancelled. With P1 SyncOM-1 syncs, and the rebuild repairs the
    /// lost batch: no outcome.
    #[test]
    fn a_manual_sync_after_a_leaked_hold_stops_the_sync_for_good() {
        let fault = Fault {
            snapshot: Fallback::Fails,
        };
        let ops = [fault, Put(1), Sync, TriggerSync, Put(2), Sync, Rebuild];
        let a3 = ReconSync::fix(&[&A3]);
        let found = crate::histories::run::<ReconSync>(a3, &ops);
        let ids: Vec<&str> = found.iter().map(|v| v.outcome).collect();
        assert_eq!(ids, ["O3", "O6", "O7"], "{found:?}");
        let o7 = &found[2];
        assert!(
            o7.witness.contains("on SyncOM-1 waits forever")
                && o7.witness.contains("held by SyncOM-0, leaked"),
            "{}",
            o7.witness
        );
        let timeline = o7.timeline.to_string();
        assert!(
            timeline.contains("periodic task is cancelled"),
            "{timeline}"
        );
        let p1 = crate::histories::run::<ReconSync>(ReconSync::fix(PROPOSED), &ops);
        assert!(p1.is_empty(), "{p1:?}");
    }

    /// The trigger's check and its shutdown are two steps: a run that begins between them is
    /// waited for (`awaitTermination`), and the new thread syncs after it; a sync requested once
    /// the new executor is live runs on its thread.
    #[test]
    fn the_trigger_waits_for_a_run_that_began_after_its_check() {
        let mut session = Session::<ReconSync>::new(ReconSync::fix(PROPOSED));
        assert!(session.apply(&TriggerSync) && session.apply(&Put(1)));
        let trigger = TriggerSyncThread::ACTOR;
        session.step_named(trigger).expect("the check");
        assert!(session.apply(&Sync));
        session.step_named("SyncOM-0").expect("the run begins");
        session.step_named(trigger).expect("the shutdown");
        let waits = session
            .step_named(trigger)
            .expect_err("awaitTermination waits");
        assert!(waits.contains("would block"), "{waits}");
        while session.driver.is_running("SyncOM-0") {
            session.step_named("SyncOM-0").expect("the run goes on");
        }
        session
            .step_named(trigger)
            .expect("awaitTermination returns");
        session.step_named(trigger).expect("the new executor");
        assert_eq!(session.driver.world.provider.scheduler.live(), 1);
        assert!(session.apply(&Put(2)) && session.apply(&Sync));
        assert!(session.driver.is_running("SyncOM-1"));
        // Another trigger while SyncOM-1's first run is in progress creates no thread.
        session
            .step_named("SyncOM-1")
            .expect("the first run begins");
        assert!(session.apply(&TriggerSync));
        session.step_named(trigger).expect("the check");
        assert!(!session.driver.is_running(trigger));
        let timeline = session.driver.timeline(None).to_string();
        assert!(
            timeline.contains("awaitTermination: SyncOM-0 has exited")
                && timeline.contains("already running; returns false"),
            "{timeline}"
        );
        let found = session.finish();
        assert!(found.is_empty(), "{found:?}");
    }
}
