package racelab.fix.reregister;

import java.util.stream.Stream;
import racelab.fix.Row;

/**
 * The headline rows of reregister the real code can express, each with exactly the model
 * variant's parts (trunk rows hold HDFS-17953, the trunk baseline's change, as a part).
 * notify-first (the writer-order mutant) is not a row here: the writer's order lives in
 * BlockReceiver's PacketResponder, which no replay runs (the harness plays the writer).
 */
public final class Rows {
  private Rows() {
  }

  static final String C = "reregister";

  public static Stream<Row> headline() {
    return Row.withLayerOff(Stream.of(
        Row.of(C, "upstream"),
        Row.of(C, "P1", P1.PART),
        Row.of(C, "P2", P2.PART),
        Row.of(C, "P3", P3.PART),
        Row.of(C, "proposed", P1.PART, P2.PART),
        Row.of(C, "trunk", HDFS17953.PART),
        Row.of(C, "trunk+P1", HDFS17953.PART, P1.PART),
        Row.of(C, "trunk+P2", HDFS17953.PART, P2.PART),
        Row.of(C, "trunk+P3", HDFS17953.PART, P3.PART)));
  }
}
