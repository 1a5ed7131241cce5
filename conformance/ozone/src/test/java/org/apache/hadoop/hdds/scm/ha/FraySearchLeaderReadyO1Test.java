package org.apache.hadoop.hdds.scm.ha;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import racelab.fix.leaderready.Rows;
import racelab.search.FraySearch;

/**
 * leader-ready O1 searched by Fray on Ozone 2.2.0, without latches: the apply thread's
 * SCMStateMachine.notifyLeaderReady (after the term-4 startup entry) and the Ratis thread's
 * notifyNotLeader start together on the real SCMStateMachine, SCMContext, SCMServiceManager and
 * ReplicationManager (LeaderReadyWiring, as ReplayLeaderReadyO1Test wires them) and Fray's POS
 * scheduler picks the interleaving at every lock, thread start and join. A run reaches O1 when it
 * ends with a follower that is leader-ready and a ReplicationManager that runs (the replay's
 * predicate). One method per headline row with the layer on; the upstream row must reach O1.
 * Profile {@code fray} only (see README.md, "Schedulers").
 */
public class FraySearchLeaderReadyO1Test extends LeaderReadyFraySearch {
  static final FraySearch SEARCH = new FraySearch("LR_O1", "O1", Rows.headline());

  /**
   * Outside Fray's iterations (no delegate yet): the parts installed and one whole run on each
   * row, so that class loading and first-use initialisation do not fall in an iteration. A kept
   * schedule replays deterministically only if its iteration starts from the state the replay
   * starts from: FrayKeptLeaderReadyO1Test warms the same way.
   */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchLeaderReadyO1Test::once);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> run() {
    return FraySearchLeaderReadyO1Test::once;
  }

  /** One run: the callback against the step-down, decided from the real state after both. */
  static FraySearch.Verdict once() throws Exception {
    LeaderReadyWiring w = new LeaderReadyWiring(4);
    try {
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread apply = w.applyThread(failed, 4, () -> { });
      Thread raft = w.stepDownThread(failed, () -> { });
      apply.start();
      raft.start();
      apply.join();
      raft.join();
      boolean o1 = failed.get() == null && !w.context.isLeader() && w.context.isLeaderReady()
          && w.replicationManager.shouldRun();
      return new FraySearch.Verdict(o1, w.state()
          + (failed.get() == null ? "" : " failed=" + failed.get()));
    } finally {
      // Fray ends an iteration only when every thread the test started has ended: the
      // ReplicationManager's monitor and processors (started once it runs) are stopped here
      w.replicationManager.stop();
      w.close();
    }
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
