//! container-recreate — HDDS-17643: a pipeline leader recreates a container SCM force-deleted,
//! and SCM keeps the new copy over the real replicas.
//!
//! Components, as upstream splits them:
//! - [`datanode`]: `ContainerSet` (container map, missing set, container ID table),
//!   `KeyValueContainer`, `containerCreationLocks`, and the pipeline's `ContainerStateMachine`
//!   (`container2BCSIDMap`, `stateMachineHealthy`, the snapshot);
//! - [`dispatcher`]: `HddsDispatcher.validateContainerCommand` and `dispatchRequest`, and the
//!   write half of `KeyValueHandler` (`handleCreateContainer`, `handleWriteChunk`,
//!   `handlePutBlock`, `checkContainerOpen`);
//! - [`pipeline`]: a client's WriteChunk and PutBlock through the RATIS/THREE pipeline
//!   (`startTransaction`, `writeStateMachineData`, `applyTransaction`);
//! - [`delete`]: `DeleteContainerCommandHandler` → `KeyValueHandler.deleteInternal(force)`;
//! - [`scm`]: the container report handler, the replication manager's handlers, the balancer;
//! - [`ghost`]: what the predicates observe beyond upstream state;
//! - [`dense`]: the tables keyed by datanode, container and block IDs (no upstream
//!   counterpart: upstream's maps, as small fixed tables).
//!
//! Threads: the datanode's command handler thread (the delete), the leader's Ratis RPC thread,
//! chunk executor and apply executor (the client's write), SCM's report and replication
//! threads (histories only). The claims matrix is in [`claims`]; design notes, and every place
//! where the code disagrees with the report, in `DESIGN-NOTES.md`.

pub mod claims;
pub mod close;
pub mod container_report;
pub mod datanode;
pub mod delete;
pub mod dense;
pub mod dispatcher;
pub mod findings;
pub mod ghost;
#[cfg(feature = "histories")]
pub mod histories;
pub mod pipeline;
pub mod premises;
pub mod reproductions;
pub mod scenarios;
pub mod scm;
pub mod upstream;

pub use close::{close_then_force_delete, CloseThenForceDelete, CloseThroughPipeline};
pub use container_report::ContainerReport;
pub use scenarios::*;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{run_to_end, Baseline, Contract, Model, Part, Program, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use crate::sync::unseen;
use crate::trace::{CxRef, Trace};
use datanode::{ContainerData, Datanode, KeyValueContainer, Origin, State};
use delete::DeleteContainerCommandHandler;
use dense::{IdSet, PairSet};
use ghost::Ghost;
use pipeline::ClientWrite;
use scm::{Command, ReplicaProto, Scm, ScmFix};

pub type DnId = u8;
pub type ContainerId = u8;
pub type LocalId = u8;

/// Datanodes 1..=5; the pipeline is 1 (leader), 2, 3.
pub const DATANODES: DnId = 5;
/// Slots of the tables keyed by a datanode ID (1..=DATANODES).
pub const DN_SLOTS: usize = DATANODES as usize + 1;
/// Slots of the tables keyed by a container ID: IDs 0..=3 (the models use 1 and 2).
pub const CONTAINER_SLOTS: usize = 4;
/// Slots of a replica's block and chunk tables: local IDs 0..=7 (the histories write blocks
/// 1 to 7, the scenarios 1 and 2). A fuzz run copies every replica's tables when it builds its
/// start, and scans them on every report: no more slots than the IDs need.
pub const BLOCK_SLOTS: usize = 8;
pub const PIPELINE: [DnId; 3] = [1, 2, 3];
pub const LEADER: DnId = 1;
/// The members a loom scenario runs the write and the close on. The followers are left out:
/// their steps touch only their own replicas, which no other actor touches, and everything
/// they can answer here (SUCCESS on an OPEN replica, CLOSED_CONTAINER_IO on a CLOSED one) is
/// ignored by their state machines, so no outcome depends on them. The reproductions and the
/// histories run all three.
pub const LEADER_ONLY: &[DnId] = &[LEADER];
/// The container of the scenarios and its block committed before the close.
pub const C: ContainerId = 1;
pub const OLD_BLOCK: LocalId = 1;
/// The block the client allocated before the close and writes after it.
pub const NEW_BLOCK: LocalId = 2;
pub const CHUNK: u64 = 1024;

/// P3's tombstone: where `removeContainer` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tombstone {
    Off,
    /// P3: before `containerMap.remove`.
    BeforeRemove,
    /// Mutant: in place of `deleteFromContainerTable`, after the map removal.
    AfterRemove,
}

impl Tombstone {
    pub fn is_on(self) -> bool {
        self != Tombstone::Off
    }
}

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
}

/// One switch per part of the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    /// P1: the auto-create branch refuses an ID in `container2BCSIDMap` (CONTAINER_NOT_OPEN).
    pub refuse_auto_create_in_map: Switch<bool, 0>,
    /// P2: COMMIT_DATA of an absent container the datanode remembers answers
    /// CONTAINER_NOT_OPEN, not CONTAINER_NOT_FOUND.
    pub refuse_commit_of_remembered: Switch<bool, 1>,
    /// P3: a tombstone in the container ID table, refused by auto-create, kept across a
    /// restart (and not marked missing by it), cleared by import.
    pub tombstone: Switch<Tombstone, 2>,
    /// P4: SCM never raises a CLOSED container's sequence id.
    pub keep_closed_seq: Switch<bool, 3>,
    /// P5: a CLOSED replica whose BCSID differs from the container's sequence id is unhealthy.
    pub seq_mismatch_unhealthy: Switch<bool, 4>,
    /// P6 (the candidate): the leader's `startTransaction` rejects an absent container
    /// the datanode remembers, so no entry is appended.
    pub leader_refuses_remembered: Switch<bool, 5>,
    /// P7 (ours): `checkContainerOpen` answers CONTAINER_NOT_OPEN for a replica being deleted
    /// (DELETED), and `canIgnoreException` lets it pass, instead of CONTAINER_INTERNAL_ERROR.
    pub deleted_not_open: Switch<bool, 6>,
    /// Mutant only: the delete marks the ID missing (`removeContainer(id, true, true)`).
    pub mark_deleted_missing: Switch<bool, 7>,
    /// P8 (ours): a write that fails after the state check on a replica that is no longer
    /// OPEN answers CONTAINER_NOT_OPEN (see [`WriteFailure`]).
    pub write_failure: Switch<WriteFailure, 8>,
    /// N (HDDS-15791's answer): a refused auto-create answers CONTAINER_NOT_FOUND, as
    /// `dispatchRequest` does for `containerAutoCreate=false`, instead of CONTAINER_NOT_OPEN.
    pub refusal_not_found: Switch<bool, 9>,
}

crate::switches!(Fix {
    refuse_auto_create_in_map,
    refuse_commit_of_remembered,
    tombstone,
    keep_closed_seq,
    seq_mismatch_unhealthy,
    leader_refuses_remembered,
    deleted_not_open,
    mark_deleted_missing,
    write_failure,
    refusal_not_found,
});

impl Fix {
    pub const UPSTREAM: Fix = Fix {
        refuse_auto_create_in_map: Switch::new(false),
        refuse_commit_of_remembered: Switch::new(false),
        tombstone: Switch::new(Tombstone::Off),
        keep_closed_seq: Switch::new(false),
        seq_mismatch_unhealthy: Switch::new(false),
        leader_refuses_remembered: Switch::new(false),
        deleted_not_open: Switch::new(false),
        mark_deleted_missing: Switch::new(false),
        write_failure: Switch::new(WriteFailure::Upstream),
        refusal_not_found: Switch::new(false),
    };

    pub fn scm(&self) -> ScmFix {
        ScmFix {
            keep_closed_seq: self.keep_closed_seq.get(),
            seq_mismatch_unhealthy: self.seq_mismatch_unhealthy.get(),
        }
    }
}

pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "the auto-create branch of dispatchRequest refuses an ID in container2BCSIDMap, \
              answering CONTAINER_NOT_OPEN",
    on: |fix| Fix {
        refuse_auto_create_in_map: Switch::new(true),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary:
        "COMMIT_DATA of an absent container the datanode remembers answers CONTAINER_NOT_OPEN \
              (not CONTAINER_NOT_FOUND)",
    on: |fix| Fix {
        refuse_commit_of_remembered: Switch::new(true),
        ..fix
    },
};

pub const P3: Part<Fix> = Part {
    id: "P3",
    summary: "a tombstone row in the container ID table, written before containerMap.remove, \
              refused by auto-create, kept (and not marked missing) across a restart, cleared by \
              import",
    on: |fix| Fix {
        tombstone: Switch::new(Tombstone::BeforeRemove),
        ..fix
    },
};

pub const P4: Part<Fix> = Part {
    id: "P4",
    summary: "SCM never raises a CLOSED container's sequence id",
    on: |fix| Fix {
        keep_closed_seq: Switch::new(true),
        ..fix
    },
};

pub const P5: Part<Fix> = Part {
    id: "P5",
    summary: "SCM treats a CLOSED replica whose BCSID differs from the container's sequence id as \
              unhealthy",
    on: |fix| Fix {
        seq_mismatch_unhealthy: Switch::new(true),
        ..fix
    },
};

pub const P6: Part<Fix> = Part {
    id: "P6",
    summary: "(the issue's candidate) the leader's startTransaction rejects an absent container \
              the datanode remembers, so no entry is appended",
    on: |fix| Fix {
        leader_refuses_remembered: Switch::new(true),
        ..fix
    },
};

pub const P7: Part<Fix> = Part {
    id: "P7",
    summary: "(ours) checkContainerOpen answers CONTAINER_NOT_OPEN for a DELETED replica, which \
              canIgnoreException passes, instead of CONTAINER_INTERNAL_ERROR",
    on: |fix| Fix {
        deleted_not_open: Switch::new(true),
        ..fix
    },
};

pub const P8: Part<Fix> = Part {
    id: "P8",
    summary: "(ours) handleWriteChunk, handlePutBlock and handleStreamInit catch any failure of \
              the write after checkContainerOpen (the chunk file's open throwing an unchecked \
              exception, a missing chunk file), read the replica's state again and, when it is no \
              longer OPEN (a close and a force delete landed in between), answer \
              CONTAINER_NOT_OPEN without marking it",
    on: |fix| Fix {
        write_failure: Switch::new(WriteFailure::Recheck),
        ..fix
    },
};

/// The precedent's answer in place of P1's: it changes only the code a refusal answers.
pub const N: Part<Fix> = Part {
    id: "N",
    summary: "(HDDS-15791's answer) a refused auto-create answers CONTAINER_NOT_FOUND, as \
              dispatchRequest does for containerAutoCreate=false, instead of CONTAINER_NOT_OPEN",
    on: |fix| Fix {
        refusal_not_found: Switch::new(true),
        ..fix
    },
};

/// The patch.
pub const PROPOSED: &[&Part<Fix>] = &[&P1, &P4, &P5];
/// Ours: the smallest set of parts that closes every outcome (CR-F9).
pub const IMPROVED: &[&Part<Fix>] = &[&P2, &P3, &P7, &P8];

/// Everything the actors share.
#[derive(Debug)]
pub struct World {
    pub fix: Fix,
    pub dns: Vec<Datanode>,
    /// The pipeline's Ratis log (entry `i` at index `i + 1`): the clients' commands and the
    /// closes. Appended only by the leader's RPC thread and the close's submission, which no
    /// scenario runs against each other's append, so an unseen mutex (no scheduling point) serves.
    log: unseen::Mutex<Vec<LogEntry>>,
    /// SCM and OM: deterministic, driven by the histories only (an unseen mutex, see [`scm`]).
    pub scm: unseen::Mutex<Scm>,
    pub om: unseen::Mutex<Om>,
    pub ghost: Ghost,
}

/// An entry of the pipeline's Ratis log: a client's command, or SCM's close of a container
/// (`ContainerStateMachine.startTransaction` appends both; `applyTransaction` dispatches both,
/// the close through `dispatchRequest` to `KeyValueHandler.handleCloseContainer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogEntry {
    Command(dispatcher::Request),
    Close { container: ContainerId, index: u64 },
}

impl LogEntry {
    pub fn index(&self) -> u64 {
        match self {
            LogEntry::Command(r) => r.index,
            LogEntry::Close { index, .. } => *index,
        }
    }
}

/// A quiet world as plain data (see [`World::image`]).
#[cfg(feature = "histories")]
#[derive(Clone, Debug)]
pub struct Image {
    pub fix: Fix,
    dns: Vec<datanode::DatanodeImage>,
    log: Vec<LogEntry>,
    scm: Scm,
    om: Om,
    ghost: ghost::GhostState,
}

#[cfg(feature = "histories")]
impl Image {
    /// The world, with new lock and replica objects: what building it again would give,
    /// without running its steps again, and without taking a lock.
    pub fn world(&self) -> World {
        World {
            fix: self.fix,
            dns: self
                .dns
                .iter()
                .map(datanode::DatanodeImage::datanode)
                .collect(),
            // Room for a long history's entries: appending them does not reallocate.
            log: unseen::Mutex::new(ghost::with_room(64, &self.log)),
            scm: unseen::Mutex::new(self.scm),
            om: unseen::Mutex::new(self.om),
            ghost: Ghost::from_state(&self.ghost),
        }
    }
}

/// OM's key table, as block references; and (ghost) which were committed before the close and
/// which were acknowledged after it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Om {
    /// (container, local ID) pairs.
    pub blocks: PairSet,
    pub before_close: PairSet,
    pub after_close: PairSet,
    pub closed: IdSet,
}

impl World {
    pub fn new(fix: Fix) -> Self {
        World {
            fix,
            dns: (1..=DATANODES).map(Datanode::new).collect(),
            log: unseen::Mutex::new(Vec::new()),
            scm: unseen::Mutex::new(Scm::default()),
            om: unseen::Mutex::new(Om::default()),
            ghost: Ghost::default(),
        }
    }

    /// This world, quiet (no step in flight), as plain data: what a history starts from (see
    /// `histories::start`), kept once and built into a new world for every run.
    #[cfg(feature = "histories")]
    pub fn image(&self) -> Image {
        Image {
            fix: self.fix,
            dns: self.dns.iter().map(Datanode::image).collect(),
            log: self.log.lock().clone(),
            scm: *self.scm_state(),
            om: *self.om(),
            ghost: self.ghost.snapshot(),
        }
    }

    pub fn dn(&self, id: DnId) -> &Datanode {
        &self.dns[usize::from(id) - 1]
    }

    /// The index the next appended entry gets.
    pub fn peek_log_index(&self) -> u64 {
        self.last_log_index() + 1
    }

    #[inline(never)]
    pub fn last_log_index(&self) -> u64 {
        self.log.lock().len() as u64
    }

    /// `startTransaction` accepted the entry: Ratis appends it.
    #[inline(never)]
    pub fn append(&self, req: dispatcher::Request) {
        let mut log = self.log.lock();
        debug_assert_eq!(req.index, log.len() as u64 + 1);
        log.push(LogEntry::Command(req));
    }

    /// `CloseContainerCommandHandler` submitted the close through Ratis: the leader's
    /// `startTransaction` (`validateContainerCommand` lets a CloseContainer through whatever the
    /// replica's state, or with no replica: HddsDispatcher 2.2.0 l.558, l.583) and Ratis append
    /// it like any entry. Its index: a later PutBlock's BCSID is one more for it.
    #[inline(never)]
    pub fn append_close(&self, container: ContainerId) -> u64 {
        let mut log = self.log.lock();
        let index = log.len() as u64 + 1;
        log.push(LogEntry::Close { container, index });
        index
    }

    /// Calls `f` on each entry after `index`, in log order, until it breaks: a restart's
    /// replay. The log stays locked meanwhile (no copy of it): `f` must not append.
    pub fn replay_after(&self, index: u64, f: impl FnMut(&LogEntry) -> std::ops::ControlFlow<()>) {
        let log = self.log.lock();
        let _ = log.iter().filter(|e| e.index() > index).try_for_each(f);
    }

    /// Not inlined, as the datanode's accessors (see [`datanode`]).
    #[inline(never)]
    fn om(&self) -> unseen::MutexGuard<'_, Om> {
        self.om.lock()
    }

    #[inline(never)]
    fn scm_state(&self) -> unseen::MutexGuard<'_, Scm> {
        self.scm.lock()
    }

    /// The first pair of `wanted`, in ascending order, whose block no replica of its
    /// container holds: what `wanted.iter().find(|k| no datanode holds k)` gives. Each
    /// datanode's replicas are read at most once, in datanode order, and only until the blocks
    /// read so far include the pair's (usually the leader's replicas alone).
    fn first_unheld(&self, wanted: PairSet) -> Option<(ContainerId, LocalId)> {
        // The datanodes read so far, and the blocks their replicas hold, per container.
        let (mut read, mut held) = (0, [0u32; CONTAINER_SLOTS]);
        wanted.iter().find(|&(id, block)| {
            let id = usize::from(id);
            // No datanode holds a container beyond the map's slots.
            if id >= CONTAINER_SLOTS {
                return true;
            }
            while held[id] & 1 << block == 0 {
                let Some(dn) = self.dns.get(read) else {
                    return true;
                };
                read += 1;
                for (h, m) in held.iter_mut().zip(dn.set.block_masks()) {
                    *h |= m;
                }
            }
            false
        })
    }

    /// Whether `dn` holds a replica of `id` with every block OM references that was committed
    /// before the close (a real replica, or a copy of one): `Some(true)`; one lacking some of
    /// them (recreated, or a copy of a recreated one): `Some(false)`; no replica: `None`.
    pub fn is_real(&self, dn: DnId, id: ContainerId) -> Option<bool> {
        let c = self.dn(dn).set.get(id)?;
        let om = self.om();
        Some(c.data(|d| {
            om.before_close
                .iter()
                .filter(|&k| k.0 == id && om.blocks.contains(k))
                .all(|k| d.blocks.contains_key(k.1))
        }))
    }

    /// The container report of `dn`.
    pub fn report_of(&self, dn: DnId) -> scm::Report {
        let mut report = scm::Report::new();
        self.dn(dn).set.each(|c| {
            report.insert(
                c.id,
                c.data(|d| ReplicaProto {
                    id: c.id,
                    state: d.state,
                    bcsid: d.bcsid,
                    empty: d.blocks.is_empty(),
                }),
            );
        });
        report
    }

    /// OM commits the key of a write whose WriteChunk and PutBlock both succeeded.
    pub fn commit_key(&self, id: ContainerId, block: LocalId) {
        let mut om = self.om();
        om.blocks.insert((id, block));
        if om.closed.contains(id) {
            om.after_close.insert((id, block));
        } else {
            om.before_close.insert((id, block));
        }
    }
}

/// Runs `program` to its end with no other actor running (see [`run_to_end`]).
pub fn run(w: &World, mut program: impl Program<World>) {
    run_to_end(&mut program, w);
}

/// A container created over the pipeline with one committed block, as every member holds it.
pub fn created_with_block(trace: &Trace, w: &World, id: ContainerId, block: LocalId) {
    w.scm_state().allocate(id);
    run(w, ClientWrite::new(trace, &PIPELINE, id, block, 0, CHUNK));
}

/// O8: a data race on `KeyValueContainerData.blockCommitSequenceId`.
pub static O8: Outcome<World> = Outcome {
    id: "O8",
    summary: "(from the code) data race: the container report reads blockCommitSequenceId, a plain long, \
              while the PutBlock's apply writes it (a stale, or by JLS 17.7 torn, BCSID in the report)",
    check: Check::Race,
};

pub struct ContainerRecreate;

/// O1: the leader recreates the container and the client's write succeeds on it.
pub static O1: Outcome<World> = Outcome {
    id: "O1",
    summary:
        "the leader recreates a container it force-deleted (OPEN, BCSID 0) and the client's write \
              succeeds: an acknowledged block lives on the recreated replica",
    check: Check::State(|w| {
        // Only the pairs in `recreated` can hold a recreated replica (see [`ghost::GhostState`]),
        // and they are ordered by datanode: the same first witness as a scan of every datanode.
        w.ghost.once_recreated(|g| g.clients.iter().filter(|r| r.succeeded()).find_map(|r| {
            g.recreated.iter().filter(|p| p.1 == r.container).find_map(|(dn, _)| {
                let dn = w.dn(dn);
                let c = dn.set.get(r.container)?;
                let holds = c.data(|d| d.blocks.contains_key(r.block));
                (c.origin == Origin::Recreated && holds).then(|| {
                    format!(
                        "dn{} recreated c{} after deleting it ({}); the client's WriteChunk and PutBlock of block {} \
                         returned SUCCESS",
                        dn.id,
                        r.container,
                        c.data(|d| d.summary()),
                        r.block
                    )
                })
            })
        }))
    }),
};

/// O5: the pipeline fails.
pub static O5: Outcome<World> = Outcome {
    id: "O5",
    summary: "the pipeline closes: a member's ContainerStateMachine is unhealthy after a result it does not \
              ignore (CONTAINER_NOT_FOUND, UNABLE_TO_FIND_CHUNK, CONTAINER_UNHEALTHY, CONTAINER_MISSING, or an \
              exception: a DELETED replica that cannot be marked, a chunk file opened after the delete moved \
              its directory)",
    check: Check::State(|w| {
        w.dns.iter().find(|dn| !dn.csm.is_healthy()).map(|dn| {
            let replies = w.ghost.with(|g| g.replies.clone());
            let failed = replies
                .iter()
                .filter(|r| r.0 == dn.id && !r.3.state_machine_ignores())
                .map(|r| format!("{} {} → {}", if r.1 { "PutBlock" } else { "WriteChunk" }, r.2.name(), r.3))
                .collect::<Vec<_>>();
            let after = if failed.is_empty() {
                "a CloseContainer applied without the replica (CONTAINER_NOT_FOUND)".to_string()
            } else {
                failed.join(", ")
            };
            format!("dn{}: stateMachineHealthy = false after {after}", dn.id)
        })
    }),
};

/// O7: the invariant the report states for the datanode, whatever the client was told.
pub static O7: Outcome<World> = Outcome {
    id: "O7",
    summary: "(from the code) a datanode holds a replica it recreated by auto-create after deleting it, \
              whether or not the write succeeded (e.g. an empty UNHEALTHY one from a refused PutBlock)",
    check: Check::State(|w| {
        // The pairs in `recreated`, in (datanode, container) order, are the only candidates (see
        // [`ghost::GhostState`]): the first one found is the first of a scan of every replica.
        w.ghost.once_recreated(|g| {
            g.recreated.iter().find_map(|(dn, id)| {
                let c = w.dn(dn).set.get(id).filter(|c| c.origin == Origin::Recreated)?;
                Some(format!("dn{dn} holds recreated c{id}: {}", c.data(|d| d.summary())))
            })
        })
    }),
};

/// O2: SCM raises a CLOSED container's sequence id.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary: "SCM raises a CLOSED container's sequence id to a recreated replica's BCSID",
    check: Check::State(|w| {
        let scm = w.scm_state();
        let raised = scm.containers.iter().find_map(|(id, c)| {
            (c.state == scm::LifeCycle::Closed && c.seq > c.close_seq).then(|| {
                format!(
                    "c{id} CLOSED at sequence id {} raised to {}",
                    c.close_seq, c.seq
                )
            })
        });
        raised
    }),
};

/// O3: SCM keeps the recreated replica over real ones.
pub static O3: Outcome<World> = Outcome {
    id: "O3",
    summary: "SCM keeps the recreated replica over real ones: over-replication deletes a real replica while \
              it keeps one lacking blocks, or under-replication copies from one lacking blocks",
    check: Check::State(|w| w.ghost.witnessed("O3")),
};

/// O4: data loss of a block committed before the close.
pub static O4: Outcome<World> = Outcome {
    id: "O4",
    summary:
        "data loss: a block committed before the close, still referenced by OM, is on no replica \
              (NO_SUCH_BLOCK on every replica, or NO_REPLICA_FOUND)",
    check: Check::State(|w| w.lost(|om| &om.before_close)),
};

/// O6: loss of a block acknowledged after the recreate.
pub static O6: Outcome<World> = Outcome {
    id: "O6",
    summary: "a block whose write was acknowledged to the client after the close is on no replica",
    check: Check::State(|w| w.lost(|om| &om.after_close)),
};

impl World {
    fn lost(&self, which: fn(&Om) -> &PairSet) -> Option<String> {
        let lost = {
            let om = self.om();
            // The pairs of `which` that OM still references, in ascending order, as the filter
            // over `which` gave them.
            self.first_unheld(which(&om).intersection(om.blocks))
        };
        lost.map(|(c, b)| {
                let scm = self.scm_state();
                let replicas = scm.replicas(c);
                if replicas.is_empty() {
                    format!("block {b} of c{c}: OM references it, no replica left (NO_REPLICA_FOUND)")
                } else {
                    format!(
                        "block {b} of c{c}: OM references it, every replica SCM keeps ({:?}) lacks it (NO_SUCH_BLOCK)",
                        replicas.keys().collect::<Vec<_>>()
                    )
                }
            })
    }

    /// Carries out SCM's commands on the datanodes, recording each, and witnessing O3.
    pub fn execute(&self, trace: &Trace, id: ContainerId, commands: &[Command]) {
        let cx = CxRef::new(trace, "ReplicationManager");
        for command in commands {
            match *command {
                Command::Close { dn, force } => {
                    cx.record(
                        "ReplicationManager.sendCloseContainerReplicaCommand",
                        format_args!(
                            "c{id}: close the mismatched replica on dn{dn} (force={force})"
                        ),
                    );
                    self.close_container_command(trace, id, dn, force);
                }
                Command::Delete { dn, force, why } => {
                    if why.is_replication_choice() && self.is_real(dn, id) == Some(true) {
                        let kept = self
                            .scm_state()
                            .replicas(id)
                            .keys()
                            .find(|&d| d != dn && self.is_real(d, id) == Some(false));
                        if let Some(kept) = kept {
                            self.ghost.witness(
                                "O3",
                                format!("c{id}: SCM deletes the real replica on dn{dn} ({why:?}) and keeps dn{kept}'s, which lacks blocks"),
                            );
                        }
                    }
                    cx.record(
                        "ReplicationManager.sendDeleteCommand",
                        format_args!("c{id} on dn{dn}, force={force} ({why:?})"),
                    );
                    run(
                        self,
                        DeleteContainerCommandHandler::new(trace, dn, id, force),
                    );
                    if let Some(r) = self.scm_state().replicas.get_mut(id) {
                        r.remove(dn);
                    }
                }
                Command::Replicate { src, tgt } => {
                    if self.is_real(src, id) == Some(false) {
                        let real = self
                            .scm_state()
                            .replicas(id)
                            .keys()
                            .find(|&d| self.is_real(d, id) == Some(true));
                        if let Some(real) = real {
                            self.ghost.witness(
                                "O3",
                                format!("c{id}: SCM copies from dn{src}, which lacks blocks, not from the real replica on dn{real}"),
                            );
                        }
                    }
                    cx.record(
                        "ReplicationManager.sendThrottledReplicationCommand",
                        format_args!("c{id}: dn{src} → dn{tgt}"),
                    );
                    self.replicate(trace, id, src, tgt);
                }
                Command::DeleteContainer => {
                    cx.record(
                        "EmptyContainerHandler.handle",
                        format_args!("c{id}: DELETING"),
                    );
                    if let Some(c) = self.scm_state().containers.get_mut(id) {
                        c.state = scm::LifeCycle::Deleting;
                    }
                }
            }
        }
    }

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

    /// Replication: `tgt` imports a copy of `src`'s replica (`KeyValueHandler.importContainer`,
    /// which clears P3's tombstone); SCM records the new replica.
    pub fn replicate(&self, trace: &Trace, id: ContainerId, src: DnId, tgt: DnId) {
        let Some(from) = self.dn(src).set.get(id) else {
            return;
        };
        let data: ContainerData = from.data(|d| *d);
        let target = self.dn(tgt);
        if target.set.contains(id) {
            return;
        }
        if self.fix.tombstone.get().is_on() {
            target.set.clear_tombstone(id);
        }
        let summary = data.summary();
        let replica = scm::ContainerReplica {
            state: State::Closed,
            seq: data.bcsid,
            empty: data.blocks.is_empty(),
        };
        let copy = KeyValueContainer::new(
            id,
            ContainerData {
                state: State::Closed,
                ..data
            },
            Origin::Imported,
        );
        if target.set.add(copy, true).is_ok() {
            CxRef::new(trace, "ReplicateContainerCommandHandler").record(
                "KeyValueHandler.importContainer",
                format_args!("dn{tgt} c{id}: imported from dn{src} ({summary})"),
            );
            self.scm_state()
                .replicas
                .get_or_insert_with(id, dense::IdMap::new)
                .insert(tgt, replica);
        }
    }

    /// The observable state in the report's words.
    pub fn describe(&self) -> String {
        let mut lines = Vec::new();
        for dn in &self.dns {
            let reps: Vec<String> = dn
                .set
                .replicas()
                .iter()
                .map(|c| format!("c{} {} ({:?})", c.id, c.data(|d| d.summary()), c.origin))
                .collect();
            lines.push(format!(
                "dn{}: {}{}",
                dn.id,
                if reps.is_empty() {
                    "no replica".to_string()
                } else {
                    reps.join("; ")
                },
                if dn.csm.is_healthy() {
                    ""
                } else {
                    " — pipeline state machine unhealthy"
                }
            ));
        }
        // The same, as `key=value` words (what a real run's trace gives the validator).
        let mut words = Vec::new();
        for dn in &self.dns {
            let d = dn.id;
            let reps = dn.set.replicas();
            words.push(format!("dn{d}.replicas={}", reps.len()));
            for c in reps.iter() {
                let (state, bcsid, blocks) = c.data(|x| {
                    let blocks: Vec<String> = x.blocks.keys().map(|b| b.to_string()).collect();
                    (x.state, x.bcsid, blocks)
                });
                let blocks = if blocks.is_empty() {
                    "none".to_string()
                } else {
                    blocks.join(",")
                };
                words.push(format!(
                    "dn{d}.c{id}={state:?} dn{d}.c{id}.bcsid={bcsid} dn{d}.c{id}.blocks={blocks}",
                    id = c.id
                ));
            }
            words.push(format!("dn{d}.healthy={}", dn.csm.is_healthy()));
        }
        for id in [C] {
            for dn in &self.dns {
                words.push(format!(
                    "dn{}.container2BCSIDMap[c{id}]={}",
                    dn.id,
                    dn.csm
                        .bcsid_of(id)
                        .map_or("none".to_string(), |b| b.to_string())
                ));
            }
        }
        let scm = self.scm_state();
        for (id, c) in scm.containers.iter() {
            words.push(format!("scm.c{id}.seq={}", c.seq));
            lines.push(format!(
                "SCM c{id}: {:?} seq {} replicas {:?}",
                c.state,
                c.seq,
                scm.replicas(id).keys().collect::<Vec<_>>()
            ));
        }
        let clients = self.ghost.with(|g| g.clients.clone());
        for r in clients {
            lines.push(format!(
                "client block {} of c{}: WriteChunk {} PutBlock {}",
                r.block,
                r.container,
                r.write_chunk.map_or("no reply".into(), |x| x.to_string()),
                r.put_block.map_or("no reply".into(), |x| x.to_string())
            ));
        }
        lines.push(format!("observable: {}", words.join(" ")));
        lines.join("\n")
    }
}

impl Model for ContainerRecreate {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "container-recreate",
        module: "container_recreate",
        report: "HDDS-17643",
        title: "Pipeline leader recreates a Ratis container replica that SCM force deleted, and SCM keeps the new \
                copy over the real replicas",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] = &[&O1, &O2, &O3, &O4, &O5, &O6, &O7, &O8];
    const BASELINES: &'static [Baseline<Fix>] = &[Baseline {
        name: REPORT,
        repo: "apache/ozone",
        commit: "78d5650c313f2fa0731bdf08b76d4604090dabca",
        about: "Ozone master of 2026-08-23, read for the model (the report's e345940c289 is newer and not in it)",
        changes: &[],
    }];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("P1", &[&P1]),
        Variant::new("P2", &[&P2]),
        Variant::new("P4", &[&P4]),
        Variant::new("P5", &[&P5]),
        Variant::new("P6", &[&P6]),
        Variant::new("P1+P2", &[&P1, &P2]),
        Variant::new("P4+P5", &[&P4, &P5]),
        Variant::new("proposed", PROPOSED),
        Variant::new("tombstone", &[&P3]),
        Variant::new("P7", &[&P7]),
        Variant::new("P8", &[&P8]),
        Variant::new("P1+P2+P7", &[&P1, &P2, &P7]),
        Variant::new("P1+P2+P7+P8", &[&P1, &P2, &P7, &P8]),
        // HDDS-15791's refusal (CONTAINER_NOT_FOUND) in place of P1's answer.
        Variant::new("HDDS-15791", &[&P1, &P2, &P7, &P8, &N]),
        // The ablation of improved: each of its parts left out once.
        Variant::new("P3+P7+P8", &[&P3, &P7, &P8]),
        Variant::new("P2+P7+P8", &[&P2, &P7, &P8]),
        Variant::new("P2+P3+P8", &[&P2, &P3, &P8]),
        Variant::new("P2+P3+P7", &[&P2, &P3, &P7]),
        Variant::new("improved", IMPROVED),
    ];
    const FINDINGS: &'static [Finding] = findings::FINDINGS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    fn describe(w: &World) -> String {
        w.describe()
    }
}

impl Claimed for ContainerRecreate {
    const CLAIMS: Claims<Self> = claims::CLAIMS;
}
