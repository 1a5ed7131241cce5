package org.apache.hadoop.ozone.container.common.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.containerrecreate.Rows;
import racelab.search.FraySearch;
import racelab.search.RandomPriorities;

/**
 * container-recreate's residual window R1 (ReplayContainerRecreateR1Test's order: the PutBlock
 * validated while c1 is OPEN, SCM's close and force delete to their end, then the PutBlock's
 * apply) searched by Fray on Ozone 2.2.0, without latches:
 * {@link ContainerRecreateWindows#putBlockAgainstCloseAndDelete} (the replay's wiring and its
 * steps up to the PutBlock's validation, then the apply's thread and SCM's thread start
 * together). CR_R1: O5 (the harness's ContainerStateMachine unhealthy, as the replay decides it)
 * in R1's window, read off the threads' stamps. The model's verdict for that order
 * (scenarios/container-recreate-real-CR_R1.scn) on the headline rows: O5 on upstream, P2, P4,
 * P5, P6, P7, P8 (the auto-created replica's PutBlock finds no chunk file); not on P1,
 * tombstone, proposed, improved. The upstream row must reach it.
 *
 * <p>Scheduler {@link RandomPriorities} (PCT of depth 1): R1 is SCM's whole thread before the
 * apply's, which depth 1 gives whenever SCM draws the higher priority (upstream, 12 runs: R1 in
 * 3, each O5). Under POS, 20 runs: R1 in none (the apply's thread always reached the handler
 * before the close ended). A run's window is printed per row at the end.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchContainerRecreateR1Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("CR_R1", "O5", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchContainerRecreateR1Test::once);
  }

  static List<FraySearch.Verdict> once() throws Exception {
    ContainerRecreateWindows.Raced r =
        ContainerRecreateWindows.putBlockAgainstCloseAndDelete("CR_R1");
    return List.of(new FraySearch.Verdict(r.o5() && r.r1(), r.observed()));
  }

  private void row(String variant) throws Exception {
    ContainerRecreateWindows.last = null;
    SEARCH.runEach(variant, FraySearchContainerRecreateR1Test::once);
    ContainerRecreateWindows.take(variant);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void upstream() throws Exception {
    row("upstream");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P1() throws Exception {
    row("P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P2() throws Exception {
    row("P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P4() throws Exception {
    row("P4");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P5() throws Exception {
    row("P5");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P6() throws Exception {
    row("P6");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void tombstone() throws Exception {
    row("tombstone");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P7() throws Exception {
    row("P7");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P8() throws Exception {
    row("P8");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void proposed() throws Exception {
    row("proposed");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void improved() throws Exception {
    row("improved");
  }

  @AfterAll
  static void record() {
    ContainerRecreateWindows.print("CR_R1");
    SEARCH.finish("upstream");
  }
}
