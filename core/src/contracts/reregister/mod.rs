//! reregister — HDFS-17969: a DataNode that re-registers twice after a NameNode restart loses
//! the IBRs of blocks finalized during its in-flight full block report, and the second
//! registration's FBR request: the NameNode does not learn those blocks until the periodic FBR,
//! up to 6 h later (a missing block once every holder is in that state).
//!
//! Components, one per upstream class: [`actor::BPServiceActor`] and its actor thread
//! ([`actor::OfferService`], which runs `blockReport` itself), [`scheduler::Scheduler`],
//! [`ibr_manager::IncrementalBlockReportManager`] (its `clearIBRs` is unsynchronized: a
//! race-tracked cell), [`command_processor`] (`CommandProcessingThread` and `reRegister`),
//! [`fs_dataset`] (the replica map and the writer), and [`namenode`] (`DatanodeManager`,
//! `BlockReportLeaseManager`, `BlockManager.processReport`, the dead-node path). The report has
//! no patch: the parts P1–P3 are ours (DESIGN-NOTES.md).

pub mod actor;
pub mod blocks;
pub mod claims;
pub mod cluster;
pub mod command_processor;
pub mod command_queue;
pub mod findings;
pub mod fs_dataset;
pub mod ghost;
#[cfg(feature = "histories")]
pub mod histories;
#[cfg(all(test, not(loom)))]
mod ibr_cap;
pub mod ibr_manager;
pub mod lease;
#[cfg(not(loom))]
mod memo;
pub mod namenode;
pub mod premises;
#[cfg(all(test, not(loom)))]
mod quiescence;
pub mod reproductions;
pub mod scenarios;
pub mod scheduler;
pub mod upstream;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{run_to_end, Baseline, Contract, Model, Part, Program, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use crate::sync::unseen::{self, Arc, AtomicI64, Ordering};
use crate::trace::Trace;
use actor::{ActorStart, BPServiceActor, OfferService};
use blocks::BlockSet;
use command_processor::ProcessCommand;
use fs_dataset::{FsDataset, WriterOrder};
use ghost::{snapshot_after, Event, Ghost};
use namenode::{HaState, NameNode};
use scheduler::HEARTBEAT_INTERVAL;
use std::cell::Cell;

/// Logical milliseconds (Java's `long` monotonic time).
pub type Millis = i64;
pub type Block = u32;
/// One storage per DataNode: its index.
pub type StorageId = u32;

/// The most DataNodes a world has (the histories' cluster has three, the scenarios one).
pub const MAX_DATANODES: usize = 3;

/// P1: the sticky FBR request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P1 {
    Off,
    /// The epoch is read before `blockReport`'s drain; requests and reschedulings hold the
    /// scheduler's request lock.
    Sticky,
    /// Mutant: compares with the registration current when the RPC returns (always equal).
    LateEpoch,
    /// Mutant: the rescheduling checks the epoch without the request lock.
    Unlocked,
}

/// P2: no IBR lost on re-registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P2 {
    Off,
    /// `reRegister` keeps the pending IBRs (no `clearIBRs`).
    Keep,
    /// Mutant: `clearIBRs` synchronized, still clearing.
    SyncOnly,
}

/// P3: stale DNA_REGISTER dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P3 {
    Off,
    /// A REGISTER is tagged with the registration its RPC was sent under (the heartbeat's, or
    /// the FBR's drain's), and dropped when a newer registration has completed.
    Drop,
    /// Mutant: the REGISTER an FBR's answer carries is tagged with the registration current
    /// when `blockReport` returns, not the one the FBR was sent under.
    LateTag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    pub p1: Switch<P1, 0>,
    pub p2: Switch<P2, 1>,
    pub p3: Switch<P3, 2>,
    /// Not a part: the writer's order (upstream), or its mutant.
    pub writer: Switch<WriterOrder, 3>,
    /// Upstream's HDFS-17953 (trunk, apache/hadoop 2f3cdd76): `clearIBRs` synchronized (and
    /// resetting `pendingBlockCount`), `putMissing` skipping a storage entry a clear removed.
    pub h17953: Switch<bool, 4>,
}

crate::switches!(Fix {
    p1,
    p2,
    p3,
    writer,
    h17953
});

impl Fix {
    pub const UPSTREAM: Fix = Fix {
        p1: Switch::new(P1::Off),
        p2: Switch::new(P2::Off),
        p3: Switch::new(P3::Off),
        writer: Switch::new(WriterOrder::FinalizeThenNotify),
        h17953: Switch::new(false),
    };
}

/// The part is named as its switch's type is: `P1` the part, `P1::Sticky` what it switches on.
pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "sticky FBR request: register bumps a registration epoch under a scheduler lock; an \
              FBR whose drain started before a registration neither consumes nor overwrites that \
              registration's request",
    on: |fix| Fix {
        p1: Switch::new(P1::Sticky),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary: "no IBR lost on re-registration: reRegister keeps the pending IBRs (no \
              unsynchronized clearIBRs; HDFS-17953 bounds them while the NN is away)",
    on: |fix| Fix {
        p2: Switch::new(P2::Keep),
        ..fix
    },
};

pub const P3: Part<Fix> = Part {
    id: "P3",
    summary: "stale DNA_REGISTER dropped: a REGISTER answered to a heartbeat sent under an older \
              registration than the last completed one is ignored",
    on: |fix| Fix {
        p3: Switch::new(P3::Drop),
        ..fix
    },
};

/// Not a part of any fix: the writer-order mutant as a row, R1's reachable twin (a block is
/// lost in the report's window as worded only if the writer notifies before it finalizes).
pub const NOTIFY_FIRST: Part<Fix> = Part {
    id: "notify-first",
    summary: "(not a part of the fix) the writer queues the block's IBR before the replica is \
              FINALIZED",
    on: |fix| Fix {
        writer: Switch::new(WriterOrder::NotifyThenFinalize),
        ..fix
    },
};

/// Upstream's change on trunk, a part of the `trunk` baseline rather than of a fix.
pub const HDFS_17953: Part<Fix> = Part {
    id: "HDFS-17953",
    summary: "(upstream, on trunk) clearIBRs synchronized and resetting pendingBlockCount, \
              putMissing skipping a storage a clear removed",
    on: |fix| Fix {
        h17953: Switch::new(true),
        ..fix
    },
};

/// The report's fix.
pub const PROPOSED: &[&Part<Fix>] = &[&P1, &P2];
/// The code of the `trunk` baseline, as parts on the report's.
pub const TRUNK: &[&Part<Fix>] = &[&HDFS_17953];

/// The logical clock: advanced only by quiescence and histories, never by the concurrent steps
/// of a loom scenario (a real std atomic: time is not a synchronization point).
#[derive(Debug, Default)]
pub struct Clock(AtomicI64);

impl Clock {
    pub fn now(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }

    pub fn set(&self, t: Millis) {
        wrote();
        self.0.store(t, Ordering::SeqCst);
    }
}

#[derive(Debug)]
pub struct DataNode {
    pub dataset: FsDataset,
    /// One `BPServiceActor` per NameNode (indexed by NameNode).
    pub actors: Vec<BPServiceActor>,
}

/// Everything the actors share.
#[derive(Debug)]
pub struct World {
    pub fix: Fix,
    pub clock: Clock,
    pub datanodes: Vec<DataNode>,
    pub namenodes: Vec<NameNode>,
    pub ghost: Ghost,
    trace: Trace,
    settled: SettledCache,
}

/// The outcomes' world at quiescence ([`World::at_quiescence`]).
pub enum Quiescent<'a> {
    /// The world itself: every pair is calm.
    Calm(&'a World),
    Settled(Arc<World>),
}

impl std::ops::Deref for Quiescent<'_> {
    type Target = World;

    fn deref(&self) -> &World {
        match self {
            Quiescent::Calm(w) => w,
            Quiescent::Settled(w) => w,
        }
    }
}

/// The last answer of [`World::at_quiescence`] and the write count it was given at (real std
/// primitives: the cache is no model state and adds no interleavings).
#[derive(Default)]
struct SettledCache(unseen::Mutex<Option<Cached>>);

struct Cached {
    /// [`writes`] when the answer was given.
    writes: u64,
    /// `None`: the world was calm.
    settled: Option<Arc<World>>,
    /// The world's state then ([`World::fingerprint`]).
    #[cfg(test)]
    before: Vec<u64>,
}

thread_local! {
    /// Writes to model state, counted over every world of this thread: every method of a
    /// component that writes its state calls [`wrote`] (their fields are private; a world is
    /// checked when nothing writes to it). A count equal to the one seen before means no world
    /// changed since. Per thread, since outside loom a world is built, stepped and checked on
    /// one thread (the driver, the step checker and every history run there); a process-wide
    /// count was one more locked read-modify-write per write.
    static WRITES: Cell<u64> = const { Cell::new(0) };
}

pub(crate) fn wrote() {
    WRITES.set(WRITES.get() + 1);
}

pub(crate) fn writes() -> u64 {
    WRITES.get()
}

impl std::fmt::Debug for SettledCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SettledCache")
    }
}

/// How far past the end of the concurrent part quiescence runs the actors: two heartbeats.
/// Every FBR due before it is performed; a periodic one lies beyond it (its random delay is
/// seeded, see the scheduler test).
pub const QUIESCENCE_HORIZON: Millis = 2 * HEARTBEAT_INTERVAL;

impl World {
    /// `datanodes` DataNodes, each with an actor per NameNode (`ha` gives each NameNode's HA
    /// state), every actor starting as `start`.
    pub fn new(
        fix: Fix,
        trace: &Trace,
        datanodes: usize,
        ha: &[HaState],
        start: ActorStart,
    ) -> World {
        // reRegister's clearIBRs holds the IBR manager's monitor on trunk and in P2-sync-only,
        // and P2 does not clear: only otherwise does pendingIBRs need a loom lock of its own
        // (command_processor.rs, ClearIbrs). Every exploration now reads P2, and HDFS-17953 where
        // P2 is off: a few variants that never reach the clear (ACTIVE, or REG2 dropped) no
        // longer share an exploration with another; each explores the same executions anew.
        let clear_unlocked = fix.p2.get() == P2::Off && !fix.h17953.get();
        World {
            fix,
            clock: Clock::default(),
            datanodes: (0..datanodes)
                .map(|dn| DataNode {
                    dataset: FsDataset::default(),
                    actors: (0..ha.len())
                        .map(|nn| BPServiceActor::new(dn, nn, start, seed(dn, nn), clear_unlocked))
                        .collect(),
                })
                .collect(),
            namenodes: ha
                .iter()
                .enumerate()
                .map(|(i, &h)| NameNode::new(i, h))
                .collect(),
            ghost: Ghost::default(),
            trace: trace.clone(),
            settled: SettledCache::default(),
        }
    }

    /// A copy in the same state, recording into `trace`.
    fn duplicate(&self, trace: &Trace) -> World {
        self.with_ghost(self.ghost.duplicate(), trace)
    }

    /// A copy in the same state but for the ghost, which is `ghost`, recording into `trace`.
    fn with_ghost(&self, ghost: Ghost, trace: &Trace) -> World {
        World {
            fix: self.fix,
            clock: Clock(AtomicI64::new(self.clock.now())),
            datanodes: self
                .datanodes
                .iter()
                .map(|d| DataNode {
                    dataset: d.dataset.duplicate(),
                    actors: d.actors.iter().map(BPServiceActor::duplicate).collect(),
                })
                .collect(),
            namenodes: self.namenodes.iter().map(NameNode::duplicate).collect(),
            ghost,
            trace: trace.clone(),
            settled: SettledCache::default(),
        }
    }

    /// Appends the world's state but for the ghost to `fingerprint`, as words: the fix, the clock,
    /// each DataNode's replicas and actors, each NameNode. Everything quiescence reads, and only
    /// state; the ghost is written by the steps and read by no step, so two worlds with equal
    /// fingerprints settle alike but for their ghosts: each settled ghost is the world's events
    /// followed by the same new ones ([`memo`]; every test checks it on each reuse). The shape (how
    /// many DataNodes and NameNodes) is a word.
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        let fix = self.fix;
        fingerprint.extend([
            fix.p1.get() as u64
                | (fix.p2.get() as u64) << 4
                | (fix.p3.get() as u64) << 8
                | (fix.writer.get() as u64) << 12
                | u64::from(fix.h17953.get()) << 16,
            self.clock.now() as u64,
            (self.datanodes.len() as u64) << 8 | self.namenodes.len() as u64,
        ]);
        for d in &self.datanodes {
            d.dataset.fingerprint(fingerprint);
            for a in &d.actors {
                a.fingerprint(fingerprint);
            }
        }
        for n in &self.namenodes {
            n.fingerprint(fingerprint);
        }
    }

    /// The whole state: [`World::fingerprint`] and the ghost's events (the tests' checks).
    #[cfg(test)]
    fn state(&self) -> Vec<u64> {
        let mut fingerprint = Vec::new();
        self.fingerprint(&mut fingerprint);
        self.ghost.fingerprint(&mut fingerprint);
        fingerprint
    }

    /// The world at quiescence: a copy of this one on which every pair's command thread and
    /// actor thread run on alone, as their loops would once nothing else runs (see
    /// [`World::quiesce`]), for [`QUIESCENCE_HORIZON`].
    pub fn settled(&self) -> World {
        self.settled_within(QUIESCENCE_HORIZON)
    }

    /// The world `horizon` after now, with nothing but the DataNodes' loops running.
    pub fn settled_within(&self, horizon: Millis) -> World {
        let copy = self.duplicate(&Trace::new());
        copy.quiesce(horizon);
        copy
    }

    /// The world at quiescence as the outcomes read it: [`World::settled`] but for the
    /// heartbeat times, the clock and the actors' `state`, which no outcome reads. Quiescence
    /// stops as soon as every pair is calm ([`BPServiceActor::is_calm`]): from then on each
    /// round sends only heartbeats answered with nothing, changing nothing else, so the rounds
    /// left would leave every event, replica, block location and FBR time as they are. A calm
    /// world is its own settled world (no copy). The answer is kept until the next write to
    /// model state ([`wrote`]): the outcomes of one quiet state share one simulation; and a
    /// state this thread settled before is not simulated again ([`memo`]). Checking changes
    /// nothing.
    pub fn at_quiescence(&self) -> Quiescent<'_> {
        let mut cache = self.settled.0.lock();
        // Not under loom: a reuse skips the copy's loom objects and locks, which loom must see
        // alike in every execution of a schedule; the cache stays off there rather than argued.
        if let Some(c) = cache
            .as_ref()
            .filter(|c| cfg!(not(loom)) && c.writes == writes())
        {
            // Every test of this crate checks that no write went uncounted.
            #[cfg(test)]
            assert!(
                self.state() == c.before,
                "a write to model state without `wrote()`"
            );
            return self.view(&c.settled);
        }
        let settled =
            (!self.is_calm(self.clock.now() + QUIESCENCE_HORIZON)).then(|| self.settle_copy());
        let view = self.view(&settled);
        *cache = Some(Cached {
            writes: writes(),
            settled,
            #[cfg(test)]
            before: self.state(),
        });
        view
    }

    /// A copy of this world run until calm, or the copy this thread made of a world in the same
    /// state ([`memo`]; not under loom, where a copy is made of new loom objects each time).
    fn settle_copy(&self) -> Arc<World> {
        let simulate = |w: &World| {
            let copy = w.duplicate(&Trace::new());
            copy.run_loops(QUIESCENCE_HORIZON, true);
            Arc::new(copy)
        };
        #[cfg(not(loom))]
        return memo::settled(self, simulate);
        #[cfg(loom)]
        simulate(self)
    }

    fn view(&self, settled: &Option<Arc<World>>) -> Quiescent<'_> {
        match settled {
            None => Quiescent::Calm(self),
            Some(w) => Quiescent::Settled(w.clone()),
        }
    }

    /// Whether every pair is calm until `until` ([`BPServiceActor::is_calm`]).
    fn is_calm(&self, until: Millis) -> bool {
        self.pairs()
            .all(|(dn, nn)| self.actor(dn, nn).is_calm(&self.namenodes[nn], until))
    }

    pub fn actor(&self, dn: usize, nn: usize) -> &BPServiceActor {
        &self.datanodes[dn].actors[nn]
    }

    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.datanodes.len())
            .flat_map(move |dn| (0..self.namenodes.len()).map(move |nn| (dn, nn)))
    }

    /// Runs every pair's command thread and actor thread on alone, as their loops would once the
    /// concurrent part is over: commands until the queue is empty, `offerService` iterations
    /// while they send something, then time to the next heartbeat, up to the horizon.
    pub fn quiesce(&self, horizon: Millis) {
        self.run_loops(horizon, false);
    }

    /// [`World::quiesce`]; with `until_calm`, only until every pair is calm.
    fn run_loops(&self, horizon: Millis, until_calm: bool) {
        let horizon = self.clock.now() + horizon;
        loop {
            if until_calm && self.is_calm(horizon) {
                break;
            }
            for (dn, nn) in self.pairs() {
                self.settle_pair(dn, nn);
            }
            let next = self
                .pairs()
                .map(|(dn, nn)| self.actor(dn, nn).scheduler.next_heartbeat_time())
                .min()
                .unwrap_or(Millis::MAX);
            if next > horizon {
                break;
            }
            self.clock.set(next.max(self.clock.now()));
        }
    }

    fn settle_pair(&self, dn: usize, nn: usize) {
        let actor = self.actor(dn, nn);
        let now = self.clock.now();
        // Bounded: each iteration either sends something or ends the loop, and what can be sent
        // at one instant is finite (an FBR needs a lease, which needs a due FBR).
        for _ in 0..16 {
            // An idle actor's iteration would write nothing (no heartbeat due, no IBR ready, no
            // lease) and send nothing: the loop ends where that iteration would have ended it.
            // An iteration that sent nothing, with no command queued, leaves the actor idle.
            if actor.is_idle(now) {
                #[cfg(test)]
                self.check_idle_iteration(dn, nn);
                return;
            }
            while !actor.queue.is_empty() {
                run(self, ProcessCommand::new(&self.trace, dn, nn));
            }
            let mut iteration = OfferService::iteration(&self.trace, dn, nn);
            while !iteration.is_done() {
                iteration.step(self);
            }
            #[cfg(test)]
            assert!(
                iteration.worked || !actor.queue.is_empty() || actor.is_idle(now),
                "an iteration that sent nothing left dn{dn}/nn{nn} with work"
            );
        }
        panic!("quiescence: dn{dn}/nn{nn} still sending after 16 iterations at one instant");
    }

    /// The iteration `settle_pair` skips on an idle actor: it sends nothing and changes no
    /// state (every test that quiesces checks it).
    #[cfg(test)]
    fn check_idle_iteration(&self, dn: usize, nn: usize) {
        let before = self.state();
        let mut iteration = OfferService::iteration(&self.trace, dn, nn);
        while !iteration.is_done() {
            iteration.step(self);
        }
        assert!(!iteration.worked, "an idle dn{dn}/nn{nn} sent something");
        assert!(
            self.state() == before,
            "an idle dn{dn}/nn{nn}'s iteration changed the state"
        );
    }

    /// The blocks finalized on some DataNode.
    pub fn finalized(&self) -> BlockSet {
        self.datanodes
            .iter()
            .fold(BlockSet::EMPTY, |all, d| all.union(d.dataset.finalized()))
    }
}

/// The upstream threads' names: one actor thread and one command thread per (DataNode,
/// NameNode) pair, one `DataXceiver` per DataNode (the model's histories have at most three
/// DataNodes and two NameNodes). Statics, not constants: every program takes its thread's name
/// from here, so one thread's name is one address (the cluster compares them by address).
static THREADS: [[(&str, &str); 2]; MAX_DATANODES] = [
    [
        ("BPServiceActor:dn0/nn0", "CommandProcessingThread:dn0/nn0"),
        ("BPServiceActor:dn0/nn1", "CommandProcessingThread:dn0/nn1"),
    ],
    [
        ("BPServiceActor:dn1/nn0", "CommandProcessingThread:dn1/nn0"),
        ("BPServiceActor:dn1/nn1", "CommandProcessingThread:dn1/nn1"),
    ],
    [
        ("BPServiceActor:dn2/nn0", "CommandProcessingThread:dn2/nn0"),
        ("BPServiceActor:dn2/nn1", "CommandProcessingThread:dn2/nn1"),
    ],
];
static WRITERS: [&str; MAX_DATANODES] = ["DataXceiver:dn0", "DataXceiver:dn1", "DataXceiver:dn2"];

pub fn actor_thread(dn: usize, nn: usize) -> &'static str {
    THREADS[dn][nn].0
}

pub fn command_thread(dn: usize, nn: usize) -> &'static str {
    THREADS[dn][nn].1
}

pub fn writer_thread(dn: usize) -> &'static str {
    WRITERS[dn]
}

/// Runs `program` to its end with no other actor running (see [`run_to_end`]).
fn run(w: &World, mut program: impl Program<World>) {
    run_to_end(&mut program, w);
}

/// Each actor's `ThreadLocalRandom`, seeded.
fn seed(dn: usize, nn: usize) -> u64 {
    0x5EED_0000 + (dn as u64) * 16 + nn as u64
}

pub struct Reregister;

// Every state outcome but O5 is decided on the world at quiescence: `at_quiescence` gives the
// same events, replicas, block locations and FBR times as `settled` (the equivalence test in
// `quiescence.rs` compares these predicates with their first form, on `settled`, over many
// histories).

/// O1: a finalized block dropped from the pending IBRs with no FBR snapshot after the drop.
pub static O1: Outcome<World> = Outcome {
    id: "O1",
    summary: "a finalized block is dropped from the pending IBRs (clearIBRs, or a putMissing that \
              threw) and no FBR snapshot is taken after the drop",
    check: Check::State(|w| {
        w.at_quiescence().ghost.with_events(|events| {
            events.iter().enumerate().find_map(|(i, e)| match e {
                Event::Dropped { dn, nn, blocks, .. } => blocks
                    .iter()
                    .find(|&b| !snapshot_after(events, i, (*dn, *nn), |s| s.contains(b)))
                    .map(|b| {
                        format!(
                            "block {b} dropped from dn{dn}'s pending IBRs for nn{nn}, in no later \
                             FBR"
                        )
                    }),
                _ => None,
            })
        })
    }),
};

/// O2: a registration whose FBR request no FBR honoured.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary: "a registration's FBR request is lost: no FBR snapshot is taken after its \
              scheduleBlockReport before the horizon (the in-flight FBR's scheduleNextBlockReport \
              overwrote it)",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        w.ghost.with_events(|events| {
            events.iter().enumerate().find_map(|(i, e)| match e {
                Event::Requested { dn, nn } if !snapshot_after(events, i, (*dn, *nn), |_| true) => {
                    let next = w.actor(*dn, *nn).scheduler.next_block_report_time();
                    Some(format!(
                        "dn{dn}'s registration with nn{nn} asked for an FBR now; none came, the \
                         next is at {next} ms"
                    ))
                }
                _ => None,
            })
        })
    }),
};

/// O3: at quiescence a NameNode knows no location of a finalized block.
pub static O3: Outcome<World> = Outcome {
    id: "O3",
    summary: "at quiescence a NameNode knows no location of a block finalized on its DataNodes \
              (a missing block once that NameNode is active)",
    check: Check::State(|w| {
        missing(&w.at_quiescence()).map(|(nn, b)| format!("nn{nn} knows no location of block {b}"))
    }),
};

/// O4: the data race on `pendingIBRs`.
pub static O4: Outcome<World> = Outcome {
    id: "O4",
    summary: "data race on pendingIBRs: clearIBRs clears the HashMap without the monitor that \
              notifyNamenodeBlock, generateIBRs and putMissing hold",
    check: Check::Race,
};

/// O7: the data race on `resetBlockReportTime`.
pub static O7: Outcome<World> = Outcome {
    id: "O7",
    summary: "data race on resetBlockReportTime: register's scheduleBlockReport (command thread) \
              writes the plain boolean that the in-flight FBR's scheduleNextBlockReport (actor \
              thread) reads and clears, with no lock in common",
    check: Check::Race,
};

/// O8: a stale REGISTER re-registers (the duplicate registration the report starts from).
pub static O8: Outcome<World> = Outcome {
    id: "O8",
    summary: "a REGISTER answered to an RPC sent under an older registration runs reRegister \
              after a newer registration completed: the duplicate registration (its clearIBRs \
              and FBR request) the report's loss starts from",
    check: Check::State(|w| {
        w.at_quiescence().ghost.with_events(|events| {
            events.iter().find_map(|e| match *e {
                Event::StaleRegister {
                    dn,
                    nn,
                    sent_under,
                    current,
                } => Some(format!(
                    "dn{dn}/nn{nn}: a REGISTER sent under registration {sent_under} re-registered \
                     after registration {current}"
                )),
                _ => None,
            })
        })
    }),
};

/// O9: two NameNodes disagree at quiescence: one locates a block the other locates nowhere.
pub static O9: Outcome<World> = Outcome {
    id: "O9",
    summary: "at quiescence one NameNode locates a block that another NameNode locates nowhere: \
              the block is missing once the second one becomes active (the report's failover)",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        let located: Vec<BlockSet> = w
            .namenodes
            .iter()
            .map(|n| n.with_state(|s| s.located()))
            .collect();
        located.iter().enumerate().find_map(|(a, la)| {
            located.iter().enumerate().find_map(|(b, lb)| {
                la.difference(*lb).first().map(|block| {
                    format!("nn{a} locates block {block}, nn{b} knows no location of it")
                })
            })
        })
    }),
};

/// O5: `putMissing` after a concurrent `clearIBRs` (the code shows it, the report does not).
pub static O5: Outcome<World> = Outcome {
    id: "O5",
    summary: "putMissing after a failed IBR RPC finds the storage entry removed by a concurrent \
              clearIBRs: NullPointerException upstream, the re-queued blocks are lost",
    check: Check::State(|w| {
        w.ghost.with_events(|events| {
            events.iter().find_map(|e| match e {
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
        })
    }),
};

/// R1: the report's wider window — a block queued between the drain and the snapshot, lost.
pub static R1: Outcome<World> = Outcome {
    id: "R1",
    summary: "the report's window as worded: a block queued for IBR after blockReport's IBR drain \
              and before its snapshot is unknown to the NameNode at quiescence",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        let lost = |dn: usize, nn: usize, b: Block| {
            w.datanodes[dn].dataset.finalized().contains(b) && !w.namenodes[nn].locates(dn, b)
        };
        w.ghost.with_events(|events| {
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
        })
    }),
};

/// O6: the single-registration race (the code shows it, the report does not).
pub static O6: Outcome<World> = Outcome {
    id: "O6",
    summary: "a block goes missing with a single registration (no duplicate REGISTER): the \
              heartbeat answer that asks the DataNode to register also grants a lease, and the \
              FBR it starts races that one registration",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        let (nn, b) = missing(w)?;
        let once = w.ghost.with_events(|events| {
            (0..w.datanodes.len()).all(|dn| {
                events
                    .iter()
                    .filter(
                        |e| matches!(e, Event::Requested { dn: d, nn: n } if (*d, *n) == (dn, nn)),
                    )
                    .count()
                    <= 1
            })
        });
        once.then(|| {
            format!("nn{nn} knows no location of block {b}; no DataNode registered with it twice")
        })
    }),
};

/// A block finalized somewhere that NameNode `nn` locates nowhere: the first such NameNode
/// and the smallest such block.
pub fn missing(w: &World) -> Option<(usize, Block)> {
    let finalized = w.finalized();
    w.namenodes.iter().enumerate().find_map(|(nn, n)| {
        let unlocated = n.with_state(|state| finalized.difference(state.located()));
        unlocated.first().map(|b| (nn, b))
    })
}

impl Model for Reregister {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "reregister",
        module: "reregister",
        report: "HDFS-17969",
        title: "DataNode re-registration after a NameNode restart loses IBRs and the registration's FBR",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] =
        &[&O1, &O2, &O3, &O4, &O5, &O6, &O7, &O8, &O9, &R1];
    const BASELINES: &'static [Baseline<Fix>] = &[
        Baseline {
            name: REPORT,
            repo: "apache/hadoop",
            commit: "rel/release-3.5.0",
            about: "Hadoop 3.5.0, before HDFS-17953 (IncrementalBlockReportManager.clearIBRs \
                    unsynchronized, putMissing without a null check: premises RR_P2 and RR_P3 on \
                    hadoop-hdfs 3.5.0), with BPServiceActor's CommandProcessingThread and \
                    Scheduler as the model has them (premises RR_P1, RR_P4, RR_P5)",
            changes: &[],
        },
        Baseline {
            name: "trunk",
            repo: "apache/hadoop",
            commit: "2f3cdd76861dce4d2b0df5b298bb308d1975202d",
            about: "Hadoop trunk with HDFS-17953 (PR #8626): clearIBRs synchronized and resetting \
                    pendingBlockCount, putMissing skipping a storage a clear removed, \
                    clearIBRsIfNeeded at dfs.datanode.ibr.max.pending.blocks",
            changes: TRUNK,
        },
    ];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("P1", &[&P1]),
        Variant::new("P2", &[&P2]),
        Variant::new("P3", &[&P3]),
        Variant::new("proposed", PROPOSED),
        Variant::new("P1+P3", &[&P1, &P3]),
        Variant::new("P2+P3", &[&P2, &P3]),
        Variant::new("P1+P2+P3", &[&P1, &P2, &P3]),
        Variant::new("notify-first", &[&NOTIFY_FIRST]),
        Variant::on("trunk", "trunk", &[]),
        Variant::on("trunk", "trunk+P1", &[&P1]),
        Variant::on("trunk", "trunk+P2", &[&P2]),
        Variant::on("trunk", "trunk+P3", &[&P3]),
        Variant::on("trunk", "trunk+P1+P2", PROPOSED),
    ];
    const FINDINGS: &'static [Finding] = findings::FINDINGS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    /// At quiescence: where each NameNode locates each finalized block, the blocks dropped
    /// from pending IBRs, and whether every registration got its FBR.
    fn describe(w: &World) -> String {
        let settled = w.at_quiescence();
        let finalized = settled.finalized();
        let mut out = Vec::new();
        // The same, as `key=value` words (what a real run's trace states, see validate.rs).
        let mut words = Vec::new();
        for (nn, n) in settled.namenodes.iter().enumerate() {
            let state = n.state();
            let unknown: Vec<Block> = finalized.difference(state.located()).iter().collect();
            out.push(format!(
                "nn{nn} {:?} without a location: {unknown:?}",
                state.ha
            ));
            let listed: Vec<String> = unknown.iter().map(|b| b.to_string()).collect();
            let listed = if listed.is_empty() {
                "none".to_owned()
            } else {
                listed.join("+")
            };
            words.push(format!("unlocated.nn{nn}={listed}"));
        }
        let events = settled.ghost.events();
        let dropped: Vec<Block> = events
            .iter()
            .filter_map(|e| match e {
                Event::Dropped { blocks, .. } => Some(blocks.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        let lost = events.iter().enumerate().any(|(i, e)| {
            matches!(e, Event::Requested { dn, nn } if !snapshot_after(&events, i, (*dn, *nn), |_| true))
        });
        let fbrs = if lost { "lost" } else { "honoured" };
        format!(
            "at quiescence: {}; dropped from pending IBRs: {dropped:?}; registration FBRs {fbrs} \
             ({} fbrs={fbrs})",
            out.join("; "),
            words.join(" ")
        )
    }
}

impl Claimed for Reregister {
    const CLAIMS: Claims<Self> = claims::CLAIMS;
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::scenarios::DOUBLE_REGISTER_STANDBY;
    use super::*;
    use crate::claims::Verdict;
    use crate::steps::{enumerate, every_choice};

    /// The report's wider window (R1) is not a loss: a block queued between the drain and the
    /// snapshot was finalized before the snapshot, so the in-flight FBR carries it. Not a matrix
    /// cell: no fix variant reaches R1, so it has no reachable twin; the writer-order mutant is
    /// the twin here, over every order of whole steps.
    #[test]
    fn the_reports_wider_window_is_covered_by_the_snapshot() {
        let upstream = enumerate(&DOUBLE_REGISTER_STANDBY, Fix::UPSTREAM, &R1, every_choice);
        assert_eq!(
            upstream.observed,
            Verdict::Unreachable,
            "{:?}",
            upstream.counterexample
        );
        let notify_first = Reregister::fix(&[&NOTIFY_FIRST]);
        let mutant = enumerate(&DOUBLE_REGISTER_STANDBY, notify_first, &R1, every_choice);
        assert_eq!(mutant.observed, Verdict::Reachable);
        println!(
            "R1: upstream unreachable over {} schedules; notify-before-finalize reaches it",
            upstream.schedules
        );
    }

    /// With the NameNode ACTIVE at REG2 nothing is cleared: X goes out as an IBR after the FBR,
    /// and only the FBR request is lost (O2, a matrix cell). Not matrix cells: no variant
    /// reaches O1 or O3 here, so they have no reachable twin; the STANDBY scenario, identical but
    /// for the HA state, is the contrast.
    #[test]
    fn with_the_namenode_active_only_the_fbr_request_is_lost() {
        use super::scenarios::DOUBLE_REGISTER_ACTIVE;
        for o in [&O1, &O3] {
            let active = enumerate(&DOUBLE_REGISTER_ACTIVE, Fix::UPSTREAM, o, every_choice);
            assert_eq!(
                active.observed,
                Verdict::Unreachable,
                "{}: {:?}",
                o.id,
                active.counterexample
            );
            let standby = enumerate(&DOUBLE_REGISTER_STANDBY, Fix::UPSTREAM, o, every_choice);
            assert_eq!(standby.observed, Verdict::Reachable, "{}", o.id);
        }
    }

    /// P3's tag on both REGISTER paths: the REGISTER a heartbeat is answered with carries the
    /// registration the heartbeat was sent under; the one an FBR is answered with (trunk's
    /// `NameNodeRpcServer.blockReport` for an unknown node) carries the registration the FBR was
    /// sent under, read at its drain, not the one current when `blockReport` returns (the
    /// P3-late-tag mutant). In both scenarios registration 2 has completed when REG2 is taken.
    #[test]
    fn a_register_is_tagged_with_the_registration_its_rpc_was_sent_under() {
        use super::scenarios::fbr_register_start;
        // The queue's fingerprint: its length, then per batch the true registration (bit 33 up),
        // the tag (bit 1 up) and REGISTER (bit 0).
        let queued = |w: &World| {
            let mut fingerprint = Vec::new();
            w.actor(0, 0).queue.fingerprint(&mut fingerprint);
            fingerprint
        };
        for (p3, tag) in [(P3::Drop, 1), (P3::LateTag, 2)] {
            let fix = Fix {
                p3: Switch::new(p3),
                ..Fix::UPSTREAM
            };
            let trace = Trace::new();
            let w = fbr_register_start(fix, &trace);
            assert_eq!(w.actor(0, 0).registration(), 2, "{p3:?}");
            assert_eq!(
                queued(&w),
                vec![1, 1 << 33 | tag << 1 | 1],
                "{p3:?}: FBR path"
            );
            let w = scenarios::double_register_start(fix, &trace, HaState::Standby);
            assert_eq!(w.actor(0, 0).registration(), 2, "{p3:?}");
            assert_eq!(
                queued(&w),
                vec![1, 1 << 33 | 1 << 1 | 1],
                "{p3:?}: heartbeat path"
            );
        }
    }

    /// RR-4 (ConcurrentModificationException, before HDFS-17953): a CME needs `clearIBRs` to
    /// run unsynchronized while a writer or the actor walks `pendingIBRs`; the model has one
    /// storage and no CME. Every row in which that can happen already reaches O3 or O6 in the
    /// scenario where the clear races the writer, but for P1+P3: there a CME in the writer's
    /// walk over the actors (`BPOfferService.notifyNamenodeBlock`) would skip the later
    /// NameNodes' queues, a loss no cell of that row shows. P1+P3 is argued not a fix on the
    /// report's code (DESIGN-NOTES, RR-4); the rows with P2 and the trunk rows have no
    /// unsynchronized clear. A new row in that gap fails here.
    #[test]
    fn every_row_with_an_unsynchronized_clear_but_p1_p3_already_loses_a_block() {
        use crate::claims::Verdict::Reachable;
        let gap: Vec<&str> = Reregister::VARIANTS
            .iter()
            .filter(|v| {
                let fix = Reregister::fix_of_variant(v);
                let unsynchronized = !fix.h17953.get() && fix.p2.get() == P2::Off;
                let loses = claims::CLAIMS.cells.iter().any(|c| {
                    c.variant == v.name
                        && matches!(c.outcome.id, "O3" | "O6")
                        && c.expected == Reachable
                        && c.method.loom_scenario().is_some()
                });
                unsynchronized && !loses
            })
            .map(|v| v.name)
            .collect();
        assert_eq!(gap, ["P1+P3"]);
    }

    /// RR-1 on trunk: when the IBR RPC fails while reRegister clears, HDFS-17953's putMissing
    /// skips the storage the clear removed: no NullPointerException (O5), but the blocks it
    /// would have re-queued are dropped silently, in some order of whole steps. The same
    /// registration then asks for an FBR whose snapshot carries them: O1 and O3 stay
    /// unreachable in this scenario (the trunk/O5 cell's note).
    #[test]
    fn on_trunk_put_missing_drops_silently_and_the_registration_fbr_covers_it() {
        use super::scenarios::FAILED_IBR_VS_CLEAR;
        static SILENT: Outcome<World> = Outcome {
            id: "silent-drop",
            summary: "putMissing skipped a cleared storage",
            check: Check::State(|w| {
                w.ghost.with_events(|events| {
                    events.iter().find_map(|e| match e {
                        Event::Dropped {
                            npe: false, blocks, ..
                        } => Some(format!("{} dropped", blocks.list())),
                        _ => None,
                    })
                })
            }),
        };
        let trunk = Reregister::fix(TRUNK);
        let silent = enumerate(&FAILED_IBR_VS_CLEAR, trunk, &SILENT, every_choice);
        assert_eq!(silent.observed, Verdict::Reachable);
        for o in [&O1, &O3, &O5] {
            let e = enumerate(&FAILED_IBR_VS_CLEAR, trunk, o, every_choice);
            assert_eq!(
                e.observed,
                Verdict::Unreachable,
                "{}: {:?}",
                o.id,
                e.counterexample
            );
        }
    }

    /// The periodic FBR of every loom scenario lies beyond the quiescence horizon: otherwise a
    /// lost request would be hidden by a lucky draw.
    #[test]
    fn the_seeded_periodic_fbr_is_beyond_the_horizon() {
        let trace = Trace::new();
        let w = scenarios::double_register_start(Fix::UPSTREAM, &trace, HaState::Standby);
        let s = &w.actor(0, 0).scheduler;
        for _ in 0..4 {
            s.schedule_next_block_report_time(&trace.actor("test"), 0);
            assert!(s.next_block_report_time() > QUIESCENCE_HORIZON);
        }
    }
}
