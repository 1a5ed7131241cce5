//! The expected claims matrix of HDFS-17969, as data. Every cell is checked by a test; the
//! loom cells' `executions` are pinned (a change means the model changed: review, re-pin).

use super::scenarios::{
    DOUBLE_REGISTER_ACTIVE, DOUBLE_REGISTER_STANDBY, FAILED_IBR_VS_CLEAR, SINGLE_REGISTER_STANDBY,
};
use super::{Fix, Reregister, O1, O2, O3, O4, O5, O6, P1, P2};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant};
use crate::model::Scenario;

const DOUBLE: &Scenario<Reregister> = &DOUBLE_REGISTER_STANDBY;
const ACTIVE: &Scenario<Reregister> = &DOUBLE_REGISTER_ACTIVE;
const SINGLE: &Scenario<Reregister> = &SINGLE_REGISTER_STANDBY;
const FAILED_IBR: &Scenario<Reregister> = &FAILED_IBR_VS_CLEAR;

/// The double-registration scenarios need a bound: unbounded, `proposed`'s O3 cell explores
/// 1 664 014 executions (no violation; run once, not in the gate). Every twin is at this bound.
const B: usize = 4;

pub const CLAIMS: Claims<Reregister> = Claims {
    cells: &[
        // O3, every subset.
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P1", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P2", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P3", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P1+P3", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P2+P3", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P1+P2+P3", outcome: &O3, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        // O1
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P2", outcome: &O1, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P3", outcome: &O1, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        // O4
        Claim { variant: "upstream", outcome: &O4, expected: R, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P1", outcome: &O4, expected: R, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P2", outcome: &O4, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "P3", outcome: &O4, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::loom_bounded(DOUBLE, B, 0), note: "" },
        // O2 (ACTIVE)
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "P3", outcome: &O2, expected: U, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "P1+P3", outcome: &O2, expected: U, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "P2+P3", outcome: &O2, expected: U, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        Claim { variant: "P1+P2+P3", outcome: &O2, expected: U, method: Method::loom_bounded(ACTIVE, B, 0), note: "" },
        // O6 single registration
        Claim { variant: "upstream", outcome: &O6, expected: R, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "P1", outcome: &O6, expected: U, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "P2", outcome: &O6, expected: U, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "P3", outcome: &O6, expected: R, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "P1+P3", outcome: &O6, expected: U, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "P2+P3", outcome: &O6, expected: U, method: Method::loom(SINGLE, 0), note: "" },
        Claim { variant: "P1+P2+P3", outcome: &O6, expected: U, method: Method::loom(SINGLE, 0), note: "" },
        // O5
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 0), note: "" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 0), note: "" },
        Claim { variant: "P2", outcome: &O5, expected: U, method: Method::loom(FAILED_IBR, 0), note: "" },
        Claim { variant: "P3", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 0), note: "" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: Method::loom(FAILED_IBR, 0), note: "" },
    ],
    reproductions: &[],
    mutants: &[
        Mutant {
            name: "P1-late-epoch",
            variant: "proposed",
            fix: Fix { p1: P1::LateEpoch, ..Fix::PROPOSED },
            caught_by: &O2,
            about: "the epoch compared at the end of the FBR is the current one",
        },
        Mutant {
            name: "P1-unlocked",
            variant: "P1",
            fix: Fix { p1: P1::Unlocked, ..Fix::UPSTREAM },
            caught_by: &O3,
            about: "the epoch checked without the request lock",
        },
        Mutant {
            name: "P2-sync-only",
            variant: "P2",
            fix: Fix { p2: P2::SyncOnly, ..Fix::UPSTREAM },
            caught_by: &O3,
            about: "clearIBRs synchronized but still clearing",
        },
    ],
};
