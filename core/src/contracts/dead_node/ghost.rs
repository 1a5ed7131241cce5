//! Ghost state: what the outcome predicates need and upstream does not keep (when a node went
//! DEAD and whether it had registered shortly before, when its heartbeat time was last
//! written, which datanode processes are down, the first witness of each outcome).
//!
//! Kept under a real (not loom) mutex, outside loom's view, and written only inside a critical section of
//! the model that orders the event (the node table's lock for health, heartbeat and
//! registration facts; the container manager's lock for replicas), so the ghost order of two
//! events is the order of the locks that carry them. The predicates compare ghost sequence
//! numbers only between events that a common lock or an event queue orders, so an order loom
//! does not distinguish never decides a verdict. Nothing in the model reads ghost state to
//! decide what to do.

use super::ids::{slot, NodeId, NodeSet, NODE_SLOTS};
use crate::outcome::OutcomeId;
use crate::sync::unseen::{AtomicBool, Mutex, MutexGuard, Ordering};

/// A stay in DEAD: the transition into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Episode {
    /// Ghost order of the transition.
    pub seq: u64,
    /// The health check's tick.
    pub time: u64,
    /// The evidence of life the transition was written against, if any.
    pub against: Option<Against>,
}

/// Evidence of life in SCM's own state when a health check wrote DEAD, one kind per window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The datanode, up, had registered within the dead interval, but its heartbeat time is
    /// the old one (the registration refreshed nothing: O2, the P1 bug).
    Registration,
    /// The heartbeat time was refreshed (a heartbeat, or P1's registration) between the
    /// check's deadline test and its write (O6).
    RefreshDuringCheck,
    /// `updateNode` replaced the `DatanodeInfo` between the check's status read and its
    /// write: the new object, just registered, got the DEAD the old one's heartbeat time
    /// earned (O7).
    ReplacedObject,
}

impl Against {
    /// The outcome a removal of the node's replicas in such a DEAD is.
    pub fn outcome(self) -> crate::outcome::OutcomeId {
        match self {
            Against::Registration => "O2",
            Against::RefreshDuringCheck => "O6",
            Against::ReplacedObject => "O7",
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct NodeGhost {
    /// The current DEAD episode (`Some` while DEAD).
    pub dead: Option<Episode>,
    /// The node's last transition into DEAD, kept after it leaves DEAD: what a removal of its
    /// replicas is judged against, whatever the handler read.
    pub last_dead: Option<Episode>,
    /// Ghost order of the last write of the heartbeat time.
    pub refreshed: u64,
    /// That write came from the datanode (a heartbeat or its registration), not from Recon's
    /// reload registering a stored node.
    pub refreshed_by_datanode: bool,
    /// The current `DatanodeInfo` was created by Recon's reload (`updateNode` for a row that
    /// differs from memory).
    pub replaced_by_reload: bool,
    /// The last registration of the datanode SCM processed: ghost order and tick.
    pub registered: Option<(u64, u64)>,
    /// The registration (ghost order) whose report was the last one applied for the node.
    pub reported: Option<u64>,
}

#[derive(Debug, Default)]
pub struct GhostState {
    seq: u64,
    /// The health checker's current tick (the time a registration is processed at, for
    /// [`Against::Registration`]; upstream `register` reads no clock).
    pub now: u64,
    /// By node ID ([`GhostState::node`]).
    pub nodes: [NodeGhost; NODE_SLOTS],
    /// Datanode processes that are stopped (or cut off): they send nothing until they return.
    pub down: NodeSet,
    /// The first witness of each outcome, in the order found (empty in most histories).
    witnesses: Vec<(OutcomeId, String)>,
}

impl GhostState {
    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// The ghost order of the last event (a read happens after it).
    pub fn last_seq(&self) -> u64 {
        self.seq
    }

    pub fn node(&mut self, id: NodeId) -> &mut NodeGhost {
        &mut self.nodes[slot(id)]
    }

    /// Records the first witness of `outcome`.
    fn witness(&mut self, outcome: OutcomeId, text: String) {
        if !self.witnesses.iter().any(|w| w.0 == outcome) {
            self.witnesses.push((outcome, text));
        }
    }
}

#[derive(Debug, Default)]
pub struct Ghost {
    state: Mutex<GhostState>,
    /// Some witness was recorded: until then (most histories) the outcomes decided by
    /// witness need not take the lock.
    witnessed_any: AtomicBool,
}

impl Ghost {
    pub fn with<R>(&self, f: impl FnOnce(&mut GhostState) -> R) -> R {
        f(&mut self.lock())
    }

    /// One copy of the lock's code (as `crate::sync`'s locks have: most steps and predicates
    /// take the ghost).
    fn lock(&self) -> MutexGuard<'_, GhostState> {
        self.state.lock()
    }

    /// Records the first witness of `outcome`.
    pub fn witness(&self, outcome: OutcomeId, text: String) {
        self.with(|g| g.witness(outcome, text));
        self.witnessed_any.store(true, Ordering::Relaxed);
    }

    pub fn witnessed(&self, outcome: OutcomeId) -> Option<String> {
        if !self.witnessed_any.load(Ordering::Relaxed) {
            return None;
        }
        self.witness_of(outcome)
    }

    /// The first witness of `outcome` (out of line: most checks end at `witnessed_any`,
    /// without this frame).
    fn witness_of(&self, outcome: OutcomeId) -> Option<String> {
        self.with(|g| {
            g.witnesses
                .iter()
                .find(|w| w.0 == outcome)
                .map(|w| w.1.clone())
        })
    }
}
