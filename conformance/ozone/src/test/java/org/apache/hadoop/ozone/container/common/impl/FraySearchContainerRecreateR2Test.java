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
import racelab.search.OneChangePoint;

/**
 * container-recreate's residual window R2 (ReplayContainerRecreateR2Test's order: the PutBlock
 * validated while c1 is OPEN, its apply hands the handler the replica it found, and the force
 * delete runs to its end in between, so the handler reads that replica DELETED) searched by Fray
 * on Ozone 2.2.0, without latches, on the same race as FraySearchContainerRecreateR1Test
 * ({@link ContainerRecreateWindows#putBlockAgainstCloseAndDelete}). CR_R2: O5 (the harness's
 * ContainerStateMachine unhealthy, as the replay decides it) in R2's window, read off the
 * threads' stamps and the replica the handler delegate was given. The model's verdict for that
 * order (scenarios/container-recreate-real-CR_R2.scn) on the headline rows: O5 on every row but
 * P7 and improved (P7 answers CONTAINER_NOT_OPEN for the DELETED replica): the residual the
 * model keeps open on proposed and tombstone. The upstream row must reach it.
 *
 * <p>Scheduler {@link OneChangePoint} (PCT of depth 2): R2 needs the apply to stop between
 * dispatchRequest's getContainer and KeyValueHandler.handle, where it does not block, while SCM's
 * thread runs at least up to the delete's DELETED mark. Depth 1 never switches there; POS
 * switches at nearly every step, so SCM's many steps never ran in a row (upstream, POS, 40
 * runs: R2 in none, R1 in none; the apply always reached the handler before the close ended);
 * one change point, 40 runs: O5 in 7, of which 5 in R2's window (the handler read DELETED) and
 * 1 in R1's. A run's window is printed per row at the end.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchContainerRecreateR2Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("CR_R2", "O5", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchContainerRecreateR2Test::once);
  }

  static List<FraySearch.Verdict> once() throws Exception {
    ContainerRecreateWindows.Raced r =
        ContainerRecreateWindows.putBlockAgainstCloseAndDelete("CR_R2");
    return List.of(new FraySearch.Verdict(r.o5() && r.r2(), r.observed()));
  }

  private void row(String variant) throws Exception {
    ContainerRecreateWindows.last = null;
    SEARCH.runEach(variant, FraySearchContainerRecreateR2Test::once);
    ContainerRecreateWindows.take(variant);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void upstream() throws Exception {
    row("upstream");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P1() throws Exception {
    row("P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P2() throws Exception {
    row("P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P4() throws Exception {
    row("P4");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P5() throws Exception {
    row("P5");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P6() throws Exception {
    row("P6");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void tombstone() throws Exception {
    row("tombstone");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P7() throws Exception {
    row("P7");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void P8() throws Exception {
    row("P8");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void proposed() throws Exception {
    row("proposed");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = OneChangePoint.class)
  public void improved() throws Exception {
    row("improved");
  }

  @AfterAll
  static void record() {
    ContainerRecreateWindows.print("CR_R2");
    SEARCH.finish("upstream");
  }
}
