package org.apache.hadoop.hdds.scm.node;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdds.client.RatisReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.DatanodeID;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos.ContainerReplicaProto;
import org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos.ContainerReportsProto;
import org.apache.hadoop.hdds.scm.ScmConfigKeys;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.container.ContainerInfo;
import org.apache.hadoop.hdds.scm.container.ContainerManager;
import org.apache.hadoop.hdds.scm.container.ContainerReplica;
import org.apache.hadoop.hdds.scm.events.SCMEvents;
import org.apache.hadoop.hdds.scm.ha.SCMContext;
import org.apache.hadoop.hdds.scm.net.NetworkTopologyImpl;
import org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher.ContainerReportFromDatanode;
import org.apache.hadoop.hdds.scm.server.SCMStorageConfig;
import org.apache.hadoop.hdds.server.events.EventQueue;
import org.apache.hadoop.hdds.upgrade.HDDSLayoutVersionManager;
import org.apache.hadoop.util.Time;
import racelab.search.Mocks;
import racelab.trace.Recorder;
import racelab.trace.deadnode.Probes;

/**
 * A real SCMNodeManager (or Recon's ReconNodeManager, by the factory constructor; its
 * NodeStateManager and DatanodeInfo) of Ozone 2.2.0, and a
 * ContainerManager stand-in that keeps replicas in a map (the one piece that would need SCM's
 * RocksDB and Ratis). The background health checker is scheduled an hour away: the tests run
 * checkNodesHealth themselves. Written for racelab.
 */
final class DeadNodeWiring implements AutoCloseable {
  final SCMNodeManager nodeManager;
  final ContainerManager containerManager;
  /**
   * The node manager's event queue (Recon's constructor takes an EventQueue): a mock that records
   * DEAD_NODE events ({@link #collaborators}).
   */
  final EventQueue publisher = mock(EventQueue.class, this::collaborators);
  final Map<ContainerID, Set<ContainerReplica>> replicas = new ConcurrentHashMap<>();
  final Map<ContainerID, ContainerInfo> containers = new ConcurrentHashMap<>();
  /** One order for everything the collaborators see (events, replica updates and removals). */
  final AtomicLong seq = new AtomicLong();
  /** DEAD_NODE events as the real NodeStateManager fires them: the payload it hands over. */
  final List<Fired> deadNodeEvents = new CopyOnWriteArrayList<>();
  final List<Applied> applied = new CopyOnWriteArrayList<>();
  final List<Removed> removed = new CopyOnWriteArrayList<>();
  /** Pauses of the DEAD_NODE handler thread at its n-th ContainerManager.getContainer. */
  final Map<Integer, Pause> pauses = new ConcurrentHashMap<>();
  private final AtomicInteger handlerLookups = new AtomicInteger();
  /** The model's actor the main thread plays when it runs a health check (trace recorder). */
  String checker = "HB-checker";

  /** A DEAD_NODE event: its order and payload. */
  record Fired(long seq, DatanodeDetails payload) { }

  /** A replica written by a report: its order, thread and the DatanodeInfo current then. */
  record Applied(long seq, String thread, DatanodeID node, ContainerID container,
      DatanodeInfo info) { }

  /** A replica removed: its order, thread, and the real state at that moment. */
  record Removed(long seq, String thread, DatanodeID node, ContainerID container,
      DatanodeInfo current, DatanodeInfo held, HddsProtos.NodeState health) { }

  /** The handler thread waits here until released. */
  static final class Pause {
    final CountDownLatch arrived = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    /** Waits until the handler is here or has ended; true if it is here. */
    boolean reachedOrEnded(Thread handler) throws InterruptedException {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < end) {
        if (arrived.await(10, TimeUnit.MILLISECONDS)) {
          return true;
        }
        if (!handler.isAlive()) {
          return false;
        }
      }
      throw new IllegalStateException("the handler neither paused nor ended in 30 s");
    }
  }

  /** Makes the node manager under test (SCM's, or Recon's subclass). */
  interface NodeManagerFactory {
    SCMNodeManager make(OzoneConfiguration conf, SCMStorageConfig storage, EventQueue publisher,
        HDDSLayoutVersionManager lvm) throws Exception;
  }

  /** SCM: a real SCMNodeManager and a ContainerManager stand-in. */
  DeadNodeWiring() throws Exception {
    this(ContainerManager.class, (conf, storage, publisher, lvm) -> new SCMNodeManager(conf,
        storage, publisher, new NetworkTopologyImpl(conf), SCMContext.emptyContext(), lvm));
  }

  /**
   * The node manager the factory makes, and a stand-in of the given ContainerManager class
   * (Recon's handlers cast to ReconContainerManager).
   */
  DeadNodeWiring(Class<? extends ContainerManager> containerManagerClass,
      NodeManagerFactory factory) throws Exception {
    Recorder.observe("dead-node", Probes.ALL);
    // one answer per mock, by method, not stubs with any() matchers: Mockito matches those
    // through a map keyed by the matcher's Class (an identity hash), which under Fray made the
    // steps of the race's threads differ from one JVM to the next (conformance/README.md,
    // "Second look")
    containerManager = mock(containerManagerClass, this::collaborators);
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.setTimeDuration(ScmConfigKeys.OZONE_SCM_HEARTBEAT_PROCESS_INTERVAL, 1, TimeUnit.HOURS);
    conf.setTimeDuration("ozone.scm.stale.node.interval", 3, TimeUnit.HOURS);
    conf.setTimeDuration("ozone.scm.dead.node.interval", 6, TimeUnit.HOURS);
    SCMStorageConfig storage = mock(SCMStorageConfig.class);
    when(storage.getClusterID()).thenReturn("cluster-1");
    // A finalized SCM (metadata layout at the software's): every layout matches, as in the
    // model. (The storage mock's layout version 0 made Recon's reload, which registers the rows
    // at maxLayoutVersion, a layout mismatch: the replaced DatanodeInfo came up HEALTHY_READONLY.)
    HDDSLayoutVersionManager lvm =
        new HDDSLayoutVersionManager(HDDSLayoutVersionManager.maxLayoutVersion());
    nodeManager = factory.make(conf, storage, publisher, lvm);
  }

  /**
   * The collaborators' answers: the event queue's fireEvent (DEAD_NODE recorded); the
   * ContainerManager's getContainer (where the DEAD_NODE handler may pause),
   * getContainerReplicas, updateContainerReplica and removeContainerReplica over {@link #replicas}
   * and {@link #containers}; every other call Mockito's default.
   */
  private Object collaborators(org.mockito.invocation.InvocationOnMock inv) throws Throwable {
    String method = inv.getMethod().getName();
    if (inv.getMock() == publisher) {
      if (method.equals("fireEvent") && inv.getArgument(0) == SCMEvents.DEAD_NODE) {
        deadNodeEvents.add(new Fired(seq.incrementAndGet(), inv.getArgument(1)));
      }
      return org.mockito.Answers.RETURNS_DEFAULTS.answer(inv);
    }
    switch (method) {
      case "getContainer":
        return getContainer(inv.getArgument(0, ContainerID.class));
      case "getContainerReplicas":
        return new HashSet<>(replicas.getOrDefault(inv.getArgument(0, ContainerID.class),
            new HashSet<>()));
      case "updateContainerReplica":
        updateReplica(inv.getArgument(0), inv.getArgument(1));
        return null;
      case "removeContainerReplica":
        removeReplica(inv.getArgument(0), inv.getArgument(1));
        return null;
      default:
        return org.mockito.Answers.RETURNS_DEFAULTS.answer(inv);
    }
  }

  private ContainerInfo getContainer(ContainerID id) throws Exception {
    if (Thread.currentThread().getName().equals("DeadNodeHandler")) {
      Pause p = pauses.get(handlerLookups.incrementAndGet());
      if (p != null) {
        p.arrived.countDown();
        if (!p.release.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the harness never released the handler");
        }
      }
    }
    ContainerInfo c = containers.get(id);
    if (c == null) {
      throw new org.apache.hadoop.hdds.scm.container.ContainerNotFoundException(id);
    }
    return c;
  }

  private void updateReplica(ContainerID id, ContainerReplica r) {
    Set<ContainerReplica> set = replicas.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet());
    set.remove(r);
    set.add(r);
    DatanodeDetails dn = r.getDatanodeDetails();
    applied.add(new Applied(seq.incrementAndGet(), Thread.currentThread().getName(),
        dn.getID(), id, nodeManager.getDatanodeInfo(dn)));
  }

  private void removeReplica(ContainerID id, ContainerReplica r) throws Exception {
    Set<ContainerReplica> set = replicas.get(id);
    if (set != null && set.remove(r)) {
      DatanodeInfo current = nodeManager.getDatanodeInfo(r.getDatanodeDetails());
      removed.add(new Removed(seq.incrementAndGet(), Thread.currentThread().getName(),
          r.getDatanodeDetails().getID(), id, current, heldInfo(),
          nodeManager.getNodeStatus(r.getDatanodeDetails()).getHealth()));
    }
  }

  static DatanodeDetails datanode(String host, String ip) {
    // in a Fray JVM a UUID of the host's: DatanodeID.of interns IDs in a ConcurrentHashMap, where
    // a random UUID's bin (a CAS, or a lock when taken) changed the steps from one JVM to the
    // next; a fixed one is found there by every run after the warm-up, the search's and the
    // replay's alike
    UUID id = Mocks.frayJvm()
        ? UUID.nameUUIDFromBytes((host + "/" + ip).getBytes(StandardCharsets.UTF_8))
        : UUID.randomUUID();
    return DatanodeDetails.newBuilder().setID(DatanodeID.of(id))
        .setHostName(host).setIpAddress(ip)
        .addPort(DatanodeDetails.newStandalonePort(9859))
        .addPort(DatanodeDetails.newRatisPort(9858))
        .addPort(DatanodeDetails.newRestPort(9880))
        .build();
  }

  /** A CLOSED Ratis/THREE container at sequence id 10. */
  ContainerID closedContainer(long id) {
    ContainerInfo c = new ContainerInfo.Builder().setContainerID(id)
        .setState(HddsProtos.LifeCycleState.CLOSED)
        .setReplicationConfig(RatisReplicationConfig.getInstance(
            HddsProtos.ReplicationFactor.THREE))
        .setOwner("racelab").setSequenceId(10).build();
    containers.put(c.containerID(), c);
    return c.containerID();
  }

  /** A full container report holding one CLOSED replica of each container. */
  static ContainerReportsProto report(DatanodeDetails dn, ContainerID... ids) {
    ContainerReportsProto.Builder b = ContainerReportsProto.newBuilder();
    for (ContainerID id : ids) {
      b.addReports(ContainerReplicaProto.newBuilder().setContainerID(id.getId())
          .setState(ContainerReplicaProto.State.CLOSED)
          .setOriginNodeId(dn.getUuidString()).setBlockCommitSequenceId(10)
          .setKeyCount(1).setUsed(1024).setReadCount(0).setWriteCount(0)
          .setReadBytes(0).setWriteBytes(0).setDeleteTransactionId(0).build());
    }
    return b.build();
  }

  static ContainerReportFromDatanode registrationReport(DatanodeDetails dn,
      ContainerID... ids) {
    return new ContainerReportFromDatanode(dn, report(dn, ids), true);
  }

  boolean hasReplica(ContainerID id, DatanodeDetails dn) {
    return replicas.getOrDefault(id, new HashSet<>()).stream()
        .anyMatch(r -> r.getDatanodeDetails().getID().equals(dn.getID()));
  }

  HddsProtos.NodeState health(DatanodeDetails dn) throws Exception {
    return nodeManager.getNodeStatus(dn).getHealth();
  }

  /**
   * The datanode stops: health checks one model tick (an hour, a third of the stale interval)
   * apart until it is DEAD (DEAD_NODE fired): STALE at the 4th, DEAD at the 7th, as the model's
   * health checker, which runs one checkNodesHealth per tick. The first tick is a minute short,
   * so that the real time the run takes never tips a check over an interval boundary.
   */
  void makeDead(DatanodeDetails dn) throws Exception {
    for (int i = 0; i < 10 && health(dn) != HddsProtos.NodeState.DEAD; i++) {
      tick();
    }
    if (health(dn) != HddsProtos.NodeState.DEAD || deadNodeEvents.isEmpty()) {
      throw new IllegalStateException("the outage did not make the node DEAD: " + health(dn));
    }
  }

  private int ticks;

  /** One model tick: the clock advances an hour (the first a minute less), then a check. */
  void tick() throws Exception {
    long hour = staleMs() / 3;
    elapse(ticks++ == 0 ? hour - TimeUnit.MINUTES.toMillis(1) : hour);
    checkHealth();
  }

  /** Every DatanodeInfo the collaborators have seen (event payloads, reports' nodes). */
  private final Set<DatanodeInfo> infos =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  private synchronized DatanodeInfo heldInfo() {
    for (Fired f : deadNodeEvents) {
      if (f.payload() instanceof DatanodeInfo) {
        infos.add((DatanodeInfo) f.payload());
      }
    }
    for (Applied a : applied) {
      if (a.info() != null) {
        infos.add(a.info());
      }
    }
    for (DatanodeInfo i : nodeManager.getNodeStateManager().getAllNodes()) {
      infos.add(i);
    }
    for (DatanodeInfo i : infos) {
      if (Thread.holdsLock(i)) {
        return i;
      }
    }
    return null;
  }

  /** Pauses the handler thread at its n-th ContainerManager.getContainer (counted from 1). */
  Pause pauseHandlerAtLookup(int n) {
    Pause p = new Pause();
    pauses.put(n, p);
    return p;
  }

  /**
   * The clock advances by ms for the node manager: every node's last heartbeat time moves back
   * by ms (checkNodesHealth, and P4, compare heartbeat times with Time.monotonicNow()).
   */
  void elapse(long ms) {
    for (DatanodeInfo info : nodeManager.getNodeStateManager().getAllNodes()) {
      info.updateLastHeartbeatTime(info.getLastHeartbeatTime() - ms);
    }
  }

  long staleMs() throws Exception {
    return intervalMs("staleNodeIntervalMs");
  }

  long deadMs() throws Exception {
    return intervalMs("deadNodeIntervalMs");
  }

  private long intervalMs(String field) throws Exception {
    java.lang.reflect.Field f = NodeStateManager.class.getDeclaredField(field);
    f.setAccessible(true);
    return f.getLong(nodeManager.getNodeStateManager());
  }

  /** The DEAD_NODE events fired after order {@code after}. */
  List<Fired> deadNodeEventsAfter(long after) {
    List<Fired> out = new ArrayList<>();
    for (Fired f : deadNodeEvents) {
      if (f.seq() > after) {
        out.add(f);
      }
    }
    return out;
  }

  /** One health check, the main thread playing the model's health checker. */
  void checkHealth() {
    act(checker);
    try {
      nodeManager.getNodeStateManager().checkNodesHealth();
    } finally {
      Recorder.act(null);
    }
  }

  /**
   * The final state as the model's describe() names it: dn1's health (dn1=DEAD) and the
   * datanodes holding container 1 (replicas1=dn1, or none).
   */
  Map<String, String> modelState(DatanodeDetails dn, ContainerID c) throws Exception {
    return Map.of("dn1", String.valueOf(health(dn)),
        "replicas" + c.getId(), hasReplica(c, dn) ? "dn1" : "none");
  }

  /** Ends the run's trace with {@link #modelState}. */
  void endTrace(DatanodeDetails dn, ContainerID c) throws Exception {
    if (ended) {
      return;
    }
    Recorder.act(null);
    Recorder.end(modelState(dn, c));
    ended = true;
  }

  /**
   * Set when the trace has ended: what the replay does after the order file's last step (a
   * heartbeat and a health check that show the outcome) is not recorded.
   */
  volatile boolean ended;

  /** The current thread plays the model's actor (none once the trace has ended). */
  void act(String actor) {
    Recorder.act(ended ? null : actor);
  }

  /**
   * The health check scheduled an hour away is cancelled first: NodeStateManager.close calls
   * shutdown() and then waits up to 5 s for the executor, which a pending delayed task keeps
   * alive; a cancelled one is dropped at shutdown and close returns at once.
   */
  @Override
  public void close() throws Exception {
    nodeManager.pauseHealthCheck();
    nodeManager.close();
  }
}
