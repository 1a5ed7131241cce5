package org.apache.hadoop.hdfs.server.datanode;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo.BlockStatus;
import racelab.search.LincheckSearch.Verdict;

/**
 * The bodies of reregister's Lincheck searches (O4, O5, O7) on hadoop-hdfs 3.5.0's
 * IncrementalBlockReportManager and BPServiceActor.Scheduler. Each call is one invocation: fresh
 * objects, the racing threads started together with no latch and no sleep, joined, and the
 * outcome decided from the real state. The threads run the calls the replays' threads make on
 * these two classes (the replays' wiring around BPServiceActor is Mockito mocks, which Lincheck's
 * instrumentation does not run inside its block, TOOLCHAIN.md): the command thread's
 * reRegister is rendered by its one call on each class (clearIBRs for a NameNode last seen
 * STANDBY; register's scheduleBlockReport(0, true)), the actor thread's by sendIBRs (its RPC
 * fails) or by the FBR's closing scheduleNextBlockReport, the writer's by notifyNamenodeBlock.
 * The fix parts advise exactly these methods (P2, HDFS-17953: clearIBRs and putMissing; P1:
 * scheduleBlockReport and scheduleNextBlockReport). P3 advises processCommandFromActor, which no
 * search thread runs: on a P3 row these searches run upstream's code (see the report).
 */
final class ReregisterSearches {
  private ReregisterSearches() {
  }

  /**
   * PerStorageIBR counts its blocks in the DataNode's metrics: counters that count nothing here
   * (a registered DataNodeMetrics, reachable from the metrics system's statics, made each
   * invocation's snapshot restore cost seconds).
   */
  static final class Metrics extends DataNodeMetrics {
    Metrics() {
      super("racelab-search", "s", new int[0], null);
    }

    @Override
    public void resetBlocksInPendingIBR() {
    }

    @Override
    public void incrBlocksInPendingIBR() {
    }

    @Override
    public void incrBlocksReceivingInPendingIBR() {
    }

    @Override
    public void incrBlocksReceivedInPendingIBR() {
    }

    @Override
    public void incrBlocksDeletedInPendingIBR() {
    }
  }

  static final DatanodeStorage S1 = new DatanodeStorage("DS-1");
  static final DatanodeStorage S2 = new DatanodeStorage("DS-2");

  /**
   * A NameNode whose blockReceivedAndDeleted fails (restarting), as in the O5 replay. A class of
   * its own: a java.lang.reflect.Proxy made inside Lincheck's block spins in the proxy class's
   * generation (Lincheck reports a livelock there).
   */
  static final class FailingNameNode implements DatanodeProtocol {
    /**
     * Made once, outside the block: an exception constructed inside it (Throwable's stack walk)
     * made Lincheck report an active lock and end its exploration after 3 invocations.
     */
    private static final IOException RPC_FAILED =
        new IOException("blockReceivedAndDeleted failed (NameNode restarting)");

    private static UnsupportedOperationException no() {
      return new UnsupportedOperationException("not on the search's path");
    }

    @Override
    public void blockReceivedAndDeleted(DatanodeRegistration r, String bpid,
        StorageReceivedDeletedBlocks[] blocks) throws IOException {
      throw RPC_FAILED;
    }

    @Override
    public DatanodeRegistration registerDatanode(DatanodeRegistration r) {
      throw no();
    }

    @Override
    public HeartbeatResponse sendHeartbeat(DatanodeRegistration r, StorageReport[] reports,
        long a, long b, int c, int d, int e, VolumeFailureSummary f, boolean g,
        SlowPeerReports h, SlowDiskReports i) {
      throw no();
    }

    @Override
    public DatanodeCommand blockReport(DatanodeRegistration r, String bpid,
        StorageBlockReport[] reports, BlockReportContext context) {
      throw no();
    }

    @Override
    public DatanodeCommand cacheReport(DatanodeRegistration r, String bpid, List<Long> ids) {
      throw no();
    }

    @Override
    public void errorReport(DatanodeRegistration r, int code, String msg) {
      throw no();
    }

    @Override
    public NamespaceInfo versionRequest() {
      throw no();
    }

    @Override
    public void reportBadBlocks(LocatedBlock[] blocks) {
      throw no();
    }

    @Override
    public void commitBlockSynchronization(ExtendedBlock b, long a, long c, boolean d,
        boolean e, DatanodeID[] f, String[] g) {
      throw no();
    }
  }

  static DatanodeProtocol failingNameNode() {
    return new FailingNameNode();
  }

  static ReceivedDeletedBlockInfo received(long id) {
    return new ReceivedDeletedBlockInfo(new Block(id, 1024, 7), BlockStatus.RECEIVED_BLOCK, null);
  }

  @SuppressWarnings("unchecked")
  static Map<DatanodeStorage, ?> pending(IncrementalBlockReportManager ibr) throws Exception {
    Field f = IncrementalBlockReportManager.class.getDeclaredField("pendingIBRs");
    f.setAccessible(true);
    return (Map<DatanodeStorage, ?>) f.get(ibr);
  }

  static Thread thread(String name, AtomicReference<Throwable> threw, ThrowingRunnable r) {
    return new Thread(() -> {
      try {
        r.run();
      } catch (Throwable t) {
        threw.set(t);
      }
    }, name);
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  static boolean from(Throwable t, String method) {
    return t != null && java.util.Arrays.stream(t.getStackTrace())
        .anyMatch(e -> e.getMethodName().equals(method));
  }

  /**
   * O5 (failed-ibr-vs-clear): X finalized (setup); then the actor's sendIBRs (drains X, its RPC
   * fails, putMissing) and the command thread's clearIBRs run together. Reached: sendIBRs threw
   * NullPointerException from putMissing and X is in no pending IBR (the replay's predicate).
   */
  static Verdict o5() throws Exception {
    IncrementalBlockReportManager ibr = new IncrementalBlockReportManager(0, new Metrics());
    DatanodeProtocol nn = failingNameNode();
    ibr.notifyNamenodeBlock(received(1001), S1, false);
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    Thread actor = thread("BPServiceActor", actorThrew, () -> ibr.sendIBRs(nn, null, "bp-1", ""));
    Thread command = thread("Command processor", commandThrew, ibr::clearIBRs);
    actor.start();
    command.start();
    actor.join();
    command.join();
    if (commandThrew.get() != null) {
      throw new IllegalStateException("harness: clearIBRs threw " + commandThrew.get());
    }
    Throwable t = actorThrew.get();
    boolean npe = t instanceof NullPointerException && from(t, "putMissing");
    int after = ibr.getPendingIBRSize();
    boolean lost = after == 0;
    return Verdict.of(npe && lost, "sendIBRs threw " + t + "; pending storages after=" + after);
  }

  /**
   * O4 (clearIBRs without the monitor against the monitor's holders): two storages hold a block
   * each (setup); then the actor's sendIBRs (generateIBRs iterates pendingIBRs; the RPC fails;
   * putMissing), a writer's notifyNamenodeBlock of a block on a third storage (a new key) and the
   * command thread's clearIBRs run together. Reached when the HashMap shows the unordered
   * accesses: an iteration of pendingIBRs threw ConcurrentModificationException (the clear ran
   * inside generateIBRs' or putMissing's iteration, which hold the monitor), or afterwards the
   * map's size disagrees with its entries (the clear ran inside the writer's put). A clear
   * ordered against those sections changes neither; this is a witness of the race, not every
   * run in which loom would report it.
   */
  static Verdict o4() throws Exception {
    IncrementalBlockReportManager ibr = new IncrementalBlockReportManager(0, new Metrics());
    DatanodeProtocol nn = failingNameNode();
    DatanodeStorage s3 = new DatanodeStorage("DS-3");
    ibr.notifyNamenodeBlock(received(1001), S1, false);
    ibr.notifyNamenodeBlock(received(1002), S2, false);
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    AtomicReference<Throwable> writerThrew = new AtomicReference<>();
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    Thread actor = thread("BPServiceActor", actorThrew, () -> ibr.sendIBRs(nn, null, "bp-1", ""));
    Thread writer = thread("DataXceiver", writerThrew,
        () -> ibr.notifyNamenodeBlock(received(1003), s3, false));
    Thread command = thread("Command processor", commandThrew, ibr::clearIBRs);
    actor.start();
    writer.start();
    command.start();
    actor.join();
    writer.join();
    command.join();
    StringBuilder seen = new StringBuilder();
    boolean cme = false;
    Map<String, AtomicReference<Throwable>> threw = new java.util.LinkedHashMap<>();
    threw.put("sendIBRs", actorThrew);
    threw.put("notifyNamenodeBlock", writerThrew);
    threw.put("clearIBRs", commandThrew);
    for (var e : threw.entrySet()) {
      Throwable t = e.getValue().get();
      if (t instanceof ConcurrentModificationException) {
        cme = true;
      }
      if (t != null) {
        seen.append(e.getKey()).append(" threw ").append(t).append(
            t.getStackTrace().length > 1 ? " at " + t.getStackTrace()[1] : "").append("; ");
      }
    }
    Map<DatanodeStorage, ?> map = pending(ibr);
    int entries = 0;
    for (Iterator<?> it = map.entrySet().iterator(); it.hasNext(); it.next()) {
      entries++;
    }
    boolean torn = entries != map.size();
    seen.append("pendingIBRs size()=").append(map.size()).append(", entries=").append(entries);
    return Verdict.of(cme || torn, seen.toString());
  }

  /** A Scheduler on a clock that counts its reads, and notes which thread read it when. */
  static final class CountingScheduler extends BPServiceActor.Scheduler {
    private final java.util.concurrent.atomic.AtomicLong now =
        new java.util.concurrent.atomic.AtomicLong(1_000_000);
    volatile long actorRead = -1;
    volatile long commandRead = -1;

    CountingScheduler() {
      super(3000, 0, 6 * 3600_000L, 1800_000);
    }

    @Override
    public long monotonicNow() {
      if (now == null) { // the super constructor's reads, before this class's fields are set
        return 1_000_000;
      }
      long t = now.incrementAndGet();
      String name = Thread.currentThread().getName();
      if (name.equals("BPServiceActor")) {
        actorRead = t;
      } else if (name.equals("Command processor")) {
        commandRead = t;
      }
      return t;
    }
  }

  /**
   * O7 (double-register/active): the in-flight FBR was asked for by REG1's registration
   * (resetBlockReportTime true, setup); then the actor's scheduleNextBlockReport (the FBR
   * returned) and REG2's register, scheduleBlockReport(0, true), run together. Reached when the
   * real state shows REG2's write of resetBlockReportTime between the actor's read of it and the
   * actor's write of false: the actor read the Scheduler's clock (after its read of the flag,
   * before its write) before REG2 read it (before REG2's write), and the flag ends false. A
   * witness of the race (the write lands between the read and the clear, with no lock in
   * common), not every run in which loom would report it.
   */
  static Verdict o7() throws Exception {
    CountingScheduler s = new CountingScheduler();
    s.scheduleBlockReport(0, true); // REG1's request: the FBR in flight is the one it asked for
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    s.actorRead = -1;
    s.commandRead = -1;
    Thread actor = thread("BPServiceActor", actorThrew, s::scheduleNextBlockReport);
    Thread command = thread("Command processor", commandThrew, () -> s.scheduleBlockReport(0, true));
    actor.start();
    command.start();
    actor.join();
    command.join();
    if (actorThrew.get() != null || commandThrew.get() != null) {
      throw new IllegalStateException("harness: " + actorThrew.get() + " / " + commandThrew.get());
    }
    boolean flag = s.resetBlockReportTime;
    boolean straddled = s.actorRead > 0 && s.commandRead > s.actorRead && !flag;
    return Verdict.of(straddled, "actor's clock read #" + s.actorRead + ", REG2's #"
        + s.commandRead + "; resetBlockReportTime after=" + flag + ", next FBR at "
        + s.getNextBlockReportTime());
  }
}
