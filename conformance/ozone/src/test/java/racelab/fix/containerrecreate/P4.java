package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.scm.container.ContainerInfo;
import racelab.fix.Part;

/** container-recreate P4: SCM never raises a CLOSED container's sequence id. */
public final class P4 extends Part {
  public static final P4 PART = new P4();
  public static final ThreadLocal<Boolean> IN_STATS = ThreadLocal.withInitial(() -> false);

  private P4() {
    super("container-recreate");
    advise("org.apache.hadoop.hdds.scm.container.AbstractContainerReportHandler",
        "updateContainerStats", Stats.class);
    advise("org.apache.hadoop.hdds.scm.container.ContainerInfo", "updateSequenceId",
        Keep.class);
  }

  @Override
  public String renders() {
    return "inside AbstractContainerReportHandler.updateContainerStats (the report thread, "
        + "under processContainerReplica's synchronized (containerInfo), as 2.2.0's raise), "
        + "ContainerInfo.updateSequenceId does nothing when the container is CLOSED and the new "
        + "id is higher (the HDDS-16448 error is still logged); other callers are untouched. No "
        + "replay here drives SCM: the rows holding P4 replay the datanode only";
  }

  /** Marks the report handler's stats update on this thread. */
  public static final class Stats {
    @Advice.OnMethodEnter
    static void enter() {
      if (P4.PART.on()) {
        IN_STATS.set(true);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      IN_STATS.set(false);
    }
  }

  /** The raise of a CLOSED container's sequence id, skipped. */
  public static final class Keep {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This ContainerInfo info, @Advice.Argument(0) long seq) {
      return P4.PART.on() && IN_STATS.get()
          && info.getState() == HddsProtos.LifeCycleState.CLOSED && seq > info.getSequenceId();
    }
  }
}
