package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.ozone.container.common.impl.ContainerSet;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import racelab.fix.Part;

/**
 * container-recreate N: HDDS-15791's answer in place of P1's (and P3's): a refused auto-create
 * answers CONTAINER_NOT_FOUND.
 */
public final class N extends Part {
  public static final N PART = new N();

  private N() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher", "dispatchRequest",
        Refuse.class);
  }

  @Override
  public String renders() {
    return "with N on, the refusal of P1 (and P3, when on) is made by N's own entry advice on "
        + "HddsDispatcher.dispatchRequest, answering CONTAINER_NOT_FOUND as 2.2.0's successors "
        + "answer containerAutoCreate=false (HDDS-15791 is not in 2.2.0: its flag is not read); "
        + "P1's and P3's advice stand aside, so the answer does not depend on the advice order";
  }

  /** The refusal of P1/P3 with HDDS-15791's answer. */
  public static final class Refuse {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static ContainerCommandResponseProto enter(@Advice.FieldValue("containerSet") ContainerSet set,
        @Advice.Argument(0) ContainerCommandRequestProto msg,
        @Advice.Argument(1) DispatcherContext ctx) {
      if (!N.PART.on()) {
        return null;
      }
      return Dn.refuseAutoCreate(set, msg, ctx, P1.PART.on(), P3.PART.on(),
          P1.PART.on() ? "P1" : "P3");
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
