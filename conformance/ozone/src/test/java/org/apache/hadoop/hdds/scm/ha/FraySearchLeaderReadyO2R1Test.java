package org.apache.hadoop.hdds.scm.ha;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import racelab.conformance.Threads;
import racelab.fix.leaderready.Rows;
import racelab.search.FraySearch;

/**
 * leader-ready's re-election outcomes searched by Fray on Ozone 2.2.0, without latches: the apply
 * thread's SCMStateMachine.notifyLeaderReady (after the term-4 startup entry) and a Ratis thread
 * that steps down (notifyNotLeader), starts a candidacy (ServerState.initElection: Ratis' term 5)
 * and wins it (notifyLeaderChanged) start together on LeaderReadyWiring, as
 * ReplayLeaderReady{R1,R2}Test wire them; Fray's POS scheduler picks the interleaving.
 *
 * <p>A run reaches the state O2, R1 and R2 share: the leader of term 5 is leader-ready, and no
 * notifyLeaderReady of term 5 has run (there is none in this run). The model splits that state
 * by the window that led to it (O2: Ratis entered term 5 after the callback started; R1: before,
 * R2 being R1's part where the win came after the term read). The real state cannot tell these
 * apart, so the search decides their union, {@code O2|R1}, judged against the model as such:
 * reachable on a row where either is, unreachable where both are (only the improved row).
 * One method per headline row with the layer on; the upstream row must reach it.
 */
public class FraySearchLeaderReadyO2R1Test extends LeaderReadyFraySearch {
  static final FraySearch SEARCH = new FraySearch("LR_O2_R1", "O2|R1", Rows.headline());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchLeaderReadyO2R1Test::once);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> run() {
    return FraySearchLeaderReadyO2R1Test::once;
  }

  /** One run: the term-4 callback against a step-down and a re-election into term 5. */
  static FraySearch.Verdict once() throws Exception {
    LeaderReadyWiring w = new LeaderReadyWiring(4);
    try {
      AtomicReference<Throwable> failed = new AtomicReference<>();
      AtomicLong term = new AtomicLong();
      Thread apply = w.applyThread(failed, 4, () -> { });
      Thread raft = Threads.recording("RaftServer", failed, () -> {
        w.stepDown();
        term.set(w.initElection());
        w.win();
      });
      apply.start();
      raft.start();
      apply.join();
      raft.join();
      boolean early = failed.get() == null && w.readyLeaderOf(term.get());
      return new FraySearch.Verdict(early, w.state()
          + (failed.get() == null ? "" : " failed=" + failed.get()));
    } finally {
      // the ReplicationManager's monitor and processors, started once it runs, must end
      // before Fray ends the iteration
      w.replicationManager.stop();
      w.close();
    }
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
