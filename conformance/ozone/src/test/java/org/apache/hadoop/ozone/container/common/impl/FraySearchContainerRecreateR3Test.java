package org.apache.hadoop.ozone.container.common.impl;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import racelab.conformance.Threads;
import racelab.fix.containerrecreate.Dn;
import racelab.fix.containerrecreate.Rows;
import racelab.search.FraySearch;
import racelab.search.RandomPriorities;

/**
 * container-recreate's residual window R3 (the order of ReplayContainerRecreateR3Test, the
 * report's repro test on the leader) searched by Fray on Ozone 2.2.0, without latches: the
 * threads of FraySearchContainerRecreateWriteRaceTest (on the replays' pre-state, c1 OPEN with
 * block 1, the client's thread writes block 2, WriteChunk then PutBlock, each validated and
 * applied, and SCM's thread applies the close through the pipeline and force deletes c1), with
 * the threads' stamps ({@link ContainerRecreateWindows}) telling the window. CR_R3: O5 (the
 * harness's ContainerStateMachine unhealthy, as the replays decide it) in R3's window (the force
 * delete ended before the client's WriteChunk was validated). The model's verdict for that order
 * (scenarios/container-recreate-real-CR_R3.scn) on the headline rows: O5 on P1, tombstone and
 * proposed (the leader's COMMIT_DATA of the refused WriteChunk answers CONTAINER_NOT_FOUND);
 * O1 and O7, not O5, on upstream, P2, P4, P5, P7, P8; nothing on P6, improved. So R3 is a
 * residual of the fix rows, unreachable upstream: the proposed row must reach it (k > 0), the
 * others are recorded.
 *
 * <p>The write race's scheduler ({@link RandomPriorities}, PCT of depth 1): R3 is SCM's whole
 * thread before the client's, which depth 1 gives whenever SCM draws the higher priority. (The
 * same runs also reach the write race's outcomes; those are FraySearchContainerRecreateWriteRaceTest's
 * records.) A run's window is printed at the end per row.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchContainerRecreateR3Test extends ContainerRecreateRandomPrioritiesRows {
  static final FraySearch SEARCH = new FraySearch("CR_R3", "O5", Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchContainerRecreateR3Test::once);
  }

  /** One run: the client's whole write against SCM's close and force delete. */
  static List<FraySearch.Verdict> once() throws Exception {
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      Dn.registerPipeline(w.dispatcher, w.container2BCSIDMap);
      w.openWithBlock();
      ContainerRecreateReplays.Run r = new ContainerRecreateReplays.Run(w);
      ContainerRecreateWindows win = new ContainerRecreateWindows();
      win.watch(w);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread client = Threads.recording("client", failed, () -> {
        win.wcValidateStart = win.now();
        r.wc = w.startTransaction(w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
        if (r.wc.reply == null) {
          ContainerRecreateReplays.restOfWriteChunk(r);
        }
        if (w.healthy) {
          r.pb = w.startTransaction(w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
          win.pbValidated = win.now();
          if (r.pb.reply == null) {
            win.pbApplyStart = win.now();
            w.answer(r.pb, w.applyTransaction(r.pb));
          }
        }
      });
      Thread scm = Threads.recording("scm", failed,
          () -> ContainerRecreateWindows.closeAndForceDelete(r, win));
      client.start();
      scm.start();
      client.join();
      scm.join();
      boolean ok = failed.get() == null;
      ContainerRecreateWindows.last = win.name(r.deleted);
      String observed = "O5=" + !w.healthy + " O1=" + r.o1() + " O7=" + r.recreated() + "; "
          + win.describe(r.deleted) + "; " + r.observed()
          + (ok ? "" : "; a thread failed: " + failed.get());
      if (Boolean.getBoolean("racelab.search.verbose")) {
        System.out.println("[racelab] CR_R3 run: " + observed);
      }
      return List.of(new FraySearch.Verdict(ok && !w.healthy && win.r3(), observed));
    }
  }

  @Override
  void row(String variant) throws Exception {
    ContainerRecreateWindows.last = null;
    SEARCH.runEach(variant, FraySearchContainerRecreateR3Test::once);
    ContainerRecreateWindows.take(variant);
  }

  @AfterAll
  static void record() {
    ContainerRecreateWindows.print("CR_R3");
    SEARCH.finish("proposed");
  }
}
