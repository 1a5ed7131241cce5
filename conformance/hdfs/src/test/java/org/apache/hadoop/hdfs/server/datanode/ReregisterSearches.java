package org.apache.hadoop.hdfs.server.datanode;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.List;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
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
import racelab.search.LincheckSearch;
import racelab.search.LincheckSearch.Verdict;

/**
 * The bodies of reregister's Lincheck searches (O4, O5, O7) on hadoop-hdfs 3.5.0. Each invocation
 * takes an actor prepared before Lincheck's block (ReregisterSearchActor: a real BPOfferService
 * and BPServiceActor, its heartbeats sent and its REGISTERs queued by the real code under the
 * row's fix layer), puts in it an IncrementalBlockReportManager or Scheduler made in the
 * invocation (the objects the race is on), starts the racing threads together with no latch and
 * no sleep, joins them and decides the outcome from the real state. The command thread runs its
 * queued batch as the command processing thread would: processCommand,
 * BPOfferService.processCommandFromActor, BPServiceActor.reRegister (versionRequest, clearIBRs
 * for a NameNode last seen STANDBY, register, scheduleBlockReport(0, true)). The actor thread's
 * part is rendered by its call on the raced class (sendIBRs, whose RPC fails, or the FBR's
 * closing scheduleNextBlockReport), the writer's by notifyNamenodeBlock. So each part acts on
 * the search's threads: P2 and HDFS-17953 on clearIBRs and putMissing, P1 on scheduleBlockReport
 * and scheduleNextBlockReport, P3 on the heartbeat's and the batch's tags and the REGISTER's
 * processCommandFromActor.
 */
final class ReregisterSearches {
  private ReregisterSearches() {
  }

  /**
   * PerStorageIBR counts its blocks in the DataNode's metrics: counters that count nothing here
   * (a registered DataNodeMetrics, reachable from the metrics system's statics, made each
   * invocation's snapshot restore cost seconds).
   */
  static class Metrics extends DataNodeMetrics {
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

    // the command path's (ReregisterSearchActor)
    @Override
    public void incrActorCmdQueueLength(int delta) {
    }

    @Override
    public void incrNumProcessedCommands() {
    }

    @Override
    public void addNumProcessedCommands(long latency) {
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

  /**
   * A racing thread's body holding, in its own fields, the objects the thread races on, some of
   * them made before Lincheck's block or put in place by reflection: Lincheck gives an object it
   * did not see being shared no switch point, and it does not see what a lambda captures (it
   * cannot take a hidden class's field offsets), so they are handed over here as dead-node O10's
   * Beat holds its map (measured there; here only with it, not without).
   */
  static final class Racer implements Runnable {
    private final ThrowingRunnable body;
    private final AtomicReference<Throwable> threw;
    @SuppressWarnings("unused")
    private final Object shared1;
    @SuppressWarnings("unused")
    private final Object shared2;
    @SuppressWarnings("unused")
    private final Object shared3;

    Racer(ThrowingRunnable body, AtomicReference<Throwable> threw, Object shared1,
        Object shared2, Object shared3) {
      this.body = body;
      this.threw = threw;
      this.shared1 = shared1;
      this.shared2 = shared2;
      this.shared3 = shared3;
    }

    @Override
    public void run() {
      try {
        body.run();
      } catch (Throwable t) {
        threw.set(t);
      }
    }
  }

  /** A racing thread on objects made before the block (see {@link Racer}). */
  static Thread racer(String name, AtomicReference<Throwable> threw, ThrowingRunnable r,
      Object shared1, Object shared2, Object shared3) {
    return new Thread(new Racer(r, threw, shared1, shared2, shared3), name);
  }

  static boolean from(Throwable t, String method) {
    return t != null && java.util.Arrays.stream(t.getStackTrace())
        .anyMatch(e -> e.getMethodName().equals(method));
  }

  /** A search body whose setups are prepared outside the block (ReregisterSearchActor.Pool). */
  abstract static class Pooled implements LincheckSearch.Body {
    private final ReregisterSearchActor.Pool<ReregisterSearchActor.Actor> pool;
    /**
     * The IBR managers' counters (they count nothing), made here, outside Lincheck's block: one
     * made inside each invocation ended the exploration after 3 invocations (README, "Lincheck
     * searches").
     */
    final Metrics ibrMetrics = new Metrics();

    Pooled(racelab.fix.Row row, int invocations, ReregisterSearchActor.Setup<ReregisterSearchActor.Actor> setup)
        throws Exception {
      pool = new ReregisterSearchActor.Pool<>(row, ReregisterSearchActor.Pool.size(invocations),
          setup);
    }

    @Override
    public Verdict run() throws Exception {
      return race(pool.next());
    }

    abstract Verdict race(ReregisterSearchActor.Actor a) throws Exception;
  }

  /**
   * O5 (failed-ibr-vs-clear). Setup: a REGISTER queued that answers a heartbeat sent under the
   * actor's current registration (the real sendHeartBeat and enqueue, before the block, under
   * the row's layer: P3 keeps it), and X finalized. Then the actor's sendIBRs (drains X, its RPC fails,
   * putMissing) and the command thread's batch (the real processCommand,
   * processCommandFromActor, reRegister: versionRequest, clearIBRs for the NameNode last seen
   * STANDBY, register) run together. Reached: sendIBRs threw NullPointerException from
   * putMissing and X is in no pending IBR (the replay's predicate).
   */
  static final class O5 extends Pooled {
    O5(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations, O5::setup);
    }

    static ReregisterSearchActor.Actor setup() throws Exception {
      ReregisterSearchActor.Actor a = ReregisterSearchActor.make(HAServiceState.STANDBY);
      a.heartbeat(); // REGISTER, sent under the current registration
      return a;
    }

    @Override
    Verdict race(ReregisterSearchActor.Actor a) throws Exception {
      IncrementalBlockReportManager ibr = new IncrementalBlockReportManager(0, ibrMetrics);
      a.use(ibr);
      ibr.notifyNamenodeBlock(received(1001), S1, false); // X finalized
      DatanodeProtocol nn = failingNameNode();
      AtomicReference<Throwable> actorThrew = new AtomicReference<>();
      AtomicReference<Throwable> commandThrew = new AtomicReference<>();
      Map<DatanodeStorage, ?> map = pending(ibr);
      Thread actor = racer("BPServiceActor", actorThrew,
          () -> ibr.sendIBRs(nn, null, "bp-1", ""), ibr, map, null);
      Thread command = racer("Command processor", commandThrew, a::runQueuedBatch, a, ibr, map);
      actor.start();
      command.start();
      actor.join();
      command.join();
      if (commandThrew.get() != null) {
        throw new IllegalStateException("harness: the REGISTER's batch threw "
            + commandThrew.get());
      }
      Throwable t = actorThrew.get();
      boolean npe = t instanceof NullPointerException && from(t, "putMissing");
      int after = ibr.getPendingIBRSize();
      boolean lost = after == 0;
      return Verdict.of(npe && lost, "sendIBRs threw " + t + "; pending storages after=" + after);
    }
  }

  /**
   * The actor after two heartbeats under registration A, each answered by a REGISTER, with the
   * first REGISTER's batch run (registration B): REG2 is queued, for the race (O4's and O7's
   * setup; the NameNode's HA state is the search's).
   */
  static ReregisterSearchActor.Actor reRegisteredOnce(HAServiceState state) throws Exception {
    ReregisterSearchActor.Actor a = ReregisterSearchActor.make(state);
    a.heartbeat(); // REG1, sent under registration A
    a.heartbeat(); // REG2, sent under registration A
    a.runQueuedBatch(); // REG1: registration B
    return a;
  }

  /**
   * O4 (clearIBRs without the monitor against the monitor's holders): two heartbeats sent under
   * registration A were answered REGISTER, REG1 ran (registration B), and two storages hold a
   * block each (setup); then the actor's sendIBRs (generateIBRs iterates pendingIBRs; the RPC
   * fails; putMissing), a writer's notifyNamenodeBlock of a block on a third storage (a new key)
   * and the command thread's REG2 batch (with P3, dropped as sent under A; otherwise reRegister,
   * whose clearIBRs clears for the NameNode last seen STANDBY) run together. Reached when the HashMap shows the unordered
   * accesses: an iteration of pendingIBRs threw ConcurrentModificationException (the clear ran
   * inside generateIBRs' or putMissing's iteration, which hold the monitor), or afterwards the
   * map's size disagrees with its entries (the clear ran inside the writer's put). A clear
   * ordered against those sections changes neither; this is a witness of the race, not every
   * run in which loom would report it.
   */
  static final class O4 extends Pooled {
    O4(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations, () -> reRegisteredOnce(HAServiceState.STANDBY));
    }

    /**
     * No switch at loop iterations: HashMap.clear and values().toArray scan 16-slot tables, and
     * Lincheck's switch at a loop's 10th iteration (taken for a spin lock) ended this search's
     * exploration after 3 invocations (measured: 20 of 20 ran without it; Lincheck's trace
     * showed "active lock detected" inside clearIBRs' and removeAll's scans). Nothing here
     * spins: every loop on these threads is bounded by a map's size.
     */
    @Override
    public int loopIterationsBeforeThreadSwitch() {
      return LincheckSearch.NO_LOOP_SWITCH;
    }

    @Override
    Verdict race(ReregisterSearchActor.Actor a) throws Exception {
    IncrementalBlockReportManager ibr = new IncrementalBlockReportManager(0, ibrMetrics);
    a.use(ibr);
    ibr.notifyNamenodeBlock(received(1001), S1, false);
    ibr.notifyNamenodeBlock(received(1002), S2, false);
    DatanodeProtocol nn = failingNameNode();
    DatanodeStorage s3 = new DatanodeStorage("DS-3");
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    AtomicReference<Throwable> writerThrew = new AtomicReference<>();
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    Map<DatanodeStorage, ?> shared = pending(ibr);
    Thread actor = racer("BPServiceActor", actorThrew,
        () -> ibr.sendIBRs(nn, null, "bp-1", ""), ibr, shared, null);
    Thread writer = racer("DataXceiver", writerThrew,
        () -> ibr.notifyNamenodeBlock(received(1003), s3, false), ibr, shared, null);
    Thread command = racer("Command processor", commandThrew, a::runQueuedBatch, a, ibr, shared);
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
    threw.put("REG2's batch", commandThrew);
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

    /** The clock's current value, read without counting a thread's read. */
    long now() {
      return now.get();
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
      } else if (name.equals("Command processor") && commandRead < 0) {
        commandRead = t; // its first read: scheduleBlockReport's, before its write of the flag
      }
      return t;
    }
  }

  /**
   * O7 (double-register/active): two heartbeats sent under registration A were answered
   * REGISTER, REG1 ran (registration B), and the in-flight FBR was asked for by REG1's request
   * (resetBlockReportTime true: setup); then the actor's scheduleNextBlockReport (the FBR
   * returned) and the command thread's REG2 batch (with P3, dropped as sent under A; otherwise
   * reRegister, whose register calls scheduleBlockReport(0, true)) run together. Reached when the
   * real state shows REG2's write of resetBlockReportTime between the actor's read of it and the
   * actor's write of false: the actor read the Scheduler's clock (after its read of the flag,
   * before its write) before REG2 read it (before REG2's write), and the flag ends false. A
   * witness of the race (the write lands between the read and the clear, with no lock in
   * common), not every run in which loom would report it.
   */
  static class O7 extends Pooled {
    O7(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations, () -> reRegisteredOnce(HAServiceState.ACTIVE));
    }

    @Override
    Verdict race(ReregisterSearchActor.Actor a) throws Exception {
    CountingScheduler s = new CountingScheduler();
    a.use(s);
    // REG1's request, the call its register made (on the setup's Scheduler), made again on this
    // invocation's: the FBR in flight is the one it asked for
    s.scheduleBlockReport(0, true);
    s.actorRead = -1;
    s.commandRead = -1;
    final CountingScheduler fs = s;
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    Thread actor = racer("BPServiceActor", actorThrew, fs::scheduleNextBlockReport, s, null, null);
    Thread command = racer("Command processor", commandThrew, a::runQueuedBatch, a, a.actor, s);
    actor.start();
    command.start();
    actor.join();
    command.join();
    if (actorThrew.get() != null || commandThrew.get() != null) {
      throw new IllegalStateException("harness: " + actorThrew.get() + " / " + commandThrew.get());
    }
    return decide(s);
    }

    Verdict decide(CountingScheduler s) {
      boolean flag = s.resetBlockReportTime;
      boolean straddled = s.actorRead > 0 && s.commandRead > s.actorRead && !flag;
      return Verdict.of(straddled, observed(s));
    }

    static String observed(CountingScheduler s) {
      return "actor's clock read #" + s.actorRead + ", REG2's #" + s.commandRead
          + "; resetBlockReportTime after=" + s.resetBlockReportTime + ", next FBR at "
          + s.getNextBlockReportTime() + " (" + (s.getNextBlockReportTime() <= s.now()
          ? "due now" : "scheduled later") + ")";
    }
  }

  /**
   * O2 (double-register/active, the report's lost FBR request), decided on O7's runs (the same
   * setup and threads): REG2 registered (its register's scheduleBlockReport(0, true) read the
   * clock) and yet, once both threads ended, no FBR is due: the in-flight FBR's
   * scheduleNextBlockReport overwrote the registration's request (ReplayReregisterO2Test's
   * "a registration with no snapshot after it", on the Scheduler's state). P1's rows are not
   * searched: P1 keeps a newer request by the epoch BPServiceActor.blockReport reads as it
   * starts, before its drain, which in the model's scenario is before REG2; this search's actor
   * thread is the FBR's closing scheduleNextBlockReport only, and starting blockReport inside the
   * race would let REG2 precede that read (ordering it needs a latch). On those rows the search
   * would run P1's lock without its epoch, no test of P1.
   */
  static final class O2 extends O7 {
    O2(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations);
    }

    @Override
    Verdict decide(CountingScheduler s) {
      boolean registered = s.commandRead > 0;
      boolean lost = registered && s.getNextBlockReportTime() > s.now();
      return Verdict.of(lost, observed(s));
    }
  }
}
