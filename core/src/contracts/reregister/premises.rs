//! The statements about hadoop-hdfs that this model rests on, each checked by a JUnit test of
//! the same id in `conformance/hdfs` (see [`crate::premises`]).
use crate::premises::{Premise, UNCOMPARED};

const JAR: &str = "hadoop-hdfs 3.5.0";

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
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RR_P2",
        upstream: "IncrementalBlockReportManager.clearIBRs",
        jar: JAR,
        statement: "clearIBRs takes no monitor (3.5.0 is before HDFS-17953): it completes while \
                    another thread holds the manager's monitor",
        cells: &["reregister/upstream/O4/loom", "reregister/P1/O4/loom"],
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
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
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RR_P8",
        upstream: "NameNodeRpcServer.blockReport",
        jar: JAR,
        statement: "an FBR from a DataNode the NameNode does not know is answered with \
                    RegisterCommand.REGISTER (the RPC returns normally)",
        cells: &["reregister/P3/O6/loom", "reregister/P3/O6/steps"],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RR_P9",
        upstream: "NameNodeRpcServer.blockReport",
        jar: JAR,
        statement: "an FBR with a lease the NameNode did not grant is rejected with \
                    InvalidBlockReportLeaseException and nothing is processed",
        cells: &["reregister/P1/O6/loom", "reregister/P1/O6/steps"],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "RR_O5",
        upstream: "IncrementalBlockReportManager.putMissing",
        jar: JAR,
        statement: "replay: O5 is reached on the real classes with real threads (reRegister's \
                    clearIBRs during a failed IBR RPC; putMissing throws NullPointerException; \
                    the block is not re-queued)",
        cells: &[
            "reregister/upstream/O5/loom",
            "reregister/upstream/O5/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
];
