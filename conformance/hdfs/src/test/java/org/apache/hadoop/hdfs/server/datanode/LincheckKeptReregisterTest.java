package org.apache.hadoop.hdfs.server.datanode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.LincheckSearch;

/**
 * The kept Lincheck failures of reregister's searches on the upstream row, re-run. A kept
 * failure is the search's body, the row and the invocation i at which the search first reached
 * the outcome (the Tally's schedule, {@code lincheck-3.7 runConcurrentTest invocation=i}); the
 * replay re-explores invocations 1..i (Lincheck's exploration is seeded, Random(0), and the body
 * builds its objects afresh) and requires the outcome at i and at no earlier invocation. Cost:
 * i invocations, well under a second each. Profile {@code lincheck}; its own JVM is not needed
 * (every part is installed first, as in the searches).
 */
public class LincheckKeptReregisterTest {
  @BeforeAll
  static void installAll() throws Exception {
    LincheckSearch.installAll(Rows.headline());
    ReregisterSearchActor.prepare(); // after the parts: see ReregisterSearchActor
  }

  static Row upstream() {
    return Rows.headline().filter(r -> r.variant().equals("upstream") && !r.layerOff())
        .findFirst().orElseThrow();
  }

  static void kept(String id, int invocation, LincheckSearch.Body body) throws Exception {
    String seen = LincheckSearch.replay(upstream(), invocation, body);
    System.out.println("[racelab] K " + id + " upstream " + LincheckSearch.schedule(invocation)
        + " reached again: " + seen);
  }

  @Test
  public void RR_O4_kept() throws Exception {
    kept("RR_O4", 14, new ReregisterSearches.O4(upstream(), 14));
  }

  @Test
  public void RR_O5_kept() throws Exception {
    kept("RR_O5", 1, new ReregisterSearches.O5(upstream(), 1));
  }

  @Test
  public void RR_O2_FBR_kept() throws Exception {
    kept("RR_O2_FBR", 5, new ReregisterMissingSearches.O2(upstream(), 5));
  }

  @Test
  public void RR_O7_kept() throws Exception {
    kept("RR_O7", 39, new ReregisterSearches.O7(upstream(), 39));
  }
}
