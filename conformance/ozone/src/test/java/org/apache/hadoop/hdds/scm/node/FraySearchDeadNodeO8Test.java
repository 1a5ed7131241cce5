package org.apache.hadoop.hdds.scm.node;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.deadnode.Rows;
import racelab.search.FraySearch;

/**
 * dead-node O8 (Recon: a reload of the node table revives a DEAD node through updateNode,
 * HDDS-17067) searched by Fray on Ozone 2.2.0, without latches, in the order of the model's
 * scenario recon-reload-row-differs: setup (main, as the model's): Recon with dn1 behind NAT;
 * dn1 registers again over RPC (its row gets the address it reports, memory keeps the peer's)
 * and its report is applied; dn1 stops, goes DEAD and ReconDeadNodeHandler removes its replica;
 * the clock moves to the next health check. Then, together, the Recon-sync thread (the
 * facade's swap: the container manager reinitialized, then ReconNodeManager.reinitialize) and
 * the health checker's thread (one check), on the real ReconNodeManager, SCMNodeManager,
 * NodeStateManager and DatanodeInfo (ReconDeadNodeReplays, as ReplayDeadNodeO8Test wires them).
 * Fray's POS scheduler picks the interleaving. O8 is decided as ReplayDeadNodeO8Test decides it:
 * the handler removed the replica at DEAD, and dn1, which sent nothing since, is alive for Recon
 * (not DEAD, or DEAD with a heartbeat time the next check resurrects) on a DatanodeInfo that
 * replaced the one declared DEAD. Deadlines are the wiring's clock (elapse) and Fray's virtual
 * time (MOCK), never real time. One method per row of Rows.all() with the layer on; the
 * upstream row must reach O8.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeO8Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("DN_O8", "O8", Rows.all());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeO8Test::once);
  }

  /** One run, decided from the real state. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (ReconDeadNodeReplays r = new ReconDeadNodeReplays(true)) {
      String addresses = r.registerAgainBehindNat();
      long before = r.w.seq.get();
      r.outageToDead();
      r.handleDeadNodeEventsAfter(before);
      boolean removed = !r.w.hasReplica(r.c, r.dn);
      r.nextCheckRacesReload();
      DatanodeInfo now = r.nm.getDatanodeInfo(r.dn);
      boolean alive = r.health() != NodeState.DEAD || r.withinStaleDeadline();
      boolean reached = r.failed.get() == null && removed && alive && now != r.deadInfo;
      return List.of(new FraySearch.Verdict(reached, addresses
          + " before the outage, handler removed the replica at DEAD=" + removed + ", "
          + r.describe()));
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeO8Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeO8Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
