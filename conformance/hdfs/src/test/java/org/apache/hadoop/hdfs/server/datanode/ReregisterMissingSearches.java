package org.apache.hadoop.hdfs.server.datanode;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import racelab.search.LincheckSearch;
import racelab.search.LincheckSearch.Verdict;

/**
 * The bodies of reregister's Lincheck searches for the missing block: O3 (the report's loss),
 * O6 (one registration races its FBR) and O9 (two NameNodes disagree), on hadoop-hdfs 3.5.0,
 * the replays' threads (ReplayReregisterO3Test, O6Test, O9Test) with no latch and no sleep.
 *
 * <p>Each invocation takes a setup made before Lincheck's block under the row's fix layer (as
 * ReregisterSearchActor.Pool does for O4, O5 and O7): a real BPOfferService with a real
 * BPServiceActor per NameNode, whose heartbeats went to a NameNode answering by the replays'
 * rules ({@link ReregisterNameNode}, behind a translator subclass: no Mockito), its REGISTERs
 * queued and the FBR's lease granted, as the model's scenario's setup (the report's steps 1-7,
 * or the dead node's heartbeat). Inside the invocation it puts a fresh Scheduler and
 * IncrementalBlockReportManager in the raced actor, and an empty set of finalized replicas in
 * the dataset; then three threads race:
 *
 * <ul>
 *   <li>the actor thread: the real {@code BPServiceActor.blockReport(lease)} (its IBR drain,
 *       the dataset's snapshot, the FBR RPC that the NameNode processes, updateLastBlockReportTime
 *       and scheduleNextBlockReport). As its snapshot begins it starts the two other threads
 *       ({@link Starter}): the model's scenario runs the lease check, the drain and P1's epoch
 *       read on main before its threads exist, and so does this search (it waits for nothing;
 *       the snapshot's read of the finalized set still races the writer);</li>
 *   <li>the command thread: the queued REGISTER's batch as the command processing thread runs
 *       it (processCommand, BPOfferService.processCommandFromActor, reRegister: versionRequest,
 *       clearIBRs for a NameNode last seen STANDBY, registerDatanode, scheduleBlockReport(0,
 *       true), scheduleHeartbeat);</li>
 *   <li>the writer: X finalized in the dataset, then the real
 *       BPOfferService.notifyNamenodeReceivedBlock (every actor's notifyNamenodeBlock).</li>
 * </ul>
 *
 * <p>Quiescence, on the invocation's thread after the joins (no thread left to interleave):
 * three rounds of each actor's offerService glue, as the replays' setup plays it on main: the
 * real sendHeartBeat asking for a lease when the Scheduler says an FBR is due, a REGISTER in the
 * answer run as its batch, the real sendIBRs, and the real blockReport when a lease came. The
 * outcome is then decided on the NameNodes' state by the replay's predicate.
 */
final class ReregisterMissingSearches {
  private ReregisterMissingSearches() {
  }

  static final long X = 7;
  static final String BPID = "bp-1";
  static final DatanodeStorage STORAGE = new DatanodeStorage("DS-1");
  /** The replays' FBR interval (ReregisterWiring: a rescheduled FBR lands days away). */
  static final long FBR_INTERVAL_MS = Integer.MAX_VALUE;

  /** The search DataNode's counters: the FBR's and the IBR's count nothing either. */
  static final class Metrics extends ReregisterSearches.Metrics {
    @Override
    public void addBlockReport(long latency, String suffix) {
    }

    @Override
    public void addBlockReportCreateCost(long latency) {
    }

    @Override
    public void addIncrementalBlockReport(long latency, String suffix) {
    }
  }

  /** A finalized replica, as the dataset's snapshot lists it. */
  static final class Finalized implements Replica {
    private final long id;

    Finalized(long id) {
      this.id = id;
    }

    @Override
    public long getBlockId() {
      return id;
    }

    @Override
    public long getGenerationStamp() {
      return 1001;
    }

    @Override
    public ReplicaState getState() {
      return ReplicaState.FINALIZED;
    }

    @Override
    public long getNumBytes() {
      return 1024;
    }

    @Override
    public long getBytesOnDisk() {
      return 1024;
    }

    @Override
    public long getVisibleLength() {
      return 1024;
    }

    @Override
    public String getStorageUuid() {
      return STORAGE.getStorageID();
    }

    @Override
    public boolean isOnTransientStorage() {
      return false;
    }

    @Override
    public FsVolumeSpi getVolume() {
      return null;
    }
  }

  /**
   * The dataset: one storage, and the invocation's set of finalized block ids (the replays'
   * dataset, without Mockito). getBlockReports is the FBR's snapshot.
   */
  static final class Dataset implements InvocationHandler {
    private final ReregisterSearchActor.Dataset base = new ReregisterSearchActor.Dataset();
    /** The running invocation's finalized replicas (set before its threads start). */
    volatile Set<Long> finalized = finalizedSet();
    /** The NameNode whose log notes the command thread's progress (the raced one). */
    volatile ReregisterNameNode noting;
    /** Run as the next snapshot begins, on the thread taking it (then cleared). */
    volatile Runnable onSnapshot;
    /** The raced actor's counting clock, when the search reads one (O2), else null. */
    volatile ReregisterSearches.CountingScheduler clock;
    /** The clock's count when the last snapshot began (-1: none since the race began). */
    volatile long lastSnapshot = -1;

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) {
      switch (m.getName()) {
        case "getStorage":
          return STORAGE;
        case "getBlockReports":
          Runnable hook = onSnapshot;
          onSnapshot = null;
          if (hook != null) {
            hook.run();
          }
          ReregisterSearches.CountingScheduler c = clock;
          if (c != null) {
            lastSnapshot = c.now();
          }
          List<Replica> replicas = new ArrayList<>();
          for (long id : finalized) {
            replicas.add(new Finalized(id));
          }
          Map<DatanodeStorage, BlockListAsLongs> m1 = new HashMap<>();
          m1.put(STORAGE, BlockListAsLongs.encode(replicas));
          return m1;
        default:
          return base.invoke(proxy, m, args);
      }
    }
  }

  /** The replays' NameNode rules; its RPC failures made beforehand (see {@link #failure}). */
  static final class Rules extends ReregisterNameNode {
    /**
     * Made once, outside Lincheck's block: an exception constructed inside it (Throwable's
     * stack walk) ended an exploration after 3 invocations (ReregisterSearches.FailingNameNode).
     */
    private static final IOException UNREGISTERED =
        new IOException("UnregisteredNodeException (fake NameNode)");
    private static final IOException OTHER = new IOException("fake NameNode: RPC failed");

    Rules(int id, HAServiceState ha) {
      super(id, ha);
    }

    @Override
    IOException failure(String message) {
      return message.startsWith("Unregistered") ? UNREGISTERED : OTHER;
    }
  }

  /** The NameNode behind the actor's DatanodeProtocol translator, by {@link Rules}. */
  static final class NameNode extends DatanodeProtocolClientSideTranslatorPB {
    final Rules rules;

    NameNode(int id, HAServiceState ha) {
      super((org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolPB) null);
      rules = new Rules(id, ha);
    }

    @Override
    public NamespaceInfo versionRequest() {
      if (dataset.noting == rules) {
        synchronized (rules) {
          // where the command thread had got to when the FBR reached the NameNode (README)
          rules.log.add("versionRequest");
        }
      }
      return ReregisterSearchActor.NS;
    }

    @Override
    public DatanodeRegistration registerDatanode(DatanodeRegistration r) {
      rules.registerDatanode();
      return r;
    }

    @Override
    public HeartbeatResponse sendHeartbeat(DatanodeRegistration r, StorageReport[] reports,
        long cacheCapacity, long cacheUsed, int xmits, int xceivers, int failedVolumes,
        VolumeFailureSummary summary, boolean requestLease, SlowPeerReports peers,
        SlowDiskReports disks) {
      return rules.heartbeat(requestLease);
    }

    @Override
    public DatanodeCommand blockReport(DatanodeRegistration r, String bpid,
        StorageBlockReport[] reports, BlockReportContext context) throws IOException {
      return rules.blockReport(context.getLeaseId(), reports);
    }

    @Override
    public void blockReceivedAndDeleted(DatanodeRegistration r, String bpid,
        StorageReceivedDeletedBlocks[] blocks) throws IOException {
      rules.ibr(blocks);
    }
  }

  /**
   * The search's DataNode: notes in the raced NameNode's log where the command thread's
   * register() had got to (its createRegistration, before registerDatanode's RPC).
   */
  static final class NotingDataNode extends ReregisterSearchActor.SearchDataNode {
    /** Never called: instances come from Objenesis. */
    private NotingDataNode() throws Exception {
    }

    @Override
    DatanodeRegistration createBPRegistration(NamespaceInfo ns) {
      ReregisterNameNode n = ReregisterMissingSearches.dataset.noting;
      if (n != null) {
        synchronized (n) {
          n.log.add("createRegistration");
        }
      }
      return super.createBPRegistration(ns);
    }
  }

  private static Dataset dataset;
  /**
   * The IBR managers' counters, made once outside the block. Measured: with a DataNodeMetrics
   * made inside each invocation (as the O4 and O5 bodies make theirs), Lincheck ended this
   * search's exploration after 3 invocations; with this one, it ran all 20 asked for.
   */
  private static Metrics ibrMetrics;
  private static ReregisterSearchActor.SearchDataNode dataNode;

  /** The clock's count when the last snapshot began (see {@link Dataset#lastSnapshot}). */
  static long lastSnapshot() {
    return dataset.lastSnapshot;
  }

  /** The shared DataNode and dataset (after ReregisterSearchActor.prepare, outside Lincheck). */
  static synchronized void prepare() throws Exception {
    ReregisterSearchActor.prepare();
    if (dataNode != null) {
      return;
    }
    dataset = new Dataset();
    ibrMetrics = new Metrics();
    FsDatasetSpi<?> proxy = (FsDatasetSpi<?>) Proxy.newProxyInstance(
        FsDatasetSpi.class.getClassLoader(), new Class<?>[] {FsDatasetSpi.class}, dataset);
    dataNode = ReregisterSearchActor.dataNode(NotingDataNode.class, proxy, new Metrics());
  }

  /**
   * A set of finalized block ids, which the writer thread adds to during the race. Not a
   * ConcurrentSkipListSet: its put draws ThreadLocalRandom (whose seeds differ from one JVM to
   * the next) to decide whether to add index levels, each a CAS that Fray schedules as a step,
   * so a kept Fray schedule took other turns in another JVM (measured: trunk O6's kept schedule
   * reached O6 in 5 of 9 replays, the step headers parting at the writer's addIndices). A
   * ConcurrentHashMap's key set of Longs takes the same steps in every JVM.
   */
  static Set<Long> finalizedSet() {
    return ConcurrentHashMap.newKeySet();
  }

  /** One invocation's setup: the actors, their NameNodes, the raced one and its lease. */
  static final class Setup {
    final List<ReregisterSearchActor.Actor> actors;
    final NameNode[] nns;
    /** The NameNode whose actor races (the last). */
    final int raced;
    final long lease;
    /** Registrations the raced NameNode had answered when the race began. */
    final int registrationsBefore;
    /**
     * Whether the race notes the command thread's progress in the raced NameNode's log (its
     * versionRequest, its createRegistration: O3's diagnosis, README); off for O2.
     */
    boolean notes = true;

    Setup(List<ReregisterSearchActor.Actor> actors, NameNode[] nns, long lease) {
      this.actors = actors;
      this.nns = nns;
      this.raced = nns.length - 1;
      this.lease = lease;
      this.registrationsBefore = nns[raced].rules.registrations;
    }

    ReregisterSearchActor.Actor racedActor() {
      return actors.get(raced);
    }

    Rules racedNameNode() {
      return nns[raced].rules;
    }
  }

  static List<ReregisterSearchActor.Actor> actors(NameNode[] nns, HAServiceState[] has)
      throws Exception {
    return ReregisterSearchActor.make(dataNode, nns, has);
  }

  /**
   * The report's steps 1-7 against the last NameNode of {@code has} (the replay RR_O3's setup,
   * and RR_O9's with nn0 keeping the DataNode): every other actor registered (its NameNode
   * keeps the DataNode); the raced one registered (A); its NameNode restarts; two heartbeats
   * answered REGISTER (REG1, REG2 queued, both sent under A); REG1's batch run (registration B,
   * an FBR due now); the next heartbeat asks for a lease and gets one.
   */
  static Setup doubleRegister(HAServiceState... has) throws Exception {
    NameNode[] nns = new NameNode[has.length];
    for (int i = 0; i < has.length; i++) {
      nns[i] = new NameNode(i, has[i]);
    }
    List<ReregisterSearchActor.Actor> actors = actors(nns, has);
    int a = has.length - 1;
    for (int k = 0; k < a; k++) {
      actors.get(k).actor.register(ReregisterSearchActor.NS);
    }
    ReregisterSearchActor.Actor actor = actors.get(a);
    actor.actor.register(ReregisterSearchActor.NS); // registration A
    nns[a].rules.restart();
    actor.heartbeat(); // REG1, sent under A
    actor.heartbeat(); // REG2, sent under A
    actor.runQueuedBatch(); // REG1: registration B, an FBR due now
    HeartbeatResponse r = actor.heartbeat(true); // the lease
    if (r.getFullBlockReportLeaseId() == 0) {
      throw new IllegalStateException("harness: no lease granted after REG1");
    }
    return new Setup(actors, nns, r.getFullBlockReportLeaseId());
  }

  /**
   * The dead-node path (the replay RR_O6's setup): the DataNode registered (A), its NameNode
   * (STANDBY, no restart) marked it dead and kept its descriptor; the periodic FBR is due, so
   * the heartbeat asks for a lease, and the answer carries REGISTER and the lease (queued).
   */
  static Setup singleRegister() throws Exception {
    NameNode[] nns = {new NameNode(0, HAServiceState.STANDBY)};
    List<ReregisterSearchActor.Actor> actors =
        actors(nns, new HAServiceState[] {HAServiceState.STANDBY});
    ReregisterSearchActor.Actor actor = actors.get(0);
    actor.actor.register(ReregisterSearchActor.NS); // registration A
    nns[0].rules.markDead();
    HeartbeatResponse r = actor.heartbeat(true); // REGISTER and a lease in one answer
    if (r.getFullBlockReportLeaseId() == 0 || r.getCommands().length != 1) {
      throw new IllegalStateException("harness: the dead node's heartbeat got no REGISTER+lease");
    }
    return new Setup(actors, nns, r.getFullBlockReportLeaseId());
  }

  /**
   * Starts the command thread and the writer: where the model's scenario hands its threads
   * over (it runs the actor's blockReport up to its snapshot on main first: the lease check,
   * the IBR drain, P1's epoch read; and the command thread's take of the REGISTER). Run by the
   * actor thread as its snapshot begins; it waits for nothing.
   */
  static final class Starter implements Runnable {
    private final Thread command;
    private final Thread writer;
    volatile boolean started;

    /** {@code writer} null: no writer (O2's search). */
    Starter(Thread command, Thread writer) {
      this.command = command;
      this.writer = writer;
    }

    @Override
    public void run() {
      started = true;
      command.start();
      if (writer != null) {
        writer.start();
      }
    }
  }

  /** What one invocation left, for the predicates. */
  static final class Ended {
    final Setup setup;
    final Set<Long> finalized;
    final Throwable actorThrew;
    final String pending;

    Ended(Setup setup, Set<Long> finalized, Throwable actorThrew, String pending) {
      this.setup = setup;
      this.finalized = finalized;
      this.actorThrew = actorThrew;
      this.pending = pending;
    }

    String observed() {
      StringBuilder sb = new StringBuilder();
      sb.append("finalized ").append(finalized);
      if (actorThrew != null) {
        sb.append("; the FBR threw ").append(actorThrew.getMessage());
      }
      sb.append("; ").append(pending);
      for (NameNode n : setup.nns) {
        synchronized (n.rules) {
          sb.append(" | nn").append(n.rules.id).append(" located ").append(n.rules.located)
              .append(": ").append(String.join("; ", n.rules.log));
        }
      }
      return sb.toString();
    }
  }

  /**
   * One invocation's race and quiescence. {@code periodicDue}: the raced actor's fresh
   * Scheduler holds the periodic FBR due now (the dead node); otherwise REG1's request is made
   * again on it (scheduleBlockReport(0, true), the call REG1's register made on the setup's).
   */
  static Ended race(Setup st, boolean periodicDue) throws Exception {
    return race(st, periodicDue,
        new BPServiceActor.Scheduler(3000, 0, FBR_INTERVAL_MS, 1800_000), true);
  }

  /**
   * The same with the raced actor's Scheduler {@code s} (made in the invocation; a
   * CountingScheduler is also the clock each snapshot notes) and, when {@code writes} is
   * false, no writer thread (O2: the lost request does not depend on X; with the writer's
   * notification in the race, Lincheck never ran the command thread into the FBR, README).
   */
  static Ended race(Setup st, boolean periodicDue, BPServiceActor.Scheduler s, boolean writes)
      throws Exception {
    ReregisterSearchActor.Actor a = st.racedActor();
    Set<Long> finalized = finalizedSet();
    dataset.finalized = finalized;
    dataset.noting = st.notes ? st.racedNameNode() : null;
    List<IncrementalBlockReportManager> ibrs = new ArrayList<>();
    for (ReregisterSearchActor.Actor each : st.actors) {
      IncrementalBlockReportManager ibr = new IncrementalBlockReportManager(0, ibrMetrics);
      each.use(ibr);
      ibrs.add(ibr);
    }
    dataset.clock = s instanceof ReregisterSearches.CountingScheduler c ? c : null;
    dataset.lastSnapshot = -1;
    a.use(s);
    if (periodicDue) {
      s.setNextBlockReportTime(s.monotonicNow());
      s.resetBlockReportTime = false;
    } else {
      s.scheduleBlockReport(0, true);
    }
    IncrementalBlockReportManager ibr = ibrs.get(st.raced);
    Rules nn = st.racedNameNode();
    long lease = st.lease;
    BPServiceActor actor = a.actor;
    BPOfferService bpos = a.bpos;
    AtomicReference<Throwable> actorThrew = new AtomicReference<>();
    AtomicReference<Throwable> commandThrew = new AtomicReference<>();
    AtomicReference<Throwable> writerThrew = new AtomicReference<>();
    Thread fbr = ReregisterSearches.racer("BPServiceActor", actorThrew,
        () -> actor.blockReport(lease), s, nn, ibr);
    Thread command = ReregisterSearches.racer("Command processor", commandThrew,
        a::runQueuedBatch, a, nn, s);
    Thread writer = !writes ? null : ReregisterSearches.racer("DataXceiver", writerThrew, () -> {
      finalized.add(X);
      bpos.notifyNamenodeReceivedBlock(new ExtendedBlock(BPID, X, 1024, 1001), null,
          STORAGE.getStorageID(), false);
    }, bpos, dataset, finalized);
    Starter starter = new Starter(command, writer);
    dataset.onSnapshot = starter;
    fbr.start();
    fbr.join();
    command.join();
    if (writer != null) {
      writer.join();
    }
    if (!starter.started) {
      throw new IllegalStateException("harness: the FBR took no snapshot (" + actorThrew.get()
          + ")");
    }
    if (commandThrew.get() != null || writerThrew.get() != null) {
      throw new IllegalStateException("harness: REG2's batch threw " + commandThrew.get()
          + ", the writer threw " + writerThrew.get());
    }
    Throwable t = actorThrew.get();
    if (t != null && !(t instanceof IOException)) {
      // an RPC failure is an outcome offerService logs and survives; anything else is not
      throw new IllegalStateException("harness: the FBR threw " + t, t);
    }
    String pending = "pending IBRs after the race " + ibr.getPendingIBRSize() + " storage(s)";
    quiesce(st);
    return new Ended(st, finalized, t, pending);
  }

  /**
   * Quiescence: three rounds of every actor's offerService glue on this thread (the threads
   * have ended): the heartbeat (a lease asked for when an FBR is due), its REGISTER run as its
   * batch, the pending IBRs sent, the FBR when a lease came.
   */
  static void quiesce(Setup st) throws Exception {
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < st.actors.size(); i++) {
        ReregisterSearchActor.Actor q = st.actors.get(i);
        BPServiceActor.Scheduler sch = q.actor.getScheduler();
        boolean due = sch.isBlockReportDue(sch.monotonicNow());
        HeartbeatResponse r = q.heartbeat(due);
        q.actor.state = r.getNameNodeHaState().getState();
        if (r.getCommands().length > 0) {
          q.runQueuedBatch();
        }
        q.actor.getIbrManager().sendIBRs(st.nns[i], (DatanodeRegistration) q.registration(),
            BPID, "");
        if (r.getFullBlockReportLeaseId() != 0) {
          try {
            q.actor.blockReport(r.getFullBlockReportLeaseId());
          } catch (IOException e) {
            // offerService logs it and goes on
          }
        }
      }
    }
  }

  /** A search body whose setups are prepared outside the block. */
  abstract static class Pooled implements LincheckSearch.Body {
    private final ReregisterSearchActor.Pool<Setup> pool;

    Pooled(racelab.fix.Row row, int invocations, ReregisterSearchActor.Setup<Setup> setup)
        throws Exception {
      prepare();
      pool = new ReregisterSearchActor.Pool<>(row, ReregisterSearchActor.Pool.size(invocations),
          setup);
    }

    @Override
    public Verdict run() throws Exception {
      return decide(pool.next());
    }

    abstract Verdict decide(Setup st) throws Exception;
  }

  /**
   * O2 (double-register/active, the report's lost FBR request) with the actor thread running
   * the whole {@code BPServiceActor.blockReport(lease)}, so that P1's epoch is read where 3.5.0's
   * blockReport starts (P1's advice on it), before its drain and snapshot, and the threads are
   * handed over at the snapshot as in the model's scenario (see {@link Starter}); no writer.
   * The actor last saw the NameNode ACTIVE (reRegister skips clearIBRs). The raced Scheduler
   * counts its clock's reads (ReregisterSearches.CountingScheduler: REG2's first read is its
   * scheduleBlockReport(0, true)) and every snapshot notes the count. Reached: REG2 registered
   * and requested an FBR, and at quiescence no snapshot began after that request (the
   * in-flight FBR's scheduleNextBlockReport overwrote it; ReplayReregisterO2Test's "a
   * registration with no snapshot after it", on the clock's order). Not reached when REG2's
   * request came before the race's snapshot (that FBR honours it) or survived to a quiescence
   * FBR.
   */
  static final class O2 extends Pooled {
    O2(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations, () -> {
        Setup st = doubleRegister(HAServiceState.ACTIVE);
        // measured: with the notes (versionRequest's note under the NameNode's monitor),
        // Lincheck reported "Concurrent test has hung" at upstream invocation 109 (the
        // command thread parked at a switch point inside that monitor, the actor thread
        // blocked on it in the real JVM); without them, 200 of 200 ran
        st.notes = false;
        return st;
      });
    }

    @Override
    Verdict decide(Setup st) throws Exception {
      ReregisterSearches.CountingScheduler s = new ReregisterSearches.CountingScheduler();
      Ended e = race(st, false, s, false);
      long requested = s.commandRead;
      long snapshot = dataset.lastSnapshot;
      boolean lost = requested > 0 && snapshot < requested;
      return Verdict.of(lost, "REG2's request at clock read #" + requested
          + ", the last snapshot after read #" + snapshot + "; " + e.observed());
    }
  }

  /**
   * O3 (double-register/standby, the report's loss): at quiescence X is finalized and the
   * restarted NameNode locates it nowhere (ReplayReregisterO3Test's o3).
   */
  static final class O3 extends Pooled {
    O3(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations, () -> doubleRegister(HAServiceState.STANDBY));
    }

    @Override
    Verdict decide(Setup st) throws Exception {
      Ended e = race(st, false);
      boolean o3 = e.finalized.contains(X) && !st.racedNameNode().locates(X);
      return Verdict.of(o3, e.observed());
    }
  }

  /**
   * O6 (single-register/standby): X finalized, unknown to the NameNode at quiescence, with at
   * most one registration since the race began (ReplayReregisterO6Test's o6).
   */
  static final class O6 extends Pooled {
    O6(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations, ReregisterMissingSearches::singleRegister);
    }

    @Override
    Verdict decide(Setup st) throws Exception {
      Ended e = race(st, true);
      int registrations;
      synchronized (st.racedNameNode()) {
        registrations = st.racedNameNode().registrations - st.registrationsBefore;
      }
      boolean o6 = e.finalized.contains(X) && !st.racedNameNode().locates(X)
          && registrations <= 1;
      return Verdict.of(o6, "registrations in the race=" + registrations + "; " + e.observed());
    }
  }

  /**
   * O9 (double-register/two-namenodes): nn0 (ACTIVE) keeps the DataNode, nn1 (restarted,
   * STANDBY) goes through O3's setup; at quiescence one NameNode locates X and another nowhere
   * (ReplayReregisterO9Test's o9).
   */
  static final class O9 extends Pooled {
    O9(racelab.fix.Row row, int invocations) throws Exception {
      super(row, invocations,
          () -> doubleRegister(HAServiceState.ACTIVE, HAServiceState.STANDBY));
    }

    @Override
    Verdict decide(Setup st) throws Exception {
      Ended e = race(st, false);
      boolean some = false;
      boolean none = false;
      for (NameNode n : st.nns) {
        if (n.rules.locates(X)) {
          some = true;
        } else {
          none = true;
        }
      }
      return Verdict.of(some && none, e.observed());
    }
  }
}
