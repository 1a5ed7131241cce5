//! A client's write through the RATIS/THREE pipeline: a WriteChunk and a PutBlock of one block
//! (`BlockOutputStream.writeChunkAsync`, `putBlockAsync`; the client sends both without
//! waiting for the first reply).
//!
//! For each command: the leader's `startTransaction` (Ratis server RPC thread); for the
//! WriteChunk, `writeStateMachineData` on every member (a chunk executor thread each); once
//! committed, `applyTransaction` on every member (the apply executor's per-container task
//! queue). Upstream these are different threads, but Ratis orders them for one entry
//! (WRITE_DATA completes before the entry commits, the apply follows the commit, the
//! per-container queue applies the WriteChunk before the PutBlock), so one program runs them in
//! that order and loses no interleaving with the delete. The followers' steps touch only their
//! own datanodes, which no other actor touches; they run right after the leader's.
//!
//! `handleCommandResult` / `applyTransaction`: a reply the state machine does not ignore marks
//! that member unhealthy; on the leader the pipeline is then closed, and the client gets no
//! further reply through it.

use super::datanode::{Res, State};
use super::dispatcher::{validate_container_command, Cmd, Dispatch, Reply, Request, Stage};
use super::ghost::{ClientResult, MemberReply};
use super::{ContainerId, DnId, LocalId, World, PIPELINE};
use crate::model::Program;
use crate::trace::CxRef;
use crate::trace::Trace;

#[derive(Debug)]
enum Step {
    Validate(Which),
    Dispatch {
        which: Which,
        stage: Stage,
        member: usize,
        /// An apply holds its datanode's task queue from its first step to its reply.
        queued: bool,
        d: Dispatch,
    },
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    WriteChunk,
    PutBlock,
}

/// The thread names of the trace, per datanode (index = datanode ID − 1).
const RPC: [&str; 5] = [
    "dn1 RaftServer-RPC",
    "dn2 RaftServer-RPC",
    "dn3 RaftServer-RPC",
    "dn4 RaftServer-RPC",
    "dn5 RaftServer-RPC",
];
const CHUNK: [&str; 5] = [
    "dn1 ChunkWriter",
    "dn2 ChunkWriter",
    "dn3 ChunkWriter",
    "dn4 ChunkWriter",
    "dn5 ChunkWriter",
];
const APPLY: [&str; 5] = [
    "dn1 apply",
    "dn2 apply",
    "dn3 apply",
    "dn4 apply",
    "dn5 apply",
];

/// One client write of `len` bytes at `offset` of `block` in container `id`.
#[derive(Debug)]
pub struct ClientWrite {
    trace: Trace,
    members: &'static [DnId],
    chunk: Cmd,
    put: Cmd,
    id: ContainerId,
    indices: [u64; 2],
    result: ClientResult,
    /// The members' replies so far, handed to the ghost with the result when the write ends
    /// (the predicates read them only then).
    replies: Vec<MemberReply>,
    next: Step,
}

impl ClientWrite {
    pub const ACTOR: &'static str = "client";

    pub fn new(
        trace: &Trace,
        members: &'static [DnId],
        id: ContainerId,
        block: LocalId,
        offset: u64,
        len: u64,
    ) -> Self {
        Self::with_first(
            trace,
            members,
            id,
            block,
            Cmd::WriteChunk { block, offset, len },
        )
    }

    /// A write through the data stream (`BlockDataStreamOutput`): StreamInit instead of the
    /// WriteChunk. `stream` dispatches it on every member (WRITE_DATA stage: the container is
    /// auto-created if absent, the chunk file created and the stream's data written to it);
    /// its log entry is applied like a WriteChunk's; then the PutBlock.
    pub fn streamed(
        trace: &Trace,
        members: &'static [DnId],
        id: ContainerId,
        block: LocalId,
        len: u64,
    ) -> Self {
        Self::with_first(trace, members, id, block, Cmd::StreamInit { block, len })
    }

    /// This write with its WriteChunk run to the end on `w` (every member's WRITE_DATA and
    /// COMMIT_DATA, nothing else running meanwhile): what is left is the PutBlock, from its
    /// validation on the leader. A scenario's setup, for a race of the PutBlock alone.
    pub fn past_the_write_chunk(mut self, w: &World) -> Self {
        while !matches!(self.next, Step::Validate(Which::PutBlock) | Step::Done) {
            self.step(w);
        }
        self
    }

    /// The same write with an intermediate PutBlock (`eof` false: a flush before the block's
    /// end), which does not check the chunk file.
    pub fn intermediate(mut self) -> Self {
        if let Cmd::PutBlock { block, .. } = self.put {
            self.put = Cmd::PutBlock { block, eof: false };
        }
        self
    }

    fn with_first(
        trace: &Trace,
        members: &'static [DnId],
        id: ContainerId,
        block: LocalId,
        first: Cmd,
    ) -> Self {
        ClientWrite {
            trace: trace.clone(),
            members,
            chunk: first,
            put: Cmd::PutBlock { block, eof: true },
            id,
            indices: [0; 2],
            result: ClientResult {
                container: id,
                block,
                ..ClientResult::default()
            },
            // WRITE_DATA and COMMIT_DATA of the WriteChunk, and the PutBlock, on each member.
            replies: Vec::with_capacity(3 * members.len()),
            next: Step::Validate(Which::WriteChunk),
        }
    }

    /// The thread of `dn` among `names`, recording to `trace` (the trace alone, not `self`:
    /// the replies are pushed while it is borrowed).
    fn cx<'t>(trace: &'t Trace, names: &[&'static str; 5], dn: DnId) -> CxRef<'t> {
        CxRef::new(trace, names[usize::from(dn) - 1])
    }

    fn request(&self, which: Which) -> Request {
        let (cmd, index) = match which {
            Which::WriteChunk => (self.chunk, self.indices[0]),
            Which::PutBlock => (self.put, self.indices[1]),
        };
        Request {
            container: self.id,
            cmd,
            index,
        }
    }

    fn answer(&mut self, which: Which, res: Option<Res>) {
        match which {
            Which::WriteChunk => self.result.write_chunk = res,
            Which::PutBlock => self.result.put_block = res,
        }
    }

    /// What follows the last member's step for `which` in `stage`.
    fn after(&self, which: Which, stage: Stage) -> Step {
        match (which, stage) {
            (Which::WriteChunk, Stage::WriteData) => {
                let apply = match self.chunk {
                    Cmd::StreamInit { .. } => Stage::Apply,
                    _ => Stage::CommitData,
                };
                self.dispatch(which, apply)
            }
            (Which::WriteChunk, _) => Step::Validate(Which::PutBlock),
            (Which::PutBlock, _) => Step::Done,
        }
    }

    fn dispatch(&self, which: Which, stage: Stage) -> Step {
        Step::Dispatch {
            which,
            stage,
            member: 0,
            queued: false,
            d: Dispatch::new(self.request(which), stage),
        }
    }

    /// The members' replies so far.
    pub fn replies(&self) -> &[MemberReply] {
        &self.replies
    }

    fn finish(&mut self, w: &World) {
        w.ghost.client_finished(self.result, &self.replies);
        if self.result.succeeded() {
            w.commit_key(self.result.container, self.result.block);
        }
        self.next = Step::Done;
    }
}

impl Program<World> for ClientWrite {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        matches!(self.next, Step::Done)
    }

    fn enabled(&self, w: &World) -> bool {
        match &self.next {
            Step::Done => false,
            Step::Dispatch {
                stage,
                member,
                queued: false,
                ..
            } if *stage != Stage::WriteData => !w.dn(self.members[*member]).task_queue.is_held(),
            _ => true,
        }
    }

    fn step(&mut self, w: &World) {
        let leader = w.dn(self.members[0]);
        if !leader.csm.is_healthy() {
            // The leader's state machine failed: Ratis closes the pipeline, and the client's
            // commands that are still unanswered fail with it.
            CxRef::new(&self.trace, Self::ACTOR).record(
                "XceiverClientRatis",
                format_args!(
                    "pipeline closed; unanswered commands fail: {:?}",
                    self.result
                ),
            );
            return self.finish(w);
        }
        match std::mem::replace(&mut self.next, Step::Done) {
            Step::Validate(which) => {
                let slot = usize::from(which == Which::PutBlock);
                self.indices[slot] = w.peek_log_index();
                let cx = Self::cx(&self.trace, &RPC, self.members[0]);
                match validate_container_command(w, leader, cx, &self.request(which)) {
                    Ok(()) => {
                        w.append(self.request(which));
                        let stage = if which == Which::WriteChunk {
                            Stage::WriteData
                        } else {
                            Stage::Apply
                        };
                        self.next = self.dispatch(which, stage);
                    }
                    Err(r) => {
                        self.answer(which, Some(r));
                        self.next = match which {
                            Which::WriteChunk => Step::Validate(Which::PutBlock),
                            Which::PutBlock => Step::Done,
                        };
                    }
                }
            }
            Step::Dispatch {
                which,
                stage,
                member,
                queued,
                mut d,
            } => {
                let dn = w.dn(self.members[member]);
                if stage != Stage::WriteData && !queued {
                    dn.task_queue.acquire(Self::ACTOR);
                    self.next = Step::Dispatch {
                        which,
                        stage,
                        member,
                        queued: true,
                        d,
                    };
                    return;
                }
                let names = if stage == Stage::WriteData {
                    &CHUNK
                } else {
                    &APPLY
                };
                let cx = Self::cx(&self.trace, names, dn.id);
                let Some(reply) = d.step(w, dn, cx) else {
                    self.next = Step::Dispatch {
                        which,
                        stage,
                        member,
                        queued,
                        d,
                    };
                    return;
                };
                if queued {
                    dn.task_queue.release(Self::ACTOR);
                }
                self.replies
                    .push((dn.id, which == Which::PutBlock, stage, reply));
                if !reply.state_machine_ignores() {
                    dn.csm.fail(self.id);
                    cx.record(
                        if stage == Stage::WriteData {
                            "ContainerStateMachine.handleCommandResult"
                        } else {
                            "ContainerStateMachine.applyTransaction"
                        },
                        format_args!("dn{}: {reply} is not ignored: stateMachineHealthy = false, pipeline closes", dn.id),
                    );
                }
                if member == 0 && stage != Stage::WriteData {
                    // The client's reply is the leader's apply result.
                    self.answer(which, reply_to_client(reply));
                }
                self.next = if member + 1 < self.members.len() {
                    Step::Dispatch {
                        which,
                        stage,
                        member: member + 1,
                        queued: false,
                        d: Dispatch::new(self.request(which), stage),
                    }
                } else {
                    self.after(which, stage)
                };
            }
            Step::Done => {}
        }
        if matches!(self.next, Step::Done) {
            self.finish(w);
        }
    }
}

/// The reply a client gets for the leader's apply result (an exception fails the command).
fn reply_to_client(reply: Reply) -> Option<Res> {
    reply.res()
}

impl World {
    /// Whether the pipeline's Ratis group still exists: a member whose state machine failed
    /// makes `handleApplyTransactionFailure` ask SCM to close the pipeline, and every member
    /// removes the group (the model takes that as done at once).
    pub fn pipeline_exists(&self) -> bool {
        PIPELINE.iter().all(|&d| self.dn(d).csm.is_healthy())
    }

    /// `ContainerStateMachine.notifyGroupRemove` on every member once the pipeline is gone:
    /// `markContainerForClose` and `quasiCloseContainer` for every ID in
    /// `container2BCSIDMap` (an OPEN or CLOSING replica becomes QUASI_CLOSED; the others throw,
    /// which is logged and ignored).
    pub fn remove_group(&self, trace: &Trace) {
        if self.pipeline_exists() {
            return;
        }
        for &d in &PIPELINE {
            let dn = self.dn(d);
            dn.set.each(|c| {
                if dn.csm.bcsid_of(c.id).is_none() {
                    return;
                }
                let closed = c.data(|r| {
                    let open = matches!(r.state, State::Open | State::Closing);
                    if open {
                        r.state = State::QuasiClosed;
                    }
                    open
                });
                if closed {
                    CxRef::new(trace, "XceiverServerRatis").record(
                        "ContainerStateMachine.notifyGroupRemove",
                        format_args!("dn{d} c{}: QUASI_CLOSED (Ratis group removed)", c.id),
                    );
                }
            });
        }
    }
}
