package org.apache.hadoop.hdds.scm.node;

import static org.mockito.Mockito.mock;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.DatanodeID;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.pipeline.PipelineManager;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ipc_.RPC;
import org.apache.hadoop.ipc_.Server;
import org.apache.hadoop.ozone.recon.ReconContext;
import org.apache.hadoop.ozone.recon.scm.PipelineSyncTask;
import org.apache.hadoop.ozone.recon.scm.ReconContainerManager;
import org.apache.hadoop.ozone.recon.scm.ReconContainerReportHandler;
import org.apache.hadoop.ozone.recon.scm.ReconDeadNodeHandler;
import org.apache.hadoop.ozone.recon.scm.ReconNodeManager;
import org.apache.hadoop.ozone.recon.scm.ReconScmTask;
import org.apache.hadoop.ozone.recon.spi.StorageContainerServiceProvider;
import org.apache.hadoop.util.Time;
import racelab.conformance.Threads;
import racelab.search.Mocks;
import racelab.trace.Recorder;

/**
 * The dead-node Recon replays' common steps on Ozone 2.2.0's real classes: ReconNodeManager
 * (with SCMNodeManager, NodeStateManager and DatanodeInfo under it), ReconDeadNodeHandler and
 * ReconContainerReportHandler. Collaborators are stand-ins: the node table (an in-memory Table
 * that stores copies, as RocksDB stores bytes, and can hold the reload's thread right after it
 * read a row), ReconContext, the ReconContainerManager (DeadNodeWiring's replica map), the
 * pipeline manager, SCM client and Recon tasks (mocks), and the RPC server (an org.apache.hadoop.ipc_.Server.Call, Ozone's copy SCMNodeManager reads, whose
 * remote address is the datanode's peer address, for a datanode behind NAT). The reload plays
 * ReconStorageContainerManagerFacade's swap: the container manager reinitialized (no replica
 * until the next reports), then ReconNodeManager.reinitialize(nodeTable) on the Recon-sync
 * thread. Written for racelab.
 */
final class ReconDeadNodeReplays implements AutoCloseable {
  static final String HANDLER = DeadNodeReplays.HANDLER;
  static final String SYNC = "Recon-sync";
  /** The address dn1 reports about itself. */
  static final String OWN_IP = "10.0.0.1";
  /** The address Recon's RPC server sees for dn1 behind NAT. */
  static final String PEER_IP = "192.168.7.1";
  static final String PEER_HOST = "nat-gw-7";

  final NodeTable table = new NodeTable();
  final DeadNodeWiring w;
  final ReconNodeManager nm;
  /** dn1 as the datanode describes itself. */
  final DatanodeDetails dn = DeadNodeWiring.datanode("dn1", OWN_IP);
  final boolean behindNat;
  final ContainerID c;
  final ReconContainerReportHandler reports;
  final ReconDeadNodeHandler handler;
  final AtomicReference<Throwable> failed = new AtomicReference<>();
  /** Names of the DatanodeInfo objects in this replay's records (#1: the one loaded at start). */
  final DeadNodeReplays.Labels labels = new DeadNodeReplays.Labels();
  /** The DatanodeInfo declared DEAD, its heartbeat time then, and the order of the DEAD. */
  DatanodeInfo deadInfo;
  long deadHeartbeat;
  long deadAt;
  /** Order of the registration report's apply after the re-registration (0: none). */
  long reportAppliedAt;
  /** Rows the last reload wrote back (ReconNodeManager.register of a known node puts its row). */
  int reloadRowWrites;
  /** The model's actors the report and handler threads play (trace recorder). */
  final String reportActor = DeadNodeReplays.REPORT_ACTOR;
  final String handlerActor = DeadNodeReplays.HANDLER_ACTOR;
  /** dn1's address in memory after the constructor's load. */
  final String memoryAtStart;

  /**
   * Recon with dn1's row in its node table, loaded by the constructor (loadExistingNodes), and
   * dn1's first full report applied. Behind NAT the row holds what the first registration
   * stored: the details after SCMNodeManager.register set the peer's address.
   */
  ReconDeadNodeReplays(boolean behindNat) throws Exception {
    this.behindNat = behindNat;
    DatanodeDetails first = DeadNodePremisesTest.copyOf(dn);
    if (behindNat) {
      first.setIpAddress(PEER_IP);
      first.setHostName(PEER_HOST);
    }
    table.put(first.getID(), first);
    // ReconContext is final: where Mockito makes subclass mocks only (a Fray JVM,
    // racelab.search.Mocks) the released class without its constructor, with the two fields
    // SCMNodeManager.register's Recon override reaches (its health flag and error list, which
    // nothing here reads); elsewhere a mock
    ReconContext context = Mocks.subclassOnly() ? reconContextByHand() : mock(ReconContext.class);
    w = new DeadNodeWiring(ReconContainerManager.class, (conf, storage, publisher, lvm) ->
        new ReconNodeManager(conf, storage, publisher, new org.apache.hadoop.hdds.scm.net
            .NetworkTopologyImpl(conf), table.proxy(), lvm, context));
    nm = (ReconNodeManager) w.nodeManager;
    if (!Boolean.TRUE.equals(nm.isNodeRegistered(dn))) {
      throw new IllegalStateException("the constructor's loadExistingNodes did not load dn1");
    }
    memoryAtStart = addressInMemory();
    labels.of(nm.getDatanodeInfo(dn)); // DatanodeInfo#1: the one the constructor's load created
    c = w.closedContainer(1);
    reports = new ReconContainerReportHandler(nm, w.containerManager);
    handler = new ReconDeadNodeHandler(nm, mock(PipelineManager.class), w.containerManager,
        mock(StorageContainerServiceProvider.class), mock(ReconScmTask.class),
        mock(PipelineSyncTask.class));
    reports.onMessage(DeadNodeWiring.registrationReport(dn, c), w.publisher);
    if (!w.hasReplica(c, dn)) {
      throw new IllegalStateException("the first report added no replica");
    }
  }

  private static ReconContext reconContextByHand() {
    ReconContext context = Mocks.allocate(ReconContext.class);
    Mocks.set(context, ReconContext.class, "isHealthy", new AtomicBoolean(true));
    Mocks.set(context, ReconContext.class, "errors", new ArrayList<>());
    return context;
  }

  /**
   * O8's start (its replay and its search): dn1 registers again over RPC behind NAT and its
   * registration report is applied, so its row holds the peer's address and memory the one dn1
   * reports; fails if they agree. Returns "row R / memory M", as O8's verdicts print them.
   */
  String registerAgainBehindNat() throws Exception {
    registerAgainOverRpc();
    join(reportThread());
    String row = addressInRow();
    String memory = addressInMemory();
    if (row.equals(memory)) {
      throw new IllegalStateException("behind NAT the row should differ from memory: " + row + " "
          + memory + ", at start " + memoryAtStart + ", " + failed.get());
    }
    return "row " + row + " / memory " + memory;
  }

  /** The address dn1 has in the node manager's memory. */
  String addressInMemory() {
    return nm.getDatanodeInfo(dn).getIpAddress();
  }

  /** The address dn1's row holds. */
  String addressInRow() {
    return table.rows.get(dn.getID()).getIpAddress();
  }

  /**
   * dn1 registers again over RPC (ReconNodeManager.register, the four-argument call the
   * datanode protocol server makes); behind NAT the RPC server's call reports the peer address.
   */
  void registerAgainOverRpc() throws Exception {
    Thread t = Threads.recording("RPC-dn1", failed, () -> {
      w.act(DeadNodeReplays.DATANODE);
      InetAddress peer = InetAddress.getByAddress(behindNat ? PEER_HOST : "dn1",
          InetAddress.getByName(behindNat ? PEER_IP : OWN_IP).getAddress());
      Server.getCurCall().set(new Server.Call(1, 0, null, null, RPC.RpcKind.RPC_PROTOCOL_BUFFER,
          new byte[16]) {
        @Override
        public InetAddress getHostInetAddress() {
          return peer;
        }
      });
      try {
        nm.register(DeadNodePremisesTest.copyOf(dn), null, null);
      } finally {
        Server.getCurCall().remove();
      }
    });
    t.start();
    join(t);
  }

  /** The registration report on the container report thread; returns it, started. */
  Thread reportThread() {
    Thread t = Threads.recording("ContainerReport", failed, () -> {
      w.act(reportActor);
      reports.onMessage(DeadNodeWiring.registrationReport(dn, c), w.publisher);
      reportAppliedAt = w.seq.incrementAndGet();
    });
    t.start();
    return t;
  }

  /**
   * The facade's swap on the Recon-sync thread: the container manager reinitialized (a new
   * container state from the snapshot: no replica until the next reports), then
   * ReconNodeManager.reinitialize(nodeTable) (loadExistingNodes). Returns the thread, started.
   */
  Thread reloadThread() {
    Thread t = Threads.recording(SYNC, failed, () -> {
      w.replicas.clear();
      w.act(SYNC);
      int before = table.writesBy(SYNC);
      nm.reinitialize(table.proxy());
      reloadRowWrites = table.writesBy(SYNC) - before;
    });
    t.start();
    return t;
  }

  /**
   * The searches' race (O4, O8), no latch: an hour on, the next periodic health check on the
   * health checker's thread against the reload on the Recon-sync thread ({@link #reloadThread});
   * returns when both have ended.
   */
  void nextCheckRacesReload() throws Exception {
    w.elapse(w.staleMs() / 3);
    Thread checker = Threads.recording("SCMNodeManager health checker", failed, w::checkHealth);
    Thread sync = reloadThread(); // started
    checker.start();
    sync.join();
    checker.join();
  }

  NodeState health() throws Exception {
    return w.health(dn);
  }

  /** dn1 is down ({@link DeadNodeWiring#makeDead}); what it was when declared DEAD is kept. */
  void outageToDead() throws Exception {
    w.makeDead(dn);
    deadInfo = nm.getDatanodeInfo(dn);
    deadHeartbeat = deadInfo.getLastHeartbeatTime();
    deadAt = w.deadNodeEvents.get(w.deadNodeEvents.size() - 1).seq();
  }

  /** Every DEAD_NODE fired after order {@code after}, handled on the handler thread in turn. */
  void handleDeadNodeEventsAfter(long after) throws Exception {
    for (DeadNodeWiring.Fired f : w.deadNodeEventsAfter(after)) {
      Thread t = Threads.recording(HANDLER, failed, () -> {
        w.act(handlerActor);
        handler.onMessage(f.payload(), w.publisher);
      });
      t.start();
      join(t);
    }
  }

  /** Whether the next health check finds dn1 within the stale deadline (alive for SCM). */
  boolean withinStaleDeadline() throws Exception {
    return nm.getDatanodeInfo(dn).getLastHeartbeatTime() >= Time.monotonicNow() - w.staleMs();
  }

  boolean setListsContainer() throws Exception {
    return nm.getContainers(dn).contains(c);
  }

  void join(Thread t) throws Exception {
    t.join(30_000);
    if (t.isAlive()) {
      throw new IllegalStateException(t.getName() + " did not end in 30 s");
    }
  }

  /** What the state shows, for the record. */
  String describe() throws Exception {
    DatanodeInfo now = nm.getDatanodeInfo(dn);
    return "dn1 " + health() + " (" + labels.of(now)
        + (deadInfo == null ? "" : now == deadInfo ? ", the object declared DEAD"
            : ", not the object declared DEAD " + labels.of(deadInfo))
        + ", heartbeat time " + (deadInfo == null ? "" : (now.getLastHeartbeatTime() > deadHeartbeat
            ? "later than at DEAD" : "as at DEAD"))
        + ", within the stale deadline=" + withinStaleDeadline()
        + "), memory address " + addressInMemory() + ", row address " + addressInRow()
        + ", replica of container 1 on dn1 " + (w.hasReplica(c, dn) ? "present" : "absent")
        + ", dn1's container-ID set lists it=" + setListsContainer()
        + ", rows the reload wrote back=" + reloadRowWrites
        + ", DEAD_NODE events=" + w.deadNodeEvents.size()
        + (failed.get() == null ? "" : ", a thread failed: " + failed.get());
  }

  /** Ends the run's trace with the final state the model describes. */
  void endTrace() throws Exception {
    w.endTrace(dn, c);
  }

  /** Throws if a harness thread failed (then no record is printed). */
  void requireNoFailure() {
    if (failed.get() != null) {
      throw new IllegalStateException("a replay thread failed", failed.get());
    }
  }

  @Override
  public void close() throws Exception {
    table.release();
    w.close();
  }

  /**
   * The node table: an in-memory Table&lt;DatanodeID, DatanodeDetails&gt; that, as RocksDB,
   * stores a copy on put and hands out fresh copies (ReconNodeManager.register and
   * SCMNodeManager.register change the object they are given). Its iterator can hold the
   * Recon-sync thread right after it read a row (a latch in the collaborator).
   */
  static final class NodeTable implements InvocationHandler {
    final Map<DatanodeID, DatanodeDetails> rows = new java.util.LinkedHashMap<>();
    private final List<String> writers = new CopyOnWriteArrayList<>();
    private volatile DeadNodeWiring.Pause afterRowRead;

    @SuppressWarnings("unchecked")
    Table<DatanodeID, DatanodeDetails> proxy() {
      return (Table<DatanodeID, DatanodeDetails>) Proxy.newProxyInstance(
          Table.class.getClassLoader(), new Class<?>[] {Table.class}, this);
    }

    synchronized void put(DatanodeID id, DatanodeDetails d) {
      rows.put(id, DeadNodePremisesTest.copyOf(d));
      writers.add(Thread.currentThread().getName());
    }

    int writesBy(String thread) {
      return (int) writers.stream().filter(thread::equals).count();
    }

    /** Holds the Recon-sync thread after its next row read, until released. */
    DeadNodeWiring.Pause pauseReloadAfterRowRead() {
      DeadNodeWiring.Pause p = new DeadNodeWiring.Pause();
      afterRowRead = p;
      return p;
    }

    void release() {
      DeadNodeWiring.Pause p = afterRowRead;
      if (p != null) {
        p.release.countDown();
      }
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
      switch (m.getName()) {
        case "put":
          put((DatanodeID) args[0], (DatanodeDetails) args[1]);
          return null;
        case "get":
        case "getIfExist":
        case "getSkipCache":
        case "getReadCopy":
          synchronized (this) {
            DatanodeDetails d = rows.get((DatanodeID) args[0]);
            return d == null ? null : DeadNodePremisesTest.copyOf(d);
          }
        case "isExist":
          synchronized (this) {
            return rows.containsKey((DatanodeID) args[0]);
          }
        case "delete":
          synchronized (this) {
            rows.remove((DatanodeID) args[0]);
            return null;
          }
        case "isEmpty":
          synchronized (this) {
            return rows.isEmpty();
          }
        case "getEstimatedKeyCount":
          synchronized (this) {
            return (long) rows.size();
          }
        case "getName":
          return "nodes";
        case "iterator":
          return iterator();
        case "toString":
          return "racelab node table " + rows.keySet();
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        default:
          throw new UnsupportedOperationException("node table stand-in: " + m);
      }
    }

    private Table.KeyValueIterator<DatanodeID, DatanodeDetails> iterator() {
      List<Table.KeyValue<DatanodeID, DatanodeDetails>> snapshot = new ArrayList<>();
      synchronized (this) {
        for (Map.Entry<DatanodeID, DatanodeDetails> e : rows.entrySet()) {
          snapshot.add(Table.newKeyValue(e.getKey(), DeadNodePremisesTest.copyOf(e.getValue())));
        }
      }
      return new Table.KeyValueIterator<DatanodeID, DatanodeDetails>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < snapshot.size();
        }

        @Override
        public Table.KeyValue<DatanodeID, DatanodeDetails> next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          Table.KeyValue<DatanodeID, DatanodeDetails> kv = snapshot.get(next++);
          DeadNodeWiring.Pause p = afterRowRead;
          if (p != null && Thread.currentThread().getName().equals(SYNC)) {
            afterRowRead = null;
            p.arrived.countDown();
            try {
              if (!p.release.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the harness never released the reload");
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException(e);
            }
          }
          return kv;
        }

        @Override
        public void close() {
        }

        @Override
        public void seekToFirst() {
          next = 0;
        }

        @Override
        public void seekToLast() {
          next = Math.max(0, snapshot.size() - 1);
        }

        @Override
        public Table.KeyValue<DatanodeID, DatanodeDetails> seek(DatanodeID key) {
          throw new UnsupportedOperationException("seek");
        }

        @Override
        public void removeFromDB() {
          throw new UnsupportedOperationException("removeFromDB");
        }
      };
    }
  }
}
