package racelab.fix.containerrecreate;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerDataProto.State;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Result;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Type;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.protocolPB.ContainerCommandResponseBuilders;
import org.apache.hadoop.ozone.container.common.impl.ContainerSet;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import org.apache.hadoop.ozone.container.metadata.ContainerCreateInfo;

/**
 * What the datanode parts' advice shares: the decisions, as the model's dispatcher takes them
 * ({@code dispatcher.rs}: {@code remembered}, {@code auto_creates}), in racelab's own code. The
 * advice inlined into the released classes calls these static methods; no advised class gets a
 * field or a method.
 */
public final class Dn {
  private Dn() {
  }

  /**
   * The map each pipeline's ContainerStateMachine passes to its dispatcher, by dispatcher: what
   * P6's check in startTransaction reads (validateContainerCommand, which startTransaction calls,
   * is not given the map). The harness that plays ContainerStateMachine registers it.
   */
  private static final Map<Object, Map<Long, Long>> PIPELINE_MAPS =
      Collections.synchronizedMap(new WeakHashMap<>());

  public static void registerPipeline(Object dispatcher, Map<Long, Long> container2BCSIDMap) {
    PIPELINE_MAPS.put(dispatcher, container2BCSIDMap);
  }

  public static Map<Long, Long> pipelineMap(Object dispatcher) {
    return PIPELINE_MAPS.get(dispatcher);
  }

  /** P8: whether this thread's last checkContainerOpen passed. */
  public static final ThreadLocal<Boolean> CHECK_PASSED = ThreadLocal.withInitial(() -> false);

  /** P3's tombstone: a row of the container ID table in state DELETED. */
  public static boolean tombstoned(ContainerSet set, long id) {
    if (set.getContainerMetadataStore() == null) {
      return false;
    }
    try {
      ContainerCreateInfo row = set.getContainerMetadataStore().getContainerCreateInfoTable()
          .get(ContainerID.valueOf(id));
      return row != null && row.getState() == State.DELETED;
    } catch (Exception e) {
      throw new IllegalStateException("P3: reading the container ID table", e);
    }
  }

  /** P3: the tombstone row, written where removeContainer starts (before containerMap.remove). */
  public static void writeTombstone(ContainerSet set, long id) {
    if (set.getContainerMetadataStore() == null) {
      return;
    }
    try {
      set.getContainerMetadataStore().getContainerCreateInfoTable().put(ContainerID.valueOf(id),
          ContainerCreateInfo.valueOf(State.DELETED, ContainerCreateInfo.INVALID_REPLICA_INDEX));
    } catch (Exception e) {
      throw new IllegalStateException("P3: writing the tombstone", e);
    }
  }

  /** Whether the datanode remembers {@code id} (the map; with P3 on, the tombstone too). */
  public static boolean remembered(ContainerSet set, Map<Long, Long> map, long id) {
    return map != null && map.containsKey(id) || P3.PART.on() && tombstoned(set, id);
  }

  /**
   * dispatchRequest's auto-create branch would be taken: the container absent, not missing,
   * and a WriteChunk in WRITE_DATA (or COMBINED), a PutBlock, a PutSmallFile or a StreamInit.
   */
  public static boolean autoCreates(ContainerSet set, ContainerCommandRequestProto msg,
      DispatcherContext ctx) {
    long id = msg.getContainerID();
    if (set.getContainer(id) != null || set.getMissingContainerSet().contains(id)) {
      return false;
    }
    Type t = msg.getCmdType();
    DispatcherContext.WriteChunkStage stage = ctx == null ? null : ctx.getStage();
    return t == Type.WriteChunk && (ctx == null
        || stage == DispatcherContext.WriteChunkStage.WRITE_DATA
        || stage == DispatcherContext.WriteChunkStage.COMBINED)
        || t == Type.PutBlock || t == Type.PutSmallFile || t == Type.StreamInit;
  }

  public static ContainerCommandResponseProto answer(ContainerCommandRequestProto msg,
      Result result, String why) {
    return ContainerCommandResponseBuilders.getContainerCommandResponse(msg, result,
        "racelab " + why + ": container " + msg.getContainerID()).build();
  }

  /** P1 (the map) or P3 (the tombstone) refuses this auto-create; N changes the answer. */
  public static ContainerCommandResponseProto refuseAutoCreate(ContainerSet set,
      ContainerCommandRequestProto msg, DispatcherContext ctx, boolean byMap,
      boolean byTombstone, String part) {
    if (!autoCreates(set, msg, ctx)) {
      return null;
    }
    long id = msg.getContainerID();
    Map<Long, Long> map = ctx == null ? null : ctx.getContainer2BCSIDMap();
    boolean refused = byMap && map != null && map.containsKey(id)
        || byTombstone && tombstoned(set, id);
    if (!refused) {
      return null;
    }
    return N.PART.on()
        ? answer(msg, Result.CONTAINER_NOT_FOUND, part + "+N: auto-create refused")
        : answer(msg, Result.CONTAINER_NOT_OPEN, part + ": auto-create refused");
  }
}
