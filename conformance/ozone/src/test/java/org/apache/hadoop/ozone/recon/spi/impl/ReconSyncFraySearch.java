package org.apache.hadoop.ozone.recon.spi.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.FixLayer;
import racelab.fix.Part;
import racelab.search.FraySearch;

/**
 * What every recon-sync Fray search shares: a method per headline row with the layer on (Fray
 * 0.9.2 has no parameterized form, so the rows are methods, inherited here), OM's DB and the
 * Recon OM DB opened once outside the iterations, and the warm-up. A search class names its
 * {@link FraySearch} and its run ({@link #search}, {@link #run}); its {@code @BeforeAll} calls
 * {@link #warm} and its {@code @AfterAll} {@link #finish}.
 */
@ExtendWith(FrayTestExtension.class)
abstract class ReconSyncFraySearch {
  static final int ITERATIONS = 200;

  /** OM's DB and the Recon OM DB, opened once, outside the iterations (ReconSyncSearches.openDbs). */
  static ReconSyncWiring.Dbs dbs;

  /** The search the row methods run. */
  abstract FraySearch search();

  /** One run of the search, decided from the state at its end. */
  abstract Callable<FraySearch.Verdict> run();

  /**
   * Outside Fray's iterations: the parts installed, ReconServer's injector bound, the DBs opened,
   * a first run (it starts what a JVM starts once: RocksDB's LeakDetector, the rows' template),
   * then one whole run on each row, each checked to end every thread it started.
   */
  static void warm(FraySearch search, Callable<FraySearch.Verdict> once) throws Exception {
    for (var row : search.rows()) {
      FixLayer.install(row.parts().toArray(new Part[0]));
    }
    ReconSyncSearches.installInjector();
    dbs = ReconSyncSearches.openDbs();
    FixLayer.run(search.rows().get(0), once);
    for (var row : search.rows()) {
      Set<Thread> before = ReconSyncSearches.liveThreads();
      FixLayer.run(row, once);
      ReconSyncSearches.checkAllEnded(before, search.id() + "'s run on " + row.variant());
    }
    // what Fray links on its first use falls here, not in the first iteration (FraySearch)
    FraySearch.warmUnderFray(() -> FixLayer.run(search.rows().get(0), once));
  }

  /** The search's records written (the upstream row must have reached it), the DBs closed. */
  static void finish(FraySearch search) throws Exception {
    try {
      if (search != null) {
        search.finish("upstream");
      }
    } finally {
      if (dbs != null) {
        dbs.close();
        dbs = null;
      }
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    search().run("upstream", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    search().run("proposed", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A1() throws Exception {
    search().run("A1", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A2() throws Exception {
    search().run("A2", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A3() throws Exception {
    search().run("A3", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void A4() throws Exception {
    search().run("A4", run());
  }
}
