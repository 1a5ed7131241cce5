package racelab.fix.deadnode;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.scm.node.DatanodeInfo;
import org.apache.hadoop.hdds.scm.node.DeadNodeHandler;
import org.apache.hadoop.hdds.scm.node.NodeManager;
import org.apache.hadoop.hdds.scm.node.NodeStatus;
import racelab.fix.Part;

/**
 * dead-node P2: DeadNodeHandler.removeContainerReplicas takes the DatanodeInfo monitor, rechecks
 * DEAD under it and only then removes.
 */
public final class P2 extends Part {
  public static final P2 PART = new P2();
  /** Set while the released body runs under the monitor (the advice then falls through). */
  public static final ThreadLocal<Boolean> INSIDE = ThreadLocal.withInitial(() -> false);
  /** The DatanodeInfo whose monitor the recheck holds, while the released body runs. */
  public static final ThreadLocal<DatanodeInfo> HELD = new ThreadLocal<>();
  private static final Method REMOVE;

  static {
    try {
      REMOVE = DeadNodeHandler.class.getDeclaredMethod("removeContainerReplicas",
          DatanodeDetails.class);
      REMOVE.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private P2() {
    super("dead-node");
    advise("org.apache.hadoop.hdds.scm.node.DeadNodeHandler", "removeContainerReplicas",
        Recheck.class);
  }

  @Override
  public String renders() {
    return "DeadNodeHandler.removeContainerReplicas on the DEAD_NODE thread looks the node's "
        + "DatanodeInfo up (NodeManager.getDatanodeInfo, by ID), takes its monitor (the object "
        + "ContainerReportHandler synchronizes on), rereads getNodeStatus under it and runs the "
        + "released removal under the same monitor only if DEAD, else keeps the replicas; as the "
        + "model (the container set is read under the monitor too)";
  }

  /** The recheck under the monitor; runs the released body (re-entered) only if still DEAD. */
  public static void recheckUnderMonitor(DeadNodeHandler handler, NodeManager nm,
      DatanodeDetails dn) throws Exception {
    DatanodeInfo info = nm.getDatanodeInfo(dn);
    if (info == null) {
      return;
    }
    synchronized (info) {
      NodeStatus status = nm.getNodeStatus(dn);
      if (status.getHealth() != HddsProtos.NodeState.DEAD) {
        return; // keeps the replicas: the node is no longer DEAD
      }
      INSIDE.set(true);
      HELD.set(info);
      try {
        REMOVE.invoke(handler, dn);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception) {
          throw (Exception) cause;
        }
        throw (Error) cause;
      } finally {
        INSIDE.set(false);
        HELD.remove();
      }
    }
  }

  /** Replaces the body when on (and not re-entered from the recheck). */
  public static final class Recheck {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This DeadNodeHandler handler,
        @Advice.FieldValue("nodeManager") NodeManager nm,
        @Advice.Argument(0) DatanodeDetails dn) throws Exception {
      if (!P2.PART.on()) {
        return false;
      }
      if (P2.INSIDE.get()) {
        // The released body re-entered from the recheck: the patch's removal is one call (its
        // recheck, then the loop), and so is the model's; this inner call is not recorded.
        racelab.trace.Recorder.elide();
        return false;
      }
      P2.recheckUnderMonitor(handler, nm, dn);
      return true;
    }
  }
}
