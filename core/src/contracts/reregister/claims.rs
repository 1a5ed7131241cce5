//! The expected claims matrix of HDFS-17969, as data. Every cell is checked by a test; the
//! loom cells' `executions` are pinned (a change means the model changed: review, re-pin).
//!
//! The report has no patch and no claim about fixes: every verdict about P1–P3 is ours, and
//! each was a hypothesis before loom checked it (DESIGN-NOTES.md).

use super::reproductions::{delay_distribution, report_sequence};
use super::scenarios::{
    DOUBLE_REGISTER_ACTIVE, DOUBLE_REGISTER_STANDBY, FAILED_IBR_VS_CLEAR, SINGLE_REGISTER_STANDBY,
};
use super::scheduler::HEARTBEAT_INTERVAL;
use super::{Fix, Reregister, O1, O2, O3, O4, O5, O6, P1, P2, QUIESCENCE_HORIZON};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::Scenario;
use crate::switches::Switch;

const DOUBLE: &Scenario<Reregister> = &DOUBLE_REGISTER_STANDBY;
const ACTIVE: &Scenario<Reregister> = &DOUBLE_REGISTER_ACTIVE;
const SINGLE: &Scenario<Reregister> = &SINGLE_REGISTER_STANDBY;
const FAILED_IBR: &Scenario<Reregister> = &FAILED_IBR_VS_CLEAR;

/// Every loom cell is explored unbounded: the scenarios start at the report's step 8, with
/// the lease check and the IBR drain done on main, so that only the racing steps run
/// concurrently (an earlier version that started them in the window explored 1 664 014
/// executions for `proposed`'s O3, with the same verdicts).
const fn double(executions: u64) -> Method<Reregister> {
    Method::loom(DOUBLE, executions)
}

const fn active(executions: u64) -> Method<Reregister> {
    Method::loom(ACTIVE, executions)
}

const fn single(executions: u64) -> Method<Reregister> {
    Method::loom(SINGLE, executions)
}

pub const CLAIMS: Claims<Reregister> = Claims {
    cells: &[
        // O3, the missing block, in the report's sequence (STANDBY): every subset.
        Claim { variant: "upstream", outcome: &O3, expected: R, method: double(621),
            note: "report: X, finalized after the in-flight FBR's snapshot, is cleared by REG2 and \
                   REG2's FBR is overwritten; the NameNode does not know X until the periodic FBR" },
        Claim { variant: "P1", outcome: &O3, expected: U, method: double(14764),
            note: "P1 alone closes O3: REG2's request survives, and the FBR it asks for snapshots X" },
        Claim { variant: "P2", outcome: &O3, expected: U, method: double(16184),
            note: "P2 alone closes O3: X stays queued and goes out as an IBR after the FBR (O2 remains)" },
        Claim { variant: "P3", outcome: &O3, expected: U, method: double(28),
            note: "P3 drops REG2 (sent under the registration REG1 replaced): nothing is cleared here; \
                   see O6 for the race P3 leaves" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: double(4944),
            note: "the smallest set that closes every outcome in every scenario" },
        Claim { variant: "P1+P3", outcome: &O3, expected: U, method: double(28), note: "closed, as with P1" },
        Claim { variant: "P2+P3", outcome: &O3, expected: U, method: double(28), note: "closed, as with P2" },
        Claim { variant: "P1+P2+P3", outcome: &O3, expected: U, method: double(28),
            note: "closed; P3 adds nothing to correctness (it saves the duplicate registration's work)" },
        // O1, the cleared IBR.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: double(621),
            note: "report: clearIBRs drops X and no later FBR carries it" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: double(14764),
            note: "X is still cleared, but the FBR P1 keeps due snapshots it after the drop" },
        Claim { variant: "P2", outcome: &O1, expected: U, method: double(16184), note: "nothing is cleared" },
        Claim { variant: "P3", outcome: &O1, expected: U, method: double(28), note: "no REG2, no clear" },
        Claim { variant: "P1+P3", outcome: &O1, expected: U, method: double(28), note: "closed" },
        Claim { variant: "P2+P3", outcome: &O1, expected: U, method: double(28), note: "closed" },
        Claim { variant: "P1+P2+P3", outcome: &O1, expected: U, method: double(28), note: "closed" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: double(4944), note: "closed" },
        // O4, the data race on pendingIBRs.
        Claim { variant: "upstream", outcome: &O4, expected: R, method: double(1),
            note: "report: clearIBRs clears the HashMap without the monitor; loom reports REG2's clear \
                   and the writer's notifyNamenodeBlock (under the monitor) as concurrent writes" },
        Claim { variant: "P1", outcome: &O4, expected: R, method: double(1),
            note: "P1 does not touch the clear: the race remains" },
        Claim { variant: "P2", outcome: &O4, expected: U, method: double(16184), note: "no clear, no race" },
        Claim { variant: "P3", outcome: &O4, expected: U, method: double(28),
            note: "REG1's clear ran before the actors started; REG2 is dropped" },
        Claim { variant: "P1+P3", outcome: &O4, expected: U, method: double(28), note: "REG2 dropped: no clear" },
        Claim { variant: "P2+P3", outcome: &O4, expected: U, method: double(28), note: "no clear" },
        Claim { variant: "P1+P2+P3", outcome: &O4, expected: U, method: double(28), note: "no clear" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: double(4944), note: "closed" },
        // O2, the lost FBR request, with the NameNode ACTIVE at REG2 (nothing is cleared).
        Claim { variant: "upstream", outcome: &O2, expected: R, method: active(117),
            note: "report: REG2's FBR request is overwritten by the in-flight FBR's \
                   scheduleNextBlockReport; with ACTIVE, X is not cleared (O1, O3 unreachable in \
                   every variant, so not claimed) but the registration's FBR is lost" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: active(4944),
            note: "the epoch read before the drain tells the in-flight FBR from REG2's" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: active(117),
            note: "P2 does not touch the scheduler" },
        Claim { variant: "P3", outcome: &O2, expected: U, method: active(28), note: "no REG2" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: active(4944), note: "closed by P1" },
        Claim { variant: "P1+P3", outcome: &O2, expected: U, method: active(28), note: "closed" },
        Claim { variant: "P2+P3", outcome: &O2, expected: U, method: active(28), note: "closed by P3 here" },
        Claim { variant: "P1+P2+P3", outcome: &O2, expected: U, method: active(28), note: "closed" },
        // O6, the single-registration race (the dead-node path).
        Claim { variant: "upstream", outcome: &O6, expected: R, method: single(1285),
            note: "code, not the report: a dead node the NameNode kept gets REGISTER and a lease in \
                   one answer; the FBR races the one registration" },
        Claim { variant: "P1", outcome: &O6, expected: U, method: single(5502),
            note: "the registration's request survives the FBR that started before it" },
        Claim { variant: "P2", outcome: &O6, expected: U, method: single(4158), note: "X stays queued" },
        Claim { variant: "P3", outcome: &O6, expected: R, method: single(1285),
            note: "P3 alone is not a fix: the REGISTER is not stale, and the loss is the report's" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: single(1778), note: "closed" },
        Claim { variant: "P1+P3", outcome: &O6, expected: U, method: single(5502), note: "closed by P1" },
        Claim { variant: "P2+P3", outcome: &O6, expected: U, method: single(4158), note: "closed by P2" },
        Claim { variant: "P1+P2+P3", outcome: &O6, expected: U, method: single(1778), note: "closed" },
        // O5, putMissing after a concurrent clear.
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 2),
            note: "code, not the report: the IBR RPC times out, clearIBRs removes the storage entry, \
                   putMissing dereferences it (NPE): X is not re-queued" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 2),
            note: "P1 does not touch the IBR manager" },
        Claim { variant: "P2", outcome: &O5, expected: U, method: Method::loom(FAILED_IBR, 1),
            note: "no clear; the P2-sync-only mutant (a synchronized clear) still reaches it" },
        Claim { variant: "P3", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 2),
            note: "this REGISTER is not stale" },
        Claim { variant: "P1+P3", outcome: &O5, expected: R, method: Method::loom(FAILED_IBR, 2),
            note: "neither part touches the clear" },
        Claim { variant: "P2+P3", outcome: &O5, expected: U, method: Method::loom(FAILED_IBR, 1),
            note: "closed by P2" },
        Claim { variant: "P1+P2+P3", outcome: &O5, expected: U, method: Method::loom(FAILED_IBR, 1),
            note: "closed by P2" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: Method::loom(FAILED_IBR, 1),
            note: "closed by P2" },
        // Long histories: three holders, two NameNodes.
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no generated history loses a block with the fix (restarts, failovers, gaps)" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::Quickcheck { tests: 2000 },
            note: "no random byte history loses a block with the fix" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::FuzzReplay,
            note: "the corpus's report sequence loses block 0 on nn1; the generator does not find it" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::FuzzReplay,
            note: "no corpus input or regression loses a block with the fix" },
    ],
    reproductions: &[
        Reproduction {
            what: "upstream: the report's ten steps on every DataNode against nn1 \
                   (scenarios/reregister-report-sequence.scn), nn1 active, two heartbeats later",
            expected: "block 0 has no location on nn1 (missing: nn1 is active)",
            observe: || report_sequence(Fix::UPSTREAM, QUIESCENCE_HORIZON),
        },
        Reproduction {
            what: "proposed: the same sequence, one heartbeat after step 10",
            expected: "block 0 located on nn1 at dn0, dn1, dn2",
            observe: || report_sequence(Fix::PROPOSED, HEARTBEAT_INTERVAL),
        },
        Reproduction {
            what: "upstream: delay from step 10 until the NameNode learns the block, from \
                   scheduleNextBlockReport with dfs.blockreport.intervalMsec = 6 h, seeds 0..10000",
            expected: "mean 3.0 h, max below 6 h",
            observe: || delay_distribution(10_000),
        },
    ],
    mutants: &[
        Mutant {
            name: "P1-late-epoch",
            variant: "proposed",
            fix: Fix { p1: Switch::new(P1::LateEpoch), ..Fix::PROPOSED },
            caught_by: &O2,
            inside_a_step: false,
            about: "the epoch check compares with the registration current when the FBR returns, \
                    not the one before its drain: REG2's request is overwritten again",
        },
        Mutant {
            name: "P1-unlocked",
            variant: "P1",
            fix: Fix { p1: Switch::new(P1::Unlocked), ..Fix::UPSTREAM },
            caught_by: &O3,
            inside_a_step: true,
            about: "the rescheduling checks the epoch without the request lock: REG2 lands between \
                    the check and the write",
        },
        Mutant {
            name: "P2-sync-only",
            variant: "P2",
            fix: Fix { p2: Switch::new(P2::SyncOnly), ..Fix::UPSTREAM },
            caught_by: &O3,
            inside_a_step: false,
            about: "clearIBRs made synchronized but still clearing: the race goes, the loss stays",
        },
    ],
};
