package org.apache.hadoop.ozone.container.common.impl;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Rows;

/**
 * CR_R1 (HDDS-17643's outcome A, O5 and O7): the client's WriteChunk of block 2 is validated,
 * written and applied while c1 is OPEN and its PutBlock validated; SCM's close is applied and the
 * force delete runs to its end; then the PutBlock is applied: upstream auto-creates an empty
 * replica whose chunk file is not there. Written for racelab.
 */
public class ReplayContainerRecreateR1Test {
  static Stream<Row> rows() {
    return Rows.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void CR_R1_putBlockValidatedOpenAppliedAfterCloseAndForceDelete(Row row)
      throws Exception {
    ContainerRecreateReplays.replay("CR_R1", row, r -> {
      r.wc = r.w.startTransaction(r.w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      ContainerRecreateReplays.restOfWriteChunk(r);
      r.pb = r.w.startTransaction(r.w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
      if (!r.wc.succeeded() || r.pb.reply != null) {
        throw new IllegalStateException("harness: the write before the close failed: " + r.w.log);
      }
      ContainerRecreateReplays.closeAndForceDelete(r);
      r.w.answer(r.pb, r.w.applyTransaction(r.pb));
    }, "O5", "O7");
  }
}
