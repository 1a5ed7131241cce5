package org.apache.hadoop.ozone.container.common.impl;

import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Rows;

/**
 * CR_R2 (the model's CR-F2, O5): the client's WriteChunk of block 2 is validated, written and
 * applied while c1 is OPEN and its PutBlock validated; SCM's close is applied; the PutBlock's
 * apply finds c1 (dispatchRequest's getContainer) and is held before the handler (the
 * dispatcher's handler is a delegate of the real KeyValueHandler) while the force delete runs to
 * its end; then the handler reads the replica it was given, now DELETED. Written for racelab.
 */
public class ReplayContainerRecreateR2Test {
  static Stream<Row> rows() {
    return Rows.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void CR_R2_putBlockHoldsTheReplicaAcrossTheForceDelete(Row row) throws Exception {
    ContainerRecreateReplays.replay("CR_R2", row, r -> {
      r.wc = r.w.startTransaction(r.w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      ContainerRecreateReplays.restOfWriteChunk(r);
      r.pb = r.w.startTransaction(r.w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
      if (!r.wc.succeeded() || r.pb.reply != null) {
        throw new IllegalStateException("harness: the write before the close failed: " + r.w.log);
      }
      r.w.closeThroughPipeline();
      r.w.beforeHandle.arm(what -> what.startsWith("PutBlock"));
      AtomicReference<Throwable> failed = new AtomicReference<>();
      AtomicReference<Boolean> applied = new AtomicReference<>();
      Thread apply = ContainerRecreateReplays.start("apply", failed,
          () -> applied.set(r.w.applyTransaction(r.pb)));
      r.w.beforeHandle.awaitReached();
      r.deleted = r.w.replica();
      r.w.forceDelete();
      r.w.beforeHandle.release();
      ContainerRecreateReplays.join(apply, failed);
      r.w.answer(r.pb, applied.get());
      // O5 only: the model reaches O7 on no row in this order, so no J cell can have a twin
    }, "O5");
  }
}
