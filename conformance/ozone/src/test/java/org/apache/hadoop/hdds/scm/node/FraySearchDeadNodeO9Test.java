package org.apache.hadoop.hdds.scm.node;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Threads;
import racelab.fix.deadnode.Rows;
import racelab.search.FraySearch;

/**
 * dead-node O9 (Recon: the reload's updateNode empties a node's container-ID set while a
 * replica reported just before stays, HDDS-17067) searched by Fray on Ozone 2.2.0, without
 * latches, in the order of the model's scenario recon-reload-empties-container-set: setup
 * (main): Recon with dn1 behind NAT, loaded from its node table; dn1 registers again over RPC
 * (its row gets the address it reports, memory keeps the peer's) and stops, its registration
 * report queued; the reload's first step, the container manager reinitialized (no replica until
 * the next reports). Then, together, the Recon-sync thread (ReconNodeManager.reinitialize:
 * loadExistingNodes registers dn1's row, whose address differs from memory, so updateNode
 * replaces its DatanodeInfo) and, on one thread as the model's one actor, the container report
 * thread applying the registration report (ReconContainerReportHandler), then the health checks
 * an hour apart until dn1 is DEAD, then ReconDeadNodeHandler for each DEAD_NODE fired (the
 * handler takes what the checks fired, as Recon's queue hands it over), on the real
 * ReconNodeManager, SCMNodeManager, NodeStateManager, DatanodeInfo and the Recon handlers
 * (ReconDeadNodeReplays, as ReplayDeadNodeO9Test wires them, without its pause in the node
 * table's iterator). Fray's POS scheduler picks the interleaving. O9 is decided as
 * ReplayDeadNodeO9Test decides it: dn1 is DEAD, no check would resurrect it, no DEAD_NODE is
 * pending, the report was applied before dn1 went DEAD, the replica is still there and dn1's
 * container-ID set does not list the container. Deadlines are the wiring's clock (elapse) and
 * Fray's virtual time (MOCK), never real time. One method per row of Rows.all() with the layer
 * on; the upstream row must reach O9.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeO9Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("DN_O9", "O9", Rows.all());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeO9Test::once);
  }

  /** One run, decided from the real state. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (ReconDeadNodeReplays r = new ReconDeadNodeReplays(true)) {
      r.registerAgainOverRpc();
      String row0 = r.addressInRow();
      String memory0 = r.addressInMemory();
      if (row0.equals(memory0)) {
        throw new IllegalStateException("behind NAT the row should differ from memory: " + row0);
      }
      r.w.replicas.clear(); // the reload's ReconContainerManager reinitialized
      Thread sync = Threads.recording(ReconDeadNodeReplays.SYNC, r.failed, () -> {
        r.w.act(ReconDeadNodeReplays.SYNC);
        r.nm.reinitialize(r.table.proxy());
      });
      long before = r.w.seq.get();
      Thread reportThenChecks = Threads.recording("ContainerReport, then checks, then handler",
          r.failed, () -> {
            r.join(r.reportThread());
            // the outage: checks an hour apart until DEAD (a reload during them may refresh
            // the heartbeat time, so more than the seven an unrefreshed node takes)
            for (int i = 0; i < 20 && r.health() != NodeState.DEAD; i++) {
              r.w.tick();
            }
            if (r.health() == NodeState.DEAD && !r.w.deadNodeEventsAfter(before).isEmpty()) {
              r.deadInfo = r.nm.getDatanodeInfo(r.dn);
              r.deadHeartbeat = r.deadInfo.getLastHeartbeatTime();
              r.deadAt = r.w.deadNodeEvents.get(r.w.deadNodeEvents.size() - 1).seq();
            }
            r.handleDeadNodeEventsAfter(before);
          });
      sync.start();
      reportThenChecks.start();
      sync.join();
      reportThenChecks.join();
      boolean reached = r.failed.get() == null && r.deadAt > 0
          && r.health() == NodeState.DEAD && !r.withinStaleDeadline()
          && r.w.deadNodeEventsAfter(r.deadAt).isEmpty()
          && r.reportAppliedAt > 0 && r.reportAppliedAt < r.deadAt
          && r.w.hasReplica(r.c, r.dn) && !r.setListsContainer();
      return List.of(new FraySearch.Verdict(reached, "row " + row0 + " / memory " + memory0
          + " at the reload, " + r.describe()));
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeO9Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeO9Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
