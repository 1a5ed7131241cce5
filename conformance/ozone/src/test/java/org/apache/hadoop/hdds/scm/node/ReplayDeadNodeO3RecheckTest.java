package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O3 (HDDS-17067) in the model's own P2/O3 counterexample order
 * (scenarios/dead-node-real-DN_O3R.scn, finding DN-F1): dn1 goes DEAD (the real
 * NodeStateManager fires DEAD_NODE); the handler reads DEAD and is held at its first
 * ContainerManager.getContainer (closeContainers); dn1 registers again and its registration
 * report is applied (under the DatanodeInfo monitor; the handler holds none there); the handler
 * then goes on to its removal (with P2 its recheck under the monitor, with P2u its unlocked
 * reread) and ends, before any heartbeat or health check; then dn1 heartbeats and a check
 * makes it HEALTHY. O3: the handler removed the registration report's replica, and the read its
 * removal acts on preceded the report or saw DEAD on an unrefreshed heartbeat time (the model's
 * classify; DEAD on a refreshed time is R1's window, not O3's), and dn1 is up.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeO3RecheckTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O3R_recheckAfterReportBeforeHeartbeat(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.outageToDead();
        DeadNodeWiring.Pause atClose = r.w.pauseHandlerAtLookup(1);
        Thread dnh = r.startHandler(r.lastDeadNodePayload());
        if (!atClose.reachedOrEnded(dnh)) {
          throw new IllegalStateException("the handler ended before closeContainers");
        }
        r.registerAgain();
        r.applyRegistrationReport();
        atClose.release.countDown();
        r.join(dnh);
        r.endTrace(); // the order file ends here
        r.heartbeat();
        r.w.checkHealth();
        r.requireNoFailure();
        boolean reached = "O3".equals(r.window()) && !r.w.hasReplica(r.c, r.dn)
            && r.health() != NodeState.DEAD;
        Replay.record("DN_O3R", row, "O3", reached,
            "handler held in closeContainers until the report was applied, " + r.describe());
      }
    });
  }
}
