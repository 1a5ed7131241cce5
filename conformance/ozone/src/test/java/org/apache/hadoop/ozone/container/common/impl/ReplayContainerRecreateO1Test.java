package org.apache.hadoop.ozone.container.common.impl;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Rows;

/**
 * CR_O1 (HDDS-17643, O1 and O7): the leader validates the client's WriteChunk of block 2 while
 * c1 is OPEN (startTransaction), SCM's close is applied and its force delete runs to its end,
 * then the WriteChunk's WRITE_DATA and COMMIT_DATA and the PutBlock (validated and applied). The
 * model's counterexample of upstream/O1 and P6/O1 in write-races-close-and-force-delete. Written
 * for racelab.
 */
public class ReplayContainerRecreateO1Test {
  static Stream<Row> rows() {
    return Rows.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void CR_O1_writeValidatedOpenThenCloseAndForceDeleteThenWritten(Row row)
      throws Exception {
    ContainerRecreateReplays.replay("CR_O1", row, r -> {
      r.wc = r.w.startTransaction(r.w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      ContainerRecreateReplays.closeAndForceDelete(r);
      if (r.wc.reply == null) {
        ContainerRecreateReplays.restOfWriteChunk(r);
      }
      if (r.w.healthy) {
        ContainerRecreateReplays.putBlock(r);
      }
    }, "O1", "O7");
  }
}
