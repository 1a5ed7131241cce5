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
    if (System.getProperty("racelab.fray.dump") != null) {
      System.out.println("[racelab] threads at the replay's start: " + Thread.getAllStackTraces()
          .keySet().stream().map(t -> t.getName() + (t.isDaemon() ? "(d)" : ""))
          .sorted().toList());
    }
    alignThreadIds(schedule);
    stacks = observeStacks();
    long t0 = FraySearch.realNanos();
    FraySearch.Verdict v = FixLayer.run(row, body);
    System.out.printf(java.util.Locale.ROOT, "[racelab] K %s %s %s schedule=%s reached=%s "
            + "seconds=%.3f observed=%s%n", row.contract(), variant, outcome, search + "/"
            + schedule, v.reached(), (FraySearch.realNanos() - t0) / 1e9, v.observed());
    String dump = System.getProperty("racelab.fray.dump");
    if (stacks != null) {
      // a schedule replayed again in this JVM gets its own file (<file>.<schedule>.2, ...)
      java.nio.file.Path out = java.nio.file.Path.of(System.getProperty("racelab.fray.stacks")
          + "." + schedule);
      for (int n = 2; java.nio.file.Files.exists(out); n++) {
        out = java.nio.file.Path.of(System.getProperty("racelab.fray.stacks") + "." + schedule
            + "." + n);
      }
      stacks.write(out);
    }
    if (dump != null) {
      // diagnosis: with -Dfray.recordSchedule=true, Fray's recording.json of this replay
      Object config = FraySearch.frayConfig();
      StringBuilder out = new StringBuilder();
      for (Object o : (java.util.List<?>) config.getClass().getMethod("getTestStatusObservers")
          .invoke(config)) {
        if (o.getClass().getSimpleName().equals("ScheduleRecorder")) {
          Object[] steps = ((java.util.List<?>) o.getClass().getMethod("getRecordings")
              .invoke(o)).toArray();
          for (Object step : steps) {
            out.append(step).append('\n');
          }
        }
      }
      Object delegate = Class.forName("org.pastalab.fray.runtime.Runtime")
          .getField("LOCK_DELEGATE").get(null);
      Object context = delegate.getClass().getMethod("getContext").invoke(delegate);
      for (Object tc : ((java.util.Map<?, ?>) context.getClass().getMethod("getRegisteredThreads")
          .invoke(context)).values().toArray()) {
        out.append("thread ").append(tc.getClass().getMethod("getIndex").invoke(tc)).append(' ')
            .append(((Thread) tc.getClass().getMethod("getThread").invoke(tc)).getName())
            .append('\n');
      }
      java.nio.file.Files.writeString(java.nio.file.Path.of(dump), out);
    }
    Premise.check(search + ": the kept schedule " + schedule + " reaches " + outcome
        + " again on the " + variant + " row (Fray replay)", v.reached(), v.observed());
  }

  private static StackObserver stacks;

  /**
   * Diagnosis (-Dracelab.fray.stacks=<file>): a {@link StackObserver} added to the running
   * iteration's Fray configuration (replacing the previous iteration's), or null. A replay
   * writes its steps to {@code <file>.<schedule>}; a search run that keeps its schedule, to
   * {@code stacks.txt} beside it.
   */
  static StackObserver observeStacks() throws Exception {
    if (System.getProperty("racelab.fray.stacks") == null || !FraySearch.insideFray()) {
      return null;
    }
    Object config = FraySearch.frayConfig();
    @SuppressWarnings("unchecked")
    java.util.List<Object> observers = (java.util.List<Object>) config.getClass()
        .getMethod("getScheduleObservers").invoke(config);
    observers.removeIf(o -> o instanceof StackObserver);
    StackObserver observer = new StackObserver();
    observers.add(observer);
    return observer;
  }

  /**
   * Makes the next thread this JVM creates get an id equal, modulo
   * {@link FraySearch#THREAD_ID_PERIOD}, to the first one of the search's run the schedule was
   * kept from (see {@link FraySearch#FIRST_THREAD_ID}), by creating threads that are never
   * started. They are made in a thread group Fray 0.9.2 does not register (its
   * {@code RuntimeDelegate.isSystemThread}: "InnocuousThreadGroup"), so the iteration does not
   * wait for them; while this runs no other thread is alive in the iteration, so their steps
   * draw no scheduling choice.
   */
  private void alignThreadIds(String schedule) throws java.io.IOException {
    String resource = "schedules/" + search + "/" + schedule + "/" + FraySearch.FIRST_THREAD_ID;
    try (java.io.InputStream in = FrayKept.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return;
      }
      long target = Long.parseLong(new String(in.readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8).trim());
      ThreadGroup unregistered = new ThreadGroup("InnocuousThreadGroup");
      long next = new Thread(unregistered, () -> { }).getId() + 1;
      long burn = Math.floorMod(target - next, FraySearch.THREAD_ID_PERIOD);
      for (long i = 0; i < burn; i++) {
        new Thread(unregistered, () -> { });
      }
    }
  }
}
