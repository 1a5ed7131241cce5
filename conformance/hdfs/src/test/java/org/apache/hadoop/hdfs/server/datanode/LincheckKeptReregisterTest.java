package org.apache.hadoop.hdfs.server.datanode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.LincheckSearch;

/**
 * The kept Lincheck failures of reregister's searches on the upstream row, re-run: each one is
 * the search's body and the invocation at which the search first reached the outcome; the
 * replay re-explores invocations 1..i (Lincheck's exploration is seeded and the body
 * deterministic) and requires the outcome at i. Seconds per failure.
 */
public class LincheckKeptReregisterTest {
  @BeforeAll
  static void installAll() {
    LincheckSearch.installAll(Rows.headline());
  }

  static Row upstream() {
    return Rows.headline().filter(r -> r.variant().equals("upstream") && !r.layerOff())
        .findFirst().orElseThrow();
  }

  @Test
  public void RR_O5_kept() throws Exception {
    String seen = LincheckSearch.replay(upstream(), 1, ReregisterSearches::o5);
    System.out.println("[racelab] K RR_O5 upstream invocation=1 reached: " + seen);
  }
}
