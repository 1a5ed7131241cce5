package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O8 (HDDS-17067, Recon) in the order of the model's counterexample
 * upstream.O8 at recon-reload-row-differs: dn1 is behind NAT; it registers again over RPC
 * (ReconNodeManager.register puts its row with the address it reports; SCMNodeManager.register
 * then keeps the RPC peer's address in memory) and its report is applied; it stops, goes DEAD,
 * and ReconDeadNodeHandler removes its replica; then Recon's sync thread swaps in a snapshot
 * (container manager reinitialized, ReconNodeManager.reinitialize: loadExistingNodes registers
 * the row outside any RPC), and then a health check runs. The datanode sends nothing after it
 * went DEAD. O8: dn1 is alive for Recon on a DatanodeInfo that replaced the one declared DEAD.
 * The same order on every dead-node row; decided from the real state afterwards. A "not
 * reached" is about this order, on Ozone 2.2.0's ReconNodeManager with racelab's rendering of
 * the row's parts. Ordering only by the harness (joins). Written for racelab.
 */
public class ReplayDeadNodeO8Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O8_reconReloadReplacesDeadNode(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconDeadNodeReplays r = new ReconDeadNodeReplays(true)) {
        String addresses = r.registerAgainBehindNat();
        long before = r.w.seq.get();
        r.outageToDead();
        r.handleDeadNodeEventsAfter(before);
        boolean removed = !r.w.hasReplica(r.c, r.dn);
        r.join(r.reloadThread());
        r.w.checkHealth();
        r.requireNoFailure();
        DatanodeInfo now = r.nm.getDatanodeInfo(r.dn);
        boolean alive = r.health() != NodeState.DEAD || r.withinStaleDeadline();
        boolean reached = removed && alive && now != r.deadInfo;
        Replay.record("DN_O8", row, "O8", reached, addresses
            + " before the outage, handler removed the replica at DEAD=" + removed + ", "
            + r.describe());
        r.endTrace();
      }
    });
  }
}
