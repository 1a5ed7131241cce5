package org.apache.hadoop.ozone.recon.spi.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.reconsync.Rows;
import racelab.fix.reconsync.SyncSide;
import racelab.search.FraySearch;
import racelab.search.RandomPriorities;

/**
 * recon-sync O7 (the OM sync stops for good: a sync thread waits forever for the hand-off lock
 * that the thread it replaced kept) searched by Fray on ozone-recon 2.2.0, without latches, on
 * ReplayReconSyncO7Test's wiring (ReconSyncSearches.wiring: its DBs opened once outside the
 * iterations). What O7 is, in the model (claims.rs, scenario fault-then-trigger-sync): a liveness
 * outcome of the design A3 (P1's release not in a finally) after the fault of O3: SyncOM-0's sync
 * commits a write batch, throws before the hand-off (the delta status row's recordRunCompletion,
 * a collaborator, throws once) and returns holding A3's lock; a GET /triggerdbsync/om that finds
 * no sync running replaces SyncOM-0's executor, and the new thread's sync waits for that lock
 * forever (a ReentrantLock is released only by its owner, which has exited). Loom reaches it on
 * A3 in its first execution and on no other row in any; what decides it is the order of the
 * trigger's read of isSyncDataFromOMRunning against SyncOM-0's return (before it: the trigger
 * answers that a sync runs and replaces nothing).
 *
 * <p>The run: OM writes a key; the fault armed; the harness's first trigger starts SyncOM-0 (on
 * an idle executor the harness placed, as the replay does); then, while SyncOM-0 syncs, the REST
 * thread (OM's client writing a second key, then GET /triggerdbsync/om: the real
 * triggerSyncDataFromOMImmediately) runs, and Fray picks the order with {@link RandomPriorities}
 * (PCT of depth 1: a thread runs until it blocks; the row methods are overridden for it). POS
 * (the other recon-sync searches' scheduler), 15 runs per row: O7 in none of A3's 7 (then the
 * harness failed on a state check this class no longer makes); in about 55 of 60 runs OM's
 * second key was written before SyncOM-0's RPC (SyncOM-1 then has nothing to commit and never
 * takes the lock), and where it was not, the trigger came before SyncOM-0's return. The model
 * has that write in its setup, after SyncOM-0's fetch; depth 1 puts it there whenever SyncOM-0
 * draws the higher priority (it then runs its whole sync before the REST thread). No latch:
 * the test's thread then waits with a timed sleep, which Fray releases only when no other thread
 * can run, until the run has settled (SyncOM-1's sync returned, or SyncOM-1 blocked with the
 * lock's owner exited, or no SyncOM-1 and SyncOM-0's sync returned). O7 as the replay decides it:
 * SyncOM-1 waits (WAITING) with a sync running, the hand-off lock's owner has terminated, and the
 * Recon OM DB is behind OM. Then the harness ends that wait ({@link SyncSide#abandon}, which the
 * search switches on: the wait is lock()'s, with an exit the harness opens after the verdict),
 * stops the executors and joins every sync thread, and a fresh wiring's ordinary sync carries
 * the run's keys' deletion to the Recon OM DB (the run's provider may hold a lock forever).
 *
 * <p>The model's row for O7 is A3, unreachable on every other headline row: the A3 row must
 * reach it; the others are recorded. Written for racelab; nothing here is copied from upstream.
 */
public class FraySearchReconSyncO7Test extends ReconSyncFraySearch {
  static final FraySearch SEARCH = new FraySearch("RS_O7", "O7", Rows.headline());

  static {
    SyncSide.makeAbandonable();
  }

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH, FraySearchReconSyncO7Test::once);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> run() {
    return FraySearchReconSyncO7Test::once;
  }

  private static final java.util.concurrent.atomic.AtomicLong KEYS =
      new java.util.concurrent.atomic.AtomicLong(1);

  /** One run: SyncOM-0's failing sync against the REST thread's write and trigger. */
  static FraySearch.Verdict once() throws Exception {
    List<String> written = new ArrayList<>();
    FraySearch.Verdict v;
    try (ReconSyncWiring w = ReconSyncSearches.wiring(dbs)) {
      long startKeys = ReconSyncWiring.keys(w.reconOmDb);
      long omStart = ReconSyncWiring.keys(w.om);
      if (omStart != startKeys) {
        throw new IllegalStateException("racelab harness: the run does not start in sync: OM has "
            + omStart + " keys, the Recon OM DB " + startKeys);
      }
      w.placeIdleScheduler();
      tarExtractor(w).start();
      written.add("o7-file-" + KEYS.incrementAndGet());
      w.putFile(written.get(0));
      w.deltaCompletionHook = () -> {
        throw new IllegalStateException("racelab fault: the task status row was not written");
      };
      if (!w.provider.triggerSyncDataFromOMImmediately()) {
        throw new IllegalStateException("racelab harness: the first trigger found a sync");
      }
      written.add("o7-file-" + KEYS.incrementAndGet());
      AtomicReference<Boolean> second = new AtomicReference<>();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread rest = new Thread(() -> {
        try {
          w.putFile(written.get(1));
          second.set(w.provider.triggerSyncDataFromOMImmediately());
        } catch (Throwable e) {
          failed.set(e);
        }
      }, "REST-sync");
      rest.start();
      rest.join();
      if (failed.get() != null) {
        throw new IllegalStateException("racelab harness: the REST thread failed", failed.get());
      }
      Thread syncOm1 = Boolean.TRUE.equals(second.get())
          ? w.syncThreads.get(w.syncThreads.size() - 1) : null;
      settle(w, syncOm1);
      long omSeq = w.omSeq();
      long reconSeq = w.reconOmDb.getLastSequenceNumberFromDB();
      SyncSide.HandOffLock lock = SyncSide.existingLockOf(w.provider);
      Thread owner = lock == null ? null : lock.owner();
      boolean ownerGone = owner != null && !owner.isAlive();
      boolean waiting = syncOm1 != null && syncOm1.isAlive() && lock != null
          && lock.acquiring == syncOm1 && w.syncRunning();
      boolean reached = waiting && ownerGone && reconSeq < omSeq;
      String observed = "the trigger returned " + second.get()
          + (syncOm1 == null ? " (no SyncOM-1)" : ", " + syncOm1.getName()
              + (waiting ? " waits for the hand-off lock with a sync running"
                  : syncOm1.isAlive() ? " alive" : " ended"))
          + "; settled: OM at #" + omSeq + ", the Recon OM DB at #" + reconSeq
          + "; hand-off lock " + (lock == null ? "never made" : owner == null ? "free"
              : "held by " + owner.getName() + (owner.isAlive() ? " (alive)" : " (terminated)"));
      if (Boolean.getBoolean("racelab.search.verbose")) {
        System.out.println("[racelab] RS_O7 run: " + observed);
      }
      v = new FraySearch.Verdict(reached, observed);
      // end the run's threads: the wait the verdict saw, every executor, every sync thread
      if (waiting) {
        SyncSide.abandon(w.provider, syncOm1);
      }
      w.stopScheduler();
      List<Thread> threads;
      synchronized (w.syncThreads) {
        threads = new ArrayList<>(w.syncThreads);
      }
      for (Thread t : threads) {
        t.join();
      }
      tarExtractor(w).stop();
    }
    restore(written);
    return v;
  }

  /**
   * Waits until the run has settled, with a timed sleep: under Fray it returns only when no other
   * thread can run (ignoreTimedBlock), so each check sees every thread blocked or parked; outside
   * Fray (the warm-up) it is a short real wait. Settled: no sync running (the last one has
   * returned), or SyncOM-1 in its acquisition of the hand-off lock whose owner has exited (it
   * cannot leave it: a ReentrantLock is released only by its owner).
   */
  private static void settle(ReconSyncWiring w, Thread syncOm1) throws Exception {
    for (int i = 0; i < 100_000; i++) {
      if (!w.syncRunning()) {
        return;
      }
      SyncSide.HandOffLock l = SyncSide.existingLockOf(w.provider);
      Thread owner = l == null ? null : l.owner();
      if (syncOm1 != null && l != null && l.acquiring == syncOm1 && owner != null
          && owner != syncOm1 && !owner.isAlive()) {
        return;
      }
      Thread.sleep(1);
    }
    throw new IllegalStateException("racelab harness: the run never settled");
  }

  /**
   * OM deletes the run's keys and a fresh wiring's ordinary sync carries that to the Recon OM DB
   * (the run's provider may keep a lock forever), so the next run starts in sync.
   */
  private static void restore(List<String> written) throws Exception {
    try (ReconSyncWiring w = ReconSyncSearches.wiring(dbs)) {
      for (String k : written) {
        w.deleteFile(k);
      }
      if (!w.provider.syncDataFromOM()) {
        throw new IllegalStateException("racelab harness: the restoring sync did not run");
      }
      ReconSyncSearches.awaitIdle(w);
      long om = ReconSyncWiring.keys(w.om);
      long recon = ReconSyncWiring.keys(w.reconOmDb);
      if (om != recon) {
        throw new IllegalStateException("racelab harness: after the restoring sync OM has " + om
            + " keys, the Recon OM DB " + recon);
      }
    }
  }

  private static org.apache.hadoop.ozone.recon.TarExtractor tarExtractor(ReconSyncWiring w)
      throws Exception {
    Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("tarExtractor");
    f.setAccessible(true);
    return (org.apache.hadoop.ozone.recon.TarExtractor) f.get(w.provider);
  }

  @Override
  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void upstream() throws Exception {
    search().run("upstream", run());
  }

  @Override
  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void proposed() throws Exception {
    search().run("proposed", run());
  }

  @Override
  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void A1() throws Exception {
    search().run("A1", run());
  }

  @Override
  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void A2() throws Exception {
    search().run("A2", run());
  }

  @Override
  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void A3() throws Exception {
    search().run("A3", run());
  }

  @Override
  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void A4() throws Exception {
    search().run("A4", run());
  }

  @AfterAll
  static void record() throws Exception {
    try {
      SEARCH.finish("A3");
    } finally {
      if (dbs != null) {
        dbs.close();
        dbs = null;
      }
    }
  }
}
