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
 * more heartbeats of the real loop (200 ms apart; the periodic FBR is hours away).
 */
public class ReplayReregisterO3Test {
  static final long X = 7;

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O3_secondRegistrationDuringInFlightFbr(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReregisterWiring w = new ReregisterWiring(HAServiceState.STANDBY)) {
        ReregisterWiring.FakeNameNode nn = w.nns.get(0);
        BPServiceActor actor = w.actor(0);
        // --- setup on main ---
        actor.register(ReregisterWiring.NS); // registration A
        BPServiceActor.Scheduler s = actor.getScheduler();
        s.setNextBlockReportTime(s.monotonicNow() + 6L * 3600 * 1000);
        s.resetBlockReportTime = false;
        nn.restart();
        w.heartbeat(0, false); // REG1 queued (sent under A)
        w.heartbeat(0, false); // REG2 queued (sent under A)
        w.runQueuedBatch(0); // REG1 on main: registration B, FBR due now
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
          w.write(X);
        }, written::countDown);
        writer.start();
        w.startCommandThreads();
        w.startActorLoop(0);
        writer.join();
        ReregisterWiring.await(reg2Processed, "REG2's batch");
        nn.onVersionRequest = null;
        w.onBatchProcessed = null;
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
        List<Long> cmdEnds = w.reRegistered.getOrDefault(0, List.of());
        boolean reg2Ran = !cmdEnds.isEmpty();
        boolean located = nn.locates(X);
        boolean pending = w.pending(0, X);
        boolean xInSnapshot = w.snapshotAfter(0, afterReg1, X);
        // X left the pending IBRs without reaching the NameNode by an IBR
        boolean dropped = !pending && !nn.log.stream().anyMatch(
            l -> l.startsWith("blockReceivedAndDeleted [" + X + "]"));
        boolean o1 = dropped && !xInSnapshot;
        // a completed registration (REG1 on main, REG2 on the command thread) with no
        // snapshot after it
        boolean o2 = false;
        String lostAfter = "";
        for (long end : concat(ends, cmdEnds)) {
          if (!w.snapshotAfter(0, end, null)) {
            o2 = true;
            lostAfter = " (no snapshot after the registration that ended at event " + end + ")";
          }
        }
        boolean o3 = w.finalized.contains(X) && !located;
        String observed = "REG2 re-registered=" + reg2Ran + ", X pending=" + pending
            + ", X in a snapshot=" + xInSnapshot + ", X located=" + located
            + ", next FBR in " + (s.getNextBlockReportTime() - s.monotonicNow()) + " ms"
            + lostAfter + "; " + w.state();
        Replay.record("RR_O3", row, "O1", o1, observed);
        Replay.record("RR_O3", row, "O2", o2, observed);
        Replay.record("RR_O3", row, "O3", o3, observed);
        // O8: REG2, sent under registration A, re-registered after registration B completed
        Replay.record("RR_O3", row, "O8", reg2Ran, observed);
      }
    });
  }

  static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
