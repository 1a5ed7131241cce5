//! Ghost state: what the outcome predicates need and upstream does not keep (when a node went
//! DEAD and whether it had registered shortly before, when its heartbeat time was last
//! written, which datanode processes are down, the first witness of each outcome).
//!
//! Kept under a std mutex, outside loom's view, and written only inside a critical section of
//! the model that orders the event (the node table's lock for health, heartbeat and
//! registration facts; the container manager's lock for replicas), so the ghost order of two
//! events is the order of the locks that carry them. The predicates compare ghost sequence
//! numbers only between events that a common lock or an event queue orders, so an order loom
//! does not distinguish never decides a verdict. Nothing in the model reads ghost state to
//! decide what to do.

use super::NodeId;
use crate::outcome::OutcomeId;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

/// A stay in DEAD: the transition into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Episode {
    /// Ghost order of the transition.
    pub seq: u64,
    /// The health check's tick.
    pub time: u64,
    /// SCM had processed a registration of the node within the dead interval before this
    /// transition: it declared DEAD a node it had evidence was alive (the P1 bug).
    pub despite_registration: bool,
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
    /// The last registration of the datanode SCM processed: ghost order and tick.
    pub registered: Option<(u64, u64)>,
    /// The registration (ghost order) whose report was the last one applied for the node.
    pub reported: Option<u64>,
}

#[derive(Debug, Default)]
pub struct GhostState {
    seq: u64,
    /// The health checker's current tick (the time a registration is processed at, for
    /// `despite_registration`; upstream `register` reads no clock).
    pub now: u64,
    pub nodes: BTreeMap<NodeId, NodeGhost>,
    /// Datanode processes that are stopped (or cut off): they send nothing until they return.
    pub down: BTreeSet<NodeId>,
    witnesses: BTreeMap<OutcomeId, String>,
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
        self.nodes.entry(id).or_default()
    }

    /// Records the first witness of `outcome`.
    pub fn witness(&mut self, outcome: OutcomeId, text: String) {
        self.witnesses.entry(outcome).or_insert(text);
    }
}

#[derive(Debug, Default)]
pub struct Ghost(Mutex<GhostState>);

impl Ghost {
    pub fn with<R>(&self, f: impl FnOnce(&mut GhostState) -> R) -> R {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    pub fn witnessed(&self, outcome: OutcomeId) -> Option<String> {
        self.with(|g| g.witnesses.get(outcome).cloned())
    }
}
