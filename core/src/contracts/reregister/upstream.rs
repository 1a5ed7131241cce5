//! Where reregister's steps are upstream: Hadoop at the report baseline 0405974e (full id
//! 0405974e1f066ea4e4f1631fa7aecd7c8f9552fd, the commit the search index's `read_file` names for
//! IncrementalBlockReportManager.java). apache/hadoop is reachable here only as pages of text
//! without line numbers, so only IncrementalBlockReportManager (a short file, counted by hand
//! from the page) has lines; every other step links to its class's file at that commit. See
//! [`crate::upstream`].
//!
//! The tree at 0405974e is older than the code the model follows (see
//! `CommandProcessingThread.enqueue` below): it has no CommandProcessingThread, its Scheduler
//! holds `volatile long` times and `scheduleBlockReport(long delay)`, and `reRegister`
//! clears the IBRs only for a standby NameNode (HDFS-9917).

use crate::model::REPORT;
use crate::upstream::{Class, Line, Lines, Sources, Unlinked};

/// Why a step of a long file has no line.
const NOT_READ: &str = "line not read: apache/hadoop is served here as pages of text without \
                        line numbers; the step links to its class's file at 0405974e";

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
                method: "IncrementalBlockReportManager.generateIBRs",
                line: 165,
            },
            Line {
                method: "IncrementalBlockReportManager.putMissing",
                line: 186,
            },
            Line {
                method: "IncrementalBlockReportManager.notifyNamenodeBlock",
                line: 259,
            },
            Line {
                method: "IncrementalBlockReportManager.clearIBRs",
                line: 296,
            },
        ],
    }],
    unlinked: &[
        Unlinked {
            method: "FSNamesystem.handleHeartbeat",
            why: NOT_READ,
        },
        Unlinked {
            method: "CommandProcessingThread.enqueue",
            why: "not at 0405974e: BPServiceActor has no CommandProcessingThread there (HDFS-14997, \
                  Hadoop 3.3, added it); commands run on the actor thread through \
                  BPServiceActor.processCommand and BPOfferService.processCommandFromActor",
        },
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
        Unlinked { method: "BPOfferService.processCommandFromActor", why: NOT_READ },
        Unlinked { method: "BPServiceActor.blockReport", why: NOT_READ },
        Unlinked { method: "BPServiceActor.reRegister", why: NOT_READ },
        Unlinked { method: "BPServiceActor.register", why: NOT_READ },
        Unlinked { method: "BPServiceActor.retrieveNamespaceInfo", why: NOT_READ },
        Unlinked { method: "Scheduler.scheduleBlockReport", why: NOT_READ },
        Unlinked { method: "Scheduler.scheduleHeartbeat", why: NOT_READ },
        Unlinked { method: "Scheduler.scheduleNextBlockReport", why: NOT_READ },
        Unlinked { method: "BlockManager.processReport", why: NOT_READ },
        Unlinked { method: "DatanodeManager.handleHeartbeat", why: NOT_READ },
        Unlinked { method: "DatanodeManager.registerDatanode", why: NOT_READ },
        Unlinked { method: "DatanodeManager.removeDeadDatanode", why: NOT_READ },
        Unlinked { method: "FsDatasetImpl.finalizeBlock", why: NOT_READ },
        Unlinked { method: "FsDatasetImpl.getBlockReports", why: NOT_READ },
        Unlinked { method: "NameNodeRpcServer.blockReceivedAndDeleted", why: NOT_READ },
        Unlinked { method: "NameNodeRpcServer.blockReport", why: NOT_READ },
    ],
};
