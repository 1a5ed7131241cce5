package org.apache.hadoop.ozone.container.common.impl;

import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Rows;

/**
 * CR_O5 (HDDS-17643, O5; the model's CR-1/CR-F3): the client's WriteChunk of block 2 is validated
 * while c1 is OPEN and its WRITE_DATA passes checkContainerOpen; the chunk executor is held in the
 * chunk manager (the collaborator KeyValueHandler calls for the write, a delegate of the real one)
 * while SCM's close is applied and the force delete runs to its end (the container directory
 * moved away); then the write goes on, and the rest of the client's write follows. Written for
 * racelab.
 */
public class ReplayContainerRecreateO5Test {
  static Stream<Row> rows() {
    return Rows.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void CR_O5_closeAndForceDeleteBetweenTheStateCheckAndTheChunkWrite(Row row)
      throws Exception {
    ContainerRecreateReplays.replay("CR_O5", row, r -> {
      r.wc = r.w.startTransaction(r.w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      if (r.wc.reply != null) {
        throw new IllegalStateException("harness: the WriteChunk was not appended: " + r.wc.reply);
      }
      r.w.beforeChunkWrite.arm(stage -> stage.equals("WRITE_DATA"));
      AtomicReference<Throwable> failed = new AtomicReference<>();
      AtomicReference<Boolean> written = new AtomicReference<>();
      Thread chunkWriter = ContainerRecreateReplays.start("ChunkWriter", failed,
          () -> written.set(r.w.writeStateMachineData(r.wc)));
      r.w.beforeChunkWrite.awaitReached();
      ContainerRecreateReplays.closeAndForceDelete(r);
      r.w.beforeChunkWrite.release();
      ContainerRecreateReplays.join(chunkWriter, failed);
      boolean ok = written.get() && r.w.applyTransaction(r.wc);
      r.w.answer(r.wc, ok);
      if (r.w.healthy) {
        ContainerRecreateReplays.putBlock(r);
      }
    }, "O5", "O7");
  }
}
