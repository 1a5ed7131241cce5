//! The expected claims matrix of HDDS-17643, as data. Every cell is checked by a test; the loom
//! cells' `executions` are pinned (a change means the model changed: review, re-pin).
//!
//! Loom decides the datanode race (the close and the force delete on the leader against the
//! client's WriteChunk and PutBlock); the histories decide what SCM does with a recreated
//! replica (O2, O3, O4, O6) and the restart path (P3's claim).

use super::reproductions::{over_replication_deletes, production_timeline, repro_test, with_fix};
use super::{
    CommitRefusal, ContainerRecreate, DeletedAnswer, Fix, MapRefusal, Tombstone, WriteFailure,
    IMPROVED, O1, O2, O3, O4, O5, O6, O7, O8, P4, P5, PUT_BLOCK_RACES_CLOSE_AND_DELETE,
    REPORT_RACES_PUT_BLOCK, RESTART_REPLAYS_A_DELETED_CONTAINER,
    RESTART_REPLAYS_A_STREAMED_CONTAINER, SCM_COUNTS_A_RECREATED_REPLICA,
    STREAMED_WRITE_RACES_CLOSE_AND_DELETE, WRITE_RACES_CLOSE_AND_DELETE, WRITE_RACES_ON_A_FOLLOWER,
};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};
use crate::switches::Switch;

const RACE: &Scenario<ContainerRecreate> = &WRITE_RACES_CLOSE_AND_DELETE;
const REPORT: &Scenario<ContainerRecreate> = &REPORT_RACES_PUT_BLOCK;
const SCM: &Scenario<ContainerRecreate> = &SCM_COUNTS_A_RECREATED_REPLICA;
const FOLLOWER: &Scenario<ContainerRecreate> = &WRITE_RACES_ON_A_FOLLOWER;
const RESTART: &Scenario<ContainerRecreate> = &RESTART_REPLAYS_A_STREAMED_CONTAINER;
const RESTART_WRITTEN: &Scenario<ContainerRecreate> = &RESTART_REPLAYS_A_DELETED_CONTAINER;
const PUT_BLOCK: &Scenario<ContainerRecreate> = &PUT_BLOCK_RACES_CLOSE_AND_DELETE;
const STREAMED: &Scenario<ContainerRecreate> = &STREAMED_WRITE_RACES_CLOSE_AND_DELETE;

pub const CLAIMS: Claims<ContainerRecreate> = Claims {
    cells: &[
        // ---- The datanode race (loom; every loom cell has its steps twin). ----
        // O1: recreated, and the write succeeds.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(RACE, 16780),
            note: "report: validateContainerCommand accepts a write to an absent container, WRITE_DATA auto-creates \
                   it OPEN at BCSID 0, the followers' CLOSED_CONTAINER_IO is ignored; the PutBlock commits block 2 \
                   at a BCSID above the closed replicas" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::loom(RACE, 13469).final_states(0x0ba0_b413_146d_b3a3),
            note: "report: P1 refuses the auto-create of an ID in container2BCSIDMap, in WRITE_DATA and in the \
                   PutBlock's apply" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::loom(RACE, 19256),
            note: "P2 alone refuses only at COMMIT_DATA, after WRITE_DATA has recreated the container" },
        Claim { variant: "P4", outcome: &O1, expected: R, method: Method::loom(RACE, 16780),
            note: "an SCM part: the datanode race is upstream's" },
        Claim { variant: "P5", outcome: &O1, expected: R, method: Method::loom(RACE, 16780),
            note: "an SCM part: the datanode race is upstream's" },
        Claim { variant: "P6", outcome: &O1, expected: R, method: Method::loom(RACE, 16351),
            note: "the leader's check alone (reject in startTransaction when absent but in the map) leaves O1: a \
                   WriteChunk validated while the container was OPEN reaches WRITE_DATA after the close and the \
                   delete and auto-creates. The check must stay in dispatchRequest too" },
        Claim { variant: "P7", outcome: &O1, expected: R, method: Method::loom(RACE, 22009),
            note: "P7 changes only the answer for a DELETED replica: nothing refuses the auto-create" },
        Claim { variant: "P8", outcome: &O1, expected: R, method: Method::loom(RACE, 16780),
            note: "P8 acts only on a write that fails after the check: nothing refuses the auto-create" },
        Claim { variant: "P1+P2", outcome: &O1, expected: U, method: Method::loom(RACE, 13469).final_states(0x2c49_e1c8_561d_d2eb),
            note: "report: closed" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom(RACE, 13469).final_states(0x0ba0_b413_146d_b3a3),
            note: "report: closed by P1 (proposed = P1 with the SCM defence P4, P5)" },
        Claim { variant: "tombstone", outcome: &O1, expected: U, method: Method::loom(RACE, 13469).final_states(0x0ba0_b413_146d_b3a3),
            note: "the report's alternative: the tombstone, written before containerMap.remove, is seen by every \
                   write that finds the container absent (the mutant with upstream's order is caught)" },
        Claim { variant: "P2+P7+P8", outcome: &O1, expected: R, method: Method::loom(RACE, 24559),
            note: "improved without P3: nothing refuses the auto-create (P2, P7 and P8 act at COMMIT_DATA, on a \
                   DELETED replica, and on a write that fails after the check)" },
        Claim { variant: "HDDS-15791", outcome: &O1, expected: U, method: Method::loom(RACE, 11813).final_states(0xf757_9ec8_1338_3c47),
            note: "HDDS-15791's answer in place of P1's refuses the same writes" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::loom(RACE, 11813).final_states(0x8fea_e1a0_d0b0_cab7),
            note: "closed" },
        // O5: the pipeline fails.
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "report: the PutBlock, validated while OPEN, is applied after the close and the delete: it \
                   auto-creates an empty replica, finishWriteChunks finds no chunk file, UNABLE_TO_FIND_CHUNK marks \
                   the new replica UNHEALTHY and applyTransaction fails the pipeline. The same scenario also reaches \
                   it through a replica read DELETED, and through a chunk file whose directory the delete moved" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::loom(RACE, 6),
            note: "report's fix alone: besides the DELETED replica, the leader's COMMIT_DATA finds no container and \
                   answers CONTAINER_NOT_FOUND, which applyTransaction does not ignore (reference §2.5)" },
        Claim { variant: "P2", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "P2 alone: the auto-created replica's PutBlock finds no chunk file (UNABLE_TO_FIND_CHUNK)" },
        Claim { variant: "P4", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "an SCM part: the datanode race is upstream's" },
        Claim { variant: "P5", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "an SCM part: the datanode race is upstream's" },
        Claim { variant: "P6", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "P6 refuses only at the leader's startTransaction; a write validated before the delete fails as \
                   upstream's does" },
        Claim { variant: "P7", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "P7 alone: the recreated replica's PutBlock still fails UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P8", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "P8 alone: the recreated replica's PutBlock still fails UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::loom(RACE, 6),
            note: "code: P2 answers CONTAINER_NOT_OPEN for an absent container, but a write in flight that got the \
                   replica object before the removal reads it DELETED (CONTAINER_INTERNAL_ERROR, then the \
                   Preconditions.checkState exception): P7 is needed" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: R, method: Method::loom(RACE, 1552),
            note: "code (KeyValueHandler.handleWriteChunk): checkContainerOpen and the chunk write are separate \
                   accesses. A WriteChunk that passed the check while the replica was OPEN opens its chunk file \
                   after the close and the force delete moved the directory to tmp: the open throws, nothing in \
                   handleWriteChunk or dispatchRequest catches it, and writeStateMachineData's catch marks the state \
                   machine unhealthy. P7 cannot help: the state was OPEN at the check. P8 is needed" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O5, expected: U, method: Method::loom(RACE, 11813).final_states(0x8fea_e1a0_d0b0_cab7),
            note: "P8 answers CONTAINER_NOT_OPEN for a write that fails after the check on a replica no longer \
                   OPEN; a close and a delete before the check meet P7, after the write P2 at COMMIT_DATA" },
        Claim { variant: "HDDS-15791", outcome: &O5, expected: R, method: Method::loom(RACE, 4),
            note: "precedent: refusing the recreate with HDDS-15791's answer, CONTAINER_NOT_FOUND, fails the \
                   pipeline: handleCommandResult ignores only SUCCESS, CONTAINER_NOT_OPEN, CLOSED_CONTAINER_IO and \
                   CHUNK_FILE_INCONSISTENCY. The answer code matters" },
        Claim { variant: "proposed", outcome: &O5, expected: R, method: Method::loom(RACE, 6),
            note: "report's fix (P1 with the SCM parts): P1's COMMIT_DATA gap (CONTAINER_NOT_FOUND) and the \
                   in-flight write on a DELETED replica" },
        Claim { variant: "tombstone", outcome: &O5, expected: R, method: Method::loom(RACE, 6),
            note: "the report's alternative as worded (reject at auto-create) leaves O5: a write in flight reads \
                   the replica DELETED; P1's COMMIT_DATA gap (CONTAINER_NOT_FOUND) is there too" },
        Claim { variant: "P3+P7+P8", outcome: &O5, expected: R, method: Method::loom(RACE, 911),
            note: "improved without P2: COMMIT_DATA of the refused WriteChunk answers CONTAINER_NOT_FOUND" },
        Claim { variant: "P2+P3+P8", outcome: &O5, expected: R, method: Method::loom(RACE, 6),
            note: "improved without P7: a write in flight reads the replica DELETED and the pipeline fails" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: R, method: Method::loom(RACE, 1552),
            note: "improved without P8: the chunk file's open throws after the close and the delete land between \
                   checkContainerOpen and the write (as P1+P2+P7)" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::loom(RACE, 11813).final_states(0x8fea_e1a0_d0b0_cab7),
            note: "closed: P3 refuses every auto-create of a deleted ID, P2 answers at COMMIT_DATA, P7 for a \
                   DELETED replica, P8 for a write that fails after the check because the close and the delete \
                   landed in between" },
        // O7: a recreated replica exists at all.
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "the datanode invariant of the report (a datanode never recreates a container it deleted)" },
        Claim { variant: "P1", outcome: &O7, expected: U, method: Method::loom(RACE, 13469).final_states(0x0ba0_b413_146d_b3a3),
            note: "P1 refuses every auto-create of a remembered ID (without a restart, see the histories)" },
        Claim { variant: "P2", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "P2 does not refuse the auto-create" },
        Claim { variant: "P4", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "an SCM part" },
        Claim { variant: "P5", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "an SCM part" },
        Claim { variant: "P6", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "as O1: a write validated before the delete auto-creates" },
        Claim { variant: "P7", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "P7 does not refuse the auto-create" },
        Claim { variant: "P8", outcome: &O7, expected: R, method: Method::loom(RACE, 4),
            note: "P8 does not refuse the auto-create" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::loom(RACE, 13469).final_states(0x2c49_e1c8_561d_d2eb),
            note: "P1 refuses every auto-create of a remembered ID" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::loom(RACE, 13469).final_states(0x0ba0_b413_146d_b3a3),
            note: "the tombstone refuses every auto-create of a deleted ID" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::loom(RACE, 13469).final_states(0x0ba0_b413_146d_b3a3),
            note: "P1 refuses every auto-create of a remembered ID" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::loom(RACE, 11813).final_states(0x8fea_e1a0_d0b0_cab7),
            note: "closed" },
        // O8: the race on blockCommitSequenceId (no part touches it).
        Claim { variant: "upstream", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "the PutBlock's apply writes KeyValueContainerData.blockCommitSequenceId (a plain long) in \
                   persistPutBlock while the container report thread reads it in buildContainerReplicaProto, \
                   neither under a lock: loom reports the data race" },
        Claim { variant: "P1", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "P1 changes the auto-create branch, not the BCSID's accesses: as upstream" },
        Claim { variant: "P2", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "P2 changes COMMIT_DATA of an absent container: as upstream" },
        Claim { variant: "tombstone", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "P3 changes the delete and the auto-create: as upstream" },
        Claim { variant: "P4", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "an SCM part: as upstream" },
        Claim { variant: "P5", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "an SCM part: as upstream" },
        Claim { variant: "P6", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "P6 changes the leader's validation: as upstream" },
        Claim { variant: "P7", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "P7 changes checkContainerOpen's answer for a DELETED replica: as upstream" },
        Claim { variant: "P8", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "P8 changes a failed write's answer: as upstream" },
        Claim { variant: "proposed", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "the report's fix does not touch the BCSID's accesses: the race stays" },
        Claim { variant: "improved", outcome: &O8, expected: R, method: Method::loom(REPORT, 2),
            note: "improved does not touch them either: the race stays (harmless for these outcomes: SCM's next \
                   report reads the new value)" },
        // ---- SCM's decision on the recreated replica: P5's flagged replicas as a cell (issue 37).
        // One deterministic pass (one execution); the unit fixtures and the exhaustive
        // placements in scm.rs pin the rule, these cells pin what it does to O3 here. ----
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::loom(SCM, 1),
            note: "the sequence id raised to the recreated replica's BCSID, nothing flagged: four healthy replicas, \
                   over-replication deletes c1's first in hashCode order, dn2, a real one, and keeps dn1's" },
        Claim { variant: "P4", outcome: &O3, expected: R, method: Method::loom(SCM, 1),
            note: "the twin: P4 keeps the sequence id, but without P5 the recreated CLOSED replica counts healthy: \
                   the excess is chosen by hashCode, a real replica" },
        Claim { variant: "P5", outcome: &O3, expected: R, method: Method::loom(SCM, 1),
            note: "P5 without P4 flags the three real replicas (their BCSID differs from the raised sequence id): \
                   under-replication copies from the recreated one" },
        Claim { variant: "P4+P5", outcome: &O3, expected: U, method: Method::loom(SCM, 1).final_states(0x43c9_b36e_80e8_525c),
            note: "P5 flags the recreated replica (its BCSID differs from the kept sequence id): three healthy, the \
                   flagged one deleted as unhealthy. A P5 that flags the wrong replicas (e.g. only those below the \
                   sequence id) leaves four healthy and deletes a real one" },
        // ---- O5 on a follower alone: the predicate reads every member (issue 37). ----
        Claim { variant: "P4+P5", outcome: &O5, expected: R, method: Method::loom(FOLLOWER, 4),
            note: "the force delete on the follower dn2: its apply of a PutBlock the leader appended before the \
                   close, after the delete, auto-creates an empty replica and fails UNABLE_TO_FIND_CHUNK; the \
                   leader's replica is only closed and its state machine never fails. An O5 that reads only the \
                   leader's state machine misses it (the race's cells run the leader alone). P4+P5: the datanode \
                   is upstream's, and the row had no O5 loom cell" },
        // ---- P3's restart half: the tombstone survives a restart (issue 37). One execution. ----
        Claim { variant: "P2+P3+P7", outcome: &O7, expected: U, method: Method::loom(RESTART, 1).final_states(0x1714_dfc2_a1c6_1a28),
            note: "the tombstone is in the container ID table, which the restart keeps: the replay's StreamInit and \
                   PutBlock are refused (CONTAINER_NOT_OPEN, ignored). A P3 whose restart drops it recreates c1" },
        Claim { variant: "P2+P3+P8", outcome: &O7, expected: U, method: Method::loom(RESTART, 1).final_states(0x1714_dfc2_a1c6_1a28),
            note: "as P2+P3+P7: P3 alone refuses the replay's auto-create" },
        Claim { variant: "P3+P7+P8", outcome: &O7, expected: U, method: Method::loom(RESTART, 1).final_states(0x1714_dfc2_a1c6_1a28),
            note: "as P2+P3+P7: P3 alone refuses the replay's auto-create" },
        Claim { variant: "P2+P7+P8", outcome: &O7, expected: R, method: Method::loom(RESTART, 1),
            note: "the twin: without P3 nothing the restart keeps remembers c1 (the delete removed its row, the map \
                   comes from a snapshot that predates it): the replayed StreamInit recreates it" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O7, expected: R, method: Method::loom(RESTART, 1),
            note: "P1's map is rebuilt from the snapshot, which predates c1: the replayed StreamInit recreates it \
                   (CR-F6: the map in place of the tombstone does not survive the restart)" },
        // ---- Failure paths of O5 (path cells, issue 37): each on its own scenario, beside the row's
        // O5 cell on the race. ----
        // P2's COMMIT_DATA refusal with a tombstone, and P3's restart half that does not mark a
        // tombstoned ID missing: the restart's replay of a written container. One execution.
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::loom_path(RESTART_WRITTEN, 1).final_states(0x1714_dfc2_a1c6_1a28),
            note: "P2's refusal with P3's tombstone: the replay of the WriteChunk's COMMIT_DATA finds c1 absent and \
                   out of the map (rebuilt from a snapshot that predates c1); the tombstone, kept by the restart \
                   and not marked missing, remembers it, and P2 answers CONTAINER_NOT_OPEN (ignored). A P2 that \
                   reads the map alone answers CONTAINER_NOT_FOUND, a restart that marks the tombstoned ID \
                   missing CONTAINER_MISSING: the pipeline fails" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: U, method: Method::loom_path(RESTART_WRITTEN, 1).final_states(0x1714_dfc2_a1c6_1a28),
            note: "as improved: P2 and P3 alone close this path (P7 and P8 act on a replica that is there)" },
        Claim { variant: "P2+P3+P8", outcome: &O5, expected: U, method: Method::loom_path(RESTART_WRITTEN, 1).final_states(0x1714_dfc2_a1c6_1a28),
            note: "as improved: P2 and P3 alone close this path" },
        Claim { variant: "P2+P7+P8", outcome: &O5, expected: R, method: Method::loom_path(RESTART_WRITTEN, 1),
            note: "a twin: without P3 nothing the restart keeps remembers c1, and the replayed COMMIT_DATA answers \
                   CONTAINER_NOT_FOUND, which the state machine does not ignore" },
        Claim { variant: "P3+P7+P8", outcome: &O5, expected: R, method: Method::loom_path(RESTART_WRITTEN, 1),
            note: "a twin: without P2 the replayed COMMIT_DATA of the tombstoned c1 answers CONTAINER_NOT_FOUND" },
        // P7's pass-through of CONTAINER_NOT_OPEN: the PutBlock alone across the force delete.
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: U, method: Method::loom_path(PUT_BLOCK, 355).final_states(0x5e7f_828e_b444_04da),
            note: "P7's pass-through: the PutBlock applied while the delete holds the replica DELETED answers \
                   CONTAINER_NOT_OPEN, which canIgnoreException passes (P1 refuses the auto-create after the \
                   delete). Without the pass-through the DELETED replica cannot be marked UNHEALTHY and the \
                   exception fails the pipeline" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: U, method: Method::loom_path(PUT_BLOCK, 355).final_states(0x5e7f_828e_b444_04da),
            note: "as P1+P2+P7, P3's tombstone refusing the auto-create after the delete" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::loom_path(PUT_BLOCK, 6),
            note: "the twin: without P7 the PutBlock applied to the DELETED replica answers CONTAINER_INTERNAL_ERROR, \
                   the replica cannot be marked, and the exception fails the pipeline" },
        // P8's catch in handleStreamInit: the race with the block written through the data stream.
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::loom_path(STREAMED, 11813).final_states(0x8fea_e1a0_d0b0_cab7),
            note: "P8's catch in handleStreamInit: a StreamInit that passed checkContainerOpen while c1 was OPEN opens \
                   its chunk file after the close and the delete moved the directory; P8 reads the state again \
                   (DELETED) and answers CONTAINER_NOT_OPEN. After the delete P3 refuses the StreamInit's and the \
                   PutBlock's auto-create, during it P7 answers. A P8 without that catch lets the open's exception \
                   fail the pipeline" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: R, method: Method::loom_path(STREAMED, 1552),
            note: "the twin: without P8 the stream's chunk file open after the move throws out of dispatchRequest \
                   and the state machine fails" },
        // ---- The real code (J): replays on Ozone 2.2.0's datanode classes (conformance/ozone,
        // ReplayContainerRecreate*Test), each one order of the race above driven on the real
        // ContainerSet, HddsDispatcher and KeyValueHandler with the harness playing
        // ContainerStateMachine, on every row with racelab.fix.containerrecreate's rendering of its
        // parts. `expected` is the model's verdict for that order on that row (`cargo xtask replay`
        // of the order on the race's scenario); a J "not reached" is about that order, those
        // classes and that rendering. One replay per cell: O1 and O7 from CR_O1, O5 from the
        // replay whose order the row's loom note names, O2 from CR_O2 (whose model verdicts come
        // from the histories' replay of close, force-delete, write, reports). All 80 agree with
        // the model's verdicts for those orders; the records of the other replays on these cells
        // agree too (240 of 240).
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2])" },
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk WRITE_DATA -> IllegalStateException: Expected container 1 to be in OPEN/CLOSING/RECOVERING state but was DELETED. 2.2.0's path is not the model's: the chunk write answers UNABLE_TO_FIND_DATA_DIR (a result, CR_P5) and dispatchRequest's checkState then throws for the DELETED replica; the model has the chunk file's open throw. Same verdict" },
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2]" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND" },
        Claim { variant: "P1", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2])" },
        Claim { variant: "P2", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P2", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2]" },
        Claim { variant: "P4", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2]) (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P4", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P4", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2] (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P5", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2]) (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P5", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P5", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2] (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P6", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2])" },
        Claim { variant: "P6", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P6", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2]" },
        Claim { variant: "tombstone", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "tombstone", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock's apply holds the replica it found across the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> IllegalStateException: Expected container 1 to be in OPEN/CLOSING/RECOVERING state but was DELETED" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "P7", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2])" },
        Claim { variant: "P7", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P7", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2]" },
        Claim { variant: "P8", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2])" },
        Claim { variant: "P8", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P8", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2]" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND) (P4 and P5 are SCM parts, installed but not reached by a datanode replay)" },
        Claim { variant: "proposed", outcome: &O5, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND (P4 and P5 are SCM parts, installed but not reached by a datanode replay)" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND) (P4 and P5 are SCM parts, installed but not reached by a datanode replay)" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1)" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with racelab's rendering of the row's parts: the state machine stays healthy: CONTAINER_NOT_OPEN, PutBlock CONTAINER_NOT_OPEN" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1)" },
        Claim { variant: "P1+P2", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1)" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock's apply holds the replica it found across the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> IllegalStateException: Expected container 1 to be in OPEN/CLOSING/RECOVERING state but was DELETED" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1)" },
        Claim { variant: "P1+P2+P7", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1)" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk WRITE_DATA -> IllegalStateException: Expected container 1 to be in OPEN/CLOSING/RECOVERING state but was DELETED. 2.2.0's path is not the model's: the chunk write answers UNABLE_TO_FIND_DATA_DIR (a result, CR_P5) and dispatchRequest's checkState then throws for the DELETED replica; the model has the chunk file's open throw. Same verdict" },
        Claim { variant: "P1+P2+P7", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with racelab's rendering of the row's parts: the state machine stays healthy: CONTAINER_NOT_OPEN, PutBlock CONTAINER_NOT_OPEN" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1)" },
        Claim { variant: "HDDS-15791", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1; WriteChunk WRITE_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "HDDS-15791", outcome: &O5, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk WRITE_DATA -> CONTAINER_NOT_FOUND" },
        Claim { variant: "HDDS-15791", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1; WriteChunk WRITE_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "P3+P7+P8", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "P3+P7+P8", outcome: &O5, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND" },
        Claim { variant: "P3+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1; WriteChunk COMMIT_DATA -> CONTAINER_NOT_FOUND)" },
        Claim { variant: "P2+P7+P8", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2])" },
        Claim { variant: "P2+P7+P8", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK" },
        Claim { variant: "P2+P7+P8", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2]" },
        Claim { variant: "P2+P3+P8", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1)" },
        Claim { variant: "P2+P3+P8", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock's apply holds the replica it found across the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> IllegalStateException: Expected container 1 to be in OPEN/CLOSING/RECOVERING state but was DELETED" },
        Claim { variant: "P2+P3+P8", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1)" },
        Claim { variant: "P2+P3+P7", outcome: &O1, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no acknowledged write on a recreated replica (no replica of c1)" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: WriteChunk WRITE_DATA -> IllegalStateException: Expected container 1 to be in OPEN/CLOSING/RECOVERING state but was DELETED. 2.2.0's path is not the model's: the chunk write answers UNABLE_TO_FIND_DATA_DIR (a result, CR_P5) and dispatchRequest's checkState then throws for the DELETED replica; the model has the chunk file's open throw. Same verdict" },
        Claim { variant: "P2+P3+P7", outcome: &O7, expected: U, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: no recreated replica (no replica of c1)" },
        Claim { variant: "P4+P5", outcome: &O1, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: the recreated replica holds block 2 and the client was told SUCCESS (c1 OPEN BCSID 5 blocks [2]) (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P4+P5", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the close and the force delete) on 2.2.0 with racelab's rendering of the row's parts: the leader's state machine fails: PutBlock apply -> UNABLE_TO_FIND_CHUNK (an SCM row: its parts are installed, the datanode is upstream's)" },
        Claim { variant: "P4+P5", outcome: &O7, expected: R, method: Method::real("CR_O1"),
            note: "J, this order (WriteChunk validated OPEN, then close and force delete, then written) on 2.2.0 with racelab's rendering of the row's parts: a recreated replica: c1 OPEN BCSID 5 blocks [2] (an SCM row: its parts are installed, the datanode is upstream's)" },

        // O2 from CR_O2: the datanode's order of CR_R3, then SCM's real report handler.
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 5 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5)" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s). The proptest cell is R: reached there by another history (a restart that forgets a streamed container), not by this order" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 5 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5)" },
        Claim { variant: "P4", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5) (P4 rendered in updateContainerStats)" },
        Claim { variant: "P5", outcome: &O2, expected: R, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 5 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5)" },
        Claim { variant: "P6", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s). The proptest cell is R: reached there by another history (a follower the balancer moved the container off), not by this order" },
        Claim { variant: "tombstone", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P7", outcome: &O2, expected: R, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 5 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5)" },
        Claim { variant: "P8", outcome: &O2, expected: R, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 5 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5)" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s) (P4 rendered in updateContainerStats)" },
        Claim { variant: "improved", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P1+P2", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P1+P2+P7", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "HDDS-15791", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P3+P7+P8", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P2+P7+P8", outcome: &O2, expected: R, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 5 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5)" },
        Claim { variant: "P2+P3+P8", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P2+P3+P7", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 0 replica(s)" },
        Claim { variant: "P4+P5", outcome: &O2, expected: U, method: Method::real("CR_O2"),
            note: "J, this order (the repro test's order on the leader, then its full report to SCM's real ContainerReportHandler, ContainerInfo's assertions off as in production: CR_P6) on 2.2.0 with racelab's rendering of the row's parts: c1 CLOSED closed at sequence id 2, now 2 after the leader's report of 1 replica(s) (c1 OPEN BCSID 5) (P4 rendered in updateContainerStats)" },

        // ---- Histories: SCM's handling of the recreated replica, and the restart. ----
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Proptest { cases: 512 },
            note: "a balancer move off the leader, then the late write" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::Proptest { cases: 512 },
            note: "report: updateContainerStats logs the error and raises the CLOSED container's sequence id" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Proptest { cases: 512 },
            note: "report: four CLOSED replicas, the excess chosen by hashCode is a real one" },
        Claim { variant: "upstream", outcome: &O4, expected: R, method: Method::Proptest { cases: 8192 },
            note: "report: moves and one loss later no replica has the blocks from before the close. Found in the \
                   code, not the report: a follower whose replica the balancer moved away recreates it too (it \
                   auto-creates in WRITE_DATA like the leader), so two recreated replicas can push out two real \
                   ones at once (regression leader-and-follower-recreate-then-a-loss)" },
        Claim { variant: "upstream", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "the acknowledged block lives only on recreated replicas, which SCM may delete" },
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::Proptest { cases: 512 },
            note: "the twin of the unreachable O7 history cells: the generator finds a recreate" },
        Claim { variant: "P1", outcome: &O2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "not in the report: a restart forgets a streamed container: the replay of its StreamInit and PutBlock puts nothing in container2BCSIDMap (only a WriteChunk's COMMIT_DATA does), so P1 no longer refuses its recreate on the live leader (regression restart-forgets-a-streamed-container); its PutBlock raises the sequence id" },
        Claim { variant: "P1", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "not in the report: a restart forgets a streamed container: the replay of its StreamInit and PutBlock puts nothing in container2BCSIDMap (only a WriteChunk's COMMIT_DATA does), so P1 no longer refuses its recreate on the live leader (regression restart-forgets-a-streamed-container); four CLOSED replicas, the excess chosen by hashCode is a real one" },
        Claim { variant: "P1", outcome: &O4, expected: U, method: Method::Proptest { cases: 2048 },
            note: "every replica SCM sees is a real one or a copy of one" },
        Claim { variant: "P1", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "not in the report: a restart forgets a streamed container: the replay of its StreamInit and PutBlock puts nothing in container2BCSIDMap (only a WriteChunk's COMMIT_DATA does), so P1 no longer refuses its recreate on the live leader (regression restart-forgets-a-streamed-container); the acknowledged block lives only on the recreated replica" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P2 does not stop the recreate" },
        Claim { variant: "P2", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P2 does not stop the recreate" },
        Claim { variant: "P2", outcome: &O4, expected: R, method: Method::Proptest { cases: 8192 },
            note: "P2 does not stop the recreate" },
        Claim { variant: "P2", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P2 does not stop the recreate" },
        Claim { variant: "P4", outcome: &O2, expected: U, method: Method::Proptest { cases: 2048 },
            note: "P4 keeps the CLOSED container's sequence id" },
        Claim { variant: "P4", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P4 alone: over-replication still chooses by hashCode, getSources still prefers the recreated \
                   replica's own higher BCSID" },
        Claim { variant: "P4", outcome: &O4, expected: R, method: Method::Proptest { cases: 8192 },
            note: "P4 alone is not a defence: a CLOSED replica of any BCSID still counts, over-replication still \
                   deletes by hashCode, getSources still prefers the replica's own (higher) BCSID" },
        Claim { variant: "P4", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "the acknowledged block lives only on the recreated replica" },
        Claim { variant: "P5", outcome: &O2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P5 does not keep the sequence id" },
        Claim { variant: "P5", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P5 alone: with the sequence id raised, the real replicas are the mismatched ones and are deleted \
                   first" },
        Claim { variant: "P5", outcome: &O4, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P5 alone makes it worse: with the sequence id raised, the real replicas are the mismatched ones \
                   and are deleted first. Safe only with P4" },
        Claim { variant: "P5", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "the acknowledged block lives only on the recreated replica" },
        Claim { variant: "P6", outcome: &O2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P6 refuses a write the leader sees absent; a write to a container the balancer moved off a \
                   follower is not refused there" },
        Claim { variant: "P6", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "as O2" },
        Claim { variant: "P6", outcome: &O4, expected: U, method: Method::Proptest { cases: 8192 },
            note: "not found in 8192 histories (upstream's twin finds it): P6 refuses the leader's write to a remembered absent container, and the recreates the generator reaches (followers, restarts) do not push out the real replicas before the keys go. A search, not a proof" },
        Claim { variant: "P6", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "as O2" },
        Claim { variant: "P7", outcome: &O2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P7 does not stop the recreate" },
        Claim { variant: "P7", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P7 does not stop the recreate" },
        Claim { variant: "P7", outcome: &O4, expected: R, method: Method::Proptest { cases: 8192 },
            note: "P7 does not stop the recreate" },
        Claim { variant: "P7", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P7 does not stop the recreate" },
        Claim { variant: "P8", outcome: &O2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P8 does not stop the recreate" },
        Claim { variant: "P8", outcome: &O3, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P8 does not stop the recreate" },
        Claim { variant: "P8", outcome: &O4, expected: R, method: Method::Proptest { cases: 8192 },
            note: "P8 does not stop the recreate" },
        Claim { variant: "P8", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P8 does not stop the recreate" },
        Claim { variant: "P4+P5", outcome: &O2, expected: U, method: Method::Proptest { cases: 2048 },
            note: "P4 keeps the sequence id" },
        Claim { variant: "P4+P5", outcome: &O3, expected: U, method: Method::Proptest { cases: 2048 },
            note: "report: the recreated replica is unhealthy (not counted, not a source, deleted first)" },
        Claim { variant: "P4+P5", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 },
            note: "report: the SCM defence prevents the loss of the blocks from before the close, even with O1" },
        Claim { variant: "P4+P5", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 },
            note: "not in the report: the SCM defence deletes the recreated replica, and with it the block the \
                   client was told was written (regression scm-defence-loses-the-acknowledged-block). Only a \
                   datanode part that refuses the write prevents it" },
        Claim { variant: "P1+P2", outcome: &O7, expected: R, method: Method::Proptest { cases: 2048 },
            note: "report admits a restart gap (HDDS-17435); the one the histories find is wider: a restart forgets a streamed container: the replay of its StreamInit and PutBlock puts nothing in container2BCSIDMap (only a WriteChunk's COMMIT_DATA does), so P1 no longer refuses its recreate on the live leader (regression restart-forgets-a-streamed-container)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O7, expected: R, method: Method::Proptest { cases: 4096 },
            note: "the map instead of the tombstone (P1 for P3) closes every loom outcome but not the restart's \
                   StreamInit replay: the smallest set that closes every outcome is improved's P2+P3+P7+P8" },
        Claim { variant: "proposed", outcome: &O1, expected: R, method: Method::Proptest { cases: 2048 },
            note: "not in the report: loom's race is closed (O1 U), but a restart forgets a streamed container: the replay of its StreamInit and PutBlock puts nothing in container2BCSIDMap (only a WriteChunk's COMMIT_DATA does), so P1 no longer refuses its recreate on the live leader (regression restart-forgets-a-streamed-container)" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::Proptest { cases: 2048 },
            note: "P4 keeps the sequence id" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::Proptest { cases: 2048 },
            note: "P4 keeps the sequence id, so P5 flags a recreated replica (not counted, not a source, deleted first)" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 },
            note: "report: the proposed fix keeps the blocks from before the close" },
        Claim { variant: "proposed", outcome: &O6, expected: R, method: Method::Proptest { cases: 8192 },
            note: "not in the report: a restart forgets a streamed container: the replay of its StreamInit and PutBlock puts nothing in container2BCSIDMap (only a WriteChunk's COMMIT_DATA does), so P1 no longer refuses its recreate on the live leader (regression restart-forgets-a-streamed-container); P4 keeps the sequence id and P5 deletes the recreated replica, and with it the block acknowledged to the client" },
        Claim { variant: "proposed", outcome: &O7, expected: R, method: Method::Proptest { cases: 4096 },
            note: "report admits it: after a restart P1 no longer remembers a streamed container" },
        Claim { variant: "tombstone", outcome: &O2, expected: U, method: Method::Proptest { cases: 2048 },
            note: "no recreate, so no higher BCSID" },
        Claim { variant: "tombstone", outcome: &O3, expected: U, method: Method::Proptest { cases: 2048 },
            note: "no recreate" },
        Claim { variant: "tombstone", outcome: &O4, expected: U, method: Method::Proptest { cases: 2048 },
            note: "no recreate" },
        Claim { variant: "tombstone", outcome: &O6, expected: U, method: Method::Proptest { cases: 2048 },
            note: "no recreate" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::Proptest { cases: 4096 },
            note: "report: the tombstone survives the restart, and the StreamInit replay is refused too" },
        Claim { variant: "improved", outcome: &O2, expected: U, method: Method::Proptest { cases: 2048 },
            note: "no replica is ever recreated" },
        Claim { variant: "improved", outcome: &O3, expected: U, method: Method::Proptest { cases: 2048 },
            note: "no replica is ever recreated" },
        Claim { variant: "improved", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no replica is ever recreated" },
        Claim { variant: "improved", outcome: &O6, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no write to a deleted container is acknowledged" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::Proptest { cases: 4096 },
            note: "the restart too: the tombstone refuses the StreamInit replay" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Quickcheck { tests: 4000 },
            note: "random byte strings through the fuzz codec" },
        Claim { variant: "improved", outcome: &O3, expected: U, method: Method::Quickcheck { tests: 4000 },
            note: "random byte strings through the fuzz codec" },
        Claim { variant: "upstream", outcome: &O4, expected: R, method: Method::FuzzReplay,
            note: "the committed corpus and regressions" },
        Claim { variant: "improved", outcome: &O4, expected: U, method: Method::FuzzReplay,
            note: "the committed corpus and regressions" },
        // The other rows and outcomes of each replay's order, each the model's verdict for that
        // order (scenarios/container-recreate-real-*.scn).
        Claim { variant: "upstream", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P1", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P4", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P4", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P5", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P5", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P6", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P6", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P4+P5", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P4+P5", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "proposed", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "tombstone", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P7", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P7", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P8", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P8", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O5, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O7, expected: R, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O5, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::real("CR_O5"),
            note: "J, this order (close and force delete between checkContainerOpen and the chunk write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_O5.scn)" },
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P2", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P4", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P5", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P6", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1+P2", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P4+P5", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "tombstone", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P7", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P8", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O5, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O7, expected: R, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::real("CR_R1"),
            note: "J, this order (PutBlock validated OPEN, applied after the delete) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R1.scn)" },
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P2", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P4", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P5", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P6", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P4+P5", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "proposed", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P7", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P8", outcome: &O5, expected: R, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::real("CR_R2"),
            note: "J, this order (PutBlock holds the replica across the delete and reads it DELETED) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R2.scn)" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "upstream", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P4", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P4", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P4", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P5", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P5", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P5", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P6", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P6", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P6", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P4+P5", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P4+P5", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P4+P5", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "tombstone", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "tombstone", outcome: &O5, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P7", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P7", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P7", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P8", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P8", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P8", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2+P7", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P1+P2+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "HDDS-15791", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P3+P7+P8", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O1, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P7+P8", outcome: &O7, expected: R, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P3+P8", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "P2+P3+P7", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::real("CR_R3"),
            note: "J, this order (the repro test's order: close and force delete, then the whole write) on 2.2.0 with the row's parts by the fix layer: the model's verdict for it (scenarios/container-recreate-real-CR_R3.scn)" },
    ],
    reproductions: &[
        Reproduction {
            what: "TestCloseContainerByPipeline#testWriteAfterForceDeleteOnLeaderRecreatesContainer (upstream)",
            expected: "WriteChunk SUCCESS, PutBlock SUCCESS; leader Open, 1 block, BCSID above the closed replicas; \
                       followers Closed at the old BCSID, rejecting both with CLOSED_CONTAINER_IO",
            observe: || repro_test(Fix::UPSTREAM),
        },
        Reproduction {
            what: "the repro test's sequence with the fix (improved)",
            expected: "WriteChunk CONTAINER_NOT_OPEN, PutBlock CONTAINER_NOT_OPEN; pipeline open; new block in a new \
                       container: SUCCESS",
            observe: || with_fix(ContainerRecreate::fix(IMPROVED)),
        },
        Reproduction {
            what: "the production timeline for container C on leader dn1 (upstream)",
            expected: "00:00 C closes on dn1, dn2, dn3 at BCSID N; 00:04 moved from dn1 to dn4, forced delete on dn1; \
                       00:06 dn1: C is OPEN, BCSID 0; 00:07 dn1: GetBlock for an existing block of C returns \
                       NO_SUCH_BLOCK; 00:09 dn1: C CLOSED at BCSID N + k (k > 0)",
            observe: || production_timeline(Fix::UPSTREAM),
        },
        Reproduction {
            what: "over-replication with four CLOSED replicas, one recreated (production: 3 of 3 sampled deletes \
                   removed a real replica; the model: 194 of 255 container IDs' hashCode orders, 76%)",
            expected: "most decisions delete a real replica",
            observe: || over_replication_deletes(Fix::UPSTREAM),
        },
        Reproduction {
            what: "over-replication with four CLOSED replicas, one recreated, with P4+P5",
            expected: "0 of 255 decisions delete a real replica",
            observe: || over_replication_deletes(ContainerRecreate::fix(&[&P4, &P5])),
        },
    ],
    mutants: &[
        Mutant {
            name: "tombstone after the map removal",
            variant: "improved",
            mutate: |fix| Fix { tombstone: Switch::new(Tombstone::AfterRemove), ..fix },
            caught_by: &O1,
            caught_at: None,
            inside_a_step: false,
            about: "the obvious edit of removeContainer (deleteFromContainerTable becomes a tombstone put) keeps \
                    upstream's order: a write that finds the container absent before the tombstone is written \
                    recreates it",
        },
        Mutant {
            name: "P1 as marking the deleted ID missing",
            variant: "P1+P2+P7+P8",
            mutate: |fix| Fix { refuse_auto_create_in_map: Switch::new(MapRefusal::Off), mark_deleted_missing: Switch::new(true), ..fix },
            caught_by: &O5,
            caught_at: None,
            inside_a_step: false,
            about: "the delete calls removeContainer(id, markMissing=true): auto-create is refused with \
                    CONTAINER_MISSING, which canIgnoreException passes but ContainerStateMachine does not: the \
                    pipeline fails",
        },
        Mutant {
            name: "P8 catching only the checked exceptions",
            variant: "improved",
            mutate: |fix| Fix { recheck_failed_write: Switch::new(WriteFailure::RecheckCheckedOnly), ..fix },
            caught_by: &O5,
            caught_at: None,
            inside_a_step: false,
            about: "a catch written for what writeChunk declares (StorageContainerException): the chunk file's \
                    open fails with Guava's UncheckedExecutionException, which still escapes dispatchRequest",
        },
        // Issue 37: a mutant per failure path of each part, each caught at that path's own cell.
        Mutant {
            name: "P1 refusing only in WRITE_DATA",
            variant: "proposed",
            mutate: |fix| Fix { refuse_auto_create_in_map: Switch::new(MapRefusal::WriteDataOnly), ..fix },
            caught_by: &O7,
            caught_at: None,
            inside_a_step: false,
            about: "the refusal written into the WriteChunk path alone: a PutBlock validated while c1 was OPEN and \
                    applied after the close and the delete auto-creates an empty replica (the apply's path; \
                    WRITE_DATA's is closed, so O1 stays unreachable)",
        },
        Mutant {
            name: "P1 refusing only at the PutBlock's apply",
            variant: "proposed",
            mutate: |fix| Fix { refuse_auto_create_in_map: Switch::new(MapRefusal::ApplyOnly), ..fix },
            caught_by: &O1,
            caught_at: None,
            inside_a_step: false,
            about: "the refusal written into the apply alone: a WriteChunk validated while c1 was OPEN reaches \
                    WRITE_DATA after the close and the delete, auto-creates c1 and writes; its PutBlock finds the \
                    recreated replica and succeeds (WRITE_DATA's path: O1 needs the chunk file only that write \
                    makes)",
        },
        Mutant {
            name: "P2 reading only the container map",
            variant: "improved",
            mutate: |fix| Fix { refuse_commit_of_remembered: Switch::new(CommitRefusal::MapOnly), ..fix },
            caught_by: &O5,
            caught_at: Some(RESTART_WRITTEN),
            inside_a_step: false,
            about: "COMMIT_DATA refuses an absent container only when container2BCSIDMap has it: after a restart \
                    whose snapshot predates c1, the replayed COMMIT_DATA of the deleted c1 finds only P3's \
                    tombstone, answers CONTAINER_NOT_FOUND, and the pipeline fails",
        },
        Mutant {
            name: "P2 reading only the tombstone",
            variant: "P1+P2+P7+P8",
            mutate: |fix| Fix { refuse_commit_of_remembered: Switch::new(CommitRefusal::TombstoneOnly), ..fix },
            caught_by: &O5,
            caught_at: None,
            inside_a_step: false,
            about: "COMMIT_DATA refuses an absent container only when P3 tombstoned it: with P1 in place of P3, \
                    the leader's COMMIT_DATA of a WriteChunk written before the close and the delete finds c1 \
                    absent, in container2BCSIDMap but not tombstoned, and answers CONTAINER_NOT_FOUND (P2's map \
                    path; in improved every absent mapped ID is tombstoned, so there the mutant is equivalent)",
        },
        Mutant {
            name: "P3's restart marking a tombstoned ID missing",
            variant: "improved",
            mutate: |fix| Fix { tombstone: Switch::new(Tombstone::MarkedMissingAtRestart), ..fix },
            caught_by: &O5,
            caught_at: Some(RESTART_WRITTEN),
            inside_a_step: false,
            about: "the tombstone written and refused as P3's, but buildMissingContainerSet left as it was: the \
                    restart marks the tombstoned c1 missing, the replayed COMMIT_DATA answers CONTAINER_MISSING, \
                    and the pipeline fails",
        },
        Mutant {
            name: "P3 refusing only in WRITE_DATA",
            variant: "improved",
            mutate: |fix| Fix { tombstone: Switch::new(Tombstone::RefusedInWriteDataOnly), ..fix },
            caught_by: &O7,
            caught_at: None,
            inside_a_step: false,
            about: "the tombstone refused in the WriteChunk path alone: a PutBlock validated while c1 was OPEN and \
                    applied after the close and the delete auto-creates an empty replica (the apply's path; \
                    WRITE_DATA's is closed, so O1 stays unreachable)",
        },
        Mutant {
            name: "P3 refusing only at the PutBlock's apply",
            variant: "improved",
            mutate: |fix| Fix { tombstone: Switch::new(Tombstone::RefusedAtApplyOnly), ..fix },
            caught_by: &O1,
            caught_at: None,
            inside_a_step: false,
            about: "the tombstone refused at apply alone: a WriteChunk validated while c1 was OPEN reaches \
                    WRITE_DATA after the close and the delete, auto-creates c1 and writes; its COMMIT_DATA and \
                    PutBlock find the recreated replica and succeed (WRITE_DATA's path)",
        },
        Mutant {
            name: "P3's tombstone not kept across a restart",
            variant: "P2+P3+P7",
            mutate: |fix| Fix { tombstone: Switch::new(Tombstone::DroppedAtRestart), ..fix },
            caught_by: &O7,
            caught_at: None,
            inside_a_step: false,
            about: "the tombstone kept where a restart loses it (a set in memory): after a restart whose snapshot \
                    predates the streamed c1, nothing remembers it and the replayed StreamInit recreates it (P3's \
                    restart half, its first half: the cell on restart-replays-a-deleted-streamed-container)",
        },
        Mutant {
            name: "P8 without its catch in handleStreamInit",
            variant: "improved",
            mutate: |fix| Fix { recheck_failed_write: Switch::new(WriteFailure::RecheckNotInStreamInit), ..fix },
            caught_by: &O5,
            caught_at: Some(STREAMED),
            inside_a_step: false,
            about: "P8's catch written into handleWriteChunk and handlePutBlock only: a StreamInit that passed \
                    checkContainerOpen while c1 was OPEN opens its chunk file after the close and the delete moved \
                    the directory, and the exception escapes dispatchRequest (the race's improved/O5 stays \
                    unreachable: its WriteChunk is caught)",
        },
        Mutant {
            name: "P7 without its pass-through of CONTAINER_NOT_OPEN",
            variant: "P2+P3+P7",
            mutate: |fix| Fix { deleted_not_open: Switch::new(DeletedAnswer::NotOpenNotPassed), ..fix },
            caught_by: &O5,
            caught_at: Some(PUT_BLOCK),
            inside_a_step: false,
            about: "checkContainerOpen answers CONTAINER_NOT_OPEN for a DELETED replica but canIgnoreException is \
                    left as it was: the PutBlock applied while the delete holds the replica DELETED reaches the \
                    marking, the DELETED replica cannot be marked, and the exception fails the pipeline (the \
                    race's O5 cell of the row stays reachable through the chunk file's open: only this path \
                    cell is about the pass-through)",
        },
    ],
};

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::datanode::{Res, State};
    use super::super::World;
    use super::*;
    use crate::outcome::{Check, Outcome};

    /// The switches of the row whose claims a test compares with.
    fn fix(variant: &str) -> Fix {
        ContainerRecreate::fix_of(variant).expect("a variant")
    }

    /// A write result that reaches `dispatchRequest`'s marking of the replica (or an exception):
    /// outside `canIgnoreException`, and neither CONTAINER_NOT_OPEN (P7's answer, which skips
    /// the marking, or a refusal before the handler) nor CONTAINER_NOT_FOUND (only ever a
    /// refusal before the handler).
    static MARKS: Outcome<super::super::World> = Outcome {
        id: "marks",
        summary: "a write reaches markContainerUnhealthy or throws",
        check: Check::State(|w| {
            w.ghost.with(|g| {
                g.replies.iter().find_map(|&(dn, put, stage, reply)| {
                    let marked = match reply.res() {
                        None => true,
                        Some(r) => {
                            !r.dispatcher_ignores()
                                && r != Res::ContainerNotOpen
                                && r != Res::ContainerNotFound
                        }
                    };
                    marked.then(|| {
                        format!(
                            "dn{dn} {} {}: {reply}",
                            if put { "PutBlock" } else { "WriteChunk" },
                            stage.name()
                        )
                    })
                })
            })
        }),
    };

    /// CR-3: SCM's close as upstream splits it. `CloseContainerCommandHandler` marks the
    /// leader's replica CLOSING (its own lock section; `validateContainerCommand` refuses writes
    /// from then on) before it submits the close, and the close's apply is two lock sections,
    /// `markContainerForClose` and `closeContainer`, in the task queue. The force delete still
    /// follows the close: SCM sends it only after the replica's CLOSED report.
    #[derive(Debug)]
    struct CloseInSections {
        cx: crate::trace::Cx,
        step: u8,
    }

    impl CloseInSections {
        const ACTOR: &'static str = "close in sections";

        fn section(&self, w: &World, to: State, method: &'static str) {
            let dn = w.dn(super::super::LEADER);
            let Some(c) = dn.set.get(super::super::C) else {
                return;
            };
            c.lock.acquire(Self::ACTOR);
            let from = c.data(|d| {
                let from = d.state;
                if from == State::Open || from == State::Closing {
                    d.state = to;
                }
                from
            });
            c.lock.release(Self::ACTOR);
            self.cx
                .record(method, format_args!("dn1 c1: {from:?} → {to:?}"));
        }
    }

    impl crate::model::Program<World> for CloseInSections {
        fn actor(&self) -> &'static str {
            Self::ACTOR
        }

        fn is_done(&self) -> bool {
            self.step == 3
        }

        fn enabled(&self, w: &World) -> bool {
            let dn = w.dn(super::super::LEADER);
            let free = dn
                .set
                .get(super::super::C)
                .is_none_or(|c| !c.lock.is_held());
            !self.is_done() && free && (self.step != 1 || !dn.task_queue.is_held())
        }

        fn step(&mut self, w: &World) {
            let dn = w.dn(super::super::LEADER);
            match self.step {
                0 => self.section(w, State::Closing, "CloseContainerCommandHandler.handle"),
                1 => {
                    dn.task_queue.acquire(Self::ACTOR);
                    self.section(w, State::Closing, "KeyValueHandler.markContainerForClose");
                }
                _ => {
                    self.section(w, State::Closed, "KeyValueHandler.closeContainer");
                    dn.task_queue.release(Self::ACTOR);
                    let seq = dn
                        .set
                        .get(super::super::C)
                        .map_or(0, |c| c.data(|d| d.bcsid));
                    w.scm_state().close(super::super::C, seq);
                    w.om().closed.insert(super::super::C);
                }
            }
            self.step += 1;
        }
    }

    static CLOSE_IN_SECTIONS: Scenario<ContainerRecreate> = Scenario {
        name: "write-races-close-in-sections-and-force-delete",
        about: "the race, with SCM's close as upstream splits it (CR-3)",
        build: |trace, fix| {
            use super::super::C;
            use super::super::{late_writer, open_container, setup, LEADER};
            use crate::model::Then;
            let w = open_container(trace, fix);
            setup(
                w,
                vec![
                    Box::new(late_writer(trace)),
                    Box::new(Then {
                        actor: "close in sections, then force delete",
                        first: CloseInSections {
                            cx: trace.actor(CloseInSections::ACTOR),
                            step: 0,
                        },
                        second: super::super::delete::DeleteContainerCommandHandler::new(
                            trace, LEADER, C, true,
                        ),
                    }),
                ],
            )
        },
    };

    /// CR-3 cannot change a verdict of the race: with the close split as upstream splits it,
    /// every order of whole steps gives the rows that close outcomes, and their twins, the
    /// verdict on O1, O5 and O7 of their loom cells on the one-step close. The splits only add
    /// states in which the replica is CLOSING: the leader's validate refuses a write there
    /// (nothing appended, no outcome), and a write already appended passes
    /// `checkContainerOpen` as on an OPEN replica. Both verdicts occur, so the comparison can
    /// fail either way.
    #[test]
    #[cfg_attr(
        feature = "one-thread",
        ignore = "about the model's paths, not its primitives"
    )]
    fn cr3_the_close_in_sections_gives_the_one_step_verdicts() {
        let mut seen = std::collections::BTreeSet::new();
        for variant in ["upstream", "P1+P2", "P1+P2+P7+P8", "improved"] {
            // The rows' loom cells (P1+P2+P7+P8 has one for O5 only), in one enumeration.
            let cells: Vec<_> = [&O1, &O5, &O7]
                .into_iter()
                .filter_map(|o| loom_cell(variant, o).map(|expected| (o, expected)))
                .collect();
            let outcomes: Vec<_> = cells.iter().map(|&(o, _)| o).collect();
            let splits = crate::steps::enumerate_each(
                &CLOSE_IN_SECTIONS,
                fix(variant),
                &outcomes,
                crate::steps::every_choice,
            );
            for ((o, one_step), split) in cells.into_iter().zip(splits) {
                assert_eq!(
                    split.observed, one_step,
                    "{variant} {}: {:?}",
                    o.id, split.counterexample
                );
                seen.insert(split.observed == R);
            }
        }
        assert_eq!(seen.len(), 2, "every cell gives the same verdict");
    }

    /// The loom cell of `variant` on `o` in the race, if the matrix has one.
    fn loom_cell(variant: &str, o: &Outcome<World>) -> Option<crate::claims::Verdict> {
        CLAIMS
            .cells
            .iter()
            .find(|c| {
                c.variant == variant
                    && c.outcome.id == o.id
                    && matches!(c.method, Method::Loom { scenario, .. } if scenario.name == RACE.name)
            })
            .map(|c| c.expected)
    }

    static INTERMEDIATE_PUT_BLOCK: Scenario<ContainerRecreate> = Scenario {
        name: "intermediate-put-block-races-close-and-force-delete",
        about: "the race, with the client's PutBlock an intermediate one (eof=false, CR-6)",
        build: |trace, fix| {
            use super::super::{close_then_force_delete, late_writer, open_container};
            use super::super::{setup, C, LEADER, LEADER_ONLY};
            let w = open_container(trace, fix);
            setup(
                w,
                vec![
                    Box::new(late_writer(trace).intermediate()),
                    Box::new(close_then_force_delete(trace, LEADER_ONLY, C, LEADER)),
                ],
            )
        },
    };

    /// CR-6: an intermediate PutBlock (`eof` false) does not check the chunk file, so it
    /// succeeds on an empty recreated replica. Clients send both kinds, so it can only add
    /// schedules: in every order of whole steps it opens none of the race's unreachable cells
    /// of the rows that close outcomes; upstream reaches O1 with it (the twin).
    #[test]
    #[cfg_attr(
        feature = "one-thread",
        ignore = "about the model's paths, not its primitives"
    )]
    fn cr6_an_intermediate_put_block_opens_no_closed_cell() {
        for variant in ["P1+P2", "P1+P2+P7+P8", "improved"] {
            for o in [&O1, &O5, &O7] {
                if loom_cell(variant, o) != Some(U) {
                    continue;
                }
                let e = crate::steps::enumerate(
                    &INTERMEDIATE_PUT_BLOCK,
                    fix(variant),
                    o,
                    crate::steps::every_choice,
                );
                assert_eq!(e.observed, U, "{variant} {}: {:?}", o.id, e.counterexample);
            }
        }
        let upstream = crate::steps::enumerate(
            &INTERMEDIATE_PUT_BLOCK,
            fix("upstream"),
            &O1,
            crate::steps::every_choice,
        );
        assert_eq!(upstream.observed, R);
    }

    static WRITE_AFTER_DELETE: Scenario<ContainerRecreate> = Scenario {
        name: "write-after-close-and-force-delete",
        about:
            "the repro test's order: the close, the force delete to its end (the directory moved), \
                then the client's write",
        build: |trace, fix| {
            use super::super::{close_then_force_delete, late_writer, open_container};
            use super::super::{setup, C, LEADER, LEADER_ONLY};
            use crate::model::Then;
            let w = open_container(trace, fix);
            setup(
                w,
                vec![Box::new(Then {
                    actor: "close, force delete, then the write",
                    first: close_then_force_delete(trace, LEADER_ONLY, C, LEADER),
                    second: late_writer(trace),
                })],
            )
        },
    };

    /// CR-9: an auto-create between the delete's `containerMap.remove` and its directory move
    /// fails CONTAINER_ALREADY_EXISTS (not ignored by `handleCommandResult`): it can only add
    /// O5 and take away the O7 witnesses inside that window. It cannot change a verdict:
    /// every row whose race reaches O7 also reaches it with the create after the move (the
    /// repro test's order, where the window is closed), except P6, whose leader refuses a
    /// write validated after the delete (its O7 rests on a write validated before); and the
    /// rows that close O5 never auto-create in any order, so never enter the window.
    #[test]
    #[cfg_attr(
        feature = "one-thread",
        ignore = "about the model's paths, not its primitives"
    )]
    fn cr9_the_already_exists_window_changes_no_verdict() {
        use crate::model::Model;
        let mut outside = Vec::new();
        for v in ContainerRecreate::VARIANTS {
            let Some(race) = loom_cell(v.name, &O7) else {
                continue;
            };
            let after = crate::steps::enumerate(
                &WRITE_AFTER_DELETE,
                ContainerRecreate::fix_of_variant(v),
                &O7,
                crate::steps::every_choice,
            );
            if after.observed != race {
                outside.push(v.name);
            }
        }
        assert_eq!(outside, ["P6"], "rows whose O7 needs the window");
        for variant in ["P1+P2+P7+P8", "improved"] {
            assert_eq!(loom_cell(variant, &O5).expect("an O5 cell"), U);
            let e = crate::steps::enumerate(RACE, fix(variant), &O7, crate::steps::every_choice);
            assert_eq!(e.observed, U, "{variant}: {:?}", e.counterexample);
        }
    }

    const P8_ARM_METHOD: &str = "KeyValueHandler.handlePutBlock";

    /// The event of P8's second arm: a PutBlock whose chunk file is missing (UNABLE_TO_FIND_CHUNK)
    /// on a replica that is no longer OPEN when the handler reads it again. Only P8's catch
    /// records a PutBlock's failed write so (`Dispatch::write_step`).
    fn p8_missing_chunk_arm(events: &[crate::trace::Event]) -> Option<String> {
        events
            .iter()
            .find(|e| {
                e.method == P8_ARM_METHOD
                    && e.detail.contains("the write failed, the replica is now")
            })
            .map(|e| format!("{}: {}", e.method, e.detail))
    }

    /// P8's UNABLE_TO_FIND_CHUNK arm is defensive in the model (DESIGN-NOTES §9): in every
    /// order of whole steps of the container-recreate scenarios (the loom scenarios, the path
    /// cells' included, and CR-3's, CR-6's and CR-9's), no row with P8 takes it (the histories'
    /// half is in histories.rs). The follower's race is left out: 2.7 million orders (65 s),
    /// and its members meet the close and the delete as the race's leader does. The detector
    /// can fail: a PutBlock applied to a CLOSING replica that lacks its chunk file takes the arm
    /// (CONTAINER_NOT_OPEN, the replica left CLOSING), where upstream marks the replica
    /// UNHEALTHY and answers UNABLE_TO_FIND_CHUNK, which fails the pipeline.
    #[test]
    #[cfg_attr(
        feature = "one-thread",
        ignore = "about the model's paths, not its primitives"
    )]
    fn p8s_missing_chunk_arm_fires_in_no_scenario() {
        use super::super::datanode::{ContainerData, KeyValueContainer, Origin, State};
        use super::super::dispatcher::{Cmd, Dispatch, Reply, Request, Stage};
        for (p8, reply, state) in [
            (
                WriteFailure::Recheck,
                Reply::Result(Res::ContainerNotOpen),
                State::Closing,
            ),
            (
                WriteFailure::Upstream,
                Reply::Result(Res::UnableToFindChunk),
                State::Unhealthy,
            ),
        ] {
            let trace = crate::trace::Trace::new();
            let cx = crate::trace::CxRef::new(&trace, "test");
            let w = World::new(Fix {
                recheck_failed_write: Switch::new(p8),
                ..fix("improved")
            });
            let dn = w.dn(1);
            let data = ContainerData {
                state: State::Closing,
                ..ContainerData::open()
            };
            let c = KeyValueContainer::new(1, data, Origin::Pipeline);
            dn.set.add(c.clone(), true).expect("added");
            let put_block = Request {
                container: 1,
                cmd: Cmd::PutBlock {
                    block: 2,
                    eof: true,
                },
                index: 3,
            };
            // recorded as the schedules below are: the arm's events alone
            let got = crate::trace::recording_only(P8_ARM_METHOD, || {
                Dispatch::new(put_block, Stage::Apply).run(&w, dn, cx)
            });
            assert_eq!((got, c.state()), (reply, state), "{p8:?}");
            let fired = p8_missing_chunk_arm(&trace.events());
            assert_eq!(
                fired.is_some(),
                p8 == WriteFailure::Recheck,
                "{p8:?}: {fired:?}"
            );
        }
        // The rows whose race closes O5, where a firing could be a path of its own: every
        // scenario. The other rows with P8: all but CR-3's and CR-6's variants of the race (a
        // third of the time each).
        let closing = ["improved", "P1+P2+P7+P8"];
        let every: [&Scenario<ContainerRecreate>; 10] = [
            RACE,
            REPORT,
            SCM,
            RESTART,
            RESTART_WRITTEN,
            PUT_BLOCK,
            STREAMED,
            &WRITE_AFTER_DELETE,
            &CLOSE_IN_SECTIONS,
            &INTERMEDIATE_PUT_BLOCK,
        ];
        let mut rows = 0;
        for v in <ContainerRecreate as Model>::VARIANTS {
            let fix = ContainerRecreate::fix_of_variant(v);
            if fix.recheck_failed_write.get() != WriteFailure::Recheck {
                continue;
            }
            rows += 1;
            let scenarios = if closing.contains(&v.name) {
                &every[..]
            } else {
                &every[..8]
            };
            for s in scenarios {
                // every order, recording only the arm's method (formatting every event was
                // half of this test's time)
                let schedules = crate::trace::recording_only(P8_ARM_METHOD, || {
                    crate::steps::each_schedule(s, fix, |d| {
                        if let Some(e) = p8_missing_chunk_arm(&d.timeline(None).events) {
                            panic!(
                                "{} on {}: P8's missing-chunk arm fires: {e}",
                                v.name, s.name
                            );
                        }
                    })
                });
                assert!(schedules > 0, "{}", s.name);
            }
        }
        assert_eq!(rows, 7, "the rows with P8");
    }

    /// CR-5 (`markContainerUnhealthy` looks the ID up again under the write lock: it can block
    /// on the delete, fail, or mark the recreated replica) cannot change a verdict of the rows
    /// that close O5: in every order of whole steps of the race, no write of improved or of
    /// P1+P2+P7+P8 gets a result that reaches the marking (or throws); upstream does (the
    /// twin: the predicate finds it).
    #[test]
    #[cfg_attr(
        feature = "one-thread",
        ignore = "about the model's paths, not its primitives"
    )]
    fn cr5_no_write_of_the_closing_rows_reaches_the_marking() {
        for (variant, reaches) in [
            ("improved", false),
            ("P1+P2+P7+P8", false),
            ("upstream", true),
        ] {
            let e = crate::steps::enumerate(RACE, fix(variant), &MARKS, crate::steps::every_choice);
            assert_eq!(
                e.observed == R,
                reaches,
                "{variant}: {:?}",
                e.counterexample
            );
        }
    }
}
