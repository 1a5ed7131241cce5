package org.apache.hadoop.hdfs.server.datanode;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.reregister.Rows;
import racelab.search.FrayKept;

/**
 * The schedule FraySearchReregisterO6Test kept (src/test/resources/schedules/RR_O6/), replayed
 * by Fray from its recorded scheduler choices on the row it was found on: it must reach O6
 * again (X lost with at most one registration at the NameNode).
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptReregisterO6Test {
  static final FrayKept KEPT = new FrayKept("RR_O6", "O6", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchReregisterO6Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RR_O6/upstream-run-23")
  public void upstream_run23() throws Exception {
    KEPT.replay("upstream", "upstream-run-23", ReregisterFraySearch::o6);
  }
}
