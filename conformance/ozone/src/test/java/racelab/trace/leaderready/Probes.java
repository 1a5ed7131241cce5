package racelab.trace.leaderready;

import static racelab.trace.Recorder.field;

import java.util.LinkedHashMap;
import java.util.Map;
import racelab.trace.Probe;

/**
 * What leader-ready's trace observes on Ozone 2.2.0: the methods of its upstream.rs that run as
 * released code in the replays, each with the values the model's step records. Ratis' methods
 * (checkReady, changeToFollower, initElection, changeToLeader) are played by the harness, and the
 * transaction buffer is a mock: none of them is observed.
 */
public final class Probes {
  private Probes() {
  }

  private static final String CONTEXT = "org.apache.hadoop.hdds.scm.ha.SCMContext";

  /** Every probe, for {@link racelab.trace.Recorder#observe}. */
  public static final Probe[] ALL = {
      Probe.of("SCMContext.updateLeaderAndTerm", CONTEXT, "updateLeaderAndTerm")
          .reading((self, args, r, t) -> context(self)),
      Probe.of("SCMContext.setLeaderReady", CONTEXT, "setLeaderReady")
          .reading((self, args, r, t) -> context(self)),
      Probe.of("SCMStateMachine.notifyLeaderReady", "org.apache.hadoop.hdds.scm.ha.SCMStateMachine",
          "notifyLeaderReady"),
      Probe.of("ReplicationManager.notifyStatusChanged",
          "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager",
          "notifyStatusChanged").reading((self, args, r, t) -> service(self)),
      Probe.of("SCMBlockDeletingService.notifyStatusChanged",
          "org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService", "notifyStatusChanged")
          .reading((self, args, r, t) -> service(self)),
  };

  /** SCMContext's fields, named as the model's steps name them. */
  public static Map<String, String> context(Object context) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("isLeader", String.valueOf(field(context, "isLeader")));
    m.put("term", String.valueOf(field(context, "term")));
    m.put("isLeaderReady", String.valueOf(field(context, "isLeaderReady")));
    return m;
  }

  /** What a service's notifyStatusChanged read: the context's isLeaderReady. */
  private static Map<String, String> service(Object service) {
    return Map.of("isLeaderReady",
        String.valueOf(field(field(service, "scmContext"), "isLeaderReady")));
  }

  /** A service's status as the model's state names it: Running or Pausing. */
  public static String status(Object service) {
    String s = String.valueOf(field(service, "serviceStatus"));
    return s.charAt(0) + s.substring(1).toLowerCase();
  }
}
