package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.ozone.container.common.impl.ContainerSet;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import racelab.fix.Part;

/** container-recreate P1: the auto-create branch refuses an ID in container2BCSIDMap. */
public final class P1 extends Part {
  public static final P1 PART = new P1();

  private P1() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher", "dispatchRequest",
        Refuse.class);
  }

  @Override
  public String renders() {
    return "at HddsDispatcher.dispatchRequest's entry (on the dispatching thread, no lock, as the "
        + "auto-create branch takes none before containerCreationLocks): when the request would "
        + "take the auto-create branch (container absent, not missing; WriteChunk WRITE_DATA or "
        + "COMBINED, PutBlock, PutSmallFile, StreamInit) and the DispatcherContext's "
        + "container2BCSIDMap has the ID, answer CONTAINER_NOT_OPEN without dispatching; the "
        + "model refuses after its getContainer and missing-set reads, this reads them itself "
        + "first (the token check, which comes first in 2.2.0, is skipped: no token here)";
  }

  /** Replaces dispatchRequest with the refusal when it applies. */
  public static final class Refuse {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static ContainerCommandResponseProto enter(@Advice.FieldValue("containerSet") ContainerSet set,
        @Advice.Argument(0) ContainerCommandRequestProto msg,
        @Advice.Argument(1) DispatcherContext ctx) {
      if (!P1.PART.on() || N.PART.on()) {
        return null;
      }
      return Dn.refuseAutoCreate(set, msg, ctx, true, false, "P1");
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
