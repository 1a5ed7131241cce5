package org.apache.hadoop.hdds.scm.ha;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.HddsConfigKeys;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.scm.PlacementPolicy;
import org.apache.hadoop.hdds.scm.container.ContainerManager;
import org.apache.hadoop.hdds.scm.container.replication.ContainerReplicaPendingOps;
import org.apache.hadoop.hdds.scm.container.replication.ReplicationManager;
import org.apache.hadoop.hdds.scm.container.replication.ReplicationManager.ReplicationManagerConfiguration;
import org.apache.hadoop.hdds.scm.node.NodeManager;
import org.apache.hadoop.hdds.scm.server.StorageContainerManager;
import org.apache.hadoop.hdds.scm.server.upgrade.FinalizationManager;
import org.apache.hadoop.hdds.server.events.EventPublisher;
import racelab.conformance.Threads;

/**
 * The real SCMStateMachine, SCMContext, SCMServiceManager and ReplicationManager of Ozone 2.2.0,
 * with the rest of the StorageContainerManager mocked. Written for racelab.
 */
final class LeaderReadyWiring {
  final SCMContext context;
  final SCMServiceManager services = new SCMServiceManager();
  final ReplicationManager replicationManager;
  final SCMHADBTransactionBuffer buffer = mock(SCMHADBTransactionBuffer.class);
  final SCMStateMachine stateMachine;

  LeaderReadyWiring(long term) throws Exception {
    StorageContainerManager scm = mock(StorageContainerManager.class);
    context = new SCMContext.Builder().setLeader(true).setTerm(term).setSCM(scm).build();
    OzoneConfiguration conf = new OzoneConfiguration();
    // services may run as soon as they are RUNNING (the report's shouldRun after the wait)
    conf.set(HddsConfigKeys.HDDS_SCM_WAIT_TIME_AFTER_SAFE_MODE_EXIT, "0s");
    replicationManager = new ReplicationManager(
        conf.getObject(ReplicationManagerConfiguration.class), conf,
        mock(ContainerManager.class), mock(PlacementPolicy.class), mock(PlacementPolicy.class),
        mock(EventPublisher.class), context, mock(NodeManager.class), Clock.systemUTC(),
        mock(ContainerReplicaPendingOps.class));
    services.register(replicationManager);
    when(scm.getScmContext()).thenReturn(context);
    when(scm.getSCMServiceManager()).thenReturn(services);
    when(scm.getFinalizationManager()).thenReturn(mock(FinalizationManager.class));
    when(scm.getScmId()).thenReturn("scm1");
    when(scm.threadNamePrefix()).thenReturn("scm1-");
    when(buffer.getLatestTrxInfo()).thenReturn(
        org.apache.hadoop.hdds.utils.TransactionInfo.DEFAULT_VALUE);
    stateMachine = new SCMStateMachine(scm, buffer);
    // a fresh leader: services computed from a context that is not ready yet
    services.notifyStatusChanged();
  }

  /**
   * Ratis' apply thread after LeaderStateImpl.checkReady passed for the startup entry: runs
   * {@code before} (where a replay waits for its order), then SCMStateMachine.notifyLeaderReady.
   */
  Thread applyThread(AtomicReference<Throwable> failed, Threads.Body before) {
    return Threads.recording("StateMachineUpdater", failed, () -> {
      before.run();
      stateMachine.notifyLeaderReady();
    });
  }

  /**
   * The Ratis thread of a step-down (RaftServerImpl.changeToFollower): notifyNotLeader, then
   * {@code after}, even when it throws.
   */
  Thread stepDownThread(AtomicReference<Throwable> failed, Runnable after) {
    return Threads.recording("RaftServer-changeToFollower", failed,
        () -> stateMachine.notifyNotLeader(Collections.emptyList()), after);
  }

  String state() {
    return "isLeader=" + context.isLeader() + " isLeaderReady=" + context.isLeaderReady()
        + " term=" + termOrFollower() + " ReplicationManager.shouldRun="
        + replicationManager.shouldRun();
  }

  private String termOrFollower() {
    try {
      return Long.toString(context.getTermOfLeader());
    } catch (Exception e) {
      return "(follower)";
    }
  }

  /** SCMStateMachine.close reaches for the Ratis server, which is not wired: nothing to do. */
  void close() {
  }
}
