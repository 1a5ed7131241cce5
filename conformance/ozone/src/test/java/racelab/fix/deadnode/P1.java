package racelab.fix.deadnode;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos.SCMRegisteredResponseProto.ErrorCode;
import org.apache.hadoop.hdds.scm.node.DatanodeInfo;
import org.apache.hadoop.hdds.scm.node.SCMNodeManager;
import org.apache.hadoop.ozone.protocol.commands.RegisteredCommand;
import racelab.fix.Part;

/** dead-node P1: SCMNodeManager.register refreshes the heartbeat time of a known node. */
public final class P1 extends Part {
  public static final P1 PART = new P1();

  private P1() {
    super("dead-node");
    advise("org.apache.hadoop.hdds.scm.node.SCMNodeManager", "register(4 args)",
        named("register").and(takesArguments(4)), Refresh.class);
  }

  @Override
  public String renders() {
    return "SCMNodeManager.register (the four-argument one every registration, Recon's included, "
        + "goes through) calls DatanodeInfo.updateLastHeartbeatTime() on the RPC thread for a node "
        + "that was registered when the call began and whose registration succeeded (a fenced, "
        + "errorNodeNotPermitted one is not refreshed), at the end of register, before the caller "
        + "fires the registration report; as the model, no lock beyond DatanodeInfo's own";
  }

  /** Called by the advice: the refresh, by ID, on the node's current DatanodeInfo. */
  public static void refresh(SCMNodeManager nm, DatanodeDetails dn, RegisteredCommand result) {
    if (result == null || result.getError() != ErrorCode.success) {
      return;
    }
    DatanodeInfo info = nm.getDatanodeInfo(dn);
    if (info != null) {
      info.updateLastHeartbeatTime();
    }
  }

  /** Remembers at entry whether the node was known; refreshes at a successful exit. */
  public static final class Refresh {
    @Advice.OnMethodEnter
    static boolean enter(@Advice.This SCMNodeManager nm, @Advice.Argument(0) DatanodeDetails dn) {
      return P1.PART.on() && Boolean.TRUE.equals(nm.isNodeRegistered(dn));
    }

    @Advice.OnMethodExit
    static void exit(@Advice.Enter boolean known, @Advice.This SCMNodeManager nm,
        @Advice.Argument(0) DatanodeDetails dn, @Advice.Return RegisteredCommand result) {
      if (known) {
        P1.refresh(nm, dn, result);
      }
    }
  }
}
