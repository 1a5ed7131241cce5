//! The expected claims matrix of HDFS-17969, as data. Every cell is checked by a test; the
//! loom cells' `executions` are pinned (a change means the model changed: review, re-pin).
//!
//! The report has no patch and no claim about fixes: every verdict about P1–P3 is ours, and
//! each was a hypothesis before loom checked it (DESIGN-NOTES.md).

use super::reproductions::{delay_distribution, report_sequence};
use super::scenarios::{
    DOUBLE_REGISTER_ACTIVE, DOUBLE_REGISTER_STANDBY, FAILED_IBR_VS_CLEAR, FBR_REGISTER_STANDBY,
    SINGLE_REGISTER_STANDBY, TWO_NAMENODES,
};
use super::scheduler::HEARTBEAT_INTERVAL;
use super::{
    Fix, Reregister, O1, O2, O3, O4, O5, O6, O7, O8, O9, P1, P2, P3, PROPOSED, QUIESCENCE_HORIZON,
    R1,
};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};
use crate::switches::Switch;

const DOUBLE: &Scenario<Reregister> = &DOUBLE_REGISTER_STANDBY;
const ACTIVE: &Scenario<Reregister> = &DOUBLE_REGISTER_ACTIVE;
const SINGLE: &Scenario<Reregister> = &SINGLE_REGISTER_STANDBY;
const FAILED_IBR: &Scenario<Reregister> = &FAILED_IBR_VS_CLEAR;
const FBR_REG: &Scenario<Reregister> = &FBR_REGISTER_STANDBY;
const TWO_NN: &Scenario<Reregister> = &TWO_NAMENODES;

/// Every loom cell is explored unbounded: the scenarios start at the report's step 8, with
/// the lease check and the IBR drain done on main, so that only the racing steps run
/// concurrently.
const fn double(executions: u64) -> Method<Reregister> {
    Method::loom(DOUBLE, executions)
}

const fn active(executions: u64) -> Method<Reregister> {
    Method::loom(ACTIVE, executions)
}

const fn single(executions: u64) -> Method<Reregister> {
    Method::loom(SINGLE, executions)
}

const fn failed(executions: u64) -> Method<Reregister> {
    Method::loom(FAILED_IBR, executions)
}

const fn fbr_reg(executions: u64) -> Method<Reregister> {
    Method::loom(FBR_REG, executions)
}

const fn two_nn(executions: u64) -> Method<Reregister> {
    Method::loom(TWO_NN, executions)
}

pub const CLAIMS: Claims<Reregister> = Claims {
    cells: &[
        Claim { variant: "upstream", outcome: &O3, expected: R, method: double(119),
            note: "the report's loss: X, finalized after the in-flight FBR's snapshot, is cleared by REG2 \
                   and REG2's FBR request is overwritten; the NameNode does not know X until the periodic \
                   FBR" },
        Claim { variant: "P1", outcome: &O3, expected: R, method: double(199),
            note: "P1 keeps REG2's FBR request, but the restarted NameNode is in startup safe mode: when \
                   the in-flight FBR reaches it after REG2's registerDatanode reset the report count, that \
                   FBR counts as the first and P1's FBR, the one that carries X, is discarded as non- \
                   initial (BlockManager.processReport); X was cleared, so nobody reports it" },
        Claim { variant: "P2", outcome: &O3, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 alone closes it: X stays queued and goes out as an IBR after the FBR (O2 remains)" },
        Claim { variant: "P3", outcome: &O3, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2 (sent under the registration REG1 replaced): nothing is cleared; see O6 \
                   for the race P3 leaves" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "closed: X stays queued (P2) whatever the NameNode does with the FBRs" },
        Claim { variant: "P1+P3", outcome: &O3, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P1+P3 at the report's sequence: P3 drops REG2, the REGISTER sent under the registration \
                   REG1 replaced, so nothing is cleared and X reaches the NameNode by IBR" },
        Claim { variant: "P2+P3", outcome: &O3, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2; had it run, P2 would have kept X queued" },
        Claim { variant: "P1+P2+P3", outcome: &O3, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "all three parts: REG2 dropped, so the cell shows the fix's parts do not interfere; P3 \
                   adds no correctness here" },
        Claim { variant: "notify-first", outcome: &O3, expected: R, method: double(119),
            note: "the writer-order mutant (queue the IBR, then finalize) loses X as upstream does: this \
                   row is R1's twin, and shows it changes nothing else" },
        Claim { variant: "trunk", outcome: &O3, expected: R, method: double(119),
            note: "trunk (HDFS-17953) still loses X: its clearIBRs is synchronized but still clears, and \
                   the FBR request is still overwritten" },
        Claim { variant: "trunk+P1", outcome: &O3, expected: R, method: double(199),
            note: "as P1 on the report's code: the startup-safe-mode discard of P1's FBR (HDFS-17953 does \
                   not touch it)" },
        Claim { variant: "trunk+P2", outcome: &O3, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 on trunk: reRegister does not clear, so X goes out as an IBR after REG2" },
        Claim { variant: "trunk+P3", outcome: &O3, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 on trunk drops REG2 as it does on the report's code: nothing is cleared" },
        Claim { variant: "trunk+P1+P2", outcome: &O3, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix on trunk (HDFS-17953 in) keeps X queued across REG2, whatever the \
                   NameNode does with the FBRs" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: double(119),
            note: "the report's cleared IBR: clearIBRs drops X and no later FBR snapshot carries it" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: double(914).final_states(0xced6_289c_ea1e_afed),
            note: "X is still cleared, but the FBR that P1 keeps due snapshots it after the drop (whether \
                   the NameNode keeps that report is O3)" },
        Claim { variant: "P2", outcome: &O1, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 removes reRegister's clearIBRs: no IBR is dropped" },
        Claim { variant: "P3", outcome: &O1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2, the only caller of clearIBRs here" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "P2 in the proposed fix: reRegister does not clear the pending IBRs" },
        Claim { variant: "P1+P3", outcome: &O1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2 before it clears" },
        Claim { variant: "P2+P3", outcome: &O1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "neither a REG2 nor a clear" },
        Claim { variant: "P1+P2+P3", outcome: &O1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "neither a REG2 nor a clear" },
        Claim { variant: "notify-first", outcome: &O1, expected: R, method: double(119),
            note: "the writer-order mutant drops X's IBR as upstream does (R1's twin row)" },
        Claim { variant: "trunk", outcome: &O1, expected: R, method: double(119),
            note: "trunk's synchronized clearIBRs drops X all the same: HDFS-17953 removed the race, not \
                   the loss" },
        Claim { variant: "trunk+P1", outcome: &O1, expected: U, method: double(914).final_states(0xced6_289c_ea1e_afed),
            note: "the FBR P1 keeps due snapshots X after the drop" },
        Claim { variant: "trunk+P2", outcome: &O1, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 on trunk: no clear, no dropped IBR" },
        Claim { variant: "trunk+P3", outcome: &O1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 on trunk drops REG2 before it clears" },
        Claim { variant: "trunk+P1+P2", outcome: &O1, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix on trunk: no clear" },
        Claim { variant: "upstream", outcome: &O4, expected: R, method: double(1),
            note: "the report's race: clearIBRs clears the HashMap without the monitor; loom reports REG2's \
                   clear and the writer's notifyNamenodeBlock (under the monitor) as concurrent accesses" },
        Claim { variant: "P1", outcome: &O4, expected: R, method: double(1),
            note: "P1 does not touch the clear: the race remains" },
        Claim { variant: "P2", outcome: &O4, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 removes the unsynchronized clear: the only unlocked access to pendingIBRs is gone" },
        Claim { variant: "P3", outcome: &O4, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2, so clearIBRs never runs against the writer" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "P2 in the proposed fix removes the clear, and with it the race" },
        Claim { variant: "P1+P3", outcome: &O4, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2: no clear races the writer" },
        Claim { variant: "P2+P3", outcome: &O4, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "no clear at all" },
        Claim { variant: "P1+P2+P3", outcome: &O4, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "no clear at all" },
        Claim { variant: "notify-first", outcome: &O4, expected: R, method: double(1),
            note: "the writer-order mutant keeps upstream's unsynchronized clear" },
        Claim { variant: "trunk", outcome: &O4, expected: U, method: double(3074).final_states(0x53c0_b2d1_807b_8c69),
            note: "HDFS-17953 made clearIBRs synchronized: the race is gone on trunk" },
        Claim { variant: "trunk+P1", outcome: &O4, expected: U, method: double(914).final_states(0xced6_289c_ea1e_afed),
            note: "trunk's clearIBRs is synchronized, so P1 on trunk has no race on pendingIBRs" },
        Claim { variant: "trunk+P2", outcome: &O4, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "no clear" },
        Claim { variant: "trunk+P3", outcome: &O4, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 on trunk drops REG2: no clear" },
        Claim { variant: "trunk+P1+P2", outcome: &O4, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix on trunk: no clear" },
        Claim { variant: "upstream", outcome: &R1, expected: U, method: double(3074).final_states(0x53c0_b2d1_807b_8c69),
            note: "the report's wider window (a block queued between the drain and the snapshot) loses \
                   nothing: the block was finalized before its notification, so the in-flight FBR's \
                   snapshot carries it" },
        Claim { variant: "P1", outcome: &R1, expected: U, method: double(914).final_states(0xced6_289c_ea1e_afed),
            note: "P1 changes the scheduler only: a block queued between the drain and the snapshot is \
                   still in the snapshot" },
        Claim { variant: "P2", outcome: &R1, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 keeps every queued block: the report's window loses nothing" },
        Claim { variant: "P3", outcome: &R1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops REG2, so nothing clears a block queued in the window" },
        Claim { variant: "proposed", outcome: &R1, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix: the report's window loses nothing, as on upstream" },
        Claim { variant: "notify-first", outcome: &R1, expected: R, method: double(1415),
            note: "the twin: a writer that queues the IBR before it finalizes the replica loses a block \
                   notified in that window (the snapshot misses it, REG2 clears it)" },
        Claim { variant: "trunk", outcome: &R1, expected: U, method: double(3074).final_states(0x53c0_b2d1_807b_8c69),
            note: "trunk's synchronized clear does not change the order finalize-then-notify: the window \
                   loses nothing there either" },
        Claim { variant: "trunk+P1", outcome: &R1, expected: U, method: double(914).final_states(0xced6_289c_ea1e_afed),
            note: "as trunk: the snapshot carries every block notified before it" },
        Claim { variant: "trunk+P2", outcome: &R1, expected: U, method: double(1025).final_states(0x4337_aa9c_199e_4d95),
            note: "as trunk, and nothing is cleared" },
        Claim { variant: "trunk+P3", outcome: &R1, expected: U, method: double(9).final_states(0xc007_7265_a7d5_7d73),
            note: "no REG2 on trunk with P3" },
        Claim { variant: "trunk+P1+P2", outcome: &R1, expected: U, method: double(288).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix on trunk: the window loses nothing" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: active(11),
            note: "the report's lost FBR request: REG2's request is overwritten by the in-flight FBR's \
                   scheduleNextBlockReport; with ACTIVE nothing is cleared (O1 and O3 unreachable in every \
                   variant: a unit test) but the registration's FBR is lost" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: active(288).final_states(0xf262_755b_e821_3d12),
            note: "the epoch read before the drain tells the in-flight FBR from REG2's" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: active(11),
            note: "P2 does not touch the scheduler" },
        Claim { variant: "P3", outcome: &O2, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 drops REG2 (stale), so no registration request exists to be overwritten" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: active(288).final_states(0xf262_755b_e821_3d12),
            note: "P1 in the proposed fix keeps REG2's FBR request past the in-flight FBR's rescheduling" },
        Claim { variant: "P1+P3", outcome: &O2, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 drops REG2; P1 would keep its request if it ran" },
        Claim { variant: "P2+P3", outcome: &O2, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 drops REG2, so the request P2 alone loses is never made" },
        Claim { variant: "P1+P2+P3", outcome: &O2, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 drops REG2; P1 would keep its request" },
        Claim { variant: "notify-first", outcome: &O2, expected: R, method: active(11),
            note: "the writer-order mutant loses the request as upstream does (R1's twin row)" },
        Claim { variant: "trunk", outcome: &O2, expected: R, method: active(11),
            note: "HDFS-17953 does not touch the scheduler: the lost request is still there on trunk" },
        Claim { variant: "trunk+P1", outcome: &O2, expected: U, method: active(288).final_states(0xf262_755b_e821_3d12),
            note: "P1 keeps the request on trunk as on the report's code" },
        Claim { variant: "trunk+P2", outcome: &O2, expected: R, method: active(11),
            note: "P2 does not touch the scheduler: the request is still overwritten on trunk" },
        Claim { variant: "trunk+P3", outcome: &O2, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 on trunk drops REG2" },
        Claim { variant: "trunk+P1+P2", outcome: &O2, expected: U, method: active(288).final_states(0xf262_755b_e821_3d12),
            note: "the proposed fix on trunk keeps REG2's request (P1)" },
        Claim { variant: "upstream", outcome: &O7, expected: R, method: active(1),
            note: "resetBlockReportTime is a plain boolean: REG2's scheduleBlockReport writes it and the \
                   in-flight FBR's scheduleNextBlockReport reads and clears it with no lock in common (a \
                   JMM data race; its stale reads lose the request all the same, O2)" },
        Claim { variant: "P1", outcome: &O7, expected: U, method: active(211).final_states(0xf262_755b_e821_3d12),
            note: "P1's request lock orders every access to the flag" },
        Claim { variant: "P2", outcome: &O7, expected: R, method: active(1),
            note: "P2 does not touch the scheduler" },
        Claim { variant: "P3", outcome: &O7, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 drops REG2: only the actor thread touches the flag" },
        Claim { variant: "proposed", outcome: &O7, expected: U, method: active(211).final_states(0xf262_755b_e821_3d12),
            note: "P1's request lock in the proposed fix orders register's write and the rescheduling's \
                   read and clear" },
        Claim { variant: "notify-first", outcome: &O7, expected: R, method: active(1),
            note: "the writer-order mutant keeps upstream's scheduler and its race" },
        Claim { variant: "trunk", outcome: &O7, expected: R, method: active(1),
            note: "HDFS-17953 does not touch the scheduler" },
        Claim { variant: "trunk+P1", outcome: &O7, expected: U, method: active(211).final_states(0xf262_755b_e821_3d12),
            note: "P1's request lock orders the flag's accesses on trunk too" },
        Claim { variant: "trunk+P2", outcome: &O7, expected: R, method: active(1),
            note: "P2 does not touch the scheduler: the race stays on trunk" },
        Claim { variant: "trunk+P3", outcome: &O7, expected: U, method: active(9).final_states(0xf262_755b_e821_3d12),
            note: "P3 on trunk drops REG2: one thread touches the flag" },
        Claim { variant: "trunk+P1+P2", outcome: &O7, expected: U, method: active(211).final_states(0xf262_755b_e821_3d12),
            note: "the proposed fix on trunk: P1's request lock" },
        Claim { variant: "upstream", outcome: &O6, expected: R, method: single(77),
            note: "the code, not the report: a dead node the NameNode kept gets REGISTER and a lease in one \
                   answer; the FBR races the one registration" },
        Claim { variant: "P1", outcome: &O6, expected: U, method: single(317).final_states(0x1f9b_06c8_8c54_f76c),
            note: "the registration's request survives the FBR that started before it (no restart here: no \
                   startup safe mode)" },
        Claim { variant: "P2", outcome: &O6, expected: U, method: single(219).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 keeps X queued across the single registration: it goes out as an IBR" },
        Claim { variant: "P3", outcome: &O6, expected: R, method: single(77),
            note: "P3 alone is not a fix: the REGISTER is not stale, and the loss is the report's" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: single(97).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix closes the single-registration loss (P1 and P2 each close it alone)" },
        Claim { variant: "P1+P3", outcome: &O6, expected: U, method: single(317).final_states(0x1f9b_06c8_8c54_f76c),
            note: "P1 keeps the registration's request (no restart, so no safe-mode discard); P3 does not \
                   apply, the REGISTER is fresh" },
        Claim { variant: "P2+P3", outcome: &O6, expected: U, method: single(219).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 keeps X queued; P3 does not apply" },
        Claim { variant: "P1+P2+P3", outcome: &O6, expected: U, method: single(97).final_states(0xc007_7265_a7d5_7d73),
            note: "all three parts: closed by P1 and by P2" },
        Claim { variant: "notify-first", outcome: &O6, expected: R, method: single(77),
            note: "the writer-order mutant loses X as upstream does" },
        Claim { variant: "trunk", outcome: &O6, expected: R, method: single(77),
            note: "trunk keeps the single-registration loss" },
        Claim { variant: "trunk+P1", outcome: &O6, expected: U, method: single(317).final_states(0x1f9b_06c8_8c54_f76c),
            note: "P1 on trunk keeps the registration's request" },
        Claim { variant: "trunk+P2", outcome: &O6, expected: U, method: single(219).final_states(0x4337_aa9c_199e_4d95),
            note: "P2 on trunk keeps X queued" },
        Claim { variant: "trunk+P3", outcome: &O6, expected: R, method: single(77),
            note: "P3 alone is not a fix on trunk either" },
        Claim { variant: "trunk+P1+P2", outcome: &O6, expected: U, method: single(97).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix on trunk closes it" },
        Claim { variant: "upstream", outcome: &O5, expected: R, method: failed(2),
            note: "the code, not the report: the IBR RPC times out, clearIBRs removes the storage entry, \
                   putMissing dereferences it (NPE): X is not re-queued" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: failed(2),
            note: "P1 changes the scheduler only: putMissing still meets the storage entry clearIBRs \
                   removed" },
        Claim { variant: "P2", outcome: &O5, expected: U, method: failed(1).final_states(0xc007_7265_a7d5_7d73),
            note: "P2 removes the clear, so putMissing always finds its storage's entry (the P2-sync-only \
                   mutant, a synchronized clear, still reaches it)" },
        Claim { variant: "P3", outcome: &O5, expected: R, method: failed(2),
            note: "this REGISTER answers a heartbeat sent under the current registration, so P3 keeps it \
                   and its clear" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: failed(1).final_states(0xc007_7265_a7d5_7d73),
            note: "P2 in the proposed fix: no clear, no missing entry" },
        Claim { variant: "P1+P3", outcome: &O5, expected: R, method: failed(2),
            note: "neither P1 nor P3 touches the clear: the NullPointerException remains" },
        Claim { variant: "P2+P3", outcome: &O5, expected: U, method: failed(1).final_states(0xc007_7265_a7d5_7d73),
            note: "P2: no clear" },
        Claim { variant: "P1+P2+P3", outcome: &O5, expected: U, method: failed(1).final_states(0xc007_7265_a7d5_7d73),
            note: "P2: no clear" },
        Claim { variant: "notify-first", outcome: &O5, expected: R, method: failed(2),
            note: "the writer-order mutant keeps upstream's putMissing" },
        Claim { variant: "trunk", outcome: &O5, expected: U, method: failed(37).final_states(0x78d1_4782_b564_bf76),
            note: "HDFS-17953's putMissing skips the cleared storage: no NPE; the re-queued blocks are \
                   still lost silently, and the registration's FBR covers them here (O1 unreachable in this \
                   scenario, a unit test)" },
        Claim { variant: "trunk+P1", outcome: &O5, expected: U, method: failed(37).final_states(0x78d1_4782_b564_bf76),
            note: "trunk's putMissing skips a cleared storage: no exception with P1 either" },
        Claim { variant: "trunk+P2", outcome: &O5, expected: U, method: failed(1).final_states(0xc007_7265_a7d5_7d73),
            note: "no clear on trunk with P2" },
        Claim { variant: "trunk+P3", outcome: &O5, expected: U, method: failed(37).final_states(0x78d1_4782_b564_bf76),
            note: "trunk's putMissing skips a cleared storage" },
        Claim { variant: "trunk+P1+P2", outcome: &O5, expected: U, method: failed(1).final_states(0xc007_7265_a7d5_7d73),
            note: "the proposed fix on trunk: no clear" },
        Claim { variant: "upstream", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "P3's second path: REG2 is the REGISTER answered to an FBR sent under registration 1 (the \
                   NameNode restarted during it); it re-registers although registration 2 has completed" },
        Claim { variant: "P1", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "P1 does not drop REGISTERs: the stale REGISTER runs" },
        Claim { variant: "P2", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "P2 does not drop REGISTERs: the stale REGISTER runs" },
        Claim { variant: "P3", outcome: &O8, expected: U, method: fbr_reg(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 tags the FBR's REGISTER with the registration the FBR was sent under (read at its \
                   drain) and drops it: the P3-late-tag mutant, tagging at enqueue, re-registers" },
        Claim { variant: "proposed", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "the proposed fix (P1+P2) keeps the duplicate registration; it loses no block: \
                   proposed/O3, O6 and O9 are unreachable" },
        Claim { variant: "P1+P3", outcome: &O8, expected: U, method: fbr_reg(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops the stale REGISTER on the FBR-answer path" },
        Claim { variant: "P2+P3", outcome: &O8, expected: U, method: fbr_reg(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops the stale REGISTER on the FBR-answer path" },
        Claim { variant: "P1+P2+P3", outcome: &O8, expected: U, method: fbr_reg(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops the stale REGISTER: P1+P2+P3 closes every outcome, P3 only this one" },
        Claim { variant: "notify-first", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "the writer-order mutant re-registers as upstream does" },
        Claim { variant: "trunk", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "trunk answers an FBR from an unknown node with REGISTER: the duplicate registration" },
        Claim { variant: "trunk+P1", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "P1 does not drop REGISTERs on trunk" },
        Claim { variant: "trunk+P2", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "P2 does not drop REGISTERs on trunk" },
        Claim { variant: "trunk+P3", outcome: &O8, expected: U, method: fbr_reg(9).final_states(0xc007_7265_a7d5_7d73),
            note: "P3 drops the FBR's stale REGISTER on trunk too" },
        Claim { variant: "trunk+P1+P2", outcome: &O8, expected: R, method: fbr_reg(1),
            note: "the proposed fix on trunk keeps the duplicate registration, which loses nothing there" },
        Claim { variant: "upstream", outcome: &O9, expected: R, method: two_nn(119),
            note: "two NameNodes: nn0 (ACTIVE) learns X by IBR while nn1, restarted, loses it: the block is \
                   missing once nn1 is made active (the report's failover)" },
        Claim { variant: "P1", outcome: &O9, expected: R, method: two_nn(199),
            note: "as O3 under P1: nn1's startup safe mode discards the FBR P1 keeps" },
        Claim { variant: "P2", outcome: &O9, expected: U, method: two_nn(1025).final_states(0x4a75_9e31_a2fd_a831),
            note: "X stays queued for nn1" },
        Claim { variant: "P3", outcome: &O9, expected: U, method: two_nn(9).final_states(0xfd7b_35ad_b87b_7fe0),
            note: "P3 drops REG2 on nn1: nothing is cleared, both NameNodes learn X" },
        Claim { variant: "proposed", outcome: &O9, expected: U, method: two_nn(288).final_states(0xfd7b_35ad_b87b_7fe0),
            note: "the proposed fix: X stays queued for nn1 (P2), so both NameNodes locate it" },
        Claim { variant: "notify-first", outcome: &O9, expected: R, method: two_nn(119),
            note: "the writer-order mutant loses X on nn1 as upstream does" },
        Claim { variant: "trunk", outcome: &O9, expected: R, method: two_nn(119),
            note: "trunk: nn0 locates X, nn1 does not; HDFS-17953 does not change it" },
        Claim { variant: "trunk+P1", outcome: &O9, expected: R, method: two_nn(199),
            note: "as P1 on the report's code: nn1's startup safe mode discards the FBR P1 keeps" },
        Claim { variant: "trunk+P2", outcome: &O9, expected: U, method: two_nn(1025).final_states(0x4a75_9e31_a2fd_a831),
            note: "P2 on trunk keeps X queued for nn1" },
        Claim { variant: "trunk+P3", outcome: &O9, expected: U, method: two_nn(9).final_states(0xfd7b_35ad_b87b_7fe0),
            note: "P3 on trunk drops REG2 on nn1" },
        Claim { variant: "trunk+P1+P2", outcome: &O9, expected: U, method: two_nn(288).final_states(0xfd7b_35ad_b87b_7fe0),
            note: "the proposed fix on trunk: both NameNodes locate X" },
        // J cells (checker real): replays on hadoop-hdfs 3.5.0 with the fix layer
        // (conformance/hdfs, racelab.fix.reregister). RR_O3 drives the order of
        // counterexamples/reregister/upstream.O3.scn (double-register/standby) on the real
        // BPOfferService, BPServiceActor loop and command thread against a fake NameNode that
        // behaves as namenode.rs; each expected verdict is the model's for that order on that row
        // (`cargo xtask replay` of the file on every variant). A J "not reached" is about this
        // order, on these classes, with this rendering of the parts, not a proof.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::real("RR_O3"),
            note: "REG2's clearIBRs drops X (finalized after the in-flight FBR's snapshot) and no later snapshot carries it; this replay's order, on the real classes" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "X is cleared, but P1 keeps REG2's FBR request and its snapshot carries X; this replay's order, on the real classes" },
        Claim { variant: "P2", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "P2: clearIBRs keeps X queued; it goes out as an IBR; this replay's order, on the real classes" },
        Claim { variant: "P3", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "P3 drops REG2 (tagged with registration A, replaced by B): nothing is cleared; this replay's order, on the real classes" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "P2 keeps X queued (and P1 keeps REG2's FBR); this replay's order, on the real classes" },
        Claim { variant: "trunk", outcome: &O1, expected: R, method: Method::real("RR_O3"),
            note: "REG2's clearIBRs drops X (finalized after the in-flight FBR's snapshot) and no later snapshot carries it (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "X is cleared, but P1 keeps REG2's FBR request and its snapshot carries X (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "P2: clearIBRs keeps X queued; it goes out as an IBR (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O1, expected: U, method: Method::real("RR_O3"),
            note: "P3 drops REG2 (tagged with registration A, replaced by B): nothing is cleared (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::real("RR_O3"),
            note: "REG2's FBR request (due now) is overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2; this replay's order, on the real classes" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::real("RR_O3"),
            note: "the epoch read before the in-flight FBR's drain moved: its scheduleNextBlockReport leaves REG2's request, and the next heartbeat's lease starts that FBR; this replay's order, on the real classes" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::real("RR_O3"),
            note: "REG2's FBR request (due now) is overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2; this replay's order, on the real classes" },
        Claim { variant: "P3", outcome: &O2, expected: U, method: Method::real("RR_O3"),
            note: "P3 drops REG2, so no request is made after the in-flight FBR started (REG1's is honoured by it); this replay's order, on the real classes" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::real("RR_O3"),
            note: "P1 keeps REG2's request; this replay's order, on the real classes" },
        Claim { variant: "trunk", outcome: &O2, expected: R, method: Method::real("RR_O3"),
            note: "REG2's FBR request (due now) is overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2 (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O2, expected: U, method: Method::real("RR_O3"),
            note: "the epoch read before the in-flight FBR's drain moved: its scheduleNextBlockReport leaves REG2's request, and the next heartbeat's lease starts that FBR (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O2, expected: R, method: Method::real("RR_O3"),
            note: "REG2's FBR request (due now) is overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2 (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O2, expected: U, method: Method::real("RR_O3"),
            note: "P3 drops REG2, so no request is made after the in-flight FBR started (REG1's is honoured by it) (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::real("RR_O3"),
            note: "at quiescence the NameNode locates X nowhere: cleared, and the FBR that would carry it was rescheduled hours away; this replay's order, on the real classes" },
        Claim { variant: "P1", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "P1's kept FBR carries X and is processed (this order: the in-flight FBR reached the NameNode before REG2's registerDatanode, so REG2's reset count lets P1's FBR through; the loom cell P1/O3 reaches O3 by the other order, the startup-safe-mode discard, which this replay does not drive); this replay's order, on the real classes" },
        Claim { variant: "P2", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "X stays queued and is accepted by IBR after REG2; this replay's order, on the real classes" },
        Claim { variant: "P3", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "REG2 dropped: X goes out as an IBR; this replay's order, on the real classes" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "X stays queued (P2); P1's FBR carries it too; this replay's order, on the real classes" },
        Claim { variant: "trunk", outcome: &O3, expected: R, method: Method::real("RR_O3"),
            note: "at quiescence the NameNode locates X nowhere: cleared, and the FBR that would carry it was rescheduled hours away (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "P1's kept FBR carries X and is processed (this order: the in-flight FBR reached the NameNode before REG2's registerDatanode, so REG2's reset count lets P1's FBR through; the loom cell P1/O3 reaches O3 by the other order, the startup-safe-mode discard, which this replay does not drive) (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "X stays queued and is accepted by IBR after REG2 (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O3, expected: U, method: Method::real("RR_O3"),
            note: "REG2 dropped: X goes out as an IBR (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "upstream", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "P1", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "P2", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "P3", outcome: &O8, expected: U, method: Method::real("RR_O3"),
            note: "P3's tag (the bpRegistration read on entry to sendHeartBeat) is A, the actor's current is B: processCommandFromActor drops REG2; this replay's order, on the real classes" },
        Claim { variant: "proposed", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "trunk", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O8, expected: R, method: Method::real("RR_O3"),
            note: "REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed (HDFS-17953 rendered: synchronized clear, null-safe putMissing; the loss is the same); this replay's order, on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O8, expected: U, method: Method::real("RR_O3"),
            note: "P3's tag (the bpRegistration read on entry to sendHeartBeat) is A, the actor's current is B: processCommandFromActor drops REG2 (with HDFS-17953); this replay's order, on the real classes" },
        // RR_O2: RR_O3's order with the NameNode last seen ACTIVE (finding RR-F9). In this order
        // the model reaches O1 and O3 on no row (nothing is cleared), so they have no reached
        // twin and are not claimed; the records' observed state shows X queued, then located.
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2's FBR request (due now) is still overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2 (RR-F9); this replay's order, on the real classes" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P1: the epoch read before the in-flight FBR's drain moved, so its scheduleNextBlockReport leaves REG2's request and the next heartbeat's lease starts that FBR; twin upstream; this replay's order, on the real classes" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2's FBR request (due now) is still overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2 (RR-F9); this replay's order, on the real classes" },
        Claim { variant: "P3", outcome: &O2, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P3 drops REG2 (tagged with registration A, replaced by B): no request is made after the in-flight FBR started; twin upstream; this replay's order, on the real classes" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P1: the epoch read before the in-flight FBR's drain moved, so its scheduleNextBlockReport leaves REG2's request and the next heartbeat's lease starts that FBR; twin upstream; this replay's order, on the real classes" },
        Claim { variant: "trunk", outcome: &O2, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2's FBR request (due now) is still overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2 (RR-F9) (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O2, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P1: the epoch read before the in-flight FBR's drain moved, so its scheduleNextBlockReport leaves REG2's request and the next heartbeat's lease starts that FBR; twin upstream (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O2, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2's FBR request (due now) is still overwritten by the in-flight FBR's scheduleNextBlockReport: no snapshot after REG2 (RR-F9) (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O2, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P3 drops REG2 (tagged with registration A, replaced by B): no request is made after the in-flight FBR started; twin upstream (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "upstream", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "P1", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "P2", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "P3", outcome: &O8, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P3's tag (the bpRegistration read on entry to sendHeartBeat) is A, the actor's current is B: processCommandFromActor drops REG2; twin upstream; this replay's order, on the real classes" },
        Claim { variant: "proposed", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed; this replay's order, on the real classes" },
        Claim { variant: "trunk", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O8, expected: R, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; REG2, answered to a heartbeat sent under registration A, re-registers after registration B completed (with HDFS-17953); this replay's order, on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O8, expected: U, method: Method::real("RR_O2"),
            note: "RR_O3's order with the NameNode last seen ACTIVE (reregister-real-RR_O2.scn, double-register/active): reRegister skips clearIBRs, so X stays queued and goes out as an IBR; P3's tag (the bpRegistration read on entry to sendHeartBeat) is A, the actor's current is B: processCommandFromActor drops REG2; twin upstream (with HDFS-17953); this replay's order, on the real classes" },
        // RR_O9: RR_O3's order against the second of two NameNodes (finding RR-F10).
        Claim { variant: "upstream", outcome: &O9, expected: R, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: nn0 locates X (its actor's IBR or FBR); REG2's clearIBRs drops X from nn1's actor and its FBR request is overwritten: nn1 locates X nowhere" },
        Claim { variant: "P1", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P1 keeps REG2's FBR request on nn1's actor: its snapshot carries X and both NameNodes locate it; twin upstream" },
        Claim { variant: "P2", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P2 keeps X queued on nn1's actor: it goes out as an IBR after REG2 and both NameNodes locate it; twin upstream" },
        Claim { variant: "P3", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P3 drops REG2: nothing is cleared, X goes to nn1 as an IBR; twin upstream" },
        Claim { variant: "proposed", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P2 keeps X queued (and P1 REG2's FBR): both NameNodes locate it; twin upstream" },
        Claim { variant: "trunk", outcome: &O9, expected: R, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: as upstream with HDFS-17953 rendered (synchronized clear, null-safe putMissing): nn0 locates X, nn1 nowhere" },
        Claim { variant: "trunk+P1", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P1 keeps REG2's FBR request on nn1's actor (with HDFS-17953): both locate X; twin upstream" },
        Claim { variant: "trunk+P2", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P2 keeps X queued on nn1's actor (with HDFS-17953): both locate X; twin upstream" },
        Claim { variant: "trunk+P3", outcome: &O9, expected: U, method: Method::real("RR_O9"),
            note: "RR_O9's order (reregister-real-RR_O9.scn, double-register/two-namenodes: RR_O3's sequence against nn1, restarted STANDBY, while nn0 ACTIVE keeps the DataNode; the writer notifies both actors), on the real classes: P3 drops REG2 (with HDFS-17953): nothing is cleared; twin upstream" },
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::real("RR_O5"),
            note: "the IBR RPC is held and fails after reRegister's clearIBRs; putMissing throws NullPointerException and X is in no pending IBR; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::real("RR_O5"),
            note: "P1 does not touch the clear or putMissing: the NullPointerException as upstream; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "P2", outcome: &O5, expected: U, method: Method::real("RR_O5"),
            note: "P2's clearIBRs keeps the storage entry: putMissing re-queues X; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "P3", outcome: &O5, expected: R, method: Method::real("RR_O5"),
            note: "the REGISTER is fresh (sent under the current registration), so P3 keeps it: reRegister runs as upstream (the replay calls reRegister directly, as processCommandFromActor does for a REGISTER P3 keeps); this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "proposed", outcome: &O5, expected: U, method: Method::real("RR_O5"),
            note: "P2 keeps the entry: X re-queued; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "trunk", outcome: &O5, expected: U, method: Method::real("RR_O5"),
            note: "HDFS-17953 rendered: putMissing skips the removed storage, no exception; X is dropped silently (not re-queued), which is not O5; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O5, expected: U, method: Method::real("RR_O5"),
            note: "HDFS-17953's putMissing skips the removed storage: no exception; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O5, expected: U, method: Method::real("RR_O5"),
            note: "no clear: X re-queued; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O5, expected: U, method: Method::real("RR_O5"),
            note: "HDFS-17953's putMissing skips the removed storage: no exception; this replay's order (failed-ibr-vs-clear), on the real classes" },
        Claim { variant: "upstream", outcome: &O6, expected: R, method: Method::real("RR_O6"),
            note: "the dead node's heartbeat answer carries REGISTER and a lease; the FBR's snapshot precedes X, the one reRegister clears X, and the FBR's scheduleNextBlockReport overwrites the registration's request: X unknown with a single registration; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "P1", outcome: &O6, expected: U, method: Method::real("RR_O6"),
            note: "P1 keeps the registration's request past the in-flight FBR (no restart, no safe-mode discard): its FBR carries X; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "P2", outcome: &O6, expected: U, method: Method::real("RR_O6"),
            note: "X stays queued across the registration and is accepted by IBR; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "P3", outcome: &O6, expected: R, method: Method::real("RR_O6"),
            note: "the REGISTER was sent under the current registration: P3 keeps it, and the loss is upstream's; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "proposed", outcome: &O6, expected: U, method: Method::real("RR_O6"),
            note: "P1 and P2 each close it; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "trunk", outcome: &O6, expected: R, method: Method::real("RR_O6"),
            note: "HDFS-17953's synchronized clear still clears: the loss as upstream; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "trunk+P1", outcome: &O6, expected: U, method: Method::real("RR_O6"),
            note: "P1 keeps the registration's request on trunk; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "trunk+P2", outcome: &O6, expected: U, method: Method::real("RR_O6"),
            note: "no clear: X by IBR; this replay's order (single-register/standby), on the real classes" },
        Claim { variant: "trunk+P3", outcome: &O6, expected: R, method: Method::real("RR_O6"),
            note: "P3 alone is no fix on trunk either: the REGISTER is fresh; this replay's order (single-register/standby), on the real classes" },
        // Long histories: three DataNodes, two NameNodes, blocks at replication 3 or 1.
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Proptest { cases: 1024 },
            note: "the twin of proposed's cell: the same generator finds a lost block without the fix \
                   (a block written at replication 1, lost by its one holder)" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no generated history loses a block with the fix (restarts, failovers, gaps, \
                   startup safe mode, replication 1 and 3)" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Quickcheck { tests: 2000 },
            note: "the twin of proposed's cell: random byte histories find a lost block without the fix" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::Quickcheck { tests: 2000 },
            note: "no random byte history loses a block with the fix" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::FuzzReplay,
            note: "the corpus's report sequence loses block 0 on nn1" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::FuzzReplay,
            note: "no corpus input or regression loses a block with the fix" },
        Claim { variant: "upstream", outcome: &O9, expected: R, method: Method::Proptest { cases: 1024 },
            note: "two NameNodes in long histories: one locates a block the other does not" },
        Claim { variant: "proposed", outcome: &O9, expected: U, method: Method::Proptest { cases: 1024 },
            note: "with the fix the two NameNodes agree at quiescence in every generated history" },
        Claim { variant: "trunk", outcome: &O3, expected: R, method: Method::Proptest { cases: 1024 },
            note: "the generator finds the loss on trunk too" },
        Claim { variant: "trunk+P1+P2", outcome: &O3, expected: U, method: Method::Proptest { cases: 1024 },
            note: "the fix on trunk holds over the same generated histories" },
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
            observe: || report_sequence(Reregister::fix(PROPOSED), HEARTBEAT_INTERVAL),
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
            mutate: |fix| Fix { sticky_fbr_request: Switch::new(P1::LateEpoch), ..fix },
            caught_by: &O2,
            caught_at: None,
            inside_a_step: false,
            about: "the epoch check compares with the registration current when the FBR returns, \
                    not the one before its drain: REG2's request is overwritten again",
        },
        Mutant {
            name: "P1-unlocked",
            variant: "P1",
            mutate: |fix| Fix { sticky_fbr_request: Switch::new(P1::Unlocked), ..fix },
            caught_by: &O2,
            caught_at: None,
            inside_a_step: true,
            about: "the rescheduling checks the epoch without the request lock: REG2 lands between \
                    the check and the write",
        },
        Mutant {
            name: "P1-unlocked-race",
            variant: "P1",
            mutate: |fix| Fix { sticky_fbr_request: Switch::new(P1::Unlocked), ..fix },
            caught_by: &O7,
            caught_at: None,
            inside_a_step: true,
            about: "P1-unlocked seen as what it is at the field: the rescheduling reads and clears \
                    resetBlockReportTime without the request lock that register's write holds, so \
                    the two accesses race again (P1/O7 is the lock's own cell; P1-unlocked's \
                    lost request is O2's)",
        },
        Mutant {
            name: "P3-late-tag",
            variant: "P3",
            mutate: |fix| Fix { drop_stale_register: Switch::new(P3::LateTag), ..fix },
            caught_by: &O8,
            caught_at: None,
            inside_a_step: false,
            about: "the REGISTER an FBR is answered with is tagged with the registration current \
                    when blockReport returns, not the one the FBR was sent under: after a \
                    registration completed during the FBR it looks fresh and re-registers",
        },
        Mutant {
            name: "P3-heartbeat-untagged",
            variant: "P3",
            mutate: |fix| Fix { drop_stale_register: Switch::new(P3::HeartbeatUntagged), ..fix },
            caught_by: &O1,
            caught_at: None,
            inside_a_step: false,
            about: "the REGISTER a heartbeat's answer carries is enqueued without P3's tag (taken as \
                    fresh), only the FBR's answer is tagged: the report's REG2, answered to a heartbeat \
                    sent under the registration REG1 replaced, re-registers and clears X (P3's heartbeat \
                    path; P3-late-tag breaks its FBR path, caught at fbr-register)",
        },
        Mutant {
            name: "P2-sync-only",
            variant: "P2",
            mutate: |fix| Fix { keep_ibrs: Switch::new(P2::SyncOnly), ..fix },
            caught_by: &O3,
            caught_at: None,
            inside_a_step: false,
            about: "clearIBRs made synchronized but still clearing: the race goes, the loss stays",
        },
    ],
};
