package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O4 (HDDS-17067, Recon) in the order of the model's counterexample P1.O4 at
 * recon-reload-with-dead-node: dn1 (its node table row equal to memory) stops, goes DEAD, and
 * ReconDeadNodeHandler removes its replica; then Recon's sync thread swaps in a snapshot (the
 * container manager reinitialized, then ReconNodeManager.reinitialize: loadExistingNodes
 * registers every row), and then a health check runs. The datanode sends nothing after it went
 * DEAD. O4: dn1 is alive for Recon (not DEAD, or DEAD with a heartbeat time the next check
 * resurrects), on the same DatanodeInfo that went DEAD, whose heartbeat time the reload wrote.
 * The same order on every dead-node row; decided from the real state afterwards. A "not
 * reached" is about this order, on Ozone 2.2.0's ReconNodeManager with racelab's rendering of
 * the row's parts. Ordering only by the harness (joins). Written for racelab.
 */
public class ReplayDeadNodeO4Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O4_reconReloadRevivesDeadNode(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconDeadNodeReplays r = new ReconDeadNodeReplays(false)) {
        r.outageToDead();
        r.handleDeadNodeEventsAfter(0);
        boolean removed = !r.w.hasReplica(r.c, r.dn);
        r.join(r.reloadThread());
        r.w.checkHealth();
        r.requireNoFailure();
        DatanodeInfo now = r.nm.getDatanodeInfo(r.dn);
        boolean alive = r.health() != NodeState.DEAD || r.withinStaleDeadline();
        boolean written = now.getLastHeartbeatTime() > r.deadHeartbeat;
        boolean reached = removed && alive && now == r.deadInfo && written;
        Replay.record("DN_O4", row, "O4", reached, "handler removed the replica at DEAD="
            + removed + ", " + r.describe());
        r.endTrace();
      }
    });
  }
}
