package org.apache.hadoop.ozone.container.common.impl;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.ozone.container.common.helpers.BlockData;
import org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos.ContainerReplicaProto;
import org.apache.hadoop.ozone.container.common.interfaces.Container;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import racelab.search.LincheckSearch;
import racelab.search.LincheckSearch.Verdict;

/**
 * container-recreate O8 under Lincheck, on Ozone 2.2.0's datanode classes: the PutBlock's apply
 * (handlePutBlock's persisting step at APPLY_TRANSACTION: BlockManagerImpl.putBlock,
 * persistPutBlock, which writes KeyValueContainerData.blockCommitSequenceId) against the container report thread
 * (KeyValueContainer.getContainerReport: buildContainerReplicaProto, which reads it), no latch.
 *
 * <p>The datanode is the replays' ContainerRecreateWiring, built once outside Lincheck's block
 * (its dispatcher's handler is a Mockito delegate and its chunk manager a Proxy delegate,
 * neither run inside the block, so the apply thread calls the real KeyValueHandler's block
 * manager as handlePutBlock does): c1 created over the pipeline
 * with block 1, block 2's WriteChunk written and committed, its PutBlock appended. Each
 * invocation applies that PutBlock while the report runs. Lincheck restores the Java state the
 * block reached after each invocation (the container's BCSID and counts come back to block 1's),
 * so every invocation applies the same PutBlock to the same in-memory replica; RocksDB, outside
 * the JVM's heap, keeps block 2's row (rewritten each time).
 *
 * <p>Reached (a witness of the race, from the real report): the report carries block 2's BCSID
 * with block 1's block count. buildContainerReplicaProto reads the counts (under the statistics'
 * monitor) and then the BCSID (no lock); persistPutBlock writes the BCSID (no lock) and then
 * the count: the report read the BCSID after the apply's write, and the count before the
 * apply's next one, in the middle of the apply with nothing ordering them. Reports that read the
 * BCSID unordered but saw a consistent pair are not counted.
 */
final class ContainerRecreateSearches {
  private ContainerRecreateSearches() {
  }

  static final class ReportDuringApply implements LincheckSearch.Body, AutoCloseable {
    final ContainerRecreateWiring w;
    final ContainerCommandRequestProto putBlock;
    final long index;
    final Container<?> c;
    final long bcsidBefore;
    final long countBefore;

    ReportDuringApply() throws Exception {
      w = new ContainerRecreateWiring();
      w.openWithBlock();
      ContainerRecreateWiring.Entry wc = w.startTransaction(w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      if (wc.reply != null || !w.writeStateMachineData(wc) || !w.applyTransaction(wc)) {
        throw new IllegalStateException("harness: block 2's WriteChunk failed: " + w.log);
      }
      ContainerRecreateWiring.Entry pb = w.startTransaction(w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
      if (pb.reply != null) {
        throw new IllegalStateException("harness: block 2's PutBlock was refused: " + pb.reply);
      }
      putBlock = pb.request;
      index = pb.index;
      c = w.replica();
      heapCodecBuffers(c);
      ContainerReplicaProto before = c.getContainerReport();
      bcsidBefore = before.getBlockCommitSequenceId();
      countBefore = before.getKeyCount();
    }

    /**
     * Makes c1's tables encode into heap arrays, not direct buffers: each TypedTable's
     * supportCodecBuffer set false (the path 2.2.0 takes for a codec without CodecBuffer
     * support). Lincheck 3.7 fails in protobuf's direct-buffer encoder ("Expected memory offset
     * to be Long, but got java.lang.Byte", its analysis of UnsafeUtil.putByte(long, byte) in
     * CodedOutputStream$UnsafeDirectNioEncoder, reached from Proto3Codec.toCodecBuffer when
     * persistPutBlock writes the block row). The rows written are the same; the BCSID's
     * accesses are untouched.
     */
    static void heapCodecBuffers(Container<?> c) throws Exception {
      var data = (org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData)
          c.getContainerData();
      try (var db = org.apache.hadoop.ozone.container.keyvalue.helpers.BlockUtils.getDB(data,
          new org.apache.hadoop.hdds.conf.OzoneConfiguration())) {
        Object store = db.getStore();
        java.lang.reflect.Field flag = org.apache.hadoop.hdds.utils.db.TypedTable.class
            .getDeclaredField("supportCodecBuffer");
        flag.setAccessible(true);
        for (Class<?> k = store.getClass(); k != null; k = k.getSuperclass()) {
          for (java.lang.reflect.Field f : k.getDeclaredFields()) {
            if (!org.apache.hadoop.hdds.utils.db.Table.class.isAssignableFrom(f.getType())) {
              continue;
            }
            f.setAccessible(true);
            Object t = f.get(store);
            if (t instanceof org.apache.hadoop.ozone.container.metadata.DatanodeTable) {
              java.lang.reflect.Field inner = org.apache.hadoop.ozone.container.metadata
                  .DatanodeTable.class.getDeclaredField("table");
              inner.setAccessible(true);
              t = inner.get(t);
            }
            if (t instanceof org.apache.hadoop.hdds.utils.db.TypedTable) {
              flag.set(t, false);
            }
          }
        }
      }
    }

    @Override
    public Verdict run() throws Exception {
      DispatcherContext ctx = w.apply(index, false);
      AtomicReference<Long> applied = new AtomicReference<>();
      AtomicReference<ContainerReplicaProto> report = new AtomicReference<>();
      AtomicReference<Throwable> threw = new AtomicReference<>();
      Object[] shared = shared();
      Thread apply = new Thread(new Apply(w, putBlock, c, ctx, applied, threw, shared),
          "dn1 apply");
      Thread reporter = new Thread(new Report(c, report, threw, shared),
          "ContainerReportPublisher");
      apply.start();
      reporter.start();
      apply.join();
      reporter.join();
      if (threw.get() != null) {
        throw new IllegalStateException("harness: " + threw.get(), threw.get());
      }
      ContainerReplicaProto r = report.get();
      long bcsidAfter = ((org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData)
          c.getContainerData()).getBlockCommitSequenceId();
      boolean mixed = r.getBlockCommitSequenceId() != bcsidBefore
          && r.getKeyCount() == countBefore;
      return Verdict.of(mixed, "putBlock -> " + applied.get()
          + "; report: BCSID " + r.getBlockCommitSequenceId() + ", blocks " + r.getKeyCount()
          + " (before the apply: BCSID " + bcsidBefore + ", blocks " + countBefore
          + "; after: BCSID " + bcsidAfter + ")");
    }

    /**
     * The replica's data and statistics, handed to both threads as well: built before
     * Lincheck's block and reached only through fields, Lincheck took them for objects of the
     * main thread and put no switch point at their accesses (462 invocations, its whole tree,
     * every report wholly before or wholly after the apply).
     */
    Object[] shared() {
      var data = (org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData)
          c.getContainerData();
      return new Object[] {data, data.getStatistics()};
    }

    @Override
    public void close() {
      w.close();
    }
  }

  /** The apply executor's PutBlock, on the real KeyValueHandler. */
  static final class Apply implements Runnable {
    @SuppressWarnings("unused")
    private final Object[] shared;
    private final ContainerRecreateWiring w;
    private final ContainerCommandRequestProto req;
    private final Container<?> c;
    private final DispatcherContext ctx;
    private final AtomicReference<Long> out;
    private final AtomicReference<Throwable> threw;

    Apply(ContainerRecreateWiring w, ContainerCommandRequestProto req, Container<?> c,
        DispatcherContext ctx, AtomicReference<Long> out,
        AtomicReference<Throwable> threw, Object[] shared) {
      this.shared = shared;
      this.w = w;
      this.req = req;
      this.c = c;
      this.ctx = ctx;
      this.out = out;
      this.threw = threw;
    }

    @Override
    public void run() {
      try {
        // handlePutBlock's persisting step as it makes it: the block data from the request,
        // the entry's log index as its BCSID, BlockManager.putBlock (persistPutBlock). Its
        // chunk manager's finishWriteChunks is not called: in the wiring that chunk manager is
        // a java.lang.reflect.Proxy delegate, and through it Lincheck explored nothing (20
        // invocations, all one order)
        BlockData bd = BlockData.getFromProtoBuf(req.getPutBlock().getBlockData());
        bd.setBlockCommitSequenceId(ctx.getLogIndex());
        out.set(w.handler.getBlockManager().putBlock(c, bd, false));
      } catch (Throwable t) {
        threw.set(t);
      }
    }
  }

  /** The container report publisher's read of c1's replica. */
  static final class Report implements Runnable {
    @SuppressWarnings("unused")
    private final Object[] shared;
    private final Container<?> c;
    private final AtomicReference<ContainerReplicaProto> out;
    private final AtomicReference<Throwable> threw;

    Report(Container<?> c, AtomicReference<ContainerReplicaProto> out,
        AtomicReference<Throwable> threw, Object[] shared) {
      this.shared = shared;
      this.c = c;
      this.out = out;
      this.threw = threw;
    }

    @Override
    public void run() {
      try {
        out.set(c.getContainerReport());
      } catch (Throwable t) {
        threw.set(t);
      }
    }
  }
}
