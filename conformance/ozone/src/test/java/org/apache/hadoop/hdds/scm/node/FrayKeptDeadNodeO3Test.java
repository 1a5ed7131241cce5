package org.apache.hadoop.hdds.scm.node;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.deadnode.Rows;
import racelab.search.FrayKept;

/**
 * The schedules FraySearchDeadNodeO3Test kept (src/test/resources/schedules/DN_O3/), each
 * replayed by Fray from its recorded scheduler choices on the row it was found on: each must
 * reach O3 again.
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptDeadNodeO3Test {
  static final FrayKept KEPT = new FrayKept("DN_O3", "O3", Rows.all());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchDeadNodeO3Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/DN_O3/upstream-run-1")
  public void upstream_run1() throws Exception {
    KEPT.replay("upstream", "upstream-run-1", FraySearchDeadNodeO3Test::o3);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/DN_O3/upstream-run-2")
  public void upstream_run2() throws Exception {
    KEPT.replay("upstream", "upstream-run-2", FraySearchDeadNodeO3Test::o3);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/DN_O3/upstream-run-7")
  public void upstream_run7() throws Exception {
    KEPT.replay("upstream", "upstream-run-7", FraySearchDeadNodeO3Test::o3);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/DN_O3/P1-run-1")
  public void P1_run1() throws Exception {
    KEPT.replay("P1", "P1-run-1", FraySearchDeadNodeO3Test::o3);
  }
}
