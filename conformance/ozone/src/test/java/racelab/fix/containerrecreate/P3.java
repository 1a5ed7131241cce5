package racelab.fix.containerrecreate;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.ozone.container.common.impl.ContainerSet;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import racelab.fix.Part;

/** container-recreate P3: a tombstone for deleted IDs in the container ID table. */
public final class P3 extends Part {
  public static final P3 PART = new P3();

  private P3() {
    super("container-recreate");
    advise("org.apache.hadoop.ozone.container.common.impl.ContainerSet", "removeContainer",
        net.bytebuddy.matcher.ElementMatchers.named("removeContainer")
            .and(net.bytebuddy.matcher.ElementMatchers.takesArguments(3)), Write.class);
    advise("org.apache.hadoop.ozone.container.common.impl.ContainerSet",
        "deleteFromContainerTable", Keep.class);
    advise("org.apache.hadoop.ozone.container.common.impl.HddsDispatcher", "dispatchRequest",
        Refuse.class);
  }

  @Override
  public String renders() {
    return "ContainerSet.removeContainer(id, markMissing, removeFromDB) writes, at its start "
        + "(before containerMap.remove) and only when removeFromDB, a row in state DELETED in the "
        + "container ID table (WitnessedContainerMetadataStore's ContainerCreateInfo table), and "
        + "deleteFromContainerTable is skipped, so the row stays as the tombstone; "
        + "dispatchRequest's entry refuses the auto-create of a tombstoned ID with "
        + "CONTAINER_NOT_OPEN; P2 and P6 count it as remembered. Not rendered (no replay here "
        + "restarts or imports): the restart's buildMissingContainerSetAndValidate leaving a "
        + "tombstone unmarked, and import clearing it (an import's addContainer overwrites the "
        + "row in 2.2.0 anyway)";
  }

  /** The tombstone, before the map removal. */
  public static final class Write {
    @Advice.OnMethodEnter
    static void enter(@Advice.This ContainerSet set, @Advice.Argument(0) long id,
        @Advice.Argument(2) boolean removeFromDb) {
      if (P3.PART.on() && removeFromDb) {
        Dn.writeTombstone(set, id);
      }
    }
  }

  /** deleteFromContainerTable skipped: the row stays. */
  public static final class Keep {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter() {
      return P3.PART.on();
    }
  }

  /** The refusal of a tombstoned ID's auto-create. */
  public static final class Refuse {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static ContainerCommandResponseProto enter(@Advice.FieldValue("containerSet") ContainerSet set,
        @Advice.Argument(0) ContainerCommandRequestProto msg,
        @Advice.Argument(1) DispatcherContext ctx) {
      if (!P3.PART.on() || N.PART.on()) {
        return null;
      }
      return Dn.refuseAutoCreate(set, msg, ctx, false, true, "P3");
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
