package org.apache.hadoop.hdds.scm.ha;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.HddsConfigKeys;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.conf.ReconfigurationHandler;
import org.apache.hadoop.hdds.scm.PlacementPolicy;
import org.apache.hadoop.hdds.scm.ScmConfig;
import org.apache.hadoop.hdds.scm.block.BlockManager;
import org.apache.hadoop.hdds.scm.block.DeletedBlockLogImpl;
import org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService;
import org.apache.hadoop.hdds.scm.block.ScmBlockDeletingServiceMetrics;
import org.apache.hadoop.hdds.scm.container.ContainerManager;
import org.apache.hadoop.hdds.scm.container.replication.ContainerReplicaPendingOps;
import org.apache.hadoop.hdds.scm.container.replication.ReplicationManager;
import org.apache.hadoop.hdds.scm.container.replication.ReplicationManager.ReplicationManagerConfiguration;
import org.apache.hadoop.hdds.scm.node.NodeDecommissionManager;
import org.apache.hadoop.hdds.scm.node.NodeManager;
import org.apache.hadoop.hdds.scm.safemode.SCMSafeModeManager;
import org.apache.hadoop.hdds.scm.server.SCMStorageConfig;
import org.apache.hadoop.hdds.scm.server.StorageContainerManager;
import org.apache.hadoop.hdds.scm.server.upgrade.FinalizationManager;
import org.apache.hadoop.hdds.server.events.EventPublisher;
import org.apache.ratis.proto.RaftProtos.RaftConfigurationProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import racelab.conformance.Threads;
import racelab.search.Mocks;
import racelab.trace.Recorder;
import racelab.trace.leaderready.Probes;

/**
 * The real SCMStateMachine, SCMContext, SCMServiceManager, ReplicationManager and
 * SCMBlockDeletingService of Ozone 2.2.0, with the rest of the StorageContainerManager mocked.
 * Ratis is played by the harness: its current term is {@link #ratisTerm}, which the mocked
 * {@code getDivision().getInfo().getCurrentTerm()} returns (the source notifyLeaderChanged and
 * the patch read), and its callbacks are the harness threads' calls. Written for racelab.
 */
final class LeaderReadyWiring {
  static final RaftPeerId SELF = RaftPeerId.valueOf("scm1");

  final SCMContext context;
  final SCMServiceManager services = new SCMServiceManager();
  final ReplicationManager replicationManager;
  final SCMBlockDeletingService blockDeletingService;
  final SCMHADBTransactionBuffer buffer = mock(SCMHADBTransactionBuffer.class);
  final SCMStateMachine stateMachine;
  /** Ratis' ServerState.currentTerm, as the harness playing Ratis sets it. */
  final AtomicLong ratisTerm;
  /** The hold in scm.getScmContext(), the first call of notifyLeaderReady's body. */
  final Hold hold = new Hold();
  private final RaftGroupMemberId member = RaftGroupMemberId.valueOf(SELF, RaftGroupId.randomId());

  LeaderReadyWiring(long term) throws Exception {
    Recorder.observe("leader-ready", Probes.ALL);
    ratisTerm = new AtomicLong(term);
    // StorageContainerManager is a final class: where Mockito makes subclass mocks only (the
    // Fray JVM, racelab.search.Mocks) the released class itself, built without a constructor,
    // its getters returning the collaborators set below (byHand); elsewhere a mock
    boolean byHand = Mocks.subclassOnly();
    StorageContainerManager scm = byHand ? Mocks.allocate(StorageContainerManager.class)
        : mock(StorageContainerManager.class);
    context = new SCMContext.Builder().setLeader(true).setTerm(term).setSCM(scm).build();
    // every mock made and stubbed, and the state machine built, before the ReplicationManager
    // starts its threads: under Fray, steps taken beside them are scheduling choices
    DeletedBlockLogImpl deletedBlockLog = mock(DeletedBlockLogImpl.class);
    ContainerManager containers = mock(ContainerManager.class);
    PlacementPolicy placement = mock(PlacementPolicy.class);
    PlacementPolicy ecPlacement = mock(PlacementPolicy.class);
    EventPublisher rmEvents = mock(EventPublisher.class);
    NodeManager rmNodes = mock(NodeManager.class);
    ContainerReplicaPendingOps pendingOps = mock(ContainerReplicaPendingOps.class);
    NodeManager bdsNodes = mock(NodeManager.class);
    EventPublisher bdsEvents = mock(EventPublisher.class);
    ScmBlockDeletingServiceMetrics bdsMetrics = byHand
        ? Mocks.allocate(ScmBlockDeletingServiceMetrics.class)
        : mock(ScmBlockDeletingServiceMetrics.class);
    ReconfigurationHandler reconfiguration = mock(ReconfigurationHandler.class);
    // Ratis' term, where notifyLeaderChanged (and the patch) read it
    SCMHAManager ha = mock(SCMHAManager.class);
    SCMRatisServer ratis = mock(SCMRatisServer.class);
    RaftServer.Division division = mock(RaftServer.Division.class);
    DivisionInfo info = mock(DivisionInfo.class);
    when(ha.getRatisServer()).thenReturn(ratis);
    when(ratis.getDivision()).thenReturn(division);
    when(division.getInfo()).thenReturn(info);
    when(info.getCurrentTerm()).thenAnswer(i -> ratisTerm.get());
    FinalizationManager finalization = mock(FinalizationManager.class);
    // what notifyLeaderChanged touches besides SCMContext
    SCMSafeModeManager safeMode = mock(SCMSafeModeManager.class);
    SequenceIdGenerator sequenceIds = mock(SequenceIdGenerator.class);
    BlockManager blockManager = mock(BlockManager.class);
    when(blockManager.getDeletedBlockLog()).thenReturn(deletedBlockLog);
    NodeDecommissionManager decommission = mock(NodeDecommissionManager.class);
    if (byHand) {
      // the fields the released getters read (no hold: only the latched replays arm it, and
      // they run where Mockito mocks final classes)
      Class<StorageContainerManager> c = StorageContainerManager.class;
      Mocks.set(scm, c, "scmContext", context);
      Mocks.set(scm, c, "serviceManager", services);
      Mocks.set(scm, c, "finalizationManager", finalization);
      SCMStorageConfig storage = mock(SCMStorageConfig.class);
      when(storage.getScmId()).thenReturn("scm1");
      Mocks.set(scm, c, "scmStorageConfig", storage);
      Mocks.set(scm, c, "threadNamePrefix", "scm1-");
      Mocks.set(scm, c, "scmHAManager", ha);
      Mocks.set(scm, c, "scmSafeModeManager", safeMode);
      Mocks.set(scm, c, "sequenceIdGen", sequenceIds);
      Mocks.set(scm, c, "scmBlockManager", blockManager);
      Mocks.set(scm, c, "scmDecommissionManager", decommission);
    } else {
      // the apply thread's first call in notifyLeaderReady is scm.getScmContext(): the hold
      when(scm.getScmContext()).thenAnswer(i -> {
        hold.at();
        return context;
      });
      when(scm.getSCMServiceManager()).thenReturn(services);
      when(scm.getFinalizationManager()).thenReturn(finalization);
      when(scm.getScmId()).thenReturn("scm1");
      when(scm.threadNamePrefix()).thenReturn("scm1-");
      when(scm.getScmHAManager()).thenReturn(ha);
      when(scm.getScmSafeModeManager()).thenReturn(safeMode);
      when(scm.getSequenceIdGen()).thenReturn(sequenceIds);
      when(scm.getScmBlockManager()).thenReturn(blockManager);
      when(scm.getScmDecommissionManager()).thenReturn(decommission);
    }
    when(buffer.getLatestTrxInfo()).thenReturn(
        org.apache.hadoop.hdds.utils.TransactionInfo.DEFAULT_VALUE);
    stateMachine = new SCMStateMachine(scm, buffer);
    OzoneConfiguration conf = new OzoneConfiguration();
    // services may run as soon as they are RUNNING (the report's shouldRun after the wait)
    conf.set(HddsConfigKeys.HDDS_SCM_WAIT_TIME_AFTER_SAFE_MODE_EXIT, "0s");
    replicationManager = new ReplicationManager(
        conf.getObject(ReplicationManagerConfiguration.class), conf,
        containers, placement, ecPlacement, rmEvents, context, rmNodes, Clock.systemUTC(),
        pendingOps);
    services.register(replicationManager);
    // registers itself with the service manager
    blockDeletingService = new SCMBlockDeletingService(deletedBlockLog, bdsNodes, bdsEvents,
        context, services, conf, conf.getObject(ScmConfig.class), bdsMetrics, Clock.systemUTC(),
        reconfiguration);
    // a fresh leader: services computed from a context that is not ready yet
    services.notifyStatusChanged();
  }

  /**
   * Holds one thread at its first scm.getScmContext() (in notifyLeaderReady: after its start,
   * before setLeaderReady) until released. A collaborator's wait: the code under test is real.
   */
  static final class Hold {
    private volatile Thread armed;
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    void arm(Thread t) {
      armed = t;
    }

    void at() throws InterruptedException {
      if (Thread.currentThread() != armed) {
        return;
      }
      armed = null;
      held.countDown();
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("hold: never released");
      }
    }

    /** Waits until the armed thread is held. */
    void awaitHeld() throws InterruptedException {
      if (!held.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("hold: the apply thread never reached it");
      }
    }

    void release() {
      release.countDown();
    }
  }

  /** Ratis' apply thread applying the startup entry of {@code term}: notifyConfigurationChanged. */
  void startupEntryApplied(long term) {
    stateMachine.notifyConfigurationChanged(term, 10,
        RaftConfigurationProto.getDefaultInstance());
  }

  /**
   * Ratis' apply thread: applies the startup entry of {@code term}, then, LeaderStateImpl.checkReady
   * having passed for it, runs {@code checkReadyPassed} (where a replay waits for its order) and
   * SCMStateMachine.notifyLeaderReady.
   */
  Thread applyThread(AtomicReference<Throwable> failed, long term,
      Threads.Body checkReadyPassed) {
    return Threads.recording("StateMachineUpdater", failed, () -> {
      startupEntryApplied(term);
      Recorder.act("apply");
      checkReadyPassed.run();
      stateMachine.notifyLeaderReady();
    });
  }

  /**
   * The Ratis thread of a step-down (RaftServerImpl.changeToFollower): notifyNotLeader, then
   * {@code after}, even when it throws.
   */
  Thread stepDownThread(AtomicReference<Throwable> failed, Runnable after) {
    return Threads.recording("RaftServer-changeToFollower", failed, () -> {
      Recorder.act("ratis");
      stateMachine.notifyNotLeader(Collections.emptyList());
    }, after);
  }

  /** RaftServerImpl.changeToFollower (an admin step-down keeps the term): notifyNotLeader. */
  void stepDown() {
    stateMachine.notifyNotLeader(Collections.emptyList());
  }

  /** ServerState.initElection: the candidacy enters the next term. */
  long initElection() {
    return ratisTerm.incrementAndGet();
  }

  /** RaftServerImpl.changeToLeader → ServerState.setLeader(self) → notifyLeaderChanged. */
  void win() {
    stateMachine.notifyLeaderChanged(member, SELF);
  }

  boolean bothServicesRun() {
    return replicationManager.shouldRun() && blockDeletingService.shouldRun();
  }

  /** Leader of {@code term} and leader-ready: the state O2, R1 and R2 name. */
  boolean readyLeaderOf(long term) {
    return context.isLeader() && termOrMinus() == term && context.isLeaderReady();
  }

  /**
   * The observable state as the model's state names it ({@code LeaderReady::describe}): what the
   * trace's last line gives the validator.
   */
  Map<String, String> modelState() {
    Map<String, String> m = Probes.context(context);
    m.put("ReplicationManager", Probes.status(replicationManager));
    m.put("SCMBlockDeletingService", Probes.status(blockDeletingService));
    return m;
  }

  /** Ends the run's trace with {@link #modelState()}. */
  void endTrace() {
    Recorder.act(null);
    Recorder.end(modelState());
  }

  String state() {
    return "isLeader=" + context.isLeader() + " isLeaderReady=" + context.isLeaderReady()
        + " term=" + termOrFollower() + " ratisTerm=" + ratisTerm.get()
        + " ReplicationManager.shouldRun=" + replicationManager.shouldRun()
        + " SCMBlockDeletingService.shouldRun=" + blockDeletingService.shouldRun();
  }

  private long termOrMinus() {
    try {
      return context.getTermOfLeader();
    } catch (Exception e) {
      return Long.MIN_VALUE;
    }
  }

  private String termOrFollower() {
    try {
      return Long.toString(context.getTermOfLeader());
    } catch (Exception e) {
      return "(follower)";
    }
  }

  void close() {
    hold.release();
    blockDeletingService.shutdown();
  }
}
