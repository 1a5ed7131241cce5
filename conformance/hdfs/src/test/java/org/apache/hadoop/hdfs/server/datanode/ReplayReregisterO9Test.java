package org.apache.hadoop.hdfs.server.datanode;

import java.util.stream.Stream;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;

/**
 * Replay of racelab's reregister counterexample upstream/O9 (double-register/two-namenodes;
 * scenarios/reregister-real-RR_O9.scn, finding RR-F10) on hadoop-hdfs 3.5.0: a real
 * BPOfferService with two real actors. nn0 (ACTIVE) keeps the DataNode (its actor registered,
 * its state ACTIVE); nn1 restarts (STANDBY) and goes through RR_O3's order (REG1 done, REG2
 * queued; nn1's in-flight FBR snapshots and is processed; the writer finalizes X and
 * BPOfferService.notifyNamenodeReceivedBlock queues it for both actors; REG2's reRegister with
 * nn1 clears nn1's pending IBRs; the FBR returns and reschedules). Then both real offerService
 * loops run to quiescence. O9, decided on the two fake NameNodes' state: one locates X, the
 * other nowhere. Written for racelab.
 */
public class ReplayReregisterO9Test {

  static Stream<Row> rows() {
    return Rows.headline();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  public void RR_O9_restartedNameNodeLosesWhatTheOtherLocates(Row row) throws Exception {
    ReplayReregisterO3Test.drive(row, "RR_O9",
        new HAServiceState[] {HAServiceState.ACTIVE, HAServiceState.STANDBY}, "O9");
  }
}
