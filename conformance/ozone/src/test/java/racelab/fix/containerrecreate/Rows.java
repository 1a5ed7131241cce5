package racelab.fix.containerrecreate;

import java.util.stream.Stream;
import racelab.fix.Row;

/** container-recreate's rows: the model's variants, each with exactly its parts. */
public final class Rows {
  private static final String C = "container-recreate";

  private Rows() {
  }

  /** The headline rows: upstream, each part alone, proposed, improved. */
  public static Stream<Row> headline() {
    return Row.withLayerOff(Stream.of(
        Row.of(C, "upstream"),
        Row.of(C, "P1", P1.PART),
        Row.of(C, "P2", P2.PART),
        Row.of(C, "P4", P4.PART),
        Row.of(C, "P5", P5.PART),
        Row.of(C, "P6", P6.PART),
        Row.of(C, "tombstone", P3.PART),
        Row.of(C, "P7", P7.PART),
        Row.of(C, "P8", P8.PART),
        Row.of(C, "proposed", P1.PART, P4.PART, P5.PART),
        Row.of(C, "improved", P2.PART, P3.PART, P7.PART, P8.PART)));
  }

  /** The other rows whose parts are all datanode parts: the ablations and the precedent. */
  public static Stream<Row> others() {
    return Row.withLayerOff(Stream.of(
        Row.of(C, "P1+P2", P1.PART, P2.PART),
        Row.of(C, "P1+P2+P7", P1.PART, P2.PART, P7.PART),
        Row.of(C, "P1+P2+P7+P8", P1.PART, P2.PART, P7.PART, P8.PART),
        Row.of(C, "HDDS-15791", P1.PART, P2.PART, P7.PART, P8.PART, N.PART),
        Row.of(C, "P3+P7+P8", P3.PART, P7.PART, P8.PART),
        Row.of(C, "P2+P7+P8", P2.PART, P7.PART, P8.PART),
        Row.of(C, "P2+P3+P8", P2.PART, P3.PART, P8.PART),
        Row.of(C, "P2+P3+P7", P2.PART, P3.PART, P7.PART),
        Row.of(C, "P4+P5", P4.PART, P5.PART)));
  }

  /** Every row of the model. */
  public static Stream<Row> all() {
    return Stream.concat(headline(), others());
  }
}
