package org.apache.hadoop.ozone.container.common.impl;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.HashSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.client.RatisReplicationConfig;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.hdds.scm.container.ContainerInfo;
import org.apache.hadoop.hdds.scm.container.ContainerManager;
import org.apache.hadoop.hdds.scm.container.ContainerNotFoundException;
import org.apache.hadoop.hdds.scm.container.ContainerReportHandler;
import org.apache.hadoop.hdds.scm.node.NodeManager;
import org.apache.hadoop.hdds.scm.pipeline.PipelineID;
import org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher.ContainerReportFromDatanode;
import org.apache.hadoop.hdds.server.events.EventPublisher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Rows;

/**
 * CR_O2 (HDDS-17643, O2): CR_R3's order on the leader's datanode (SCM's close and force delete to
 * their end, then the client's WriteChunk and PutBlock of block 2), then the leader's full
 * container report, built by its real ContainerSet, processed by SCM's real
 * ContainerReportHandler for c1 CLOSED at the BCSID the leader's replica had at the close. The
 * NodeManager and ContainerManager are mocks (the collaborators that hand the handler the
 * datanode and the real ContainerInfo); the followers' reports (CLOSED at that BCSID) would
 * raise nothing and are not sent. O2: c1's sequence id is above the close's. Written for
 * racelab.
 */
public class ReplayContainerRecreateO2Test {
  /**
   * Sets {@code type}'s assertion status (its synthetic {@code $assertionsDisabled}, fixed when
   * the class was initialized) and returns the previous one: the JVM option -da for one class,
   * after it was loaded. The class's code is not changed.
   */
  static boolean assertionsDisabled(Class<?> type, boolean disabled) throws Exception {
    java.lang.reflect.Field f = type.getDeclaredField("$assertionsDisabled");
    java.lang.reflect.Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
    theUnsafe.setAccessible(true);
    sun.misc.Unsafe u = (sun.misc.Unsafe) theUnsafe.get(null);
    Object base = u.staticFieldBase(f);
    long offset = u.staticFieldOffset(f);
    boolean was = u.getBoolean(base, offset);
    u.putBoolean(base, offset, disabled);
    return was;
  }

  static Stream<Row> rows() {
    return Rows.all();
  }

  /**
   * SCM's real ContainerReportHandler processes {@code report} from one datanode, for c1 CLOSED
   * at {@code closeSeq}; with {@code production}, ContainerInfo's assertions are off as in a
   * production JVM. Returns c1's ContainerInfo after it. An AssertionError escapes.
   */
  static ContainerInfo scmProcesses(
      org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos
          .ContainerReportsProto report, long closeSeq, boolean production) throws Exception {
    ContainerInfo info = new ContainerInfo.Builder()
        .setContainerID(ContainerRecreateWiring.C)
        .setState(HddsProtos.LifeCycleState.CLOSED).setSequenceId(closeSeq)
        .setReplicationConfig(RatisReplicationConfig.getInstance(
            HddsProtos.ReplicationFactor.THREE))
        .setOwner("racelab").setPipelineID(PipelineID.randomId()).build();
    DatanodeDetails dn = DatanodeDetails.newBuilder().setUuid(UUID.randomUUID())
        .setHostName("dn1").setIpAddress("127.0.0.1").build();
    NodeManager nodes = mock(NodeManager.class);
    when(nodes.getNode(any())).thenReturn(dn);
    when(nodes.getContainers(any())).thenReturn(new HashSet<>());
    ContainerManager containers = mock(ContainerManager.class);
    when(containers.getContainer(any())).thenAnswer(inv -> {
      ContainerID id = inv.getArgument(0);
      if (id.getId() != ContainerRecreateWiring.C) {
        throw new ContainerNotFoundException(id);
      }
      return info;
    });
    when(containers.getContainerReplicas(any())).thenReturn(new HashSet<>());
    // as SCM runs in production: without -ea (surefire enables assertions, and 2.2.0's
    // ContainerInfo.updateSequenceId asserts isOpen() || QUASI_CLOSED: see CR_P6)
    boolean was = assertionsDisabled(ContainerInfo.class, production);
    try {
      new ContainerReportHandler(nodes, containers).onMessage(
          new ContainerReportFromDatanode(dn, report), mock(EventPublisher.class));
    } catch (AssertionError e) {
      if (production) {
        // compiled code may have kept the old status: the harness failed, not the code
        throw new IllegalStateException("harness: ContainerInfo's assertions stayed on", e);
      }
      throw e;
    } finally {
      assertionsDisabled(ContainerInfo.class, was);
    }
    return info;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void CR_O2_recreatedReplicaReportedToTheRealReportHandler(Row row) throws Exception {
    ContainerRecreateReplays.replay("CR_O2", row, r -> {
      ContainerRecreateReplays.closeAndForceDelete(r);
      r.wc = r.w.startTransaction(r.w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      if (r.wc.reply == null) {
        ContainerRecreateReplays.restOfWriteChunk(r);
      }
      if (r.w.healthy) {
        ContainerRecreateReplays.putBlock(r);
      }
      var report = r.w.set.getContainerReport();
      r.w.act("ContainerReportHandler");
      ContainerInfo info;
      try {
        info = scmProcesses(report, r.closeSeq, true);
      } finally {
        r.w.act(null);
      }
      r.scmSeq = info.getSequenceId();
      r.o2 = info.getState() == HddsProtos.LifeCycleState.CLOSED
          && info.getSequenceId() > r.closeSeq;
      r.scm = "; SCM: c1 " + info.getState() + " closed at sequence id " + r.closeSeq
          + ", now " + info.getSequenceId() + " after the leader's report of "
          + report.getReportsCount() + " replica(s)"
          + (report.getReportsCount() > 0 ? " (c1 " + report.getReports(0).getState()
              + " BCSID " + report.getReports(0).getBlockCommitSequenceId() + ")" : "");
    }, "O2");
  }
}
