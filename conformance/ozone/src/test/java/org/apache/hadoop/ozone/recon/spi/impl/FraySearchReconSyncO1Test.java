package org.apache.hadoop.ozone.recon.spi.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.FixLayer;
import racelab.fix.reconsync.Rows;
import racelab.search.FraySearch;

/**
 * recon-sync O1 (HDDS-17042: a batch applied twice) searched by Fray on ozone-recon 2.2.0, without
 * latches: on the replays' wiring (ReconSyncSearches.wiring: the real OzoneManagerServiceProviderImpl,
 * ReconTaskControllerImpl and its event processor, over OM's and the Recon OM DB's real RocksDBs,
 * opened once outside the iterations and shared by them), OM writes one new key, then the sync thread (the real syncDataFromOM: fetch, commit to the Recon OM
 * DB, hand-off to consumeOMEvents) and 2.2.0's requester of a rebuild (the upgrade action, whose
 * queueReInitializationEvent drains the buffer, checkpoints the Recon OM DB and offers the
 * rebuild) start together; the event processor runs on its own, and Fray's POS scheduler picks
 * the interleaving at the real classes' synchronization. O1 is decided as ReplayReconSyncO1Test
 * decides it, at quiescence: the Recon OM DB holds OM's keys and the task counts more.
 *
 * <p>The model's requester (triggerTaskRebuild, which P1 locks) is in no release; the upgrade
 * action's path is locked by no part, so the claims' real cells (Method::real("RS_O1")) say O1 is
 * reachable on every headline row, and the loom cells (REST requester) say unreachable on
 * proposed, A1..A4: a fix row's k of N here is about that requester (RS-F5), recorded, not asserted.
 * One method per headline row with the layer on; the upstream row must reach O1.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchReconSyncO1Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("RS_O1", "O1", Rows.headline());

  /**
   * Outside Fray's iterations: the parts installed, ReconServer's injector bound, one whole run on
   * each row, each checked to end every thread it started.
   */
  /** OM's DB and the Recon OM DB, opened once, outside the iterations (ReconSyncSearches.openDbs). */
  static ReconSyncWiring.Dbs dbs;

  @BeforeAll
  static void warm() throws Exception {
    for (var row : SEARCH.rows()) {
      FixLayer.install(row.parts().toArray(new racelab.fix.Part[0]));
    }
    ReconSyncSearches.installInjector();
    dbs = ReconSyncSearches.openDbs();
    // the first run starts what a JVM starts once (RocksDB's LeakDetector, the rows' template)
    FixLayer.run(SEARCH.rows().get(0), FraySearchReconSyncO1Test::once);
    for (var row : SEARCH.rows()) {
      Set<Thread> before = ReconSyncSearches.liveThreads();
      FixLayer.run(row, FraySearchReconSyncO1Test::once);
      ReconSyncSearches.checkAllEnded(before, "RS_O1's run on " + row.variant());
    }
  }

  /** One run: the sync of one new key against the upgrade action's rebuild. */
  static FraySearch.Verdict once() throws Exception {
    ReconSyncSearches.Run r = ReconSyncSearches.race(dbs, 1);
    return new FraySearch.Verdict(r.o1(), r.observed());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.run("upstream", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.run("proposed", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A1() throws Exception {
    SEARCH.run("A1", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A2() throws Exception {
    SEARCH.run("A2", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A3() throws Exception {
    SEARCH.run("A3", FraySearchReconSyncO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A4() throws Exception {
    SEARCH.run("A4", FraySearchReconSyncO1Test::once);
  }

  @AfterAll
  static void record() throws Exception {
    try {
      SEARCH.finish("upstream");
    } finally {
      if (dbs != null) {
        dbs.close();
      }
    }
  }
}
