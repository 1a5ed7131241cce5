package org.apache.hadoop.ozone.recon.spi.impl;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import racelab.search.FraySearch;

/**
 * recon-sync O8 (from the code: two {@code GET /api/v1/triggerdbsync/om} at once race on
 * OzoneManagerServiceProviderImpl's plain field {@code scheduler}) searched by Fray on
 * ozone-recon 2.2.0, without latches. On the replays' wiring (ReconSyncSearches.wiring, its DBs
 * opened once outside the iterations) with an idle executor in the field (as ReplayReconSyncO7Test
 * places it), two REST threads call the real triggerSyncDataFromOMImmediately on one provider and
 * are joined. Between one thread's read of the field (stopSyncDataFromOMThread: shutdown,
 * awaitTermination) and its write (newScheduledThreadPool) the executor's own lock and condition
 * are taken, and the sync's isSyncDataFromOMRunning (an AtomicBoolean) is read before: Fray
 * switches there, so the other thread can read the field before the first one writes it.
 *
 * <p>O8 is decided from the real state once both calls have returned (nothing else writes the
 * field, and a sync executor makes its one worker only when a REST call schedules on it): each
 * thread the provider's thread factory made is the worker of one executor (its runnable, a
 * ThreadPoolExecutor.Worker, names it); O8 is reached when one of those executors is neither the
 * one the field references nor shut down: an executor lost, unreferenced, whose worker syncs on
 * every interval. (Both calls scheduling on the executor the field keeps, the other executor
 * having no worker, may be an executor lost too, but one that syncs nothing, and the state does
 * not tell it from an executor the other call shut down before any task: noted in the observed
 * text, not counted.) Every executor is then shut down and every worker joined, in the harness.
 *
 * <p>P1 and A1..A4 lock the sync side and triggerTaskRebuild, not this REST path: the claims say
 * O8 reachable on every headline row (loom, Check::Race); a fix row's k of N is recorded, not
 * asserted. The upstream row must reach O8. Reading the worker's executor needs
 * {@code --add-opens java.base/java.util.concurrent} (the fray profile's argLine). Written for
 * racelab; nothing here is copied from upstream.
 */
public class FraySearchReconSyncO8Test extends ReconSyncFraySearch {
  static final FraySearch SEARCH =
      new FraySearch("RS_O8", "O8", racelab.fix.reconsync.Rows.headline());

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH, FraySearchReconSyncO8Test::once);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> run() {
    return FraySearchReconSyncO8Test::once;
  }

  private static final Field SCHEDULER;
  private static final Field THREAD_FACTORY;
  private static final Field WORKER_EXECUTOR;

  static {
    try {
      SCHEDULER = OzoneManagerServiceProviderImpl.class.getDeclaredField("scheduler");
      SCHEDULER.setAccessible(true);
      THREAD_FACTORY = OzoneManagerServiceProviderImpl.class.getDeclaredField("threadFactory");
      THREAD_FACTORY.setAccessible(true);
      Class<?> worker = Class.forName("java.util.concurrent.ThreadPoolExecutor$Worker");
      WORKER_EXECUTOR = worker.getDeclaredField("this$0");
      WORKER_EXECUTOR.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A REST call's result: its return value, or what it threw. */
  static final class Call {
    final AtomicReference<Boolean> returned = new AtomicReference<>();
    final AtomicReference<Throwable> failed = new AtomicReference<>();

    String describe() {
      Throwable e = failed.get();
      if (e == null) {
        return "returned " + returned.get();
      }
      StackTraceElement[] st = e.getStackTrace();
      return "threw " + e.getClass().getSimpleName() + (st.length == 0 ? ""
          : " at " + st[0].getClassName().replaceAll(".*\\.", "") + "." + st[0].getMethodName())
          + (e instanceof java.util.concurrent.RejectedExecutionException
              ? " (scheduled on an executor already " + (String.valueOf(e.getMessage())
                  .contains("Terminated") ? "terminated" : "shut down") + ")" : "");
    }
  }

  /** One run: two REST threads trigger a sync at once; O8 is read off the executors. */
  static FraySearch.Verdict once() throws Exception {
    try (ReconSyncWiring w = ReconSyncSearches.wiring(dbs)) {
      // the state the provider's start() leaves (the wiring does not call it: it would reload the
      // Recon OM DB and start the controller again): an executor in the field (idle, as the
      // replays place it) and the TarExtractor started (its executor, without a thread, set);
      // with the TarExtractor never started, a REST call's stopSyncDataFromOMThread could find
      // its executor field null (an NPE of the wiring, not of Recon)
      w.placeIdleScheduler();
      tarExtractor(w).start();
      Object idle = SCHEDULER.get(w.provider);
      // the wiring's thread factory, its runnables (the executors' workers) kept as well
      ThreadFactory wiringFactory = (ThreadFactory) THREAD_FACTORY.get(w.provider);
      List<Runnable> workers = Collections.synchronizedList(new ArrayList<>());
      THREAD_FACTORY.set(w.provider, (ThreadFactory) r -> {
        workers.add(r);
        return wiringFactory.newThread(r);
      });
      Call a = new Call();
      Call b = new Call();
      Thread restA = rest("REST-sync-1", w, a);
      Thread restB = rest("REST-sync-2", w, b);
      restA.start();
      restB.start();
      restA.join();
      restB.join();

      // the state, final now: the field, and each worker's executor
      Object kept = SCHEDULER.get(w.provider);
      // in the order their workers were made (an identity map's order is the identity hashes')
      Map<Object, Integer> executors = new IdentityHashMap<>();
      List<Object> inOrder = new ArrayList<>();
      List<Runnable> made;
      synchronized (workers) {
        made = new ArrayList<>(workers);
      }
      for (Runnable r : made) {
        Object x = WORKER_EXECUTOR.get(r);
        if (executors.putIfAbsent(x, executors.size()) == null) {
          inOrder.add(x);
        }
      }
      int lost = 0;
      StringBuilder each = new StringBuilder();
      for (Object o : inOrder) {
        ExecutorService x = (ExecutorService) o;
        boolean referenced = x == kept;
        if (!referenced && !x.isShutdown()) {
          lost++;
        }
        each.append(each.length() == 0 ? "" : ", ").append("executor ").append(executors.get(o))
            .append(referenced ? " (the field's)" : "").append(x.isShutdown() ? " shut down" : " running");
      }
      int keptQueued = kept instanceof ScheduledThreadPoolExecutor s ? s.getQueue().size() : -1;
      boolean keptHasWorker = executors.containsKey(kept);
      String observed = "REST-sync-1 " + a.describe() + ", REST-sync-2 " + b.describe() + "; "
          + made.size() + " worker(s) made by the thread factory, of " + executors.size()
          + " executor(s): " + each + "; the field references "
          + (kept == idle ? "the idle executor" : keptHasWorker ? "executor " + executors.get(kept)
              : "an executor without a worker")
          + " (" + keptQueued + " task(s) queued); " + lost + " executor(s) lost with a worker"
          + (Boolean.TRUE.equals(a.returned.get()) && Boolean.TRUE.equals(b.returned.get())
              && executors.size() == 1
              ? "; both calls made an executor, one of them has no worker (shut down or lost, it"
                  + " syncs nothing; not counted)"
              : "");
      if (Boolean.getBoolean("racelab.search.verbose")) {
        System.out.println("[racelab] RS_O8 run: " + observed);
      }

      // end every thread of the run: every executor shut down, every worker joined
      for (Object x : inOrder) {
        ((ExecutorService) x).shutdownNow();
      }
      ((ExecutorService) kept).shutdownNow();
      ((ExecutorService) idle).shutdownNow();
      List<Thread> threads;
      synchronized (w.syncThreads) {
        threads = new ArrayList<>(w.syncThreads);
      }
      for (Thread t : threads) {
        t.join();
      }
      stopTarExtractor(w);
      return new FraySearch.Verdict(lost > 0, observed);
    }
  }

  private static Thread rest(String name, ReconSyncWiring w, Call call) {
    return new Thread(() -> {
      try {
        call.returned.set(w.provider.triggerSyncDataFromOMImmediately());
      } catch (Throwable e) {
        call.failed.set(e);
      }
    }, name);
  }

  /** The provider's TarExtractor (started by each call; its pool never gets a task, no thread). */
  private static org.apache.hadoop.ozone.recon.TarExtractor tarExtractor(ReconSyncWiring w)
      throws Exception {
    Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("tarExtractor");
    f.setAccessible(true);
    return (org.apache.hadoop.ozone.recon.TarExtractor) f.get(w.provider);
  }

  private static void stopTarExtractor(ReconSyncWiring w) throws Exception {
    tarExtractor(w).stop();
  }

  @AfterAll
  static void record() throws Exception {
    finish(SEARCH);
  }
}
