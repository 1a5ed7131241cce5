package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos.ContainerReplicaProto;
import org.apache.hadoop.hdds.scm.container.ContainerInfo;
import org.apache.hadoop.hdds.scm.container.ContainerReplica;
import racelab.fix.Part;

/**
 * container-recreate P5: a CLOSED replica whose BCSID differs from a CLOSED container's sequence
 * id is unhealthy.
 */
public final class P5 extends Part {
  public static final P5 PART = new P5();
  public static final ThreadLocal<ContainerInfo> COUNTING = new ThreadLocal<>();

  private P5() {
    super("container-recreate");
    advise("org.apache.hadoop.hdds.scm.container.replication.RatisContainerReplicaCount",
        "countReplicas", Count.class);
    advise("org.apache.hadoop.hdds.scm.container.ContainerReplica", "getState", Seen.class);
  }

  @Override
  public String renders() {
    return "PARTIAL: only RatisContainerReplicaCount.countReplicas: while it counts, a CLOSED "
        + "replica of a CLOSED container with another sequence id reads as QUASI_CLOSED, which "
        + "2.2.0's own rule there counts unhealthy (not healthy, not matching). The model's P5 "
        + "also makes it never a source (RatisUnderReplicationHandler.getSources) and deleted "
        + "first (RatisOverReplicationHandler), which read replica states elsewhere: not "
        + "rendered. No replay here drives SCM: the rows holding P5 replay the datanode only";
  }

  /** The container being counted, on this thread. */
  public static final class Count {
    @Advice.OnMethodEnter
    static void enter(@Advice.FieldValue("container") ContainerInfo container) {
      if (P5.PART.on()) {
        COUNTING.set(container);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      COUNTING.remove();
    }
  }

  /** A mismatched CLOSED replica seen as the unhealthy QUASI_CLOSED case. */
  public static final class Seen {
    @Advice.OnMethodExit
    static void exit(@Advice.This ContainerReplica replica,
        @Advice.Return(readOnly = false) ContainerReplicaProto.State state) {
      if (!P5.PART.on()) {
        return;
      }
      ContainerInfo c = COUNTING.get();
      if (c != null && state == ContainerReplicaProto.State.CLOSED
          && c.getState() == HddsProtos.LifeCycleState.CLOSED
          && replica.getSequenceId() != null && replica.getSequenceId() != c.getSequenceId()) {
        state = ContainerReplicaProto.State.QUASI_CLOSED;
      }
    }
  }
}
