//! SCM's close of a container on the datanodes: `CloseContainerCommandHandler` puts the close
//! through Ratis and every member applies it (`KeyValueHandler.handleCloseContainer`); SCM's
//! force delete then follows on the leader.

use super::datanode::{Datanode, State};
use super::delete::DeleteContainerCommandHandler;
use super::{run, ContainerId, DnId, World, LEADER, PIPELINE};
use crate::model::{Program, Then};
use crate::trace::{Cx, CxRef, Trace};

/// `CloseContainerCommandHandler` → the close submitted through Ratis and applied on every
/// member (`handleCloseContainer`: `markContainerForClose`, `closeContainer`, under the
/// container write lock); SCM moves the container to CLOSED at the members' BCSID.
#[derive(Debug)]
pub struct CloseThroughPipeline {
    cx: Cx,
    id: ContainerId,
    members: &'static [DnId],
    member: usize,
    /// The leader's BCSID when the close was applied there (0 if it had no replica): what its
    /// ICR reports, and so the sequence id SCM closes the container at.
    leader_bcsid: u64,
}

impl CloseThroughPipeline {
    pub const ACTOR: &'static str = "apply (CloseContainer)";

    pub fn new(trace: &Trace, members: &'static [DnId], id: ContainerId) -> Self {
        CloseThroughPipeline {
            cx: trace.actor(Self::ACTOR),
            id,
            members,
            member: 0,
            leader_bcsid: 0,
        }
    }

    /// Closes the replica of one member; its BCSID then, if it has one.
    fn close(&self, dn: &Datanode) -> Option<u64> {
        const OWNER: &str = CloseThroughPipeline::ACTOR;
        dn.task_queue.acquire(OWNER);
        let Some(c) = dn.set.get(self.id) else {
            dn.task_queue.release(OWNER);
            // dispatchRequest has no auto-create for CloseContainer: CONTAINER_NOT_FOUND, which
            // applyTransaction does not ignore (the member's state machine fails).
            dn.csm.fail(self.id);
            self.cx.record(
                "HddsDispatcher.dispatchRequest",
                format_args!(
                    "dn{} CloseContainer c{}: CONTAINER_NOT_FOUND, not ignored by applyTransaction: \
                     the pipeline closes",
                    dn.id, self.id
                ),
            );
            return None;
        };
        // applyTransaction → HddsDispatcher.dispatch: the CloseContainer request reaches the
        // handler through dispatchRequest, like every command the pipeline applies.
        self.cx.record(
            "HddsDispatcher.dispatchRequest",
            format_args!(
                "dn{} CloseContainer apply c{}: getContainer → present",
                dn.id, self.id
            ),
        );
        c.lock.acquire(OWNER);
        // markContainerForClose (OPEN → CLOSING), then closeContainer (CLOSING → CLOSED).
        let (from, to, bcsid) = c.data(|d| {
            let from = d.state;
            if matches!(d.state, State::Open | State::Closing) {
                d.state = State::Closed;
            }
            (from, d.state, d.bcsid)
        });
        self.cx.record(
            "KeyValueHandler.handleCloseContainer",
            format_args!(
                "dn{} c{}: {from:?} → CLOSED at BCSID {bcsid} (state={to:?} bcsid={bcsid})",
                dn.id, self.id
            ),
        );
        // closeContainer takes the replica's write lock through the ContainerSet.
        self.cx.record(
            "ContainerSet.getContainerWithWriteLock",
            format_args!("dn{} c{}: write lock (closeContainer)", dn.id, self.id),
        );
        c.lock.release(OWNER);
        dn.task_queue.release(OWNER);
        Some(bcsid)
    }
}

impl Program<World> for CloseThroughPipeline {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.member == self.members.len()
    }

    fn enabled(&self, w: &World) -> bool {
        if self.is_done() {
            return false;
        }
        let dn = w.dn(self.members[self.member]);
        !dn.task_queue.is_held() && dn.set.get(self.id).is_none_or(|c| !c.lock.is_held())
    }

    fn step(&mut self, w: &World) {
        let dn = w.dn(self.members[self.member]);
        let bcsid = self.close(dn);
        if dn.id == LEADER {
            self.leader_bcsid = bcsid.unwrap_or(0);
        }
        self.member += 1;
        if self.is_done() {
            // The BCSID the leader's close saw, not a read of the replica now: that would be
            // one more access to the container map and the replica, which loom orders against
            // the client's, for a value no step can change in between. The close leaves the
            // replica CLOSED, so no apply after it writes its BCSID (an apply holds the task
            // queue from its check to its write, and the close took the queue); only the
            // delete removes the replica, and it runs after this step. In the histories and
            // the reproductions the close runs with nothing between its steps.
            w.scm_state().close(self.id, self.leader_bcsid);
            w.om().closed.insert(self.id);
        }
    }
}

/// The close applied on the pipeline, then SCM's force delete on the leader (SCM sends it
/// only after it has learnt of the close: the two run in that order, on one thread here; on
/// the datanode they are the apply executor and the command handler thread).
pub type CloseThenForceDelete = Then<CloseThroughPipeline, DeleteContainerCommandHandler>;

pub fn close_then_force_delete(
    trace: &Trace,
    members: &'static [DnId],
    id: ContainerId,
    dn: DnId,
) -> CloseThenForceDelete {
    Then {
        actor: "close, then force delete",
        first: CloseThroughPipeline::new(trace, members, id),
        second: DeleteContainerCommandHandler::new(trace, dn, id, true),
    }
}

impl World {
    /// `CloseContainerCommandHandler.handle` on `dn`: nothing if the replica is absent;
    /// `markContainerForClose` (OPEN → CLOSING); then an OPEN or CLOSING replica is closed
    /// through Ratis if the pipeline exists (only its leader can submit: a follower gets
    /// `NotLeaderException` and its replica stays CLOSING), closed if `force`, quasi-closed
    /// otherwise; a QUASI_CLOSED one is closed if `force`.
    pub fn close_container_command(&self, trace: &Trace, id: ContainerId, dn: DnId, force: bool) {
        let cx = CxRef::new(trace, "CloseContainerCommandHandler");
        let Some(c) = self.dn(dn).set.get(id) else {
            cx.record(
                "CloseContainerCommandHandler.handle",
                format_args!("dn{dn} c{id}: does not exist in datanode, close failed"),
            );
            return;
        };
        let state = c.data(|d| {
            if d.state == State::Open {
                d.state = State::Closing;
            }
            d.state
        });
        let pipeline = PIPELINE.contains(&dn) && self.pipeline_exists();
        let to = match state {
            State::Closing if pipeline && dn == LEADER => {
                cx.record(
                    "CloseContainerCommandHandler.handle",
                    format_args!("dn{dn} c{id}: CLOSING, submitted through the pipeline"),
                );
                run(self, CloseThroughPipeline::new(trace, &PIPELINE, id));
                return;
            }
            State::Closing if pipeline => {
                cx.record(
                    "CloseContainerCommandHandler.handle",
                    format_args!("dn{dn} c{id}: CLOSING; NotLeaderException: follower cannot close container"),
                );
                return;
            }
            State::Closing | State::QuasiClosed if force => State::Closed,
            State::Closing => State::QuasiClosed,
            _ => return,
        };
        c.data(|d| d.state = to);
        cx.record(
            "CloseContainerCommandHandler.handle",
            format_args!("dn{dn} c{id}: {state:?} → {to:?} (no pipeline, force={force})"),
        );
    }
}
