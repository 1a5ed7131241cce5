package org.apache.hadoop.ozone.container.common.impl;

import java.util.List;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.scm.container.ContainerInfo;
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
 * container-recreate's write race (the model's write-races-close-and-delete) searched by Fray on
 * Ozone 2.2.0, without latches: on ContainerRecreateWiring (the real HddsDispatcher,
 * KeyValueHandler, ContainerSet and volumes of the leader, as the CR replays wire them, after
 * the same pre-state: c1 OPEN with block 1), the client's thread (WriteChunk of block 2
 * validated, its WRITE_DATA and COMMIT_DATA, then the PutBlock) and SCM's thread (the close
 * applied through the pipeline, then the force delete) start together. Each run decides, from
 * the real state, as the CR replays decide them (ContainerRecreateReplays):
 * <ul>
 *   <li>O1 (CR_O1): a replica of c1 that is not the deleted one holds block 2, and the client
 *       got SUCCESS for both commands;
 *   <li>O7 (CR_O7): a replica of c1 that is not the deleted one exists (recreated);
 *   <li>O5 (CR_O5): the pipeline's state machine is unhealthy;
 *   <li>O2 (CR_O2): after the race, SCM's real ContainerReportHandler, given the leader's
 *       container report (as ReplayContainerRecreateO2Test gives it), raises c1's sequence id
 *       above the close's: a recreated replica's BCSID taken for the container's.
 * </ul>
 *
 * <p>The scheduler is {@link RandomPriorities} (PCT of depth 1), not POS nor Fray's PCT: all of
 * SCM's close and force delete must fall between the client's validation and its chunk write,
 * and depth 1 runs a thread until it blocks. Measured on the upstream row: POS, 60 runs: O1 0, O7 1, O5 2 (and O1 0
 * of 200 before); PCT with 3 change points, 400 runs: O1 0, O7 0, O5 3 (first at run 325), where
 * its first iteration, before it has a step count to place change points in, reached O1 or O5
 * on 8 of the 10 fix rows; depth 1, 30 runs: O1 10, O7 10, O5 0. So O5 is reached rarely by
 * this search, and O1 often. One method per headline
 * row with the layer on; the upstream row must reach O1.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchContainerRecreateWriteRaceTest extends ContainerRecreateRandomPrioritiesRows {
  static final FraySearch SEARCH = new FraySearch("CR_O1", "O1", Rows.headline())
      .and("CR_O7", "O7").and("CR_O5", "O5").and("CR_O2", "O2");

  /** Outside Fray's iterations: the parts installed and one whole run on each row. */
  @BeforeAll
  static void warm() throws Exception {
    SEARCH.warm(FraySearchContainerRecreateWriteRaceTest::once);
  }

  /**
   * One run: the client's write against SCM's close and force delete; O1, O7, O5. Then, once
   * both threads have ended, the leader's container report, processed by SCM's real
   * ContainerReportHandler as ReplayContainerRecreateO2Test processes it (c1 CLOSED at the
   * close's BCSID): O2.
   */
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
      boolean o2 = false;
      String reported = "";
      if (ok) {
        var report = w.set.getContainerReport();
        ContainerInfo info = ReplayContainerRecreateO2Test.scmProcesses(report, r.closeSeq, true);
        o2 = info.getState() == HddsProtos.LifeCycleState.CLOSED
            && info.getSequenceId() > r.closeSeq;
        reported = "; SCM: c1 " + info.getState() + " closed at sequence id " + r.closeSeq + ", now "
            + info.getSequenceId() + " after the leader's report of " + report.getReportsCount()
            + " replica(s)";
      }
      String observed = "O5=" + !w.healthy + " O7=" + r.recreated() + " O2=" + o2 + "; "
          + r.observed() + reported + (ok ? "" : "; a thread failed: " + failed.get());
      return List.of(new FraySearch.Verdict(ok && r.o1(), observed),
          new FraySearch.Verdict(ok && r.recreated(), observed),
          new FraySearch.Verdict(ok && !w.healthy, observed),
          new FraySearch.Verdict(o2, observed));
    }
  }

  @Override
  void row(String variant) throws Exception {
    SEARCH.runEach(variant, FraySearchContainerRecreateWriteRaceTest::once);
  }

  @AfterAll
  static void record() {
    SEARCH.finish("upstream");
  }
}
