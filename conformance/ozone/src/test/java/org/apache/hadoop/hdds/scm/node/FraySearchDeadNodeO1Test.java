package org.apache.hadoop.hdds.scm.node;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * dead-node O1 (registers while DEAD and stops before its first heartbeat, HDDS-17067) searched
 * by Fray on Ozone 2.2.0, without latches, in the order of the model's scenario
 * dead-node-registers-and-stops: setup (main, as the model's): dn1 stops, goes DEAD (the real
 * NodeStateManager fires DEAD_NODE) and the DeadNodeHandler removes its replica; the clock moves
 * to the next health check (t=8). Then, together, the datanode's thread (dn1 registers again,
 * then stops; its registration report goes to the container report thread, started by the
 * datanode's thread after the registration as SCM's event queue hands a registration's report
 * over, so no latch orders them) and the health checker's thread (the check at t=8), on the real
 * SCMNodeManager, NodeStateManager, DatanodeInfo, DeadNodeHandler and ContainerReportHandler
 * (DeadNodeReplays, as ReplayDeadNodeO1Test wires them). Fray's POS scheduler picks the
 * interleaving. Then the periodic checks go on (one an hour later, then the clock past the dead
 * interval and two checks) and every DEAD_NODE fired after the registration is handled. O1 is
 * decided as ReplayDeadNodeO1Test decides it: the handler removed the replica before the
 * registration, the registration report re-added it, dn1 is DEAD, no check would resurrect it,
 * and the replica is still there. The hour-later check is the search's own: with P1 the check at
 * t=8 may run before the registration, and the next periodic check is the one that resurrects
 * the node (the replay's check after the report is both). Deadlines are the wiring's clock
 * (elapse) and Fray's virtual time (MOCK), never real time. One method per row of Rows.all()
 * with the layer on; the upstream row must reach O1.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeO1Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("DN_O1", "O1", Rows.all());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeO1Test::once);
  }

  /** One run, decided from the real state. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (DeadNodeReplays r = new DeadNodeReplays()) {
      r.outageToDead();
      r.join(r.startHandler(r.lastDeadNodePayload()));
      boolean removedFirst = !r.w.hasReplica(r.c, r.dn);
      long hour = r.w.staleMs() / 3;
      r.w.elapse(hour); // t=8: the checker thread's check is at this time
      Thread datanode = Threads.recording("Datanode dn1", r.failed, () -> {
        r.registerAgain();
        // the registration's report, queued by the RPC, taken by the report thread
        r.join(r.reportThread());
      });
      Thread checker = Threads.recording("SCMNodeManager health checker", r.failed,
          r.w::checkHealth);
      datanode.start();
      checker.start();
      datanode.join();
      checker.join();
      NodeState afterRace = r.health();
      r.w.elapse(hour);
      r.w.checkHealth(); // t=9, the next periodic check
      r.w.elapse(r.w.deadMs() + TimeUnit.MINUTES.toMillis(1));
      r.w.checkHealth();
      r.w.checkHealth();
      for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(r.registeredAt)) {
        r.join(r.startHandler(f.payload()));
      }
      DatanodeInfo info = r.w.nodeManager.getDatanodeInfo(r.dn);
      boolean noResurrect = info.getLastHeartbeatTime() < Time.monotonicNow() - r.w.staleMs();
      boolean reached = r.failed.get() == null && removedFirst
          && r.registrationReplica() != null && r.health() == NodeState.DEAD && noResurrect
          && r.w.hasReplica(r.c, r.dn);
      return List.of(new FraySearch.Verdict(reached, "health after the race=" + afterRace
          + ", no check resurrects it=" + noResurrect + ", " + r.describe()));
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeO1Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
