package org.apache.hadoop.hdfs.server.datanode;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.LincheckSearch;

/**
 * Lincheck search for reregister O2 on hadoop-hdfs 3.5.0, no latches, with the actor thread
 * running the whole BPServiceActor.blockReport (search RR_O2_FBR): the lost FBR request, on
 * the rows LincheckSearchReregisterO2Test leaves out (P1, proposed, trunk+P1: P1's epoch is read
 * as blockReport starts) and on upstream, whose search must reach it. The threads and the
 * predicate: {@link ReregisterMissingSearches.O2}. {@code -Dracelab.lincheck.invocations} per
 * row (200 unless set). Profile {@code lincheck}; {@code cargo xtask search reregister --tool
 * lincheck --only O2Fbr}.
 */
public class LincheckSearchReregisterO2FbrTest {
  @BeforeAll
  static void installAll() throws Exception {
    LincheckSearch.installAll(Rows.headline());
    ReregisterMissingSearches.prepare(); // after the parts: see ReregisterSearchActor
  }

  static Stream<Row> rows() {
    return LincheckSearch.rows(Rows.headline()).filter(r -> r.variant().equals("upstream")
        || r.parts().contains(racelab.fix.reregister.P1.PART));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O2_FBR(Row row) throws Exception {
    LincheckSearch.finish(LincheckSearch.search("RR_O2_FBR", row, "O2",
        LincheckSearch.invocations(row),
        new ReregisterMissingSearches.O2(row, LincheckSearch.invocations(row))), row, "O2");
  }
}
