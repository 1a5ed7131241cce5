package org.apache.hadoop.hdds.scm.node;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos.NodeState;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Threads;
import racelab.fix.deadnode.Rows;
import racelab.search.FraySearch;

/**
 * dead-node R2 (the residual: a registration report queued past the dead interval, HDDS-17067)
 * searched by Fray on Ozone 2.2.0, without latches, in the order of the model's scenario
 * registration-report-waits-past-dead-interval: setup (main, as the model's): a health check
 * (t=1); dn1 registers again and stops, its registration report queued; five more checks (t=6,
 * STALE on every row). Then, together, the health checker's thread (the checks from t=7 on, an
 * hour apart, until dn1 is DEAD, then the DeadNodeHandler thread for each DEAD_NODE fired since
 * the registration, started and joined: the handler takes what the checks fired, as SCM's queue
 * hands it over) and the container report thread applying the queued registration report, on the
 * real SCMNodeManager, NodeStateManager, DatanodeInfo, DeadNodeHandler and ContainerReportHandler
 * (DeadNodeReplays, as ReplayDeadNodeR2Test wires them). Fray's POS scheduler picks the
 * interleaving. The model runs the checks before the last in its setup (they touch no replica);
 * here they are the checker thread's because with P1 the check that finds dn1 DEAD is the 7th or
 * the 8th. Then, as the replay: the clock past the dead interval, two checks, every further
 * DEAD_NODE handled. R2 is decided as ReplayDeadNodeR2Test decides it: dn1 registered before it
 * went DEAD, the handler removed its replica before the registration report re-added it, dn1 is
 * DEAD and no check would resurrect it, and the replica is still there. Deadlines are the
 * wiring's clock (elapse) and Fray's virtual time (MOCK), never real time. One method per row of
 * Rows.all() with the layer on; the upstream row must reach R2 (the model reaches it on every
 * row).
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeR2Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("DN_R2", "R2", Rows.all());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeR2Test::once);
  }

  /** One run, decided from the real state. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (DeadNodeReplays r = new DeadNodeReplays()) {
      r.w.tick(); // t=1
      r.registerAgain(); // and stops: its report stays queued
      for (int i = 0; i < 5; i++) {
        r.w.tick(); // t=2..6: STALE on every row, DEAD on none
      }
      NodeState beforeRace = r.health();
      Thread checker = Threads.recording("SCMNodeManager health checker", r.failed, () -> {
        for (int i = 0; i < 4 && r.health() != NodeState.DEAD; i++) {
          r.w.tick();
        }
        for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(r.registeredAt)) {
          r.join(r.startHandler(f.payload()));
        }
      });
      Thread report = r.reportThread(); // started: applies the queued registration report
      checker.start();
      checker.join();
      report.join();
      List<DeadNodeWiring.Fired> dead = r.w.deadNodeEventsAfter(r.registeredAt);
      long firstDead = dead.isEmpty() ? Long.MAX_VALUE : dead.get(0).seq();
      DeadNodeWiring.Applied applied = r.registrationReplica();
      DeadNodeWiring.Removed removal = handlerRemovalBefore(r, applied);
      r.w.elapse(r.w.deadMs());
      r.w.checkHealth();
      r.w.checkHealth();
      if (!dead.isEmpty()) {
        for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(firstDead)) {
          r.join(r.startHandler(f.payload()));
        }
      }
      DatanodeInfo info = r.w.nodeManager.getDatanodeInfo(r.dn);
      boolean noResurrect = info.getLastHeartbeatTime() < Time.monotonicNow() - r.w.staleMs();
      boolean reached = r.failed.get() == null && !dead.isEmpty() && removal != null
          && r.registeredAt < firstDead && applied != null && r.health() == NodeState.DEAD
          && noResurrect && r.w.hasReplica(r.c, r.dn);
      return List.of(new FraySearch.Verdict(reached, "health before the race=" + beforeRace
          + ", handler removed the replica before the report re-added it=" + (removal != null)
          + ", no check resurrects it=" + noResurrect + ", " + r.describe()));
    }
  }

  /**
   * The handler's removal of dn1's replica before the registration report's replica was
   * written (the replay's "removed by the handler" before it applies the report), or null.
   */
  static DeadNodeWiring.Removed handlerRemovalBefore(DeadNodeReplays r,
      DeadNodeWiring.Applied applied) {
    if (applied == null) {
      return null;
    }
    for (DeadNodeWiring.Removed x : r.w.removed) {
      if (x.seq() < applied.seq() && x.seq() > r.registeredAt
          && x.thread().equals(DeadNodeReplays.HANDLER) && x.node().equals(r.dn.getID())) {
        return x;
      }
    }
    return null;
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeR2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeR2Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
