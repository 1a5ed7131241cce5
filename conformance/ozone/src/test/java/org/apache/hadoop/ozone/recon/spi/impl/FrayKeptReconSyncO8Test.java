package org.apache.hadoop.ozone.recon.spi.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.reconsync.Rows;
import racelab.search.FrayKept;

/**
 * Schedules FraySearchReconSyncO8Test kept (src/test/resources/schedules/RS_O8/), each replayed
 * by Fray from its recorded scheduler choices (one iteration, POS fed the choices) on the row it
 * was found on, after the search's warm-up: each must reach O8 again (an executor lost, its
 * worker running). See the README ("Kept schedules are NOT deterministic here") for what such a
 * replay does and does not repeat.
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptReconSyncO8Test {
  static final FrayKept KEPT = new FrayKept("RS_O8", "O8", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchReconSyncO8Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O8/upstream-run-1")
  public void upstream_run1() throws Exception {
    KEPT.replay("upstream", "upstream-run-1", FraySearchReconSyncO8Test::once);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O8/upstream-run-2")
  public void upstream_run2() throws Exception {
    KEPT.replay("upstream", "upstream-run-2", FraySearchReconSyncO8Test::once);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O8/proposed-run-7")
  public void proposed_run7() throws Exception {
    KEPT.replay("proposed", "proposed-run-7", FraySearchReconSyncO8Test::once);
  }

  @AfterAll
  static void close() throws Exception {
    if (FraySearchReconSyncO8Test.dbs != null) {
      FraySearchReconSyncO8Test.dbs.close();
    }
  }
}
