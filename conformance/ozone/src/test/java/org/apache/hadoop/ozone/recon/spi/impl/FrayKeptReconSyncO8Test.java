package org.apache.hadoop.ozone.recon.spi.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.reconsync.Rows;
import racelab.search.FrayKept;

/**
 * Schedules FraySearchReconSyncO8Test kept (src/test/resources/schedules/RS_O8/), each replayed
 * by Fray from its recorded scheduler choices (one iteration, POS fed the choices) on the row it
 * was found on, after the search's warm-up: each must reach O8 again (an executor lost, its
 * worker running). See the README ("Second look") for what such a replay does and does not repeat.
 * Measured: these three reached O8 again in 69 of 72 replays (6 JVMs; upstream-run-4 in 29 of
 * 32, the other two in 40 of 40; O8 is about 58 % of the runs).
 */
// Not deterministic here (conformance/README.md, "Second look": the JDK's own identity-hashed
// and GC-cleared tables, in the REST threads' executor creation):
// the gate skips it; run it by hand with -Dracelab.fray.kept.nondeterministic=true.
@EnabledIfSystemProperty(named = "racelab.fray.kept.nondeterministic", matches = "true")
@ExtendWith(FrayTestExtension.class)
public class FrayKeptReconSyncO8Test {
  static final FrayKept KEPT = new FrayKept("RS_O8", "O8", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchReconSyncO8Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O8/upstream-run-2")
  public void upstream_run2() throws Exception {
    KEPT.replay("upstream", "upstream-run-2", FraySearchReconSyncO8Test::once);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O8/upstream-run-4")
  public void upstream_run4() throws Exception {
    KEPT.replay("upstream", "upstream-run-4", FraySearchReconSyncO8Test::once);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O8/proposed-run-1")
  public void proposed_run1() throws Exception {
    KEPT.replay("proposed", "proposed-run-1", FraySearchReconSyncO8Test::once);
  }

  @AfterAll
  static void close() throws Exception {
    if (FraySearchReconSyncO8Test.dbs != null) {
      FraySearchReconSyncO8Test.dbs.close();
    }
  }
}
