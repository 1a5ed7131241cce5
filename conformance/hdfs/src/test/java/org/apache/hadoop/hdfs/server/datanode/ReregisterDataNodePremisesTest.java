package org.apache.hadoop.hdfs.server.datanode;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo.BlockStatus;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;

/**
 * reregister (HDFS-17969): the DataNode-side premises of the model, on the classes of
 * hadoop-hdfs 3.5.0. In this package because Scheduler, IncrementalBlockReportManager and the
 * reRegister path are package-private. Written for racelab; nothing here is copied from upstream.
 */
public class ReregisterDataNodePremisesTest {

  private static final long SIX_HOURS = 6L * 3600 * 1000;

  static ReceivedDeletedBlockInfo received(long id) {
    return new ReceivedDeletedBlockInfo(new Block(id, 1024, 1001), BlockStatus.RECEIVED_BLOCK,
        null);
  }

  static int pendingBlocks(IncrementalBlockReportManager ibr) {
    // generateIBRs is private; count through the map's storages instead
    return ibr.getPendingIBRSize();
  }

  /** RR-P1: the in-flight FBR's scheduleNextBlockReport overwrites a registration's request. */
  @Test
  public void RR_P1_schedulerOverwritesPendingFbr() {
    BPServiceActor.Scheduler s = new BPServiceActor.Scheduler(3000, 0, SIX_HOURS, 1800_000);
    // register(): scheduleBlockReport(initialBlockReportDelayMs = 0, isRegistration = true)
    s.scheduleBlockReport(0, true);
    long tReg = Time.monotonicNow();
    boolean dueAfterRegister = s.isBlockReportDue(tReg);
    boolean resetAfterRegister = s.resetBlockReportTime;
    // the FBR that was already in its RPC returns: blockReport() -> scheduleNextBlockReport()
    s.scheduleNextBlockReport();
    long now = Time.monotonicNow();
    long next = s.getNextBlockReportTime();
    boolean dueAfterReschedule = s.isBlockReportDue(now);
    // the same with a non-registration request (forceFullBlockReportNow-free path): the periodic
    // branch also moves a request that is due now a whole interval on
    s.scheduleBlockReport(0, false);
    s.scheduleNextBlockReport();
    boolean dueAfterPeriodic = s.isBlockReportDue(Time.monotonicNow());
    Premise.check(
        "Scheduler.scheduleNextBlockReport, run by an FBR that started before a registration, "
            + "moves the FBR the registration requested (due now) to a random time up to the "
            + "interval later and consumes resetBlockReportTime",
        dueAfterRegister && resetAfterRegister && !dueAfterReschedule
            && !s.resetBlockReportTime && next <= now + SIX_HOURS && !dueAfterPeriodic,
        "due after register=" + dueAfterRegister + ", reset after register=" + resetAfterRegister
            + ", due after scheduleNextBlockReport=" + dueAfterReschedule + " (next in "
            + (next - now) + " ms), reset after=" + s.resetBlockReportTime
            + ", due after the periodic branch=" + dueAfterPeriodic);
  }

  /** RR-P2: clearIBRs takes no monitor (3.5.0 is before HDFS-17953). */
  @Test
  public void RR_P2_clearIbrsTakesNoMonitor() throws Exception {
    IncrementalBlockReportManager ibr =
        new IncrementalBlockReportManager(0, mock(DataNodeMetrics.class));
    DatanodeStorage storage = new DatanodeStorage("s1");
    ibr.notifyNamenodeBlock(received(1), storage, false);
    CountDownLatch cleared = new CountDownLatch(1);
    Thread command = new Thread(() -> {
      ibr.clearIBRs();
      cleared.countDown();
    }, "command-processor");
    boolean returnedWhileMonitorHeld;
    // a writer (or generateIBRs) holds the manager's monitor
    synchronized (ibr) {
      command.start();
      returnedWhileMonitorHeld = cleared.await(5, TimeUnit.SECONDS);
    }
    command.join();
    boolean isSynchronized = java.lang.reflect.Modifier.isSynchronized(
        IncrementalBlockReportManager.class.getDeclaredMethod("clearIBRs").getModifiers());
    Premise.check(
        "IncrementalBlockReportManager.clearIBRs takes no monitor: it completes while another "
            + "thread holds the manager's monitor (the unsynchronized clear of HDFS-17953's "
            + "before-side)",
        returnedWhileMonitorHeld && !isSynchronized && ibr.getPendingIBRSize() == 0,
        "returned while the monitor was held=" + returnedWhileMonitorHeld
            + ", declared synchronized=" + isSynchronized);
  }

  /** RR-P3: putMissing does not check for a storage entry that a clear removed. */
  @Test
  public void RR_P3_putMissingDoesNotCheckForNull() throws Exception {
    IncrementalBlockReportManager ibr =
        new IncrementalBlockReportManager(0, mock(DataNodeMetrics.class));
    DatanodeStorage storage = new DatanodeStorage("s1");
    ibr.notifyNamenodeBlock(received(7), storage, false);
    DatanodeProtocol nn = mock(DatanodeProtocol.class);
    // the IBR RPC fails, and while it was out a re-registration cleared the pending IBRs
    doAnswer(inv -> {
      ibr.clearIBRs();
      throw new IOException("NameNode unreachable");
    }).when(nn).blockReceivedAndDeleted(any(DatanodeRegistration.class), anyString(),
        any(StorageReceivedDeletedBlocks[].class));
    Throwable thrown = null;
    try {
      ibr.sendIBRs(nn, mock(DatanodeRegistration.class), "bp-1", "");
    } catch (Throwable t) {
      thrown = t;
    }
    boolean npe = thrown instanceof NullPointerException;
    Premise.check(
        "IncrementalBlockReportManager.putMissing does not check for a storage removed by "
            + "clearIBRs: a failed IBR send after a clear throws NullPointerException and the "
            + "drained blocks are not re-queued",
        npe && ibr.getPendingIBRSize() == 0,
        "sendIBRs threw " + thrown + ", pending storages after=" + ibr.getPendingIBRSize());
  }

  // ---- BPServiceActor, wired with mocks around the real actor, scheduler and IBR manager ----

  static final class Wired {
    final BPServiceActor actor;
    final DatanodeProtocolClientSideTranslatorPB nn;

    Wired() throws IOException {
      Configuration conf = new HdfsConfiguration();
      DataNode dn = mock(DataNode.class);
      when(dn.getConf()).thenReturn(conf);
      DNConf dnConf = new DNConf(dn);
      when(dn.getDnConf()).thenReturn(dnConf);
      when(dn.getMetrics()).thenReturn(mock(DataNodeMetrics.class));
      when(dn.shouldRun()).thenReturn(true);
      BPOfferService bpos = mock(BPOfferService.class);
      when(bpos.getDataNode()).thenReturn(dn);
      when(bpos.createRegistration()).thenReturn(mock(DatanodeRegistration.class));
      actor = new BPServiceActor("ns1", "nn1", new InetSocketAddress("127.0.0.1", 1),
          null, bpos);
      nn = mock(DatanodeProtocolClientSideTranslatorPB.class);
      when(nn.versionRequest()).thenReturn(new NamespaceInfo(1, "cid", "bp-1", 0));
      when(nn.registerDatanode(any(DatanodeRegistration.class)))
          .thenAnswer(inv -> inv.getArgument(0));
      actor.setNameNode(nn);
    }

    void stop() {
      actor.stop();
    }
  }

  /** RR-P4: reRegister clears the pending IBRs only when the NameNode was STANDBY/OBSERVER. */
  @Test
  public void RR_P4_reRegisterClearsOnlyForStandbyOrObserver() throws Exception {
    List<String> seen = new ArrayList<>();
    boolean asStated = true;
    for (HAServiceState state : new HAServiceState[] {null, HAServiceState.ACTIVE,
        HAServiceState.STANDBY, HAServiceState.OBSERVER}) {
      Wired w = new Wired();
      try {
        w.actor.state = state;
        w.actor.getIbrManager().notifyNamenodeBlock(received(3), new DatanodeStorage("s1"),
            false);
        w.actor.reRegister();
        boolean cleared = w.actor.getIbrManager().getPendingIBRSize() == 0;
        boolean expected = state == HAServiceState.STANDBY || state == HAServiceState.OBSERVER;
        asStated &= cleared == expected;
        seen.add(state + ":" + (cleared ? "cleared" : "kept"));
      } finally {
        w.stop();
      }
    }
    Premise.check(
        "BPServiceActor.reRegister calls clearIBRs only when the actor last saw the NameNode "
            + "STANDBY or OBSERVER",
        asStated, String.join(", ", seen));
  }

  /** RR-P5: register() (in reRegister) asks for an FBR due now, flagged as a registration. */
  @Test
  public void RR_P5_registerSchedulesFbrNow() throws Exception {
    Wired w = new Wired();
    try {
      BPServiceActor.Scheduler s = w.actor.getScheduler();
      s.setNextBlockReportTime(Time.monotonicNow() + SIX_HOURS);
      s.resetBlockReportTime = false;
      w.actor.reRegister();
      boolean due = s.isBlockReportDue(Time.monotonicNow());
      boolean heartbeatDue = s.isHeartbeatDue(Time.monotonicNow());
      Premise.check(
          "BPServiceActor.reRegister -> register schedules an FBR due now with "
              + "resetBlockReportTime = true (dfs.blockreport.initialDelay 0) and a heartbeat "
              + "due now",
          due && s.resetBlockReportTime && heartbeatDue,
          "FBR due=" + due + ", resetBlockReportTime=" + s.resetBlockReportTime
              + ", heartbeat due=" + heartbeatDue);
    } finally {
      w.stop();
    }
  }
}
