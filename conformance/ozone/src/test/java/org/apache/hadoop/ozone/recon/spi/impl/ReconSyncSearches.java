package org.apache.hadoop.ozone.recon.spi.impl;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.recon.tasks.ReconTaskController;
import racelab.conformance.Threads;
import racelab.search.FraySearch;

/**
 * recon-sync's searches (Fray) on ozone-recon 2.2.0: the replays' {@link ReconSyncWiring}, without
 * latches, made to end every thread it starts (Fray ends an iteration only when every thread
 * started in it has ended), and one body shared by the O1 and O2 searches: OM writes one key (O1)
 * or two (O2, two write batches of one delta), then the sync thread (the real syncDataFromOM) and
 * 2.2.0's requester of a rebuild (the upgrade action NSSummaryAggregatedTotalsUpgrade, whose
 * execute calls the synchronized queueReInitializationEvent, as the replays' requester) start
 * together; the real event processor runs on its own. The outcome is decided from the real state
 * once the processor has applied everything offered. Written for racelab; nothing here is copied
 * from upstream.
 *
 * <p>What the harness does that the replays' wiring does not (all in the harness, none in the
 * code under test):
 * <ul>
 *   <li>stops the FullTableCache cleanup executors of OM's DB and of the Recon OM DB right after
 *   they are built ({@link #stopCacheCleanup}): their task evicts cache entries of epochs that
 *   {@code TableCache.cleanup} queued, and only OM's double-buffer flush queues any. Nothing in
 *   this wiring calls it (OM's writes go straight to RocksDB; the volume and bucket tables are
 *   never written), so every run of that task returns at once: no verdict can depend on it. The
 *   checkpoints queueReInitializationEvent opens are PARTIAL_CACHE managers, whose cleanup
 *   executor starts a thread only on a cleanup call (never made here).</li>
 *   <li>destroys the provider's URLConnectionFactory (its {@code SSL Certificates Store Monitor}
 *   timer), as the provider's own stop() does: it serves only the full-snapshot HTTP path, which
 *   the wiring makes fail before any connection (ReconUtils.makeHttpCall throws).</li>
 *   <li>waits for the event processor without real time or thread states ({@link #awaitIdle}).</li>
 *   <li>binds ReconServer's injector once, to whichever wiring's controller is current, so that
 *   no Guice injector is built inside an iteration.</li>
 * </ul>
 * The controller and the sync executors are stopped by the wiring's own close().
 */
final class ReconSyncSearches {
  private ReconSyncSearches() {
  }

  /** The controller of the wiring of the run in progress (what ReconServer's injector answers). */
  private static final AtomicReference<ReconTaskController> CONTROLLER = new AtomicReference<>();
  private static boolean injectorInstalled;

  /**
   * Makes ReconServer's global injector (read by the upgrade action) answer the current run's
   * controller; built once, outside Fray's iterations.
   */
  static synchronized void installInjector() throws Exception {
    if (injectorInstalled) {
      return;
    }
    Injector injector = Guice.createInjector(new AbstractModule() {
      @Override
      protected void configure() {
        bind(ReconTaskController.class).toProvider(() -> {
          ReconTaskController c = CONTROLLER.get();
          if (c == null) {
            throw new IllegalStateException("racelab harness: no run in progress");
          }
          return c;
        });
      }
    });
    Method set = org.apache.hadoop.ozone.recon.ReconGuiceServletContextListener.class
        .getDeclaredMethod("setInjector", Injector.class);
    set.setAccessible(true);
    set.invoke(null, injector);
    injectorInstalled = true;
  }

  /**
   * OM's DB and the Recon OM DB for a search, opened outside Fray's iterations (opening them
   * inside took 5-13 s of a 6-14 s iteration, the race itself 0.2-0.3 s), with their cache
   * cleanup executors stopped (see the class). The iterations share them: each starts where the
   * last left OM and Recon (in sync, with the same keys: {@link #race} checks it, and deletes its
   * own keys at its end), with a new controller, event processor, provider and task, and writes
   * keys of new names.
   */
  static ReconSyncWiring.Dbs openDbs() throws Exception {
    ReconSyncWiring.Dbs dbs = new ReconSyncWiring.Dbs();
    try {
      stopCacheCleanup(dbs.om, "OM's DB");
      stopCacheCleanup(dbs.reconOmDb, "the Recon OM DB");
      return dbs;
    } catch (Exception | Error e) {
      dbs.close();
      throw e;
    }
  }

  /**
   * The replays' wiring over {@code dbs}, with the thread it starts and never ends stopped (the
   * connection factory's; see the class).
   */
  static ReconSyncWiring wiring(ReconSyncWiring.Dbs dbs) throws Exception {
    ReconSyncWiring w = new ReconSyncWiring(dbs);
    try {
      Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("connectionFactory");
      f.setAccessible(true);
      ((org.apache.hadoop.hdfs.web.URLConnectionFactory) f.get(w.provider)).destroy();
      CONTROLLER.set(w.controller);
      return w;
    } catch (Exception | Error e) {
      w.close();
      throw e;
    }
  }

  /**
   * Shuts down the cleanup executor of every FullTableCache of {@code m}'s tables (its TypedTables'
   * {@code cache}), by reflection: 2.2.0 has no API that stops them (OmMetadataManagerImpl.stop
   * closes the store only). Fails if there is none (the wiring would have changed).
   */
  @SuppressWarnings("unchecked")
  static void stopCacheCleanup(OmMetadataManagerImpl m, String what) throws Exception {
    Field tm = OmMetadataManagerImpl.class.getDeclaredField("tableMap");
    tm.setAccessible(true);
    int stopped = 0;
    for (Table<?, ?> t : ((Map<String, Table<?, ?>>) tm.get(m)).values()) {
      Object cache = field(t, "cache");
      if (cache != null && cache.getClass().getSimpleName().equals("FullTableCache")) {
        ((ExecutorService) field(cache, "executorService")).shutdownNow();
        stopped++;
      }
    }
    if (stopped == 0) {
      throw new IllegalStateException("racelab harness: no FullTableCache in " + what);
    }
  }

  private static Object field(Object o, String name) throws IllegalAccessException {
    for (Class<?> k = o.getClass(); k != null; k = k.getSuperclass()) {
      try {
        Field f = k.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
      } catch (NoSuchFieldException e) {
        // the superclass may have it
      }
    }
    return null;
  }

  /**
   * Returns once the event processor has applied every event offered (the threads that offer
   * events have been joined). Under Fray: a timed wait of the test's thread ({@code Thread.sleep})
   * returns only when no other thread can run (Fray's ignoreTimedBlock, on in @ConcurrencyTest:
   * timed waits are released only when every thread is blocked), so when it returns, the processor
   * is parked; its only timed wait is its buffer's poll (its tasks are joined untimed, and the task
   * thread is runnable while it works), so it is parked in that poll; with the buffer empty and no
   * task running it has applied every event, and no thread is left to offer another. Outside Fray
   * (the warm-up), the wiring's own wait.
   */
  static void awaitIdle(ReconSyncWiring w) throws Exception {
    if (!FraySearch.insideFray()) {
      w.awaitQuiescence();
      return;
    }
    do {
      Thread.sleep(1);
    } while (w.buffered() != 0 || w.task.busy.get() != 0);
  }

  /** The state of one run, read at quiescence. */
  static final class Run {
    long startKeys;
    long startCount;
    long omKeys;
    long reconKeys;
    long count;
    long cursor;
    Boolean synced;
    Throwable failed;
    String log;

    /** O1 as ReplayReconSyncO1Test decides it: the Recon OM DB has OM's keys, the task counts more. */
    boolean o1() {
      return failed == null && reconKeys == omKeys && count > reconKeys;
    }

    /**
     * O2 as ReplayReconSyncO2Test decides it, from the state alone: the Recon OM DB has OM's
     * keys, and the task counts OM's keys plus a strict prefix of the delta (more than none, fewer
     * than all of it): a checkpoint between two write-batch commits of the delta, rebuilt, and the
     * whole delta applied after it. (The whole delta counted twice is O1, not O2.)
     */
    boolean o2() {
      long excess = count - omKeys;
      return failed == null && reconKeys == omKeys && excess > 0 && excess < omKeys - startKeys;
    }

    String observed() {
      return "start: " + startKeys + " key(s), count " + startCount + "; sync returned " + synced
          + "; at quiescence OM has " + omKeys + " keys, the Recon OM DB " + reconKeys
          + ", the task counts " + count + " (cursor " + cursor + "); task log: " + log
          + (failed == null ? "" : "; a thread failed: " + failed);
    }
  }

  /**
   * One run: OM writes {@code newKeys} keys (one write batch each), then the sync thread and the
   * upgrade action race, with no latch; the state is read once the processor is idle.
   */
  static Run race(ReconSyncWiring.Dbs dbs, int newKeys) throws Exception {
    long t0 = FraySearch.realNanos();
    long[] t = new long[3];
    try (ReconSyncWiring w = wiring(dbs)) {
      t[0] = FraySearch.realNanos();
      Run r = new Run();
      r.startKeys = ReconSyncWiring.keys(w.reconOmDb);
      r.startCount = w.task.files.get();
      long omStart = ReconSyncWiring.keys(w.om);
      if (omStart != r.startKeys || r.startCount != r.startKeys) {
        throw new IllegalStateException("racelab harness: the run does not start in sync: OM has "
            + omStart + " keys, the Recon OM DB " + r.startKeys + ", the task counts "
            + r.startCount);
      }
      List<String> written = new ArrayList<>();
      for (int i = 0; i < newKeys; i++) {
        written.add("file-" + KEYS.incrementAndGet());
        w.putFile(written.get(i));
      }
      AtomicReference<Throwable> failed = new AtomicReference<>();
      AtomicReference<Boolean> synced = new AtomicReference<>();
      Thread sync = Threads.recording("SyncOM-search", failed,
          () -> synced.set(w.provider.syncDataFromOM()));
      sync.start();
      Thread rebuild = ReconSyncWiring.upgradeAction(failed);
      sync.join();
      rebuild.join();
      r.failed = failed.get();
      r.synced = synced.get();
      awaitIdle(w);
      r.omKeys = ReconSyncWiring.keys(w.om);
      r.reconKeys = ReconSyncWiring.keys(w.reconOmDb);
      r.count = w.task.files.get();
      r.cursor = w.cursors.getOrDefault(w.task.getTaskName(), -1L);
      synchronized (w.task.log) {
        r.log = String.join("; ", w.task.log);
      }
      if (Boolean.getBoolean("racelab.search.verbose")) {
        System.out.println("[racelab] RS run: " + r.observed());
      }
      restore(w, written);
      t[1] = FraySearch.realNanos();
      return r;
    } finally {
      CONTROLLER.set(null);
      if (Boolean.getBoolean("racelab.search.verbose")) {
        t[2] = FraySearch.realNanos();
        System.out.printf("[racelab] RS run: wiring %.1f s, race %.1f s, close %.1f s%n",
            (t[0] - t0) / 1e9, (t[1] - t[0]) / 1e9, (t[2] - t[1]) / 1e9);
      }
    }
  }

  /**
   * After the verdict: OM deletes the run's keys and one ordinary sync (this thread, nothing
   * racing) carries the deletes to the Recon OM DB, so the next run starts with OM and Recon at
   * the same keys as this one did (a run's cost grew with the keys: 0.45 s per run over the first
   * 200 runs, 2.7 s over runs 800-1000, as the task, the checks and the rebuild read every key).
   * Fails if they do not end in sync.
   */
  private static void restore(ReconSyncWiring w, List<String> written) throws Exception {
    if (written.isEmpty()) {
      return;
    }
    for (String k : written) {
      w.deleteFile(k);
    }
    if (!w.provider.syncDataFromOM()) {
      throw new IllegalStateException("racelab harness: the restoring sync did not run");
    }
    awaitIdle(w);
    long om = ReconSyncWiring.keys(w.om);
    long recon = ReconSyncWiring.keys(w.reconOmDb);
    if (om != recon) {
      throw new IllegalStateException("racelab harness: after the restoring sync OM has " + om
          + " keys, the Recon OM DB " + recon);
    }
  }

  /** Names the keys OM writes: each run's are new (the runs share the DBs). */
  private static final java.util.concurrent.atomic.AtomicLong KEYS =
      new java.util.concurrent.atomic.AtomicLong(1);

  /** The live threads now. */
  static Set<Thread> liveThreads() {
    Set<Thread> s = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()) {
        s.add(t);
      }
    }
    return s;
  }

  /**
   * Outside Fray: the threads started since {@code before} that are still alive after a grace of
   * a few seconds each (a run's every thread must end, or Fray never ends the iteration). Fails
   * naming them and where they wait.
   */
  static void checkAllEnded(Set<Thread> before, String what) throws InterruptedException {
    List<String> left = new ArrayList<>();
    for (Thread t : liveThreads()) {
      if (before.contains(t) || t == Thread.currentThread()) {
        continue;
      }
      t.join(5000);
      if (t.isAlive()) {
        StackTraceElement[] st = t.getStackTrace();
        left.add(t.getName() + (st.length == 0 ? "" : " at " + st[0] + (st.length > 1 ? " < " + st[1] : "")));
      }
    }
    if (!left.isEmpty()) {
      throw new IllegalStateException("racelab harness: " + what + " left threads running: " + left);
    }
  }
}
