package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O2 (HDDS-17067) in the model's counterexample order
 * (returns-before-dead-deadline): dn1 stops and is STALE; shortly before its dead deadline it
 * registers again and its registration report is applied; the health check at the deadline
 * runs, every DEAD_NODE it fires is handled; then dn1's first heartbeat and a health check.
 * O2: SCM declared dn1 DEAD after its registration and its replica is gone although it is alive.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeO2Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O2_returnsBeforeDeadDeadline(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        for (int i = 0; i < 6; i++) {
          r.w.tick(); // model ticks: STALE at the 4th, the 6th just before the dead deadline
        }
        NodeState beforeDeadline = r.health();
        r.registerAgain();
        r.applyRegistrationReport();
        r.w.tick();
        NodeState atDeadline = r.health();
        for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(r.registeredAt)) {
          r.join(r.startHandler(f.payload()));
        }
        r.heartbeat();
        r.endTrace(); // the order file ends here
        r.w.checkHealth();
        r.requireNoFailure();
        boolean reached = !r.w.deadNodeEventsAfter(r.registeredAt).isEmpty()
            && r.health() != NodeState.DEAD && r.registrationReplica() != null
            && !r.w.hasReplica(r.c, r.dn);
        Replay.record("DN_O2", row, "O2", reached, "health before the registration="
            + beforeDeadline + ", after the check at the deadline=" + atDeadline + ", "
            + r.describe());
      }
    });
  }
}
