package org.apache.hadoop.ozone.recon.spi.impl;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.ozone.om.protocol.OzoneManagerProtocol;
import org.apache.hadoop.ozone.recon.ReconContext;
import org.apache.hadoop.ozone.recon.ReconServerConfigKeys;
import org.apache.hadoop.ozone.recon.ReconUtils;
import org.apache.hadoop.ozone.recon.recovery.ReconOMMetadataManager;
import org.apache.hadoop.ozone.recon.tasks.OMUpdateEventBatch;
import org.apache.hadoop.ozone.recon.tasks.ReconTaskController;
import org.apache.hadoop.ozone.recon.tasks.ReconTaskReInitializationEvent.ReInitializationReason;
import org.apache.hadoop.ozone.recon.tasks.updater.ReconTaskStatusUpdaterManager;
import org.apache.hadoop.ozone.recon.upgrade.NSSummaryAggregatedTotalsUpgrade;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;

/**
 * recon-sync (HDDS-17042): premises on ozone-recon 2.2.0's OzoneManagerServiceProviderImpl and
 * ReconTaskControllerImpl, each driving the real methods. RS_P1 is about triggerTaskRebuild, which
 * no release holds (HDDS-15863): it has no test (premises.rs says so). Written for racelab;
 * nothing here is copied from upstream.
 */
public class ReconSyncPremisesTest {

  /**
   * RS-P3, the race O8 rests on, run: two REST threads call triggerSyncDataFromOMImmediately at
   * once while no sync runs. The scheduled sync task of the first executor is held in a
   * collaborator (the Recon OM DB's getLastSequenceNumberFromDB, which the scheduled lambda calls
   * before syncDataFromOM, so isSyncDataFromOMRunning stays false). Observed: both calls are inside
   * the method at the same time (both waiting in stopSyncDataFromOMThread for the same executor:
   * no monitor keeps the second out), both return true, and both write the plain field: two new
   * executors are started, the field keeps one, and the other runs on with nothing referring to it.
   */
  @Test
  public void RS_P3_twoManualSyncsBothReplaceTheScheduler() throws Exception {
    DefaultMetricsSystem.setMiniClusterMode(true);
    Path dir = Files.createTempDirectory("racelab-rs-p3");
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(ReconServerConfigKeys.OZONE_RECON_OM_SNAPSHOT_DB_DIR, dir.resolve("om").toString());
    conf.set(org.apache.hadoop.hdds.recon.ReconConfigKeys.OZONE_RECON_DB_DIR,
        dir.resolve("recon").toString());
    conf.set(org.apache.hadoop.hdds.HddsConfigKeys.OZONE_METADATA_DIRS, dir.toString());
    conf.set(ReconServerConfigKeys.OZONE_RECON_OM_SNAPSHOT_TASK_INITIAL_DELAY, "0s");

    CountDownLatch firstTaskHeld = new CountDownLatch(1);
    CountDownLatch releaseFirstTask = new CountDownLatch(1);
    AtomicInteger seqReads = new AtomicInteger();
    ReconOMMetadataManager reconOmDb = mock(ReconOMMetadataManager.class);
    when(reconOmDb.getLastSequenceNumberFromDB()).thenAnswer(inv -> {
      if (seqReads.getAndIncrement() == 0) {
        firstTaskHeld.countDown();
        if (!releaseFirstTask.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("racelab harness: never released");
        }
      }
      // every scheduled run ends here: the premise is about the executors, not a sync
      throw new IllegalStateException("racelab: no sync in this test");
    });
    ReconTaskController controller = mock(ReconTaskController.class);
    when(controller.getRegisteredTasks()).thenReturn(Collections.emptyMap());
    ReconTaskStatusUpdaterManager status = mock(ReconTaskStatusUpdaterManager.class);
    when(status.getTaskStatusUpdater(anyString())).thenAnswer(inv ->
        mock(org.apache.hadoop.ozone.recon.tasks.updater.ReconTaskStatusUpdater.class));
    ReconUtils utils = new ReconUtils();
    OzoneManagerServiceProviderImpl provider = new OzoneManagerServiceProviderImpl(conf,
        reconOmDb, controller, utils, mock(OzoneManagerProtocol.class),
        new ReconContext(conf, utils), status);

    // the harness's own thread factory (daemon threads, counted); the executors are the class's
    List<Thread> started = Collections.synchronizedList(new ArrayList<>());
    Field tf = OzoneManagerServiceProviderImpl.class.getDeclaredField("threadFactory");
    tf.setAccessible(true);
    ThreadFactory counting = r -> {
      Thread t = new Thread(r, "SyncOM-" + started.size());
      t.setDaemon(true);
      started.add(t);
      return t;
    };
    tf.set(provider, counting);
    Field schedulerField = OzoneManagerServiceProviderImpl.class.getDeclaredField("scheduler");
    schedulerField.setAccessible(true);

    try {
      provider.start();
      if (!firstTaskHeld.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("racelab harness: the first scheduled run never came");
      }
      ScheduledExecutorService first = (ScheduledExecutorService) schedulerField.get(provider);
      int threadsBefore = started.size();

      // The two calls' field writes race; which executor each startSyncDataFromOM then reads
      // is an interleaving inside the method. A latch in a collaborator fixes it: the tar
      // extractor's start(), which each call reaches right after its write, waits until both
      // have written, so both then schedule on the executor the field kept.
      CountDownLatch bothWrote = new CountDownLatch(2);
      Object realExtractor = tarExtractorField().get(provider);
      Object extractor = mock(realExtractor.getClass(), inv -> {
        if (inv.getMethod().getName().equals("start")) {
          bothWrote.countDown();
          if (!bothWrote.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("racelab harness: one call never wrote the field");
          }
        }
        return null;
      });
      tarExtractorField().set(provider, extractor);
      AtomicReference<Boolean> a = new AtomicReference<>();
      AtomicReference<Boolean> b = new AtomicReference<>();
      Thread restA = new Thread(() -> a.set(provider.triggerSyncDataFromOMImmediately()), "rest-A");
      Thread restB = new Thread(() -> b.set(provider.triggerSyncDataFromOMImmediately()), "rest-B");
      restA.start();
      restB.start();
      // both inside at once: each waiting in awaitTermination of the first executor
      boolean bothInside = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!bothInside && System.nanoTime() < deadline) {
        bothInside = inAwaitTermination(restA) && inAwaitTermination(restB);
        Thread.sleep(20);
      }
      String statesInside = restA.getState() + "/" + restB.getState();
      releaseFirstTask.countDown();
      restA.join(60_000);
      restB.join(60_000);
      if (restA.isAlive() || restB.isAlive()) {
        throw new IllegalStateException("racelab harness: a trigger did not return");
      }
      ScheduledExecutorService kept = (ScheduledExecutorService) schedulerField.get(provider);
      int newThreads = started.size() - threadsBefore;
      long aliveNew = started.subList(threadsBefore, started.size()).stream()
          .filter(Thread::isAlive).count();
      int f = schedulerField.getModifiers();
      boolean plainField = !Modifier.isVolatile(f) && !Modifier.isFinal(f);
      // both wrote before either read it back: one executor runs the syncs, the other was
      // made and dropped
      boolean holds = bothInside && Boolean.TRUE.equals(a.get()) && Boolean.TRUE.equals(b.get())
          && bothWrote.getCount() == 0 && first.isShutdown() && kept != first
          && !kept.isShutdown() && newThreads == 1 && aliveNew == 1 && plainField;
      Premise.check(
          "two triggerSyncDataFromOMImmediately calls at once are both inside it (no monitor), "
              + "both return true and both replace the plain scheduler field: with both writes "
              + "before either call reads it back, the field keeps one executor, which both "
              + "calls schedule on, and the other is made and dropped",
          holds,
          "both inside (waiting for the first executor): " + bothInside + " (" + statesInside
              + "); returned " + a.get() + "/" + b.get() + "; first executor shut down: "
              + first.isShutdown() + "; new executor threads started: " + newThreads
              + ", alive: " + aliveNew + "; the field holds one executor (shut down: "
              + kept.isShutdown() + "); scheduler field: " + Modifier.toString(f));
    } finally {
      releaseFirstTask.countDown();
      ((ScheduledExecutorService) schedulerField.get(provider)).shutdownNow();
      for (Thread t : started) {
        t.interrupt();
      }
      FileUtils.deleteQuietly(dir.toFile());
    }
  }

  private static Field tarExtractorField() throws NoSuchFieldException {
    Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("tarExtractor");
    f.setAccessible(true);
    return f;
  }

  private static boolean inAwaitTermination(Thread t) {
    for (StackTraceElement e : t.getStackTrace()) {
      if (e.getMethodName().equals("awaitTermination")) {
        return true;
      }
    }
    return false;
  }

  /**
   * RS-P2, run: a rebuild checkpointed with a write batch in it, then that batch handed off
   * (consumeOMEvents), as the sync does after its commit. The real event processor rebuilds the
   * task from the checkpoint, sets its cursor to the checkpoint's sequence number, and then applies
   * the batch anyway: nothing compares the batch with the cursor. The rebuild is requested through
   * 2.2.0's upgrade action (its requester of queueReInitializationEvent).
   */
  @Test
  public void RS_P2_batchBehindRebuildIsAppliedWithNoCursorCheck() throws Exception {
    try (ReconSyncWiring w = new ReconSyncWiring()) {
      w.installInjector();
      w.putFile("file2");
      // the sync's commit: the Recon OM DB gets file2 from OM's log, the handler its PUT
      OMUpdateEventBatch batch = ReconSyncWiring.commitDelta(w);
      long cpSeq = w.reconOmDb.getLastSequenceNumberFromDB();
      new NSSummaryAggregatedTotalsUpgrade().execute(null);
      // the hand-off of the batch the commit carried
      w.controller.consumeOMEvents(batch, w.reconOmDb);
      w.awaitQuiescence();
      long count = w.task.files.get();
      long cursor = w.cursors.getOrDefault(w.task.getTaskName(), -1L);
      long reconKeys = ReconSyncWiring.keys(w.reconOmDb);
      List<String> log = new ArrayList<>(w.task.log);
      boolean rebuiltThenApplied = log.size() >= 3 && log.get(1).startsWith("reprocess(2 keys)")
          && log.get(2).startsWith("process(");
      boolean holds = rebuiltThenApplied && cursor == cpSeq && count == reconKeys + 1;
      Premise.check(
          "a batch queued behind a rebuild is applied by the task after the rebuild set its cursor "
              + "to the checkpoint's sequence number, with no check against that cursor",
          holds,
          "checkpoint at seq " + cpSeq + " with " + reconKeys + " keys; task cursor " + cursor
              + "; batch of file2 (up to seq " + cpSeq + ") applied after it: task log " + log
              + "; count " + count);
    }
  }

  /**
   * RS-P4, run: the queueing side holds nothing in common with the sync's commit-to-hand-off
   * window. With the real syncDataFromOM held between its commit and consumeOMEvents (at its delta
   * status row), 2.2.0's requester (the upgrade action) runs queueReInitializationEvent to its end:
   * it returns, its checkpoint holds the committed batch, and the buffer holds the rebuild alone
   * until the sync hands off.
   */
  @Test
  public void RS_P4_queueingCompletesInsideTheSyncWindow() throws Exception {
    try (ReconSyncWiring w = new ReconSyncWiring()) {
      w.installInjector();
      w.putFile("file2");
      CountDownLatch inWindow = new CountDownLatch(1);
      CountDownLatch go = new CountDownLatch(1);
      w.deltaCompletionHook = () -> {
        inWindow.countDown();
        try {
          go.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };
      w.stopController(); // the processor off: the buffer is read as the two threads leave it
      Thread sync = new Thread(w.provider::syncDataFromOM, "SyncOM-p4");
      sync.start();
      if (!inWindow.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("racelab harness: the sync never reached its window");
      }
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread upgrade = ReconSyncWiring.upgradeAction(failed);
      upgrade.join(20_000);
      boolean returned = !upgrade.isAlive() && failed.get() == null;
      Thread.State syncState = sync.getState();
      int bufferedInWindow = w.buffered();
      String first = ReconSyncWiring.firstBuffered(w);
      go.countDown();
      sync.join(60_000);
      int bufferedAfter = w.buffered();
      boolean holds = returned
          && (syncState == Thread.State.WAITING || syncState == Thread.State.TIMED_WAITING) && bufferedInWindow == 1 && first.startsWith("TASK_REINITIALIZATION")
          && first.contains("2 keys") && bufferedAfter == 2;
      Premise.check(
          "queueReInitializationEvent (reached from 2.2.0's upgrade action) completes while "
              + "syncDataFromOM is between its commit and its hand-off; its checkpoint holds the "
              + "committed batch, which is then buffered behind it",
          holds,
          "upgrade action returned: " + returned + (failed.get() != null ? " (" + failed.get()
              + ")" : "") + "; sync thread " + syncState + " in its window; buffer in the "
              + "window: " + bufferedInWindow + " (" + first + "); after the hand-off: "
              + bufferedAfter);
      if (upgrade.isAlive()) {
        upgrade.interrupt();
      }
    }
  }
}
