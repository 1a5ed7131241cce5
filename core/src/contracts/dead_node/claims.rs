//! The expected claims matrix of HDDS-17067, as data. Every cell is checked by a test; the loom
//! cells' `executions` are pinned (a change means the model changed: review, re-pin).

use super::reproductions::{
    comes_back_while_handler_runs, dead_node_handler_keeps_replicas_of_node_that_came_back,
    dies_after_a_late_heartbeat, register_moves_dead_node_out_of_dead, registers_and_stops_again,
    reinitialize_keeps_dead_node_dead, returns_before_dead_deadline,
};
use super::{
    DeadNode, Fix, Recheck, COMES_BACK_AT_NEW_ADDRESS, COMES_BACK_WHILE_HANDLED, FIRST_HEARTBEATS,
    IMPROVED, NEW_ADDRESS_DURING_CHECK, O1, O10, O2, O3, O4, O5, O6, O7, O8, O9, P1, P2, PROPOSED,
    R1, R2, R3, RECON_RELOAD, RECON_RELOAD_EMPTIES_SET, RECON_RELOAD_ROW_DIFFERS,
    REGISTERS_AND_STOPS, REGISTERS_DURING_CHECK, REPORT_WAITS_PAST_DEAD_INTERVAL,
    RESURRECTED_WHILE_HANDLED, RETURNS_BEFORE_DEAD_DEADLINE,
};
use crate::claims::Verdict::{Reachable as R, Unreachable as U};
use crate::claims::{Claim, Claims, Method, Mutant, Reproduction};
use crate::model::{Model, Scenario};
use crate::switches::Switch;

const REGISTERS: &Scenario<DeadNode> = &REGISTERS_AND_STOPS;
const RETURNS: &Scenario<DeadNode> = &RETURNS_BEFORE_DEAD_DEADLINE;
const COMES_BACK: &Scenario<DeadNode> = &COMES_BACK_WHILE_HANDLED;
const RELOAD: &Scenario<DeadNode> = &RECON_RELOAD;
const REPORT_WAITS: &Scenario<DeadNode> = &REPORT_WAITS_PAST_DEAD_INTERVAL;
const NEW_ADDRESS: &Scenario<DeadNode> = &COMES_BACK_AT_NEW_ADDRESS;
const RESURRECTED: &Scenario<DeadNode> = &RESURRECTED_WHILE_HANDLED;
const DURING_CHECK: &Scenario<DeadNode> = &REGISTERS_DURING_CHECK;
const ROW_DIFFERS: &Scenario<DeadNode> = &RECON_RELOAD_ROW_DIFFERS;
const NEW_ADDRESS_IN_CHECK: &Scenario<DeadNode> = &NEW_ADDRESS_DURING_CHECK;
const EMPTIES_SET: &Scenario<DeadNode> = &RECON_RELOAD_EMPTIES_SET;
const FIRST_BEATS: &Scenario<DeadNode> = &FIRST_HEARTBEATS;

pub const CLAIMS: Claims<DeadNode> = Claims {
    cells: &[
        // O1: registers while DEAD and stops before its first heartbeat.
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(REGISTERS, 1),
            note: "report: SCM side (a restarted datanode registers at once; Recon's re-register path is in the \
                   reproductions); the registration leaves lastHeartbeatTime old, so no check resurrects the node and \
                   DEAD_NODE never fires again; the report re-added the replica (container HEALTHY)" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: Method::loom(REGISTERS, 2175),
            note: "report: P1 closes O1 — the refreshed heartbeat time is within the stale deadline of the next \
                   check, which resurrects the node (if it stops it goes through DEAD again)" },
        Claim { variant: "P2", outcome: &O1, expected: R, method: Method::loom(REGISTERS, 1),
            note: "P2 alone leaves O1: no DEAD_NODE handler runs after the registration" },
        Claim { variant: "P3", outcome: &O1, expected: R, method: Method::loom(REGISTERS, 1),
            note: "P3 alone changes only Recon's reload: O1 as upstream" },
        Claim { variant: "P1+P2", outcome: &O1, expected: U, method: Method::loom(REGISTERS, 2175),
            note: "closed by P1" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::loom(REGISTERS, 2175),
            note: "report: closed" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::loom(REGISTERS, 2175),
            note: "closed as with the patch: P4 keeps replicas only of a node the next check resurrects" },
        // O2: back shortly before the dead deadline.
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::loom(RETURNS, 1),
            note: "report: the check at the deadline uses the pre-outage heartbeat time, declares the registered \
                   node DEAD before its first heartbeat, and the handler removes its replica" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::loom(RETURNS, 604),
            note: "report: P1 closes O2 — the registration's heartbeat time is within the deadline" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::loom(RETURNS, 1),
            note: "P2's recheck sees DEAD too (the node is DEAD by SCM's own clock): P2 alone leaves O2" },
        Claim { variant: "P1+P2", outcome: &O2, expected: U, method: Method::loom(RETURNS, 604),
            note: "closed by P1" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::loom(RETURNS, 604),
            note: "report: closed" },
        Claim { variant: "improved", outcome: &O2, expected: U, method: Method::loom(RETURNS, 604),
            note: "closed as with the patch" },
        // O3 and R1: back while the handler runs.
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::loom(COMES_BACK, 14),
            note: "report: the handler's one status read precedes the registration report; it removes the \
                   replica the report re-added" },
        Claim { variant: "P1", outcome: &O3, expected: R, method: Method::loom(COMES_BACK, 14),
            note: "P1 alone leaves O3: the handler still acts on a status read older than the report" },
        Claim { variant: "P2", outcome: &O3, expected: R, method: Method::loom(COMES_BACK, 181),
            note: "report claims P2 closes O3; loom finds P2 alone does not: the recheck under the monitor follows \
                   the report but still sees DEAD, because without P1 the registration does not refresh the \
                   heartbeat time (the node leaves DEAD only after its first heartbeat and a check). The report \
                   says both parts are needed; with P1 the remaining window is R1" },
        Claim { variant: "P1+P2", outcome: &O3, expected: U, method: Method::loom(COMES_BACK, 4943),
            note: "closed: the monitor orders the recheck after the report, P1 makes the later decision R1's." },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::loom(COMES_BACK, 4943),
            note: "report: closed by the recheck under the DatanodeInfo monitor." },
        Claim { variant: "improved", outcome: &O3, expected: U, method: Method::loom(COMES_BACK, 4943),
            note: "closed as with the patch." },
        Claim { variant: "P1+P2", outcome: &R1, expected: R, method: Method::loom(COMES_BACK, 213),
            note: "the window belongs to P1+P2 (P3 plays no part)" },
        Claim { variant: "proposed", outcome: &R1, expected: R, method: Method::loom(COMES_BACK, 213),
            note: "report admits it: a recheck after the registration and before the next health check still \
                   sees DEAD and removes the returned node's replica; loom confirms" },
        Claim { variant: "improved", outcome: &R1, expected: U, method: Method::loom(COMES_BACK, 4943),
            note: "P4: a DEAD node whose heartbeat time is within the stale deadline keeps its replicas (the next \
                   check resurrects it); the residual window closes." },
        // O4: Recon's reload.
        Claim { variant: "upstream", outcome: &O4, expected: U, method: Method::loom(RELOAD, 20),
            note: "report: today's register refreshes nothing for an unchanged known node, so the reload is a \
                   no-op where the row equals memory, as here (where it differs, behind NAT, it revives the node \
                   through updateNode: O8)" },
        Claim { variant: "P1", outcome: &O4, expected: R, method: Method::loom(RELOAD, 1),
            note: "report: P1 without P3 opens O4 — the reload's register refreshes the heartbeat time of a DEAD \
                   node that is down, and the next check resurrects it" },
        Claim { variant: "P3", outcome: &O4, expected: U, method: Method::loom(RELOAD, 6),
            note: "P3 alone: known nodes are not registered again" },
        Claim { variant: "P1+P2", outcome: &O4, expected: R, method: Method::loom(RELOAD, 1),
            note: "report: P1+P2 without P3 reaches O4 (testReinitializeKeepsDeadNodeDead fails)" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::loom(RELOAD, 6),
            note: "report: P3 closes it" },
        Claim { variant: "improved", outcome: &O4, expected: U, method: Method::loom(RELOAD, 6),
            note: "closed as with the patch" },
        // O5: the state, apart from the window.
        Claim { variant: "upstream", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "the handler's one status read precedes the heartbeat and the RESURRECT; it removes the replica \
                   of the registration report: the datanode is up and its container MISSING (O3's window)" },
        Claim { variant: "P1+P2", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "the recheck under the monitor reads DEAD before the health check (R1's window); the check may \
                   RESURRECT the node while the handler, holding the monitor, removes: health checks do not take it" },
        Claim { variant: "proposed", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "as P1+P2: with the patch a live node's replica is lost through R1's window (and R3's, see its \
                   cell), so a state predicate alone cannot tell a broken recheck from the admitted windows here; \
                   the classification does (a removal after a recheck that did not read DEAD is O3's, which \
                   the proposed histories catch for the fall-through mutant)" },
        Claim { variant: "improved", outcome: &O5, expected: U, method: Method::loom(RESURRECTED, 4643),
            note: "P4 keeps the replicas when the recheck reads DEAD within the stale deadline and P2 when it reads \
                   HEALTHY_READONLY: no live node loses a replica (with no updateNode in the scenario, R3 cannot \
                   occur); the fall-through mutant reaches it" },
        // O6 and O7: inside checkNodesHealth's steps.
        Claim { variant: "upstream", outcome: &O6, expected: U, method: Method::loom(DURING_CHECK, 1066),
            note: "NodeStateManager.checkNodesHealth in its steps: a registration refreshes nothing upstream, so the window does not exist for it: the deadline test and the write both see heartbeat time 0 and the DEAD is O2's (a heartbeat, upstream's own refresh, is the same DatanodeInfo.updateLastHeartbeatTime write as P1's). Twin P1+P2. The scenario starts after the run's TIMEOUT test, since a registration before it cannot reach O6, and the handler thread ends after the one DEAD_NODE the run always fires" },
        Claim { variant: "P1+P2", outcome: &O6, expected: R, method: Method::loom(DURING_CHECK, 5229),
            note: "the run tests the listed DatanodeInfo's heartbeat time 0 (past the dead deadline), P1's registration refreshes it to 7, updateNodeHealthState writes DEAD by ID and DEAD_NODE fires; the handler reads DEAD and its recheck under the monitor reads DEAD before the run's RESTORE test (which reads 7 and writes HEALTHY_READONLY): a node that registered before it was declared DEAD loses its replicas." },
        Claim { variant: "proposed", outcome: &O6, expected: R, method: Method::loom(DURING_CHECK, 5229),
            note: "as P1+P2 (P3 plays no part); the patch's P1 opens this window, P2 does not close it" },
        Claim { variant: "improved", outcome: &O6, expected: U, method: Method::loom(DURING_CHECK, 8402),
            note: "P4 closes it: the recheck reads DEAD but lastHeartbeatTime 7 within the stale deadline and keeps the replicas (the run's RESTORE, or the next check, brings the node back). Twin P1+P2" },
        Claim { variant: "upstream", outcome: &O7, expected: R, method: Method::loom(NEW_ADDRESS_IN_CHECK, 1),
            note: "the run read dn1's status (STALE) from DatanodeInfo #1; the registration's updateNode replaced it (#2 HEALTHY, heartbeat time 7, empty container set); the TIMEOUT test read #1's heartbeat time 0 and the run wrote DEAD to #2 by ID; DEAD_NODE fires; the report is applied under #2 and the handler removes it. The replacement inside the window and the write are the scenario's start (see NEW_ADDRESS_DURING_CHECK: every O7 execution has them in that order, and no other actor can act before the write); a registration after the write cannot reach O7 (the DEAD then goes to the object it tested), so loom explores the report's apply under #2 against the handler" },
        Claim { variant: "P1+P2", outcome: &O7, expected: R, method: Method::loom(NEW_ADDRESS_IN_CHECK, 1),
            note: "a path to O2's harm with the patch, apart from R3: P2's recheck takes #2's monitor, the one the report handler held, and reads the DEAD the check wrote to #2, so it removes the new object's freshly reported replicas. P1 plays no part (updateNode already gives #2 a fresh heartbeat time)." },
        Claim { variant: "proposed", outcome: &O7, expected: R, method: Method::loom(NEW_ADDRESS_IN_CHECK, 1),
            note: "as P1+P2" },
        Claim { variant: "improved", outcome: &O7, expected: U, method: Method::loom(NEW_ADDRESS_IN_CHECK, 4207),
            note: "P4 closes it: #2's heartbeat time 7 is within the stale deadline, so the recheck keeps the replicas whether or not the report was applied first; the next check resurrects #2. Twin upstream" },
        // O8 and O9: Recon's reload through updateNode.
        Claim { variant: "upstream", outcome: &O8, expected: R, method: Method::loom(ROW_DIFFERS, 1),
            note: "ReconNodeManager.register wrote the row with the address dn1 reported (nodeDB.put, before SCMNodeManager.register set the RPC peer's); loadExistingNodes registers the row outside any RPC (Server.getRemoteIp() null, the row's address stands), updateDnsToDnIdMap sees a change and updateNode replaces the DEAD DatanodeInfo with a new HEALTHY one: upstream revives a DEAD node that is down, without P1" },
        Claim { variant: "P1+P2", outcome: &O8, expected: R, method: Method::loom(ROW_DIFFERS, 1),
            note: "P1 plays no part (the updateNode branch comes first) and P2 none: O8 as upstream" },
        Claim { variant: "P3", outcome: &O8, expected: U, method: Method::loom(ROW_DIFFERS, 6),
            note: "P3 closes it: loadExistingNodes registers no known node again, so no row reaches updateNode" },
        Claim { variant: "proposed", outcome: &O8, expected: U, method: Method::loom(ROW_DIFFERS, 6),
            note: "closed by P3 (testReinitializeKeepsDeadNodeDead's change)" },
        Claim { variant: "improved", outcome: &O8, expected: U, method: Method::loom(ROW_DIFFERS, 6),
            note: "closed as with the patch" },
        // Residual windows the patch leaves.
        Claim { variant: "proposed", outcome: &R2, expected: R, method: Method::loom(REPORT_WAITS, 1),
            note: "report admits it: the registration report applied after the node, stopped again, went DEAD \
                   and was handled re-adds its replica for good" },
        Claim { variant: "improved", outcome: &R2, expected: R, method: Method::loom(REPORT_WAITS, 1),
            note: "not closed by the improved fix (P4 acts in the handler; this report arrives after it)" },
        Claim { variant: "proposed", outcome: &R3, expected: R, method: Method::loom(NEW_ADDRESS, 14),
            note: "found in the code (the health check's side of a replaced object, which marks the new object DEAD, \
                   is O7's cell); updateNode replaces the DatanodeInfo; the handler rechecks under the old \
                   object's monitor while the report is applied under the new one's" },
        Claim { variant: "improved", outcome: &R3, expected: R, method: Method::loom(NEW_ADDRESS, 14),
            note: "not closed by the improved fix: the recheck under the old object sees the old DEAD entry" },
        // Total rows: each part alone against every outcome, at the scenario that shows it.
        Claim { variant: "upstream", outcome: &O9, expected: R, method: Method::loom(EMPTIES_SET, 7),
            note: "Recon's reload (loadExistingNodes) registers dn1's row, which behind NAT differs from memory: updateNode replaces its DatanodeInfo with one whose container-ID set is empty, after the registration report re-added the replica; dn1, down, goes DEAD at t=7 and the handler, which removes by that set, removes nothing: container 1 counts a replica on a DEAD node" },
        Claim { variant: "P1", outcome: &O9, expected: R, method: Method::loom(EMPTIES_SET, 7),
            note: "P1 plays no part: the row differs from memory, so register takes the updateNode branch before any refresh; O9 as upstream" },
        Claim { variant: "P2", outcome: &O9, expected: R, method: Method::loom(EMPTIES_SET, 8),
            note: "P2 plays no part: its recheck reads DEAD under the new object's monitor, and the set it removes by is empty; O9 as upstream" },
        Claim { variant: "P3", outcome: &O9, expected: U, method: Method::loom(EMPTIES_SET, 33),
            note: "P3 closes it: loadExistingNodes registers no known node again, so no updateNode empties the set, and the handler removes the replica when dn1 goes DEAD; twin upstream" },
        Claim { variant: "P1+P2", outcome: &O9, expected: R, method: Method::loom(EMPTIES_SET, 8),
            note: "without P3 the patch's other parts leave O9 as upstream" },
        Claim { variant: "proposed", outcome: &O9, expected: U, method: Method::loom(EMPTIES_SET, 34),
            note: "closed by P3, in every interleaving of the reload with the report's apply; twin upstream" },
        Claim { variant: "improved", outcome: &O9, expected: U, method: Method::loom(EMPTIES_SET, 34),
            note: "closed as with the patch (P4 acts only in the handler's recheck); twin upstream" },
        Claim { variant: "upstream", outcome: &R1, expected: U, method: Method::loom(COMES_BACK, 573),
            note: "R1 is the recheck window that P1's refresh opens; upstream refreshes nothing at registration, so a removal of a returned node's replica after a status read that followed the report is O3's (upstream/O3 reaches it here); twin P1+P2" },
        Claim { variant: "P1", outcome: &R1, expected: R, method: Method::loom(COMES_BACK, 211),
            note: "P1 alone: the handler's one status read can follow the registration and its report and still read DEAD (no health check has run since the refresh), and it removes the replica: the window the report admits for the patch exists without P2 too" },
        Claim { variant: "P2", outcome: &R1, expected: U, method: Method::loom(COMES_BACK, 3040),
            note: "P2 alone: without P1 the recheck that follows the report reads DEAD on an unrefreshed heartbeat time, which is O3's (P2/O3), not R1's refresh window; twin P1+P2" },
        Claim { variant: "P3", outcome: &R1, expected: U, method: Method::loom(COMES_BACK, 573),
            note: "P3 alone changes only Recon's reload: as upstream, no refresh, so no R1; twin P1+P2" },
        Claim { variant: "upstream", outcome: &R2, expected: R, method: Method::loom(REPORT_WAITS, 1),
            note: "upstream leaves the same residual window: the registration report applied after dn1, stopped again, went DEAD and was handled re-adds its replica for good" },
        Claim { variant: "P1", outcome: &R2, expected: R, method: Method::loom(REPORT_WAITS, 1),
            note: "P1 alone leaves R2: the refresh moves the dead deadline to t=8, and the report still waits past it" },
        Claim { variant: "P2", outcome: &R2, expected: R, method: Method::loom(REPORT_WAITS, 1),
            note: "P2 alone leaves R2: the report arrives after the handler" },
        Claim { variant: "P3", outcome: &R2, expected: R, method: Method::loom(REPORT_WAITS, 1),
            note: "P3 alone leaves R2 as upstream" },
        Claim { variant: "upstream", outcome: &R3, expected: U, method: Method::loom(NEW_ADDRESS, 402),
            note: "R3 is the window of a recheck under a replaced object's monitor; upstream takes no monitor, so the removal of the new address's reported replica is O3's; twin proposed" },
        Claim { variant: "P1", outcome: &R3, expected: U, method: Method::loom(NEW_ADDRESS, 402),
            note: "P1 alone takes no monitor either: no R3 (the removal is O3's); twin proposed" },
        Claim { variant: "P2", outcome: &R3, expected: R, method: Method::loom(NEW_ADDRESS, 14),
            note: "P2 alone: the handler rechecks under the old DatanodeInfo's monitor while the report is applied under the new one's, as with the patch" },
        Claim { variant: "P3", outcome: &R3, expected: U, method: Method::loom(NEW_ADDRESS, 402),
            note: "P3 alone takes no monitor: no R3; twin proposed" },
        Claim { variant: "P1", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "P1 alone: the handler's one status read precedes the heartbeat and the RESURRECT, and it removes the registration report's replica from a node that is up" },
        Claim { variant: "P2", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "P2 alone: the recheck under the monitor reads DEAD (the registration refreshed nothing, no check has run) and removes the replica of a node that is up" },
        Claim { variant: "P3", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "P3 alone: as upstream" },
        Claim { variant: "P1", outcome: &O6, expected: R, method: Method::loom(DURING_CHECK, 2699),
            note: "P1 alone opens O6 as the patch does: the registration's refresh lands between the run's deadline test and its DEAD write, and the handler, with no recheck, removes the replicas of a node that registered before it was declared DEAD" },
        Claim { variant: "P2", outcome: &O6, expected: U, method: Method::loom(DURING_CHECK, 1657),
            note: "P2 alone: the registration refreshes nothing, so no refresh falls between the test and the write (the DEAD is O2's); twin P1+P2" },
        Claim { variant: "P3", outcome: &O6, expected: U, method: Method::loom(DURING_CHECK, 1066),
            note: "P3 alone: as upstream (no refresh at registration); twin P1+P2" },
        Claim { variant: "P1", outcome: &O7, expected: R, method: Method::loom(NEW_ADDRESS_IN_CHECK, 1),
            note: "P1 plays no part: updateNode already gives the new object a fresh heartbeat time, and the run writes DEAD to it by ID; O7 as upstream" },
        Claim { variant: "P2", outcome: &O7, expected: R, method: Method::loom(NEW_ADDRESS_IN_CHECK, 1),
            note: "P2 alone: the recheck takes the new object's monitor and reads the DEAD written to it, as with the patch" },
        Claim { variant: "P3", outcome: &O7, expected: R, method: Method::loom(NEW_ADDRESS_IN_CHECK, 1),
            note: "P3 alone: as upstream (SCM's registration path, not the reload)" },
        Claim { variant: "P1", outcome: &O8, expected: R, method: Method::loom(ROW_DIFFERS, 1),
            note: "P1 plays no part: the row differs from memory, so the reload's register takes the updateNode branch; O8 as upstream" },
        Claim { variant: "P2", outcome: &O8, expected: R, method: Method::loom(ROW_DIFFERS, 1),
            note: "P2 plays no part in the reload: O8 as upstream" },
        Claim { variant: "P2", outcome: &O4, expected: U, method: Method::loom(RELOAD, 20),
            note: "P2 alone: register refreshes nothing for an unchanged known node, so the reload revives no DEAD node where the row equals memory; twin P1" },
        Claim { variant: "P3", outcome: &O2, expected: R, method: Method::loom(RETURNS, 1),
            note: "P3 alone: as upstream, the check at the deadline uses the pre-outage heartbeat time and the handler removes the registered node's replica" },
        Claim { variant: "P3", outcome: &O3, expected: R, method: Method::loom(COMES_BACK, 14),
            note: "P3 alone: as upstream, the handler acts on a status read older than the report" },
        // O10: the race on Recon's datanodeHeartbeatMap (no part touches it).
        Claim { variant: "upstream", outcome: &O10, expected: R, method: Method::loom(FIRST_BEATS, 1),
            note: "Recon just started: dn1's and dn2's first heartbeats, on two RPC handler threads, each put a new key into datanodeHeartbeatMap (a plain HashMap) while the other's lookup reads its table; loom reports the data race" },
        Claim { variant: "P1", outcome: &O10, expected: R, method: Method::loom(FIRST_BEATS, 1),
            note: "P1 changes register, not processHeartbeat: as upstream" },
        Claim { variant: "P2", outcome: &O10, expected: R, method: Method::loom(FIRST_BEATS, 1),
            note: "P2 changes the dead node handler: as upstream" },
        Claim { variant: "P3", outcome: &O10, expected: R, method: Method::loom(FIRST_BEATS, 1),
            note: "P3 changes the node table reload: as upstream" },
        Claim { variant: "proposed", outcome: &O10, expected: R, method: Method::loom(FIRST_BEATS, 1),
            note: "the patch does not touch ReconNodeManager.processHeartbeat: the race stays" },
        Claim { variant: "improved", outcome: &O10, expected: R, method: Method::loom(FIRST_BEATS, 1),
            note: "P4 does not touch it either: the race stays" },
        // The precedent HDDS-14834: P2 as upstream wrote its topology guard (no monitor).
        Claim { variant: "P1+P2u+P3", outcome: &O3, expected: R, method: Method::loom(COMES_BACK, 14),
            note: "written as HDDS-14834 wrote its guard, P2 does not close O3: the monitor matters. The unlocked second getNodeStatus reads DEAD before the report, the CR thread applies the registration report under the DatanodeInfo monitor, and the removal that follows removes the replica it re-added (O3), which the patch's recheck under the monitor closes (proposed/O3)" },
        Claim { variant: "P1+P2u+P3", outcome: &R1, expected: R, method: Method::loom(COMES_BACK, 33),
            note: "the unlocked recheck also leaves the patch's admitted window: a re-read after the refreshed registration still reads DEAD" },
        Claim { variant: "P1+P2u+P3", outcome: &O5, expected: R, method: Method::loom(RESURRECTED, 1),
            note: "a live node's replica is lost, as with the patch (R1's window) and through O3's" },
        Claim { variant: "P1+P2u+P3", outcome: &R3, expected: U, method: Method::loom(NEW_ADDRESS, 994),
            note: "no monitor is taken, so no removal is R3's (a replaced object's removal is O3's here); twin proposed" },
        // Long histories (Recon, three datanodes, see racelab-props' dead_node).
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Proptest { cases: 512 },
            note: "long histories (Recon, three datanodes, four containers; a tick runs one whole health check) of \
                   outages, registrations, heartbeats, reports, handler runs and reloads reach O1 upstream" },
        Claim { variant: "upstream", outcome: &O2, expected: R, method: Method::Proptest { cases: 512 },
            note: "long histories reach O2 upstream" },
        Claim { variant: "upstream", outcome: &O3, expected: R, method: Method::Proptest { cases: 512 },
            note: "long histories reach O3 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no history reaches O1 with the patch (a stuck DEAD node with replicas is R2's)" },
        Claim { variant: "proposed", outcome: &O2, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no history reaches O2 with the patch" },
        Claim { variant: "proposed", outcome: &O3, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no history reaches O3 with the patch (removals of a returned node's replicas are R1's or R3's)" },
        Claim { variant: "proposed", outcome: &O4, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no history reaches O4 with the patch" },
        Claim { variant: "proposed", outcome: &R1, expected: R, method: Method::Proptest { cases: 2048 },
            note: "the generator reaches the residual window and the witness names it R1" },
        Claim { variant: "proposed", outcome: &R2, expected: R, method: Method::Proptest { cases: 2048 },
            note: "the generator reaches a registration report queued past the dead interval (R2)" },
        Claim { variant: "proposed", outcome: &R3, expected: R, method: Method::Proptest { cases: 4096 },
            note: "the generator reaches a registration at a new address during the handler (R3)" },
        Claim { variant: "improved", outcome: &R1, expected: U, method: Method::Proptest { cases: 1024 },
            note: "no history reaches R1 with the improved fix" },
        Claim { variant: "improved", outcome: &O1, expected: U, method: Method::Proptest { cases: 1024 },
            note: "P4 keeps replicas only of nodes the next check resurrects: no stuck DEAD node with replicas follows" },
        Claim { variant: "P1+P2", outcome: &O4, expected: R, method: Method::Proptest { cases: 512 },
            note: "without P3 a reload revives a DEAD node in long histories too" },
        Claim { variant: "upstream", outcome: &O8, expected: R, method: Method::Proptest { cases: 512 },
            note: "dn3 is behind NAT in the histories: after it registers again its row differs from memory, and a \
                   later reload revives it through updateNode while it is DEAD (no P1 needed)" },
        Claim { variant: "proposed", outcome: &O8, expected: U, method: Method::Proptest { cases: 1024 },
            note: "P3: the reload registers no known node again, so no row reaches updateNode" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::Quickcheck { tests: 4000 },
            note: "quickcheck over random byte strings (the fuzz codec) finds O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::Quickcheck { tests: 4000 },
            note: "quickcheck finds no O1 with the patch" },
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::FuzzReplay,
            note: "the committed corpus and regressions reach O1 upstream" },
        Claim { variant: "proposed", outcome: &O1, expected: U, method: Method::FuzzReplay,
            note: "no corpus input reaches O1 with the patch" },
    ],
    reproductions: &[
        Reproduction {
            what: "improved: heartbeat at t=4, then stopped for good; the handler at t=11",
            expected: "dn1 DEAD, container 1 MISSING",
            observe: || dies_after_a_late_heartbeat(DeadNode::fix(IMPROVED)),
        },
        Reproduction {
            what: "TestBugMC4DeadNodeRegisterReport (upstream, Recon): after the node stopped again",
            expected: "dn1 DEAD, container 1 HEALTHY",
            observe: || registers_and_stops_again(Fix::UPSTREAM),
        },
        Reproduction {
            what: "TestBugMC4DeadNodeRegisterReport (proposed, Recon): after the node stopped again",
            expected: "dn1 DEAD, container 1 MISSING",
            observe: || registers_and_stops_again(DeadNode::fix(PROPOSED)),
        },
        Reproduction {
            what: "returnsShortlyBeforeDeadDeadline (upstream, Recon): after the next heartbeat",
            expected: "dn1 HEALTHY, container 1 MISSING",
            observe: || returns_before_dead_deadline(Fix::UPSTREAM),
        },
        Reproduction {
            what: "returnsShortlyBeforeDeadDeadline (proposed, Recon): after the next heartbeat",
            expected: "dn1 HEALTHY, container 1 HEALTHY",
            observe: || returns_before_dead_deadline(DeadNode::fix(PROPOSED)),
        },
        Reproduction {
            what: "comesBackWhileDeadHandlerRuns (upstream, Recon): after the handler",
            expected: "dn1 HEALTHY, container 1 MISSING",
            observe: || comes_back_while_handler_runs(Fix::UPSTREAM),
        },
        Reproduction {
            what: "comesBackWhileDeadHandlerRuns (proposed, Recon): after the handler",
            expected: "dn1 HEALTHY, container 1 HEALTHY",
            observe: || comes_back_while_handler_runs(DeadNode::fix(PROPOSED)),
        },
        Reproduction {
            what: "testRegisterMovesDeadNodeOutOfDead (proposed): DEAD, HEALTHY after registering again, DEAD again after it stops",
            expected: "passes",
            observe: || register_moves_dead_node_out_of_dead(DeadNode::fix(PROPOSED)),
        },
        Reproduction {
            what: "testRegisterMovesDeadNodeOutOfDead (upstream)",
            expected: "expected: HEALTHY but was: DEAD",
            observe: || register_moves_dead_node_out_of_dead(Fix::UPSTREAM),
        },
        Reproduction {
            what: "testDeadNodeHandlerKeepsReplicasOfNodeThatCameBack (proposed)",
            expected: "passes",
            observe: || dead_node_handler_keeps_replicas_of_node_that_came_back(DeadNode::fix(PROPOSED)),
        },
        Reproduction {
            what: "testDeadNodeHandlerKeepsReplicasOfNodeThatCameBack (upstream)",
            expected: "fails: a replica removal that should not happen",
            observe: || dead_node_handler_keeps_replicas_of_node_that_came_back(Fix::UPSTREAM),
        },
        Reproduction {
            what: "testReinitializeKeepsDeadNodeDead (proposed)",
            expected: "passes",
            observe: || reinitialize_keeps_dead_node_dead(DeadNode::fix(PROPOSED)),
        },
        Reproduction {
            what: "testReinitializeKeepsDeadNodeDead (P1+P2, without the loadExistingNodes change)",
            expected: "expected: DEAD but was: HEALTHY",
            observe: || reinitialize_keeps_dead_node_dead(DeadNode::fix(&[&P1, &P2])),
        },
    ],
    mutants: &[
        Mutant {
            name: "P2 without the monitor",
            variant: "proposed",
            mutate: |fix| Fix { recheck: Switch::new(Recheck::Unlocked), ..fix },
            caught_by: &O3,
            inside_a_step: false,
            about: "the handler rereads the status before removing but without the DatanodeInfo monitor: a report \
                    applied between the reread and the removal is removed",
        },
        Mutant {
            name: "recheck that falls through",
            variant: "improved",
            mutate: |fix| Fix { recheck: Switch::new(Recheck::UnderMonitorNoReturn), ..fix },
            caught_by: &O5,
            inside_a_step: false,
            about: "the recheck under the monitor logs that it keeps the replicas (the node reads HEALTHY_READONLY, \
                    or DEAD within the stale deadline) and removes them anyway (a missing return): a live node's \
                    replica is lost. The same slip in the proposed fix is caught by its histories (O3)",
        },
    ],
};

#[cfg(all(test, not(loom)))]
mod tests {
    use super::CLAIMS;

    #[test]
    fn the_reproductions_match_the_report() {
        for r in CLAIMS.reproductions {
            assert_eq!((r.observe)(), r.expected, "{}", r.what);
        }
    }
}
