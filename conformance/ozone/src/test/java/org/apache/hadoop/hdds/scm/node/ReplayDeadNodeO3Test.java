package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O3 (HDDS-17067) in the order of scenarios/dead-node-unlocked-recheck.scn:
 * dn1 goes DEAD (the real NodeStateManager fires DEAD_NODE; its DatanodeInfo payload is what the
 * handler gets); dn1 registers again and its registration report waits for the report thread;
 * the DEAD_NODE handler runs up to its removal (held at its second ContainerManager.getContainer,
 * the first of removeContainerReplicas: after the released status read, P2u's reread, or
 * inside P2's monitor); the report thread then runs (or blocks on the monitor the handler
 * holds); then the handler goes on. O3: the handler removes the replica of the report applied
 * after the status read its removal acts on.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeO3Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O3_comesBackWhileHandlerDecides(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.outageToDead();
        r.registerAgain();
        DeadNodeWiring.Pause atRemoval = r.w.pauseHandlerAtLookup(2);
        Thread dnh = r.startHandler(r.lastDeadNodePayload());
        boolean paused = atRemoval.reachedOrEnded(dnh);
        Thread cr = r.reportThread();
        DeadNodeReplays.blockedOrEnded(cr);
        atRemoval.release.countDown();
        r.join(dnh);
        r.join(cr);
        r.endTrace(); // the order file ends here
        r.heartbeat();
        r.w.checkHealth();
        r.requireNoFailure();
        boolean reached = "O3".equals(r.window()) && !r.w.hasReplica(r.c, r.dn)
            && r.health() != NodeState.DEAD;
        Replay.record("DN_O3", row, "O3", reached,
            "handler held at its removal=" + paused + ", " + r.describe());
      }
    });
  }
}
