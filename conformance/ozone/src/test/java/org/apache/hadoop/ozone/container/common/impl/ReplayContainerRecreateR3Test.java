package org.apache.hadoop.ozone.container.common.impl;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Rows;

/**
 * CR_R3 (the report's repro test, TestCloseContainerByPipeline's order, on the leader; the
 * model's CR-F1 and CR-F10): SCM's close is applied and the force delete runs to its end, then
 * the client's WriteChunk and PutBlock of block 2, each validated, written and applied. Written
 * for racelab.
 */
public class ReplayContainerRecreateR3Test {
  static Stream<Row> rows() {
    return Rows.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void CR_R3_closeAndForceDeleteThenTheWholeWrite(Row row) throws Exception {
    ContainerRecreateReplays.replay("CR_R3", row, r -> {
      ContainerRecreateReplays.closeAndForceDelete(r);
      r.wc = r.w.startTransaction(r.w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      if (r.wc.reply == null) {
        ContainerRecreateReplays.restOfWriteChunk(r);
      }
      if (r.w.healthy) {
        ContainerRecreateReplays.putBlock(r);
      }
    }, "O1", "O5", "O7");
  }
}
