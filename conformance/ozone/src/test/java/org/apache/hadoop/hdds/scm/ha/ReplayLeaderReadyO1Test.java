package org.apache.hadoop.hdds.scm.ha;

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
 * Replay of racelab's leader-ready O1 counterexample (HDDS-17575), then the report's re-election
 * (O2), on Ozone 2.2.0's real SCMStateMachine, SCMContext, SCMServiceManager, ReplicationManager
 * and SCMBlockDeletingService, on every row of the model (the fix parts as advice, racelab.fix).
 *
 * <p>The order, the same on every row: the apply thread (StateMachineUpdater) is told of the
 * term-4 startup entry (notifyConfigurationChanged, as Ratis 3.2.1 does before checkReady),
 * passes checkReady and enters notifyLeaderReady, where its first call, scm.getScmContext() on
 * the mocked StorageContainerManager, holds it: after the callback's start (where P1 reads its
 * term), before setLeaderReady. While it is held, the Ratis thread steps down (notifyNotLeader;
 * an admin step-down keeps Ratis' term 4); then the callback goes on. O1 is decided on the state
 * after both: isLeader=false, isLeaderReady=true and both services' shouldRun() true. Then this
 * SCM is elected again in term 5 (Ratis' term 5, the real notifyLeaderChanged) and O2 is decided
 * before any term-5 notifyLeaderReady: leader of term 5 and leader-ready. That the step-down can
 * land there on the real Ratis is premise LR_P5.
 */
public class ReplayLeaderReadyO1Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void LR_O1_followerIsLeaderReady(Row row) throws Exception {
    FixLayer.run(row, () -> {
      LeaderReadyWiring w = new LeaderReadyWiring(4);
      try {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread apply = w.applyThread(failed, 4, () -> { });
        w.hold.arm(apply);
        Thread raft = Threads.recording("RaftServer-changeToFollower", failed, () -> {
          Recorder.act("ratis");
          w.hold.awaitHeld();
          w.stepDown();
        }, w.hold::release);
        apply.start();
        raft.start();
        raft.join();
        apply.join();
        if (failed.get() != null) {
          throw new AssertionError("harness failed", failed.get());
        }
        String afterStepDown = w.state();
        boolean o1 = !w.context.isLeader() && w.context.isLeaderReady() && w.bothServicesRun();
        Replay.record("LR_O1", row, "O1", o1,
            "step-down while notifyLeaderReady (term 4) was held before setLeaderReady: "
                + afterStepDown);
        Recorder.act("ratis");
        long term = w.initElection();
        w.win();
        Recorder.act(null);
        boolean o2 = w.readyLeaderOf(term);
        Replay.record("LR_O1", row, "O2", o2,
            "then elected in term " + term + " (notifyLeaderChanged), before its "
                + "notifyLeaderReady: " + w.state() + "; after the step-down it was "
                + afterStepDown);
        w.endTrace();
      } finally {
        w.close();
      }
    });
  }
}
