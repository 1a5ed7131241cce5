package org.apache.hadoop.hdds.scm.node;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.mockingDetails;
import static org.mockito.Mockito.when;

import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.container.ContainerReplica;
import org.apache.hadoop.hdds.scm.container.ContainerReportHandler;
import org.apache.hadoop.hdds.scm.pipeline.PipelineManager;
import org.junit.jupiter.api.Test;
import org.mockito.invocation.Invocation;
import racelab.conformance.Premise;

/**
 * dead-node (HDDS-17067): the premises of the model on Ozone 2.2.0's SCMNodeManager,
 * NodeStateManager, DeadNodeHandler and ContainerReportHandler. Written for racelab.
 */
public class DeadNodePremisesTest {

  /** DN-P1: registering a known node with the same address, ports and version refreshes nothing. */
  @Test
  public void DN_P1_registerDoesNotRefreshKnownNode() throws Exception {
    try (DeadNodeWiring w = new DeadNodeWiring()) {
      DatanodeDetails dn = DeadNodeWiring.datanode("dn1", "10.0.0.1");
      w.nodeManager.register(dn, null, null);
      w.makeDead(dn);
      NodeState before = w.health(dn);
      long hbBefore = w.nodeManager.getNodeStateManager().getNode(dn).getLastHeartbeatTime();
      DatanodeInfo infoBefore = w.nodeManager.getNodeStateManager().getNode(dn);
      // the datanode comes back: same address, ports and version
      w.nodeManager.register(copyOf(dn), null, null);
      DatanodeInfo infoAfter = w.nodeManager.getNodeStateManager().getNode(dn);
      long hbAfter = infoAfter.getLastHeartbeatTime();
      w.checkHealth();
      NodeState after = w.health(dn);
      Premise.check(
          "SCMNodeManager.register of a known node with unchanged address, ports and version "
              + "does not refresh its heartbeat time: a DEAD node stays DEAD at the next health "
              + "check",
          before == NodeState.DEAD && hbAfter == hbBefore && infoAfter == infoBefore
              && after == NodeState.DEAD,
          "health before=" + before + ", last heartbeat unchanged=" + (hbAfter == hbBefore)
              + ", same DatanodeInfo=" + (infoAfter == infoBefore) + ", health after the next "
              + "check=" + after);
    }
  }

  static DatanodeDetails copyOf(DatanodeDetails dn) {
    return DatanodeDetails.newBuilder(dn.getProtoBufMessage()).build();
  }

  /**
   * DN-P2 (from the code, O7/R3): a registration with a changed address replaces the
   * DatanodeInfo (a new monitor, an empty container set, HEALTHY with no transition event).
   */
  @Test
  public void DN_P2_addressChangeReplacesDatanodeInfo() throws Exception {
    try (DeadNodeWiring w = new DeadNodeWiring()) {
      DatanodeDetails dn = DeadNodeWiring.datanode("dn1", "10.0.0.1");
      w.nodeManager.register(dn, null, null);
      ContainerID c = w.closedContainer(1);
      w.nodeManager.addContainer(dn, c);
      w.makeDead(dn);
      DatanodeInfo before = w.nodeManager.getNodeStateManager().getNode(dn);
      DatanodeDetails moved = DatanodeDetails.newBuilder(dn.getProtoBufMessage())
          .setIpAddress("10.0.0.2").setHostName("dn1b").build();
      w.nodeManager.register(moved, null, null);
      DatanodeInfo after = w.nodeManager.getNodeStateManager().getNode(dn);
      boolean replaced = after != before;
      boolean emptied = w.nodeManager.getContainers(dn).isEmpty();
      NodeState health = w.health(dn);
      Premise.check(
          "SCMNodeManager.register with a changed address goes through "
              + "NodeStateManager.updateNode: a new DatanodeInfo object (another monitor), an "
              + "empty container-ID set, health HEALTHY at once",
          replaced && emptied && health == NodeState.HEALTHY,
          "DatanodeInfo replaced=" + replaced + ", container set emptied=" + emptied
              + ", health=" + health);
    }
  }

  /**
   * DN-P3: DeadNodeHandler.onMessage reads the node's status before closing containers and
   * does not read it again before removeContainerReplicas (2.2.0's second read, HDDS-14834,
   * guards only the topology removal). The "no longer DEAD" comes from the real SCMNodeManager:
   * while the handler waits in closeContainers (a ContainerManager lookup), the datanode
   * heartbeats and a real health check resurrects it; the handler's status reads are recorded
   * by a proxy over the real NodeManager, and it gets the DEAD_NODE payload NodeStateManager
   * fired.
   */
  @Test
  public void DN_P3_deadNodeHandlerReadsStatusOnceBeforeRemoval() throws Exception {
    try (DeadNodeReplays r = new DeadNodeReplays()) {
      r.outageToDead();
      DeadNodeWiring.Pause atClose = r.w.pauseHandlerAtLookup(1);
      Thread dnh = r.startHandler(r.lastDeadNodePayload());
      if (!atClose.reachedOrEnded(dnh)) {
        throw new IllegalStateException("the handler ended before closeContainers");
      }
      r.w.nodeManager.processHeartbeat(r.dn, null);
      r.w.checkHealth();
      NodeState atRemoval = r.health();
      atClose.release.countDown();
      r.join(dnh);
      r.requireNoFailure();
      DeadNodeWiring.Removed removal = r.w.removed.isEmpty() ? null : r.w.removed.get(0);
      int readsBeforeRemoval = 0;
      for (DeadNodeReplays.Read read : r.observed.reads) {
        if (removal != null && read.seq() < removal.seq()) {
          readsBeforeRemoval++;
        }
      }
      Premise.check(
          "DeadNodeHandler.onMessage reads the status once before removeContainerReplicas "
              + "and removes the node's replicas although the node is no longer DEAD at "
              + "removal time",
          removal != null && readsBeforeRemoval == 1 && atRemoval != NodeState.DEAD
              && removal.health() != NodeState.DEAD && !r.w.hasReplica(r.c, r.dn),
          "health by the real NodeManager before the removal=" + atRemoval + ", at the removal="
              + (removal == null ? "-" : removal.health()) + ", status reads before the "
              + "removal=" + readsBeforeRemoval + ", all reads=" + r.observed.reads
              + ", replica removed=" + (removal != null));
    }
  }

  /** DN-P4: ContainerReportHandler applies a full report whatever the node's health. */
  @Test
  public void DN_P4_containerReportAppliedWhateverHealth() throws Exception {
    try (DeadNodeWiring w = new DeadNodeWiring()) {
      DatanodeDetails dn = DeadNodeWiring.datanode("dn1", "10.0.0.1");
      w.nodeManager.register(dn, null, null);
      w.makeDead(dn);
      ContainerID c = w.closedContainer(1);
      NodeState health = w.health(dn);
      new ContainerReportHandler(w.nodeManager, w.containerManager)
          .onMessage(DeadNodeWiring.registrationReport(dn, c), w.publisher);
      Premise.check(
          "ContainerReportHandler.onMessage applies a full container report of a DEAD node "
              + "(no health check): the replica is added",
          health == NodeState.DEAD && w.hasReplica(c, dn)
              && w.nodeManager.getContainers(dn).contains(c),
          "health=" + health + ", replica added=" + w.hasReplica(c, dn)
              + ", in the node's container set=" + w.nodeManager.getContainers(dn).contains(c));
    }
  }
}
