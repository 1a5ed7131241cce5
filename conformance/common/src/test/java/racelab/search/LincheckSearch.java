package racelab.search;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.Lincheck;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * A search under Lincheck's model checker ({@code Lincheck.runConcurrentTest}): each invocation
 * runs {@link Body} once, which builds its objects afresh, starts its threads (Lincheck controls
 * the threads started inside the body and switches at plain-field, array, monitor and
 * java.util accesses), joins them and decides from the real state whether the outcome was
 * reached. The body never throws for a reached outcome: every invocation is counted in the
 * {@link Tally} (runConcurrentTest stops at the first exception, so a search that counted by
 * throwing would see one failure at most).
 *
 * <p>Schedules. Lincheck 3.7 has no public API to re-run one interleaving by itself (its replay is
 * the IDE plugin's). Its model checker explores the interleaving tree in a fixed order (the
 * strategy's generator is {@code Random(0)}, Injections make Random, hash codes and time
 * deterministic), so invocation {@code i} of a fresh run of the same body is the same
 * interleaving, in a JVM with the same history (a fresh one): a failure is kept as
 * {@code invocation=i}, and {@link #replay} re-runs invocations 1..i and requires the outcome by
 * i. The kept form is therefore the search id, the row and i; a replay costs i invocations.
 */
public final class LincheckSearch {
  /** What one invocation saw: whether the outcome was reached, and the state it was read from. */
  public record Verdict(boolean reached, String observed) {
    public static Verdict of(boolean reached, String observed) {
      return new Verdict(reached, observed);
    }
  }

  /**
   * One invocation: fresh objects, the racing threads started and joined, the verdict. Pass an
   * instance of a named or anonymous class, never a lambda or a method reference: with a body of
   * a hidden class (what a lambda is) Lincheck 3.7's exploration ended after 3 invocations, where
   * the same body in an anonymous class ran all 200 (reregister O7: 0 of 3, then 45 of 200).
   */
  public interface Body {
    Verdict run() throws Exception;

    /**
     * Lincheck's {@code loopIterationsBeforeThreadSwitch} for this body: 10 (Lincheck's default)
     * unless a body says otherwise. At every 10th iteration of a loop Lincheck takes the loop
     * for a spin lock ("active lock detected") and switches threads at random; from that
     * unplanned switch on, its model checker records no further switch point in the
     * invocation, so a body whose threads run bounded loops of more than 10 iterations (a
     * 16-slot HashMap table scanned by clear or values().toArray) can exhaust its interleaving
     * tree after a few invocations (reregister O4: 3). {@link #NO_LOOP_SWITCH} turns those
     * switches off; the switch points at the loops' shared accesses stay, and Lincheck's
     * livelock bound (50 iterations) still fails a loop that does not end.
     */
    default int loopIterationsBeforeThreadSwitch() {
      return LINCHECK_LOOP_SWITCH;
    }
  }

  /** Lincheck 3.7's own {@code loopIterationsBeforeThreadSwitch} (LincheckSettings.DEFAULT). */
  public static final int LINCHECK_LOOP_SWITCH = 10;

  /** No switch at a loop's iterations (see {@link Body#loopIterationsBeforeThreadSwitch}). */
  public static final int NO_LOOP_SWITCH = Integer.MAX_VALUE;

  /**
   * Runs {@code block} under Lincheck with the body's settings: Lincheck's public entry point
   * when they are its defaults (every search recorded before the setting existed, so their
   * kept invocation indices stand), else its settings entry point (internal to Lincheck's
   * Kotlin API, public in its bytecode; pinned with Lincheck 3.7), with Lincheck's defaults
   * for everything but the loop switch.
   */
  private static void runLincheck(int invocations, Body body, Runnable block) {
    int loopSwitch = body.loopIterationsBeforeThreadSwitch();
    if (loopSwitch == LINCHECK_LOOP_SWITCH) {
      Lincheck.runConcurrentTest(invocations, block);
    } else {
      org.jetbrains.lincheck.LincheckSettings d = org.jetbrains.lincheck.LincheckSettings
          .Companion.getDEFAULT();
      Lincheck.runConcurrentTestInternal$lincheck(invocations,
          new org.jetbrains.lincheck.LincheckSettings(d.getAnalyzeStdLib(), loopSwitch,
              d.getLoopBound(), d.getRecursionBound()), block);
    }
  }

  private LincheckSearch() {
  }

  private static void requireNotHidden(Body body) {
    if (body.getClass().isHidden()) {
      throw new IllegalArgumentException("a search's body must not be a lambda or a method "
          + "reference (a hidden class; see Body): " + body.getClass());
    }
  }

  /** The schedule string a Tally keeps for invocation {@code i}. */
  public static String schedule(int invocation) {
    return "lincheck-3.7 runConcurrentTest invocation=" + invocation;
  }

  /**
   * Runs {@code invocations} invocations of {@code body} under the row's fix layer and records
   * each one; returns the tally (not yet written).
   */
  public static Tally search(String search, Row row, String outcome, int invocations, Body body)
      throws Exception {
    requireNotHidden(body);
    Tally tally = new Tally(search, "lincheck", row, outcome);
    long started = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    // outside the analysed code: Lincheck restores the static state (and what the block
    // captures) between invocations, so the count lives in objects it does not track
    String key = Counter.open();
    FixLayer.run(row, () -> {
      currentKey = key;
        currentBody = body;
      try {
        // a block that captures nothing (Lincheck cannot take the field offsets of a hidden
        // class's captured arguments: "Failed to get object field offset for field arg$1")
        runLincheck(invocations, body, LincheckSearch::invocation);
      } catch (RuntimeException | Error e) {
        // Lincheck's failure (a hang, a harness error) ends the search: say how far it got,
        // which the exception does not
        Object n = System.getProperties().get(key + ".n");
        System.out.println("[racelab] note: " + search + " " + row.variant() + ": Lincheck threw "
            + "after " + n + " recorded invocations: " + e.getClass().getSimpleName());
        throw e;
      } finally {
        currentKey = null;
        currentBody = null;
      }
      return null;
    });
    Counter counter = Counter.close(key);
    if (Boolean.getBoolean("racelab.lincheck.verbose")) {
      counter.entries().forEach(e -> System.out.println("[racelab] lincheck " + search + " "
          + row.variant() + " invocation " + e.invocation() + ": reached=" + e.verdict().reached()
          + " " + e.verdict().observed()));
    }
    if (counter.entries().size() < invocations) {
      System.out.println("[racelab] note: " + search + " " + row.variant() + ": Lincheck ended its "
          + "exploration after " + counter.entries().size() + " of " + invocations
          + " invocations (no unexplored interleaving left within its bounds)");
    }
    for (Counter.Entry e : counter.entries()) {
      tally.run(e.verdict().reached(), e.verdict().reached() ? schedule(e.invocation()) : null,
          e.verdict().observed(), (e.uptimeMs() - started) / 1e3);
    }
    return tally;
  }

  /**
   * The rows a search runs: the layer-on rows, less those {@code -Dracelab.lincheck.rows}
   * (variants, comma-separated) does not name, when set.
   */
  public static java.util.stream.Stream<Row> rows(java.util.stream.Stream<Row> rows) {
    String only = System.getProperty("racelab.lincheck.rows", "");
    java.util.Set<String> names = only.isBlank() ? null : java.util.Set.of(only.split(","));
    return rows.filter(r -> !r.layerOff() && (names == null || names.contains(r.variant())));
  }

  /**
   * Installs every part of {@code rows} before any Lincheck run in this JVM. Lincheck keeps the
   * bytecode it instrumented: advice installed after Lincheck first instrumented a class is lost
   * in its later runs (measured: reregister's P2, installed after the upstream row's run, left
   * clearIBRs clearing, O5 2 of 3 on P2; with every part installed first, 0 of 3). The parts
   * stay switched off until a row's FixLayer.run switches them on.
   */
  public static void installAll(java.util.stream.Stream<Row> rows) {
    FixLayer.install(rows.flatMap(r -> r.parts().stream()).distinct()
        .toArray(racelab.fix.Part[]::new));
  }

  /** The invocations per row: {@code -Dracelab.lincheck.invocations}, 200 unless set. */
  public static int invocations() {
    return Integer.getInteger("racelab.lincheck.invocations", 200);
  }

  /**
   * The invocations on {@code row}: the upstream row runs {@link #invocations()}, whose search
   * must reach its outcome; a fix row runs {@code -Dracelab.lincheck.fixInvocations} when set
   * (a smaller budget for rows that only record, on a shared machine), else the same.
   */
  public static int invocations(Row row) {
    if (row.variant().equals("upstream")) {
      return invocations();
    }
    return Integer.getInteger("racelab.lincheck.fixInvocations", invocations());
  }

  /**
   * Writes the tally; on the upstream row the outcome must have been reached (a search that
   * cannot fail is a defect). Fix rows record their k of N and assert nothing: the gate compares
   * them with the model.
   */
  public static void finish(Tally tally, Row row, String outcome) {
    tally.write();
    if (row.variant().equals("upstream") && tally.reached() == 0) {
      throw new AssertionError("upstream did not reach " + outcome + " under Lincheck: "
          + tally.reached() + " of " + tally.runs() + " invocations (not found in these runs)");
    }
  }

  /**
   * The search running now: set before runConcurrentTest, read (never written) inside it. Two
   * plain fields, not a record (Lincheck's snapshot cannot take a record's field offsets).
   */
  private static volatile String currentKey;
  private static volatile Body currentBody;

  /** One invocation of the running search's body, recorded. */
  private static void invocation() {
    Verdict v;
    try {
      v = currentBody.run();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("harness: " + e, e);
    }
    // the bookkeeping after the body, so that it adds nothing before the threads start
    Counter.record(currentKey, v);
  }

  /** One invocation of a replay: recorded, and stopped with {@link Reached} at the outcome. */
  private static void replayInvocation() {
    Verdict v;
    try {
      v = currentBody.run();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("harness: " + e, e);
    }
    Counter.record(currentKey, v);
    if (v.reached()) {
      throw new Reached(v.observed());
    }
  }

  /** Thrown inside the block by {@link #replay} at the kept invocation, to stop Lincheck there. */
  static final class Reached extends RuntimeException {
    Reached(String observed) {
      super(observed, null, false, false);
    }
  }

  /**
   * Re-runs a kept failure: a fresh exploration of {@code body} on the row, invocations 1..
   * {@code invocation}; the outcome must be reached by {@code invocation} (exactly there in a
   * fresh JVM; see the note in the body). Returns what the reaching invocation observed.
   */
  public static String replay(Row row, int invocation, Body body) throws Exception {
    requireNotHidden(body);
    String key = Counter.open();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    FixLayer.run(row, () -> {
      try {
        currentKey = key;
        currentBody = body;
        try {
          runLincheck(invocation, body, LincheckSearch::replayInvocation);
        } finally {
          currentKey = null;
        currentBody = null;
        }
      } catch (Throwable t) {
        thrown.set(t);
      }
      return null;
    });
    Counter counter = Counter.close(key);
    Counter.Entry first = counter.entries().stream().filter(e -> e.verdict().reached()).findFirst()
        .orElse(null);
    if (first == null) {
      throw new AssertionError("the kept schedule (invocation " + invocation
          + ") did not reach the outcome: " + counter.entries().size() + " invocations ran, none "
          + "reached it" + (thrown.get() == null ? "" : "; Lincheck threw " + thrown.get()));
    }
    // In a fresh JVM the kept invocation comes back exactly (measured on every kept failure).
    // In a JVM that already ran other Lincheck code the index can move (dead-node O10's kept 9
    // came at 8 after its search ran in the same JVM: classes initialised in an earlier run add
    // no events to this one), so an earlier invocation is accepted and said.
    System.out.println("[racelab] lincheck replay: the outcome came at invocation "
        + first.invocation() + (first.invocation() == invocation ? " (the kept one)"
        : " (kept: " + invocation + "; this JVM ran Lincheck code before)"));
    if (Boolean.getBoolean("racelab.lincheck.verbose")) {
      // Lincheck's report of the kept invocation: the interleaving, switch by switch
      System.out.println("[racelab] lincheck's report: " + thrown.get());
    }
    return first.verdict().observed();
  }

  /**
   * The invocations' verdicts. Lincheck restores, after each invocation, the static state and
   * what the block reaches, and its exploration stops early when the analysed code touches
   * bookkeeping that changes from one invocation to the next (a counter object whose fields the
   * block read: the exploration ended after 3 invocations). So the block records through the
   * system properties only, which analysed code reaches through System.getProperties() (a class
   * Lincheck does not instrument), into java.util.concurrent.atomic objects (which it does not
   * instrument either): the block never reads a field of them.
   */
  static final class Counter {
    /** An invocation's verdict and when it was recorded (the JVM's uptime, ms). */
    record Entry(int invocation, Verdict verdict, long uptimeMs) {
    }

    private static final String PREFIX = "racelab.lincheck.counter.";
    private static final AtomicInteger KEYS = new AtomicInteger();
    private static final int SLOTS = 1 << 16;

    private final List<Entry> entries;

    private Counter(List<Entry> entries) {
      this.entries = entries;
    }

    static String open() {
      String key = PREFIX + KEYS.incrementAndGet();
      System.getProperties().put(key + ".n", new AtomicInteger());
      System.getProperties().put(key + ".v",
          new java.util.concurrent.atomic.AtomicReferenceArray<Verdict>(SLOTS));
      System.getProperties().put(key + ".t", new java.util.concurrent.atomic.AtomicLongArray(SLOTS));
      return key;
    }

    @SuppressWarnings("unchecked")
    static void record(String key, Verdict v) {
      int i = ((AtomicInteger) System.getProperties().get(key + ".n")).incrementAndGet();
      if (i < SLOTS) {
        ((java.util.concurrent.atomic.AtomicReferenceArray<Verdict>) System.getProperties()
            .get(key + ".v")).set(i, v);
        // the JVM's uptime: inside the block Lincheck replaces System.nanoTime's value with
        // its own (deterministic) one
        ((java.util.concurrent.atomic.AtomicLongArray) System.getProperties().get(key + ".t"))
            .set(i, java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
      }
    }

    @SuppressWarnings("unchecked")
    static Counter close(String key) {
      AtomicInteger n = (AtomicInteger) System.getProperties().remove(key + ".n");
      var verdicts = (java.util.concurrent.atomic.AtomicReferenceArray<Verdict>) System
          .getProperties().remove(key + ".v");
      var times = (java.util.concurrent.atomic.AtomicLongArray) System.getProperties()
          .remove(key + ".t");
      List<Entry> out = new java.util.ArrayList<>();
      for (int i = 1; i <= Math.min(n.get(), SLOTS - 1); i++) {
        Verdict v = verdicts.get(i);
        if (v != null) {
          out.add(new Entry(i, v, times.get(i)));
        }
      }
      return new Counter(out);
    }

    List<Entry> entries() {
      return entries;
    }
  }
}
