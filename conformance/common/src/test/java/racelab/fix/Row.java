package racelab.fix;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A row of the claims matrix as the real code can express it: the model's variant name and the
 * parts it holds. The gate checks that the parts are the model variant's parts.
 */
public record Row(String contract, String variant, List<Part> parts) {
  public static Row of(String contract, String variant, Part... parts) {
    for (Part p : parts) {
      if (!p.contract().equals(contract)) {
        throw new IllegalArgumentException(p + " is not a part of " + contract);
      }
    }
    return new Row(contract, variant, List.of(parts));
  }

  /** {@code P1+P2}, or {@code -} for none. */
  public String partIds() {
    return parts.isEmpty() ? "-" : parts.stream().map(Part::id).collect(Collectors.joining("+"));
  }

  @Override
  public String toString() {
    return variant;
  }
}
