package org.apache.hadoop.hdds.scm.ha;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.mockingDetails;

import java.util.Collections;
import org.apache.hadoop.hdds.scm.server.StorageContainerManager;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;

/**
 * leader-ready (HDDS-17575): the premises of the model on Ozone 2.2.0's SCMContext and
 * SCMStateMachine. Written for racelab; nothing here is copied from upstream.
 */
public class LeaderReadyPremisesTest {

  private static SCMContext leaderOf(long term) {
    return new SCMContext.Builder().setLeader(true).setTerm(term)
        .setSCM(mock(StorageContainerManager.class)).build();
  }

  /** LR-P1: setLeaderReady checks neither leadership nor term. */
  @Test
  public void LR_P1_setLeaderReadyWithoutTermCheck() {
    SCMContext c = leaderOf(4);
    c.updateLeaderAndTerm(false, 0); // the step-down (notifyNotLeader)
    c.setLeaderReady();              // the term-4 notifyLeaderReady, late
    boolean followerReady = !c.isLeader() && c.isLeaderReady();
    SCMContext c2 = leaderOf(4);
    c2.updateLeaderAndTerm(false, 0);
    c2.updateLeaderAndTerm(true, 5); // re-elected in term 5
    c2.setLeaderReady();             // the term-4 callback again, now in term 5
    boolean otherTermReady = c2.isLeaderReady();
    Premise.check(
        "SCMContext.setLeaderReady sets isLeaderReady whatever isLeader and the term are "
            + "(no leadership or term check, returns nothing)",
        followerReady && otherTermReady,
        "after step-down then setLeaderReady: isLeader=" + c.isLeader() + " isLeaderReady="
            + c.isLeaderReady() + "; set during term 5 by a term-4 callback: isLeaderReady="
            + otherTermReady);
  }

  /**
   * LR-P2: updateLeaderAndTerm clears the flag only when stepping down; an election leaves it
   * as it was (the only clearing path is a step-down from leadership).
   */
  @Test
  public void LR_P2_onlyStepDownClearsReady() {
    SCMContext c = leaderOf(4);
    c.setLeaderReady();
    c.updateLeaderAndTerm(false, 0);
    boolean stepDownClears = !c.isLeaderReady();
    c.setLeaderReady();                // set on a follower (O1)
    c.updateLeaderAndTerm(true, 5);    // elected again
    boolean electionKeeps = c.isLeaderReady();
    c.updateLeaderAndTerm(false, 0);
    c.updateLeaderAndTerm(false, 0);   // a follower's later update (no leadership held)
    boolean followerUpdateClears = !c.isLeaderReady();
    Premise.check(
        "SCMContext.updateLeaderAndTerm clears isLeaderReady when stepping down "
            + "(leader=false) and leaves it as it was on an election (leader=true)",
        stepDownClears && electionKeeps && followerUpdateClears,
        "step-down clears=" + stepDownClears + ", election keeps=" + electionKeeps);
  }

  /**
   * LR-P3, the window on the released code: 2.2.0's notifyLeaderReady reads no leadership before
   * setLeaderReady and flushes nothing first (its flush is in notifyLeaderChanged). The model's
   * flush and summary reload before setLeaderReady are the report's newer master (HDDS-16143),
   * which no release holds: on 2.2.0 the window is the callback's start, and a step-down there
   * still ends leader-ready.
   */
  @Test
  public void LR_P3_notifyLeaderReadyAfterAStepDownSetsReadyWithoutAFlush() throws Exception {
    LeaderReadyWiring w = new LeaderReadyWiring(4);
    try {
      w.stateMachine.notifyNotLeader(Collections.emptyList());
      w.stateMachine.notifyLeaderReady();
      long flushes = mockingDetails(w.buffer).getInvocations().stream()
          .filter(i -> i.getMethod().getName().equals("flush")).count();
      Premise.check(
          "SCMStateMachine.notifyLeaderReady, run after a step-down, sets isLeaderReady with no "
              + "leadership check and no transaction-buffer flush before it",
          flushes == 0 && w.context.isLeaderReady() && !w.context.isLeader(),
          "flush() calls=" + flushes + "; after it: " + w.state());
    } finally {
      w.close();
    }
  }

  /** LR-P4: services follow the flag at their notifyStatusChanged (no leadership check). */
  @Test
  public void LR_P4_servicesFollowTheFlagOnly() throws Exception {
    LeaderReadyWiring w = new LeaderReadyWiring(4);
    try {
      w.stateMachine.notifyNotLeader(Collections.emptyList());
      boolean pausedOnStepDown = !w.replicationManager.shouldRun();
      w.context.setLeaderReady();
      w.services.notifyStatusChanged();
      boolean runsOnFollower = w.replicationManager.shouldRun() && !w.context.isLeader();
      Premise.check(
          "ReplicationManager.notifyStatusChanged goes RUNNING when isLeaderReady and not in "
              + "safe mode, without checking isLeader",
          pausedOnStepDown && runsOnFollower,
          "paused after the step-down=" + pausedOnStepDown + "; then " + w.state());
    } finally {
      w.close();
    }
  }
}
