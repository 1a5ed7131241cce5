package racelab.fix.leaderready;

import java.util.stream.Stream;
import racelab.fix.Row;

/** leader-ready's rows: the model's variants, each with exactly its parts. */
public final class Rows {
  private Rows() {
  }

  public static Stream<Row> headline() {
    return Row.withLayerOff(Stream.of(
        Row.of("leader-ready", "upstream"),
        Row.of("leader-ready", "P1", P1.PART),
        Row.of("leader-ready", "P2", P2.PART),
        Row.of("leader-ready", "proposed", P1.PART, P2.PART),
        Row.of("leader-ready", "improved", P1.PART, P2.PART, P3.PART)));
  }
}
