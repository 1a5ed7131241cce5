//! The expected claims matrix of HDDS-17643, as data. Every cell is checked by a test; the loom
//! cells' `executions` are pinned (a change means the model changed: review, re-pin).
//!
//! Loom decides the datanode race (the close and the force delete on the leader against the
//! client's WriteChunk and PutBlock); the histories decide what SCM does with a recreated
//! replica (O2, O3, O4, O6) and the restart path (P3's claim).

use super::reproductions::{over_replication_deletes, production_timeline, repro_test, with_fix};
use super::{
    ContainerRecreate, Fix, Tombstone, O1, O2, O3, O4, O5, O6, O7, WRITE_RACES_CLOSE_AND_DELETE,
};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};
use crate::switches::Switch;

const RACE: &Scenario<ContainerRecreate> = &WRITE_RACES_CLOSE_AND_DELETE;

fn fix(variant: &str) -> Fix {
    ContainerRecreate::fix_of(variant).expect("a variant")
}

pub const CLAIMS: Claims<ContainerRecreate> = Claims {
    cells: &[
        // O1: recreated, and the write succeeds.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(RACE, 34517),
            note: "report: validateContainerCommand accepts a write to an absent container, WRITE_DATA auto-creates \
                   it OPEN at BCSID 0, the followers' CLOSED_CONTAINER_IO is ignored; the PutBlock commits block 2 \
                   at a BCSID above the closed replicas" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::loom(RACE, 167735),
            note: "report: P1 refuses the auto-create of an ID in container2BCSIDMap, in WRITE_DATA and in the \
                   PutBlock's apply" },
        Claim { variant: "P1+P2", outcome: &O1, expected: U, method: Method::loom(RACE, 167735),
            note: "report: closed" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom(RACE, 167735),
            note: "report: closed by P1 (proposed = P1 with the SCM defence P4, P5)" },
        Claim { variant: "tombstone", outcome: &O1, expected: U, method: Method::loom(RACE, 167735),
            note: "the report's alternative: the tombstone, written before containerMap.remove, is seen by every \
                   write that finds the container absent (the mutant with upstream's order is caught)" },
        Claim { variant: "P6", outcome: &O1, expected: R, method: Method::loom(RACE, 32798),
            note: "the issue's candidate alone (reject in startTransaction when absent but in the map) leaves O1: \
                   a WriteChunk validated while the container was OPEN reaches WRITE_DATA after the close and the \
                   delete and auto-creates. The check must stay in dispatchRequest too" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::loom(RACE, 183713),
            note: "closed" },
        // O5: the pipeline fails.
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::loom(RACE, 10),
            note: "report: the block's WriteChunk was written to the replica before the close; the PutBlock, \
                   validated while OPEN, is applied after the close and the delete: it auto-creates an empty \
                   replica, finishWriteChunks finds no chunk file, UNABLE_TO_FIND_CHUNK marks the new replica \
                   UNHEALTHY and applyTransaction fails the pipeline. The same scenario also reaches it through \
                   a replica read DELETED (see P1+P2)" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::loom(RACE, 12),
            note: "report's fix alone: besides the DELETED replica, the leader's COMMIT_DATA finds no container \
                   and answers CONTAINER_NOT_FOUND, which applyTransaction does not ignore (reference §2.5)" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::loom(RACE, 12),
            note: "code: P2 answers CONTAINER_NOT_OPEN for an absent container, but a write in flight that got \
                   the replica object before the removal reads it DELETED (CONTAINER_INTERNAL_ERROR, then the \
                   Preconditions.checkState exception): P7 is needed" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: U, method: Method::loom(RACE, 183713),
            note: "P7 answers CONTAINER_NOT_OPEN for a DELETED replica and does not mark it: closed" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::loom(RACE, 183713),
            note: "closed" },
        // O7: a recreated replica exists at all.
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::loom(RACE, 10),
            note: "the datanode invariant of the report (a datanode never recreates a container it deleted)" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::loom(RACE, 167735),
            note: "P1 refuses every auto-create of a remembered ID (without a restart, see the histories)" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::loom(RACE, 183713),
            note: "closed" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::loom(RACE, 34757),
            note: "P2 alone refuses only at COMMIT_DATA, after WRITE_DATA has recreated the container" },
        Claim { variant: "tombstone", outcome: &O5, expected: R, method: Method::loom(RACE, 12),
            note: "the report's alternative as worded (reject at auto-create) leaves O5: loom's first \
                   counterexample is a write in flight reading the replica DELETED; P1's COMMIT_DATA gap \
                   (CONTAINER_NOT_FOUND) is there too (P3+P7 shows it alone)" },
        // The ablation of improved (P2+P3+P7): each part left out once reopens an outcome.
        Claim { variant: "P2+P7", outcome: &O1, expected: R, method: Method::loom(RACE, 36876),
            note: "without P3 nothing refuses the auto-create: P2 and P7 act only at COMMIT_DATA and on a DELETED \
                   replica" },
        Claim { variant: "P3+P7", outcome: &O5, expected: R, method: Method::loom(RACE, 10671),
            note: "without P2 the tombstone alternative has P1's gap: COMMIT_DATA of the refused WriteChunk \
                   answers CONTAINER_NOT_FOUND" },
        Claim { variant: "P2+P3", outcome: &O5, expected: R, method: Method::loom(RACE, 12),
            note: "without P7 a write in flight reads the replica DELETED and the pipeline fails" },
        Claim { variant: "P1+P2+P7", outcome: &O7, expected: R, method: Method::Proptest { cases: 4096 },
            note: "the map instead of the tombstone (P1 for P3) closes every loom outcome but not the restart: \
                   the smallest set that closes every outcome is improved's P2+P3+P7" },
        // Histories: SCM's handling of the recreated replica, and the restart.
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
        Claim { variant: "P4", outcome: &O4, expected: R, method: Method::Proptest { cases: 8192 },
            note: "P4 alone is not a defence: a CLOSED replica of any BCSID still counts, over-replication still \
                   deletes by hashCode, getSources still prefers the replica's own (higher) BCSID" },
        Claim { variant: "P5", outcome: &O4, expected: R, method: Method::Proptest { cases: 2048 },
            note: "P5 alone makes it worse: with the sequence id raised, the real replicas are the mismatched ones \
                   and are deleted first. Safe only with P4" },
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
            note: "report admits it (HDDS-17435): a restart rebuilds container2BCSIDMap from the last snapshot, \
                   which predates the container; a later write recreates it on that datanode (regression \
                   restart-forgets-the-deleted-container)" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 },
            note: "report: the proposed fix keeps the blocks from before the close" },
        Claim { variant: "proposed", outcome: &O7, expected: R, method: Method::Proptest { cases: 4096 },
            note: "report admits it: after a restart P1 no longer remembers the container" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: Method::Proptest { cases: 8192 },
            note: "our hypothesis was reachable (a leader restarted on an old snapshot recreates the container, \
                   acknowledges the write, P5 deletes it); the histories refute it: a leader that forgot the \
                   container replays its log entries after the snapshot and fails the pipeline there \
                   (CONTAINER_NOT_FOUND, or CONTAINER_MISSING when the snapshot had it), so no later write is \
                   acknowledged through it; a restarted follower recreates it (O7) but the leader refuses the \
                   write" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::Proptest { cases: 4096 },
            note: "report: the tombstone survives the restart" },
        Claim { variant: "improved", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no replica is ever recreated" },
        Claim { variant: "improved", outcome: &O6, expected: U, method: Method::Proptest { cases: 4096 },
            note: "no write to a deleted container is acknowledged" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Quickcheck { tests: 4000 },
            note: "random byte strings through the fuzz codec" },
        Claim { variant: "improved", outcome: &O3, expected: U, method: Method::Quickcheck { tests: 4000 },
            note: "random byte strings through the fuzz codec" },
        Claim { variant: "upstream", outcome: &O4, expected: R, method: Method::FuzzReplay,
            note: "the committed corpus and regressions" },
        Claim { variant: "improved", outcome: &O4, expected: U, method: Method::FuzzReplay,
            note: "the committed corpus and regressions" },
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
            observe: || with_fix(fix("improved")),
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
            observe: || over_replication_deletes(fix("P4+P5")),
        },
    ],
    mutants: &[
        Mutant {
            name: "tombstone after the map removal",
            variant: "improved",
            fix: Fix { tombstone: Switch::new(Tombstone::AfterRemove), ..IMPROVED },
            caught_by: &O1,
            inside_a_step: false,
            about: "the obvious edit of removeContainer (deleteFromContainerTable becomes a tombstone put) keeps \
                    upstream's order: a write that finds the container absent before the tombstone is written \
                    recreates it",
        },
        Mutant {
            name: "P1 as marking the deleted ID missing",
            variant: "P1+P2+P7",
            fix: Fix { refuse_auto_create_in_map: Switch::new(false), mark_deleted_missing: Switch::new(true), ..P1_P2_P7 },
            caught_by: &O5,
            inside_a_step: false,
            about: "the delete calls removeContainer(id, markMissing=true): auto-create is refused with \
                    CONTAINER_MISSING, which canIgnoreException passes but ContainerStateMachine does not: the \
                    pipeline fails",
        },
    ],
};

const IMPROVED: Fix = Fix {
    refuse_commit_of_remembered: Switch::new(true),
    tombstone: Switch::new(Tombstone::BeforeRemove),
    deleted_not_open: Switch::new(true),
    ..Fix::UPSTREAM
};

const P1_P2_P7: Fix = Fix {
    refuse_auto_create_in_map: Switch::new(true),
    refuse_commit_of_remembered: Switch::new(true),
    deleted_not_open: Switch::new(true),
    ..Fix::UPSTREAM
};
