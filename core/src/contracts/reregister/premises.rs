//! The statements about hadoop-hdfs that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/hdfs` (see [`crate::premises`]).
use crate::premises::Premise;

const JAR: &str = "hadoop-hdfs 3.5.0";

/// How the classes every replay drives compare with the baselines.
const REPLAY_CLASSES: &str = "The jar is the report baseline's release (rel/release-3.5.0): no \
    difference for the report rows. Trunk rows run on 3.5.0's classes \
    with HDFS-17953 rendered by the fix layer (IncrementalBlockReportManager \
    only); trunk's BPServiceActor, Scheduler and CommandProcessingThread at \
    2f3cdd76 are not in the stored sources (RR-2), so their J verdicts \
    assume them equal to 3.5.0's, as the model does.";

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "RR_P1",
        upstream: "BPServiceActor.Scheduler.scheduleNextBlockReport",
        jar: JAR,
        statement: "scheduleNextBlockReport, run when an FBR that started before a registration \
                    returns, moves the FBR the registration asked for (due now) to a random time \
                    up to the interval later and consumes resetBlockReportTime",
        cells: &[
            "reregister/upstream/O2/loom",
            "reregister/upstream/O2/steps",
            "reregister/upstream/O3/loom",
            "reregister/upstream/O3/steps",
            "reregister/upstream/O6/loom",
            "reregister/upstream/O6/steps",
            "reregister/P2/O2/loom",
            "reregister/P2/O2/steps",
        ],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Trunk rows: the model's trunk is 3.5.0 plus HDFS-17953, which touches IncrementalBlockReportManager only; BPServiceActor.Scheduler at 2f3cdd76 is not in the stored sources (DESIGN-NOTES RR-2), so no trunk verdict is known to depend on a difference.",
        not_run: None,
    },
    Premise {
        id: "RR_P2",
        upstream: "IncrementalBlockReportManager.clearIBRs",
        jar: JAR,
        statement: "clearIBRs takes no monitor (3.5.0 is before HDFS-17953): it completes while \
                    another thread holds the manager's monitor",
        cells: &["reregister/upstream/O4/loom", "reregister/P1/O4/loom"],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Differs on trunk (2f3cdd76: clearIBRs synchronized, HDFS-17953); every cell here is a report row, and the trunk rows hold that change as the part HDFS-17953 instead of resting on this premise.",
        not_run: None,
    },
    Premise {
        id: "RR_P3",
        upstream: "IncrementalBlockReportManager.putMissing",
        jar: JAR,
        statement: "putMissing does not check for a storage entry removed by clearIBRs: a failed \
                    IBR send after a clear throws NullPointerException and the drained blocks \
                    are not re-queued",
        cells: &[
            "reregister/upstream/O5/loom",
            "reregister/upstream/O5/steps",
            "reregister/P1/O5/loom",
            "reregister/P1/O5/steps",
        ],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Differs on trunk (2f3cdd76: putMissing skips a storage whose entry is gone, HDFS-17953); every cell here is a report row (trunk/O5 unreachable rests on the modelled change, rendered in the fix layer as HDFS17953).",
        not_run: None,
    },
    Premise {
        id: "RR_P4",
        upstream: "BPServiceActor.reRegister",
        jar: JAR,
        statement: "reRegister calls clearIBRs only when the actor last saw the NameNode STANDBY \
                    or OBSERVER (not for ACTIVE, not before any heartbeat)",
        cells: &[
            "reregister/upstream/O1/loom",
            "reregister/upstream/O1/steps",
            "reregister/upstream/O3/loom",
            "reregister/upstream/O3/steps",
            "reregister/upstream/O2/loom",
            "reregister/upstream/O2/steps",
        ],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Trunk's BPServiceActor.reRegister is not in the stored sources at 2f3cdd76 (RR-2); HDFS-17953 does not touch it, and every cell here is a report row.",
        not_run: None,
    },
    Premise {
        id: "RR_P5",
        upstream: "BPServiceActor.register",
        jar: JAR,
        statement: "reRegister -> register schedules an FBR due now with resetBlockReportTime = \
                    true (dfs.blockreport.initialDelay 0), then a heartbeat due now",
        cells: &[
            "reregister/upstream/O2/loom",
            "reregister/upstream/O2/steps",
            "reregister/P1/O2/loom",
            "reregister/P1/O2/steps",
            "reregister/P1/O3/loom",
            "reregister/P1/O3/steps",
        ],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Trunk's BPServiceActor.register is not in the stored sources at 2f3cdd76 (RR-2); HDFS-17953 does not touch it. The trunk+P1 cells that rest on it assume trunk's register as 3.5.0's, as the model does.",
        not_run: None,
    },
    Premise {
        id: "RR_P6",
        upstream: "FSNamesystem.handleHeartbeat",
        jar: JAR,
        statement: "a DataNode the NameNode marked dead but kept gets DNA_REGISTER and a full \
                    block report lease in one heartbeat answer",
        cells: &[
            "reregister/upstream/O6/loom",
            "reregister/upstream/O6/steps",
            "reregister/P3/O6/loom",
            "reregister/P3/O6/steps",
        ],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. FSNamesystem/DatanodeManager.handleHeartbeat were read for the model from trunk-era copies (DESIGN-NOTES) with the same REGISTER and lease behaviour; every cell here is a report row.",
        not_run: None,
    },
    Premise {
        id: "RR_P7",
        upstream: "BlockManager.processReport",
        jar: JAR,
        statement: "in startup safe mode processReport discards a leased second full block \
                    report of a storage (count unchanged, the RPC returns normally), and \
                    updateRegInfo's reset lets the next report through (RR-3, modelled)",
        cells: &[
            "reregister/P1/O3/loom",
            "reregister/P1/O3/steps",
            "reregister/trunk+P1/O3/loom",
            "reregister/trunk+P1/O3/steps",
            "reregister/P1/O2/loom",
            "reregister/P1/O2/steps",
            "reregister/P1/O6/loom",
            "reregister/P1/O6/steps",
            "reregister/proposed/O2/loom",
            "reregister/proposed/O2/steps",
            "reregister/proposed/O6/loom",
            "reregister/proposed/O6/steps",
        ],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. The trunk+P1 cells rest on trunk's BlockManager.processReport, read for the model from a trunk-era copy found by its text (DESIGN-NOTES), with the same startup-safe-mode discard; not compared at 2f3cdd76 itself.",
        not_run: None,
    },
    Premise {
        id: "RR_P8",
        upstream: "NameNodeRpcServer.blockReport",
        jar: JAR,
        statement: "an FBR from a DataNode the NameNode does not know is answered with \
                    RegisterCommand.REGISTER (the RPC returns normally)",
        cells: &["reregister/P3/O6/loom", "reregister/P3/O6/steps"],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. The model follows trunk's NameNodeRpcServer.blockReport (REGISTER for an unknown node) on both baselines; this premise shows 3.5.0 has it too, so no verdict depends on a difference.",
        not_run: None,
    },
    Premise {
        id: "RR_P9",
        upstream: "NameNodeRpcServer.blockReport",
        jar: JAR,
        statement: "an FBR with a lease the NameNode did not grant is rejected with \
                    InvalidBlockReportLeaseException and nothing is processed",
        cells: &["reregister/P1/O6/loom", "reregister/P1/O6/steps"],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Trunk's lease check in NameNodeRpcServer.blockReport is the one the model follows; 3.5.0 has it too (this premise).",
        not_run: None,
    },
    Premise {
        id: "RR_O5",
        upstream: "IncrementalBlockReportManager.putMissing",
        jar: JAR,
        statement: "replay, every headline row: a writer's notifyNamenodeBlock; the actor \
                    thread's sendIBRs drains X and its blockReceivedAndDeleted is held by the \
                    NameNode proxy; the command thread's reRegister (NameNode last seen STANDBY: \
                    clearIBRs, register); the RPC then fails and putMissing runs (O5: \
                    NullPointerException, X in no pending IBR)",
        cells: &[],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no difference for the report rows. Trunk rows run on 3.5.0's classes with HDFS-17953 rendered by the fix layer from the model's description of it (synchronized clear, null-safe putMissing), not trunk's code; their J verdicts rest on that rendering.",
        not_run: None,
    },
    Premise {
        id: "RR_O3",
        upstream: "BPServiceActor.blockReport",
        jar: JAR,
        statement: "replay, every headline row (the order of upstream.O3.scn, \
                    double-register/standby): REG1 done, REG2 queued (both answered to heartbeats \
                    sent under the first registration); the real offerService loop gets a lease \
                    and blockReport snapshots and is processed by the NameNode; a writer \
                    finalizes X and notifies; REG2's reRegister on the real command thread \
                    (clearIBRs, registerDatanode, register) ends; then the FBR's RPC returns and \
                    scheduleNextBlockReport runs; three heartbeats of quiescence (O1, O2, O3, O8)",
        cells: &[],
        versus_baseline: REPLAY_CLASSES,
        not_run: None,
    },
    Premise {
        id: "RR_O2",
        upstream: "BPServiceActor.reRegister",
        jar: JAR,
        statement: "replay, every headline row: RR_O3's order (REG1 done, REG2 queued; the real \
                    loop's FBR snapshots and is processed; a writer finalizes X and notifies; \
                    REG2's reRegister on the real command thread ends; the FBR returns and \
                    scheduleNextBlockReport runs; three heartbeats of quiescence) with the \
                    NameNode last seen ACTIVE (double-register/active): reRegister does not \
                    clear the pending IBRs, and REG2's FBR request is still lost (O2, O8)",
        cells: &[],
        versus_baseline: REPLAY_CLASSES,
        not_run: None,
    },
    Premise {
        id: "RR_O9",
        upstream: "BPOfferService.notifyNamenodeReceivedBlock",
        jar: JAR,
        statement: "replay, every headline row (double-register/two-namenodes): a real \
                    BPOfferService with two real actors; nn0 ACTIVE keeps the DataNode; nn1, \
                    restarted STANDBY, goes through RR_O3's order (the writer's notification \
                    queues X for both actors; REG2's reRegister clears nn1's); both real loops \
                    run to quiescence (O9)",
        cells: &[],
        versus_baseline: REPLAY_CLASSES,
        not_run: None,
    },
    Premise {
        id: "RR_O6",
        upstream: "BPServiceActor.blockReport",
        jar: JAR,
        statement: "replay, every headline row (single-register/standby, the dead-node path): \
                    one heartbeat answer carries REGISTER and a lease; the real loop's \
                    blockReport drains and snapshots; a writer finalizes X and notifies; the \
                    real command thread's reRegister (clearIBRs, registerDatanode, register) \
                    ends; then the NameNode processes the FBR and scheduleNextBlockReport runs; \
                    three heartbeats of quiescence (O6)",
        cells: &[],
        versus_baseline: "The jar is the report baseline's release (rel/release-3.5.0): no \
                          difference for the report rows. Trunk rows run on 3.5.0's classes \
                          with HDFS-17953 rendered by the fix layer; trunk's BPServiceActor and \
                          Scheduler at 2f3cdd76 are not in the stored sources (RR-2) and are \
                          assumed equal to 3.5.0's, as the model does.",
        not_run: None,
    },
];
