package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.scm.container.common.helpers.ContainerNotOpenException;
import org.apache.hadoop.ozone.container.common.impl.ContainerSet;
import racelab.fix.Part;

/** container-recreate P6: the leader's startTransaction rejects an absent, remembered ID. */
public final class P6 extends Part {
  public static final P6 PART = new P6();

  private P6() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher",
        "validateContainerCommand", Reject.class);
  }

  @Override
  public String renders() {
    return "at HddsDispatcher.validateContainerCommand's entry (called by 2.2.0's "
        + "ContainerStateMachine.startTransaction only, on the leader's Ratis RPC thread): an "
        + "absent container whose ID is in the pipeline's container2BCSIDMap (registered by the "
        + "harness that plays ContainerStateMachine: the method is not given the map) or, with "
        + "P3 on, tombstoned, throws ContainerNotOpenException, so nothing is appended";
  }

  /** The check before validateContainerCommand's own. */
  public static final class Reject {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object dispatcher,
        @Advice.FieldValue("containerSet") ContainerSet set,
        @Advice.Argument(0) ContainerCommandRequestProto msg) throws ContainerNotOpenException {
      if (!P6.PART.on()) {
        return;
      }
      long id = msg.getContainerID();
      if (set.getContainer(id) == null
          && Dn.remembered(set, Dn.pipelineMap(dispatcher), id)) {
        throw new ContainerNotOpenException(
            "racelab P6: container " + id + " is absent but remembered");
      }
    }
  }
}
