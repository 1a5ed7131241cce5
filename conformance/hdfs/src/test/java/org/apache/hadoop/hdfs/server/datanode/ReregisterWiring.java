package org.apache.hadoop.hdfs.server.datanode;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import racelab.trace.Recorder;
import racelab.trace.reregister.Probes;

/**
 * The reregister replays' wiring (racelab's own, nothing copied from upstream): a real
 * BPOfferService with one real BPServiceActor per NameNode (its Scheduler,
 * IncrementalBlockReportManager and CommandProcessingThread the released ones), around a
 * mocked DataNode, a dataset that is a set of finalized block ids, and per NameNode a small
 * fake NameNode behind the DatanodeProtocol proxy that behaves as the model's namenode.rs
 * (DatanodeManager, BlockReportLeaseManager, processReport with startup safe mode). The actor
 * thread runs the real offerService loop; the command thread is the real one. Orders are
 * forced by latches in these collaborators only (the fake NameNode's RPCs, the metrics' count
 * of processed batches, DataNodeFaultInjector.blockUtilSendFullBlockReport at the end of
 * reRegister).
 */
final class ReregisterWiring implements AutoCloseable {
  static final long TIMEOUT_S = 30;
  static final String BPID = "bp-1";
  static final NamespaceInfo NS = new NamespaceInfo(1, "cid", BPID, 0);

  /**
   * The model's NameNode, as a collaborator of the DataNode code under test: its rules are
   * ReregisterNameNode's (shared with the Lincheck searches); here it adds the replays' hooks,
   * its Mockito proxy, and the waits and the summary the replays read.
   */
  final class FakeNameNode extends ReregisterNameNode {
    /** Runs inside the next blockReport RPC, before it is processed. */
    volatile Hook beforeNextReport;
    /** Runs inside the next blockReport RPC, after it is processed, before it returns. */
    volatile Hook afterNextReport;
    /** Runs inside every versionRequest RPC (the reRegister's first RPC) while armed. */
    volatile Hook onVersionRequest;
    /** Runs inside the next blockReceivedAndDeleted RPC, before it is processed. */
    volatile Hook onNextIbr;
    final DatanodeProtocolClientSideTranslatorPB proxy;

    FakeNameNode(int id, HAServiceState ha) {
      super(id, ha);
      this.proxy = mock(DatanodeProtocolClientSideTranslatorPB.class, inv -> {
        switch (inv.getMethod().getName()) {
          case "versionRequest":
            run(onVersionRequest);
            return NS;
          case "registerDatanode":
            registerDatanode();
            return inv.getArgument(0);
          case "sendHeartbeat":
            return heartbeat(inv.getArgument(8));
          case "blockReport":
            Hook b = beforeNextReport;
            beforeNextReport = null;
            run(b);
            DatanodeCommand c = blockReport(((BlockReportContext) inv.getArgument(3)).getLeaseId(),
                inv.getArgument(2));
            Hook h = afterNextReport;
            afterNextReport = null;
            run(h);
            return c;
          case "blockReceivedAndDeleted":
            Hook i = onNextIbr;
            onNextIbr = null;
            run(i);
            ibr(inv.getArgument(2));
            return null;
          default:
            return null;
        }
      });
    }

    /** Waits until this NameNode has answered {@code n} heartbeats. */
    synchronized void awaitHeartbeats(int n) throws InterruptedException {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
      while (heartbeats < n) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException("nn" + id + ": no heartbeat " + n);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    /**
     * The NameNode's state and its event log, with every run of consecutive plain heartbeats
     * (no REGISTER, no lease) written once, as "heartbeat: - lease 0 <state> (1+)": how many
     * of them the 200 ms loop sends before a latch opens or quiescence stops it depends on
     * timing, and decides no outcome; every other event is written as it happened.
     */
    synchronized String state() {
      List<String> events = new ArrayList<>();
      String plain = "heartbeat: - lease 0 " + ha;
      for (String e : log) {
        if (e.equals(plain)) {
          String once = plain + " (1+)";
          if (events.isEmpty() || !events.get(events.size() - 1).equals(once)) {
            events.add(once);
          }
        } else {
          events.add(e);
        }
      }
      return "nn" + id + " " + ha + " located " + located + "; " + String.join("; ", events);
    }
  }

  /** Code a collaborator runs at its point of the order. */
  interface Hook {
    void run() throws Exception;
  }

  static void run(Hook h) throws Exception {
    if (h != null) {
      h.run();
    }
  }

  static void await(CountDownLatch l, String what) throws InterruptedException {
    if (!l.await(TIMEOUT_S, TimeUnit.SECONDS)) {
      throw new IllegalStateException("harness: timed out waiting for " + what);
    }
  }

  final DataNode dn = mock(DataNode.class);
  final DataNodeMetrics metrics = mock(DataNodeMetrics.class);
  @SuppressWarnings("unchecked")
  final FsDatasetSpi<?> dataset = mock(FsDatasetSpi.class);
  final DatanodeStorage storage = new DatanodeStorage("DS-1");
  final AtomicBoolean running = new AtomicBoolean(true);
  private final CountDownLatch commandThreads = new CountDownLatch(1);
  /** The dataset: FINALIZED block ids. */
  final Set<Long> finalized = new ConcurrentSkipListSet<>();
  final AtomicLong sequence = new AtomicLong();
  /** Per actor: the sequence number of every snapshot and the blocks it held. */
  final Map<Integer, List<long[]>> snapshots = Collections.synchronizedMap(new HashMap<>());
  final List<FakeNameNode> nns = new ArrayList<>();
  final BPOfferService bpos;
  final List<BPServiceActor> actors;
  /** Per actor: the sequence numbers at which a reRegister ended. */
  final Map<Integer, List<Long>> reRegistered = Collections.synchronizedMap(new HashMap<>());
  /** Per actor: batches its command thread finished. */
  final Map<Integer, AtomicLong> batches = Collections.synchronizedMap(new HashMap<>());
  volatile Hook onBatchProcessed;
  /** Runs in the dataset's getBlockReports, after the snapshot is taken. */
  volatile Hook afterSnapshot;
  private final DataNodeFaultInjector previousInjector = DataNodeFaultInjector.get();
  private final List<Thread> loops = new ArrayList<>();
  final AtomicReference<Throwable> loopThrew = new AtomicReference<>();
  /** The NameNode whose actor's threads the trace records (-1: none). */
  private volatile int recorded = -1;
  /** Whether the recorded actor's thread has reached its snapshot (its setup ended). */
  private volatile boolean snapshotReached;
  private volatile boolean commandLabelled;
  private volatile boolean commandSetupDone;
  /** Whether the recorded command thread has finished its batch. */
  private volatile boolean batchDone;

  ReregisterWiring(HAServiceState... has) throws Exception {
    Recorder.observe("reregister", Probes.ALL);
    Configuration conf = new HdfsConfiguration();
    conf.set("dfs.heartbeat.interval", "200ms");
    // The FBR interval at its largest (Scheduler draws ThreadLocalRandom.nextInt of it, cast to
    // int): a rescheduled FBR lands inside a replay's 0.6 s quiescence about 3 times in 10^7
    // runs instead of 3 in 10^5 at the 6 h default. ThreadLocalRandom cannot be seeded from
    // outside the Scheduler, so this is the nearest to deterministic without touching it.
    conf.setLong("dfs.blockreport.intervalMsec", Integer.MAX_VALUE);
    when(dn.getConf()).thenReturn(conf);
    DNConf dnConf = new DNConf(dn);
    when(dn.getDnConf()).thenReturn(dnConf);
    when(dn.getMetrics()).thenReturn(metrics);
    // the command threads (started by BPServiceActor's constructor) wait in their first
    // shouldRun() until the replay lets them run: main plays them in a setup
    when(dn.shouldRun()).thenAnswer(inv -> {
      if (Thread.currentThread().getClass().getSimpleName().equals("CommandProcessingThread")) {
        commandThreads.await();
        // the model's command thread from its first batch (its processCommandFromActor is the
        // model's setup and not observed) to the batch's end
        if (!batchDone && recorded >= 0 && actorOfCommandThread() == recorded) {
          if (!commandLabelled) {
            commandLabelled = true;
            Recorder.act(commandThreadActor(recorded));
          } else if (!commandSetupDone) {
            // reRegister's first call: the model's setup stepped the command thread into
            // processCommandFromActor -> reRegister
            commandSetupDone = true;
            Recorder.setupDone();
          }
        }
      }
      return running.get();
    });
    when(dn.areCacheReportsDisabledForTests()).thenReturn(true);
    doAnswer(inv -> (FsDatasetSpi) dataset).when(dn).getFSDataset();
    when(dn.createBPRegistration(any(NamespaceInfo.class))).thenAnswer(inv ->
        new DatanodeRegistration(new DatanodeID("127.0.0.1", "localhost", "dn-uuid", 1, 2, 3, 4),
            new StorageInfo(-67, 1, "cid", 0, NodeType.DATA_NODE), new ExportedBlockKeys(),
            "3.5.0"));
    when(dataset.getStorage(anyString())).thenReturn(storage);
    when(dataset.getStorageReports(anyString())).thenReturn(new StorageReport[0]);
    when(dataset.getBlockReports(anyString())).thenAnswer(inv -> snapshot());
    doAnswer(inv -> {
      int a = actorOfCommandThread();
      batches.computeIfAbsent(a, k -> new AtomicLong()).incrementAndGet();
      if (a >= 0 && a == recorded) {
        batchDone = true;
        Recorder.act(null);
      }
      run(onBatchProcessed);
      return null;
    }).when(metrics).incrNumProcessedCommands();
    DataNodeFaultInjector.set(new DataNodeFaultInjector() {
      @Override
      public void blockUtilSendFullBlockReport() {
        reRegistered.computeIfAbsent(actorOfCommandThread(), k -> new ArrayList<>())
            .add(sequence.incrementAndGet());
      }

      /** The recorded actor thread's first offerService iteration (the model's) ends here. */
      @Override
      public void endOfferService() {
        if (recorded >= 0 && actorOfThread() == recorded) {
          Recorder.act(null);
        }
      }
    });
    List<String> ids = new ArrayList<>();
    List<InetSocketAddress> addrs = new ArrayList<>();
    List<InetSocketAddress> lifelines = new ArrayList<>();
    for (int i = 0; i < has.length; i++) {
      ids.add("nn" + i);
      addrs.add(new InetSocketAddress("127.0.0.1", 10 + i));
      lifelines.add(null);
      nns.add(new FakeNameNode(i, has[i]));
    }
    bpos = new BPOfferService("ns1", ids, addrs, lifelines, dn);
    actors = bpos.getBPServiceActors();
    for (int i = 0; i < actors.size(); i++) {
      actors.get(i).setNameNode(nns.get(i).proxy);
    }
    bpos.verifyAndSetNamespaceInfo(actors.get(0), NS);
  }

  BPServiceActor actor(int nn) {
    return actors.get(nn);
  }

  /**
   * Records the threads of the actor for NameNode {@code nn} as the model's actors: its
   * offerService loop's first iteration and its command thread's first batch; and the
   * registrations each NameNode answered, as the model's bpRegistration counts them.
   */
  void record(int nn) {
    recorded = nn;
    Probes.registrations = a -> {
      int i = actors.indexOf(a);
      return i < 0 ? -1 : nns.get(i).registrations;
    };
  }

  /** The model's name of the actor thread of (dn0, nn). */
  static String actorThread(int nn) {
    return "BPServiceActor:dn0/nn" + nn;
  }

  /** The model's name of the command thread of (dn0, nn). */
  static String commandThreadActor(int nn) {
    return "CommandProcessingThread:dn0/nn" + nn;
  }

  /** The model's name of the writer. */
  static final String WRITER = "DataXceiver:dn0";

  private int actorOfCommandThread() {
    Thread t = Thread.currentThread();
    for (int i = 0; i < actors.size(); i++) {
      if (commandThread(i) == t) {
        return i;
      }
    }
    return -1; // main, playing the command thread in a setup
  }

  private int actorOfThread() {
    String name = Thread.currentThread().getName();
    for (int i = 0; i < actors.size(); i++) {
      if (name.equals("BPServiceActor:nn" + i)) {
        return i;
      }
    }
    return -1;
  }

  private Map<DatanodeStorage, BlockListAsLongs> snapshot() {
    List<Replica> replicas = new ArrayList<>();
    long[] record = new long[finalized.size() + 1];
    int k = 1;
    for (long id : finalized) {
      Replica r = mock(Replica.class);
      when(r.getBlockId()).thenReturn(id);
      when(r.getNumBytes()).thenReturn(1024L);
      when(r.getBytesOnDisk()).thenReturn(1024L);
      when(r.getGenerationStamp()).thenReturn(1001L);
      when(r.getState()).thenReturn(ReplicaState.FINALIZED);
      replicas.add(r);
      record[k++] = id;
    }
    record[0] = sequence.incrementAndGet();
    if (!snapshotReached && recorded >= 0 && actorOfThread() == recorded) {
      // the model's scenario ran this blockReport up to its snapshot in its setup
      snapshotReached = true;
      Recorder.setupDone();
    }
    snapshots.computeIfAbsent(actorOfThread(), x -> new ArrayList<>()).add(record);
    Map<DatanodeStorage, BlockListAsLongs> m = new HashMap<>();
    m.put(storage, BlockListAsLongs.encode(replicas));
    Hook h = afterSnapshot;
    afterSnapshot = null;
    try {
      run(h);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return m;
  }

  /** The writer (DataXceiver): finalize the replica, then BPOfferService's notification. */
  void write(long block) {
    finalized.add(block);
    bpos.notifyNamenodeReceivedBlock(new ExtendedBlock(BPID, block, 1024, 1001), null,
        storage.getStorageID(), false);
  }

  /** Whether a snapshot of actor {@code nn} taken after sequence {@code after} holds {@code b}. */
  boolean snapshotAfter(int nn, long after, Long block) {
    for (long[] s : snapshots.getOrDefault(nn, List.of())) {
      if (s[0] > after) {
        if (block == null) {
          return true;
        }
        for (int i = 1; i < s.length; i++) {
          if (s[i] == block) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether block {@code b} is queued in actor {@code nn}'s pending IBRs. */
  boolean pending(int nn, long b) throws Exception {
    IncrementalBlockReportManager ibr = actor(nn).getIbrManager();
    Field f = IncrementalBlockReportManager.class.getDeclaredField("pendingIBRs");
    f.setAccessible(true);
    synchronized (ibr) {
      Map<?, ?> m = (Map<?, ?>) f.get(ibr);
      for (Object per : m.values()) {
        Field blocks = per.getClass().getDeclaredField("blocks");
        blocks.setAccessible(true);
        for (Object k : ((Map<?, ?>) blocks.get(per)).keySet()) {
          if (((org.apache.hadoop.hdfs.protocol.Block) k).getBlockId() == b) {
            return true;
          }
        }
      }
      return false;
    }
  }

  Object commandThread(int nn) {
    try {
      Field f = BPServiceActor.class.getDeclaredField("commandProcessingThread");
      f.setAccessible(true);
      return f.get(actor(nn));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Main plays the command thread: runs the batch at the head of actor nn's queue. */
  void runQueuedBatch(int nn) throws Exception {
    Object cpt = commandThread(nn);
    Field q = cpt.getClass().getDeclaredField("queue");
    q.setAccessible(true);
    Runnable r = ((BlockingQueue<Runnable>) q.get(cpt)).poll();
    if (r == null) {
      throw new IllegalStateException("harness: no batch queued");
    }
    r.run();
  }

  /** Main plays the actor thread's heartbeat: sendHeartBeat, its commands queued (offerService's glue). */
  HeartbeatResponse heartbeat(int nn, boolean requestLease) throws Exception {
    BPServiceActor a = actor(nn);
    HeartbeatResponse resp = a.sendHeartBeat(requestLease);
    a.state = resp.getNameNodeHaState().getState();
    Method enqueue = commandThread(nn).getClass()
        .getDeclaredMethod("enqueue", DatanodeCommand[].class);
    enqueue.setAccessible(true);
    enqueue.invoke(commandThread(nn), (Object) resp.getCommands());
    return resp;
  }

  /** Lets the real command threads take their queued batches. */
  void startCommandThreads() {
    commandThreads.countDown();
  }

  /** The real offerService loop on a thread named as the actor's. */
  void startActorLoop(int nn) throws Exception {
    Method offer = BPServiceActor.class.getDeclaredMethod("offerService");
    offer.setAccessible(true);
    Thread t = new Thread(() -> {
      if (nn == recorded) {
        Recorder.act(actorThread(nn));
      }
      try {
        offer.invoke(actor(nn));
      } catch (InvocationTargetException e) {
        loopThrew.compareAndSet(null, e.getCause());
      } catch (Throwable e) {
        loopThrew.compareAndSet(null, e);
      }
    }, "BPServiceActor:nn" + nn);
    loops.add(t);
    t.start();
  }

  /** Quiescence: every actor loop runs {@code heartbeats} more heartbeats, then stops. */
  void quiesce(int heartbeats) throws Exception {
    for (FakeNameNode n : nns) {
      int now;
      synchronized (n) {
        now = n.heartbeats;
      }
      n.awaitHeartbeats(now + heartbeats);
    }
    stopLoops();
  }

  void stopLoops() throws InterruptedException {
    running.set(false);
    for (BPServiceActor a : actors) {
      a.getIbrManager().triggerIBR(false);
    }
    for (Thread t : loops) {
      t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
      if (t.isAlive()) {
        throw new IllegalStateException("harness: " + t.getName() + " did not stop");
      }
    }
  }

  /**
   * When the actor's next FBR is due, in stable terms: "due now" (an FBR requested and not yet
   * sent) or "scheduled later" (a delay the real Scheduler drew at random up to the interval,
   * Integer.MAX_VALUE ms here; its value differs from run to run and decides no outcome).
   */
  static String nextFbr(BPServiceActor.Scheduler s) {
    return "next FBR " + (s.getNextBlockReportTime() - s.monotonicNow() <= 0 ? "due now"
        : "scheduled later");
  }

  /**
   * The observable state as the model's state names it (Reregister::describe's key=value
   * words): per NameNode the finalized blocks it locates nowhere ({@code unlocated.nn0=7}, or
   * {@code none}), and, where the replay decided it ({@code lost} non-null), whether a
   * registration's FBR request was lost ({@code fbrs=lost} or {@code honoured}).
   */
  Map<String, String> modelState(Boolean lost) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    for (FakeNameNode n : nns) {
      List<String> unlocated = new ArrayList<>();
      for (long b : new TreeSet<>(finalized)) {
        if (!n.locates(b)) {
          unlocated.add(String.valueOf(b));
        }
      }
      m.put("unlocated.nn" + n.id, unlocated.isEmpty() ? "none" : String.join("+", unlocated));
    }
    if (lost != null) {
      m.put("fbrs", lost ? "lost" : "honoured");
    }
    return m;
  }

  String state() {
    StringBuilder sb = new StringBuilder();
    for (FakeNameNode n : nns) {
      sb.append(n.state()).append(" | ");
    }
    sb.append("finalized ").append(finalized);
    return sb.toString();
  }

  @Override
  public void close() throws Exception {
    running.set(false);
    commandThreads.countDown();
    for (BPServiceActor a : actors) {
      a.stop();
    }
    for (Thread t : loops) {
      t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
    }
    DataNodeFaultInjector.set(previousInjector);
    Probes.registrations = null;
  }
}
