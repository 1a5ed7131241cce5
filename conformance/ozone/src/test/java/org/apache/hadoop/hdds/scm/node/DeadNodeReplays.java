package org.apache.hadoop.hdds.scm.node;

import static org.mockito.Mockito.mock;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.container.ContainerReportHandler;
import org.apache.hadoop.hdds.scm.pipeline.PipelineManager;
import org.apache.hadoop.util.Time;
import racelab.conformance.Threads;
import racelab.trace.Recorder;

/**
 * The dead-node replays' common steps on the real classes (DeadNodeWiring's SCMNodeManager,
 * NodeStateManager, DatanodeInfo, DeadNodeHandler, ContainerReportHandler), and the model's
 * classification of a wrong removal, applied to what the collaborators observed. Written for
 * racelab.
 */
final class DeadNodeReplays implements AutoCloseable {
  static final String HANDLER = "DeadNodeHandler";

  final DeadNodeWiring w;
  final DatanodeDetails dn = DeadNodeWiring.datanode("dn1", "10.0.0.1");
  final ContainerID c;
  final ContainerReportHandler reports;
  /** The handler's NodeManager: the real one, its status reads recorded. */
  final Observed observed;
  final DeadNodeHandler handler;
  final AtomicReference<Throwable> failed = new AtomicReference<>();
  /** Names of the DatanodeInfo objects in this replay's records. */
  final Labels labels = new Labels();
  /** The order of the datanode's registration after its outage (0: none). */
  long registeredAt;
  Thread handlerThread;
  /** The model's actors the harness threads play (trace recorder). */
  static final String DATANODE = "RPC-dn1";
  static final String REPORT_ACTOR = "CR-thread-dn1";
  static final String HANDLER_ACTOR = "DNH-thread";

  DeadNodeReplays() throws Exception {
    w = new DeadNodeWiring();
    c = w.closedContainer(1);
    reports = new ContainerReportHandler(w.nodeManager, w.containerManager);
    observed = new Observed(w);
    handler = new DeadNodeHandler(observed.proxy(), mock(PipelineManager.class),
        w.containerManager);
    w.nodeManager.register(dn, null, null);
    labels.of(w.nodeManager.getDatanodeInfo(dn)); // DatanodeInfo#1: the first registration's
    reports.onMessage(DeadNodeWiring.registrationReport(dn, c), w.publisher);
    if (!w.hasReplica(c, dn)) {
      throw new IllegalStateException("the first report added no replica");
    }
  }

  /** A status read of the handler thread: its order, what it saw, and the heartbeat time. */
  record Read(long seq, NodeState health, boolean withinStaleDeadline) { }

  /** The real NodeManager behind a recording proxy (the handler's collaborator). */
  static final class Observed implements InvocationHandler, Supplier<SCMNodeManager> {
    final DeadNodeWiring w;
    final List<Read> reads = new CopyOnWriteArrayList<>();

    Observed(DeadNodeWiring w) {
      this.w = w;
    }

    NodeManager proxy() {
      return (NodeManager) Proxy.newProxyInstance(NodeManager.class.getClassLoader(),
          new Class<?>[] {NodeManager.class}, this);
    }

    @Override
    public SCMNodeManager get() {
      return w.nodeManager;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      Object out;
      try {
        out = method.invoke(w.nodeManager, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (method.getName().equals("getNodeStatus")
          && Thread.currentThread().getName().equals(HANDLER)) {
        DatanodeInfo info = w.nodeManager.getDatanodeInfo((DatanodeDetails) args[0]);
        reads.add(new Read(w.seq.incrementAndGet(), ((NodeStatus) out).getHealth(),
            info.getLastHeartbeatTime() >= Time.monotonicNow() - w.staleMs()));
      }
      return out;
    }
  }

  NodeState health() throws Exception {
    return w.health(dn);
  }

  /** The datanode stops: {@link DeadNodeWiring#makeDead}. */
  void outageToDead() throws Exception {
    w.makeDead(dn);
  }

  /** The last DEAD_NODE payload, as the real NodeStateManager fired it. */
  DatanodeDetails lastDeadNodePayload() {
    return w.deadNodeEvents.get(w.deadNodeEvents.size() - 1).payload();
  }

  /** The datanode registers again (same address, ports and version). */
  void registerAgain() {
    registeredAt = w.seq.incrementAndGet();
    w.act(DATANODE);
    try {
      w.nodeManager.register(DeadNodePremisesTest.copyOf(dn), null, null);
    } finally {
      Recorder.act(null);
    }
  }

  /** dn1 heartbeats (the datanode's actor). */
  void heartbeat() {
    w.act(DATANODE);
    try {
      w.nodeManager.processHeartbeat(dn, null);
    } finally {
      Recorder.act(null);
    }
  }

  /** Ends the run's trace with the final state the model describes. */
  void endTrace() throws Exception {
    w.endTrace(dn, c);
  }

  /** The datanode registers again with a new address (updateNode replaces its DatanodeInfo). */
  void registerAtNewAddress() {
    registeredAt = w.seq.incrementAndGet();
    w.act(DATANODE);
    try {
      w.nodeManager.register(DatanodeDetails.newBuilder(dn.getProtoBufMessage())
          .setIpAddress("10.0.0.2").setHostName("dn1b").build(), null, null);
    } finally {
      Recorder.act(null);
    }
  }

  /** The registration report on the container report thread; returns the thread, started. */
  Thread reportThread() {
    Thread t = Threads.recording("ContainerReport", failed,
        () -> {
          w.act(REPORT_ACTOR);
          reports.onMessage(DeadNodeWiring.registrationReport(dn, c), w.publisher);
        });
    t.start();
    return t;
  }

  void applyRegistrationReport() throws Exception {
    join(reportThread());
  }

  /** The DEAD_NODE handler thread for the payload, started. */
  Thread startHandler(DatanodeDetails payload) {
    handlerThread = Threads.recording(HANDLER, failed,
        () -> {
          w.act(HANDLER_ACTOR);
          handler.onMessage(payload, w.publisher);
        });
    handlerThread.start();
    return handlerThread;
  }

  void join(Thread t) throws Exception {
    t.join(30_000);
    if (t.isAlive()) {
      throw new IllegalStateException(t.getName() + " did not end in 30 s");
    }
  }

  /** Waits until t is BLOCKED (on a monitor) or ended. */
  static void blockedOrEnded(Thread t) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < end) {
      Thread.State s = t.getState();
      if (s == Thread.State.BLOCKED || s == Thread.State.TERMINATED) {
        return;
      }
      Thread.sleep(5);
    }
    throw new IllegalStateException(t.getName() + " neither blocked nor ended in 30 s");
  }

  /** The first report replica written after the registration (the registration report's). */
  DeadNodeWiring.Applied registrationReplica() {
    for (DeadNodeWiring.Applied a : w.applied) {
      if (a.seq() > registeredAt && a.node().equals(dn.getID())) {
        return a;
      }
    }
    return null;
  }

  /** The removal of the registration report's replica by the handler, if any. */
  DeadNodeWiring.Removed removalOfRegistrationReplica() {
    DeadNodeWiring.Applied a = registrationReplica();
    if (a == null) {
      return null;
    }
    for (DeadNodeWiring.Removed r : w.removed) {
      if (r.seq() > a.seq() && r.thread().equals(HANDLER) && r.node().equals(dn.getID())) {
        return r;
      }
    }
    return null;
  }

  /** The handler's last status read before order seq: the read its removal acts on. */
  Read decidingRead(long seq) {
    Read last = null;
    for (Read r : observed.reads) {
      if (r.seq() < seq) {
        last = r;
      }
    }
    return last;
  }

  /**
   * The model's window for the handler's removal of a replica the registration report (after
   * the node went DEAD) wrote (dead_node_handler::classify): R3 if the handler held another
   * DatanodeInfo's monitor than the one current when the report was applied; O3 if the report
   * was applied after the read the removal acts on, or that read was not DEAD; R1 if it was
   * DEAD on a heartbeat time within the stale deadline (refreshed since the check that declared
   * DEAD); O3 otherwise. Null when no such replica was removed.
   */
  String window() {
    DeadNodeWiring.Applied a = registrationReplica();
    DeadNodeWiring.Removed r = removalOfRegistrationReplica();
    if (a == null || r == null) {
      return null;
    }
    if (r.held() != null && r.held() != a.info()) {
      return "R3";
    }
    Read d = decidingRead(r.seq());
    if (d == null || a.seq() > d.seq() || d.health() != NodeState.DEAD) {
      return "O3";
    }
    return d.withinStaleDeadline() ? "R1" : "O3";
  }

  /** What the state shows, for the record. */
  String describe() throws Exception {
    DeadNodeWiring.Applied a = registrationReplica();
    DeadNodeWiring.Removed r = removalOfRegistrationReplica();
    return "dn1 " + health() + ", replica of container 1 on dn1 " + (w.hasReplica(c, dn)
        ? "present" : "absent") + "; registration report applied="
        + (a != null) + (a == null ? "" : " (DatanodeInfo current then " + id(a.info()) + ")")
        + ", handler removed it=" + (r != null)
        + (r == null ? "" : " (health then " + r.health() + ", monitor held "
            + (r.held() == null ? "none" : id(r.held())) + ", current " + id(r.current())
            + ", deciding read " + decidingRead(r.seq()) + ")")
        + ", DEAD_NODE events after the registration="
        + (registeredAt == 0 ? "-" : String.valueOf(w.deadNodeEventsAfter(registeredAt).size()))
        + ", window=" + window()
        + (failed.get() == null ? "" : ", a thread failed: " + failed.get());
  }

  String id(Object o) {
    return labels.of(o);
  }

  /**
   * Stable names for DatanodeInfo objects in a record: "DatanodeInfo#1" is the object the
   * replay's first registration created (labelled at setup), further objects "#2", "#3" in the
   * order a record first names them; the same object always has the same name. (Identity hash
   * codes differed from run to run, and the records must not.)
   */
  static final class Labels {
    private final java.util.IdentityHashMap<Object, Integer> seen = new java.util.IdentityHashMap<>();

    synchronized String of(Object o) {
      if (o == null) {
        return "null";
      }
      return "DatanodeInfo#" + seen.computeIfAbsent(o, k -> seen.size() + 1);
    }
  }

  /** Throws if a harness thread failed (then no record is printed). */
  void requireNoFailure() {
    if (failed.get() != null) {
      throw new IllegalStateException("a replay thread failed", failed.get());
    }
  }

  @Override
  public void close() throws Exception {
    w.close();
  }
}
