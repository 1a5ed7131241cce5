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
 * recon-sync O2 (HDDS-17042: a checkpoint between two write-batch commits of one delta, the
 * prefix applied twice) searched by Fray on ozone-recon 2.2.0, without latches: as
 * FraySearchReconSyncO1Test, but OM writes two new keys (two RocksDB write batches, one delta),
 * so the sync thread commits two write batches to the Recon OM DB before its one hand-off. O2 is
 * decided as ReplayReconSyncO2Test decides it, from the state at quiescence alone: the Recon OM
 * DB holds OM's keys and the task counts OM's keys plus a strict prefix of the delta (one key; the
 * whole delta counted twice is O1).
 *
 * <p>As for O1, the requester is 2.2.0's upgrade action, which no part locks: the claims' real
 * cells (Method::real("RS_O2")) say O2 is reachable on every headline row (RS-F5), the loom
 * cells (REST requester) unreachable on the fix rows. Fix rows are recorded, not asserted;
 * the upstream row must reach O2.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchReconSyncO2Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("RS_O2", "O2", Rows.headline());

  /** OM's DB and the Recon OM DB, opened once, outside the iterations (ReconSyncSearches.openDbs). */
  static ReconSyncWiring.Dbs dbs;

  /**
   * Outside Fray's iterations: the parts installed, ReconServer's injector bound, the DBs opened,
   * one whole run on each row, each checked to end every thread it started.
   */
  @BeforeAll
  static void warm() throws Exception {
    for (var row : SEARCH.rows()) {
      FixLayer.install(row.parts().toArray(new racelab.fix.Part[0]));
    }
    ReconSyncSearches.installInjector();
    dbs = ReconSyncSearches.openDbs();
    // the first run starts what a JVM starts once (RocksDB's LeakDetector)
    FixLayer.run(SEARCH.rows().get(0), FraySearchReconSyncO2Test::once);
    for (var row : SEARCH.rows()) {
      Set<Thread> before = ReconSyncSearches.liveThreads();
      FixLayer.run(row, FraySearchReconSyncO2Test::once);
      ReconSyncSearches.checkAllEnded(before, "RS_O2's run on " + row.variant());
    }
  }

  /** One run: the sync of two new keys (two write batches) against the upgrade action's rebuild. */
  static FraySearch.Verdict once() throws Exception {
    ReconSyncSearches.Run r = ReconSyncSearches.race(dbs, 2);
    return new FraySearch.Verdict(r.o2(), "counted twice: " + (r.count - r.omKeys) + " of the "
        + (r.omKeys - r.startKeys) + " keys of the delta; " + r.observed());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.run("upstream", FraySearchReconSyncO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.run("proposed", FraySearchReconSyncO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A1() throws Exception {
    SEARCH.run("A1", FraySearchReconSyncO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A2() throws Exception {
    SEARCH.run("A2", FraySearchReconSyncO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A3() throws Exception {
    SEARCH.run("A3", FraySearchReconSyncO2Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A4() throws Exception {
    SEARCH.run("A4", FraySearchReconSyncO2Test::once);
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
