package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O1 (HDDS-17067) in the order of the model's scenario
 * dead-node-registers-and-stops: dn1 goes DEAD and the handler removes its replica; dn1 registers
 * again and stops before its first heartbeat; its registration report is applied; a health
 * check runs. Then time passes past the dead interval, with health checks, and every DEAD_NODE
 * the real NodeStateManager fires is handled. O1: dn1 is DEAD, no health check would resurrect
 * it, no DEAD_NODE is pending, and the replica its registration report re-added is still there.
 * The same order on every dead-node row (racelab.fix.deadnode.Rows); the verdict is decided
 * from the real state afterwards and recorded as a J cell. A "not reached" is about this order,
 * on Ozone 2.2.0's classes, with racelab's rendering of the row's parts. Latches only in
 * collaborators (DeadNodeWiring's ContainerManager, the recording NodeManager proxy, the
 * harness threads playing the datanode). Written for racelab.
 */
public class ReplayDeadNodeO1Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O1_registersAndStopsBeforeFirstHeartbeat(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (DeadNodeReplays r = new DeadNodeReplays()) {
        r.outageToDead();
        r.join(r.startHandler(r.lastDeadNodePayload()));
        boolean removedFirst = !r.w.hasReplica(r.c, r.dn);
        r.registerAgain();
        r.applyRegistrationReport();
        r.w.checkHealth();
        NodeState afterCheck = r.health();
        r.endTrace(); // the order file ends here
        r.w.elapse(r.w.deadMs() + java.util.concurrent.TimeUnit.MINUTES.toMillis(1));
        r.w.checkHealth();
        r.w.checkHealth();
        for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(r.registeredAt)) {
          r.join(r.startHandler(f.payload()));
        }
        r.requireNoFailure();
        DatanodeInfo info = r.w.nodeManager.getDatanodeInfo(r.dn);
        boolean noResurrect = info.getLastHeartbeatTime()
            < org.apache.hadoop.util.Time.monotonicNow() - r.w.staleMs();
        boolean reached = removedFirst && r.registrationReplica() != null
            && r.health() == NodeState.DEAD && noResurrect && r.w.hasReplica(r.c, r.dn);
        Replay.record("DN_O1", row, "O1", reached, "health after the first check="
            + afterCheck + ", no check resurrects it=" + noResurrect + ", " + r.describe());
      }
    });
  }
}
