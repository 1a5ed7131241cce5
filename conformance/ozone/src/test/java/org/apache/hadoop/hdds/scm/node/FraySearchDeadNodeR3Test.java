package org.apache.hadoop.hdds.scm.node;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Threads;
import racelab.fix.deadnode.Rows;
import racelab.search.FraySearch;

/**
 * dead-node R3 (the residual: a registration with a new address replaces the DatanodeInfo,
 * HDDS-17067) searched by Fray on Ozone 2.2.0, without latches, in the order of the model's
 * scenario comes-back-at-new-address-while-dead-node-handler-runs: setup (main): dn1 goes DEAD
 * (the real NodeStateManager fires DEAD_NODE). Then, together, the DeadNodeHandler thread on the
 * DEAD_NODE payload and the datanode's thread (dn1 registers with a new address, so that
 * SCMNodeManager.register's updateNode replaces its DatanodeInfo; its registration report goes to
 * the container report thread, started by the datanode's thread after the registration as SCM's
 * event queue hands it over), on the real SCMNodeManager, NodeStateManager, DatanodeInfo,
 * DeadNodeHandler and ContainerReportHandler (DeadNodeReplays, as ReplayDeadNodeR3Test wires
 * them, without its pause). Fray's POS scheduler picks the interleaving. R3 is decided as the
 * replay decides it: the registration report's replica is gone, removed by the handler while it
 * held another DatanodeInfo's monitor than the one current when the report was applied
 * (DeadNodeReplays.window). Only the rows whose recheck takes a monitor (P2's) can reach it: the
 * model reaches R3 on P2, P1+P2, proposed and improved, and this search asserts it on proposed
 * (the patch whose residual it is); upstream and the other rows are recorded. Fray's virtual
 * time (MOCK) for Time.monotonicNow, never real time. One method per row of Rows.all() with the
 * layer on.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeR3Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("DN_R3", "R3", Rows.all());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeR3Test::once);
  }

  /** One run, decided from the real state. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (DeadNodeReplays r = new DeadNodeReplays()) {
      r.outageToDead();
      Thread dnh = r.startHandler(r.lastDeadNodePayload());
      Thread datanode = Threads.recording("Datanode dn1", r.failed, () -> {
        r.registerAtNewAddress();
        r.join(r.reportThread());
      });
      datanode.start();
      dnh.join();
      datanode.join();
      boolean reached = r.failed.get() == null && "R3".equals(r.window())
          && !r.w.hasReplica(r.c, r.dn);
      return List.of(new FraySearch.Verdict(reached, r.describe()));
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeR3Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeR3Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("proposed");
  }
}
