package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerDataProto.State;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Result;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueContainer;
import racelab.fix.Part;

/**
 * container-recreate P8: a write that fails after checkContainerOpen on a replica no longer OPEN
 * answers CONTAINER_NOT_OPEN, not marked.
 */
public final class P8 extends Part {
  public static final P8 PART = new P8();

  private P8() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler", "checkContainerOpen",
        Passed.class);
    advise("org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler", "handleWriteChunk",
        Recheck.class);
    advise("org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler", "handlePutBlock",
        Recheck.class);
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher", "canIgnoreException",
        Pass.class);
  }

  @Override
  public String renders() {
    return "handleWriteChunk and handlePutBlock (on the dispatching thread): when their "
        + "checkContainerOpen passed (a ThreadLocal set at its exit) and the write then failed, "
        + "by any exception or any result but SUCCESS (2.2.0's failure here is the checked "
        + "UNABLE_TO_FIND_DATA_DIR, not the unchecked open failure the model names), the "
        + "replica's state is read again and, if not OPEN, the answer is CONTAINER_NOT_OPEN and "
        + "the exception is dropped; canIgnoreException passes CONTAINER_NOT_OPEN. "
        + "handleStreamInit is not advised (no replay streams)";
  }

  /** checkContainerOpen passed on this thread. */
  public static final class Passed {
    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.Thrown Throwable thrown) {
      if (P8.PART.on()) {
        Dn.CHECK_PASSED.set(thrown == null);
      }
    }
  }

  /** The catch after the check. */
  public static final class Recheck {
    @Advice.OnMethodEnter
    static void enter() {
      if (P8.PART.on()) {
        Dn.CHECK_PASSED.set(false);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.Argument(0) ContainerCommandRequestProto msg,
        @Advice.Argument(1) KeyValueContainer c,
        @Advice.Return(readOnly = false) ContainerCommandResponseProto ret,
        @Advice.Thrown(readOnly = false) Throwable thrown) {
      if (!P8.PART.on() || !Dn.CHECK_PASSED.get()) {
        return;
      }
      Dn.CHECK_PASSED.set(false);
      boolean failed = thrown != null || ret == null || ret.getResult() != Result.SUCCESS;
      if (failed && c.getContainerState() != State.OPEN) {
        ret = Dn.answer(msg, Result.CONTAINER_NOT_OPEN,
            "P8: the write failed, the replica is now " + c.getContainerState());
        thrown = null;
      }
    }
  }

  /** canIgnoreException passes CONTAINER_NOT_OPEN. */
  public static final class Pass {
    @Advice.OnMethodExit
    static void exit(@Advice.Argument(0) Result result,
        @Advice.Return(readOnly = false) boolean ignore) {
      if (P8.PART.on() && result == Result.CONTAINER_NOT_OPEN) {
        ignore = true;
      }
    }
  }
}
