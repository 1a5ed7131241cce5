package racelab.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import kotlinx.serialization.json.Json;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import org.pastalab.fray.core.randomness.Randomness;
import racelab.conformance.Premise;
import racelab.fix.FixLayer;
import racelab.fix.Row;

/**
 * One Fray search over the rows of a contract's {@code Rows.headline()} with the layer on: a
 * {@link Tally} per row and outcome, one Fray iteration per {@link #run} call. A search decides
 * one outcome on each run's state, or several ({@link #and}), each recorded as its own search
 * over the same runs. The Fray*Test class holds one {@code @ConcurrencyTest} method per row
 * (Fray 0.9.2's JUnit extension has no parameterized form); each method calls {@link #run} with
 * its row's variant.
 *
 * <p>Each run that reaches an outcome keeps its schedule: the scheduler's random choices of that
 * iteration (Fray's {@code random.json}, with the scheduler's class in {@code scheduler}), under
 * {@code target/racelab-searches/<search>/schedules/<variant>/run-<n>/}. Fray's
 * {@code @ConcurrencyTest(replay = ...)} feeds them back ({@link FrayKept}); the program does
 * not consume them step for step the same way from one JVM to the next, but, without Mockito's
 * inline mock maker ({@link Mocks}), most reach their outcome every time (conformance/README.md,
 * "Second look"). Fray itself keeps a recording only when an iteration fails, and stops at the
 * first failure; a search counts every run, so it keeps the choices itself.
 *
 * <p>A run that starts after {@code -Dracelab.search.seconds} (per fix row; unset: no budget;
 * the upstream row runs all its iterations), or once {@code -Dracelab.search.runs} runs of the
 * row were made (unset: every iteration), is skipped and not counted: the record says how many
 * runs were made.
 */
public final class FraySearch {
  /** The outcomes each run decides, each recorded as its own search: search id → outcome. */
  private final Map<String, String> outcomes = new LinkedHashMap<>();
  private final Map<String, Row> rows = new LinkedHashMap<>();
  /** Per search id, per variant. */
  private final Map<String, Map<String, Tally>> tallies = new LinkedHashMap<>();
  private final Map<String, Long> started = new LinkedHashMap<>();
  private final double budgetSeconds =
      Double.parseDouble(System.getProperty("racelab.search.seconds", "0"));
  private final int maxRuns = Integer.getInteger("racelab.search.runs", 0);

  /** What a run's real state says, decided as the replay decides it. */
  public record Verdict(boolean reached, String observed) {
  }

  public FraySearch(String search, String outcome, Stream<Row> headline) {
    outcomes.put(search, outcome);
    headline.filter(r -> !r.layerOff()).forEach(r -> rows.put(r.variant(), r));
  }

  /**
   * Another outcome decided on the state of the same runs, recorded as its own search (its
   * runs are this search's runs; no row is asserted to reach it). The body then answers with
   * {@link #runEach}, one verdict per outcome in the order they were named.
   */
  public FraySearch and(String search, String outcome) {
    outcomes.put(search, outcome);
    return this;
  }

  /** The first search's id: the one asserted on the upstream row. */
  public String id() {
    return outcomes.keySet().iterator().next();
  }

  public List<Row> rows() {
    return List.copyOf(rows.values());
  }

  /**
   * Outside Fray's iterations (no delegate yet): every row's parts installed (advice installed
   * after a class is first used is lost), then one whole run on each row, so that class loading
   * and first-use initialisation do not fall in an iteration.
   */
  public void warm(Callable<?> once) throws Exception {
    for (Row row : rows.values()) {
      FixLayer.install(row.parts().toArray(new racelab.fix.Part[0]));
    }
    for (Row row : rows.values()) {
      FixLayer.run(row, once);
    }
    warmUnderFray(() -> FixLayer.run(rows.values().iterator().next(), once));
  }

  /**
   * One run under a Fray scheduler of its own (FrayInTestLauncher, outside the JUnit
   * extension's iterations, nothing recorded), so that what Fray's own code links on its first
   * use in a JVM falls here and not in the first iteration: Fray 0.9.2's
   * {@code RuntimeDelegate.onThreadStart} resolves a method handle type the first time a thread
   * is started under it, before it enters Fray's own (unscheduled) code, so the JDK's method
   * type table and Mockito's advice on {@code Object.equals} run as scheduled steps of the
   * application beside the thread being started, and their number depends on identity hash
   * codes: a kept schedule found in a later iteration would not replay in the first iteration
   * of a fresh JVM. One cause of the kept schedules' non-determinism, not the only one
   * (conformance/README.md, "Second look").
   */
  public static void warmUnderFray(Callable<?> once) {
    // every wiring's mocks are made by now (warm ran each row): none may be an inline one
    Mocks.checkNoInlineMockMaker();
    org.pastalab.fray.junit.plain.FrayInTestLauncher.INSTANCE.launchFray(() -> {
      try {
        once.call();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, new org.pastalab.fray.core.scheduler.POSScheduler(),
        new org.pastalab.fray.core.randomness.ControlledRandomProvider(), 1, 120, false,
        org.pastalab.fray.core.observers.TimelineCoverageType.NONE, c -> kotlin.Unit.INSTANCE);
  }

  /**
   * One Fray iteration on {@code variant}'s row: the body runs with the row's parts on
   * ({@link FixLayer#run}); its verdict is tallied, and a reaching run's choices kept.
   */
  public void run(String variant, Callable<Verdict> body) throws Exception {
    runEach(variant, () -> List.of(body.call()));
  }

  /** As {@link #run}, where the body decides each outcome named (in order) on its run's state. */
  public void runEach(String variant, Callable<List<Verdict>> body) throws Exception {
    Row row = rows.get(variant);
    if (row == null) {
      throw new IllegalArgumentException(outcomes.keySet() + ": no headline row " + variant);
    }
    List<Tally> rowTallies;
    synchronized (this) {
      rowTallies = outcomes.entrySet().stream()
          .map(o -> tallies.computeIfAbsent(o.getKey(), k -> new LinkedHashMap<>())
              .computeIfAbsent(variant,
                  v -> new Tally(o.getKey(), "fray", row, o.getValue(), FraySearch::realNanos)))
          .toList();
      started.putIfAbsent(variant, realNanos());
      // the upstream row (no parts) runs all its iterations: it is the check that the wiring
      // reaches the outcome at all, and a rare outcome needs them
      boolean budgeted = budgetSeconds > 0 && !row.parts().isEmpty();
      if (budgeted && (realNanos() - started.get(variant)) / 1e9 > budgetSeconds
          || maxRuns > 0 && rowTallies.get(0).runs() >= maxRuns) {
        return;
      }
    }
    StackObserver stacks = FrayKept.observeStacks();
    long choicesBefore = FixedPct.choices();
    List<Verdict> verdicts = FixLayer.run(row, body);
    checkScheduler(namedScheduler(), choicesBefore);
    if (verdicts.size() != rowTallies.size()) {
      throw new IllegalStateException(outcomes.keySet() + ": " + verdicts.size()
          + " verdicts for " + rowTallies.size() + " outcomes");
    }
    String kept = null;
    int i = 0;
    for (Map.Entry<String, String> o : outcomes.entrySet()) {
      Tally tally = rowTallies.get(i);
      Verdict v = verdicts.get(i++);
      String schedule = null;
      if (v.reached() && tally.reached() < Tally.KEPT) {
        // one folder per run, whichever outcomes it reached
        kept = kept != null ? kept : keep(o.getKey(), variant, tally.runs() + 1);
        if (stacks != null && kept != null) {
          stacks.write(Path.of(kept).resolve("stacks.txt"));
        }
        schedule = kept;
      }
      tally.run(v.reached(), schedule, v.observed());
    }
  }

  /**
   * Writes each row's record; asserts that the upstream row reached the search's first outcome
   * (a fix row's k of N, and the other outcomes', are recorded, not asserted: the gate compares
   * them with the model).
   */
  public void finish(String upstream) {
    finish(List.of(upstream));
  }

  /**
   * As {@link #finish(String)}, where the first outcome is asserted on several rows together
   * (rows the model reaches it on, where each alone reaches it too rarely to be asserted):
   * the rows' reaching runs, summed, must be more than none.
   */
  public synchronized void finish(List<String> asserted) {
    tallies.values().forEach(byRow -> byRow.values().forEach(Tally::write));
    Map.Entry<String, String> first = outcomes.entrySet().iterator().next();
    String search = first.getKey();
    String outcome = first.getValue();
    Map<String, Tally> byRow = tallies.getOrDefault(search, Map.of());
    List<Tally> on = asserted.stream().map(byRow::get).filter(java.util.Objects::nonNull).toList();
    int k = on.stream().mapToInt(Tally::reached).sum();
    int n = on.stream().mapToInt(Tally::runs).sum();
    String where = asserted.size() == 1 ? "the " + asserted.get(0) + " row"
        : "the rows " + String.join(", ", asserted) + " together";
    Premise.check(search + ": Fray reaches " + outcome + " on " + where
            + " in some of its runs (no latches)", k > 0,
        k + " of " + n + " runs reached " + outcome + " on " + String.join(", ", asserted)
            + "; rows: " + byRow.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue().reached() + "/" + e.getValue().runs())
                .collect(Collectors.joining(", ")));
  }

  /**
   * The scheduler the running test method names ({@code @ConcurrencyTest(scheduler = ...)},
   * POS when it names none), found on this thread's stack; null outside Fray or outside such a
   * method.
   */
  static Class<?> namedScheduler() {
    if (!insideFray()) {
      return null;
    }
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames ->
        frames.map(f -> {
          try {
            return f.getDeclaringClass().getDeclaredMethod(f.getMethodName())
                .getAnnotation(ConcurrencyTest.class);
          } catch (NoSuchMethodException e) {
            return null;
          }
        }).filter(java.util.Objects::nonNull).findFirst()
            .<Class<?>>map(ConcurrencyTest::scheduler).orElse(null));
  }

  /**
   * Fails unless the iteration that just ran was scheduled by {@code named} (see
   * {@link #checkScheduler(Class, Object, long, long)}); nothing outside Fray.
   */
  static void checkScheduler(Class<?> named, long choicesBefore) {
    if (named != null) {
      checkScheduler(named, currentSchedulerObject(), choicesBefore, FixedPct.choices());
    }
  }

  /**
   * Fails unless {@code running}, the iteration's scheduler, is of the class the test names,
   * and, for racelab's own ({@link FixedPct}), made choices in the run (from {@code before} to
   * {@code after}). A search's figures are its scheduler's: run under another, they would be
   * recorded under the wrong name.
   */
  static void checkScheduler(Class<?> named, Object running, long before, long after) {
    String problem = null;
    if (running == null || running.getClass() != named) {
      problem = "ran under " + (running == null ? "no scheduler" : running.getClass().getName());
    } else if (FixedPct.class.isAssignableFrom(named) && after == before) {
      problem = "made no choice of " + named.getSimpleName() + "'s";
    }
    if (problem != null) {
      throw new IllegalStateException("racelab search: the test names the scheduler "
          + named.getName() + ", but the iteration " + problem);
    }
  }

  /**
   * Keeps the current iteration's scheduler choices; returns the folder (relative to the
   * module), or a note when Fray is not running.
   */
  private String keep(String search, String variant, int run) {
    String json = currentChoices();
    if (json == null) {
      return null;
    }
    Path dir = Path.of(System.getProperty("racelab.searches", "target/racelab-searches"), search,
        "schedules", variant, "run-" + run);
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("random.json"), json, StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("scheduler"), currentScheduler(), StandardCharsets.UTF_8);
      long first = firstThreadId();
      if (first > 0) {
        Files.writeString(dir.resolve(FIRST_THREAD_ID), first + "\n", StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path here = Path.of("").toAbsolutePath();
    Path abs = dir.toAbsolutePath();
    return abs.startsWith(here) ? here.relativize(abs).toString() : abs.toString();
  }

  /**
   * Real time in nanoseconds (millisecond steps): the JVM's uptime, which Fray's virtual time
   * (MOCK: System.nanoTime, currentTimeMillis and Instant.now made virtual in its iterations)
   * does not touch.
   */
  public static long realNanos() {
    return java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
  }

  /**
   * A kept schedule's file: the id of the first thread its iteration registered besides the
   * test's own. Fray keeps its threads in a ConcurrentHashMap keyed by thread id and hands the
   * scheduler the enabled threads in that map's order, which is the ids' order modulo its table
   * size; POS draws a new thread's priority in that order. A replay in a fresh JVM, whose
   * threads get lower ids than the search's k-th run's, would give the recorded draws to other
   * threads: {@link FrayKept} first moves the JVM's next thread id to the same value modulo
   * {@link #THREAD_ID_PERIOD}.
   */
  static final String FIRST_THREAD_ID = "first-thread-id";
  static final long THREAD_ID_PERIOD = 1024;

  /** The lowest id of the running iteration's registered threads but this one's; 0 if none. */
  static long firstThreadId() {
    try {
      Object delegate = Class.forName("org.pastalab.fray.runtime.Runtime")
          .getField("LOCK_DELEGATE").get(null);
      Object context = delegate.getClass().getMethod("getContext").invoke(delegate);
      Map<?, ?> threads = (Map<?, ?>) context.getClass().getMethod("getRegisteredThreads")
          .invoke(context);
      long self = Thread.currentThread().getId();
      return threads.keySet().stream().mapToLong(k -> (Long) k).filter(id -> id != self).min()
          .orElse(0);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Fray's threads are not reachable", e);
    }
  }

  /** Fray's random.json of the running iteration's scheduler, or null outside Fray. */
  public static String currentChoices() {
    Object scheduler = currentSchedulerObject();
    if (scheduler == null) {
      return null;
    }
    Randomness rand = ((org.pastalab.fray.core.scheduler.Scheduler) scheduler).getRand();
    return Json.Default.encodeToString(Randomness.Companion.serializer(), rand);
  }

  private static String currentScheduler() {
    return currentSchedulerObject().getClass().getName();
  }

  /**
   * The running iteration's scheduler: Fray's Runtime.LOCK_DELEGATE (a RuntimeDelegate while an
   * iteration runs) holds the RunContext. Reflection, as fray-runtime is in Fray's JDK image,
   * not on the test class path.
   */
  private static Object currentSchedulerObject() {
    Object config = frayConfig();
    if (config == null) {
      return null;
    }
    try {
      return config.getClass().getMethod("getScheduler").invoke(config);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Fray's scheduler is not reachable", e);
    }
  }

  /** Whether a Fray iteration is running (its scheduler controls this thread). */
  public static boolean insideFray() {
    return frayConfig() != null;
  }

  /** The running iteration's Fray Configuration, or null outside Fray. */
  static Object frayConfig() {
    try {
      Object delegate = Class.forName("org.pastalab.fray.runtime.Runtime")
          .getField("LOCK_DELEGATE").get(null);
      if (delegate == null
          || !delegate.getClass().getName().equals("org.pastalab.fray.core.delegates.RuntimeDelegate")) {
        return null;
      }
      Object context = delegate.getClass().getMethod("getContext").invoke(delegate);
      return context.getClass().getMethod("getConfig").invoke(context);
    } catch (ClassNotFoundException e) {
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Fray's scheduler is not reachable", e);
    }
  }
}
