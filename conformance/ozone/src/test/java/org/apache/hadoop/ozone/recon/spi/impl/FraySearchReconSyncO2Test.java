package org.apache.hadoop.ozone.recon.spi.impl;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
public class FraySearchReconSyncO2Test extends ReconSyncFraySearch {
  static final FraySearch SEARCH = new FraySearch("RS_O2", "O2", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH, FraySearchReconSyncO2Test::once);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> run() {
    return FraySearchReconSyncO2Test::once;
  }

  /** One run: the sync of two new keys (two write batches) against the upgrade action's rebuild. */
  static FraySearch.Verdict once() throws Exception {
    ReconSyncSearches.Run r = ReconSyncSearches.race(dbs, 2);
    return new FraySearch.Verdict(r.o2(), "counted twice: " + (r.count - r.omKeys) + " of the "
        + (r.omKeys - r.startKeys) + " keys of the delta; " + r.observed());
  }

  @AfterAll
  static void record() throws Exception {
    finish(SEARCH);
  }
}
