package racelab.fix;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A row of the claims matrix as the real code can express it: the model's variant name and the
 * parts it holds. The gate checks that the parts are the model variant's parts. A row with the
 * fix layer off installs its parts but switches none on: it runs the released code, and must
 * give the upstream row's verdict.
 */
public record Row(String contract, String variant, List<Part> parts, boolean layerOff) {
  public static Row of(String contract, String variant, Part... parts) {
    for (Part p : parts) {
      if (!p.contract().equals(contract)) {
        throw new IllegalArgumentException(p + " is not a part of " + contract);
      }
    }
    return new Row(contract, variant, List.of(parts), false);
  }

  /** The same row with the fix layer off. */
  public Row off() {
    return new Row(contract, variant, parts, true);
  }

  /** Each row, then the same row with the fix layer off: what every replay runs. */
  public static Stream<Row> withLayerOff(Stream<Row> rows) {
    return rows.flatMap(r -> Stream.of(r, r.off()));
  }

  /** {@code P1+P2}, or {@code -} for none. */
  public String partIds() {
    return parts.isEmpty() ? "-" : parts.stream().map(Part::id).collect(Collectors.joining("+"));
  }

  @Override
  public String toString() {
    return layerOff ? variant + " (fix layer off)" : variant;
  }
}
