package racelab.fix.deadnode;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.scm.node.NodeManager;
import racelab.fix.Part;

/**
 * dead-node P2u (the precedent HDDS-14834's way, not a part of the fix): a second getNodeStatus
 * right before removeContainerReplicas, without the DatanodeInfo monitor.
 */
public final class P2u extends Part {
  public static final P2u PART = new P2u();

  private P2u() {
    super("dead-node");
    advise("org.apache.hadoop.hdds.scm.node.DeadNodeHandler", "removeContainerReplicas",
        Reread.class);
  }

  @Override
  public String renders() {
    return "P2 written as HDDS-14834 wrote its topology guard (which 2.2.0's onMessage holds for "
        + "the topology only): at the entry of DeadNodeHandler.removeContainerReplicas, on the "
        + "DEAD_NODE thread, getNodeStatus is read again with no monitor and the released removal "
        + "runs only if DEAD; as the model";
  }

  /** Skips the released removal when the reread is not DEAD. */
  public static final class Reread {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.FieldValue("nodeManager") NodeManager nm,
        @Advice.Argument(0) DatanodeDetails dn) throws Exception {
      if (!P2u.PART.on()) {
        return false;
      }
      return nm.getNodeStatus(dn).getHealth() != HddsProtos.NodeState.DEAD;
    }
  }
}
