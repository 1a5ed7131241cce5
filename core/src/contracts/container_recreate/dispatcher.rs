//! `HddsDispatcher` and the write half of `KeyValueHandler`, as the leader's Ratis RPC thread,
//! a chunk executor thread (WRITE_DATA), the data stream's executor (StreamInit) and the apply
//! executor (COMMIT_DATA, PutBlock, StreamInit) run them.
//!
//! `validateContainerCommand` (leader, `startTransaction`): `getContainer`; absent → accept
//! (no check at all); present and not open to write → `ContainerNotOpenException`, which the
//! client sees as CONTAINER_NOT_OPEN.
//!
//! `ContainerStateMachine.checkContainerHealthy` runs first in `writeStateMachineData` (any
//! unhealthy state machine refuses) and in `applyTransaction` (only a container whose write
//! failed): CONTAINER_UNHEALTHY without dispatching. `stream` dispatches StreamInit without it.
//!
//! `dispatchRequest`, in steps (each is what upstream does between two accesses the delete
//! can fall between):
//! 1. [`DStep::Start`]: `getContainer` once; COMMIT_DATA of a present container missing from
//!    the map puts it there; a missing ID → CONTAINER_MISSING; an absent container for
//!    WriteChunk WRITE_DATA, StreamInit (any stage) or PutBlock (any stage) goes to the
//!    auto-create branch, which P1/P3 may refuse (CONTAINER_NOT_OPEN; CONTAINER_NOT_FOUND with
//!    HDDS-15791's answer); an absent one at COMMIT_DATA → CONTAINER_NOT_FOUND, or
//!    CONTAINER_NOT_OPEN with P2.
//! 2. [`DStep::Create`]: `createContainer` → `handleCreateContainer`: `ensureContainerNotMissing`,
//!    then under `containerCreationLocks` `getContainer == null` → a new OPEN replica, BCSID 0,
//!    `addContainer`; then `container2BCSIDMap.putIfAbsent(id, 0)` and `getContainer` again.
//! 3. [`DStep::Check`]: `KeyValueHandler.handleWriteChunk` / `handlePutBlock` /
//!    `handleStreamInit` on the container object read in step 1 or 2 (a stale one if the delete
//!    removed it meanwhile): `checkContainerOpen`.
//! 4. [`DStep::Write`]: the write itself, a separate access: `FilePerBlockStrategy.writeChunk`
//!    opens the chunk file (a directory the delete moved to tmp: the open throws, and the
//!    exception escapes `handleWriteChunk` and `dispatchRequest`), then the offset must equal
//!    the file length (else CHUNK_FILE_INCONSISTENCY; COMMIT_DATA writes nothing); PutBlock's
//!    `finishWriteChunks` (no chunk file → UNABLE_TO_FIND_CHUNK) and `persistPutBlock`. P8
//!    catches a failure here, reads the state again and answers CONTAINER_NOT_OPEN for a
//!    replica no longer OPEN.
//! 5. [`DStep::Finish`]: back in `dispatchRequest`, a result outside `canIgnoreException` marks
//!    the replica UNHEALTHY — and when the replica is not OPEN, upstream's
//!    `Preconditions.checkState` throws instead; SUCCESS of a PutBlock runs `updateBCSID`.

use super::datanode::{ContainerData, Datanode, KeyValueContainer, Origin, Res, State};
use super::{ContainerId, Fix, LocalId, World};
use crate::sync::unseen::Arc;
use crate::trace::recording;
use crate::trace::CxRef;
use std::fmt;

/// P8: what the write path does when the write itself fails after `checkContainerOpen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteFailure {
    /// Upstream: the chunk file's open throws out of `dispatchRequest`; a missing chunk file
    /// is a result that marks the replica.
    Upstream,
    /// P8: the handler catches any failure of the write (the open's unchecked exception too),
    /// reads the replica's state again, and answers CONTAINER_NOT_OPEN, without marking it,
    /// when it is no longer OPEN.
    Recheck,
    /// Mutant: the same, for the `StorageContainerException`s only (as a `catch` written for
    /// what `writeChunk` declares): the open's unchecked exception still escapes.
    RecheckCheckedOnly,
    /// Mutant: P8's catch in `handleWriteChunk` and `handlePutBlock` only: `handleStreamInit`
    /// left as it was, so the stream's chunk file open still throws out of `dispatchRequest`.
    RecheckNotInStreamInit,
}

/// P1: where the auto-create branch refuses an ID in `container2BCSIDMap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapRefusal {
    /// Upstream: nowhere.
    Off,
    /// P1: in every auto-create (WriteChunk's WRITE_DATA, the PutBlock's apply, StreamInit).
    Everywhere,
    /// Mutant: in WRITE_DATA only. The PutBlock's apply still auto-creates (an empty replica).
    WriteDataOnly,
    /// Mutant: at apply only. WriteChunk's WRITE_DATA still auto-creates, and the write
    /// succeeds on the new replica.
    ApplyOnly,
}

impl MapRefusal {
    /// Whether the auto-create of a mapped ID is refused at `stage`.
    pub fn refuses(self, stage: Stage) -> bool {
        match self {
            MapRefusal::Off => false,
            MapRefusal::Everywhere => true,
            MapRefusal::WriteDataOnly => stage == Stage::WriteData,
            MapRefusal::ApplyOnly => stage == Stage::Apply,
        }
    }
}

/// P2: which absent containers COMMIT_DATA refuses with CONTAINER_NOT_OPEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommitRefusal {
    /// Upstream: none (CONTAINER_NOT_FOUND).
    Off,
    /// P2: one the datanode remembers: in `container2BCSIDMap`, or (P3) tombstoned.
    Remembered,
    /// Mutant: one in `container2BCSIDMap` only. After a restart whose snapshot predates the
    /// container, its tombstone is all that remembers it: CONTAINER_NOT_FOUND.
    MapOnly,
    /// Mutant: one P3 tombstoned only. Without P3 nothing is: CONTAINER_NOT_FOUND.
    TombstoneOnly,
}

/// P7: what `checkContainerOpen` answers for a DELETED replica, and whether
/// `canIgnoreException` passes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeletedAnswer {
    /// Upstream: the default branch, CONTAINER_INTERNAL_ERROR.
    InternalError,
    /// P7: CONTAINER_NOT_OPEN, which `canIgnoreException` passes (no marking).
    NotOpen,
    /// Mutant: CONTAINER_NOT_OPEN, but `canIgnoreException` left as it was: the DELETED
    /// replica cannot be marked UNHEALTHY, and `Preconditions.checkState` throws.
    NotOpenNotPassed,
}

impl DeletedAnswer {
    pub fn answers_not_open(self) -> bool {
        self != DeletedAnswer::InternalError
    }

    /// Whether `canIgnoreException` passes CONTAINER_NOT_OPEN.
    pub fn passes_not_open(self) -> bool {
        self == DeletedAnswer::NotOpen
    }
}

/// The two commands of a client write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    WriteChunk {
        block: LocalId,
        offset: u64,
        len: u64,
    },
    PutBlock {
        block: LocalId,
        /// The request's `eof`: absent or true on the block's last PutBlock. An intermediate
        /// one (false, a flush) does not check the chunk file (`handlePutBlock`, CR-6).
        eof: bool,
    },
    /// The data stream's first request (`StreamInit`): `stream` dispatches it on every member
    /// (in the WRITE_DATA stage, creating the chunk file the stream then writes), and the log
    /// entry it becomes is applied like any other.
    StreamInit { block: LocalId, len: u64 },
}

/// `DispatcherContext`'s stage (`WriteChunkStage`); PutBlock has only its apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    WriteData,
    CommitData,
    Apply,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::WriteData => "WRITE_DATA",
            Stage::CommitData => "COMMIT_DATA",
            Stage::Apply => "apply",
        }
    }
}

/// A container command as a log entry carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub container: ContainerId,
    pub cmd: Cmd,
    /// The Ratis log index (a PutBlock's BCSID).
    pub index: u64,
}

impl Request {
    fn name(&self) -> &'static str {
        match self.cmd {
            Cmd::WriteChunk { .. } => "WriteChunk",
            Cmd::PutBlock { .. } => "PutBlock",
            Cmd::StreamInit { .. } => "StreamInit",
        }
    }
}

/// What `dispatchRequest` gives back: a result, or an exception that escapes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Result(Res),
    /// `Preconditions.checkState` in `dispatchRequest`: a write failed on a replica that is
    /// not OPEN/CLOSING/RECOVERING. `writeStateMachineData` and `applyTransaction` catch it and
    /// mark the state machine unhealthy.
    Thrown,
}

impl Reply {
    /// Whether `ContainerStateMachine` lets the pipeline live with it.
    pub fn state_machine_ignores(self) -> bool {
        matches!(self, Reply::Result(r) if r.state_machine_ignores())
    }

    pub fn res(self) -> Option<Res> {
        match self {
            Reply::Result(r) => Some(r),
            Reply::Thrown => None,
        }
    }
}

impl std::fmt::Display for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Result(r) => write!(f, "{r}"),
            Reply::Thrown => f.write_str("IllegalStateException (Preconditions.checkState)"),
        }
    }
}

/// Whether the datanode remembers `id` as a container it had: in the pipeline's map, or
/// (P3) tombstoned.
fn remembered(dn: &Datanode, fix: &Fix, id: ContainerId) -> bool {
    dn.csm.bcsid_of(id).is_some() || (fix.tombstone.get().is_on() && dn.set.has_tombstone(id))
}

/// `ContainerStateMachine.startTransaction` → `HddsDispatcher.validateContainerCommand` on the
/// leader. `Err` is the exception the client sees; `Ok` appends the entry.
pub fn validate_container_command(
    w: &World,
    dn: &Datanode,
    cx: CxRef<'_>,
    req: &Request,
) -> Result<(), Res> {
    let id = req.container;
    // What the check saw: `None` for an absent container, with whether P6 remembers it.
    let (seen, verdict) = match dn.set.get(id) {
        None if w.fix.leader_refuses_remembered.get() && remembered(dn, &w.fix, id) => {
            (None, Err(Res::ContainerNotOpen))
        }
        None => (None, Ok(())),
        Some(c) => {
            let state = c.state();
            let verdict = if state.is_open_to_write() {
                Ok(())
            } else {
                Err(Res::ContainerNotOpen)
            };
            (Some(state), verdict)
        }
    };
    cx.record(
        "ContainerStateMachine.startTransaction",
        format_args!(
            "{} c{id}: validateContainerCommand: {} → {}",
            req.name(),
            fmt::from_fn(|f| match (seen, verdict) {
                (None, Err(_)) => f.write_str("absent, but remembered (P6)"),
                (None, Ok(())) => f.write_str("absent: no check"),
                (Some(state), Ok(())) => write!(f, "{state:?}"),
                (Some(state), Err(_)) => write!(f, "{state:?}: ContainerNotOpenException"),
            }),
            fmt::from_fn(|f| match verdict {
                Ok(()) => write!(f, "appended at index {}", req.index),
                Err(r) => write!(f, "rejected {r}"),
            })
        ),
    );
    verdict
}

#[derive(Debug)]
enum DStep {
    Start,
    Create,
    Check(Arc<KeyValueContainer>),
    Write(Arc<KeyValueContainer>),
    Finish(Arc<KeyValueContainer>, Res),
    Done(Reply),
}

/// One `dispatchRequest` of one request on one datanode, a step at a time.
#[derive(Debug)]
pub struct Dispatch {
    req: Request,
    stage: Stage,
    next: DStep,
}

impl Dispatch {
    pub fn new(req: Request, stage: Stage) -> Self {
        Dispatch {
            req,
            stage,
            next: DStep::Start,
        }
    }

    pub fn reply(&self) -> Option<Reply> {
        match self.next {
            DStep::Done(r) => Some(r),
            _ => None,
        }
    }

    fn method(&self) -> &'static str {
        match self.req.cmd {
            Cmd::WriteChunk { .. } => "KeyValueHandler.handleWriteChunk",
            Cmd::PutBlock { .. } => "KeyValueHandler.handlePutBlock",
            Cmd::StreamInit { .. } => "KeyValueHandler.handleStreamInit",
        }
    }

    /// Runs the next step; returns the reply once there is one.
    pub fn step(&mut self, w: &World, dn: &Datanode, cx: CxRef<'_>) -> Option<Reply> {
        self.next = match std::mem::replace(&mut self.next, DStep::Start) {
            DStep::Start => self.start(w, dn, cx),
            DStep::Create => self.create(w, dn, cx),
            DStep::Check(c) => self.check(w, cx, c),
            DStep::Write(c) => self.write_step(w, cx, c),
            DStep::Finish(c, res) => DStep::Done(self.finish(w, dn, cx, &c, res)),
            done @ DStep::Done(_) => done,
        };
        self.reply()
    }

    /// Runs every remaining step (nothing else runs meanwhile).
    pub fn run(&mut self, w: &World, dn: &Datanode, cx: CxRef<'_>) -> Reply {
        loop {
            if let Some(r) = self.step(w, dn, cx) {
                return r;
            }
        }
    }

    /// `ContainerStateMachine.checkContainerHealthy` before the dispatch: in
    /// `writeStateMachineData` (WriteChunk WRITE_DATA) and `applyTransaction` (every apply);
    /// `stream` (StreamInit WRITE_DATA) does not check.
    fn csm_refuses(&self, dn: &Datanode) -> Option<Res> {
        let any = match (self.req.cmd, self.stage) {
            (Cmd::StreamInit { .. }, Stage::WriteData) => return None,
            (_, Stage::WriteData) => true,
            _ => false,
        };
        dn.csm
            .check_container_healthy(self.req.container, any)
            .err()
    }

    fn start(&self, w: &World, dn: &Datanode, cx: CxRef<'_>) -> DStep {
        let id = self.req.container;
        let what = fmt::from_fn(|f| write!(f, "{} {} c{id}", self.req.name(), self.stage.name()));
        if let Some(r) = self.csm_refuses(dn) {
            cx.record(
                "ContainerStateMachine.checkContainerHealthy",
                format_args!("{what}: the state machine is unhealthy → {r}, not dispatched"),
            );
            return DStep::Done(Reply::Result(r));
        }
        let container = dn.set.get(id);
        if self.stage == Stage::CommitData && matches!(self.req.cmd, Cmd::WriteChunk { .. }) {
            if let Some(c) = &container {
                if dn.csm.bcsid_of(id).is_none() {
                    let bcsid = c.data(|d| d.bcsid);
                    dn.csm.put_if_absent(id);
                    dn.csm.update_bcsid(id, bcsid);
                }
            }
        }
        let fail = |r: Res, why: &str| {
            cx.record(
                "HddsDispatcher.dispatchRequest",
                format_args!("{what}: {why} → {r}"),
            );
            DStep::Done(Reply::Result(r))
        };
        if dn.set.is_missing(id) {
            return fail(Res::ContainerMissing, "in missingContainerSet");
        }
        match container {
            Some(c) => {
                cx.record(
                    "HddsDispatcher.dispatchRequest",
                    format_args!("{what}: getContainer → present"),
                );
                DStep::Check(c)
            }
            None if self.auto_creates() => {
                // P1's and P3's refusal; HDDS-15791's answer for a refused auto-create is
                // CONTAINER_NOT_FOUND.
                let refusal = if w.fix.refusal_not_found.get() {
                    Res::ContainerNotFound
                } else {
                    Res::ContainerNotOpen
                };
                if w.fix.refuse_auto_create_in_map.get().refuses(self.stage)
                    && dn.csm.bcsid_of(id).is_some()
                {
                    return fail(
                        refusal,
                        "absent, in container2BCSIDMap: auto-create refused (P1)",
                    );
                }
                if w.fix
                    .tombstone
                    .get()
                    .refuses_auto_create(self.stage == Stage::WriteData)
                    && dn.set.has_tombstone(id)
                {
                    return fail(refusal, "absent, tombstoned: auto-create refused (P3)");
                }
                cx.record(
                    "HddsDispatcher.dispatchRequest",
                    format_args!("{what}: getContainer → absent: auto-create"),
                );
                DStep::Create
            }
            None if match w.fix.refuse_commit_of_remembered.get() {
                CommitRefusal::Off => false,
                CommitRefusal::Remembered => remembered(dn, &w.fix, id),
                CommitRefusal::MapOnly => dn.csm.bcsid_of(id).is_some(),
                CommitRefusal::TombstoneOnly => {
                    w.fix.tombstone.get().is_on() && dn.set.has_tombstone(id)
                }
            } =>
            {
                fail(Res::ContainerNotOpen, "absent, remembered: refused (P2)")
            }
            None => fail(
                Res::ContainerNotFound,
                "absent, no auto-create at this stage",
            ),
        }
    }

    /// WriteChunk in WRITE_DATA, and PutBlock and StreamInit in any stage (`isWriteStage`
    /// holds for StreamInit whatever the stage), auto-create a missing container.
    fn auto_creates(&self) -> bool {
        matches!(
            (self.req.cmd, self.stage),
            (Cmd::WriteChunk { .. }, Stage::WriteData)
                | (Cmd::PutBlock { .. }, _)
                | (Cmd::StreamInit { .. }, _)
        )
    }

    fn create(&self, w: &World, dn: &Datanode, cx: CxRef<'_>) -> DStep {
        let id = self.req.container;
        if dn.set.is_missing(id) {
            cx.record(
                "KeyValueHandler.handleCreateContainer",
                format_args!("c{id}: ensureContainerNotMissing → CONTAINER_MISSING"),
            );
            return DStep::Done(Reply::Result(Res::ContainerMissing));
        }
        let created = {
            let _stripe = dn.creation_lock.lock();
            if dn.set.get(id).is_none() {
                let origin = if w.ghost.force_deleted(dn.id, id) {
                    Origin::Recreated
                } else {
                    Origin::Pipeline
                };
                let added = dn.set.add(
                    KeyValueContainer::new(id, ContainerData::open(), origin),
                    false,
                );
                Some(added)
            } else {
                None
            }
        };
        match created {
            Some(Err(r)) => {
                cx.record(
                    "KeyValueHandler.handleCreateContainer",
                    format_args!("c{id}: addContainer → {r}"),
                );
                return DStep::Done(Reply::Result(r));
            }
            Some(Ok(())) => {
                cx.record(
                    "KeyValueHandler.handleCreateContainer",
                    format_args!(
                        "c{id}: created OPEN, BCSID 0 (containerCreationLocks), ICR sent \
                         (state=Open bcsid=0)"
                    ),
                );
                w.ghost.recreated(dn.id, id);
            }
            None => cx.record(
                "KeyValueHandler.handleCreateContainer",
                format_args!("c{id}: already exists"),
            ),
        }
        dn.csm.put_if_absent(id);
        match dn.set.get(id) {
            Some(c) => DStep::Check(c),
            None => {
                cx.record(
                    "HddsDispatcher.dispatchRequest",
                    format_args!("c{id}: getContainer after create → absent"),
                );
                DStep::Done(Reply::Result(Res::ContainerNotFound))
            }
        }
    }

    /// `checkContainerOpen`.
    fn check(&self, w: &World, cx: CxRef<'_>, c: Arc<KeyValueContainer>) -> DStep {
        match c.data(|d| check_container_open(d.state, &w.fix)) {
            Ok(()) => DStep::Write(c),
            Err(r) => {
                cx.record(
                    self.method(),
                    format_args!("{} c{}: checkContainerOpen → {r}", self.stage.name(), c.id),
                );
                DStep::Finish(c, r)
            }
        }
    }

    /// The write after the check: the chunk file, or the PutBlock's block table. P8 catches a
    /// failure and reads the state again (the mutant catches only the checked one).
    fn write_step(&self, w: &World, cx: CxRef<'_>, c: Arc<KeyValueContainer>) -> DStep {
        let (res, before, bcsid_updated) = c.data(|d| {
            // The replica as the write found it, for the record only: not taken while nothing
            // records (a scan of the block table on every write of a fuzz run).
            let before = recording().then(|| d.summary());
            let bcsid = d.bcsid;
            (self.write(d), before, d.bcsid != bcsid)
        });
        if bcsid_updated {
            // persistPutBlock's updateBlockCommitSequenceId: a plain field, no lock.
            c.bcsid_written();
        }
        let detail = fmt::from_fn(|f| before.map_or(Ok(()), |d| write!(f, "{d}")));
        let caught = match (w.fix.recheck_failed_write.get(), res) {
            (WriteFailure::Recheck, None | Some(Err(Res::UnableToFindChunk)))
            | (WriteFailure::RecheckCheckedOnly, Some(Err(Res::UnableToFindChunk))) => {
                let state = c.state();
                (state != State::Open).then_some(state)
            }
            (WriteFailure::RecheckNotInStreamInit, None | Some(Err(Res::UnableToFindChunk)))
                if !matches!(self.req.cmd, Cmd::StreamInit { .. }) =>
            {
                let state = c.state();
                (state != State::Open).then_some(state)
            }
            _ => None,
        };
        if let Some(state) = caught {
            cx.record(
                self.method(),
                format_args!(
                    "{} c{} ({detail}): the write failed, the replica is now {state:?}: \
                     CONTAINER_NOT_OPEN (P8)",
                    self.stage.name(),
                    c.id
                ),
            );
            return DStep::Finish(c, Res::ContainerNotOpen);
        }
        match res {
            None => {
                cx.record(
                    self.method(),
                    format_args!(
                        "{} c{} ({detail}): the chunk file's directory was moved to tmp: \
                         FilePerBlockStrategy.writeChunk's open throws (UncheckedExecutionException), \
                         not caught by handleWriteChunk or dispatchRequest",
                        self.stage.name(),
                        c.id
                    ),
                );
                DStep::Done(Reply::Thrown)
            }
            Some(r) => {
                let r = r.err().unwrap_or(Res::Success);
                cx.record(
                    self.method(),
                    format_args!("{} c{} ({detail}): {r}", self.stage.name(), c.id),
                );
                DStep::Finish(c, r)
            }
        }
    }

    /// Back in `dispatchRequest` with the handler's result.
    fn finish(
        &self,
        w: &World,
        dn: &Datanode,
        cx: CxRef<'_>,
        c: &KeyValueContainer,
        res: Res,
    ) -> Reply {
        let id = self.req.container;
        // What the record adds after the reply.
        let mut note = Note::None;
        // P7's and P8's CONTAINER_NOT_OPEN skip the marking (no other handler result is
        // CONTAINER_NOT_OPEN: the refusals answer before the handler).
        let passes_not_open = w.fix.deleted_not_open.get().passes_not_open()
            || w.fix.recheck_failed_write.get() != WriteFailure::Upstream;
        let reply = if res.dispatcher_ignores() || (passes_not_open && res == Res::ContainerNotOpen)
        {
            Reply::Result(res)
        } else {
            // Mark the replica UNHEALTHY; upstream first checks it is OPEN/CLOSING/RECOVERING.
            let marked = c.data(|d| {
                if matches!(d.state, State::Open | State::Closing) {
                    d.state = State::Unhealthy;
                    true
                } else {
                    false
                }
            });
            if marked {
                // markContainerUnhealthy takes the replica's write lock through the ContainerSet.
                cx.record(
                    "ContainerSet.getContainerWithWriteLock",
                    format_args!("dn{} c{id}: write lock (markContainerUnhealthy)", dn.id),
                );
                note = Note::MarkedUnhealthy;
                Reply::Result(res)
            } else {
                Reply::Thrown
            }
        };
        if reply == Reply::Result(Res::Success) {
            if let Cmd::PutBlock { .. } = self.req.cmd {
                let bcsid = c.data(|d| d.bcsid);
                dn.csm.update_bcsid(id, bcsid);
                note = Note::UpdateBcsid(bcsid);
            }
        }
        cx.record(
            "HddsDispatcher.dispatchRequest",
            format_args!(
                "{} {} c{id}: {reply}{}{}",
                self.req.name(),
                self.stage.name(),
                fmt::from_fn(|f| match reply {
                    Reply::Result(r) => write!(f, " (result={r})"),
                    Reply::Thrown => Ok(()),
                }),
                fmt::from_fn(|f| match note {
                    Note::None => Ok(()),
                    Note::MarkedUnhealthy => f.write_str(", replica marked UNHEALTHY"),
                    Note::UpdateBcsid(bcsid) => {
                        write!(f, ", updateBCSID: container2BCSIDMap[c{id}]={bcsid}")
                    }
                })
            ),
        );
        reply
    }

    /// The chunk write or the PutBlock on an open replica: `None` when the open of the chunk
    /// file throws (its directory was moved to tmp).
    fn write(&self, d: &mut ContainerData) -> Option<Result<(), Res>> {
        Some(match (self.req.cmd, self.stage) {
            (Cmd::WriteChunk { block, offset, len }, Stage::WriteData) => {
                // FilePerBlockStrategy.writeChunk: the channel (opened here: a new block's
                // file), then ChunkUtils.validateChunkSize.
                if d.moved {
                    return None;
                }
                let file = d.chunk_files.get_or_insert(block, 0);
                if *file != offset {
                    return Some(Err(Res::ChunkFileInconsistency));
                }
                *file += len;
                Ok(())
            }
            (Cmd::StreamInit { block, len }, Stage::WriteData) => {
                // handleStreamInit → FilePerBlockStrategy.streamInit: the chunk file the
                // stream writes (its data goes through the stream, not the log).
                if d.moved {
                    return None;
                }
                *d.chunk_files.get_or_insert(block, 0) += len;
                Ok(())
            }
            (Cmd::WriteChunk { .. } | Cmd::StreamInit { .. }, _) => Ok(()),
            (Cmd::PutBlock { block, eof }, _) => {
                // finishWriteChunks → verifyChunkFileExists (a moved directory has none), only
                // when eof is absent or true.
                if eof && (d.moved || !d.chunk_files.contains_key(block)) {
                    return Some(Err(Res::UnableToFindChunk));
                }
                // persistPutBlock: a BCSID at or below the container's is a replay.
                if self.req.index > d.bcsid {
                    d.blocks.insert(block, self.req.index);
                    d.bcsid = self.req.index;
                }
                Ok(())
            }
        })
    }
}

/// What `finish` did beyond the reply, for its record.
#[derive(Clone, Copy)]
enum Note {
    None,
    MarkedUnhealthy,
    UpdateBcsid(u64),
}

/// `KeyValueHandler.checkContainerOpen`.
fn check_container_open(state: State, fix: &Fix) -> Result<(), Res> {
    match state {
        // A follower applies what the leader appended before it closed.
        State::Open | State::Closing => Ok(()),
        State::Closed | State::QuasiClosed => Err(Res::ClosedContainerIo),
        State::Unhealthy => Err(Res::ContainerUnhealthy),
        // Upstream's default branch; P7 answers CONTAINER_NOT_OPEN for a replica being deleted.
        State::Deleted if fix.deleted_not_open.get().answers_not_open() => {
            Err(Res::ContainerNotOpen)
        }
        State::Deleted => Err(Res::ContainerInternalError),
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::Tombstone;
    use super::*;
    use crate::switches::Switch;

    /// `req` dispatched at `stage` on `dn`, which holds `c` (added if it does not).
    fn handle(
        w: &World,
        dn: &Datanode,
        cx: CxRef<'_>,
        req: Request,
        stage: Stage,
        c: &Arc<KeyValueContainer>,
    ) -> Reply {
        if !dn.set.contains(c.id) {
            dn.set.add(c.clone(), true).expect("added");
        }
        Dispatch::new(req, stage).run(w, dn, cx)
    }

    /// `ContainerStateMachine.checkContainerHealthy` before the dispatch, once a failed command
    /// has left the state machine unhealthy (for container 1): a WriteChunk's WRITE_DATA is
    /// refused CONTAINER_UNHEALTHY whatever its container, an apply only for the container
    /// whose command failed, and a StreamInit's WRITE_DATA (`stream`) is not checked. A healthy
    /// state machine dispatches every one.
    #[test]
    fn an_unhealthy_state_machine_refuses_every_write_and_the_failed_containers_applies() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        let chunk = Cmd::WriteChunk {
            block: 1,
            offset: 0,
            len: 1,
        };
        let stream = Cmd::StreamInit { block: 1, len: 1 };
        let put_block = Cmd::PutBlock {
            block: 1,
            eof: true,
        };
        for (cmd, stage, container, refused) in [
            (chunk, Stage::WriteData, 1, true),
            (chunk, Stage::WriteData, 2, true),
            (stream, Stage::WriteData, 1, false),
            (stream, Stage::WriteData, 2, false),
            (chunk, Stage::CommitData, 1, true),
            (chunk, Stage::CommitData, 2, false),
            (put_block, Stage::Apply, 1, true),
            (put_block, Stage::Apply, 2, false),
        ] {
            for failed in [false, true] {
                let w = World::new(Fix::UPSTREAM);
                let dn = w.dn(1);
                if failed {
                    dn.csm.fail(1);
                }
                let c = KeyValueContainer::new(container, ContainerData::open(), Origin::Pipeline);
                let req = Request {
                    container,
                    cmd,
                    index: 1,
                };
                let reply = handle(&w, dn, cx, req, stage, &c);
                assert_eq!(
                    reply == Reply::Result(Res::ContainerUnhealthy),
                    failed && refused,
                    "{cmd:?} {stage:?} c{container}, state machine failed: {failed}: {reply}"
                );
            }
        }
    }

    /// What P2 and P6 refuse: a container in the pipeline's map, or (P3 only) tombstoned. One
    /// the datanode never had is not remembered, with P3 or without: its first write creates it.
    #[test]
    fn only_a_mapped_or_tombstoned_container_is_remembered() {
        for tombstone in [Tombstone::Off, Tombstone::BeforeRemove] {
            let fix = Fix {
                tombstone: Switch::new(tombstone),
                ..Fix::UPSTREAM
            };
            let dn = Datanode::new(1);
            assert!(!remembered(&dn, &fix, 1), "{tombstone:?}: never had it");
            dn.csm.put_if_absent(1);
            assert!(remembered(&dn, &fix, 1), "{tombstone:?}: in the map");
            dn.set.write_tombstone(2);
            assert_eq!(remembered(&dn, &fix, 2), tombstone.is_on(), "{tombstone:?}");
        }
    }

    /// `dispatchRequest` puts a present container that is not in `container2BCSIDMap` there
    /// (a restart's replay) at a WriteChunk's COMMIT_DATA only: not at its WRITE_DATA, nor at
    /// a PutBlock's apply.
    #[test]
    fn only_a_write_chunks_commit_puts_the_container_in_the_map() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        let chunk = Cmd::WriteChunk {
            block: 1,
            offset: 0,
            len: 1,
        };
        let put_block = Cmd::PutBlock {
            block: 1,
            eof: true,
        };
        for (cmd, stage, mapped) in [
            (chunk, Stage::WriteData, false),
            (chunk, Stage::CommitData, true),
            (put_block, Stage::Apply, false),
        ] {
            let w = World::new(Fix::UPSTREAM);
            let dn = w.dn(1);
            let c = KeyValueContainer::new(1, ContainerData::open(), Origin::Pipeline);
            dn.set.add(c, true).expect("added");
            let req = Request {
                container: 1,
                cmd,
                index: 1,
            };
            let mut d = Dispatch::new(req, stage);
            while d.step(&w, dn, cx).is_none() {}
            assert_eq!(dn.csm.bcsid_of(1).is_some(), mapped, "{cmd:?} {stage:?}");
        }
    }

    /// A failed write on an OPEN replica marks it UNHEALTHY (a PutBlock whose chunk file is
    /// not there: UNABLE_TO_FIND_CHUNK), with P7 or without. On a DELETED one upstream fails
    /// CONTAINER_INTERNAL_ERROR and, unable to mark it, throws; P7 answers CONTAINER_NOT_OPEN
    /// and leaves it as it is.
    #[test]
    fn a_failed_write_marks_an_open_replica_and_p7_passes_a_deleted_one() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        let put_block = Request {
            container: 1,
            cmd: Cmd::PutBlock {
                block: 1,
                eof: true,
            },
            index: 1,
        };
        for p7 in [false, true] {
            for (from, reply, to) in [
                (
                    State::Open,
                    Reply::Result(Res::UnableToFindChunk),
                    State::Unhealthy,
                ),
                (
                    State::Deleted,
                    if p7 {
                        Reply::Result(Res::ContainerNotOpen)
                    } else {
                        Reply::Thrown
                    },
                    State::Deleted,
                ),
            ] {
                let w = World::new(Fix {
                    deleted_not_open: Switch::new(if p7 {
                        DeletedAnswer::NotOpen
                    } else {
                        DeletedAnswer::InternalError
                    }),
                    ..Fix::UPSTREAM
                });
                let dn = w.dn(1);
                let data = ContainerData {
                    state: from,
                    ..ContainerData::open()
                };
                let c = KeyValueContainer::new(1, data, Origin::Pipeline);
                let why = format!("P7: {p7}, {from:?}");
                assert_eq!(
                    handle(&w, dn, cx, put_block, Stage::Apply, &c),
                    reply,
                    "{why}"
                );
                assert_eq!(c.state(), to, "{why}");
            }
        }
    }

    /// A committed PutBlock updates the container's BCSID in `container2BCSIDMap`
    /// (`updateBCSID`); a failed one (its chunk file is not there) leaves it.
    #[test]
    fn only_a_committed_put_block_updates_the_map() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        let w = World::new(Fix::UPSTREAM);
        let dn = w.dn(1);
        let mut data = ContainerData::open();
        data.chunk_files.insert(1, 1);
        let c = KeyValueContainer::new(1, data, Origin::Pipeline);
        dn.csm.put_if_absent(1);
        for (block, index, bcsid) in [(1, 5, 5), (2, 6, 5)] {
            let req = Request {
                container: 1,
                cmd: Cmd::PutBlock { block, eof: true },
                index,
            };
            handle(&w, dn, cx, req, Stage::Apply, &c);
            assert_eq!(dn.csm.bcsid_of(1), Some(bcsid), "block {block}");
        }
    }

    /// `FilePerBlockStrategy.writeChunk`: each WriteChunk of a block (WRITE_DATA) extends its
    /// chunk file by its length, and one whose offset is not the file's length fails
    /// CHUNK_FILE_INCONSISTENCY (and marks the replica); `streamInit` creates the file the
    /// stream then writes, of the stream's length. The chunk file's length is the state every
    /// later write of the block is checked against.
    #[test]
    fn a_write_extends_its_chunk_file_and_one_at_another_offset_is_inconsistent() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        let w = World::new(Fix::UPSTREAM);
        let dn = w.dn(1);
        let c = KeyValueContainer::new(1, ContainerData::open(), Origin::Pipeline);
        let req = |cmd| Request {
            container: 1,
            cmd,
            index: 1,
        };
        let chunk = |offset, len| {
            req(Cmd::WriteChunk {
                block: 1,
                offset,
                len,
            })
        };
        let file = |block| c.data(|d| d.chunk_files.get(block).copied());
        for (offset, len, reply, length) in [
            (0, 3, Reply::Result(Res::Success), 3),
            (3, 2, Reply::Result(Res::Success), 5),
            (3, 1, Reply::Result(Res::ChunkFileInconsistency), 5),
        ] {
            let got = handle(&w, dn, cx, chunk(offset, len), Stage::WriteData, &c);
            let what = format!("WriteChunk at {offset}, {len} long");
            assert_eq!(got, reply, "{what}");
            assert_eq!(file(1), Some(length), "{what}: the chunk file's length");
        }
        assert_eq!(
            c.state(),
            State::Unhealthy,
            "the inconsistent write marks it"
        );
        let w = World::new(Fix::UPSTREAM);
        let dn = w.dn(1);
        let c = KeyValueContainer::new(1, ContainerData::open(), Origin::Pipeline);
        let init = req(Cmd::StreamInit { block: 2, len: 4 });
        let got = handle(&w, dn, cx, init, Stage::WriteData, &c);
        assert_eq!(got, Reply::Result(Res::Success), "StreamInit");
        assert_eq!(
            c.data(|d| d.chunk_files.get(2).copied()),
            Some(4),
            "StreamInit: the chunk file's length"
        );
    }

    /// `persistPutBlock`: a PutBlock whose BCSID (its log index) is at or below the container's
    /// is a replay and changes nothing; one above it adds its block and raises the BCSID.
    #[test]
    fn a_put_block_at_or_below_the_bcsid_is_a_replay() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        for (index, added) in [(4, false), (5, false), (6, true)] {
            let w = World::new(Fix::UPSTREAM);
            let dn = w.dn(1);
            let mut data = ContainerData::open();
            data.bcsid = 5;
            data.blocks.insert(1, 5);
            data.chunk_files.insert(1, 1);
            data.chunk_files.insert(2, 1);
            let c = KeyValueContainer::new(1, data, Origin::Pipeline);
            let req = Request {
                container: 1,
                cmd: Cmd::PutBlock {
                    block: 2,
                    eof: true,
                },
                index,
            };
            let got = handle(&w, dn, cx, req, Stage::Apply, &c);
            assert_eq!(got, Reply::Result(Res::Success), "index {index}");
            let (block, bcsid) = c.data(|d| (d.blocks.get(2).copied(), d.bcsid));
            let want = if added {
                (Some(index), index)
            } else {
                (None, 5)
            };
            assert_eq!((block, bcsid), want, "index {index}: block 2 and the BCSID");
        }
    }

    /// The leader's `validateContainerCommand`: a write to a replica that is not OPEN is
    /// rejected (ContainerNotOpenException) and not appended; one to an absent container is
    /// appended upstream, and rejected by P6 only when the datanode remembers the ID.
    #[test]
    fn the_leader_rejects_a_write_to_a_container_not_open_and_p6_a_remembered_one() {
        let trace = crate::trace::Trace::new();
        let cx = CxRef::new(&trace, "test");
        let write = |container| Request {
            container,
            cmd: Cmd::PutBlock {
                block: 1,
                eof: true,
            },
            index: 1,
        };
        for p6 in [false, true] {
            let w = World::new(Fix {
                leader_refuses_remembered: crate::switches::Switch::new(p6),
                ..Fix::UPSTREAM
            });
            let dn = w.dn(1);
            let open = KeyValueContainer::new(1, ContainerData::open(), Origin::Pipeline);
            dn.set.add(open.clone(), true).expect("added");
            assert_eq!(validate_container_command(&w, dn, cx, &write(1)), Ok(()));
            open.data(|d| d.state = State::Closed);
            let closed = validate_container_command(&w, dn, cx, &write(1));
            assert_eq!(closed, Err(Res::ContainerNotOpen));
            assert_eq!(validate_container_command(&w, dn, cx, &write(2)), Ok(()));
            dn.csm.put_if_absent(2);
            let remembered = validate_container_command(&w, dn, cx, &write(2));
            assert_eq!(remembered.is_err(), p6, "P6: {p6}");
        }
    }
}
