//! Building a world, reading it, and running it on to quiescence: the DataNodes' loops alone,
//! once the concurrent part is over.

use super::actor::{ActorStart, BPServiceActor};
use super::blocks::BlockSet;
use super::fs_dataset::FsDataset;
use super::ghost::{snapshot_after, Event, Ghost};
use super::namenode::{HaState, NameNode};
use super::speed::counted::unseen::{AtomicI64, Ordering};
use super::{Block, DataNode, Fix, Millis, World, P2, QUIESCENCE_HORIZON};
use crate::model::{run_alone, Program};
use crate::trace::Trace;

/// The logical clock: advanced only by quiescence and histories, never by the concurrent steps
/// of a loom scenario (a real std atomic: time is not a synchronization point).
#[derive(Debug, Default)]
pub struct Clock(AtomicI64);

impl Clock {
    /// A clock at `t` (a copy's).
    pub(super) fn at(t: Millis) -> Clock {
        Clock(AtomicI64::new(t))
    }

    pub fn now(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }

    pub fn set(&self, t: Millis) {
        self.0.store(t, Ordering::SeqCst);
    }
}

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
        let clear_unlocked = fix.keep_ibrs.get() == P2::Off && !fix.clear_ibrs_synchronized.get();
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
            settled: Default::default(),
        }
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

    /// At quiescence: where each NameNode locates each finalized block, the blocks dropped
    /// from pending IBRs, and whether every registration got its FBR.
    pub fn describe(&self) -> String {
        let settled = self.at_quiescence();
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

    /// The blocks finalized on some DataNode.
    pub fn finalized(&self) -> BlockSet {
        self.datanodes
            .iter()
            .fold(BlockSet::EMPTY, |all, d| all.union(d.dataset.finalized()))
    }
}

/// Each actor's `ThreadLocalRandom`, seeded.
fn seed(dn: usize, nn: usize) -> u64 {
    0x5EED_0000 + (dn as u64) * 16 + nn as u64
}

/// Runs `program` to its end with no other actor running; fails where it cannot (see
/// [`run_alone`]).
pub fn run(w: &World, mut program: impl Program<World>) {
    run_alone(&mut program, w);
}
