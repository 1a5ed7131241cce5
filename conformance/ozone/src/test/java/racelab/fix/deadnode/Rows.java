package racelab.fix.deadnode;

import java.util.stream.Stream;
import racelab.fix.Row;

/** dead-node's rows, each with exactly the model variant's parts (core/src/contracts/dead_node). */
public final class Rows {
  public static final String CONTRACT = "dead-node";

  private Rows() {
  }

  /** upstream, P1, P2, P3, P1+P2, proposed, improved, and the precedent P1+P2u+P3. */
  public static Stream<Row> all() {
    return Row.withLayerOff(Stream.of(
        Row.of(CONTRACT, "upstream"),
        Row.of(CONTRACT, "P1", P1.PART),
        Row.of(CONTRACT, "P2", P2.PART),
        Row.of(CONTRACT, "P3", P3.PART),
        Row.of(CONTRACT, "P1+P2", P1.PART, P2.PART),
        Row.of(CONTRACT, "proposed", P1.PART, P2.PART, P3.PART),
        Row.of(CONTRACT, "improved", P1.PART, P2.PART, P3.PART, P4.PART),
        Row.of(CONTRACT, "P1+P2u+P3", P1.PART, P2u.PART, P3.PART)));
  }
}
