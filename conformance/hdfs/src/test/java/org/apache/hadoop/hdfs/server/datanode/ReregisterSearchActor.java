package org.apache.hadoop.hdfs.server.datanode;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NNHAStatusHeartbeat;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.RegisterCommand;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.objenesis.ObjenesisStd;

/**
 * The command path of reregister's Lincheck searches, on the real classes: a real
 * BPOfferService with one real BPServiceActor and its real CommandProcessingThread, so that a
 * REGISTER goes the way 3.5.0 sends it (the actor's sendHeartBeat, the command thread's enqueue,
 * the batch's processCommand, BPOfferService.processCommandFromActor, BPServiceActor.reRegister:
 * versionRequest, clearIBRs for a NameNode last seen STANDBY or OBSERVER, register,
 * scheduleBlockReport(0, true)). That is the path reregister's P3 advises (the heartbeat's tag,
 * the batch's tag, the stale REGISTER dropped in processCommandFromActor), so every row, P3's
 * included, runs its fix layer on the search's threads.
 *
 * <p>No Mockito (its mocks cannot be called inside Lincheck's block): the DataNode is a subclass
 * made without running its constructor (Objenesis), answering only what this path asks; the
 * NameNode is a translator subclass answering versionRequest, registerDatanode and a heartbeat
 * with REGISTER; the dataset a java.lang.reflect.Proxy. All of it, and one actor per invocation
 * with its heartbeats sent and batches queued, is made before Lincheck's block under the row's
 * fix layer ({@link Pool}); inside it, an invocation only puts its own raced objects in place
 * ({@link Actor#use}) and races. The command processing thread the actor's constructor starts
 * ends at once (the DataNode answers shouldRun false to it); a search's command thread runs the
 * queued batch itself, as that thread's processQueue would.
 */
final class ReregisterSearchActor {
  private ReregisterSearchActor() {
  }

  static final NamespaceInfo NS = new NamespaceInfo(1, "cid", "bp-1", 0);

  /** The DataNode, made without its constructor: the answers of this path only. */
  static class SearchDataNode extends DataNode {
    Configuration conf;
    DNConf dnConf;
    DataNodeMetrics metrics;
    FsDatasetSpi<?> dataset;
    SearchNameNode nameNode;

    /** Never called: instances come from Objenesis. */
    SearchDataNode() throws Exception {
      super(new Configuration());
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public DNConf getDnConf() {
      return dnConf;
    }

    @Override
    public DataNodeMetrics getMetrics() {
      return metrics;
    }

    @Override
    public FsDatasetSpi<?> getFSDataset() {
      return dataset;
    }

    /** False to an actor's own command processing thread only (see {@link #make}). */
    @Override
    boolean shouldRun() {
      return !Thread.currentThread().getClass().getSimpleName().equals("CommandProcessingThread");
    }

    @Override
    public int getXmitsInProgress() {
      return 0;
    }

    @Override
    public int getActiveTransferThreadCount() {
      return 0;
    }

    @Override
    public int getXceiverCount() {
      return 0;
    }

    @Override
    DatanodeRegistration createBPRegistration(NamespaceInfo ns) {
      return registration();
    }

    @Override
    void bpRegistrationSucceeded(DatanodeRegistration r, String bpid) {
    }

    @Override
    void initBlockPool(BPOfferService bpos) {
    }
  }

  static DatanodeRegistration registration() {
    return new DatanodeRegistration(new DatanodeID("127.0.0.1", "localhost", "dn-uuid", 1, 2, 3, 4),
        new StorageInfo(-67, 1, "cid", 0, NodeType.DATA_NODE), new ExportedBlockKeys(), "3.5.0");
  }

  /** The NameNode of this path: a heartbeat is answered REGISTER (the node is not known). */
  static final class SearchNameNode extends DatanodeProtocolClientSideTranslatorPB {
    SearchNameNode() {
      super((org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolPB) null);
    }

    @Override
    public NamespaceInfo versionRequest() {
      return NS;
    }

    @Override
    public DatanodeRegistration registerDatanode(DatanodeRegistration r) {
      return r;
    }

    @Override
    public HeartbeatResponse sendHeartbeat(DatanodeRegistration r, StorageReport[] reports,
        long cacheCapacity, long cacheUsed, int xmits, int xceivers, int failedVolumes,
        VolumeFailureSummary summary, boolean requestLease, SlowPeerReports peers,
        SlowDiskReports disks) {
      return new HeartbeatResponse(new DatanodeCommand[] {RegisterCommand.REGISTER},
          new NNHAStatusHeartbeat(HAServiceState.STANDBY, 0), null, 0);
    }
  }

  /** The dataset's answers to sendHeartBeat: no storage, no failure, no cache. */
  static final class Dataset implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method m, Object[] args) {
      switch (m.getName()) {
        case "getStorageReports":
          return new StorageReport[0];
        case "getCacheCapacity":
        case "getCacheUsed":
          return 0L;
        case "hashCode":
          return 1;
        case "equals":
          return proxy == args[0];
        case "toString":
          return "search dataset";
        default:
          return null;
      }
    }
  }

  private static SearchDataNode dn;
  private static Field cptField;
  private static Field queueField;
  private static Field ibrField;
  private static Field schedulerField;
  private static Field serviceRunField;
  private static Field registrationField;
  private static Method enqueue;

  /** One invocation's BPOfferService, its actor and that actor's command queue. */
  static final class Actor {
    final BPOfferService bpos;
    final BPServiceActor actor;
    final Object cpt;
    final BlockingQueue<Runnable> queue;

    private Actor(BPOfferService bpos, BPServiceActor actor, Object cpt,
        BlockingQueue<Runnable> queue) {
      this.bpos = bpos;
      this.actor = actor;
      this.cpt = cpt;
      this.queue = queue;
    }

    /** The actor thread's heartbeat (the real sendHeartBeat), its commands queued as offerService does. */
    void heartbeat() throws Exception {
      heartbeat(false);
    }

    /** The same, asking for a block report lease when {@code requestLease}; the answer. */
    HeartbeatResponse heartbeat(boolean requestLease) throws Exception {
      HeartbeatResponse r = actor.sendHeartBeat(requestLease);
      enqueue.invoke(cpt, (Object) r.getCommands());
      return r;
    }

    /** The command processing thread's next batch (its processQueue's take and run). */
    void runQueuedBatch() {
      Runnable r = queue.poll();
      if (r == null) {
        throw new IllegalStateException("harness: no batch queued");
      }
      r.run();
    }

    Object registration() throws Exception {
      return registrationField.get(actor);
    }

    /**
     * Puts a Scheduler made in the invocation in place of the actor's (made before the block):
     * Lincheck switches at the accesses of objects made inside its block only (measured: with
     * the setup's own Scheduler, 12 invocations exhausted the exploration, never inside
     * scheduleNextBlockReport; with one made in the invocation, 60 ran).
     */
    void use(BPServiceActor.Scheduler scheduler) throws Exception {
      schedulerField.set(actor, scheduler);
    }

    /** Puts an IncrementalBlockReportManager made in the invocation in place of the actor's. */
    void use(IncrementalBlockReportManager ibr) throws Exception {
      ibrField.set(actor, ibr);
    }
  }

  /**
   * Makes the shared collaborators (outside Lincheck, after every part is installed) and runs
   * the path once with the parts off: an actor made, two heartbeats, both batches.
   */
  static synchronized void prepare() throws Exception {
    if (dn != null) {
      return;
    }
    SearchDataNode d = new ObjenesisStd().newInstance(SearchDataNode.class);
    Configuration conf = new HdfsConfiguration();
    conf.setLong("dfs.blockreport.intervalMsec", Integer.MAX_VALUE);
    d.conf = conf;
    d.dnConf = new DNConf(d);
    d.metrics = new ReregisterSearches.Metrics();
    d.dataset = (FsDatasetSpi<?>) Proxy.newProxyInstance(FsDatasetSpi.class.getClassLoader(),
        new Class<?>[] {FsDatasetSpi.class}, new Dataset());
    d.nameNode = new SearchNameNode();
    cptField = BPServiceActor.class.getDeclaredField("commandProcessingThread");
    cptField.setAccessible(true);
    Class<?> cptClass = cptField.getType();
    queueField = cptClass.getDeclaredField("queue");
    queueField.setAccessible(true);
    enqueue = cptClass.getDeclaredMethod("enqueue", DatanodeCommand[].class);
    enqueue.setAccessible(true);
    ibrField = BPServiceActor.class.getDeclaredField("ibrManager");
    ibrField.setAccessible(true);
    schedulerField = BPServiceActor.class.getDeclaredField("scheduler");
    schedulerField.setAccessible(true);
    serviceRunField = BPServiceActor.class.getDeclaredField("shouldServiceRun");
    serviceRunField.setAccessible(true);
    registrationField = BPServiceActor.class.getDeclaredField("bpRegistration");
    registrationField.setAccessible(true);
    dn = d;
    // the path once, outside Lincheck, parts off
    Actor a = make(HAServiceState.STANDBY);
    a.heartbeat();
    a.heartbeat();
    a.runQueuedBatch();
    a.runQueuedBatch();
  }

  /**
   * An actor, made afresh: a BPOfferService for one NameNode, whose actor last saw the NameNode
   * {@code ha}, is registered (registration A) and has no batch queued. Its command processing
   * thread, started by the constructor, ends at once (the DataNode answers shouldRun false to
   * it) and is joined; it switched its actor off on its way out, which is undone. Made outside
   * Lincheck's block (see {@link Pool}).
   */
  static Actor make(HAServiceState ha) throws Exception {
    return make(dn, new DatanodeProtocolClientSideTranslatorPB[] {dn.nameNode},
        new HAServiceState[] {ha}).get(0);
  }

  /**
   * One BPOfferService on DataNode {@code d} with one actor per NameNode {@code nns[i]}, whose
   * actor last saw it {@code has[i]}, each holding registration A and no batch queued (as
   * {@link #make(HAServiceState)}, which is this with one NameNode). Made outside Lincheck's
   * block. The actors share the BPOfferService, as 3.5.0's actors of one block pool do.
   */
  @SuppressWarnings("unchecked")
  static List<Actor> make(SearchDataNode d, DatanodeProtocolClientSideTranslatorPB[] nns,
      HAServiceState[] has) throws Exception {
    List<String> ids = new ArrayList<>();
    List<InetSocketAddress> addrs = new ArrayList<>();
    List<InetSocketAddress> lifelines = new ArrayList<>();
    for (int i = 0; i < nns.length; i++) {
      ids.add("nn" + i);
      addrs.add(i == 0 ? ADDRESS : new InetSocketAddress("127.0.0.1", 10 + i));
      lifelines.add(null);
    }
    BPOfferService b = new BPOfferService("ns1", ids, addrs, lifelines, d);
    List<Actor> out = new ArrayList<>();
    for (int i = 0; i < nns.length; i++) {
      BPServiceActor a = b.getBPServiceActors().get(i);
      Thread t = (Thread) cptField.get(a);
      t.join();
      serviceRunField.setBoolean(a, true);
      a.setNameNode(nns[i]);
      if (i == 0) {
        b.verifyAndSetNamespaceInfo(a, NS);
      }
      registrationField.set(a, registration());
      a.state = has[i];
      out.add(new Actor(b, a, t, (BlockingQueue<Runnable>) queueField.get(t)));
    }
    return out;
  }

  /**
   * A DataNode like the shared one ({@link #prepare}) with its own dataset and metrics (a
   * search whose dataset answers getBlockReports and getStorage). Call after {@link #prepare}.
   */
  static SearchDataNode dataNode(FsDatasetSpi<?> dataset, DataNodeMetrics metrics)
      throws Exception {
    return dataNode(SearchDataNode.class, dataset, metrics);
  }

  /** The same, of a subclass of SearchDataNode. */
  static <D extends SearchDataNode> D dataNode(Class<D> type, FsDatasetSpi<?> dataset,
      DataNodeMetrics metrics) throws Exception {
    D d = new ObjenesisStd().newInstance(type);
    d.conf = dn.conf;
    d.dnConf = new DNConf(d);
    d.metrics = metrics;
    d.dataset = dataset;
    d.nameNode = dn.nameNode;
    return d;
  }

  /** What one invocation races on, set up outside the block. */
  interface Setup<T> {
    T make() throws Exception;
  }

  /**
   * One prepared setup per invocation, all made before Lincheck's block under the row's fix
   * layer (the parts' tags and epochs are taken as the real code runs), and handed out in
   * invocation order from inside it. Measured: an invocation that made the actor inside the
   * block (its constructor starts the command processing thread) failed inside Lincheck (its
   * report of the failure threw NoSuchElementException), and one that reset a single shared
   * actor by reflection, or cleared its queue, ended Lincheck's exploration after 3
   * invocations. The objects the threads race on (a Scheduler, an IncrementalBlockReportManager)
   * are still made inside each invocation and put in place ({@link Actor#use}), as dead-node
   * O10 puts its map into a Recon made outside. The next index lives in the system properties,
   * which Lincheck neither restores nor tracks (as LincheckSearch's counter).
   */
  static final class Pool<T> {
    private static final java.util.concurrent.atomic.AtomicInteger KEYS =
        new java.util.concurrent.atomic.AtomicInteger();
    private final List<T> prepared = new ArrayList<>();
    private final String key = "racelab.reregister.pool." + KEYS.incrementAndGet();

    Pool(racelab.fix.Row row, int size, Setup<T> setup) throws Exception {
      racelab.fix.FixLayer.run(row, () -> {
        for (int i = 0; i < size; i++) {
          prepared.add(setup.make());
        }
        return null;
      });
      System.getProperties().put(key, new java.util.concurrent.atomic.AtomicInteger());
    }

    /** The next invocation's setup. */
    T next() {
      int i = ((java.util.concurrent.atomic.AtomicInteger) System.getProperties().get(key))
          .getAndIncrement();
      if (i >= prepared.size()) {
        throw new IllegalStateException("harness: the pool of " + prepared.size()
            + " setups is used up");
      }
      return prepared.get(i);
    }

    /** How many setups an exploration of {@code invocations} may take (a margin over it). */
    static int size(int invocations) {
      return invocations + 8;
    }
  }

  private static final InetSocketAddress ADDRESS = new InetSocketAddress("127.0.0.1", 10);

}
