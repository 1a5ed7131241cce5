package org.apache.hadoop.hdfs.server.datanode;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo.BlockStatus;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.conformance.Threads;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.trace.Recorder;

/**
 * Replay of racelab's reregister O5 counterexample (HDFS-17969) on hadoop-hdfs 3.5.0, with real
 * threads: a writer finalizes block X (notifyNamenodeBlock); the actor thread's sendIBRs drains X
 * and its blockReceivedAndDeleted RPC is in flight; the command thread re-registers with a
 * NameNode last seen STANDBY (reRegister: clearIBRs, register); the RPC then fails, and
 * putMissing finds the storage entry gone.
 *
 * <p>The order is forced by latches in the collaborators only: the NameNode proxy's
 * blockReceivedAndDeleted blocks until the re-registration has returned, then throws. The
 * DataNode classes (BPServiceActor.reRegister, IncrementalBlockReportManager) are the released
 * ones. Outcome predicate (the model's O5): the actor's sendIBRs throws NullPointerException
 * from putMissing and X is in no pending IBR afterwards. On a tree with HDFS-17953
 * (putMissing skips a removed storage) the NPE is gone but X is still not re-queued.
 *
 * <p>Run on every headline row (racelab.fix.reregister.Rows). The command thread's REGISTER
 * reaches reRegister directly, as processCommandFromActor does for a REGISTER answered to a
 * heartbeat sent under the current registration: P3 keeps such a REGISTER, so its check is
 * not on this path (the model: P3/O5 reachable for that reason).
 */
public class ReplayReregisterO5Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O5_putMissingAfterConcurrentClearIBRs(Row row) throws Exception {
    FixLayer.run(row, () -> replay(row));
  }

  static void replay(Row row) throws Exception {
    Recorder.observe("reregister", racelab.trace.reregister.Probes.ALL);
    // --- a BPServiceActor around mocks (no threads of its own are started but its command
    // processor, which stays idle) ---
    Configuration conf = new HdfsConfiguration();
    DataNode dn = mock(DataNode.class);
    when(dn.getConf()).thenReturn(conf);
    DNConf dnConf = new DNConf(dn);
    when(dn.getDnConf()).thenReturn(dnConf);
    when(dn.getMetrics()).thenReturn(mock(DataNodeMetrics.class));
    when(dn.shouldRun()).thenReturn(true);
    BPOfferService bpos = mock(BPOfferService.class);
    when(bpos.getDataNode()).thenReturn(dn);
    DatanodeRegistration reg = mock(DatanodeRegistration.class);
    when(bpos.createRegistration()).thenReturn(reg);
    BPServiceActor actor =
        new BPServiceActor("ns1", "nn1", new InetSocketAddress("127.0.0.1", 1), null, bpos);
    DatanodeProtocolClientSideTranslatorPB nn = mock(DatanodeProtocolClientSideTranslatorPB.class);
    when(nn.versionRequest()).thenReturn(new NamespaceInfo(1, "cid", "bp-1", 0));
    when(nn.registerDatanode(any(DatanodeRegistration.class)))
        .thenAnswer(inv -> inv.getArgument(0));
    actor.setNameNode(nn);
    actor.state = HAServiceState.STANDBY; // the NameNode as the actor last saw it

    CountDownLatch ibrRpcInFlight = new CountDownLatch(1);
    CountDownLatch reRegistered = new CountDownLatch(1);
    doAnswer(inv -> {
      ibrRpcInFlight.countDown();
      if (!reRegistered.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the re-registration did not run");
      }
      throw new IOException("blockReceivedAndDeleted failed (NameNode restarting)");
    }).when(nn).blockReceivedAndDeleted(any(DatanodeRegistration.class), anyString(),
        any(StorageReceivedDeletedBlocks[].class));

    IncrementalBlockReportManager ibr = actor.getIbrManager();
    DatanodeStorage storage = new DatanodeStorage("DS-1");
    Block x = new Block(1001, 1024, 7);

    // 1. writer: X finalized
    Thread writer = new Thread(() -> {
      Recorder.act("DataXceiver:dn0");
      ibr.notifyNamenodeBlock(
          new ReceivedDeletedBlockInfo(x, BlockStatus.RECEIVED_BLOCK, null), storage, false);
      // The model's setup (scenario failed-ibr-vs-clear) is this write and the actor enqueueing
      // the REGISTER command; this harness calls reRegister itself, so the setup is not
      // compared: the trace starts with the actor's sendIBRs.
      Recorder.setupDone();
    }, "DataXceiver");
    writer.start();
    writer.join();

    // 2. actor thread: sendIBRs drains X, the RPC is in flight
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    racelab.trace.reregister.Probes.registrations = null;
    Thread actorThread = Threads.recording("BPServiceActor", actorThrew, () -> {
      Recorder.act(ReregisterWiring.actorThread(0));
      ibr.sendIBRs(nn, reg, "bp-1", "");
    });
    actorThread.start();
    if (!ibrRpcInFlight.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the IBR RPC never started");
    }

    // 3. command thread: DNA_REGISTER -> reRegister (clearIBRs for STANDBY, then register)
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    Thread command = Threads.recording("Command processor", commandThrew, () -> {
      Recorder.act(ReregisterWiring.commandThreadActor(0));
      actor.reRegister();
    }, reRegistered::countDown);
    command.start();
    command.join();

    // 4. the IBR RPC fails; putMissing runs on the actor thread
    actorThread.join(30_000);
    actor.stop();
    if (actorThread.isAlive() || commandThrew.get() != null) {
      throw new IllegalStateException("harness: the actor thread did not end, or reRegister "
          + "threw " + commandThrew.get());
    }

    Throwable t = actorThrew.get();
    if (t instanceof IllegalStateException) {
      throw new IllegalStateException("harness: " + t.getMessage(), t);
    }
    boolean npeInPutMissing = t instanceof NullPointerException
        && t.getStackTrace().length > 0
        && java.util.Arrays.stream(t.getStackTrace())
            .anyMatch(e -> e.getMethodName().equals("putMissing"));
    boolean xLost = ibr.getPendingIBRSize() == 0;
    boolean requeued = ibr.getPendingIBRSize() > 0;
    Replay.record("RR_O5", row, "O5", npeInPutMissing && xLost,
        "sendIBRs threw " + t + "; X re-queued=" + requeued + " (pending storages after="
            + ibr.getPendingIBRSize() + ")");
    Recorder.end(java.util.Map.of());
  }
}
