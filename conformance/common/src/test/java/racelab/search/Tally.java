package racelab.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import racelab.fix.Row;

/**
 * One search's result on one row: how many of its runs, under a controlled scheduler and without
 * latches, reached the outcome, and the first of them. The test decides {@code reached} from the
 * real state after each run, as a replay does. "Not reached in N runs" is evidence about these
 * runs, never a proof that the outcome is unreachable: the gate compares it with the model's cell
 * and says so.
 *
 * <p>{@link #write()} prints {@code [racelab] S ...} and writes
 * {@code target/racelab-searches/<search>/<variant>[.off].json} (schema {@code racelab-search/1}),
 * which {@code cargo xtask search} collects.
 */
public final class Tally {
  /** A run that reached the outcome: its number (1-based), how it can be replayed, what it saw. */
  public record Failure(int run, String schedule, String observed) {
  }

  /** The failures kept in the record: the first ones; the count is always complete. */
  public static final int KEPT = 5;

  private final String search;
  private final String tool;
  private final Row row;
  private final String outcome;
  /** Nanoseconds of real time: a controlled scheduler may make System.nanoTime virtual. */
  private final LongSupplier clock;
  private final long started;
  private int runs;
  private int reached;
  private double firstSeconds = -1;
  /** When the last run ended, in seconds since this tally was made: the row's own time. */
  private double lastSeconds;
  private final List<Failure> failures = new ArrayList<>();

  /**
   * @param search the search's id, as the replay ids are named ({@code LR_O1}, {@code RR_O5})
   * @param tool {@code fray} or {@code lincheck}
   */
  public Tally(String search, String tool, Row row, String outcome) {
    this(search, tool, row, outcome, System::nanoTime);
  }

  /**
   * With the clock its seconds are read from, in nanoseconds: Fray's virtual time
   * ({@code SystemTimeDelegateType.MOCK}) makes System.nanoTime virtual inside its iterations.
   */
  public Tally(String search, String tool, Row row, String outcome, LongSupplier nanoClock) {
    this.search = search;
    this.tool = tool;
    this.row = row;
    this.outcome = outcome;
    this.clock = nanoClock;
    this.started = nanoClock.getAsLong();
  }

  /**
   * One run's verdict. {@code schedule} names how to replay it (a Fray recording's path, a
   * Lincheck seed), or is null.
   */
  public synchronized void run(boolean reachedNow, String schedule, String observed) {
    run(reachedNow, schedule, observed, (clock.getAsLong() - started) / 1e9);
  }

  /**
   * One run's verdict, recorded after the fact: {@code atSeconds} is when the run ended, in
   * seconds since this tally was made (a Lincheck search learns its invocations' verdicts only
   * once runConcurrentTest has returned).
   */
  public synchronized void run(boolean reachedNow, String schedule, String observed,
      double atSeconds) {
    runs++;
    lastSeconds = atSeconds;
    if (!reachedNow) {
      return;
    }
    reached++;
    if (firstSeconds < 0) {
      firstSeconds = atSeconds;
    }
    if (failures.size() < KEPT) {
      failures.add(new Failure(runs, schedule, observed));
    }
  }

  public synchronized int runs() {
    return runs;
  }

  public synchronized int reached() {
    return reached;
  }

  /** Prints the {@code S} record and writes its JSON file; returns the file. */
  public synchronized Path write() {
    // to the end of its last run, not to now: a class may write every row's tally at its end
    double seconds = lastSeconds;
    String first = failures.isEmpty() ? "-" : "run " + failures.get(0).run();
    System.out.println("[racelab] S " + row.contract() + " " + row.variant() + " " + outcome
        + " tool=" + tool + " search=" + search + " parts=" + row.partIds()
        + (row.layerOff() ? " layer=off" : "") + " reached=" + reached + "/" + runs
        + " first=" + first);
    StringBuilder json = new StringBuilder("{\"schema\":\"racelab-search/1\"");
    field(json, "search", search);
    field(json, "tool", tool);
    field(json, "contract", row.contract());
    field(json, "variant", row.variant());
    field(json, "parts", row.partIds());
    json.append(",\"layer_off\":").append(row.layerOff());
    field(json, "outcome", outcome);
    json.append(",\"runs\":").append(runs);
    json.append(",\"reached\":").append(reached);
    json.append(",\"first_run\":").append(failures.isEmpty() ? "null" : failures.get(0).run());
    json.append(",\"first_seconds\":").append(firstSeconds < 0 ? "null" : seconds(firstSeconds));
    json.append(",\"seconds\":").append(seconds(seconds));
    json.append(",\"failures\":[");
    for (int i = 0; i < failures.size(); i++) {
      Failure f = failures.get(i);
      json.append(i == 0 ? "{" : ",{").append("\"run\":").append(f.run());
      field(json, "schedule", f.schedule());
      field(json, "observed", f.observed());
      json.append('}');
    }
    json.append("]}\n");
    Path dir = Path.of(System.getProperty("racelab.searches", "target/racelab-searches"), search);
    Path file = dir.resolve(row.variant() + (row.layerOff() ? ".off" : "") + ".json");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  private static String seconds(double s) {
    return String.format(java.util.Locale.ROOT, "%.3f", s);
  }

  private static void field(StringBuilder json, String key, String value) {
    json.append(",\"").append(key).append("\":");
    if (value == null) {
      json.append("null");
      return;
    }
    json.append('"');
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }
}
