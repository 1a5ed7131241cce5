package org.apache.hadoop.ozone.recon.spi.impl;

import static org.mockito.AdditionalAnswers.delegatesTo;
import static org.mockito.Mockito.mock;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.recon.upgrade.NSSummaryAggregatedTotalsUpgrade;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reconsync.Rows;

/**
 * Replay of racelab's recon-sync O2 counterexample (HDDS-17042, the model's timeline
 * rebuild-during-two-batch-delta) on ozone-recon 2.2.0, through the requester 2.2.0 has: the
 * upgrade action NSSummaryAggregatedTotalsUpgrade (ReconServer runs it on its main thread after it
 * has scheduled the OM sync), which reaches queueReInitializationEvent as triggerTaskRebuild (the
 * model's requester, in no release) would.
 *
 * <p>Order: OM has file1, Recon is in sync. OM writes file2 and file3 (two RocksDB write batches,
 * one delta). The sync thread (real syncDataFromOM) fetches the delta, iterates and commits write
 * batch #2 to the Recon OM DB, and is held while it iterates write batch #3, before that batch's
 * commit: the hold is in a collaborator, the Recon OM DB's key table (a delegate put in the
 * manager's table map; OMDBUpdatesHandler looks file3's old value up in it). The upgrade action
 * runs to its end on a second thread: queueReInitializationEvent drains the (empty) buffer,
 * checkpoints the Recon OM DB (file1, file2) and offers the rebuild. The sync thread goes on: it
 * commits #3 and hands off the whole delta's batch (file2, file3) behind the rebuild. The real
 * event processor rebuilds from the checkpoint, then applies the batch. O2 is decided from the
 * state at quiescence: the Recon OM DB holds OM's keys, the task counts more than that, and the
 * excess is exactly the prefix the checkpoint already held (file2: one key).
 *
 * <p>Rows: every headline row, with its part's sync side (racelab.fix.reconsync). No part locks
 * the upgrade action's path, so this order is expected to reach O2 on every row: a requester the
 * model does not have (as RS_O1).
 */
public class ReplayReconSyncO2Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RS_O2_upgradeRebuildBetweenTwoWriteBatchCommits(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconSyncWiring w = new ReconSyncWiring()) {
        w.installInjector();
        w.recordReinitializations();
        long startCount = w.task.files.get();
        long startKeys = ReconSyncWiring.keys(w.reconOmDb);
        w.putFile("file2");
        w.putFile("file3");
        long omSeqBefore = w.omSeq();

        CountDownLatch inWindow = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        String file3 = w.reconOmDb.getOzoneKey(ReconSyncWiring.VOLUME, ReconSyncWiring.BUCKET,
            "file3");
        holdAtLookUp(w, "keyTable", file3, inWindow, go);

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
        long reconKeysInWindow = ReconSyncWiring.keys(w.reconOmDb);
        long bufferedInWindow = w.buffered();
        String lockInWindow = w.handOffLockHolder();

        Thread upgrade = ReconSyncWiring.upgradeAction(failed);
        upgrade.join(TimeUnit.SECONDS.toMillis(60));
        if (upgrade.isAlive()) {
          throw new IllegalStateException("racelab harness: the upgrade action did not return");
        }
        String queued = w.lastReinitialization();
        go.countDown();
        sync.join(TimeUnit.SECONDS.toMillis(60));
        if (sync.isAlive() || failed.get() != null) {
          throw new IllegalStateException("racelab harness: the sync or the upgrade failed",
              failed.get());
        }
        w.awaitQuiescence();
        long omKeys = ReconSyncWiring.keys(w.om);
        long reconKeys = ReconSyncWiring.keys(w.reconOmDb);
        long reconSeq = w.reconOmDb.getLastSequenceNumberFromDB();
        long count = w.task.files.get();
        long cursor = w.cursors.getOrDefault(w.task.getTaskName(), -1L);
        String log = String.join("; ", w.task.log);

        // the prefix the checkpoint already held: the keys the Recon OM DB had gained in the window
        long prefix = reconKeysInWindow - startKeys;
        boolean reached = reconKeys == omKeys && prefix > 0 && prefix < omKeys - startKeys
            && count == omKeys + prefix;
        Replay.record("RS_O2", row, "O2", reached,
            "start: " + startKeys + " key, count " + startCount + "; OM wrote file2, file3 (seq "
                + omSeqBefore + "); in the window (write batch #3 being iterated, not committed) "
                + "the Recon OM DB was at seq " + reconSeqInWindow + " with " + reconKeysInWindow
                + " keys, " + bufferedInWindow + " buffered events, " + lockInWindow
                + "; the upgrade action queued: " + queued + "; sync returned "
                + synced.get() + "; at quiescence OM has " + omKeys + " keys, the Recon OM DB "
                + reconKeys + " (seq " + reconSeq + "), the task counts " + count + " (cursor "
                + cursor + "); task log: " + log);
      }
    });
  }

  /**
   * Puts a delegate of the Recon OM DB's table {@code name} in its table map (what getTable
   * answers, which OMDBUpdatesHandler reads old values through): its look-up of {@code key}
   * signals {@code inWindow} and waits for {@code go} (once); everything else is the real table's.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void holdAtLookUp(ReconSyncWiring w, String name, String key,
      CountDownLatch inWindow, CountDownLatch go) throws Exception {
    Field f = OmMetadataManagerImpl.class.getDeclaredField("tableMap");
    f.setAccessible(true);
    Map<String, Table> tables = (Map<String, Table>) f.get(w.reconOmDb);
    Table real = tables.get(name);
    if (real == null) {
      throw new IllegalStateException("racelab harness: no table " + name);
    }
    java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
    Table held = mock(Table.class, inv -> {
      if (inv.getArguments().length == 1 && key.equals(inv.getArgument(0))
          && once.compareAndSet(false, true)) {
        inWindow.countDown();
        if (!go.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("racelab harness: never released");
        }
      }
      return delegatesTo(real).answer(inv);
    });
    tables.put(name, held);
  }
}
