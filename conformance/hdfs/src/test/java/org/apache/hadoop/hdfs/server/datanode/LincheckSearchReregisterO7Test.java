package org.apache.hadoop.hdfs.server.datanode;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.LincheckSearch;

/**
 * Lincheck search for reregister O7 on hadoop-hdfs 3.5.0, no latches: the data race on resetBlockReportTime: REG2's write between the in-flight FBR's read and its clear. The threads and
 * the predicate: {@link ReregisterSearches#o7()}. Every headline row with its fix layer on;
 * {@code -Dracelab.lincheck.invocations} per row (200 unless set). Profile {@code lincheck}.
 */
public class LincheckSearchReregisterO7Test {
  @BeforeAll
  static void installAll() throws Exception {
    LincheckSearch.installAll(Rows.headline());
    ReregisterSearchActor.prepare(); // after the parts: see ReregisterSearchActor
  }

  static Stream<Row> rows() {
    return LincheckSearch.rows(Rows.headline());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O7(Row row) throws Exception {
    LincheckSearch.finish(LincheckSearch.search("RR_O7", row, "O7",
        LincheckSearch.invocations(),
        new ReregisterSearches.O7(row, LincheckSearch.invocations())), row, "O7");
  }
}
