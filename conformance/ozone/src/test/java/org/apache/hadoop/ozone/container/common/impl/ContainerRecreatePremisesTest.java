package org.apache.hadoop.ozone.container.common.impl;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerDataProto.State;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerType;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Type;
import org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException;
import org.apache.hadoop.ozone.container.common.helpers.ContainerMetrics;
import org.apache.hadoop.hdds.scm.protocolPB.ContainerCommandResponseBuilders;
import org.apache.hadoop.ozone.container.common.interfaces.Container;
import org.apache.hadoop.ozone.container.common.interfaces.Handler;
import org.apache.hadoop.ozone.container.common.interfaces.ScanResult;
import org.apache.hadoop.ozone.container.common.statemachine.StateContext;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import org.apache.hadoop.ozone.container.common.volume.HddsVolume;
import org.apache.hadoop.ozone.container.common.volume.RoundRobinVolumeChoosingPolicy;
import org.apache.hadoop.ozone.container.common.volume.VolumeSet;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueContainer;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler;
import org.apache.hadoop.ozone.container.keyvalue.TarContainerPacker;
import org.apache.hadoop.ozone.container.ozoneimpl.ContainerController;
import org.apache.hadoop.ozone.container.replication.ContainerImporter;
import org.apache.hadoop.ozone.container.replication.CopyContainerCompression;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import racelab.conformance.Premise;

/**
 * container-recreate (HDDS-17643): premises on Ozone 2.2.0's HddsDispatcher and
 * KeyValueHandler (hdds-container-service). The handler behind the dispatcher is a mock that
 * records what the dispatcher asks of it; the ContainerSet is the real one. Written for
 * racelab; nothing here is copied from upstream.
 */
public class ContainerRecreatePremisesTest {

  private static final long C = 7;

  static KeyValueContainer openReplica(long id) {
    KeyValueContainerData data = mock(KeyValueContainerData.class);
    when(data.getContainerID()).thenReturn(id);
    when(data.getState()).thenReturn(State.OPEN);
    org.apache.hadoop.ozone.container.common.volume.HddsVolume volume =
        mock(org.apache.hadoop.ozone.container.common.volume.HddsVolume.class);
    when(volume.getCurrentUsage()).thenReturn(
        new org.apache.hadoop.hdds.fs.SpaceUsageSource.Fixed(1L << 40, 1L << 39, 0));
    when(data.getVolume()).thenReturn(volume);
    KeyValueContainer c = mock(KeyValueContainer.class);
    when(c.getContainerData()).thenReturn(data);
    when(c.getContainerType()).thenReturn(ContainerType.KeyValueContainer);
    when(c.getContainerState()).thenReturn(State.OPEN);
    return c;
  }

  static ContainerCommandRequestProto writeChunk(long id) {
    ContainerProtos.DatanodeBlockID block = ContainerProtos.DatanodeBlockID.newBuilder()
        .setContainerID(id).setLocalID(1001).setBlockCommitSequenceId(0).build();
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.WriteChunk)
        .setContainerID(id).setDatanodeUuid(UUID.randomUUID().toString())
        .setWriteChunk(ContainerProtos.WriteChunkRequestProto.newBuilder().setBlockID(block)
            .setChunkData(ContainerProtos.ChunkInfo.newBuilder().setChunkName("c1")
                .setOffset(0).setLen(1024).setChecksumData(ContainerProtos.ChecksumData
                    .newBuilder().setType(ContainerProtos.ChecksumType.NONE)
                    .setBytesPerChecksum(1024).build()).build()))
        .build();
  }

  static ContainerCommandRequestProto putBlock(long id) {
    ContainerProtos.DatanodeBlockID block = ContainerProtos.DatanodeBlockID.newBuilder()
        .setContainerID(id).setLocalID(1001).setBlockCommitSequenceId(0).build();
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.PutBlock)
        .setContainerID(id).setDatanodeUuid(UUID.randomUUID().toString())
        .setPutBlock(ContainerProtos.PutBlockRequestProto.newBuilder().setBlockData(
            ContainerProtos.BlockData.newBuilder().setBlockID(block)))
        .build();
  }

  /**
   * CR-P1: on the real leader datanode (ContainerRecreateWiring: KeyValueHandler, ContainerSet
   * with its ID table, HddsDispatcher), c1 is created over the pipeline, closed and force
   * deleted, and stays in container2BCSIDMap; then a WriteChunk in WRITE_DATA, and separately a
   * PutBlock at apply, each make KeyValueHandler.handleCreateContainer create c1 again (OPEN,
   * BCSID 0). The map is not consulted before the create: its entry stays (putIfAbsent).
   */
  @Test
  public void CR_P1_autoCreateOnWriteChunkAndPutBlock() throws Exception {
    List<String> seen = new ArrayList<>();
    boolean recreatedBoth = true;
    for (String stage : new String[] {"WriteChunk/WRITE_DATA", "PutBlock/apply"}) {
      try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
        w.openWithBlock();
        w.closeThroughPipeline();
        Object deleted = w.replica();
        long before = w.container2BCSIDMap.get(ContainerRecreateWiring.C);
        w.forceDelete();
        boolean wc = stage.startsWith("WriteChunk");
        ContainerRecreateWiring.Entry e = w.startTransaction(wc
            ? w.writeChunk(ContainerRecreateWiring.NEW_BLOCK)
            : w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
        if (wc) {
          w.writeStateMachineData(e);
        } else {
          w.applyTransaction(e);
        }
        Object now = w.replica();
        boolean created = now != null && now != deleted
            && w.handled.stream().filter(h -> h.startsWith("CreateContainer")).count() == 2;
        long entry = w.container2BCSIDMap.get(ContainerRecreateWiring.C);
        String res = w.log.get(w.log.size() - 1);
        // WRITE_DATA leaves the old entry; the PutBlock, whose chunk was never written on the
        // new replica, fails (UNABLE_TO_FIND_CHUNK: no updateBCSID) and leaves it too
        recreatedBoth &= created && entry == before;
        seen.add(stage + ": " + res + ", map before " + before + " after " + entry
            + ", replica " + w.describe() + ", handler calls " + w.handled);
      }
    }
    Premise.check(
        "HddsDispatcher.dispatchRequest auto-creates (through the real "
            + "KeyValueHandler.handleCreateContainer) a container absent from the ContainerSet "
            + "on WriteChunk (WRITE_DATA) and on PutBlock (apply), whatever "
            + "container2BCSIDMap records for it (no containerAutoCreate check in 2.2.0)",
        recreatedBoth, String.join("; ", seen));
  }

  /**
   * CR-P3: KeyValueHandler.deleteContainer(force) on a CLOSED replica removes it from the
   * ContainerSet and its row from the container ID table, does not mark it missing, and leaves
   * the pipeline's container2BCSIDMap entry (the delete path is given no reference to the map).
   * The contrast: with the fix layer's P3 on, the same delete leaves a DELETED row (the statement
   * then does not hold).
   */
  @Test
  public void CR_P3_forceDeleteLeavesTheMapEntry() throws Exception {
    String[] upstream = deleteAndLook(false);
    String[] tombstone = deleteAndLook(true);
    Premise.check(
        "a force delete (KeyValueHandler.deleteContainer(c, true)) removes the container from "
            + "the ContainerSet and its row from the container ID table, does not mark it "
            + "missing, and leaves the pipeline's container2BCSIDMap entry",
        "true".equals(upstream[0]),
        "2.2.0: " + upstream[1] + "; with racelab's P3 (tombstone) for contrast: "
            + tombstone[1]);
  }

  private static String[] deleteAndLook(boolean p3) throws Exception {
    racelab.fix.Row row = p3
        ? racelab.fix.Row.of("container-recreate", "tombstone",
            racelab.fix.containerrecreate.P3.PART)
        : racelab.fix.Row.of("container-recreate", "upstream");
    return racelab.fix.FixLayer.run(row, () -> {
      try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
        w.openWithBlock();
        w.closeThroughPipeline();
        String rowBefore = w.idTableRow();
        Long entryBefore = w.container2BCSIDMap.get(ContainerRecreateWiring.C);
        w.forceDelete();
        boolean absent = w.replica() == null;
        String rowAfter = w.idTableRow();
        boolean missing = w.set.getMissingContainerSet().contains(ContainerRecreateWiring.C);
        Long entryAfter = w.container2BCSIDMap.get(ContainerRecreateWiring.C);
        boolean holds = absent && "none".equals(rowAfter) && !missing
            && entryAfter != null && entryAfter.equals(entryBefore);
        return new String[] {Boolean.toString(holds),
            "containerSet has c1: " + !absent + ", ID table row " + rowBefore + " -> " + rowAfter
                + ", missing: " + missing + ", container2BCSIDMap[c1] " + entryBefore + " -> "
                + entryAfter};
      }
    });
  }

  /**
   * CR-P4: handleWriteChunk's checkContainerOpen and its chunk write are separate steps: a
   * WriteChunk held in the chunk manager (the collaborator the handler calls for the write) after
   * its check passed on the OPEN replica lets SCM's close and a force delete run to their end (no
   * lock of the write's is held: the delete takes the container's write lock), and the write then
   * runs on the replica the delete left DELETED.
   */
  @Test
  public void CR_P4_checkAndWriteAreSeparateSteps() throws Exception {
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      w.openWithBlock();
      ContainerRecreateWiring.Entry e =
          w.startTransaction(w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      w.beforeChunkWrite.arm(stage -> stage.equals("WRITE_DATA"));
      java.util.concurrent.atomic.AtomicReference<Throwable> failed =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread writer = racelab.conformance.Threads.recording("ChunkWriter", failed,
          () -> w.writeStateMachineData(e));
      writer.start();
      w.beforeChunkWrite.awaitReached();
      Object replica = w.replica();
      State atCheck = w.state();
      java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors
          .newSingleThreadExecutor();
      boolean deleted;
      try {
        java.util.concurrent.Future<?> del = ex.submit(() -> {
          w.closeThroughPipeline();
          w.forceDelete();
          return null;
        });
        deleted = awaitQuietly(del);
      } finally {
        ex.shutdownNow();
      }
      State atWrite = ((org.apache.hadoop.ozone.container.common.interfaces.Container<?>) replica)
          .getContainerState();
      w.beforeChunkWrite.release();
      writer.join(60_000);
      if (writer.isAlive()) {
        throw new IllegalStateException("harness: the write did not finish");
      }
      Premise.check(
          "KeyValueHandler.handleWriteChunk checks the state (checkContainerOpen) and writes the "
              + "chunk (ChunkManager.writeChunk) in separate steps: a close and a force delete "
              + "can complete between them",
          atCheck == State.OPEN && deleted && atWrite == State.DELETED,
          "state when the write reached the chunk manager: " + atCheck
              + "; close and force delete completed meanwhile: " + deleted
              + "; the write then ran on a replica in state " + atWrite
              + "; the handler answered " + w.handled.get(w.handled.size() - 1)
              + "; the dispatcher: " + w.log.get(w.log.size() - 1));
    }
  }

  private static boolean awaitQuietly(java.util.concurrent.Future<?> f) throws Exception {
    return awaitQuietly(f, 20_000);
  }

  private static boolean awaitQuietly(java.util.concurrent.Future<?> f, long millis)
      throws Exception {
    try {
      f.get(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  /**
   * CR-P5 (the O5 mechanism of CR-1/CR_O5 on 2.2.0): the chunk write of a WriteChunk that passed
   * checkContainerOpen, run after a close and a force delete moved the container's directory, fails
   * at FilePerBlockStrategy.getChunkFile's chunks-directory check: the checked
   * StorageContainerException UNABLE_TO_FIND_DATA_DIR, which handleWriteChunk returns as its
   * result (no exception leaves the handler); dispatchRequest, finding the result not ignorable and
   * the replica DELETED, throws IllegalStateException from Preconditions.checkState. The model says
   * the chunk file's open throws an unchecked exception out of the handler: the verdict (an
   * exception out of dispatch, the pipeline fails) is the same, the failing call is not.
   */
  @Test
  public void CR_P5_theChunkWriteFailsAsAResultThenTheDispatcherThrows() throws Exception {
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      w.openWithBlock();
      ContainerRecreateWiring.Entry e =
          w.startTransaction(w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      w.beforeChunkWrite.arm(stage -> stage.equals("WRITE_DATA"));
      java.util.concurrent.atomic.AtomicReference<Throwable> failed =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread writer = racelab.conformance.Threads.recording("ChunkWriter", failed,
          () -> w.writeStateMachineData(e));
      writer.start();
      w.beforeChunkWrite.awaitReached();
      w.closeThroughPipeline();
      w.forceDelete();
      w.beforeChunkWrite.release();
      writer.join(60_000);
      if (writer.isAlive()) {
        throw new IllegalStateException("harness: the write did not finish");
      }
      String handlerAnswer = w.handled.get(w.handled.size() - 1);
      String dispatch = w.log.get(w.log.size() - 1);
      Premise.check(
          "after a close and a force delete between checkContainerOpen and the chunk write, "
              + "KeyValueHandler.handleWriteChunk returns UNABLE_TO_FIND_DATA_DIR (a result, no "
              + "exception out of the handler) and HddsDispatcher.dispatchRequest then throws "
              + "IllegalStateException (Preconditions.checkState: the replica is DELETED)",
          handlerAnswer.equals("WriteChunk/WRITE_DATA -> UNABLE_TO_FIND_DATA_DIR")
              && dispatch.contains("IllegalStateException") && dispatch.contains("DELETED")
              && !w.healthy,
          "handler: " + handlerAnswer + "; dispatcher: " + dispatch);
    }
  }

  /**
   * CR-P6: SCM's real ContainerReportHandler, given the leader's real report of a recreated
   * replica (OPEN, BCSID above the close's) for a container CLOSED at the close's BCSID, raises
   * the CLOSED container's sequence id to the replica's BCSID, as a production JVM runs it
   * (assertions off). With assertions on, 2.2.0's ContainerInfo.updateSequenceId asserts
   * isOpen() or QUASI_CLOSED and the same report throws AssertionError out of onMessage, the
   * sequence id unchanged: the code's own assertion states P4's rule, which only -ea enforces.
   */
  @Test
  public void CR_P6_reportHandlerRaisesAClosedContainersSequenceId() throws Exception {
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      w.openWithBlock();
      w.closeThroughPipeline();
      long closeSeq = w.replica().getBlockCommitSequenceId();
      w.forceDelete();
      w.write(ContainerRecreateWiring.NEW_BLOCK);
      var report = w.set.getContainerReport();
      long bcsid = report.getReports(0).getBlockCommitSequenceId();
      var production = ReplayContainerRecreateO2Test.scmProcesses(report, closeSeq, true);
      String withEa;
      long seqWithEa = -1;
      try {
        var checked = ReplayContainerRecreateO2Test.scmProcesses(report, closeSeq, false);
        seqWithEa = checked.getSequenceId();
        withEa = "no error, sequence id " + seqWithEa;
      } catch (AssertionError e) {
        withEa = "AssertionError at " + e.getStackTrace()[0];
      }
      Premise.check(
          "AbstractContainerReportHandler.updateContainerStats raises a CLOSED container's "
              + "sequence id to a healthy (OPEN) replica's higher BCSID, without -ea; with -ea "
              + "ContainerInfo.updateSequenceId's assertion (isOpen() || QUASI_CLOSED) throws",
          production.getSequenceId() == bcsid && bcsid > closeSeq
              && withEa.startsWith("AssertionError"),
          "closed at " + closeSeq + ", replica " + report.getReports(0).getState() + " BCSID "
              + bcsid + "; assertions off (production): sequence id " + production.getSequenceId()
              + " (" + production.getState() + "); assertions on: " + withEa);
    }
  }

  /** CR-P2: checkContainerOpen answers CONTAINER_INTERNAL_ERROR for a DELETED replica. */
  @Test
  public void CR_P2_checkContainerOpenForDeleted() throws Exception {
    KeyValueHandler h = mock(KeyValueHandler.class,
        withSettings().defaultAnswer(Mockito.CALLS_REAL_METHODS));
    Method check = KeyValueHandler.class.getDeclaredMethod("checkContainerOpen",
        KeyValueContainer.class);
    check.setAccessible(true);
    Map<State, String> seen = new java.util.LinkedHashMap<>();
    for (State s : new State[] {State.DELETED, State.CLOSED, State.OPEN}) {
      KeyValueContainer c = mock(KeyValueContainer.class);
      when(c.getContainerState()).thenReturn(s);
      try {
        check.invoke(h, c);
        seen.put(s, "allowed");
      } catch (InvocationTargetException e) {
        Throwable t = e.getCause();
        seen.put(s, t instanceof StorageContainerException
            ? ((StorageContainerException) t).getResult().toString() : t.toString());
      }
    }
    Premise.check(
        "KeyValueHandler.checkContainerOpen answers CONTAINER_INTERNAL_ERROR for a DELETED "
            + "replica (CLOSED_CONTAINER_IO for CLOSED)",
        "CONTAINER_INTERNAL_ERROR".equals(seen.get(State.DELETED))
            && "CLOSED_CONTAINER_IO".equals(seen.get(State.CLOSED))
            && "allowed".equals(seen.get(State.OPEN)),
        seen.toString());
  }

  /**
   * The replica of {@link ContainerRecreateWiring#C} on the wiring's leader brought to
   * {@code state} by the real KeyValueHandler: OPEN (the pipeline's first write), CLOSING
   * (markContainerForClose), QUASI_CLOSED (then quasiCloseContainer), CLOSED (SCM's close through
   * the pipeline) or UNHEALTHY (markContainerUnhealthy of the OPEN replica, as the dispatcher
   * marks one after a failed apply).
   */
  private static Container<?> replicaIn(ContainerRecreateWiring w, State state) throws Exception {
    w.openWithBlock();
    Container<?> c = w.replica();
    switch (state) {
      case OPEN:
        break;
      case CLOSING:
        w.handler.markContainerForClose(c);
        break;
      case QUASI_CLOSED:
        w.handler.markContainerForClose(c);
        w.handler.quasiCloseContainer(c, "racelab: no pipeline");
        break;
      case CLOSED:
        w.closeThroughPipeline();
        break;
      case UNHEALTHY:
        w.handler.markContainerUnhealthy(c, mock(ScanResult.class));
        break;
      default:
        throw new IllegalArgumentException("harness: no way to " + state);
    }
    if (c.getContainerState() != state) {
      throw new IllegalStateException("harness: the replica is " + c.getContainerState()
          + ", not " + state);
    }
    return c;
  }

  private static TarContainerPacker packer() {
    return new TarContainerPacker(CopyContainerCompression.NO_COMPRESSION);
  }

  /**
   * CR-P7: KeyValueContainer.exportContainerData (through KeyValueHandler.exportContainer, what
   * the replication source's copyData calls) refuses, under the container's write lock, a
   * replica that is not CLOSED, QUASI_CLOSED or UNHEALTHY: an OPEN and a CLOSING replica throw
   * IllegalStateException ("Failed to export: Unexpected state in ...") and nothing is written to
   * the destination; a CLOSED, a QUASI_CLOSED and an UNHEALTHY replica are exported (an archive
   * is written) and keep their state. The lock: an export of a CLOSED replica whose write lock
   * another thread holds waits until it is released.
   */
  @Test
  public void CR_P7_exportOnlyClosedQuasiClosedOrUnhealthy() throws Exception {
    Map<State, String> seen = new java.util.LinkedHashMap<>();
    boolean holds = true;
    for (State s : new State[] {State.OPEN, State.CLOSING, State.CLOSED, State.QUASI_CLOSED,
        State.UNHEALTHY}) {
      try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
        Container<?> c = replicaIn(w, s);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        String how;
        boolean refused;
        try {
          w.handler.exportContainer(c, out, packer());
          how = "exported";
          refused = false;
        } catch (IllegalStateException e) {
          how = "IllegalStateException \"" + e.getMessage().split(" in ")[0] + "\"";
          refused = true;
        }
        boolean exportable = s == State.CLOSED || s == State.QUASI_CLOSED || s == State.UNHEALTHY;
        holds &= refused != exportable && (refused ? out.size() == 0 : out.size() > 0)
            && c.getContainerState() == s;
        seen.put(s, how + ", " + out.size() + " bytes written, state after "
            + c.getContainerState());
      }
    }
    // the write lock: while this thread holds the CLOSED replica's write lock (as a delete
    // does), an export on another thread waits, and goes on once it is released
    String locked;
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      Container<?> c = replicaIn(w, State.CLOSED);
      java.util.concurrent.ExecutorService ex =
          java.util.concurrent.Executors.newSingleThreadExecutor();
      try {
        c.writeLock();
        java.util.concurrent.Future<?> export;
        boolean waited;
        try {
          export = ex.submit(() -> {
            w.handler.exportContainer(c, new java.io.ByteArrayOutputStream(), packer());
            return null;
          });
          waited = !awaitQuietly(export, 500);
        } finally {
          c.writeUnlock();
        }
        boolean done = awaitQuietly(export, 20_000);
        holds &= waited && done;
        locked = "an export while another thread holds the write lock: "
            + (waited ? "waits" : "does not wait") + ", then "
            + (done ? "completes" : "does not complete") + " after the release";
      } finally {
        ex.shutdownNow();
      }
    }
    Premise.check(
        "KeyValueContainer.exportContainerData, under the container's write lock, refuses "
            + "(IllegalStateException, nothing written) a replica that is not CLOSED, "
            + "QUASI_CLOSED or UNHEALTHY (OPEN, CLOSING), and exports a CLOSED, a QUASI_CLOSED "
            + "and an UNHEALTHY one",
        holds, seen + "; " + locked);
  }

  /**
   * CR-P8: the copy a target datanode imports (ContainerImporter.importContainer, the real
   * importer of DownloadAndImportReplicator, with the real ContainerController and
   * KeyValueHandler.importContainer, from the archive CR-P7's export wrote to a file) has the
   * exported replica's state: KeyValueContainer.importContainerData restores the descriptor's
   * state. A QUASI_CLOSED source gives a QUASI_CLOSED copy, an UNHEALTHY one an UNHEALTHY copy, a
   * CLOSED one a CLOSED copy; each with the source's BCSID.
   */
  @Test
  public void CR_P8_importKeepsTheExportedState() throws Exception {
    Map<State, String> seen = new java.util.LinkedHashMap<>();
    boolean holds = true;
    for (State s : new State[] {State.CLOSED, State.QUASI_CLOSED, State.UNHEALTHY}) {
      try (ContainerRecreateWiring src = new ContainerRecreateWiring();
          ContainerRecreateWiring tgt = new ContainerRecreateWiring()) {
        Container<?> c = replicaIn(src, s);
        java.nio.file.Path tar = java.nio.file.Files.createTempFile(src.dir.toPath(), "c", ".tar");
        try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(tar)) {
          src.handler.exportContainer(c, out, packer());
        }
        Map<ContainerType, Handler> handlers = new HashMap<>();
        handlers.put(ContainerType.KeyValueContainer, tgt.handler);
        ContainerImporter importer = new ContainerImporter(tgt.conf, tgt.set,
            new ContainerController(tgt.set, handlers), tgt.volumes,
            new RoundRobinVolumeChoosingPolicy());
        importer.importContainer(ContainerRecreateWiring.C, tar,
            (HddsVolume) tgt.volumes.getVolumesList().get(0),
            CopyContainerCompression.NO_COMPRESSION);
        Container<?> copy = tgt.replica();
        State got = copy == null ? null : copy.getContainerState();
        long bcsid = copy == null ? -1 : copy.getBlockCommitSequenceId();
        holds &= got == s && bcsid == c.getBlockCommitSequenceId();
        seen.put(s, "copy " + got + " BCSID " + bcsid + " (source BCSID "
            + c.getBlockCommitSequenceId() + ")");
      }
    }
    Premise.check(
        "the imported copy of an exported replica has the exported replica's state "
            + "(KeyValueContainer.importContainerData restores the descriptor's): QUASI_CLOSED "
            + "and UNHEALTHY sources give QUASI_CLOSED and UNHEALTHY copies, not CLOSED ones",
        holds, seen.toString());
  }
}
