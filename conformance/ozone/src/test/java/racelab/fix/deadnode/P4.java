package racelab.fix.deadnode;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;
import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.scm.node.DatanodeInfo;
import org.apache.hadoop.hdds.scm.node.NodeManager;
import org.apache.hadoop.hdds.scm.node.SCMNodeManager;
import org.apache.hadoop.util.Time;
import racelab.fix.Part;

/**
 * dead-node P4 (improved, racelab's own): under P2's monitor, after its DEAD recheck, the handler
 * also requires the heartbeat time to be past the stale deadline.
 */
public final class P4 extends Part {
  public static final P4 PART = new P4();

  private P4() {
    super("dead-node");
    advise("org.apache.hadoop.hdds.scm.node.DeadNodeHandler", "removeContainerReplicas",
        WithinStaleDeadline.class);
  }

  @Override
  public String renders() {
    return "inside P2's recheck (the released removal re-entered under the DatanodeInfo monitor, "
        + "after it read DEAD) the removal is skipped when that DatanodeInfo's lastHeartbeatTime "
        + ">= now - NodeStateManager's stale interval (read by reflection: the next health check "
        + "would resurrect the node); as the model, whose P4 is a condition of P2's recheck "
        + "(without P2 this advice does nothing)";
  }

  /** NodeStateManager's stale interval, from the handler's NodeManager. */
  static long staleIntervalMs(NodeManager nm) throws Exception {
    Object target = nm;
    if (Proxy.isProxyClass(target.getClass())
        && Proxy.getInvocationHandler(target) instanceof Supplier<?> s) {
      target = s.get(); // a test's recording proxy over the real SCMNodeManager
    }
    Field f = SCMNodeManager.class.getDeclaredField("nodeStateManager");
    f.setAccessible(true);
    Object nsm = f.get(target);
    Field stale = nsm.getClass().getDeclaredField("staleNodeIntervalMs");
    stale.setAccessible(true);
    return stale.getLong(nsm);
  }

  /** Whether the node under the monitor would be resurrected by the next health check. */
  public static boolean keeps(NodeManager nm) throws Exception {
    DatanodeInfo held = P2.HELD.get();
    return held != null
        && held.getLastHeartbeatTime() >= Time.monotonicNow() - staleIntervalMs(nm);
  }

  /** Skips the re-entered removal (inside P2's recheck) when within the stale deadline. */
  public static final class WithinStaleDeadline {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.FieldValue("nodeManager") NodeManager nm,
        @Advice.Argument(0) DatanodeDetails dn) throws Exception {
      if (!P4.PART.on() || !P2.INSIDE.get()) {
        return false;
      }
      if (!P4.keeps(nm)) {
        return false;
      }
      // The model's P4 makes no removal call here (its recheck keeps the replicas): the
      // re-entered call, whose body is skipped, is not recorded.
      racelab.trace.Recorder.elide();
      return true;
    }
  }
}
