package org.apache.hadoop.ozone.container.common.impl;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
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
public class FraySearchContainerRecreateR1Test extends ContainerRecreateRandomPrioritiesRows {
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

  @Override
  void row(String variant) throws Exception {
    ContainerRecreateWindows.last = null;
    SEARCH.runEach(variant, FraySearchContainerRecreateR1Test::once);
    ContainerRecreateWindows.take(variant);
  }

  @AfterAll
  static void record() {
    ContainerRecreateWindows.print("CR_R1");
    SEARCH.finish("upstream");
  }
}
