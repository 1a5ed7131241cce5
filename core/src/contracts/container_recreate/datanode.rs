//! One datanode's container service: `ContainerSet` with the container ID table,
//! `KeyValueContainer`, the container-creation locks of `KeyValueHandler`, and the pipeline's
//! `ContainerStateMachine` (its `container2BCSIDMap`, health flag and last snapshot).
//!
//! Locks, as upstream holds them:
//! - `ContainerSet.containerMap` is a `ConcurrentSkipListMap`, `missingContainerSet` a
//!   `ConcurrentSkipListSet`, the container ID table a RocksDB table, `container2BCSIDMap` a
//!   `ConcurrentHashMap`: each call is one atomic operation and no lock spans two of them, so
//!   each is a lock taken for that one call. The container map and the ID table, which two loom
//!   threads share, are [`Linearizable`]: a read and a write are each one atomic step, and loom
//!   does not reorder two reads, which commute (with one mutex for both, the full explorations
//!   of the race took 432–436k executions; with this and the close's BCSID, 22–24k).
//! - `KeyValueContainer.lock` (a `ReentrantReadWriteLock`) is taken for write by the delete
//!   (`getContainerWithWriteLock` … `writeUnlock`), across several steps: a [`SpanLock`]. The
//!   write path (`handleWriteChunk`, `handlePutBlock`, `BlockManagerImpl.persistPutBlock`) takes
//!   no container lock; it reads the state and writes the block table without one.
//! - `containerCreationLocks` (a `Striped<Lock>` by container ID) around the create in
//!   `handleCreateContainer`. One stripe per datanode here: the models never create two
//!   containers at once on one datanode, so a shared stripe serializes nothing more.
//! - `ContainerData`'s fields (state, BCSID, block table, chunk files) are volatile fields,
//!   RocksDB or files upstream, each read or written without the container lock: one mutex per
//!   container taken for each access.
//!
//! Which of these loom sees: a lock or atomic that, in every loom scenario of this contract,
//! only one loom thread touches orders nothing against another thread, so it needs no
//! scheduling point (loom's reduction adds no execution for one, but each still costs its
//! bookkeeping in every execution). The pipeline's state (`container2BCSIDMap`,
//! `stateMachineHealthy`, `unhealthyContainers`, the snapshot), `missingContainerSet` and
//! `containerCreationLocks` are touched only by the client's thread there (the close and the
//! delete never read them; the one mutant that writes the missing set is caught all the same):
//! they are [`unseen`] primitives, the same locks without a scheduling point. The container
//! map, the ID table, the replica's data and the task queue are shared by the client's thread
//! and the close-then-delete thread, and loom sees every access. The container lock is taken
//! only by the close and the delete, on that one thread, yet stays seen: loom's reduction
//! backtracks only to accesses of one object by two threads, so it costs no execution
//! (unseen, the race's counts were the same, 436,038 for P1). (The
//! close, [`super::CloseThroughPipeline`], and the delete, [`super::delete`], call none of the
//! unseen ones' accessors; a scenario that adds a thread which does must make them seen.)
//!
//! The accessors that take a lock are not inlined: one copy of the lock's code serves all
//! their callers (a fuzz target pays for each distinct instrumented edge a run executes, and
//! an inlined lock and unlock are several at every call site).

use super::speed::dense::{IdMap, IdSet};
use super::{ContainerId, DnId, LocalId, BLOCK_SLOTS, CONTAINER_SLOTS};
use crate::sync::{tracking_races, unseen, Linearizable, Mutex, RaceCell, SpanLock};
// std's Arc, not the shim's: which container object the set maps an ID to is model state, the
// reference count is not, and loom's Arc would add a scheduling point to every clone.
use crate::sync::unseen::Arc;

/// P3's tombstone: where `removeContainer` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tombstone {
    Off,
    /// P3: before `containerMap.remove`.
    BeforeRemove,
    /// Mutant: in place of `deleteFromContainerTable`, after the map removal.
    AfterRemove,
    /// Mutant: P3 written before the removal, but the restart's
    /// `buildMissingContainerSet` left as it was: a tombstoned ID is marked missing, and its
    /// writes answer CONTAINER_MISSING, which the state machine does not ignore.
    MarkedMissingAtRestart,
    /// Mutant: P3 refusing the auto-create in WRITE_DATA only (the PutBlock's and
    /// StreamInit's apply auto-create a tombstoned ID).
    RefusedInWriteDataOnly,
    /// Mutant: P3 refusing the auto-create at apply only (WriteChunk's WRITE_DATA, and the
    /// stream's StreamInit, auto-create a tombstoned ID).
    RefusedAtApplyOnly,
    /// Mutant: the tombstone not kept across a restart (as a set in memory would be): the
    /// restarted datanode has nothing that remembers a container its snapshot predates.
    DroppedAtRestart,
}

impl Tombstone {
    pub fn is_on(self) -> bool {
        self != Tombstone::Off
    }

    /// Whether `removeContainer` writes the tombstone before `containerMap.remove` (every
    /// value but upstream's and the mutant that writes it after).
    pub fn before_remove(self) -> bool {
        !matches!(self, Tombstone::Off | Tombstone::AfterRemove)
    }

    /// Whether the auto-create branch refuses a tombstoned ID, in WRITE_DATA (`in_write_data`)
    /// or at apply.
    pub fn refuses_auto_create(self, in_write_data: bool) -> bool {
        match self {
            Tombstone::Off => false,
            Tombstone::RefusedInWriteDataOnly => in_write_data,
            Tombstone::RefusedAtApplyOnly => !in_write_data,
            _ => true,
        }
    }

    /// Whether a restart keeps the tombstones.
    pub fn kept_at_restart(self) -> bool {
        self != Tombstone::DroppedAtRestart
    }

    /// Whether a restart leaves a tombstoned ID out of the missing set.
    pub fn not_missing_at_restart(self) -> bool {
        !matches!(self, Tombstone::Off | Tombstone::MarkedMissingAtRestart)
    }
}

/// `ContainerDataProto.State`, the states a replica takes in these models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    Open,
    /// `markContainerForClose`: SCM's close command reached the datanode; writes the leader
    /// already appended are still applied (`checkContainerOpen` passes CLOSING).
    Closing,
    /// `quasiCloseContainer`: closed without the pipeline (no Ratis group to submit through).
    QuasiClosed,
    Closed,
    Unhealthy,
    Deleted,
}

impl State {
    /// `HddsUtils.isOpenToWriteState` (OPEN, RECOVERING; RECOVERING, an EC state, does not
    /// occur here).
    pub fn is_open_to_write(self) -> bool {
        self == State::Open
    }
}

/// `ContainerProtos.Result`, the results these paths return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Success,
    ContainerNotOpen,
    ClosedContainerIo,
    ContainerNotFound,
    ContainerUnhealthy,
    ContainerMissing,
    ContainerExists,
    ContainerInternalError,
    ChunkFileInconsistency,
    UnableToFindChunk,
    NoSuchBlock,
}

impl Res {
    /// `HddsDispatcher.canIgnoreException`: a write result outside this list marks the replica
    /// UNHEALTHY.
    pub fn dispatcher_ignores(self) -> bool {
        matches!(
            self,
            Res::Success | Res::ContainerUnhealthy | Res::ClosedContainerIo | Res::ContainerMissing
        )
    }

    /// `ContainerStateMachine.handleCommandResult` and `applyTransaction`: anything else marks
    /// the state machine unhealthy and closes the pipeline.
    pub fn state_machine_ignores(self) -> bool {
        matches!(
            self,
            Res::Success
                | Res::ContainerNotOpen
                | Res::ClosedContainerIo
                | Res::ChunkFileInconsistency
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Res::Success => "SUCCESS",
            Res::ContainerNotOpen => "CONTAINER_NOT_OPEN",
            Res::ClosedContainerIo => "CLOSED_CONTAINER_IO",
            Res::ContainerNotFound => "CONTAINER_NOT_FOUND",
            Res::ContainerUnhealthy => "CONTAINER_UNHEALTHY",
            Res::ContainerMissing => "CONTAINER_MISSING",
            Res::ContainerExists => "CONTAINER_EXISTS",
            Res::ContainerInternalError => "CONTAINER_INTERNAL_ERROR",
            Res::ChunkFileInconsistency => "CHUNK_FILE_INCONSISTENCY",
            Res::UnableToFindChunk => "UNABLE_TO_FIND_CHUNK",
            Res::NoSuchBlock => "NO_SUCH_BLOCK",
        }
    }
}

impl std::fmt::Display for Res {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How a replica came to be on this datanode (ghost: upstream does not record it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Created over the pipeline before the close (the real replicas).
    Pipeline,
    /// Created by `dispatchRequest`'s auto-create on a datanode that had deleted it.
    Recreated,
    /// Imported by replication (balancer or under-replication), a copy of its source.
    Imported,
}

/// `KeyValueContainerData`: what the replica holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContainerData {
    pub state: State,
    pub bcsid: u64,
    /// The block table: local ID → the BCSID of the PutBlock that committed it.
    pub blocks: IdMap<u64, BLOCK_SLOTS>,
    /// FILE_PER_BLOCK chunk files: local ID → file length.
    pub chunk_files: IdMap<u64, BLOCK_SLOTS>,
    /// The delete moved the container's directory to the volume's tmp folder and dropped its
    /// DB (`KeyValueContainerUtil.removeContainer`): a chunk file can no longer be opened.
    pub moved: bool,
}

impl ContainerData {
    pub fn open() -> Self {
        ContainerData {
            state: State::Open,
            bcsid: 0,
            blocks: IdMap::new(),
            chunk_files: IdMap::new(),
            moved: false,
        }
    }

    /// What a timeline shows of the replica, taken now and formatted only when displayed.
    pub fn summary(&self) -> Summary {
        let mut blocks = [0u64; 4];
        for b in self.blocks.keys() {
            blocks[usize::from(b / 64)] |= 1 << (b % 64);
        }
        Summary {
            state: self.state,
            bcsid: self.bcsid,
            blocks,
        }
    }
}

/// A replica's state, BCSID and block IDs at one moment (see [`ContainerData::summary`]): a
/// copy with no allocation, so a step that records it costs nothing while nothing records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    state: State,
    bcsid: u64,
    /// The local IDs of the block table, as a bit set.
    blocks: [u64; 4],
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids =
            (0..=LocalId::MAX).filter(|&b| self.blocks[usize::from(b / 64)] & 1 << (b % 64) != 0);
        write!(f, "{:?} BCSID {} blocks ", self.state, self.bcsid)?;
        f.debug_list().entries(ids).finish()
    }
}

/// `KeyValueContainer`: one replica object.
#[derive(Debug)]
pub struct KeyValueContainer {
    pub id: ContainerId,
    /// `KeyValueContainer.lock`, held for write across the delete's steps.
    pub lock: SpanLock,
    data: Mutex<ContainerData>,
    pub origin: Origin,
    /// `KeyValueContainerData.blockCommitSequenceId` is a plain `long`: the PutBlock's apply
    /// writes it and the container report reads it with no lock. The value is the data's
    /// `bcsid`; this cell, built only in a race cell (so no other cell sees a new primitive),
    /// shows loom those two accesses outside the data's lock.
    bcsid_access: Option<RaceCell<()>>,
}

impl KeyValueContainer {
    pub fn new(id: ContainerId, data: ContainerData, origin: Origin) -> Arc<Self> {
        Arc::new(KeyValueContainer {
            id,
            lock: SpanLock::new(),
            data: Mutex::new(data),
            origin,
            bcsid_access: tracking_races().then(|| RaceCell::new(())),
        })
    }

    /// `updateBlockCommitSequenceId`: the unsynchronized write (its value is in the data).
    pub fn bcsid_written(&self) {
        if let Some(cell) = &self.bcsid_access {
            cell.with_mut(|_| ());
        }
    }

    /// `getBlockCommitSequenceId`: the unsynchronized read.
    pub fn bcsid_read(&self) -> u64 {
        if let Some(cell) = &self.bcsid_access {
            cell.with(|_| ());
        }
        self.data(|d| d.bcsid)
    }

    /// One access to the container's data (one field read or write upstream).
    pub fn data<R>(&self, f: impl FnOnce(&mut ContainerData) -> R) -> R {
        f(&mut self.data.lock())
    }

    pub fn state(&self) -> State {
        self.data(|d| d.state)
    }
}

/// A row of the container ID table (`ContainerCreateInfo`, HDDS-11650), or P3's tombstone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Created,
    /// P3: the ID of a replica this datanode deleted; refused by auto-create, cleared by import.
    Tombstone,
}

/// `ContainerSet`.
#[derive(Debug, Default)]
pub struct ContainerSet {
    container_map: Linearizable<IdMap<Arc<KeyValueContainer>, CONTAINER_SLOTS>>,
    /// Touched by the client's thread only in the loom scenarios (see the module doc).
    missing: unseen::Mutex<IdSet>,
    id_table: Linearizable<IdMap<Row, CONTAINER_SLOTS>>,
}

impl ContainerSet {
    /// `getContainer`.
    pub fn get(&self, id: ContainerId) -> Option<Arc<KeyValueContainer>> {
        self.container_map.read(|map| map.get(id).cloned())
    }

    /// For the outcome predicates: per container ID, the local IDs in the block table of its
    /// replica, as bits (`getContainer`, then one read of its table, without taking a reference
    /// to the replica); none without a replica.
    pub fn block_masks(&self) -> [u32; CONTAINER_SLOTS] {
        let mut masks = [0; CONTAINER_SLOTS];
        self.container_map.read(|map| {
            for (id, c) in map.iter() {
                masks[usize::from(id)] =
                    c.data(|d| d.blocks.keys().fold(0, |mask, b| mask | 1 << b));
            }
        });
        masks
    }

    /// `containerMap.containsKey` (`getContainer(id) != null`).
    pub fn contains(&self, id: ContainerId) -> bool {
        self.container_map.read(|map| map.contains_key(id))
    }

    /// `addContainer` (`ensureContainerNotMissing`, `putIfAbsent`, `updateContainerIdTable`,
    /// `missingContainerSet.remove`); `overwrite_missing` is `addContainerByOverwriteMissingContainer`.
    pub fn add(&self, c: Arc<KeyValueContainer>, overwrite_missing: bool) -> Result<(), Res> {
        let id = c.id;
        if !overwrite_missing && self.is_missing(id) {
            return Err(Res::ContainerMissing);
        }
        self.container_map.write(|map| {
            if map.contains_key(id) {
                return Err(Res::ContainerExists);
            }
            map.insert(id, c);
            Ok(())
        })?;
        // updateContainerIdTable: writes the row unless one exists (a tombstone counts as one,
        // so an import clears it explicitly, see `clear_tombstone`).
        self.id_table.write(|table| {
            table.get_or_insert(id, Row::Created);
        });
        self.missing.lock().remove(id);
        Ok(())
    }

    /// `containerMap.remove` (the first half of `removeContainer`).
    pub fn remove_from_map(&self, id: ContainerId) -> bool {
        self.container_map.write(|map| map.remove(id).is_some())
    }

    /// `deleteFromContainerTable` (the second half of `removeContainer`).
    pub fn delete_row(&self, id: ContainerId) {
        self.id_table.write(|table| table.remove(id));
    }

    /// P3: the tombstone row.
    pub fn write_tombstone(&self, id: ContainerId) {
        self.id_table
            .write(|table| table.insert(id, Row::Tombstone));
    }

    pub fn has_tombstone(&self, id: ContainerId) -> bool {
        self.id_table
            .read(|table| table.get(id) == Some(&Row::Tombstone))
    }

    /// P3: container import clears the tombstone before it adds the replica.
    pub fn clear_tombstone(&self, id: ContainerId) {
        self.id_table.write(|table| {
            if table.get(id) == Some(&Row::Tombstone) {
                table.remove(id);
            }
        });
    }

    pub fn row(&self, id: ContainerId) -> Option<Row> {
        self.id_table.read(|table| table.get(id).copied())
    }

    pub fn mark_missing(&self, id: ContainerId) {
        self.missing.lock().insert(id);
    }

    pub fn is_missing(&self, id: ContainerId) -> bool {
        self.missing.lock().contains(id)
    }

    /// Every replica, for a container report (`getContainerReport`).
    pub fn replicas(&self) -> Vec<Arc<KeyValueContainer>> {
        self.container_map
            .read(|map| map.values().cloned().collect())
    }

    /// Calls `f` on every replica in ID order, with the map locked (as [`ContainerSet::replicas`],
    /// without collecting them; `f` must not call back into this set).
    pub fn each(&self, f: impl FnMut(&Arc<KeyValueContainer>)) {
        self.container_map.read(|map| map.values().for_each(f));
    }

    /// A restart: the container map is rebuilt from disk (the same replicas), the missing set
    /// starts empty; the tombstones are kept unless `tombstone` is the mutant that drops them.
    pub fn restart(&self, tombstone: Tombstone) {
        self.missing.lock().clear();
        if !tombstone.kept_at_restart() {
            self.id_table.write(|table| {
                let dropped: Vec<ContainerId> = table
                    .iter()
                    .filter(|&(_, row)| *row == Row::Tombstone)
                    .map(|(id, _)| id)
                    .collect();
                for id in dropped {
                    table.remove(id);
                }
            });
        }
    }
}

/// The pipeline's `ContainerStateMachine` on this datanode.
#[derive(Debug)]
pub struct ContainerStateMachine {
    /// `container2BCSIDMap`: every container created over the pipeline → the BCSID of its last
    /// PutBlock. Nothing ever removes a key.
    container2bcsid: unseen::Mutex<IdMap<u64, CONTAINER_SLOTS>>,
    /// `stateMachineHealthy`.
    healthy: unseen::AtomicBool,
    /// `unhealthyContainers`: the containers whose write or apply failed.
    unhealthy: unseen::Mutex<IdSet>,
    /// The last Ratis snapshot: its index, and the map as `persistContainerSet` wrote it.
    snapshot: unseen::Mutex<(u64, IdMap<u64, CONTAINER_SLOTS>)>,
}

impl Default for ContainerStateMachine {
    fn default() -> Self {
        ContainerStateMachine {
            container2bcsid: unseen::Mutex::new(IdMap::new()),
            healthy: unseen::AtomicBool::new(true),
            unhealthy: unseen::Mutex::new(IdSet::new()),
            snapshot: unseen::Mutex::new((0, IdMap::new())),
        }
    }
}

impl ContainerStateMachine {
    pub fn bcsid_of(&self, id: ContainerId) -> Option<u64> {
        self.container2bcsid.lock().get(id).copied()
    }

    /// `container2BCSIDMap.putIfAbsent(id, 0)`.
    pub fn put_if_absent(&self, id: ContainerId) {
        self.container2bcsid.lock().get_or_insert(id, 0);
    }

    /// `updateBCSID`: `computeIfPresent(id, bcsid)`.
    pub fn update_bcsid(&self, id: ContainerId, bcsid: u64) {
        if let Some(v) = self.container2bcsid.lock().get_mut(id) {
            *v = bcsid;
        }
    }

    pub fn is_healthy(&self) -> bool {
        self.healthy.load(unseen::Ordering::SeqCst)
    }

    /// `stateMachineHealthy.set(false)` and `unhealthyContainers.add(id)` (and, at apply,
    /// `handleApplyTransactionFailure`).
    pub fn fail(&self, id: ContainerId) {
        self.healthy.store(false, unseen::Ordering::SeqCst);
        self.unhealthy.lock().insert(id);
    }

    /// `checkContainerHealthy(id, skipContainerUnhealthyCheck)`: `writeStateMachineData` passes
    /// `true` (an unhealthy state machine refuses every write), `applyTransaction` `false` (only
    /// the containers whose write failed). `Err` is CONTAINER_UNHEALTHY, answered without
    /// dispatching.
    pub fn check_container_healthy(&self, id: ContainerId, any: bool) -> Result<(), Res> {
        if !self.is_healthy() && (any || self.unhealthy.lock().contains(id)) {
            return Err(Res::ContainerUnhealthy);
        }
        Ok(())
    }

    /// `takeSnapshot` at the last applied `index` → `persistContainerSet`. An unhealthy state
    /// machine throws instead (`StateMachineException`): no snapshot is taken.
    pub fn take_snapshot(&self, index: u64) -> bool {
        if !self.is_healthy() {
            return false;
        }
        let map = *self.container2bcsid.lock();
        *self.snapshot.lock() = (index, map);
        true
    }

    pub fn snapshot_index(&self) -> u64 {
        self.snapshot.lock().0
    }

    /// `loadSnapshot` → `buildMissingContainerSet`: the map is the snapshot's (a new state
    /// machine object: nothing from before the restart survives but the snapshot), and the
    /// pipeline is healthy again.
    pub fn restart(&self) -> IdMap<u64, CONTAINER_SLOTS> {
        let snapshot = self.snapshot.lock().1;
        *self.container2bcsid.lock() = snapshot;
        self.healthy.store(true, unseen::Ordering::SeqCst);
        *self.unhealthy.lock() = IdSet::new();
        snapshot
    }
}

/// One datanode.
#[derive(Debug)]
pub struct Datanode {
    pub id: DnId,
    pub set: ContainerSet,
    /// `KeyValueHandler.containerCreationLocks` (one stripe, see the module doc; touched by the
    /// client's thread only in the loom scenarios).
    pub creation_lock: unseen::Mutex<()>,
    pub csm: ContainerStateMachine,
    /// `ContainerStateMachine.containerTaskQueues`: the applies of one container's entries
    /// run one at a time, in log order (the close's apply among them). One queue per datanode:
    /// no scenario applies entries of two containers at once.
    pub task_queue: SpanLock,
}

impl Datanode {
    pub fn new(id: DnId) -> Self {
        Datanode {
            id,
            set: ContainerSet::default(),
            creation_lock: unseen::Mutex::new(()),
            csm: ContainerStateMachine::default(),
            task_queue: SpanLock::new(),
        }
    }

    /// `KeyValueHandler.handleGetBlock` (a read: no stage, no state check).
    pub fn get_block(&self, id: ContainerId, block: LocalId) -> Res {
        match self.set.get(id) {
            None => Res::ContainerNotFound,
            Some(c) if c.data(|d| d.blocks.contains_key(block)) => Res::Success,
            Some(_) => Res::NoSuchBlock,
        }
    }

    /// A restart: `buildMissingContainerSetAndValidate` marks every ID of the snapshot's map
    /// that has no replica as missing — with P3 ([`Tombstone::not_missing_at_restart`]), not a
    /// tombstoned one: it was deleted on purpose, not lost.
    pub fn restart(&self, tombstone: Tombstone) -> Vec<ContainerId> {
        let skip_tombstoned = tombstone.not_missing_at_restart();
        self.set.restart(tombstone);
        let snapshot = self.csm.restart();
        let mut missing = Vec::new();
        // OzoneContainer's start: every key of the container ID table without a loaded replica
        // is marked missing (ContainerSet.buildMissingContainerSet). Upstream deletes the row
        // with the replica, so only P3's tombstones are left there: P3 skips them.
        let rows = self.set.id_table.read(|table| *table);
        for (id, row) in rows.iter() {
            let tombstone = *row == Row::Tombstone;
            if !(self.set.contains(id) || tombstone && skip_tombstoned) {
                self.set.mark_missing(id);
                missing.push(id);
            }
        }
        for id in snapshot.keys() {
            if missing.contains(&id) {
                continue;
            }
            if !(self.set.contains(id) || skip_tombstoned && self.set.has_tombstone(id)) {
                self.set.mark_missing(id);
                missing.push(id);
            }
        }
        missing
    }
}

/// A quiet datanode (no lock held, no step in flight) as plain data, for [`World::image`]:
/// building a datanode from it takes no lock, so a fuzz run pays no atomic operation for it.
///
/// [`World::image`]: super::World::image
#[cfg(feature = "histories")]
#[derive(Clone, Copy, Debug)]
pub struct DatanodeImage {
    id: DnId,
    replicas: IdMap<(ContainerData, Origin), CONTAINER_SLOTS>,
    missing: IdSet,
    id_table: IdMap<Row, CONTAINER_SLOTS>,
    container2bcsid: IdMap<u64, CONTAINER_SLOTS>,
    healthy: bool,
    unhealthy: IdSet,
    snapshot: (u64, IdMap<u64, CONTAINER_SLOTS>),
}

#[cfg(feature = "histories")]
impl Datanode {
    pub fn image(&self) -> DatanodeImage {
        assert!(
            !self.task_queue.is_held(),
            "image of a datanode in the middle of an apply"
        );
        let mut replicas = IdMap::new();
        self.set.container_map.read(|map| {
            for (id, c) in map.iter() {
                assert!(!c.lock.is_held(), "image of a replica being deleted");
                replicas.insert(id, (c.data(|d| *d), c.origin));
            }
        });
        DatanodeImage {
            id: self.id,
            replicas,
            missing: *self.set.missing.lock(),
            id_table: self.set.id_table.read(|table| *table),
            container2bcsid: *self.csm.container2bcsid.lock(),
            healthy: self.csm.is_healthy(),
            unhealthy: *self.csm.unhealthy.lock(),
            snapshot: *self.csm.snapshot.lock(),
        }
    }
}

#[cfg(feature = "histories")]
impl DatanodeImage {
    /// The datanode, with new lock objects and new replica objects.
    pub fn datanode(&self) -> Datanode {
        let mut container_map = IdMap::new();
        for (id, &(data, origin)) in self.replicas.iter() {
            container_map.insert(id, KeyValueContainer::new(id, data, origin));
        }
        Datanode {
            id: self.id,
            set: ContainerSet {
                container_map: Linearizable::new(container_map),
                missing: unseen::Mutex::new(self.missing),
                id_table: Linearizable::new(self.id_table),
            },
            creation_lock: unseen::Mutex::new(()),
            csm: ContainerStateMachine {
                container2bcsid: unseen::Mutex::new(self.container2bcsid),
                healthy: unseen::AtomicBool::new(self.healthy),
                unhealthy: unseen::Mutex::new(self.unhealthy),
                snapshot: unseen::Mutex::new(self.snapshot),
            },
            task_queue: SpanLock::new(),
        }
    }
}
