package org.apache.hadoop.hdds.scm.node;

import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.deadnode.Rows;
import racelab.search.LincheckSearch;

/**
 * Lincheck search for dead-node O10 on ozone-recon 2.2.0, no latches: two first heartbeats
 * race on ReconNodeManager.datanodeHeartbeatMap (a plain HashMap). Threads and predicate:
 * {@link DeadNodeSearches.FirstBeats}. Every row with its fix layer on (no part touches
 * processHeartbeat); {@code -Dracelab.lincheck.invocations} per row (200 unless set). Profile
 * {@code lincheck}.
 */
public class LincheckSearchDeadNodeO10Test {
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

  static Stream<Row> rows() {
    return LincheckSearch.rows(Rows.all());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void DN_O10(Row row) throws Exception {
    LincheckSearch.finish(LincheckSearch.search("DN_O10", row, "O10",
        LincheckSearch.invocations(), body), row, "O10");
  }
}
