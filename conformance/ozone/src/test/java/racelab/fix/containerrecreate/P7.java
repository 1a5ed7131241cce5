package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerDataProto.State;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Result;
import org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueContainer;
import racelab.fix.Part;

/** container-recreate P7: CONTAINER_NOT_OPEN for a DELETED replica, passed by the dispatcher. */
public final class P7 extends Part {
  public static final P7 PART = new P7();

  private P7() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler", "checkContainerOpen",
        Check.class);
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher", "canIgnoreException",
        Pass.class);
  }

  @Override
  public String renders() {
    return "KeyValueHandler.checkContainerOpen throws StorageContainerException "
        + "CONTAINER_NOT_OPEN for a DELETED replica (one read of getContainerState, as 2.2.0's "
        + "own, no lock) instead of CONTAINER_INTERNAL_ERROR, and "
        + "HddsDispatcher.canIgnoreException returns true for CONTAINER_NOT_OPEN, so the "
        + "replica is not marked";
  }

  /** The DELETED case, before 2.2.0's switch. */
  public static final class Check {
    @Advice.OnMethodEnter
    static void enter(@Advice.Argument(0) KeyValueContainer c) throws StorageContainerException {
      if (P7.PART.on() && c.getContainerState() == State.DELETED) {
        throw new StorageContainerException(
            "racelab P7: Requested operation not allowed as ContainerState is DELETED",
            Result.CONTAINER_NOT_OPEN);
      }
    }
  }

  /** canIgnoreException passes CONTAINER_NOT_OPEN. */
  public static final class Pass {
    @Advice.OnMethodExit
    static void exit(@Advice.Argument(0) Result result,
        @Advice.Return(readOnly = false) boolean ignore) {
      if (P7.PART.on() && result == Result.CONTAINER_NOT_OPEN) {
        ignore = true;
      }
    }
  }
}
