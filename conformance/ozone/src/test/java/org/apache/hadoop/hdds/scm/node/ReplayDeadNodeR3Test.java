package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node R3 (HDDS-17067) in the model's counterexample order (proposed.R3 at
 * comes-back-at-new-address-while-dead-node-handler-runs): dn1 goes DEAD; the handler reads DEAD
 * and is held at the first lookup of its removal (with P2 inside the old DatanodeInfo's
 * monitor); dn1 registers with a new address (updateNode: a new DatanodeInfo) and its
 * registration report is applied under the new object's monitor; then the handler removes. R3:
 * the removal of that replica was made holding another DatanodeInfo's monitor than the one the
 * report was applied under.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeR3Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_R3_newAddressWhileHandlerRemoves(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.outageToDead();
        DeadNodeWiring.Pause atRemoval = r.w.pauseHandlerAtLookup(2);
        Thread dnh = r.startHandler(r.lastDeadNodePayload());
        boolean paused = atRemoval.reachedOrEnded(dnh);
        r.registerAtNewAddress();
        Thread cr = r.reportThread();
        DeadNodeReplays.blockedOrEnded(cr);
        atRemoval.release.countDown();
        r.join(dnh);
        r.join(cr);
        r.requireNoFailure();
        boolean reached = "R3".equals(r.window()) && !r.w.hasReplica(r.c, r.dn);
        Replay.record("DN_R3", row, "R3", reached,
            "handler held at its removal=" + paused + ", " + r.describe());
        r.endTrace();
      }
    });
  }
}
