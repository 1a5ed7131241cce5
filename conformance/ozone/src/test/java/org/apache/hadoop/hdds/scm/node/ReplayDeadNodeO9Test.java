package org.apache.hadoop.hdds.scm.node;

import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * Replay of dead-node O9 (HDDS-17067, Recon) in the order of the model's counterexample
 * upstream.O9 at recon-reload-empties-container-set (scenarios/dead-node-recon-reload-row-differs
 * .scn is the same story): dn1 is behind NAT; it registers again over RPC (its row gets the
 * address it reports, memory keeps the peer's) and stops, its registration report not yet
 * applied. Recon's sync thread swaps in a snapshot: the container manager reinitialized, then
 * ReconNodeManager.reinitialize, held by the node table's iterator right after it read dn1's
 * row; the registration report is applied on the report thread (ReconContainerReportHandler);
 * the reload goes on (loadExistingNodes registers the row). Then health checks past the stale
 * and dead intervals, and every DEAD_NODE handled by ReconDeadNodeHandler. O9: dn1 is DEAD, no
 * check resurrects it, no DEAD_NODE is pending, the replica its report wrote before it went DEAD
 * is still there, and dn1's container-ID set does not list the container. The same order on
 * every dead-node row; decided from the real state afterwards. A "not reached" is about this
 * order, on Ozone 2.2.0's classes with racelab's rendering of the row's parts. Latches only in
 * collaborators (the node table's iterator). Written for racelab.
 */
public class ReplayDeadNodeO9Test {

  @ParameterizedTest(name = "{0}")
  @MethodSource("racelab.fix.deadnode.Rows#all")
  public void DN_O9_reconReloadEmptiesContainerSet(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconDeadNodeReplays r = new ReconDeadNodeReplays(true)) {
        // The order file's sequential program ("CR-thread-dn1, then HB-checker, then
        // DNH-thread") records its events under each part's own actor: the threads take those.
        r.registerAgainOverRpc();
        String row0 = r.addressInRow();
        String memory0 = r.addressInMemory();
        if (row0.equals(memory0)) {
          throw new IllegalStateException("behind NAT the row should differ from memory: "
              + row0 + " " + memory0 + ", at start " + r.memoryAtStart + ", " + r.failed.get());
        }
        DeadNodeWiring.Pause held = r.table.pauseReloadAfterRowRead();
        Thread reload = r.reloadThread();
        if (!held.reachedOrEnded(reload)) {
          throw new IllegalStateException("the reload read no row");
        }
        r.join(r.reportThread());
        boolean appliedInWindow = r.w.hasReplica(r.c, r.dn) && r.setListsContainer();
        held.release.countDown();
        r.join(reload);
        long before = r.w.seq.get();
        r.outageToDead();
        r.handleDeadNodeEventsAfter(before);
        r.requireNoFailure();
        boolean reached = r.health() == NodeState.DEAD && !r.withinStaleDeadline()
            && r.w.deadNodeEventsAfter(r.deadAt).isEmpty()
            && r.reportAppliedAt > 0 && r.reportAppliedAt < r.deadAt
            && r.w.hasReplica(r.c, r.dn) && !r.setListsContainer();
        Replay.record("DN_O9", row, "O9", reached, "row " + row0 + " / memory " + memory0
            + " at the reload, report applied while the reload held (replica and set entry "
            + "written)=" + appliedInWindow + ", " + r.describe());
        r.endTrace();
      }
    });
  }
}
