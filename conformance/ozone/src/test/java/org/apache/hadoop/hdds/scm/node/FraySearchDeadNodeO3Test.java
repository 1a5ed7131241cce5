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
 * dead-node O3 (the lost replica, HDDS-17067) searched by Fray on Ozone 2.2.0, without latches:
 * dn1 goes DEAD (the real NodeStateManager fires DEAD_NODE), registers again, and then the
 * DeadNodeHandler thread (on the DEAD_NODE payload) and the container report thread (the
 * registration report) start together on the real SCMNodeManager, NodeStateManager,
 * DatanodeInfo, DeadNodeHandler and ContainerReportHandler (DeadNodeReplays, as
 * ReplayDeadNodeO3Test wires them, without its pause). Fray's POS scheduler picks the
 * interleaving. Then dn1 heartbeats and a health check runs. O3 is decided as the replay decides
 * it: the handler removed the registration report's replica in the model's O3 window
 * (DeadNodeReplays.window), the replica is absent and dn1 is not DEAD. The heartbeat and
 * dead-node deadlines are Fray's virtual time (MOCK: Time.monotonicNow is virtual) and the
 * wiring's own clock (elapse shifts heartbeat times), never real time.
 * The same runs decide R1 (DN_R1), which the model reaches only with P1's registration rules,
 * and O5 (DN_O5), the state every wrong removal leaves whatever its window, decided as
 * ReplayDeadNodeO5Test decides it: the registration report was applied, no DEAD_NODE fired
 * since the registration, and dn1 lacks that report's replica.
 * One method per row of Rows.all() with the layer on; the upstream row must reach O3.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeO3Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH =
      new FraySearch("DN_O3", "O3", Rows.all()).and("DN_R1", "R1").and("DN_O5", "O5");

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeO3Test::once);
  }

  /**
   * One run: the handler against the registration report, decided from the real state: the
   * registration report's replica is gone and dn1 is not DEAD, in the window the model names
   * (DeadNodeReplays.window): O3, or R1 (the handler's deciding read saw DEAD on a heartbeat
   * time the registration refreshed, before the next health check).
   */
  static List<FraySearch.Verdict> once() throws Exception {
    try (DeadNodeReplays r = new DeadNodeReplays()) {
      r.outageToDead();
      r.registerAgain();
      Thread dnh = r.startHandler(r.lastDeadNodePayload());
      Thread cr = r.reportThread();
      dnh.join();
      cr.join();
      r.heartbeat();
      r.w.checkHealth();
      boolean lost = r.failed.get() == null && !r.w.hasReplica(r.c, r.dn)
          && r.health() != NodeState.DEAD;
      String window = r.window();
      String observed = r.describe();
      // O5 as its replay: the registration report's replica applied, then gone, with no
      // DEAD_NODE since the registration (the model's "up and not declared DEAD since")
      boolean missingOnLive = r.failed.get() == null && r.registrationReplica() != null
          && r.w.deadNodeEventsAfter(r.registeredAt).isEmpty() && !r.w.hasReplica(r.c, r.dn);
      return List.of(new FraySearch.Verdict(lost && "O3".equals(window), observed),
          new FraySearch.Verdict(lost && "R1".equals(window), observed),
          new FraySearch.Verdict(missingOnLive, observed));
    }
  }

  /** One run, O3's verdict alone (what a kept O3 schedule is replayed for). */
  static FraySearch.Verdict o3() throws Exception {
    return once().get(0);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeO3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeO3Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
