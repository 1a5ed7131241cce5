package org.apache.hadoop.hdfs.server.datanode;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.conformance.Threads;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.trace.Recorder;

/**
 * Replay of racelab's reregister counterexample upstream/O3 (double-register/standby, the
 * report's sequence; the order of counterexamples/reregister/upstream.O3.scn) on hadoop-hdfs
 * 3.5.0 with real threads, on every headline row the jar can express. It decides O1, O2, O3
 * and O8 on the real state at quiescence.
 *
 * <p>Setup (main, as the model's setup): the DataNode registered (registration A); the
 * NameNode restarts (STANDBY, startup safe mode); two heartbeats are answered REGISTER (both
 * sent under A: REG1, REG2 queued); main plays the command thread for REG1 (reRegister:
 * registration B, an FBR requested now). Concurrent part: the real offerService loop (a
 * heartbeat that gets a lease, blockReport: drain, snapshot, RPC), the real command thread
 * (REG2), and a writer (finalize X, BPOfferService.notifyNamenodeReceivedBlock). Order, by
 * latches in collaborators only: the FBR's snapshot and its processing by the NameNode; the
 * writer; REG2's reRegister after its versionRequest (clearIBRs, registerDatanode, register);
 * then the FBR's RPC returns and blockReport's scheduleNextBlockReport runs. Quiescence: three
 * more heartbeats of the real loop (200 ms apart; a rescheduled FBR is, but for about 3 runs in
 * 10^7, days away: ReregisterWiring sets the largest FBR interval).
 */
public class ReplayReregisterO3Test {
  static final long X = 7;

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O3_secondRegistrationDuringInFlightFbr(Row row) throws Exception {
    drive(row, "RR_O3", new HAServiceState[] {HAServiceState.STANDBY}, "O1", "O2", "O3", "O8");
  }

  /**
   * This replay's order against the last of the NameNodes {@code has} (its state the one the
   * actor last saw, which reRegister's clearIBRs depends on); the NameNodes before it keep the
   * DataNode registered (each actor registered once, its state set as the model's setup), their
   * real offerService loops started for quiescence only. The verdicts of {@code outcomes}
   * (O1, O2, O3, O8 about the last NameNode; O9 across them) are recorded as replay {@code id}.
   */
  static void drive(Row row, String id, HAServiceState[] has, String... outcomes)
      throws Exception {
    List<String> decide = List.of(outcomes);
    FixLayer.run(row, () -> {
      try (ReregisterWiring w = new ReregisterWiring(has)) {
        final int a = has.length - 1;
        ReregisterWiring.FakeNameNode nn = w.nns.get(a);
        BPServiceActor actor = w.actor(a);
        w.record(a);
        // --- setup on main ---
        for (int k = 0; k < a; k++) {
          w.actor(k).register(ReregisterWiring.NS); // the other NameNodes keep the DataNode
          w.actor(k).state = has[k];
        }
        actor.register(ReregisterWiring.NS); // registration A
        BPServiceActor.Scheduler s = actor.getScheduler();
        s.setNextBlockReportTime(s.monotonicNow() + 6L * 3600 * 1000);
        s.resetBlockReportTime = false;
        nn.restart();
        w.heartbeat(a, false); // REG1 queued (sent under A)
        w.heartbeat(a, false); // REG2 queued (sent under A)
        w.runQueuedBatch(a); // REG1 on main: registration B, FBR due now
        long afterReg1 = w.sequence.get();

        // --- the concurrent part, ordered by latches in collaborators ---
        CountDownLatch reportProcessed = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch reg2Processed = new CountDownLatch(1);
        nn.afterNextReport = () -> {
          reportProcessed.countDown();
          ReregisterWiring.await(written, "the writer");
          ReregisterWiring.await(reg2Processed, "REG2's batch");
        };
        nn.onVersionRequest = () -> ReregisterWiring.await(written, "the writer");
        w.onBatchProcessed = reg2Processed::countDown;
        AtomicReference<Throwable> writerThrew = new AtomicReference<>();
        Thread writer = Threads.recording("DataXceiver", writerThrew, () -> {
          ReregisterWiring.await(reportProcessed, "the in-flight FBR's processing");
          Recorder.act(ReregisterWiring.WRITER);
          w.write(X);
        }, written::countDown);
        writer.start();
        w.startCommandThreads();
        w.startActorLoop(a);
        writer.join();
        ReregisterWiring.await(reg2Processed, "REG2's batch");
        nn.onVersionRequest = null;
        w.onBatchProcessed = null;
        for (int k = 0; k < a; k++) {
          w.startActorLoop(k);
        }
        // quiescence: the in-flight FBR returns, then three heartbeats
        w.quiesce(3);
        if (writerThrew.get() != null) {
          throw new IllegalStateException("harness: the writer threw", writerThrew.get());
        }
        if (w.loopThrew.get() != null) {
          throw new IllegalStateException("harness: offerService threw", w.loopThrew.get());
        }

        // --- the outcomes, from the real state ---
        List<Long> ends = w.reRegistered.getOrDefault(-1, List.of());
        List<Long> cmdEnds = w.reRegistered.getOrDefault(a, List.of());
        boolean reg2Ran = !cmdEnds.isEmpty();
        boolean located = nn.locates(X);
        boolean pending = w.pending(a, X);
        boolean xInSnapshot = w.snapshotAfter(a, afterReg1, X);
        // X left the pending IBRs without reaching the NameNode by an IBR
        boolean dropped = !pending && !nn.log.stream().anyMatch(
            l -> l.startsWith("blockReceivedAndDeleted [" + X + "]"));
        boolean o1 = dropped && !xInSnapshot;
        // a completed registration (REG1 on main, REG2 on the command thread) with no
        // snapshot after it
        boolean o2 = false;
        String lostAfter = "";
        for (long end : concat(ends, cmdEnds)) {
          if (!w.snapshotAfter(a, end, null)) {
            o2 = true;
            lostAfter = " (no snapshot after the registration that ended at event " + end + ")";
          }
        }
        boolean o3 = w.finalized.contains(X) && !located;
        String observed = "REG2 re-registered=" + reg2Ran + ", X pending=" + pending
            + ", X in a snapshot=" + xInSnapshot + ", X located=" + located
            + ", " + ReregisterWiring.nextFbr(s)
            + lostAfter + "; " + w.state();
        // O8: REG2, sent under registration A, re-registered after registration B completed
        // O9: one NameNode locates X, another locates it nowhere
        boolean o9 = w.nns.stream().anyMatch(n -> n.locates(X))
            && w.nns.stream().anyMatch(n -> !n.locates(X));
        boolean[] reached = {o1, o2, o3, reg2Ran, o9};
        String[] ids = {"O1", "O2", "O3", "O8", "O9"};
        for (int i = 0; i < ids.length; i++) {
          if (decide.contains(ids[i])) {
            Replay.record(id, row, ids[i], reached[i], observed);
          }
        }
        Recorder.end(w.modelState(o2));
      }
    });
  }

  static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
