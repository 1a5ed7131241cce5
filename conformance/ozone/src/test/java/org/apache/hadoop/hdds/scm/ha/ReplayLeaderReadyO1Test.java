package org.apache.hadoop.hdds.scm.ha;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;

/**
 * Replay of racelab's leader-ready O1 and O2 counterexamples (HDDS-17575) on Ozone 2.2.0, with
 * the real SCMStateMachine, SCMContext, SCMServiceManager and ReplicationManager.
 *
 * <p>Threads: A plays Ratis' apply thread, which has applied the term-4 startup entry and passed
 * LeaderStateImpl.checkReady, and is about to call SCMStateMachine.notifyLeaderReady; R plays the
 * Ratis thread of a step-down (RaftServerImpl.changeToFollower -> notifyNotLeader). The order
 * is forced by a latch in the harness only: A enters notifyLeaderReady once R's notifyNotLeader
 * has returned. On 2.2.0 nothing of Ozone's runs between checkReady and setLeaderReady (the
 * transaction buffer flush is in notifyLeaderChanged, see LR_P3), so this is the only place
 * the step-down can fall. Outcome O1: isLeader=false, isLeaderReady=true, and
 * ReplicationManager.shouldRun() true on the follower. O2: re-elected in term 5
 * (updateLeaderAndTerm(true, 5), as notifyLeaderChanged does), the SCM is leader-ready before
 * any term-5 notifyLeaderReady. Self-contained apart from LeaderReadyWiring (same package).
 */
public class ReplayLeaderReadyO1Test {

  @Test
  public void LR_O1_followerIsLeaderReady() throws Exception {
    LeaderReadyWiring w = new LeaderReadyWiring(4);
    try {
      CountDownLatch steppedDown = new CountDownLatch(1);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      // checkReady passed for the term-4 startup entry; the callback waits for the step-down
      Thread apply = w.applyThread(failed, () -> {
        if (!steppedDown.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("no step-down");
        }
      });
      Thread raft = w.stepDownThread(failed, steppedDown::countDown);
      apply.start();
      raft.start();
      raft.join();
      apply.join();
      String after = w.state();
      boolean o1 = failed.get() == null && !w.context.isLeader() && w.context.isLeaderReady()
          && w.replicationManager.shouldRun();
      // O2: re-elected in term 5, before term 5's notifyLeaderReady
      w.context.updateLeaderAndTerm(true, 5);
      boolean o2 = w.context.isLeader() && w.context.isLeaderReady();
      Premise.check(
          "leader-ready O1 replays on Ozone 2.2.0 (a follower is leader-ready and "
              + "ReplicationManager runs), and O2 follows (re-elected in term 5, leader-ready "
              + "before term 5's notifyLeaderReady)",
          o1 && o2,
          "after the step-down and the late callback: " + after + "; re-elected: " + w.state()
              + (failed.get() == null ? "" : "; failed: " + failed.get()));
    } finally {
      w.close();
    }
  }
}
