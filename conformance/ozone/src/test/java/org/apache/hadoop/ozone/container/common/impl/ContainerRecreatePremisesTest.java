package org.apache.hadoop.ozone.container.common.impl;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerDataProto.State;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerType;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Type;
import org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException;
import org.apache.hadoop.ozone.container.common.helpers.ContainerMetrics;
import org.apache.hadoop.hdds.scm.protocolPB.ContainerCommandResponseBuilders;
import org.apache.hadoop.ozone.container.common.interfaces.Handler;
import org.apache.hadoop.ozone.container.common.statemachine.StateContext;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import org.apache.hadoop.ozone.container.common.volume.VolumeSet;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueContainer;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import racelab.conformance.Premise;

/**
 * container-recreate (HDDS-17643): premises on Ozone 2.2.0's HddsDispatcher and
 * KeyValueHandler (hdds-container-service). The handler behind the dispatcher is a mock that
 * records what the dispatcher asks of it; the ContainerSet is the real one. Written for
 * racelab; nothing here is copied from upstream.
 */
public class ContainerRecreatePremisesTest {

  private static final long C = 7;

  static KeyValueContainer openReplica(long id) {
    KeyValueContainerData data = mock(KeyValueContainerData.class);
    when(data.getContainerID()).thenReturn(id);
    when(data.getState()).thenReturn(State.OPEN);
    org.apache.hadoop.ozone.container.common.volume.HddsVolume volume =
        mock(org.apache.hadoop.ozone.container.common.volume.HddsVolume.class);
    when(volume.getCurrentUsage()).thenReturn(
        new org.apache.hadoop.hdds.fs.SpaceUsageSource.Fixed(1L << 40, 1L << 39, 0));
    when(data.getVolume()).thenReturn(volume);
    KeyValueContainer c = mock(KeyValueContainer.class);
    when(c.getContainerData()).thenReturn(data);
    when(c.getContainerType()).thenReturn(ContainerType.KeyValueContainer);
    when(c.getContainerState()).thenReturn(State.OPEN);
    return c;
  }

  static ContainerCommandRequestProto writeChunk(long id) {
    ContainerProtos.DatanodeBlockID block = ContainerProtos.DatanodeBlockID.newBuilder()
        .setContainerID(id).setLocalID(1001).setBlockCommitSequenceId(0).build();
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.WriteChunk)
        .setContainerID(id).setDatanodeUuid(UUID.randomUUID().toString())
        .setWriteChunk(ContainerProtos.WriteChunkRequestProto.newBuilder().setBlockID(block)
            .setChunkData(ContainerProtos.ChunkInfo.newBuilder().setChunkName("c1")
                .setOffset(0).setLen(1024).setChecksumData(ContainerProtos.ChecksumData
                    .newBuilder().setType(ContainerProtos.ChecksumType.NONE)
                    .setBytesPerChecksum(1024).build()).build()))
        .build();
  }

  static ContainerCommandRequestProto putBlock(long id) {
    ContainerProtos.DatanodeBlockID block = ContainerProtos.DatanodeBlockID.newBuilder()
        .setContainerID(id).setLocalID(1001).setBlockCommitSequenceId(0).build();
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.PutBlock)
        .setContainerID(id).setDatanodeUuid(UUID.randomUUID().toString())
        .setPutBlock(ContainerProtos.PutBlockRequestProto.newBuilder().setBlockData(
            ContainerProtos.BlockData.newBuilder().setBlockID(block)))
        .build();
  }

  /**
   * CR-P1: with C deleted on this datanode (absent from the ContainerSet, still in the
   * pipeline's container2BCSIDMap), WriteChunk in WRITE_DATA and PutBlock at apply each
   * auto-create C; container2BCSIDMap is not consulted (WRITE_DATA leaves its old entry, a
   * successful PutBlock overwrites it with the recreated replica's BCSID).
   */
  @Test
  public void CR_P1_autoCreateOnWriteChunkAndPutBlock() throws Exception {
    List<String> asked = new ArrayList<>();
    boolean recreatedBoth = true;
    for (String stage : new String[] {"WriteChunk/WRITE_DATA", "PutBlock/APPLY_TRANSACTION"}) {
      ContainerSet set = ContainerSet.newReadOnlyContainerSet(1000);
      Handler handler = mock(Handler.class);
      when(handler.handle(any(), any(), any())).thenAnswer(inv -> {
        ContainerCommandRequestProto req = inv.getArgument(0);
        asked.add(stage + ": " + req.getCmdType());
        if (req.getCmdType() == Type.CreateContainer) {
          set.addContainer(openReplica(req.getContainerID()));
        }
        return ContainerCommandResponseBuilders.getSuccessResponse(req);
      });
      Map<ContainerType, Handler> handlers = new HashMap<>();
      handlers.put(ContainerType.KeyValueContainer, handler);
      HddsDispatcher d = new HddsDispatcher(new OzoneConfiguration(), set,
          mock(VolumeSet.class), handlers, mock(StateContext.class),
          ContainerMetrics.create(new OzoneConfiguration()), null);
      Map<Long, Long> container2BCSIDMap = new HashMap<>();
      container2BCSIDMap.put(C, 100L); // C existed in this pipeline: closed at BCSID 100
      ContainerCommandResponseProto r;
      if (stage.startsWith("WriteChunk")) {
        r = d.dispatch(writeChunk(C), DispatcherContext
            .newBuilder(DispatcherContext.Op.WRITE_STATE_MACHINE_DATA)
            .setStage(DispatcherContext.WriteChunkStage.WRITE_DATA).setTerm(1).setLogIndex(200)
            .setContainer2BCSIDMap(container2BCSIDMap).build());
      } else {
        r = d.dispatch(putBlock(C), DispatcherContext
            .newBuilder(DispatcherContext.Op.APPLY_TRANSACTION).setTerm(1).setLogIndex(201)
            .setContainer2BCSIDMap(container2BCSIDMap).build());
      }
      boolean created = set.getContainer(C) != null;
      // WRITE_DATA: putIfAbsent(C, 0) leaves the old entry; a successful PutBlock then sets
      // the entry to the recreated replica's BCSID (updateBCSID; 0 for this stand-in replica)
      long expectedEntry = stage.startsWith("WriteChunk") ? 100L
          : set.getContainer(C).getBlockCommitSequenceId();
      recreatedBoth &= r.getResult() == ContainerProtos.Result.SUCCESS && created
          && container2BCSIDMap.get(C) == expectedEntry;
      asked.add(stage + " -> " + r.getResult() + ", replica present=" + created
          + ", container2BCSIDMap[C]=" + container2BCSIDMap.get(C));
      ContainerMetrics.remove();
    }
    Premise.check(
        "HddsDispatcher.dispatchRequest auto-creates a container absent from the ContainerSet "
            + "on WriteChunk (WRITE_DATA) and on PutBlock (apply), whatever "
            + "container2BCSIDMap records for it (no containerAutoCreate check in 2.2.0)",
        recreatedBoth, String.join("; ", asked));
  }

  /** CR-P2: checkContainerOpen answers CONTAINER_INTERNAL_ERROR for a DELETED replica. */
  @Test
  public void CR_P2_checkContainerOpenForDeleted() throws Exception {
    KeyValueHandler h = mock(KeyValueHandler.class,
        withSettings().defaultAnswer(Mockito.CALLS_REAL_METHODS));
    Method check = KeyValueHandler.class.getDeclaredMethod("checkContainerOpen",
        KeyValueContainer.class);
    check.setAccessible(true);
    Map<State, String> seen = new java.util.LinkedHashMap<>();
    for (State s : new State[] {State.DELETED, State.CLOSED, State.OPEN}) {
      KeyValueContainer c = mock(KeyValueContainer.class);
      when(c.getContainerState()).thenReturn(s);
      try {
        check.invoke(h, c);
        seen.put(s, "allowed");
      } catch (InvocationTargetException e) {
        Throwable t = e.getCause();
        seen.put(s, t instanceof StorageContainerException
            ? ((StorageContainerException) t).getResult().toString() : t.toString());
      }
    }
    Premise.check(
        "KeyValueHandler.checkContainerOpen answers CONTAINER_INTERNAL_ERROR for a DELETED "
            + "replica (CLOSED_CONTAINER_IO for CLOSED)",
        "CONTAINER_INTERNAL_ERROR".equals(seen.get(State.DELETED))
            && "CLOSED_CONTAINER_IO".equals(seen.get(State.CLOSED))
            && "allowed".equals(seen.get(State.OPEN)),
        seen.toString());
  }
}
