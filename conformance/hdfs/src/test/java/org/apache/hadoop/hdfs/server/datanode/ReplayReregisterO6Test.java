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
 * Replay of racelab's reregister counterexample upstream/O6 (single-register/standby, the
 * dead-node path) on hadoop-hdfs 3.5.0 with real threads, on every headline row.
 *
 * <p>Setup (main): the DataNode registered (registration A), its periodic FBR due; the
 * NameNode (STANDBY, no restart) marked it dead and kept its descriptor. Concurrent part: the
 * real offerService loop's heartbeat is answered with REGISTER and a lease in one answer; its
 * blockReport drains and snapshots; a writer finalizes X and notifies; the real command thread
 * runs the REGISTER (sent under the current registration): versionRequest, clearIBRs,
 * registerDatanode, register; only then does the NameNode process the FBR (the node is
 * registered again) and the RPC return to scheduleNextBlockReport. Quiescence: three
 * heartbeats. Decides O6 (X unknown to the NameNode with one registration) on the real state.
 */
public class ReplayReregisterO6Test {
  static final long X = 7;

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O6_singleRegistrationRacesItsFbr(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReregisterWiring w = new ReregisterWiring(HAServiceState.STANDBY)) {
        ReregisterWiring.FakeNameNode nn = w.nns.get(0);
        BPServiceActor actor = w.actor(0);
        w.record(0);
        // --- setup on main ---
        actor.register(ReregisterWiring.NS); // registration A
        actor.state = HAServiceState.STANDBY;
        BPServiceActor.Scheduler s = actor.getScheduler();
        s.resetBlockReportTime = false;
        s.setNextBlockReportTime(s.monotonicNow()); // the periodic FBR is due
        s.scheduleHeartbeat();
        nn.markDead();

        // --- the concurrent part ---
        CountDownLatch snapshotTaken = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch registered = new CountDownLatch(1);
        w.afterSnapshot = snapshotTaken::countDown;
        nn.onVersionRequest = () -> ReregisterWiring.await(written, "the writer");
        nn.beforeNextReport = () -> ReregisterWiring.await(registered, "the REGISTER's batch");
        w.onBatchProcessed = registered::countDown;
        AtomicReference<Throwable> writerThrew = new AtomicReference<>();
        Thread writer = Threads.recording("DataXceiver", writerThrew, () -> {
          ReregisterWiring.await(snapshotTaken, "the FBR's snapshot");
          Recorder.act(ReregisterWiring.WRITER);
          w.write(X);
        }, written::countDown);
        writer.start();
        w.startCommandThreads();
        w.startActorLoop(0);
        writer.join();
        ReregisterWiring.await(registered, "the REGISTER's batch");
        nn.onVersionRequest = null;
        w.onBatchProcessed = null;
        w.quiesce(3);
        if (writerThrew.get() != null) {
          throw new IllegalStateException("harness: the writer threw", writerThrew.get());
        }
        if (w.loopThrew.get() != null) {
          throw new IllegalStateException("harness: offerService threw", w.loopThrew.get());
        }
        int reRegistrations = w.reRegistered.getOrDefault(0, List.of()).size();
        boolean located = nn.locates(X);
        boolean o6 = w.finalized.contains(X) && !located && reRegistrations <= 1;
        Replay.record("RR_O6", row, "O6", o6, "re-registrations=" + reRegistrations
            + ", X pending=" + w.pending(0, X) + ", X located=" + located + ", "
            + ReregisterWiring.nextFbr(s) + "; " + w.state());
        Recorder.end(w.modelState(null));
      }
    });
  }
}
