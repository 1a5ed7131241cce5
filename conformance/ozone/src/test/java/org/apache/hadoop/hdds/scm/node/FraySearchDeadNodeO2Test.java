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
import racelab.conformance.Threads;
import racelab.search.FraySearch;

/**
 * dead-node O2 (back shortly before the dead deadline, HDDS-17067) searched by Fray on Ozone
 * 2.2.0, without latches, in the order of the model's scenario returns-before-dead-deadline:
 * setup (main, as the model's): dn1 stops and six model ticks pass (STALE, the sixth just before
 * its dead deadline); dn1 registers again and its registration report is applied; the clock
 * moves to the deadline. Then, together, the health checker's thread (the check at the deadline,
 * and for every DEAD_NODE it fired the DeadNodeHandler thread, started and joined: the handler
 * takes what the check fired, as SCM's event queue hands it over) and the datanode's first
 * heartbeat, on the real SCMNodeManager, NodeStateManager, DatanodeInfo and DeadNodeHandler
 * (DeadNodeReplays, as ReplayDeadNodeO2Test wires them). Fray's POS scheduler picks the
 * interleaving. Then a health check, as the replay's. O2 is decided as ReplayDeadNodeO2Test
 * decides it: a DEAD_NODE fired after the registration, dn1 is not DEAD, the registration
 * report's replica was applied and is gone. Deadlines are the wiring's clock (elapse) and Fray's
 * virtual time (MOCK), never real time. One method per row of Rows.all() with the layer on; the
 * upstream row must reach O2.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchDeadNodeO2Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("DN_O2", "O2", Rows.all());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchDeadNodeO2Test::once);
  }

  /** One run, decided from the real state. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (DeadNodeReplays r = new DeadNodeReplays()) {
      for (int i = 0; i < 6; i++) {
        r.w.tick(); // model ticks: STALE at the 4th, the 6th just before the dead deadline
      }
      r.registerAgain();
      r.applyRegistrationReport();
      // the seventh tick's hour passes; its check is the checker thread's
      r.w.elapse(r.w.staleMs() / 3);
      Thread checker = Threads.recording("SCMNodeManager health checker", r.failed, () -> {
        r.w.checkHealth();
        for (DeadNodeWiring.Fired f : r.w.deadNodeEventsAfter(r.registeredAt)) {
          r.join(r.startHandler(f.payload()));
        }
      });
      Thread datanode = Threads.recording("Datanode dn1", r.failed, r::heartbeat);
      checker.start();
      datanode.start();
      checker.join();
      datanode.join();
      r.w.checkHealth();
      boolean fired = !r.w.deadNodeEventsAfter(r.registeredAt).isEmpty();
      boolean reached = r.failed.get() == null && fired && r.health() != NodeState.DEAD
          && r.registrationReplica() != null && !r.w.hasReplica(r.c, r.dn);
      return List.of(new FraySearch.Verdict(reached, "DEAD_NODE after the registration="
          + fired + ", " + r.describe()));
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    SEARCH.runEach("P3", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2() throws Exception {
    SEARCH.runEach("P1+P2", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchDeadNodeO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1_P2u_P3() throws Exception {
    SEARCH.runEach("P1+P2u+P3", FraySearchDeadNodeO2Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
