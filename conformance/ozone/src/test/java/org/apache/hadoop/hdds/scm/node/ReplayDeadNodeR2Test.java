package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node R2 (HDDS-17067) in the model's counterexample order
 * (registration-report-waits-past-dead-interval): a health check runs; dn1 registers again and
 * stops, its registration report still queued; time passes, health checks take dn1 to DEAD and
 * the handler handles DEAD_NODE; then the report thread applies the queued report. Then time
 * passes again with health checks, every DEAD_NODE handled. R2: dn1, registered before it went
 * DEAD, is DEAD for good (no check resurrects it) with the replica the late report re-added.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeR2Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_R2_reportWaitsPastDeadInterval(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.w.tick();
        r.registerAgain();
        r.outageToDead();
        long firstDead = r.w.deadNodeEventsAfter(r.registeredAt).get(0).seq();
        r.join(r.startHandler(r.lastDeadNodePayload()));
        boolean removedByHandler = !r.w.hasReplica(r.c, r.dn);
        r.applyRegistrationReport();
        r.endTrace(); // the order file ends here
        r.w.elapse(r.w.deadMs());
        r.w.checkHealth();
        r.w.checkHealth();
        for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(firstDead)) {
          r.join(r.startHandler(f.payload()));
        }
        r.requireNoFailure();
        DatanodeInfo info = r.w.nodeManager.getDatanodeInfo(r.dn);
        boolean noResurrect = info.getLastHeartbeatTime()
            < org.apache.hadoop.util.Time.monotonicNow() - r.w.staleMs();
        boolean reached = removedByHandler && r.registeredAt < firstDead
            && r.registrationReplica() != null && r.health() == NodeState.DEAD && noResurrect
            && r.w.hasReplica(r.c, r.dn);
        Replay.record("DN_R2", row, "R2", reached, "no check resurrects it=" + noResurrect
            + ", " + r.describe());
      }
    });
  }
}
