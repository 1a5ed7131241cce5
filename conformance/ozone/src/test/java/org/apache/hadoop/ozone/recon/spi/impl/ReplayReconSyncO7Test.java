package org.apache.hadoop.ozone.recon.spi.impl;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reconsync.Rows;
import racelab.fix.reconsync.SyncSide;

/**
 * Replay of racelab's recon-sync O7 counterexample (scenario trigger-sync-after-fault) on
 * ozone-recon 2.2.0: everything it needs is in the release (syncDataFromOM, its catch and
 * executeFullSnapshot, triggerSyncDataFromOMImmediately); of the parts, only their sync side,
 * which the release holds the code of.
 *
 * <p>Order: OM writes file2. {@code GET /api/v1/triggerdbsync/om} (triggerSyncDataFromOMImmediately,
 * on a REST thread of the test's) starts SyncOM-0, whose sync commits file2 and then fails before
 * the hand-off (the fault: the delta status row's recordRunCompletion throws, a collaborator; the
 * sync's catch falls back to a full snapshot, which fails at once: OM's HTTP server is
 * unreachable). Once that sync has returned, OM writes file3 and a second trigger replaces
 * SyncOM-0's executor with SyncOM-1, whose sync runs at once. O7 is decided once SyncOM-1 has
 * settled in a state it cannot leave (no timeout decides it): either its sync returned and it is
 * parked idle in its executor, or it is queued on the hand-off lock whose owner is a terminated
 * thread (so it is never released: a wait forever, shown by state). O7 is reached when the Recon
 * OM DB is behind OM, SyncOM-1 is queued on the lock, and the lock's owner has terminated.
 */
public class ReplayReconSyncO7Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RS_O7_manualSyncAfterAFaultBeforeHandOff(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconSyncWiring w = new ReconSyncWiring()) {
        w.placeIdleScheduler();
        w.putFile("file2");
        w.deltaCompletionHook = () -> {
          throw new IllegalStateException("racelab fault: the task status row was not written");
        };
        if (!w.provider.triggerSyncDataFromOMImmediately()) {
          throw new IllegalStateException("racelab harness: the first trigger found a sync");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (w.completions.getOrDefault("OmSnapshotRequest",
            new java.util.concurrent.atomic.AtomicInteger()).get() == 0 || w.syncRunning()) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("racelab harness: the failed sync did not return");
          }
          Thread.sleep(2);
        }
        long reconAfterFault = w.reconOmDb.getLastSequenceNumberFromDB();
        SyncSide.HandOffLock lock = SyncSide.existingLockOf(w.provider);
        String afterFault = lock == null ? "no hand-off lock"
            : "hand-off lock " + (lock.isLocked() ? "held by " + lock.owner().getName()
                : "free");

        w.putFile("file3");
        long omSeq = w.omSeq();
        // the model's REST thread (GET /api/v1/triggerdbsync/om); the first trigger above is the
        // harness's start of SyncOM-0, which the model's scheduler does (not recorded)
        boolean second = ReconSyncWiring.as("REST-sync",
            w.provider::triggerSyncDataFromOMImmediately);
        if (!second) {
          throw new IllegalStateException("racelab harness: the second trigger found a sync");
        }
        Thread syncOm1 = w.syncThreads.get(w.syncThreads.size() - 1);
        // Wait for SyncOM-1 to settle in one of the two states nothing else can leave: its sync
        // has returned and it is parked idle in its executor (the next run is an hour away), or
        // it is queued on the hand-off lock whose owner has terminated (nothing will release it).
        long deadline2 = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!settled(w, syncOm1, omSeq)) {
          if (System.nanoTime() > deadline2) {
            throw new IllegalStateException("racelab harness: SyncOM-1 settled in neither state: "
                + syncOm1.getState());
          }
          Thread.sleep(2);
        }
        long reconSeq = w.reconOmDb.getLastSequenceNumberFromDB();
        lock = SyncSide.existingLockOf(w.provider);
        Thread owner = lock == null ? null : lock.owner();
        boolean queued = lock != null && lock.hasQueuedThread(syncOm1);
        boolean ownerGone = owner != null && !owner.isAlive();
        boolean reached = reconSeq < omSeq && queued && ownerGone;
        Replay.record("RS_O7", row, "O7", reached,
            "after the failed sync (Recon OM DB at #" + reconAfterFault + "): " + afterFault
                + "; second trigger returned " + second + ", " + syncOm1.getName() + " is "
                + syncOm1.getState() + (queued ? ", queued on the hand-off lock" : "")
                + "; settled: OM at #" + omSeq + ", the Recon OM DB at #" + reconSeq
                + "; hand-off lock owner: " + (owner == null ? "none" : owner.getName()
                + (owner.isAlive() ? " (alive)" : " (terminated)")));
        // the trace's final state: once the event processor has applied what was handed off
        w.awaitQuiescence();
        w.endTrace();
      }
    });
  }

  /**
   * SyncOM-1 has settled: either idle (the Recon OM DB at OM's sequence number, no sync running,
   * the thread parked in its executor's delayed queue: TIMED_WAITING, as the scheduled executor's
   * worker waits for the next run an hour away), or stuck (WAITING, queued on the hand-off lock,
   * whose owner thread has terminated: a ReentrantLock is released only by its owner, so this
   * lasts forever). The order of reads in the first case: the Recon OM DB at OM's number first
   * (SyncOM-1's sync has committed), then no sync running (it has returned since).
   */
  private static boolean settled(ReconSyncWiring w, Thread syncOm1, long omSeq) throws Exception {
    if (w.reconOmDb.getLastSequenceNumberFromDB() >= omSeq && !w.syncRunning()
        && syncOm1.getState() == Thread.State.TIMED_WAITING) {
      return true;
    }
    SyncSide.HandOffLock lock = SyncSide.existingLockOf(w.provider);
    if (lock == null) {
      return false;
    }
    Thread owner = lock.owner();
    return owner != null && !owner.isAlive() && lock.hasQueuedThread(syncOm1)
        && syncOm1.getState() == Thread.State.WAITING;
  }
}
