package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.Arrays;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.InvalidBlockReportLeaseException;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import racelab.conformance.Premise;

/**
 * reregister (HDFS-17969): the NameNode-side premises of the model, on a MiniDFSCluster of
 * hadoop-hdfs 3.5.0. The DataNode's own actor is stopped (or left alone) and the RPCs a premise
 * is about are sent by the test, with the DataNode's registration. Written for racelab; nothing
 * here is copied from upstream.
 *
 * <p>One cluster for the class (a cluster start is most of a test's time): one NameNode and
 * three DataNodes, one per test that stops or kills its DataNode, so no test sees another's.
 * dfs.namenode.safemode.min.datanodes = 4 holds the NameNode in startup safe mode, which RR_P7
 * (ordered first) checks; the tests after it leave safe mode first, as a NameNode with all its
 * DataNodes would (HeartbeatManager does not remove dead nodes in startup safe mode).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class ReregisterNameNodePremisesTest {

  private MiniDFSCluster cluster;
  /** The DataNodes by the test that owns them (their registrations, taken at start). */
  private DataNode forP6;
  private DataNode forP7;
  private DataNode forP9;

  @BeforeAll
  public void startCluster() throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_KEY, 4);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(3).waitSafeMode(false).build();
    cluster.waitActive();
    forP6 = cluster.getDataNodes().get(0);
    forP7 = cluster.getDataNodes().get(1);
    forP9 = cluster.getDataNodes().get(2);
  }

  @AfterAll
  public void shutdown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private void stop(DataNode dn) {
    if (cluster.stopDataNode(dn.getDatanodeId().getXferAddr()) == null) {
      throw new AssertionError("no such DataNode " + dn.getDatanodeId());
    }
  }

  private void leaveSafeMode() throws Exception {
    cluster.getNameNodeRpc().setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE, false);
  }

  /**
   * A heartbeat as the DataNode would send it: its storages as the NameNode knows them (a
   * heartbeat without them would make the NameNode prune the storages it does not mention).
   */
  private HeartbeatResponse heartbeat(NamenodeProtocols rpc, DatanodeRegistration reg,
      boolean requestLease) throws Exception {
    DatanodeDescriptor d = cluster.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanode(reg);
    StorageReport[] reports = d == null ? new StorageReport[0]
        : Arrays.stream(d.getStorageInfos()).map(DatanodeStorageInfo::toStorageReport)
            .toArray(StorageReport[]::new);
    return rpc.sendHeartbeat(reg, reports, 0, 0, 0, 0, 0, null, requestLease,
        SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT);
  }

  /** The NameNode's current object for a storage (looked up again: never a stale one). */
  private static DatanodeStorageInfo storageOf(DatanodeDescriptor d, String id) {
    DatanodeStorageInfo s = d.getStorageInfo(id);
    if (s == null) {
      throw new AssertionError("storage " + id + " is gone from " + d);
    }
    return s;
  }

  private static boolean hasRegister(DatanodeCommand[] cmds) {
    return cmds != null && Arrays.stream(cmds)
        .anyMatch(c -> c.getAction() == DatanodeProtocol.DNA_REGISTER);
  }

  private static StorageBlockReport[] emptyReport(DatanodeStorageInfo storage) {
    return new StorageBlockReport[] {
        new StorageBlockReport(new DatanodeStorage(storage.getStorageID()),
            BlockListAsLongs.EMPTY)};
  }

  private static void waitFor(java.util.function.BooleanSupplier cond, String what)
      throws InterruptedException {
    long end = System.currentTimeMillis() + 60_000;
    while (!cond.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  /**
   * RR-P6: a DataNode the NameNode marked dead but kept gets REGISTER and a full-block-report
   * lease in one heartbeat answer (the model's single-registration race, O6).
   */
  @Test
  @Order(2)
  public void RR_P6_registerAndLeaseInOneHeartbeatAnswer() throws Exception {
    leaveSafeMode();
    DataNode dn = forP6;
    String bpid = cluster.getNamesystem().getBlockPoolId();
    DatanodeRegistration reg = dn.getDNRegistrationForBP(bpid);
    stop(dn);
    BlockManager bm = cluster.getNamesystem().getBlockManager();
    DatanodeDescriptor d = bm.getDatanodeManager().getDatanode(reg);
    DFSTestUtil.setDatanodeDead(d);
    BlockManagerTestUtil.checkHeartbeat(bm);
    boolean kept = bm.getDatanodeManager().getDatanode(reg) != null;
    HeartbeatResponse resp = heartbeat(cluster.getNameNodeRpc(), reg, true);
    boolean register = hasRegister(resp.getCommands());
    long lease = resp.getFullBlockReportLeaseId();
    Premise.check(
        "FSNamesystem.handleHeartbeat answers a DataNode it marked dead (descriptor kept) with "
            + "DNA_REGISTER and, in the same answer, a full block report lease",
        kept && register && lease != 0,
        "descriptor kept=" + kept + ", REGISTER=" + register + ", lease=0x"
            + Long.toHexString(lease));
  }

  /**
   * RR-P7 (the audit's RR-3): in startup safe mode (a restarted NameNode; here held there by
   * dfs.namenode.safemode.min.datanodes = 4 with three DataNodes), BlockManager.processReport
   * discards a leased full block report of a storage that has already reported, and a
   * re-registration resets the count so that the next report is processed. Runs first: once
   * left, startup safe mode does not come back.
   */
  @Test
  @Order(1)
  public void RR_P7_startupSafeModeDiscardsASecondReportUntilReregistration() throws Exception {
    if (!cluster.getNamesystem().isInStartupSafeMode()) {
      throw new IllegalStateException("RR_P7 needs the NameNode in startup safe mode (run it "
          + "first in its class)");
    }
    String bpid = cluster.getNamesystem().getBlockPoolId();
    DataNode dn = forP7;
    DatanodeRegistration reg = dn.getDNRegistrationForBP(bpid);
    BlockManager bm = cluster.getNamesystem().getBlockManager();
    DatanodeDescriptor d = bm.getDatanodeManager().getDatanode(reg);
    waitFor(() -> d.getStorageInfos().length > 0
        && d.getStorageInfos()[0].getBlockReportCount() > 0, "the registration FBR");
    // the DataNode's own actor stays quiet from here (its next FBR is hours away)
    stop(dn);
    String sid = d.getStorageInfos()[0].getStorageID();
    boolean startupSafeMode = cluster.getNamesystem().isInStartupSafeMode();
    int before = storageOf(d, sid).getBlockReportCount();
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    long lease = heartbeat(rpc, reg, true).getFullBlockReportLeaseId();
    rpc.blockReport(reg, bpid, emptyReport(storageOf(d, sid)),
        new BlockReportContext(1, 0, 42L, lease));
    int after = storageOf(d, sid).getBlockReportCount();
    // RR-3's other half: a re-registration resets the count, and the next report counts again
    rpc.registerDatanode(reg);
    int afterRegister = storageOf(d, sid).getBlockReportCount();
    long lease2 = heartbeat(rpc, reg, true).getFullBlockReportLeaseId();
    rpc.blockReport(reg, bpid, emptyReport(storageOf(d, sid)),
        new BlockReportContext(1, 0, 43L, lease2));
    int afterThird = storageOf(d, sid).getBlockReportCount();
    System.out.println("[racelab] RR-3: after re-registration blockReportCount=" + afterRegister
        + ", after the next report=" + afterThird);
    Premise.check(
        "In startup safe mode BlockManager.processReport discards a leased second full block "
            + "report of a storage (its count unchanged, the RPC returning normally), and a "
            + "re-registration resets the count so that the next report is processed",
        lease != 0 && startupSafeMode && before > 0 && after == before && afterRegister == 0
            && afterThird == 1,
        "startup safe mode=" + startupSafeMode + ", lease=0x" + Long.toHexString(lease)
            + ", storage blockReportCount before=" + before + ", after a second leased report="
            + after + (after == before ? " (discarded)" : "") + "; after re-registration="
            + afterRegister + ", after the next report=" + afterThird + ", storages="
            + d.getStorageInfos().length);
  }

  /** RR-P8 (trunk's lease check, in 3.5.0): an FBR from a node the NameNode does not know. */
  @Test
  @Order(3)
  public void RR_P8_blockReportFromUnknownNodeAnswersRegister() throws Exception {
    leaveSafeMode();
    String bpid = cluster.getNamesystem().getBlockPoolId();
    DatanodeRegistration known = forP9.getDNRegistrationForBP(bpid);
    DatanodeID id = new DatanodeID(known.getIpAddr(), known.getHostName(),
        UUID.randomUUID().toString(), known.getXferPort(), known.getInfoPort(),
        known.getInfoSecurePort(), known.getIpcPort());
    DatanodeRegistration unknown = new DatanodeRegistration(id, known.getStorageInfo(),
        known.getExportedKeys(), known.getSoftwareVersion());
    DatanodeCommand answer = cluster.getNameNodeRpc().blockReport(unknown, bpid,
        new StorageBlockReport[] {new StorageBlockReport(new DatanodeStorage("s-unknown"),
            BlockListAsLongs.EMPTY)},
        new BlockReportContext(1, 0, 7L, 0x1234L));
    boolean register = answer != null && answer.getAction() == DatanodeProtocol.DNA_REGISTER;
    Premise.check(
        "NameNodeRpcServer.blockReport answers an FBR from a DataNode it does not know with "
            + "RegisterCommand.REGISTER (the RPC returns normally)",
        register, "answer=" + (answer == null ? "null" : "action " + answer.getAction()));
  }

  /** RR-P9 (trunk's lease check, in 3.5.0): an FBR with a lease the NameNode did not grant. */
  @Test
  @Order(4)
  public void RR_P9_staleLeaseIsRejected() throws Exception {
    leaveSafeMode();
    String bpid = cluster.getNamesystem().getBlockPoolId();
    DataNode dn = forP9;
    DatanodeRegistration reg = dn.getDNRegistrationForBP(bpid);
    DatanodeDescriptor d = cluster.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanode(reg);
    waitFor(() -> d.getStorageInfos().length > 0
        && d.getStorageInfos()[0].getBlockReportCount() > 0, "the registration FBR");
    stop(dn);
    DatanodeStorageInfo storage = d.getStorageInfos()[0];
    int before = storage.getBlockReportCount();
    Throwable thrown = null;
    try {
      cluster.getNameNodeRpc().blockReport(reg, bpid, emptyReport(storage),
          new BlockReportContext(1, 0, 9L, 0xdeadbeefL));
    } catch (Throwable t) {
      thrown = t;
    }
    boolean rejected = thrown instanceof InvalidBlockReportLeaseException;
    Premise.check(
        "NameNodeRpcServer.blockReport rejects an FBR whose lease the NameNode did not grant "
            + "with InvalidBlockReportLeaseException, and processes nothing",
        rejected && storage.getBlockReportCount() == before,
        "threw " + thrown + ", blockReportCount " + before + " -> "
            + storage.getBlockReportCount());
  }
}
