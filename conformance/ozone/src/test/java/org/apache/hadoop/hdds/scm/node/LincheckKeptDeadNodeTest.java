package org.apache.hadoop.hdds.scm.node;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import racelab.fix.Row;
import racelab.fix.deadnode.Rows;
import racelab.search.LincheckSearch;

/**
 * The kept Lincheck failure of dead-node's O10 search on the upstream row, re-run: the first
 * reaching invocation (9) of a fresh exploration of {@link DeadNodeSearches.FirstBeats}, which
 * must reach O10 there and not before (see racelab.search.LincheckSearch#replay). Profile
 * {@code lincheck}.
 */
public class LincheckKeptDeadNodeTest {
  static DeadNodeSearches.FirstBeats body;

  @BeforeAll
  static void setUp() throws Exception {
    LincheckSearch.installAll(Rows.all());
    body = new DeadNodeSearches.FirstBeats();
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (body != null) {
      body.close();
    }
  }

  @Test
  public void DN_O10_kept() throws Exception {
    Row upstream = Rows.all().filter(r -> r.variant().equals("upstream") && !r.layerOff())
        .findFirst().orElseThrow();
    String seen = LincheckSearch.replay(upstream, 9, body);
    System.out.println("[racelab] K DN_O10 upstream " + LincheckSearch.schedule(9)
        + " reached again: " + seen);
  }
}
