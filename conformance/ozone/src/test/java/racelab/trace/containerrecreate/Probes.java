package racelab.trace.containerrecreate;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;
import static racelab.trace.Recorder.field;

import java.util.LinkedHashMap;
import java.util.Map;
import racelab.trace.Probe;

/**
 * What container-recreate's trace observes on Ozone 2.2.0: the methods of its upstream.rs that
 * run as released code in the replays (the leader's dispatcher and KeyValueHandler, the force
 * delete's ContainerSet, KeyValueContainer and KeyValueContainerUtil, SCM's report handler), each
 * with the values the model's step records. The harness plays ContainerStateMachine
 * (startTransaction, handleCommandResult, applyTransaction) and the command handlers: none of
 * them is observed. Written for racelab.
 */
public final class Probes {
  private Probes() {
  }

  private static final String DISPATCHER =
      "org.apache.hadoop.ozone.container.common.impl.HddsDispatcher";
  private static final String HANDLER = "org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler";
  private static final String SET = "org.apache.hadoop.ozone.container.common.impl.ContainerSet";

  /** Every probe, for {@link racelab.trace.Recorder#observe}. */
  public static final Probe[] ALL = {
      Probe.of("HddsDispatcher.dispatchRequest", DISPATCHER, "dispatchRequest")
          .reading((self, args, r, t) -> dispatched(args, r)),
      Probe.of("KeyValueHandler.handleCreateContainer", HANDLER, "handleCreateContainer")
          .reading((self, args, r, t) -> created(self, args, r)),
      Probe.of("KeyValueHandler.handleWriteChunk", HANDLER, "handleWriteChunk")
          .reading((self, args, r, t) -> handled(args[1], r)),
      Probe.of("KeyValueHandler.handlePutBlock", HANDLER, "handlePutBlock")
          .reading((self, args, r, t) -> handled(args[1], r)),
      Probe.of("KeyValueHandler.handleCloseContainer", HANDLER, "handleCloseContainer")
          .reading((self, args, r, t) -> handled(args[1], r)),
      Probe.of("KeyValueHandler.deleteInternal", HANDLER, "deleteInternal")
          .reading((self, args, r, t) -> Map.of("force", String.valueOf(args[1]))),
      Probe.of("ContainerSet.getContainerWithWriteLock", SET, "getContainerWithWriteLock"),
      Probe.of("KeyValueContainer.markContainerForDelete",
          "org.apache.hadoop.ozone.container.keyvalue.KeyValueContainer", "markContainerForDelete")
          .reading((self, args, r, t) -> replica(self)),
      // the public removeContainer(long), not the private overload it calls
      new Probe("ContainerSet.removeContainer", SET,
          named("removeContainer").and(takesArguments(1)), (self, args, r, t) -> Map.of()),
      Probe.of("KeyValueContainerUtil.removeContainer",
          "org.apache.hadoop.ozone.container.keyvalue.helpers.KeyValueContainerUtil",
          "removeContainer").reading((self, args, r, t) -> Map.of()),
      Probe.of("AbstractContainerReportHandler.processContainerReplica",
          "org.apache.hadoop.hdds.scm.container.AbstractContainerReportHandler",
          "processContainerReplica").reading((self, args, r, t) -> reported(args)),
  };

  /** A response's result, when there is one. */
  private static void result(Map<String, String> m, Object response) {
    if (response != null) {
      m.put("result", String.valueOf(
          ((org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos
              .ContainerCommandResponseProto) response).getResult()));
    }
  }

  /** dispatchRequest: its result, and container2BCSIDMap[c] after it (what updateBCSID set). */
  private static Map<String, String> dispatched(Object[] args, Object response) {
    Map<String, String> m = new LinkedHashMap<>();
    result(m, response);
    var req = (org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos
        .ContainerCommandRequestProto) args[0];
    var ctx = (org.apache.hadoop.ozone.container.common.transport.server.ratis
        .DispatcherContext) args[1];
    if (ctx != null && ctx.getContainer2BCSIDMap() != null) {
      Object bcsid = ctx.getContainer2BCSIDMap().get(req.getContainerID());
      if (bcsid != null) {
        m.put("container2BCSIDMap[c" + req.getContainerID() + "]", String.valueOf(bcsid));
      }
    }
    return m;
  }

  /** handleCreateContainer: its result; the replica it added (its state and BCSID). */
  private static Map<String, String> created(Object handler, Object[] args, Object response)
      throws Exception {
    Map<String, String> m = new LinkedHashMap<>();
    result(m, response);
    var req = (org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos
        .ContainerCommandRequestProto) args[0];
    Object set = field(handler, "containerSet");
    Object map = field(set, "containerMap");
    Object c = ((Map<?, ?>) map).get(req.getContainerID());
    if (c != null) {
      m.putAll(replica(c));
    }
    return m;
  }

  /** A handler method's result, and the replica it was given after it (state, BCSID). */
  private static Map<String, String> handled(Object container, Object response) {
    Map<String, String> m = new LinkedHashMap<>();
    result(m, response);
    if (container != null) {
      m.putAll(replica(container));
    }
    return m;
  }

  /** A KeyValueContainer's state and BCSID, read from its data's fields (no lock). */
  public static Map<String, String> replica(Object container) {
    Object data = field(container, "containerData");
    Map<String, String> m = new LinkedHashMap<>();
    m.put("state", modelName(String.valueOf(field(data, "state"))));
    m.put("bcsid", String.valueOf(field(data, "blockCommitSequenceId")));
    return m;
  }

  /** A state as the model's {@code State} names it: OPEN → Open, QUASI_CLOSED → QuasiClosed. */
  public static String modelName(String state) {
    StringBuilder b = new StringBuilder();
    for (String w : state.split("_")) {
      if (!w.isEmpty()) {
        b.append(w.charAt(0)).append(w.substring(1).toLowerCase());
      }
    }
    return b.toString();
  }

  /** processContainerReplica: the replica reported (state, BCSID) and SCM's sequence id after. */
  private static Map<String, String> reported(Object[] args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Object a : args) {
      if (a instanceof org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos
          .ContainerReplicaProto p) {
        m.put("state", modelName(String.valueOf(p.getState())));
        m.put("bcsid", String.valueOf(p.getBlockCommitSequenceId()));
      }
      if (a instanceof org.apache.hadoop.hdds.scm.container.ContainerInfo info) {
        m.put("seq", String.valueOf(field(info, "sequenceId")));
      }
    }
    return m;
  }
}
