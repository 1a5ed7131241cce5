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
  static void installAll() {
    LincheckSearch.installAll(Rows.headline());
  }

  static Stream<Row> rows() {
    // P3's rows are left out: P3 drops a stale REGISTER in processCommandFromActor, which no
    // thread of this search runs (its command thread makes register's call on the class
    // itself, BPServiceActor's command path needing the Mockito-built DataNode Lincheck does not
    // run); on those rows the search runs upstream's code and is no test of P3 (measured: the
    // P3 rows give upstream's counts)
    return LincheckSearch.rows(Rows.headline())
        .filter(r -> !r.parts().contains(racelab.fix.reregister.P3.PART));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O7(Row row) throws Exception {
    LincheckSearch.finish(LincheckSearch.search("RR_O7", row, "O7",
        LincheckSearch.invocations(), new LincheckSearch.Body() {
          @Override
          public LincheckSearch.Verdict run() throws Exception {
            return ReregisterSearches.o7();
          }
        }), row, "O7");
  }
}
