package racelab.trace.reconsync;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;
import static racelab.trace.Recorder.field;

import java.util.LinkedHashMap;
import java.util.Map;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import racelab.trace.Probe;
import racelab.trace.Recorder;

/**
 * What recon-sync's trace observes on ozone-recon 2.2.0: the methods of its upstream.rs that run
 * as released code in the replays, each with the values the model's step records.
 *
 * <p>Not observed, and why: OzoneManager.getDBUpdates, OzoneManagerDoubleBuffer.flushTransactions
 * and OzoneManager.deleteKey are OM's (the replays' OM is an OmMetadataManagerImpl written by the
 * harness, its RPC a mock); ReconTaskStatusUpdater.recordRunCompletion is a mock (the SQL status
 * rows); TriggerDBSyncEndpoint's methods and triggerTaskRebuild are not called (no release holds
 * triggerTaskRebuild); OMUpdateEventBuffer.poll runs on the event processor's 1 s timer, so how
 * often it times out depends on the machine's speed while an order file holds a fixed number of
 * polls; innerGetAndApplyDeltaUpdatesFromOM is named by the model only for an RPC that never
 * returns (its ordinary RPC is recorded on OM's side, OzoneManager.getDBUpdates), so each real
 * call of it would be unexplained.
 */
public final class Probes {
  private Probes() {
  }

  public static final String CONTRACT = "recon-sync";
  /** The model's actor for ReconTaskControllerImpl's event processor thread. */
  public static final String PROCESSOR = "ReconEventProcessor";

  private static final String PROVIDER =
      "org.apache.hadoop.ozone.recon.spi.impl.OzoneManagerServiceProviderImpl";
  private static final String CONTROLLER =
      "org.apache.hadoop.ozone.recon.tasks.ReconTaskControllerImpl";
  /** The task every wiring registers (ReconSyncWiring.FileCount), standing for NSSummary. */
  public static final String TASK = "RacelabFileCount";

  /** Every probe, for {@link Recorder#observe}. */
  public static final Probe[] ALL = {
      Probe.of("OzoneManagerServiceProviderImpl.syncDataFromOM", PROVIDER, "syncDataFromOM")
          .reading((self, args, r, t) -> running(self)),
      Probe.of("OzoneManagerServiceProviderImpl.triggerSyncDataFromOMImmediately", PROVIDER,
          "triggerSyncDataFromOMImmediately"),
      Probe.of("OzoneManagerServiceProviderImpl.stopSyncDataFromOMThread", PROVIDER,
          "stopSyncDataFromOMThread"),
      Probe.of("OzoneManagerServiceProviderImpl.getOzoneManagerDBSnapshot", PROVIDER,
          "getOzoneManagerDBSnapshot"),
      // the two-argument commit is the one innerGetAndApplyDeltaUpdatesFromOM calls
      new Probe("RDBBatchOperation.commit", "org.apache.hadoop.hdds.utils.db.RDBBatchOperation",
          named("commit").and(takesArguments(2)), (s, a, r, t) -> Map.of()),
      Probe.of("ReconTaskControllerImpl.updateOMMetadataManager", CONTROLLER,
          "updateOMMetadataManager"),
      Probe.of("ReconTaskControllerImpl.consumeOMEvents", CONTROLLER, "consumeOMEvents")
          .reading((self, args, r, t) -> batch(args[0])),
      Probe.of("ReconTaskControllerImpl.processOMUpdateBatch", CONTROLLER, "processOMUpdateBatch")
          .reading((self, args, r, t) -> {
            Map<String, String> m = new LinkedHashMap<>(batch(args[0]));
            m.put("files", files(self));
            return m;
          }),
      Probe.of("ReconTaskControllerImpl.queueReInitializationEvent", CONTROLLER,
          "queueReInitializationEvent"),
      Probe.of("ReconTaskControllerImpl.drainEventBufferAndCleanExistingCheckpoints", CONTROLLER,
          "drainEventBufferAndCleanExistingCheckpoints"),
      Probe.of("ReconTaskControllerImpl.createOMCheckpoint", CONTROLLER, "createOMCheckpoint"),
      Probe.of("ReconTaskControllerImpl.reInitializeTasks", CONTROLLER, "reInitializeTasks")
          .reading((self, args, r, t) -> Map.of("files", files(self))),
      Probe.of("ReconOmMetadataManagerImpl.updateOmDB",
          "org.apache.hadoop.ozone.recon.recovery.ReconOmMetadataManagerImpl", "updateOmDB"),
  };

  /** The provider's isSyncDataFromOMRunning (an AtomicBoolean, read without a lock). */
  private static Map<String, String> running(Object provider) {
    return Map.of("isSyncDataFromOMRunning",
        String.valueOf(field(provider, "isSyncDataFromOMRunning")));
  }

  /** The batch's sequence number (OMUpdateEventBatch.batchSequenceNumber, a final field). */
  private static Map<String, String> batch(Object batch) {
    return Map.of("batchSequenceNumber", String.valueOf(field(batch, "batchSequenceNumber")));
  }

  /** The task's file count (NSSummary's files in the bucket, as the model names it). */
  public static String files(Object controller) {
    Object tasks = field(controller, "reconOmTasks");
    Object task = ((Map<?, ?>) tasks).get(TASK);
    return task == null ? "no task " + TASK : String.valueOf(field(task, "files"));
  }

  /**
   * The final state as the model's describe names it: {@code files} (NSSummary's, the last
   * files= word of ReconSync::describe), OM's and the Recon OM DB's sequence numbers.
   */
  public static Map<String, String> state(long files, long omSeq, long reconOmDbSeq) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("files", String.valueOf(files));
    m.put("omSeq", String.valueOf(omSeq));
    m.put("reconOmDbSeq", String.valueOf(reconOmDbSeq));
    return m;
  }

  private static boolean labelling;

  /**
   * Labels each event processor thread (ReconTaskControllerImpl.start's ReconEventProcessor-N,
   * a thread the harness does not create) as the model's {@link #PROCESSOR}, at the entry of its
   * loop (processBufferedEventsAsync), before it polls: advice that only sets the recorder's
   * thread label, installed once per JVM before the first controller starts.
   */
  public static synchronized void labelProcessorThreads() {
    if (labelling) {
      return;
    }
    new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .ignore(net.bytebuddy.matcher.ElementMatchers.none())
        .type(named(CONTROLLER))
        .transform((b, type, cl, module, pd) -> b.visit((AsmVisitorWrapper) Advice
            .to(Label.class).on(named("processBufferedEventsAsync"))))
        .installOn(ByteBuddyAgent.install());
    labelling = true;
  }

  /** The advice: the processor thread plays the model's event processor from its loop's entry. */
  public static final class Label {
    private Label() {
    }

    @Advice.OnMethodEnter
    static void enter() {
      Recorder.act(PROCESSOR);
    }
  }
}
