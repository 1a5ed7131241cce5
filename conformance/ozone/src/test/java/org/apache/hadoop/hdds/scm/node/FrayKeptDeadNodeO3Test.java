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
 * reach O3 again. Measured (conformance/README.md, "Second look"): these reached O3 in 15 of
 * 15 replays each (3 JVMs), and beside the other kept classes in one JVM; two are kept for the
 * gate's time (a replay is 1.2-1.6 s, the class's warm-up about 9 s).
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptDeadNodeO3Test {
  static final FrayKept KEPT = new FrayKept("DN_O3", "O3", Rows.all());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchDeadNodeO3Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/DN_O3/upstream-run-3")
  public void upstream_run3() throws Exception {
    KEPT.replay("upstream", "upstream-run-3", FraySearchDeadNodeO3Test::o3);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/DN_O3/P1-run-2")
  public void P1_run2() throws Exception {
    KEPT.replay("P1", "P1-run-2", FraySearchDeadNodeO3Test::o3);
  }
}
