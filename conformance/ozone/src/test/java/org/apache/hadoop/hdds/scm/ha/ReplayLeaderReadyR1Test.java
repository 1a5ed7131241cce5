package org.apache.hadoop.hdds.scm.ha;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.conformance.Threads;
import racelab.trace.Recorder;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.leaderready.Rows;

/**
 * Replay of racelab's leader-ready R1 counterexample (proposed/R1 at
 * step-down-and-re-election-after-check), the report's residual as it words it, on Ozone
 * 2.2.0's real SCMStateMachine, SCMContext and services, on every row.
 *
 * <p>The order: the apply thread is told of the term-4 startup entry (notifyConfigurationChanged)
 * and passes checkReady; before it enters notifyLeaderReady (a latch in the harness thread that
 * plays the apply thread), the Ratis thread steps down (notifyNotLeader), starts a candidacy
 * (Ratis' term 5) and wins it (the real notifyLeaderChanged: updateLeaderAndTerm(true, 5)). Then
 * the term-4 callback runs whole: the patch's read at its start sees term 5. R1 is decided on
 * the state after it: leader of term 5 and leader-ready, while no term-5 notifyLeaderReady has
 * run (the flag is the term-4 callback's).
 */
public class ReplayLeaderReadyR1Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void LR_R1_reElectedBeforeTheTermRead(Row row) throws Exception {
    FixLayer.run(row, () -> {
      LeaderReadyWiring w = new LeaderReadyWiring(4);
      try {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CountDownLatch reElected = new CountDownLatch(1);
        AtomicReference<Long> term = new AtomicReference<>();
        Thread apply = w.applyThread(failed, 4, () -> {
          if (!reElected.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no re-election");
          }
        });
        Thread raft = Threads.recording("RaftServer", failed, () -> {
          Recorder.act("ratis");
          w.stepDown();
          term.set(w.initElection());
          w.win();
        }, reElected::countDown);
        apply.start();
        raft.start();
        raft.join();
        apply.join();
        if (failed.get() != null) {
          throw new AssertionError("harness failed", failed.get());
        }
        Replay.record("LR_R1", row, "R1", w.readyLeaderOf(term.get()),
            "step-down, candidacy and win (term " + term.get() + ") after checkReady of the "
                + "term-4 startup entry, before notifyLeaderReady started; after it: "
                + w.state());
        w.endTrace();
      } finally {
        w.close();
      }
    });
  }
}
