package racelab.trace.deadnode;

import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.util.Map;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;
import racelab.trace.Probe;

/**
 * What dead-node's trace observes on Ozone 2.2.0: the methods of its upstream.rs that run as
 * released code in the replays (SCMNodeManager, NodeStateManager, NodeStateMap, DatanodeInfo,
 * DeadNodeHandler, ContainerReportHandler, ReconNodeManager). Not observed: the
 * ContainerManager (a stand-in in DeadNodeWiring: updateContainerReplica and reinitialize are
 * the harness's), EventQueue.fireEvent (the node manager's publisher is a mock), and
 * NodeStateMap.getAllDatanodeInfos (the harness's own reads in the stand-ins' answers, on the
 * handler thread, call it too). Values: the health NodeStateMap.updateNodeHealthState writes
 * (health=), whether a container report is a registration's (registration=). The replays
 * record the model's setup (the outage's health checks and the first DEAD_NODE handler run for
 * real, on threads labelled as the model's actors), so no thread calls Recorder.setupDone.
 * P2's rendering re-enters the released removeContainerReplicas under the monitor; that inner
 * call is elided (P2, P4), as the patch's removal is one call.
 */
public final class Probes {
  private Probes() {
  }

  private static final String SCM = "org.apache.hadoop.hdds.scm.";
  private static final String NODE_MANAGER = SCM + "node.SCMNodeManager";
  private static final String STATE_MANAGER = SCM + "node.NodeStateManager";
  private static final String STATE_MAP = SCM + "node.states.NodeStateMap";
  private static final String INFO = SCM + "node.DatanodeInfo";
  private static final String HANDLER = SCM + "node.DeadNodeHandler";
  private static final String REPORTS = SCM + "container.ContainerReportHandler";
  private static final String RECON = "org.apache.hadoop.ozone.recon.scm.ReconNodeManager";

  /** The method named so, not a bridge (onMessage(Object, EventPublisher) is one). */
  private static ElementMatcher.Junction<MethodDescription> method(String name) {
    return named(name).and(not(isBridge()));
  }

  private static Probe probe(String name, String type, ElementMatcher<MethodDescription> m) {
    return new Probe(name, type, m, (s, a, r, t) -> Map.of());
  }

  /** Every probe, for {@link racelab.trace.Recorder#observe}. */
  public static final Probe[] ALL = {
      // The four-argument register: the three-argument one delegates to it.
      probe("SCMNodeManager.register", NODE_MANAGER,
          method("register").and(takesArguments(4))),
      probe("SCMNodeManager.processHeartbeat", NODE_MANAGER, method("processHeartbeat")),
      probe("NodeStateManager.addNode", STATE_MANAGER, method("addNode")),
      probe("NodeStateManager.updateNode", STATE_MANAGER, method("updateNode")),
      probe("NodeStateManager.checkNodesHealth", STATE_MANAGER, method("checkNodesHealth")),
      probe("NodeStateManager.updateNodeState", STATE_MANAGER, method("updateNodeState")),
      probe("NodeStateMap.updateNodeHealthState", STATE_MAP, method("updateNodeHealthState"))
          .reading((self, args, r, t) -> Map.of("health", String.valueOf(args[1]))),
      probe("NodeStateMap.addContainer", STATE_MAP, method("addContainer")),
      // The heartbeat's refresh (no argument); the harness's clock moves the long one.
      probe("DatanodeInfo.updateLastHeartbeatTime", INFO,
          method("updateLastHeartbeatTime").and(takesArguments(0))),
      probe("DeadNodeHandler.onMessage", HANDLER, method("onMessage")),
      probe("DeadNodeHandler.closeContainers", HANDLER, method("closeContainers")),
      probe("DeadNodeHandler.removeContainerReplicas", HANDLER,
          method("removeContainerReplicas")),
      probe("ContainerReportHandler.onMessage", REPORTS, method("onMessage"))
          .reading((self, args, r, t) -> Map.of("registration", String.valueOf(
              ((org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher
                  .ContainerReportFromDatanode) args[0]).isRegister()))),
      probe("ContainerReportHandler.processMissingReplicas", REPORTS,
          method("processMissingReplicas")),
      probe("ReconNodeManager.loadExistingNodes", RECON, method("loadExistingNodes")),
      probe("ReconNodeManager.processHeartbeat", RECON, method("processHeartbeat")),
      probe("ReconNodeManager.register", RECON, method("register")),
      probe("ReconNodeManager.reinitialize", RECON, method("reinitialize")),
  };
}
