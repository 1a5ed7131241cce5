package org.apache.hadoop.hdds.scm.node;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.container.ContainerInfo;
import org.apache.hadoop.hdds.scm.container.ContainerReportHandler;
import org.apache.hadoop.hdds.scm.pipeline.PipelineManager;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;
import racelab.conformance.Threads;

/**
 * Replay of racelab's dead-node O3 counterexample (HDDS-17067) on Ozone 2.2.0: a datanode comes
 * back while DeadNodeHandler.onMessage runs for it. Real SCMNodeManager (NodeStateManager,
 * DatanodeInfo), DeadNodeHandler and ContainerReportHandler; the ContainerManager is a map.
 *
 * <p>Order, forced by one latch in a collaborator: the DEAD_NODE handler thread reads DEAD and
 * blocks at its first ContainerManager.getContainer (in closeContainers; the report's own hook).
 * Meanwhile the datanode registers (SCMNodeManager.register: nothing refreshed), the container
 * report thread applies its registration report (the replica is added again), the datanode
 * heartbeats and a health check resurrects it. Then the handler goes on: removeContainerReplicas
 * removes the replica just reported. Outcome O3: the node is alive (not DEAD) and the replica of
 * its last applied full report is gone. Self-contained apart from DeadNodeWiring.
 */
public class ReplayDeadNodeO3Test {

  @Test
  public void DN_O3_registrationWhileDeadNodeHandlerRuns() throws Exception {
    try (DeadNodeWiring w = new DeadNodeWiring()) {
      DatanodeDetails dn = DeadNodeWiring.datanode("dn1", "10.0.0.1");
      ContainerID c = w.closedContainer(1);
      ContainerReportHandler reports = new ContainerReportHandler(w.nodeManager,
          w.containerManager);
      w.nodeManager.register(dn, null, null);
      reports.onMessage(DeadNodeWiring.registrationReport(dn, c), w.publisher);
      boolean replicaAtStart = w.hasReplica(c, dn);
      w.makeDead(dn); // fires DEAD_NODE

      // the hook: the handler thread's first container lookup waits for the comeback
      CountDownLatch handlerAtFirstLookup = new CountDownLatch(1);
      CountDownLatch comebackApplied = new CountDownLatch(1);
      AtomicBoolean hooked = new AtomicBoolean();
      ContainerInfo info = w.containerManager.getContainer(c);
      when(w.containerManager.getContainer(any(ContainerID.class))).thenAnswer(inv -> {
        if (Thread.currentThread().getName().equals("DeadNodeHandler")
            && hooked.compareAndSet(false, true)) {
          handlerAtFirstLookup.countDown();
          if (!comebackApplied.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no comeback");
          }
        }
        return info;
      });
      DeadNodeHandler handler = new DeadNodeHandler(w.nodeManager, mock(PipelineManager.class),
          w.containerManager);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread dnh = Threads.recording("DeadNodeHandler", failed,
          () -> handler.onMessage(dn, w.publisher));
      dnh.start();
      if (!handlerAtFirstLookup.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("the handler never reached closeContainers");
      }
      NodeState whenHandlerRead = w.health(dn);

      // the datanode comes back: register, registration report, heartbeat, health check
      w.nodeManager.register(DeadNodePremisesTest.copyOf(dn), null, null);
      Thread cr = new Thread(() -> reports.onMessage(
          DeadNodeWiring.registrationReport(dn, c), w.publisher), "ContainerReport");
      cr.start();
      cr.join();
      boolean reAdded = w.hasReplica(c, dn);
      w.nodeManager.processHeartbeat(dn, null);
      w.checkHealth();
      NodeState back = w.health(dn);
      comebackApplied.countDown();
      dnh.join(30_000);

      NodeState end = w.health(dn);
      boolean replicaGone = !w.hasReplica(c, dn);
      Premise.check(
          "dead-node O3 replays on Ozone 2.2.0: a node that came back while "
              + "DeadNodeHandler.onMessage ran is alive, and the replica of its registration "
              + "report is removed",
          failed.get() == null && replicaAtStart && reAdded && end != NodeState.DEAD
              && replicaGone,
          "health when the handler read=" + whenHandlerRead + ", replica re-added by the "
              + "registration report=" + reAdded + ", health after heartbeat and check=" + back
              + ", at the end=" + end + ", replica removed by the handler=" + replicaGone
              + (failed.get() == null ? "" : ", handler failed: " + failed.get()));
    }
  }
}
