package org.apache.hadoop.hdfs.server.datanode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs.BlockReportReplica;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NNHAStatusHeartbeat;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo.BlockStatus;
import org.apache.hadoop.hdfs.server.protocol.RegisterCommand;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;

/**
 * The model's NameNode (namenode.rs: DatanodeManager, BlockReportLeaseManager, processReport
 * with startup safe mode) as the DataNode code under test sees it through its RPCs: racelab's
 * own rules, no Mockito, so that both the replays (ReregisterWiring.FakeNameNode, behind a
 * Mockito proxy) and the Lincheck searches (ReregisterMissingSearches, behind a translator
 * subclass; Mockito mocks cannot be called inside Lincheck's block) answer by the same rules.
 */
class ReregisterNameNode {
  final int id;
  HAServiceState ha;
  boolean known;
  boolean alive;
  final Set<Long> located = new TreeSet<>();
  int blockReportCount;
  long lease;
  long nextLease = 1;
  boolean startupSafeMode;
  boolean failNextIbr;
  int heartbeats;
  int registrations;
  final List<String> log = new ArrayList<>();

  ReregisterNameNode(int id, HAServiceState ha) {
    this.id = id;
    this.ha = ha;
  }

  /** The exception an RPC fails with (a subclass may hand out one made beforehand). */
  IOException failure(String message) {
    return new IOException(message);
  }

  synchronized void restart() {
    known = false;
    alive = false;
    located.clear();
    lease = 0;
    startupSafeMode = true;
    log.add("restart: empty datanode map, startup safe mode");
  }

  synchronized void markDead() {
    alive = false;
    located.clear();
    lease = 0;
    log.add("heartbeatCheck: dead, descriptor kept, locations removed");
  }

  synchronized HeartbeatResponse heartbeat(boolean requestLease) {
    heartbeats++;
    boolean register = !(known && alive);
    long granted = 0;
    if (requestLease && known) {
      granted = nextLease++;
      lease = granted;
    }
    log.add("heartbeat: " + (register ? "REGISTER" : "-") + " lease " + granted + " " + ha);
    notifyAll();
    DatanodeCommand[] cmds =
        register ? new DatanodeCommand[] {RegisterCommand.REGISTER} : new DatanodeCommand[0];
    return new HeartbeatResponse(cmds, new NNHAStatusHeartbeat(ha, 0), null, granted);
  }

  synchronized void registerDatanode() {
    registrations++;
    if (known) {
      blockReportCount = 0;
      alive = true;
      log.add("registerDatanode: known node (updateRegInfo)");
    } else {
      known = true;
      alive = true;
      blockReportCount = 0;
      log.add("registerDatanode: new node");
    }
  }

  synchronized DatanodeCommand blockReport(long leaseId, StorageBlockReport[] reports)
      throws IOException {
    Set<Long> blocks = new TreeSet<>();
    for (StorageBlockReport r : reports) {
      // a loop, not a lambda: the searches call this inside Lincheck's block
      for (BlockReportReplica b : r.getBlocks()) {
        blocks.add(b.getBlockId());
      }
    }
    if (!known) {
      log.add("blockReport " + blocks + ": unknown node -> REGISTER");
      return RegisterCommand.REGISTER;
    }
    if (!(leaseId == 0 || (lease != 0 && lease == leaseId))) {
      log.add("blockReport " + blocks + ": invalid lease " + leaseId);
      throw failure("InvalidBlockReportLeaseException (fake NameNode)");
    }
    if (!alive) {
      log.add("blockReport " + blocks + ": unregistered");
      throw failure("UnregisteredNodeException (fake NameNode)");
    }
    lease = 0;
    if (startupSafeMode && blockReportCount > 0) {
      log.add("blockReport " + blocks + ": discarded (startup safe mode, not the first)");
      return null;
    }
    located.clear();
    located.addAll(blocks);
    blockReportCount++;
    log.add("blockReport " + blocks + ": processed");
    return null;
  }

  void ibr(StorageReceivedDeletedBlocks[] reports) throws IOException {
    Set<Long> blocks = new TreeSet<>();
    for (StorageReceivedDeletedBlocks s : reports) {
      for (ReceivedDeletedBlockInfo i : s.getBlocks()) {
        if (i.getStatus() == BlockStatus.RECEIVED_BLOCK) {
          blocks.add(i.getBlock().getBlockId());
        }
      }
    }
    synchronized (this) {
      if (failNextIbr) {
        failNextIbr = false;
        log.add("blockReceivedAndDeleted " + blocks + ": timed out");
        throw failure("blockReceivedAndDeleted timed out (fake NameNode busy)");
      }
      if (alive) {
        located.addAll(blocks);
        log.add("blockReceivedAndDeleted " + blocks + ": added");
      } else {
        log.add("blockReceivedAndDeleted " + blocks + ": dropped, node not registered");
      }
    }
  }

  synchronized boolean locates(long block) {
    return located.contains(block);
  }
}
