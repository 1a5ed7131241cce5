//! What the outcome predicates observe beyond upstream state: which datanodes deleted or
//! recreated which containers, what the client was told, what each member answered, and what
//! SCM decided. Kept with std primitives, as the trace is: observing adds no interleaving.

use super::datanode::Res;
use super::dense::PairSet;
use super::dispatcher::{Reply, Stage};
use super::pipeline::ClientResult;
use super::{ContainerId, DnId};
use std::sync::{Mutex, MutexGuard, PoisonError};

#[derive(Debug, Default, Clone)]
pub struct GhostState {
    /// (datanode, container) pairs a force delete removed from the container map.
    pub deleted: PairSet,
    /// Pairs auto-created after such a delete: every replica of [`Origin::Recreated`] was
    /// added to its datanode's map with its pair recorded here (the auto-create that makes one
    /// checks `deleted`, which only grows, and records the pair once the add succeeds), and no
    /// pair is ever removed. The outcome predicates look for recreated replicas only here.
    ///
    /// [`Origin::Recreated`]: super::datanode::Origin::Recreated
    pub recreated: PairSet,
    pub clients: Vec<ClientResult>,
    /// Every member's reply, in order: (datanode, PutBlock?, stage, reply).
    pub replies: Vec<(DnId, bool, Stage, Reply)>,
    /// Outcomes witnessed at a decision (SCM's deletes and copies), first witness each, in
    /// the order witnessed.
    pub witnessed: Vec<(&'static str, String)>,
}

/// A copy of `items` with room for at least `room` of them.
pub(super) fn with_room<T: Clone>(room: usize, items: &[T]) -> Vec<T> {
    let mut v = Vec::with_capacity(room.max(items.len()));
    v.extend_from_slice(items);
    v
}

#[derive(Debug, Default)]
pub struct Ghost(Mutex<GhostState>);

impl Ghost {
    #[inline(never)]
    fn state(&self) -> MutexGuard<'_, GhostState> {
        // A model panic (a violation) may happen while recording; the state stays valid.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut GhostState) -> R) -> R {
        f(&mut self.state())
    }

    pub fn snapshot(&self) -> GhostState {
        self.state().clone()
    }

    /// Another ghost with the same observations, and room for what a history appends (a
    /// long one's member replies and clients), so that recording them does not reallocate.
    pub fn fork(&self) -> Self {
        let g = self.state();
        Ghost(Mutex::new(GhostState {
            deleted: g.deleted,
            recreated: g.recreated,
            clients: with_room(16, &g.clients),
            replies: with_room(160, &g.replies),
            witnessed: g.witnessed.clone(),
        }))
    }

    pub fn deleted(&self, dn: DnId, id: ContainerId) {
        self.state().deleted.insert((dn, id));
    }

    pub fn force_deleted(&self, dn: DnId, id: ContainerId) -> bool {
        self.state().deleted.contains((dn, id))
    }

    pub fn recreated(&self, dn: DnId, id: ContainerId) {
        let mut g = self.state();
        if g.deleted.contains((dn, id)) {
            g.recreated.insert((dn, id));
        }
    }

    pub fn client_result(&self, r: ClientResult) {
        self.state().clients.push(r);
    }

    pub fn member_reply(&self, dn: DnId, put_block: bool, stage: Stage, reply: Reply) {
        self.state().replies.push((dn, put_block, stage, reply));
    }

    pub fn witness(&self, outcome: &'static str, witness: String) {
        let mut g = self.state();
        if !g.witnessed.iter().any(|w| w.0 == outcome) {
            g.witnessed.push((outcome, witness));
        }
    }

    pub fn witnessed(&self, outcome: &'static str) -> Option<String> {
        let g = self.state();
        g.witnessed
            .iter()
            .find(|w| w.0 == outcome)
            .map(|w| w.1.clone())
    }

    /// The replies of `dn`, rendered (for the reproductions).
    pub fn replies_of(&self, dn: DnId) -> Vec<Res> {
        self.state()
            .replies
            .iter()
            .filter(|r| r.0 == dn)
            .filter_map(|r| r.3.res())
            .collect()
    }
}
