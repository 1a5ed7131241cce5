//! The expected claims matrix of HDDS-17643, as data. Every cell is checked by a test; the loom
//! cells' `executions` are pinned (a change means the model changed: review, re-pin).

use super::reproductions::{leader_state_after_write_chunk, repro_test, with_fix};
use super::{ContainerRecreate, Fix, Tombstone, O1, O2, O3, O4, O5, O6, O7, WRITE_RACES_CLOSE_AND_DELETE};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};

const RACE: &Scenario<ContainerRecreate> = &WRITE_RACES_CLOSE_AND_DELETE;

fn fix(variant: &str) -> Fix {
    ContainerRecreate::fix_of(variant).expect("a variant")
}

pub const CLAIMS: Claims<ContainerRecreate> = Claims {
    cells: &[
        // O1: recreated, and the write succeeds.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(RACE, 0),
            note: "report: validateContainerCommand accepts a write to an absent container, WRITE_DATA auto-creates \
                   it OPEN at BCSID 0, the followers' CLOSED_CONTAINER_IO is ignored" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::loom(RACE, 0),
            note: "P1 refuses the auto-create" },
        Claim { variant: "P1+P2", outcome: &O1, expected: U, method: Method::loom(RACE, 0),
            note: "report: P1 (with P2) closes O1" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom(RACE, 0),
            note: "report: closed by P1" },
        Claim { variant: "tombstone", outcome: &O1, expected: U, method: Method::loom(RACE, 0),
            note: "the tombstone, written before the map removal, is seen by every write that finds the container absent" },
        Claim { variant: "P6", outcome: &O1, expected: R, method: Method::loom(RACE, 0),
            note: "the issue's candidate alone: a WriteChunk validated while the container was OPEN reaches \
                   WRITE_DATA after the close and the delete, and auto-creates" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::loom(RACE, 0),
            note: "closed" },
        // O5: the pipeline fails.
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::loom(RACE, 0),
            note: "upstream fails the pipeline too" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::loom(RACE, 0),
            note: "code, not the report: with P1 alone the leader's COMMIT_DATA finds no container and answers \
                   CONTAINER_NOT_FOUND, which applyTransaction does not ignore" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::loom(RACE, 0),
            note: "hypothesis: a write in flight sees the replica DELETED" },
        Claim { variant: "P1+P2+P7", outcome: &O5, expected: U, method: Method::loom(RACE, 0),
            note: "P7 closes the DELETED-replica window" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::loom(RACE, 0),
            note: "closed" },
        // O7: a recreated replica exists.
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::loom(RACE, 0),
            note: "the datanode invariant" },
        Claim { variant: "P1+P2", outcome: &O7, expected: U, method: Method::loom(RACE, 0),
            note: "P1 refuses every auto-create of a remembered ID" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::loom(RACE, 0),
            note: "closed" },
        // Histories: SCM's handling of the recreated replica.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Proptest { cases: 512 }, note: "h" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::Proptest { cases: 512 }, note: "h" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Proptest { cases: 512 }, note: "h" },
        Claim { variant: "upstream", outcome: &O4, expected: R, method: Method::Proptest { cases: 30000 }, note: "h" },
        Claim { variant: "upstream", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "P4", outcome: &O4, expected: R, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "P5", outcome: &O4, expected: R, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "P4+P5", outcome: &O2, expected: U, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "P4+P5", outcome: &O3, expected: U, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "P4+P5", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 }, note: "h" },
        Claim { variant: "P4+P5", outcome: &O6, expected: R, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "P1+P2", outcome: &O7, expected: R, method: Method::Proptest { cases: 2048 }, note: "h" },
        Claim { variant: "tombstone", outcome: &O7, expected: U, method: Method::Proptest { cases: 4096 }, note: "h" },
        Claim { variant: "improved", outcome: &O4, expected: U, method: Method::Proptest { cases: 4096 }, note: "h" },
        Claim { variant: "upstream", outcome: &O4, expected: R, method: Method::Quickcheck { tests: 4000 }, note: "h" },
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
            what: "production timeline 00:06 (upstream): the leader after the WriteChunk",
            expected: "dn1: C is OPEN, BCSID 0",
            observe: || leader_state_after_write_chunk(Fix::UPSTREAM),
        },
    ],
    mutants: &[
        Mutant {
            name: "tombstone after the map removal",
            variant: "improved",
            fix: Fix { tombstone: Tombstone::AfterRemove, ..IMPROVED },
            caught_by: &O1,
            about: "the obvious edit of removeContainer (deleteFromContainerTable becomes a tombstone put) keeps \
                    upstream's order: a write that finds the container absent before the tombstone is written \
                    recreates it",
        },
    ],
};

const IMPROVED: Fix = Fix {
    refuse_commit_of_remembered: true,
    tombstone: Tombstone::BeforeRemove,
    deleted_not_open: true,
    ..Fix::UPSTREAM
};
