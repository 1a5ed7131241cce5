package org.apache.hadoop.ozone.container.common.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Threads;
import racelab.fix.FixLayer;
import racelab.fix.containerrecreate.Dn;
import racelab.fix.containerrecreate.Rows;
import racelab.search.FraySearch;

/**
 * container-recreate O1 (HDDS-17643: the force-deleted container recreated by the client's
 * write, which is told SUCCESS) searched by Fray on Ozone 2.2.0, without latches: on
 * ContainerRecreateWiring (the real HddsDispatcher, KeyValueHandler, ContainerSet and volumes of
 * the leader, as the CR replays wire them, after the same pre-state: c1 OPEN with block 1), the
 * client's thread (WriteChunk of block 2 validated, its WRITE_DATA and COMMIT_DATA, then the
 * PutBlock) and SCM's thread (the close applied through the pipeline, then the force delete)
 * start together, and Fray's POS scheduler picks the interleaving at the real classes'
 * synchronization (the container's lock, the set's maps, the volumes). O1 is decided as
 * ReplayContainerRecreateO1Test decides it (ContainerRecreateReplays.Run.o1: a replica of c1
 * that is not the deleted one holds block 2, and the client got SUCCESS for both commands).
 * One method per headline row with the layer on; the upstream row must reach O1.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchContainerRecreateO1Test {
  static final int ITERATIONS = 200;
  static final FraySearch SEARCH = new FraySearch("CR_O1", "O1", Rows.headline());

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    for (var row : SEARCH.rows()) {
      FixLayer.install(row.parts().toArray(new racelab.fix.Part[0]));
    }
    for (var row : SEARCH.rows()) {
      FixLayer.run(row, FraySearchContainerRecreateO1Test::once);
    }
  }

  /** One run: the client's write against SCM's close and force delete. */
  static FraySearch.Verdict once() throws Exception {
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
      boolean reached = failed.get() == null && r.o1();
      return new FraySearch.Verdict(reached, "O5=" + !w.healthy + " O7=" + r.recreated() + "; "
          + r.observed() + (failed.get() == null ? "" : "; a thread failed: " + failed.get()));
    }
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    SEARCH.run("upstream", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    SEARCH.run("P1", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    SEARCH.run("P2", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P4() throws Exception {
    SEARCH.run("P4", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P5() throws Exception {
    SEARCH.run("P5", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P6() throws Exception {
    SEARCH.run("P6", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void tombstone() throws Exception {
    SEARCH.run("tombstone", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P7() throws Exception {
    SEARCH.run("P7", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P8() throws Exception {
    SEARCH.run("P8", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    SEARCH.run("proposed", FraySearchContainerRecreateO1Test::once);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void improved() throws Exception {
    SEARCH.run("improved", FraySearchContainerRecreateO1Test::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
