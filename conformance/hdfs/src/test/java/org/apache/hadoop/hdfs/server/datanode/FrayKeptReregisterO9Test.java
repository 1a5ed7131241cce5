package org.apache.hadoop.hdfs.server.datanode;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.reregister.Rows;
import racelab.search.FrayKept;

/**
 * The schedules FraySearchReregisterO9Test kept (src/test/resources/schedules/RR_O9/), each
 * replayed by Fray from its recorded scheduler choices on the row it was found on: each must
 * reach O9 again (one NameNode locates X, another does not). P1's is the residual the model
 * predicts on that row (R), not a deviation.
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptReregisterO9Test {
  static final FrayKept KEPT = new FrayKept("RR_O9", "O9", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchReregisterO9Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RR_O9/upstream-run-41")
  public void upstream_run41() throws Exception {
    KEPT.replay("upstream", "upstream-run-41", ReregisterFraySearch::o9);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RR_O9/P1-run-44")
  public void P1_run44() throws Exception {
    KEPT.replay("P1", "P1-run-44", ReregisterFraySearch::o9);
  }
}
