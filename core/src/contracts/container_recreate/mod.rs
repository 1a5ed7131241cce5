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
//! - [`world`]: the world's accessors, and its description;
//! - [`speed`]: what makes the checks fast, no upstream behaviour: the tables keyed by
//!   datanode, container and block IDs (`speed::dense`: upstream's maps, as small fixed
//!   tables), a quiet world as plain data (`Image`), the first unheld block.
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
pub mod speed;
pub mod upstream;
pub mod world;

pub use close::{close_then_force_delete, CloseThenForceDelete, CloseThroughPipeline};
pub use container_report::ContainerReport;
pub use datanode::Tombstone;
pub use dispatcher::{CommitRefusal, DeletedAnswer, MapRefusal, WriteFailure};
pub use scenarios::*;
#[cfg(feature = "histories")]
pub use speed::Image;
pub use world::created_with_block;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{run_alone, Baseline, Contract, Model, Part, Program, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use crate::sync::unseen;
use datanode::{Datanode, Origin};
use ghost::Ghost;
use scm::Scm;
use speed::dense::{IdSet, PairSet};

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

crate::switches! {
    /// One switch per part of the fix.
    pub struct Fix {
        /// P1: the auto-create branch refuses an ID in `container2BCSIDMap` (CONTAINER_NOT_OPEN),
        /// everywhere (see [`MapRefusal`]).
        0 => pub refuse_auto_create_in_map: MapRefusal = MapRefusal::Off,
        /// P2: COMMIT_DATA of an absent container the datanode remembers answers
        /// CONTAINER_NOT_OPEN, not CONTAINER_NOT_FOUND (see [`CommitRefusal`]).
        1 => pub refuse_commit_of_remembered: CommitRefusal = CommitRefusal::Off,
        /// P3: a tombstone in the container ID table, refused by auto-create, kept across a
        /// restart (and not marked missing by it), cleared by import.
        2 => pub tombstone: Tombstone = Tombstone::Off,
        /// P4: SCM never raises a CLOSED container's sequence id.
        3 => pub keep_closed_seq: bool = false,
        /// P5: a CLOSED replica whose BCSID differs from the container's sequence id is unhealthy.
        4 => pub seq_mismatch_unhealthy: bool = false,
        /// P6 (the candidate): the leader's `startTransaction` rejects an absent container
        /// the datanode remembers, so no entry is appended.
        5 => pub leader_refuses_remembered: bool = false,
        /// P7 (ours): `checkContainerOpen` answers CONTAINER_NOT_OPEN for a replica being deleted
        /// (DELETED), and `canIgnoreException` lets it pass, instead of CONTAINER_INTERNAL_ERROR
        /// (see [`DeletedAnswer`]).
        6 => pub deleted_not_open: DeletedAnswer = DeletedAnswer::InternalError,
        /// Mutant only: the delete marks the ID missing (`removeContainer(id, true, true)`).
        7 => pub mark_deleted_missing: bool = false,
        /// P8 (ours): a write that fails after the state check on a replica that is no longer
        /// OPEN answers CONTAINER_NOT_OPEN (see [`WriteFailure`]).
        8 => pub recheck_failed_write: WriteFailure = WriteFailure::Upstream,
        /// N (HDDS-15791's answer): a refused auto-create answers CONTAINER_NOT_FOUND, as
        /// `dispatchRequest` does for `containerAutoCreate=false`, instead of CONTAINER_NOT_OPEN.
        9 => pub refusal_not_found: bool = false,
    }
}

pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "the auto-create branch of dispatchRequest refuses an ID in container2BCSIDMap, \
              answering CONTAINER_NOT_OPEN",
    on: |fix| Fix {
        refuse_auto_create_in_map: Switch::new(MapRefusal::Everywhere),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary:
        "COMMIT_DATA of an absent container the datanode remembers answers CONTAINER_NOT_OPEN \
              (not CONTAINER_NOT_FOUND)",
    on: |fix| Fix {
        refuse_commit_of_remembered: Switch::new(CommitRefusal::Remembered),
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
        deleted_not_open: Switch::new(DeletedAnswer::NotOpen),
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
        recheck_failed_write: Switch::new(WriteFailure::Recheck),
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
    /// The pipeline's Ratis log (entry `i` at index `i + 1`). Appended only by the leader's RPC
    /// thread, and every scenario has one client, so an unseen mutex (no scheduling point) serves.
    log: unseen::Mutex<Vec<dispatcher::Request>>,
    /// SCM and OM: deterministic, driven by the histories only (an unseen mutex, see [`scm`]).
    pub scm: unseen::Mutex<Scm>,
    pub om: unseen::Mutex<Om>,
    pub ghost: Ghost,
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

/// Runs `program` to its end with no other actor running; fails where it cannot (see
/// [`run_alone`]).
pub fn run(w: &World, mut program: impl Program<World>) {
    run_alone(&mut program, w);
}

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
    // Decided on SCM's decisions as carried out and what the datanodes held then, not on
    // a witness the path that ran chose to record (see [`scm::o3_witness`]).
    check: Check::State(|w| w.ghost.once_decided(|ds| ds.iter().find_map(scm::o3_witness))),
};

/// O4: data loss of a block committed before the close.
pub static O4: Outcome<World> = Outcome {
    id: "O4",
    summary:
        "data loss: a block committed before the close, still referenced by OM, is on no replica \
              (NO_SUCH_BLOCK on every replica, or NO_REPLICA_FOUND)",
    check: Check::State(|w| w.lost(|om| &om.before_close)),
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

/// O6: loss of a block acknowledged after the recreate.
pub static O6: Outcome<World> = Outcome {
    id: "O6",
    summary: "a block whose write was acknowledged to the client after the close is on no replica",
    check: Check::State(|w| w.lost(|om| &om.after_close)),
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

/// O8: a data race on `KeyValueContainerData.blockCommitSequenceId`.
pub static O8: Outcome<World> = Outcome {
    id: "O8",
    summary: "(from the code) data race: the container report reads blockCommitSequenceId, a plain long, \
              while the PutBlock's apply writes it (a stale, or by JLS 17.7 torn, BCSID in the report)",
    check: Check::Race,
};

pub struct ContainerRecreate;

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
