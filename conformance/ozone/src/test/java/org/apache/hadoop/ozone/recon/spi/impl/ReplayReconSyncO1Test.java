package org.apache.hadoop.ozone.recon.spi.impl;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.hadoop.ozone.recon.upgrade.NSSummaryAggregatedTotalsUpgrade;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reconsync.Rows;

/**
 * Replay of racelab's recon-sync O1 counterexample (HDDS-17042) on ozone-recon 2.2.0, through the
 * requester 2.2.0 has: the upgrade action NSSummaryAggregatedTotalsUpgrade, which ReconServer runs
 * on its main thread after it has scheduled the OM sync (triggerTaskRebuild, the model's requester,
 * is in no release; both reach the same synchronized queueReInitializationEvent).
 *
 * <p>Order (the model's timeline rebuild-during-sync): OM has file1, Recon is in sync. OM writes
 * file2. The sync thread (real syncDataFromOM) fetches the delta, computes the PUT and commits it
 * to the Recon OM DB, and is held at its delta status row's recordRunCompletion (a collaborator:
 * the SQL status table), that is between the commit and consumeOMEvents. The upgrade action runs to
 * its end on a second thread: queueReInitializationEvent drains the (empty) buffer, checkpoints
 * the Recon OM DB (file1, file2) and offers the rebuild. The sync thread goes on and hands the
 * batch off behind it. The real event processor rebuilds from the checkpoint, then applies the
 * batch. O1 is decided on the state at quiescence: the task's count is above the number of keys
 * in the Recon OM DB (which equals OM's). Then one ordinary sync (file3) shows it stays.
 *
 * <p>Rows: every headline row, with its part's sync side (racelab.fix.reconsync). No part locks
 * the upgrade action's path (the report's patch locks triggerTaskRebuild only), so this order is
 * expected to reach O1 on every row: a requester the model does not have.
 */
public class ReplayReconSyncO1Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RS_O1_upgradeRebuildBetweenCommitAndHandOff(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconSyncWiring w = new ReconSyncWiring()) {
        w.installInjector();
        long startCount = w.task.files.get();
        w.putFile("file2");
        long s1 = w.omSeq();

        CountDownLatch inWindow = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        w.deltaCompletionHook = () -> {
          inWindow.countDown();
          try {
            if (!go.await(60, TimeUnit.SECONDS)) {
              throw new IllegalStateException("racelab harness: never released");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
        AtomicReference<Throwable> failed = new AtomicReference<>();
        AtomicReference<Boolean> synced = new AtomicReference<>();
        Thread sync = new Thread(() -> {
          try {
            synced.set(w.provider.syncDataFromOM());
          } catch (Throwable t) {
            failed.set(t);
          }
        }, "SyncOM-replay");
        sync.start();
        if (!inWindow.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("racelab harness: the sync never reached its window");
        }
        long reconSeqInWindow = w.reconOmDb.getLastSequenceNumberFromDB();
        long bufferedInWindow = w.buffered();
        String lockInWindow = w.handOffLockHolder();

        Thread upgrade = ReconSyncWiring.upgradeAction(failed);
        upgrade.join(TimeUnit.SECONDS.toMillis(60));
        if (upgrade.isAlive()) {
          throw new IllegalStateException("racelab harness: the upgrade action did not return");
        }
        go.countDown();
        sync.join(TimeUnit.SECONDS.toMillis(60));
        if (sync.isAlive() || failed.get() != null) {
          throw new IllegalStateException("racelab harness: the sync or the upgrade failed",
              failed.get());
        }
        w.awaitQuiescence();
        long omKeys = ReconSyncWiring.keys(w.om);
        long reconKeys = ReconSyncWiring.keys(w.reconOmDb);
        long count = w.task.files.get();
        long cursor = w.cursors.getOrDefault(w.task.getTaskName(), -1L);
        String log1 = String.join("; ", w.task.log);

        // one more ordinary sync: OM writes file3
        w.putFile("file3");
        if (!w.provider.syncDataFromOM()) {
          throw new IllegalStateException("racelab harness: the second sync did not run");
        }
        w.awaitQuiescence();
        long omKeys2 = ReconSyncWiring.keys(w.om);
        long count2 = w.task.files.get();

        boolean reached = reconKeys == omKeys && count > reconKeys;
        Replay.record("RS_O1", row, "O1", reached,
            "start: 1 key, count " + startCount + "; OM wrote file2 (seq " + s1 + "); in the "
                + "window the Recon OM DB was at seq " + reconSeqInWindow + " with "
                + bufferedInWindow + " buffered events, " + lockInWindow + "; sync returned " + synced.get()
                + "; at quiescence OM has " + omKeys + " keys, the Recon OM DB " + reconKeys
                + ", the task counts " + count + " (cursor " + cursor + "); task log: " + log1
                + "; after one more sync OM has " + omKeys2 + ", the task counts " + count2);
      }
    });
  }
}
