//! What the outcome predicates observe beyond upstream state: which datanodes deleted or
//! recreated which containers, what the client was told, what each member answered, and what
//! SCM decided (with what the datanodes held then). Kept with real primitives, not loom's, as the trace is: observing adds no
//! interleaving.

use super::datanode::Res;
use super::dispatcher::{Reply, Stage};
use super::scm::ScmDecision;
use super::speed::dense::PairSet;
use super::{ContainerId, DnId, LocalId};
use crate::sync::unseen::{AtomicBool, Mutex, MutexGuard, Ordering};

/// What the client saw for one command: `None` while unanswered or when the pipeline closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientResult {
    pub container: ContainerId,
    pub block: LocalId,
    pub write_chunk: Option<Res>,
    pub put_block: Option<Res>,
}

impl ClientResult {
    pub fn succeeded(&self) -> bool {
        self.write_chunk == Some(Res::Success) && self.put_block == Some(Res::Success)
    }
}

/// A pipeline member's reply to a client's command: (datanode, PutBlock?, stage, reply).
pub type MemberReply = (DnId, bool, Stage, Reply);

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
    /// Every member's reply, in order.
    pub replies: Vec<MemberReply>,
    /// SCM's deletes and copies, in the order carried out.
    pub decisions: Vec<ScmDecision>,
}

/// A copy of `items` with room for at least `room` of them.
pub(super) fn with_room<T: Clone>(room: usize, items: &[T]) -> Vec<T> {
    let mut v = Vec::with_capacity(room.max(items.len()));
    v.extend_from_slice(items);
    v
}

#[derive(Debug, Default)]
pub struct Ghost {
    state: Mutex<GhostState>,
    /// Whether `recreated` holds a pair, and whether `decisions` holds one: until then (most
    /// states of a history, every state under a fix that refuses the recreate) the predicates
    /// that look only there need not take the lock. Written under it.
    any_recreated: AtomicBool,
    any_decided: AtomicBool,
}

impl Ghost {
    fn state(&self) -> MutexGuard<'_, GhostState> {
        self.state.lock()
    }

    /// Reads the observations (they change only through the methods below, which keep the
    /// flags).
    pub fn with<R>(&self, f: impl FnOnce(&GhostState) -> R) -> R {
        f(&self.state())
    }

    /// `f` on the observations once some pair was recreated; `None` before.
    pub fn once_recreated<R>(&self, f: impl FnOnce(&GhostState) -> Option<R>) -> Option<R> {
        if !self.any_recreated.load(Ordering::Relaxed) {
            return None;
        }
        self.with(f)
    }

    pub fn snapshot(&self) -> GhostState {
        self.state().clone()
    }

    /// A ghost with the observations of `g`, and room for what a history appends (a long
    /// one's member replies and clients), so that recording them does not reallocate.
    pub fn from_state(g: &GhostState) -> Self {
        Ghost {
            state: Mutex::new(GhostState {
                deleted: g.deleted,
                recreated: g.recreated,
                clients: with_room(16, &g.clients),
                replies: with_room(160, &g.replies),
                decisions: g.decisions.clone(),
            }),
            any_recreated: AtomicBool::new(!g.recreated.is_empty()),
            any_decided: AtomicBool::new(!g.decisions.is_empty()),
        }
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
            self.any_recreated.store(true, Ordering::Relaxed);
        }
    }

    /// A client's write has finished: what it was told, and every member's reply to it.
    pub fn client_finished(&self, r: ClientResult, replies: &[MemberReply]) {
        let mut g = self.state();
        g.clients.push(r);
        g.replies.extend_from_slice(replies);
    }

    /// SCM carried out `d`.
    pub fn decided(&self, d: ScmDecision) {
        self.state().decisions.push(d);
        self.any_decided.store(true, Ordering::Relaxed);
    }

    /// `f` on SCM's decisions once there is one; `None` before.
    pub fn once_decided<R>(&self, f: impl FnOnce(&[ScmDecision]) -> Option<R>) -> Option<R> {
        if !self.any_decided.load(Ordering::Relaxed) {
            return None;
        }
        f(&self.state().decisions)
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
