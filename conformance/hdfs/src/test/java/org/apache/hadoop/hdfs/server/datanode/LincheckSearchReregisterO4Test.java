package org.apache.hadoop.hdfs.server.datanode;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.LincheckSearch;

/**
 * Lincheck search for reregister O4 on hadoop-hdfs 3.5.0, no latches: the data race on pendingIBRs (clearIBRs without the monitor): a ConcurrentModificationException in an iteration of pendingIBRs, or its size disagreeing with its entries. The threads and
 * the predicate: {@link ReregisterSearches#o4()}. Every headline row with its fix layer on;
 * {@code -Dracelab.lincheck.invocations} per row (200 unless set). Profile {@code lincheck}.
 */
public class LincheckSearchReregisterO4Test {
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
  public void RR_O4(Row row) throws Exception {
    LincheckSearch.finish(LincheckSearch.search("RR_O4", row, "O4",
        LincheckSearch.invocations(),
        new ReregisterSearches.O4(row, LincheckSearch.invocations())), row, "O4");
  }
}
