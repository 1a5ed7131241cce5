package org.apache.hadoop.ozone.recon.spi.impl;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.when;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.hdds.HddsConfigKeys;
import org.apache.hadoop.hdds.client.StandaloneReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.recon.ReconConfigKeys;
import org.apache.hadoop.hdds.utils.db.DBCheckpoint;
import org.apache.hadoop.hdds.utils.db.DBUpdatesWrapper;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.TableIterator;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OMMetadataManager;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.DBUpdates;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyLocationInfoGroup;
import org.apache.hadoop.ozone.om.protocol.OzoneManagerProtocol;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.DBUpdatesRequest;
import org.apache.hadoop.ozone.recon.ReconContext;
import org.apache.hadoop.ozone.recon.ReconServerConfigKeys;
import org.apache.hadoop.ozone.recon.ReconUtils;
import org.apache.hadoop.ozone.recon.recovery.ReconOmMetadataManagerImpl;
import org.apache.hadoop.ozone.recon.spi.ReconContainerMetadataManager;
import org.apache.hadoop.ozone.recon.spi.ReconFileMetadataManager;
import org.apache.hadoop.ozone.recon.spi.ReconGlobalStatsManager;
import org.apache.hadoop.ozone.recon.spi.ReconNamespaceSummaryManager;
import org.apache.hadoop.ozone.recon.tasks.OMDBUpdateEvent;
import org.apache.hadoop.ozone.recon.tasks.OMUpdateEventBatch;
import org.apache.hadoop.ozone.recon.tasks.ReconOmTask;
import org.apache.hadoop.ozone.recon.tasks.ReconTaskController;
import org.apache.hadoop.ozone.recon.tasks.ReconTaskControllerImpl;
import org.apache.hadoop.ozone.recon.tasks.updater.ReconTaskStatusUpdater;
import org.apache.hadoop.ozone.recon.tasks.updater.ReconTaskStatusUpdaterManager;
import org.apache.hadoop.ozone.recon.upgrade.NSSummaryAggregatedTotalsUpgrade;
import racelab.fix.reconsync.SyncSide;
import racelab.trace.Recorder;
import racelab.trace.reconsync.Probes;

/**
 * recon-sync (HDDS-17042) on ozone-recon 2.2.0: the real OzoneManagerServiceProviderImpl (its
 * syncDataFromOM is called on a thread of the test's, the model's sync thread) and the real
 * ReconTaskControllerImpl (its own event processor thread), over two real RocksDBs: OM's (an
 * OmMetadataManagerImpl, serving its write-ahead log through a mocked getDBUpdates, as OM's own
 * getDBUpdates does) and Recon's OM DB (a ReconOmMetadataManagerImpl started from a checkpoint of
 * OM's, so Recon starts in sync). Collaborators mocked: the OM client, the task status rows (the
 * SQL table; recorded in maps), the Recon DB provider and the four Recon DB managers (the staged
 * DB and its swap are no-ops), and the task: {@link FileCount}, a task of racelab's standing for
 * NSSummary (as the model's NSSummary stands for every task): reprocess counts the keys of the
 * checkpoint's key table, process adds one per PUT and removes one per DELETE.
 *
 * <p>Speed (the rows share 2 cores in CI): OM's DB with file1 and Recon's checkpoint copy are
 * made once per JVM ({@link #template}) and copied into each wiring's own directory, which opens
 * them: each row starts from the same fresh state (OM at sequence number 1). Quiescence of the
 * event processor is decided from its state ({@link #processorIdle}), not by waiting out its
 * 1 s poll, and {@link #stopController} wakes the processor instead of waiting for that poll.
 * Written for racelab; nothing here is copied from upstream.
 */
final class ReconSyncWiring implements AutoCloseable {
  static final String VOLUME = "vol";
  static final String BUCKET = "bucket";

  final Path dir;
  final OzoneConfiguration conf;
  final OmMetadataManagerImpl om;
  final ReconOmMetadataManagerImpl reconOmDb;
  final ReconUtils reconUtils;
  /** The two DBs; closed with the wiring unless they were handed in ({@link #ReconSyncWiring(Dbs)}). */
  private final Dbs dbs;
  private final boolean ownsDbs;
  final FileCount task = new FileCount();
  final ReconTaskStatusUpdaterManager statusManager = mock(ReconTaskStatusUpdaterManager.class);
  /** Every status row's lastUpdatedSeqNumber, by task name. */
  final Map<String, Long> cursors = new ConcurrentHashMap<>();
  /** Completed runs per status row (recordRunCompletion calls), by task name. */
  final Map<String, AtomicInteger> completions = new ConcurrentHashMap<>();
  /** A hook run (once) at the delta status row's recordRunCompletion, on the sync thread. */
  volatile Runnable deltaCompletionHook;
  final OzoneManagerProtocol omClient = mock(OzoneManagerProtocol.class);
  final ReconTaskControllerImpl controller;
  final OzoneManagerServiceProviderImpl provider;
  /**
   * OM's DB and the Recon OM DB of a wiring, opened from a fresh copy of the {@link #template}
   * (OM at sequence number 1 with file1, Recon in sync), with the ReconUtils whose HTTP call fails.
   * A search opens one and hands it to many wirings ({@link #ReconSyncWiring(Dbs)}).
   */
  static final class Dbs implements AutoCloseable {
    final Path dir;
    final OzoneConfiguration conf = new OzoneConfiguration();
    final OmMetadataManagerImpl om;
    final ReconOmMetadataManagerImpl reconOmDb;
    final ReconUtils reconUtils;
    final AtomicLong objectIds = new AtomicLong(FILE1_OBJECT_ID);

    Dbs() throws Exception {
      DefaultMetricsSystem.setMiniClusterMode(true);
      dir = Files.createTempDirectory("racelab-recon-sync");
      configure(conf, dir);
      // OM's DB with file1 and Recon's copy of it, as created once per JVM (a fresh copy each)
      FileUtils.copyDirectory(template().toFile(), dir.toFile());
      om = new OmMetadataManagerImpl(conf, null);
      reconUtils = spy(new ReconUtils());
      // the full-snapshot fallback cannot reach OM: its HTTP call fails at once
      doThrow(new IOException("racelab: OM's HTTP server is unreachable")).when(reconUtils)
          .makeHttpCall(any(), anyString(), anyBoolean());
      reconOmDb = new ReconOmMetadataManagerImpl(conf, reconUtils);
      File reconCopy = dir.resolve("recon-om").resolve(RECON_COPY).toFile();
      reconOmDb.updateOmDB(reconCopy, false);
    }

    @Override
    public void close() throws Exception {
      try {
        reconOmDb.stop();
      } catch (Exception ignored) {
        // best effort
      }
      om.stop();
      FileUtils.deleteQuietly(dir.toFile());
    }
  }

  /** A wiring over its own fresh DBs (each replay row starts from the same state). */
  ReconSyncWiring() throws Exception {
    this(new Dbs(), true);
  }

  /**
   * A wiring over DBs opened before (a search's: its iterations share them, each starting where
   * the last left OM and Recon, in sync); its close leaves them open.
   */
  ReconSyncWiring(Dbs dbs) throws Exception {
    this(dbs, false);
  }

  private ReconSyncWiring(Dbs dbs, boolean ownsDbs) throws Exception {
    Recorder.observe(Probes.CONTRACT, Probes.ALL);
    Probes.labelProcessorThreads();
    DefaultMetricsSystem.setMiniClusterMode(true);
    this.dbs = dbs;
    this.ownsDbs = ownsDbs;
    dir = dbs.dir;
    conf = dbs.conf;
    om = dbs.om;
    reconUtils = dbs.reconUtils;
    reconOmDb = dbs.reconOmDb;

    when(statusManager.getTaskStatusUpdater(anyString())).thenAnswer(inv -> updater(inv.getArgument(0)));

    when(omClient.getDBUpdates(any(DBUpdatesRequest.class))).thenAnswer(inv -> {
      DBUpdatesRequest req = inv.getArgument(0);
      DBUpdatesWrapper w = om.getStore().getUpdatesSince(req.getSequenceNumber(),
          req.getLimitCount());
      DBUpdates u = new DBUpdates(w.getData());
      u.setCurrentSequenceNumber(w.getCurrentSequenceNumber());
      u.setLatestSequenceNumber(w.getLatestSequenceNumber());
      u.setDBUpdateSuccess(w.isDBUpdateSuccess());
      return u;
    });
    when(omClient.getServiceList()).thenReturn(Collections.emptyList());

    ReconDBProvider reconDb = mock(ReconDBProvider.class);
    when(reconDb.getStagedReconDBProvider()).thenReturn(mock(ReconDBProvider.class));
    controller = new ReconTaskControllerImpl(conf, Set.of(task), statusManager, reconDb,
        mock(ReconContainerMetadataManager.class), mock(ReconNamespaceSummaryManager.class),
        mock(ReconGlobalStatsManager.class), mock(ReconFileMetadataManager.class));
    controller.updateOMMetadataManager(reconOmDb);
    task.reprocess(reconOmDb); // Recon in sync: the task agrees with the Recon OM DB
    Set<Thread> before = processorThreads();
    controller.start();
    Set<Thread> started = processorThreads();
    started.removeAll(before);
    if (started.size() != 1) {
      throw new IllegalStateException("racelab harness: no single new event processor thread: "
          + started);
    }
    processor = started.iterator().next();

    provider = new OzoneManagerServiceProviderImpl(conf, reconOmDb, controller, reconUtils,
        omClient, new ReconContext(conf, reconUtils), statusManager);
    // the harness's thread factory for the sync executors: daemon threads, kept for inspection
    Field tf = OzoneManagerServiceProviderImpl.class.getDeclaredField("threadFactory");
    tf.setAccessible(true);
    tf.set(provider, (java.util.concurrent.ThreadFactory) r -> {
      // each sync thread plays the model's actor of its name (SyncOM-0, SyncOM-1)
      String name = "SyncOM-" + syncThreads.size();
      Thread t = new Thread(() -> {
        Recorder.act(name);
        r.run();
      }, name);
      t.setDaemon(true);
      syncThreads.add(t);
      return t;
    });
  }

  /**
   * Recon's copy of OM's DB (not named om.snapshot.db_*: the full-snapshot fallback deletes the
   * last known such DB).
   */
  private static final String RECON_COPY = "recon-om-live";
  private static final long FILE1_OBJECT_ID = 1001;
  private static Path template;

  private static void configure(OzoneConfiguration c, Path d) {
    c.set(HddsConfigKeys.OZONE_METADATA_DIRS, d.resolve("meta").toString());
    c.set(OMConfigKeys.OZONE_OM_DB_DIRS, d.resolve("om").toString());
    c.set(ReconServerConfigKeys.OZONE_RECON_OM_SNAPSHOT_DB_DIR, d.resolve("recon-om").toString());
    c.set(ReconConfigKeys.OZONE_RECON_DB_DIR, d.resolve("recon").toString());
    c.setInt("ozone.recon.task.thread.count", 1);
    // one run per executor: a scheduled sync repeats only after an hour
    c.set(ReconServerConfigKeys.OZONE_RECON_OM_SNAPSHOT_TASK_INTERVAL_DELAY, "1h");
  }

  /**
   * The rows' common start, made once per JVM and copied by each wiring: OM's DB (a real
   * OmMetadataManagerImpl) with one key, file1 (OM's sequence number 1), closed; and Recon's copy
   * of it, made from a checkpoint of OM's DB (so Recon starts in sync). Each wiring copies these
   * files into its own directory and opens them: every row starts from the same fresh state,
   * without creating OM's DB (its column families, its compaction DAG) anew.
   */
  private static synchronized Path template() throws Exception {
    if (template != null) {
      return template;
    }
    Path t = Files.createTempDirectory("racelab-recon-sync-template");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> FileUtils.deleteQuietly(t.toFile())));
    OzoneConfiguration c = new OzoneConfiguration();
    configure(c, t);
    OmMetadataManagerImpl m = new OmMetadataManagerImpl(c, null);
    try {
      putFile(m, "file1", FILE1_OBJECT_ID);
      DBCheckpoint cp = m.getStore().getCheckpoint(true);
      FileUtils.copyDirectory(cp.getCheckpointLocation().toFile(),
          t.resolve("recon-om").resolve(RECON_COPY).toFile());
      cp.cleanupCheckpoint();
    } finally {
      m.stop();
      // its cleanup executors would outlive it (daemons, one per JVM): a search's iterations
      // should see no thread of the harness's setup wake up (see ReconSyncSearches)
      ReconSyncSearches.stopCacheCleanup(m, "the template's OM DB");
    }
    template = t;
    return t;
  }

  /** The sync executors' threads, in start order. */
  final List<Thread> syncThreads = Collections.synchronizedList(new ArrayList<>());

  /**
   * Gives the provider an executor to replace (the scheduler field start() would set; start()
   * itself would reload the Recon OM DB and start the controller again), so that the REST entry
   * triggerSyncDataFromOMImmediately can start the first sync thread.
   */
  void placeIdleScheduler() throws Exception {
    Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("scheduler");
    f.setAccessible(true);
    f.set(provider, java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "idle");
      t.setDaemon(true);
      return t;
    }));
  }

  boolean syncRunning() throws Exception {
    Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("isSyncDataFromOMRunning");
    f.setAccessible(true);
    return ((java.util.concurrent.atomic.AtomicBoolean) f.get(provider)).get();
  }

  /**
   * Runs {@code body} on the calling thread as the model's {@code actor} (the thread is
   * recorded as that actor, and unlabelled after).
   */
  static <T> T as(String actor, java.util.concurrent.Callable<T> body) throws Exception {
    Recorder.act(actor);
    try {
      return body.call();
    } finally {
      Recorder.act(null);
    }
  }

  /**
   * Ends the run's trace with the observable state as ReconSync::describe names it: the task's
   * file count (NSSummary's files), OM's and the Recon OM DB's sequence numbers, read once the
   * event processor is quiet.
   */
  void endTrace() throws IOException {
    Recorder.act(null);
    Recorder.end(Probes.state(task.files.get(), omSeq(),
        reconOmDb.getLastSequenceNumberFromDB()));
  }

  /** Stops the provider's current executor (a thread parked forever stays parked: a daemon). */
  void stopScheduler() throws Exception {
    Field f = OzoneManagerServiceProviderImpl.class.getDeclaredField("scheduler");
    f.setAccessible(true);
    Object s = f.get(provider);
    if (s != null) {
      ((java.util.concurrent.ExecutorService) s).shutdownNow();
    }
  }

  private ReconTaskStatusUpdater updater(String name) {
    ReconTaskStatusUpdater u = mock(ReconTaskStatusUpdater.class);
    doAnswer(inv -> {
      cursors.put(name, inv.getArgument(0));
      return null;
    }).when(u).setLastUpdatedSeqNumber(anyLong());
    when(u.getLastUpdatedSeqNumber()).thenAnswer(inv -> cursors.getOrDefault(name, 0L));
    when(u.getTaskName()).thenReturn(name);
    doAnswer(inv -> {
      completions.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
      if (name.equals("OmDeltaRequest")) {
        Runnable hook = deltaCompletionHook;
        deltaCompletionHook = null;
        if (hook != null) {
          hook.run();
        }
      }
      return null;
    }).when(u).recordRunCompletion();
    return u;
  }

  /** OM writes one key (one RocksDB write batch, one sequence number). */
  void putFile(String name) throws IOException {
    putFile(om, name, dbs.objectIds.incrementAndGet());
  }

  /** OM deletes one key (one RocksDB write batch, one sequence number). */
  void deleteFile(String name) throws IOException {
    om.getKeyTable(BucketLayout.LEGACY).delete(om.getOzoneKey(VOLUME, BUCKET, name));
  }

  private static void putFile(OmMetadataManagerImpl om, String name, long objectId)
      throws IOException {
    OmKeyInfo k = new OmKeyInfo.Builder().setVolumeName(VOLUME).setBucketName(BUCKET)
        .setKeyName(name).setObjectID(objectId).setParentObjectID(1)
        .setReplicationConfig(StandaloneReplicationConfig.getInstance(
            HddsProtos.ReplicationFactor.ONE))
        .setOmKeyLocationInfos(new ArrayList<OmKeyLocationInfoGroup>())
        .setDataSize(10).setCreationTime(1).setModificationTime(1).build();
    om.getKeyTable(BucketLayout.LEGACY).put(om.getOzoneKey(VOLUME, BUCKET, name), k);
  }

  static long keys(OMMetadataManager m) throws IOException {
    long n = 0;
    try (TableIterator<String, ? extends Table.KeyValue<String, OmKeyInfo>> it =
        m.getKeyTable(BucketLayout.LEGACY).iterator()) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  long omSeq() throws IOException {
    return ((org.apache.hadoop.hdds.utils.db.RDBStore) om.getStore()).getDb()
        .getLatestSequenceNumber();
  }

  /** The controller's event buffer size (its private field; read, never written). */
  int buffered() throws Exception {
    Field f = ReconTaskControllerImpl.class.getDeclaredField("eventBuffer");
    f.setAccessible(true);
    Object buffer = f.get(controller);
    Method size = buffer.getClass().getMethod("getQueueSize");
    return ((Number) size.invoke(buffer)).intValue();
  }

  /** The controller's event processor thread (ReconEventProcessor-0 of this wiring's controller). */
  final Thread processor;

  private static Set<Thread> processorThreads() {
    Set<Thread> s = new java.util.HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("ReconEventProcessor-") && t.isAlive()) {
        s.add(t);
      }
    }
    return s;
  }

  /**
   * Whether the event processor is idle: the buffer empty, then the processor parked in the
   * buffer's poll (TIMED_WAITING inside OMUpdateEventBuffer.poll). The processor handles each event
   * to its end (the tasks joined, the status rows written) on its own thread before it polls again,
   * so once every thread that offers events has returned, this state is final: every offered event
   * has been applied. The order of the reads matters: an empty buffer first means the processor
   * has taken every event, so a park seen after it is the park of a later poll (a thread that ran
   * since, to take the event, no longer shows the state of its earlier park).
   */
  boolean processorIdle() throws Exception {
    if (buffered() != 0 || task.busy.get() != 0) {
      return false;
    }
    if (processor.getState() != Thread.State.TIMED_WAITING) {
      return false;
    }
    for (StackTraceElement e : processor.getStackTrace()) {
      if (e.getClassName().equals("org.apache.hadoop.ozone.recon.tasks.OMUpdateEventBuffer")
          && e.getMethodName().equals("poll")) {
        return processor.getState() == Thread.State.TIMED_WAITING;
      }
    }
    return false;
  }

  /**
   * Waits until the event processor has nothing left ({@link #processorIdle}); the callers have
   * joined every thread that hands events off. The 60 s bound is the harness's own failure.
   */
  void awaitQuiescence() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!processorIdle()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("racelab harness: the event processor did not drain");
      }
      Thread.sleep(2);
    }
  }

  /**
   * The sync's commit alone (the real getAndApplyDeltaUpdatesFromOM: OM's delta, iterated and
   * committed to the Recon OM DB), without the status rows and the hand-off; returns the batch the
   * sync would hand off.
   */
  static OMUpdateEventBatch commitDelta(ReconSyncWiring w) throws Exception {
    try (org.apache.hadoop.ozone.recon.tasks.OMDBUpdatesHandler h =
        new org.apache.hadoop.ozone.recon.tasks.OMDBUpdatesHandler(w.reconOmDb)) {
      w.provider.getAndApplyDeltaUpdatesFromOM(w.reconOmDb.getLastSequenceNumberFromDB(), h);
      return new OMUpdateEventBatch(new ArrayList<>(h.getEvents()), h.getLatestSequenceNumber());
    }
  }

  /**
   * 2.2.0's other requester of a rebuild, started: an upgrade action
   * (NSSummaryAggregatedTotalsUpgrade, whose execute calls queueReInitializationEvent) on
   * ReconServer's main thread; what it throws goes to {@code failed}.
   */
  static Thread upgradeAction(AtomicReference<Throwable> failed) {
    Thread t = new Thread(() -> {
      try {
        new NSSummaryAggregatedTotalsUpgrade().execute(null);
      } catch (Throwable e) {
        failed.set(e);
      }
    }, "ReconServer-main-finalize");
    t.start();
    return t;
  }

  /** Who holds the hand-off lock a part renders on this provider, for a record. */
  String handOffLockHolder() {
    SyncSide.HandOffLock lock = SyncSide.existingLockOf(provider);
    return lock == null ? "no hand-off lock"
        : "hand-off lock held by " + (lock.owner() == null ? "nobody" : lock.owner().getName());
  }

  /**
   * Makes the event buffer remember the reinitialization it is offered, for a record: its queue
   * (a LinkedBlockingQueue of the buffer's capacity, empty here) is replaced by one that also
   * describes each reinitialization event as it is offered. Peeking the buffer afterwards
   * ({@link #firstBuffered}) races with the real event processor, which may have taken the event
   * already: a replay's record said "empty" in one run and the event in the next.
   */
  void recordReinitializations() throws Exception {
    Field f = ReconTaskControllerImpl.class.getDeclaredField("eventBuffer");
    f.setAccessible(true);
    Object buffer = f.get(controller);
    Field q = buffer.getClass().getDeclaredField("eventQueue");
    q.setAccessible(true);
    java.util.concurrent.BlockingQueue<?> queue =
        (java.util.concurrent.BlockingQueue<?>) q.get(buffer);
    if (!queue.isEmpty()) {
      throw new IllegalStateException("racelab harness: the event buffer is not empty");
    }
    reinitializations = new ReinitializationsQueue(queue.remainingCapacity());
    // the processor, already started, takes from this queue from its next poll (within its
    // 1 s timeout); what it takes, and when, is the same
    q.set(buffer, reinitializations);
  }

  private ReinitializationsQueue reinitializations;

  /** The last reinitialization offered to the buffer, described as it was offered ("none"). */
  String lastReinitialization() {
    return reinitializations.last;
  }

  /** The event buffer's queue, describing each reinitialization event offered to it. */
  private static final class ReinitializationsQueue extends
      java.util.concurrent.LinkedBlockingQueue<org.apache.hadoop.ozone.recon.tasks.ReconEvent> {
    volatile String last = "none";

    ReinitializationsQueue(int capacity) {
      super(capacity);
    }

    @Override
    public boolean offer(org.apache.hadoop.ozone.recon.tasks.ReconEvent e) {
      if (e instanceof org.apache.hadoop.ozone.recon.tasks.ReconTaskReInitializationEvent r) {
        last = describe(r);
      }
      return super.offer(e);
    }
  }

  /** The buffer's head, described (its private queue, peeked, never changed). */
  static String firstBuffered(ReconSyncWiring w) throws Exception {
    Field f = ReconTaskControllerImpl.class.getDeclaredField("eventBuffer");
    f.setAccessible(true);
    Object buffer = f.get(w.controller);
    Field q = buffer.getClass().getDeclaredField("eventQueue");
    q.setAccessible(true);
    Object head = ((java.util.concurrent.BlockingQueue<?>) q.get(buffer)).peek();
    if (head == null) {
      return "empty";
    }
    if (head instanceof org.apache.hadoop.ozone.recon.tasks.ReconTaskReInitializationEvent r) {
      return describe(r);
    }
    return head.getClass().getSimpleName();
  }

  /** A reinitialization event, as a record names it: its kind and its checkpoint's keys. */
  private static String describe(
      org.apache.hadoop.ozone.recon.tasks.ReconTaskReInitializationEvent r) {
    try {
      return "TASK_REINITIALIZATION, checkpoint with "
          + keys(r.getCheckpointedOMMetadataManager()) + " keys";
    } catch (IOException e) {
      return "TASK_REINITIALIZATION, checkpoint unreadable: " + e;
    }
  }

  /** Makes ReconServer's injector (read by the upgrade actions) answer this controller. */
  void installInjector() throws Exception {
    Injector injector = Guice.createInjector(new AbstractModule() {
      @Override
      protected void configure() {
        bind(ReconTaskController.class).toInstance(controller);
      }
    });
    Method set = org.apache.hadoop.ozone.recon.ReconGuiceServletContextListener.class
        .getDeclaredMethod("setInjector", Injector.class);
    set.setAccessible(true);
    set.invoke(null, injector);
  }

  /**
   * The controller's stop, with its event processor woken: the processor leaves its loop when
   * interrupted, as when it sees stop()'s flag, which it reads only after its poll returns (up
   * to 1 s, which stop() would wait for).
   */
  void stopController() {
    processor.interrupt();
    controller.stop();
  }

  @Override
  public void close() throws Exception {
    stopScheduler();
    stopController();
    if (ownsDbs) {
      dbs.close();
    }
  }

  /** racelab's task: a file count (NSSummary's number of files in the bucket, reduced). */
  static final class FileCount implements ReconOmTask {
    final AtomicLong files = new AtomicLong();
    final AtomicInteger busy = new AtomicInteger();
    final List<String> log = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String getTaskName() {
      return "RacelabFileCount";
    }

    @Override
    public TaskResult process(OMUpdateEventBatch batch, Map<String, Integer> seek) {
      busy.incrementAndGet();
      try {
        long d = 0;
        for (OMDBUpdateEvent<?, ?> e : batch.getEvents()) {
          if (!"keyTable".equals(e.getTable())) {
            continue;
          }
          switch (e.getAction()) {
          case PUT:
            d++;
            break;
          case DELETE:
            d--;
            break;
          default:
            break;
          }
        }
        long now = files.addAndGet(d);
        log.add("process(batch of " + batch.getEvents().size() + " events, " + (d >= 0 ? "+" : "")
            + d + ") -> " + now);
        return buildTaskResult(true);
      } finally {
        busy.decrementAndGet();
      }
    }

    @Override
    public TaskResult reprocess(OMMetadataManager m) {
      busy.incrementAndGet();
      try {
        long n = keys(m);
        files.set(n);
        log.add("reprocess(" + n + " keys) -> " + n);
        return buildTaskResult(true);
      } catch (IOException e) {
        return buildTaskResult(false);
      } finally {
        busy.decrementAndGet();
      }
    }
  }
}
