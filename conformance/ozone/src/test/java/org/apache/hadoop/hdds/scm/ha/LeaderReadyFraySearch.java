package org.apache.hadoop.hdds.scm.ha;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.search.FraySearch;

/**
 * A method per leader-ready headline row with the layer on, which every leader-ready Fray search
 * inherits (Fray 0.9.2 has no parameterized form, so the rows are methods). A search class names
 * its {@link FraySearch} and its run ({@link #search}, {@link #run}); its {@code @BeforeAll}
 * warms it ({@link FraySearch#warm}) and its {@code @AfterAll} writes its records.
 */
@ExtendWith(FrayTestExtension.class)
abstract class LeaderReadyFraySearch {
  static final int ITERATIONS = 200;

  /** The search the row methods run. */
  abstract FraySearch search();

  /** One run of the search, decided from the state at its end. */
  abstract Callable<FraySearch.Verdict> run();

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    search().run("upstream", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    search().run("P1", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    search().run("P2", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    search().run("proposed", run());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    search().run("improved", run());
  }
}
