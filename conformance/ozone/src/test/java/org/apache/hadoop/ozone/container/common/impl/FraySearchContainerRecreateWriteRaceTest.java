package org.apache.hadoop.ozone.container.common.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.scheduler.PCTScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Threads;
import racelab.fix.FixLayer;
import racelab.fix.containerrecreate.Dn;
import racelab.fix.containerrecreate.Rows;
import racelab.search.FraySearch;

/**
 * container-recreate's write race (the model's write-races-close-and-delete) searched by Fray on
 * Ozone 2.2.0, without latches: on ContainerRecreateWiring (the real HddsDispatcher,
 * KeyValueHandler, ContainerSet and volumes of the leader, as the CR replays wire them, after
 * the same pre-state: c1 OPEN with block 1), the client's thread (WriteChunk of block 2
 * validated, its WRITE_DATA and COMMIT_DATA, then the PutBlock) and SCM's thread (the close
 * applied through the pipeline, then the force delete) start together. Each run decides, from
 * the real state, as the CR replays decide them (ContainerRecreateReplays):
 * <ul>
 *   <li>O5 (CR_O5): the pipeline's state machine is unhealthy;
 *   <li>O7 (CR_O7): a replica of c1 that is not the deleted one exists (recreated);
 *   <li>O1 (CR_O1): that replica holds block 2, and the client got SUCCESS for both commands.
 * </ul>
 *
 * <p>PCT, not POS: the client's window is the few steps between its validation and its
 * chunk write, and all of SCM's close and delete must fall in it. Measured on the upstream row,
 * 60 runs each: POS reached O5 2, O7 1, O1 0 times (and O1 0 of 200 alone before); PCT (3
 * priority change points) O5 2, O7 1, O1 1, and O1 1 of 100 in another series. The upstream row
 * runs 400 iterations, whatever the time budget ({@link FraySearch}): at a rate near 1 in 30 for
 * O5, fewer would miss it too often for its check to mean anything. One method per headline
 * row with the layer on; the upstream row must reach O5.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchContainerRecreateWriteRaceTest {
  static final int ITERATIONS = 200;
  static final int UPSTREAM_ITERATIONS = 400;
  static final FraySearch SEARCH = new FraySearch("CR_O5", "O5", Rows.headline())
      .and("CR_O7", "O7").and("CR_O1", "O1");

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    for (var row : SEARCH.rows()) {
      FixLayer.install(row.parts().toArray(new racelab.fix.Part[0]));
    }
    for (var row : SEARCH.rows()) {
      FixLayer.run(row, FraySearchContainerRecreateWriteRaceTest::once);
    }
  }

  /** One run: the client's write against SCM's close and force delete; O5, O7, O1. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      Dn.registerPipeline(w.dispatcher, w.container2BCSIDMap);
      w.openWithBlock();
      ContainerRecreateReplays.Run r = new ContainerRecreateReplays.Run(w);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread client = Threads.recording("client", failed, () -> {
        r.wc = w.startTransaction(w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
        if (r.wc.reply == null) {
          ContainerRecreateReplays.restOfWriteChunk(r);
        }
        if (w.healthy) {
          ContainerRecreateReplays.putBlock(r);
        }
      });
      Thread scm = Threads.recording("scm", failed,
          () -> ContainerRecreateReplays.closeAndForceDelete(r));
      client.start();
      scm.start();
      client.join();
      scm.join();
      boolean ok = failed.get() == null;
      String observed = "O5=" + !w.healthy + " O7=" + r.recreated() + "; " + r.observed()
          + (ok ? "" : "; a thread failed: " + failed.get());
      return List.of(new FraySearch.Verdict(ok && !w.healthy, observed),
          new FraySearch.Verdict(ok && r.recreated(), observed),
          new FraySearch.Verdict(ok && r.o1(), observed));
    }
  }

  @ConcurrencyTest(iterations = UPSTREAM_ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void upstream() throws Exception {
    SEARCH.runEach("upstream", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P1() throws Exception {
    SEARCH.runEach("P1", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P2() throws Exception {
    SEARCH.runEach("P2", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P4() throws Exception {
    SEARCH.runEach("P4", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P5() throws Exception {
    SEARCH.runEach("P5", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P6() throws Exception {
    SEARCH.runEach("P6", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void tombstone() throws Exception {
    SEARCH.runEach("tombstone", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P7() throws Exception {
    SEARCH.runEach("P7", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void P8() throws Exception {
    SEARCH.runEach("P8", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void proposed() throws Exception {
    SEARCH.runEach("proposed", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = PCTScheduler.class)
  public void improved() throws Exception {
    SEARCH.runEach("improved", FraySearchContainerRecreateWriteRaceTest::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
