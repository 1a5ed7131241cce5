package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O5 (HDDS-17067) in the order of
 * scenarios/dead-node-resurrected-while-handled.scn: dn1 goes DEAD; the handler reads DEAD and is
 * held at its first ContainerManager.getContainer (closeContainers); dn1 registers again and its
 * report is applied; the handler goes on to its removal (with P2 its recheck under the monitor)
 * and is held there; a health check runs; the handler removes. O5: the datanode is up, SCM has
 * not declared it DEAD since its registration, and it lacks a replica of that report.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeO5Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O5_resurrectedWhileHandlerRemoves(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.outageToDead();
        DeadNodeWiring.Pause atClose = r.w.pauseHandlerAtLookup(1);
        DeadNodeWiring.Pause atRemoval = r.w.pauseHandlerAtLookup(2);
        Thread dnh = r.startHandler(r.lastDeadNodePayload());
        if (!atClose.reachedOrEnded(dnh)) {
          throw new IllegalStateException("the handler ended before closeContainers");
        }
        r.registerAgain();
        r.applyRegistrationReport();
        atClose.release.countDown();
        boolean paused = atRemoval.reachedOrEnded(dnh);
        r.w.checkHealth();
        atRemoval.release.countDown();
        r.join(dnh);
        r.heartbeat();
        r.endTrace(); // the order file ends here
        r.w.checkHealth();
        r.requireNoFailure();
        boolean reached = r.registrationReplica() != null
            && r.w.deadNodeEventsAfter(r.registeredAt).isEmpty()
            && !r.w.hasReplica(r.c, r.dn);
        Replay.record("DN_O5", row, "O5", reached,
            "handler held at its removal=" + paused + ", " + r.describe());
      }
    });
  }
}
