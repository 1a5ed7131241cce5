package org.apache.hadoop.hdfs.server.datanode;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.reregister.Rows;
import racelab.search.FrayKept;

/**
 * The schedule FraySearchReregisterO3Test kept (src/test/resources/schedules/RR_O3/), replayed
 * by Fray from its recorded scheduler choices on the row it was found on: it must reach O3
 * again (X finalized and reported by no block report the restarted NameNode accepts).
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptReregisterO3Test {
  static final FrayKept KEPT = new FrayKept("RR_O3", "O3", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchReregisterO3Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RR_O3/upstream-run-47")
  public void upstream_run47() throws Exception {
    KEPT.replay("upstream", "upstream-run-47", ReregisterFraySearch::o3);
  }
}
