package org.apache.hadoop.ozone.recon.spi.impl;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
public class FraySearchReconSyncO1Test extends ReconSyncFraySearch {
  static final FraySearch SEARCH = new FraySearch("RS_O1", "O1", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH, FraySearchReconSyncO1Test::once);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> run() {
    return FraySearchReconSyncO1Test::once;
  }

  /** One run: the sync of one new key against the upgrade action's rebuild. */
  static FraySearch.Verdict once() throws Exception {
    ReconSyncSearches.Run r = ReconSyncSearches.race(dbs, 1);
    return new FraySearch.Verdict(r.o1(), r.observed());
  }

  @AfterAll
  static void record() throws Exception {
    finish(SEARCH);
  }
}
