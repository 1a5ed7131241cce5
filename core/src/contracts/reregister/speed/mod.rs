//! What makes reregister's outcomes fast to decide, and none of it upstream behaviour: the
//! settled world's cache ([`World::at_quiescence`], kept until the next write to model state,
//! [`writes`]), the memo of settled worlds by fingerprint ([`memo`]), the world's fingerprint,
//! and the shortcuts of settling (stop once every pair is calm, skip an idle actor's
//! iteration), each checked by every test. The spec reads the world at quiescence through
//! [`World::at_quiescence`]; what quiescence is, [`World::quiesce`], is in `world.rs`.

pub mod counted;
#[cfg(not(loom))]
mod memo;
#[cfg(all(test, not(loom)))]
mod quiescence;
pub mod writes;

use super::actor::BPServiceActor;
use super::actor::OfferService;
use super::command_processor::ProcessCommand;
use super::ghost::Ghost;
use super::namenode::NameNode;
use super::world::run;
use super::{Clock, DataNode, Millis, World, QUIESCENCE_HORIZON};
use crate::model::Program;
use crate::sync::unseen::{self, Arc};
use crate::trace::Trace;
use writes::writes;

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

/// The last answer of [`World::at_quiescence`] and the write count it was given at; and, in a
/// settled world, the outcomes found not to hold in the quiet states it settles
/// ([`World::known_clear`]). Real std primitives: the caches are no model state and add no
/// interleavings.
#[derive(Default)]
pub(super) struct SettledCache(unseen::Mutex<Option<Cached>>, unseen::AtomicU64);

struct Cached {
    /// [`writes::writes`] when the answer was given.
    writes: u64,
    /// `None`: the world was calm.
    settled: Option<Arc<World>>,
    /// The world's state then ([`World::fingerprint`]).
    #[cfg(test)]
    before: Vec<u64>,
}

impl std::fmt::Debug for SettledCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SettledCache")
    }
}

impl World {
    /// A copy in the same state, recording into `trace`.
    pub(super) fn duplicate(&self, trace: &Trace) -> World {
        self.with_ghost(self.ghost.duplicate(), trace)
    }

    /// A copy in the same state but for the ghost, which is `ghost`, recording into `trace`.
    pub(super) fn with_ghost(&self, ghost: Ghost, trace: &Trace) -> World {
        World {
            fix: self.fix,
            clock: Clock::at(self.clock.now()),
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
        fingerprint.extend([
            self.fix.fingerprint(),
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
    pub(super) fn state(&self) -> Vec<u64> {
        let mut fingerprint = Vec::new();
        self.fingerprint(&mut fingerprint);
        self.ghost.fingerprint(&mut fingerprint);
        fingerprint
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
                "a write to model state not counted (a primitive not from `speed::counted`)"
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
    pub(super) fn settle_copy(&self) -> Arc<World> {
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

    pub(super) fn view(&self, settled: &Option<Arc<World>>) -> Quiescent<'_> {
        match settled {
            None => Quiescent::Calm(self),
            Some(w) => Quiescent::Settled(w.clone()),
        }
    }

    /// The outcomes recorded not to hold in this quiet state ([`World::record_clear`]), a bit
    /// per index in `OUTCOMES`: those recorded on its settled world when that world is one from
    /// the memo. A memo world is given only to states with its fingerprint and its first events
    /// ([`memo`]), so every state it is given is one state: the same fingerprint, so the same
    /// settled world, and the same events, so the same ghost (O5 reads the state's own). Each
    /// outcome is a function of that state, so a verdict on one is the verdict on every other.
    /// A calm state (no settled world) and a world rebased onto other events (a new settled
    /// world) start with none. Not under loom, where each settled world is a new simulation.
    pub fn known_clear(&self) -> u64 {
        match self.at_quiescence() {
            Quiescent::Settled(w) if cfg!(not(loom)) => w.settled.1.load(unseen::Ordering::Relaxed),
            _ => 0,
        }
    }

    /// Records that the outcomes in `clear` do not hold in this quiet state (see
    /// [`World::known_clear`]).
    pub fn record_clear(&self, clear: u64) {
        if let Quiescent::Settled(w) = self.at_quiescence() {
            if cfg!(not(loom)) {
                let known = &w.settled.1;
                known.store(
                    known.load(unseen::Ordering::Relaxed) | clear,
                    unseen::Ordering::Relaxed,
                );
            }
        }
    }

    /// Whether every pair is calm until `until` ([`BPServiceActor::is_calm`]).
    pub(super) fn is_calm(&self, until: Millis) -> bool {
        self.pairs()
            .all(|(dn, nn)| self.actor(dn, nn).is_calm(&self.namenodes[nn], until))
    }

    /// [`World::quiesce`]; with `until_calm`, only until every pair is calm.
    pub(super) fn run_loops(&self, horizon: Millis, until_calm: bool) {
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
            // Every pair was just run until idle at `now`, so no heartbeat is still due: a next
            // heartbeat at or before `now` would leave the clock where it is and loop for ever.
            let now = self.clock.now();
            assert!(
                next > now,
                "quiescence: the next heartbeat ({next}) is not after now ({now}): the clock \
                 cannot advance"
            );
            self.clock.set(next);
        }
    }

    pub(super) fn settle_pair(&self, dn: usize, nn: usize) {
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
    pub(super) fn check_idle_iteration(&self, dn: usize, nn: usize) {
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
}
