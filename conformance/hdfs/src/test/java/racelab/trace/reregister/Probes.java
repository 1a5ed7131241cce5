package racelab.trace.reregister;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;
import static racelab.trace.Recorder.field;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;
import racelab.trace.Probe;

/**
 * What reregister's trace observes on hadoop-hdfs 3.5.0: the methods of its upstream.rs that run
 * as released code in the replays (the DataNode side), each with the values the model's step
 * records. Not observed, and why:
 * <ul>
 * <li>the NameNode's methods (DatanodeManager.handleHeartbeat, registerDatanode,
 * removeDeadDatanode, FSNamesystem.handleHeartbeat, NameNodeRpcServer.blockReport and
 * blockReceivedAndDeleted, BlockManager.processReport): the replays' fake NameNode plays them;
 * <li>FsDatasetImpl.finalizeBlock and getBlockReports: the dataset is a mock;
 * <li>BPOfferService.processCommandFromActor: in RR_O2, RR_O3, RR_O6 and RR_O9 its call is the
 * model's setup (the scenario steps the command thread into it before handing it over), and
 * RR_O5's harness calls reRegister directly.
 * </ul>
 * CommandProcessingThread.enqueue is observed on its {@code DatanodeCommand[]} overload only, the
 * one a heartbeat's answer goes through (the model's enqueue); offerService also calls the
 * {@code List} overload after every FBR with the FBR's commands (null when there are none): a
 * call that does nothing, which the model makes no step of.
 */
public final class Probes {
  private Probes() {
  }

  private static final String ACTOR = "org.apache.hadoop.hdfs.server.datanode.BPServiceActor";
  private static final String SCHEDULER = ACTOR + "$Scheduler";
  private static final String CPT = ACTOR + "$CommandProcessingThread";
  private static final String IBR =
      "org.apache.hadoop.hdfs.server.datanode.IncrementalBlockReportManager";

  /**
   * The registrations an actor's NameNode has answered, counted as the model's bpRegistration
   * counts them (the one before the run included); set by a wiring that counts them, null
   * otherwise (the value is then not given).
   */
  public static volatile ToIntFunction<Object> registrations;

  /** Every probe, for {@link racelab.trace.Recorder#observe}. */
  public static final Probe[] ALL = {
      Probe.of("BPServiceActor.blockReport", ACTOR, "blockReport"),
      Probe.of("BPServiceActor.reRegister", ACTOR, "reRegister"),
      Probe.of("BPServiceActor.register", ACTOR, "register")
          .reading((self, args, r, t) -> register(self)),
      Probe.of("BPServiceActor.retrieveNamespaceInfo", ACTOR, "retrieveNamespaceInfo"),
      new Probe("CommandProcessingThread.enqueue", CPT,
          named("enqueue").and(takesArguments(
              org.apache.hadoop.hdfs.server.protocol.DatanodeCommand[].class)),
          (s, a, r, t) -> Map.of()),
      Probe.of("IncrementalBlockReportManager.clearIBRs", IBR, "clearIBRs"),
      Probe.of("IncrementalBlockReportManager.generateIBRs", IBR, "generateIBRs"),
      Probe.of("IncrementalBlockReportManager.notifyNamenodeBlock", IBR, "notifyNamenodeBlock")
          .reading((self, args, r, t) -> Map.of("readyToSend",
              String.valueOf(field(self, "readyToSend")))),
      Probe.of("IncrementalBlockReportManager.putMissing", IBR, "putMissing"),
      Probe.of("Scheduler.scheduleBlockReport", SCHEDULER, "scheduleBlockReport")
          .reading((self, args, r, t) -> Map.of("resetBlockReportTime",
              String.valueOf(field(self, "resetBlockReportTime")))),
      Probe.of("Scheduler.scheduleHeartbeat", SCHEDULER, "scheduleHeartbeat"),
      Probe.of("Scheduler.scheduleNextBlockReport", SCHEDULER, "scheduleNextBlockReport"),
  };

  /** What register leaves: the lease it resets, and the registration count where known. */
  private static Map<String, String> register(Object actor) {
    Map<String, String> m = new HashMap<>();
    m.put("fullBlockReportLeaseId", String.valueOf(field(actor, "fullBlockReportLeaseId")));
    ToIntFunction<Object> count = registrations;
    if (count != null) {
      m.put("bpRegistration", String.valueOf(count.applyAsInt(actor)));
    }
    return m;
  }
}
