package org.apache.hadoop.ozone.recon.spi.impl;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.conformance.Replay;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reconsync.Rows;

/**
 * Replay of racelab's recon-sync O3 (HDDS-5146; scenario fault-before-hand-off) on ozone-recon
 * 2.2.0, the residual the model says every design leaves open: a sync that fails between its commit
 * and its hand-off loses the batch. Order: OM writes file2; the sync (real syncDataFromOM, on the
 * test's thread) commits it to the Recon OM DB, and the delta status row's recordRunCompletion (a
 * collaborator) throws; the sync's catch falls back to a full snapshot, which fails at once (OM's
 * HTTP server unreachable). Then OM writes file3 and an ordinary sync applies it. O3 is decided at
 * quiescence: the task counts fewer files than the Recon OM DB holds (the committed file2 was never
 * applied), with the Recon OM DB at OM's sequence number.
 */
public class ReplayReconSyncO3Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RS_O3_faultBetweenCommitAndHandOff(Row row) throws Exception {
    FixLayer.run(row, () -> {
      try (ReconSyncWiring w = new ReconSyncWiring()) {
        w.putFile("file2");
        w.deltaCompletionHook = () -> {
          throw new IllegalStateException("racelab fault: the task status row was not written");
        };
        boolean first = ReconSyncWiring.as("SyncOM-0", w.provider::syncDataFromOM);
        long reconAfterFault = w.reconOmDb.getLastSequenceNumberFromDB();
        w.putFile("file3");
        boolean second = ReconSyncWiring.as("SyncOM-0", w.provider::syncDataFromOM);
        w.awaitQuiescence();
        long omSeq = w.omSeq();
        long reconSeq = w.reconOmDb.getLastSequenceNumberFromDB();
        long reconKeys = ReconSyncWiring.keys(w.reconOmDb);
        long count = w.task.files.get();
        boolean reached = reconSeq == omSeq && count < reconKeys;
        Replay.record("RS_O3", row, "O3", reached,
            "failed sync returned " + first + " with the Recon OM DB at #" + reconAfterFault
                + "; ordinary sync returned " + second + "; at quiescence OM at #" + omSeq
                + ", the Recon OM DB at #" + reconSeq + " with " + reconKeys
                + " keys, the task counts " + count + " (log: " + String.join("; ", w.task.log)
                + ")");
        w.endTrace();
      }
    });
  }
}
