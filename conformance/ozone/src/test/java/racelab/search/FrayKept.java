package racelab.search;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import racelab.conformance.Premise;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * A kept schedule replayed: the {@code @ConcurrencyTest(replay = "classpath:schedules/...")}
 * method runs one Fray iteration whose scheduler is fed the recorded choices, and calls
 * {@link #replay} with the row the schedule was found on and the search's run body. The outcome
 * must be reached again: a replay that misses it fails (the wiring, the layer or the schedule's
 * determinism changed).
 */
public final class FrayKept {
  private final String search;
  private final String outcome;
  private final Map<String, Row> rows = new LinkedHashMap<>();

  public FrayKept(String search, String outcome, Stream<Row> headline) {
    this.search = search;
    this.outcome = outcome;
    headline.filter(r -> !r.layerOff()).forEach(r -> rows.put(r.variant(), r));
  }

  public void replay(String variant, String schedule, Callable<FraySearch.Verdict> body)
      throws Exception {
    Row row = rows.get(variant);
    if (row == null) {
      throw new IllegalArgumentException(search + ": no headline row " + variant);
    }
    if (FraySearch.currentChoices() == null) {
      throw new IllegalStateException("not under Fray: run with -Pfray (README, Schedulers)");
    }
    long t0 = FraySearch.realNanos();
    FraySearch.Verdict v = FixLayer.run(row, body);
    System.out.printf(java.util.Locale.ROOT, "[racelab] K %s %s %s schedule=%s reached=%s "
            + "seconds=%.3f observed=%s%n", row.contract(), variant, outcome, search + "/"
            + schedule, v.reached(), (FraySearch.realNanos() - t0) / 1e9, v.observed());
    Premise.check(search + ": the kept schedule " + schedule + " reaches " + outcome
        + " again on the " + variant + " row (Fray replay)", v.reached(), v.observed());
  }
}
