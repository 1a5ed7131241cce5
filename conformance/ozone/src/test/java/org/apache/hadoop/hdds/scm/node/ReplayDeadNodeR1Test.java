package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node R1 (HDDS-17067) in the model's counterexample order (P1.R1 at
 * comes-back-while-dead-node-handler-runs): dn1 goes DEAD and DEAD_NODE waits for the handler;
 * dn1 registers again and its registration report is applied; then the handler runs, before the
 * next health check, and reads DEAD. R1: the deciding read followed the report and saw DEAD on a
 * heartbeat time within the stale deadline (refreshed by the registration), and the replica was
 * removed.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeR1Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_R1_queuedHandlerAfterComeback(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.outageToDead();
        r.registerAgain();
        r.applyRegistrationReport();
        r.join(r.startHandler(r.lastDeadNodePayload()));
        r.endTrace(); // the order file ends here
        r.heartbeat();
        r.w.checkHealth();
        r.requireNoFailure();
        boolean reached = "R1".equals(r.window()) && !r.w.hasReplica(r.c, r.dn);
        Replay.record("DN_R1", row, "R1", reached, r.describe());
      }
    });
  }
}
