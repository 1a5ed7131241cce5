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
 * Replay of racelab's leader-ready R2 counterexample (candidacy-before-term-read-win-during-
 * callback), the part of the residual the report's wording leaves out, on Ozone 2.2.0's real
 * SCMStateMachine, SCMContext and services, on every row.
 *
 * <p>The order: the apply thread is told of the term-4 startup entry and passes checkReady; the
 * Ratis thread steps down (notifyNotLeader) and starts a candidacy (ServerState.initElection:
 * Ratis' term 5); then the apply thread enters notifyLeaderReady (the patch's read at its start
 * sees term 5) and is held at its first call, scm.getScmContext() on the mocked
 * StorageContainerManager, before setLeaderReady; while it is held the candidacy wins (the real
 * notifyLeaderChanged: updateLeaderAndTerm(true, 5)); then the callback goes on. R2 is decided on
 * the state after it: leader of term 5 and leader-ready, while no term-5 notifyLeaderReady has
 * run.
 */
public class ReplayLeaderReadyR2Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void LR_R2_candidacyBeforeTheTermReadWinDuringTheCallback(Row row) throws Exception {
    FixLayer.run(row, () -> {
      LeaderReadyWiring w = new LeaderReadyWiring(4);
      try {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CountDownLatch candidacy = new CountDownLatch(1);
        AtomicReference<Long> term = new AtomicReference<>();
        Thread apply = w.applyThread(failed, 4, () -> {
          if (!candidacy.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no candidacy");
          }
        });
        w.hold.arm(apply);
        Thread raft = Threads.recording("RaftServer", failed, () -> {
          Recorder.act("ratis");
          try {
            w.stepDown();
            term.set(w.initElection());
          } finally {
            candidacy.countDown();
          }
          w.hold.awaitHeld();
          w.win();
        }, w.hold::release);
        apply.start();
        raft.start();
        raft.join();
        apply.join();
        if (failed.get() != null) {
          throw new AssertionError("harness failed", failed.get());
        }
        Replay.record("LR_R2", row, "R2", w.readyLeaderOf(term.get()),
            "step-down and candidacy (term " + term.get() + ") before notifyLeaderReady of the "
                + "term-4 startup entry started, the win while it was held before "
                + "setLeaderReady; after it: " + w.state());
        w.endTrace();
      } finally {
        w.close();
      }
    });
  }
}
