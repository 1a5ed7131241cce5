package org.apache.hadoop.hdfs.server.datanode;

import java.util.stream.Stream;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;

/**
 * Replay of racelab's reregister finding RR-F9 on hadoop-hdfs 3.5.0: RR_O3's order
 * (ReplayReregisterO3Test: the in-flight FBR's snapshot, the writer, REG2's reRegister, then the
 * FBR returns and reschedules) with the NameNode last seen ACTIVE (the model's
 * double-register/active; scenarios/reregister-real-RR_O2.scn). reRegister clears
 * the pending IBRs only when the actor last saw the NameNode STANDBY or OBSERVER, so here X
 * stays queued and goes out as an IBR (no O1, no O3); REG2's FBR request is still overwritten by
 * the in-flight FBR's scheduleNextBlockReport (O2). Records O2 and O8, decided on the real
 * state at quiescence, on every headline row. O1 and O3 are computed as in RR_O3 (the record's
 * observed state shows X pending, then located) but not recorded: in this order the model
 * reaches neither on any row, and a J "not reached" needs a reached twin of its replay.
 * Written for racelab.
 */
public class ReplayReregisterO2Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O2_secondRegistrationDuringInFlightFbrActive(Row row) throws Exception {
    ReplayReregisterO3Test.drive(row, "RR_O2", new HAServiceState[] {HAServiceState.ACTIVE},
        "O2", "O8");
  }
}
