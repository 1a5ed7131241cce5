package org.apache.hadoop.hdfs.server.datanode;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.LincheckSearch;

/**
 * Lincheck search for reregister O2 on hadoop-hdfs 3.5.0, no latches: the lost FBR request: the in-flight FBR's scheduleNextBlockReport overwrites REG2's. The threads and
 * the predicate: {@link ReregisterSearches#o7()}. Every headline row with its fix layer on;
 * {@code -Dracelab.lincheck.invocations} per row (200 unless set). Profile {@code lincheck}.
 */
public class LincheckSearchReregisterO2Test {
  @BeforeAll
  static void installAll() throws Exception {
    LincheckSearch.installAll(Rows.headline());
    ReregisterSearchActor.prepare(); // after the parts: see ReregisterSearchActor
  }

  static Stream<Row> rows() {
    // P1's rows are not searched: see ReregisterSearches.O2 (P1's epoch is read as blockReport
    // starts, before the race in the model's scenario; this search's actor thread does not run
    // blockReport)
    return LincheckSearch.rows(Rows.headline())
        .filter(r -> !r.parts().contains(racelab.fix.reregister.P1.PART));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O2(Row row) throws Exception {
    LincheckSearch.finish(LincheckSearch.search("RR_O2", row, "O2",
        LincheckSearch.invocations(),
        new ReregisterSearches.O2(row, LincheckSearch.invocations())), row, "O2");
  }
}
