package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Result;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Type;
import org.apache.hadoop.ozone.container.common.impl.ContainerSet;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import racelab.fix.Part;

/** container-recreate P2: COMMIT_DATA of an absent, remembered container: CONTAINER_NOT_OPEN. */
public final class P2 extends Part {
  public static final P2 PART = new P2();

  private P2() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher", "dispatchRequest",
        Refuse.class);
  }

  @Override
  public String renders() {
    return "at HddsDispatcher.dispatchRequest's entry: a WriteChunk in COMMIT_DATA whose "
        + "container is absent and not missing, and remembered (in the DispatcherContext's "
        + "container2BCSIDMap, or with P3 on tombstoned in the container ID table), answers "
        + "CONTAINER_NOT_OPEN without dispatching, where 2.2.0 answers CONTAINER_NOT_FOUND";
  }

  /** Replaces dispatchRequest with the answer when it applies. */
  public static final class Refuse {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static ContainerCommandResponseProto enter(@Advice.FieldValue("containerSet") ContainerSet set,
        @Advice.Argument(0) ContainerCommandRequestProto msg,
        @Advice.Argument(1) DispatcherContext ctx) {
      if (!P2.PART.on() || msg.getCmdType() != Type.WriteChunk || ctx == null
          || ctx.getStage() != DispatcherContext.WriteChunkStage.COMMIT_DATA) {
        return null;
      }
      long id = msg.getContainerID();
      if (set.getContainer(id) != null || set.getMissingContainerSet().contains(id)
          || !Dn.remembered(set, ctx.getContainer2BCSIDMap(), id)) {
        return null;
      }
      return Dn.answer(msg, Result.CONTAINER_NOT_OPEN, "P2: COMMIT_DATA of a remembered ID");
    }

    @Advice.OnMethodExit
    static void exit(@Advice.Enter ContainerCommandResponseProto refused,
        @Advice.Return(readOnly = false) ContainerCommandResponseProto ret) {
      if (refused != null) {
        ret = refused;
      }
    }
  }
}
