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
 * Schedules FraySearchReconSyncO1Test kept (src/test/resources/schedules/RS_O1/), each replayed
 * by Fray from its recorded scheduler choices (one iteration, POS fed the choices) on the row it
 * was found on, after the search's warm-up: each must reach O1 again. See the README ("Second
 * look") for what such a replay does and does not repeat: these reached O1 in 15 of 15 replays
 * each (3 JVMs).
 */
@ExtendWith(FrayTestExtension.class)
public class FrayKeptReconSyncO1Test {
  static final FrayKept KEPT = new FrayKept("RS_O1", "O1", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    FraySearchReconSyncO1Test.warm();
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O1/upstream-run-2")
  public void upstream_run2() throws Exception {
    KEPT.replay("upstream", "upstream-run-2", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O1/upstream-run-4")
  public void upstream_run4() throws Exception {
    KEPT.replay("upstream", "upstream-run-4", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(systemTimeDelegateType = MOCK,
      replay = "classpath:schedules/RS_O1/proposed-run-1")
  public void proposed_run1() throws Exception {
    KEPT.replay("proposed", "proposed-run-1", FraySearchReconSyncO1Test::once);
  }

  @AfterAll
  static void close() throws Exception {
    if (FraySearchReconSyncO1Test.dbs != null) {
      FraySearchReconSyncO1Test.dbs.close();
    }
  }
}
