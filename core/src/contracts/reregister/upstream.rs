//! Where reregister's steps are upstream: Hadoop 3.5.0 (tag rel/release-3.5.0), the report
//! baseline, whose lines were read from the released hadoop-hdfs 3.5.0 sources jar (Maven
//! Central, the jar the premises run on). See [`crate::upstream`].
//!
//! An earlier baseline, 0405974e, was a tree older than the code the model follows: it has no
//! CommandProcessingThread, its Scheduler holds `volatile long` times and
//! `scheduleBlockReport(long delay)`, and `reRegister` clears the IBRs only for a standby
//! NameNode (HDFS-9917). 3.5.0 has all of these as the model has them (premises RR_P1..RR_P5).

use crate::model::REPORT;
use crate::upstream::{Class, Line, Lines, Sources, Unlinked};

pub static SOURCES: Sources = Sources {
    classes: &[
        Class::new("IncrementalBlockReportManager", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/IncrementalBlockReportManager.java"),
        Class::new("BPServiceActor", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/BPServiceActor.java"),
        // BPServiceActor.Scheduler, a nested class.
        Class::new("Scheduler", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/BPServiceActor.java"),
        // BPServiceActor.CommandProcessingThread in later trees; not at 0405974e.
        Class::new("CommandProcessingThread", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/BPServiceActor.java"),
        Class::new("BPOfferService", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/BPOfferService.java"),
        Class::new("FsDatasetImpl", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/fsdataset/impl/FsDatasetImpl.java"),
        Class::new("FSNamesystem", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/FSNamesystem.java"),
        Class::new("NameNode", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/NameNode.java"),
        Class::new("NameNodeRpcServer", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/NameNodeRpcServer.java"),
        Class::new("BlockManager", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/blockmanagement/BlockManager.java"),
        Class::new("DatanodeManager", "hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/blockmanagement/DatanodeManager.java"),
    ],
    lines: &[Lines {
        baseline: REPORT,
        lines: &[
            Line {
                method: "BPOfferService.processCommandFromActor",
                line: 671,
            },
            Line {
                method: "BPServiceActor.blockReport",
                line: 387,
            },
            Line {
                method: "BPServiceActor.reRegister",
                line: 967,
            },
            Line {
                method: "BPServiceActor.register",
                line: 838,
            },
            Line {
                method: "BPServiceActor.retrieveNamespaceInfo",
                line: 258,
            },
            Line {
                method: "BlockManager.processReport",
                line: 2909,
            },
            Line {
                method: "CommandProcessingThread.enqueue",
                line: 1486,
            },
            Line {
                method: "DatanodeManager.handleHeartbeat",
                line: 1853,
            },
            Line {
                method: "DatanodeManager.registerDatanode",
                line: 1185,
            },
            Line {
                method: "DatanodeManager.removeDeadDatanode",
                line: 918,
            },
            Line {
                method: "FSNamesystem.handleHeartbeat",
                line: 4477,
            },
            Line {
                method: "FsDatasetImpl.finalizeBlock",
                line: 2000,
            },
            Line {
                method: "FsDatasetImpl.getBlockReports",
                line: 2146,
            },
            Line {
                method: "IncrementalBlockReportManager.clearIBRs",
                line: 299,
            },
            Line {
                method: "IncrementalBlockReportManager.generateIBRs",
                line: 165,
            },
            Line {
                method: "IncrementalBlockReportManager.notifyNamenodeBlock",
                line: 262,
            },
            Line {
                method: "IncrementalBlockReportManager.putMissing",
                line: 186,
            },
            Line {
                method: "NameNodeRpcServer.blockReceivedAndDeleted",
                line: 1701,
            },
            Line {
                method: "NameNodeRpcServer.blockReport",
                line: 1643,
            },
            Line {
                method: "Scheduler.scheduleBlockReport",
                line: 1298,
            },
            Line {
                method: "Scheduler.scheduleHeartbeat",
                line: 1220,
            },
            Line {
                method: "Scheduler.scheduleNextBlockReport",
                line: 1318,
            },
        ],
    }],
    unlinked: &[
        Unlinked {
            method: "NameNode.restart",
            why: "the model's name for a NameNode process restart: no such method upstream \
                  (NameNode's lifecycle is its constructor/initialize and stop)",
        },
        Unlinked {
            method: "NameNode.transitionTo",
            why: "the model's name: upstream has NameNode.transitionToActive and \
                  NameNode.transitionToStandby (and NameNodeRpcServer's of the same names)",
        },
    ],
};
