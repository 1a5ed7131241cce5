package racelab.trace;

import static net.bytebuddy.matcher.ElementMatchers.named;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;
import racelab.fix.Row;

/**
 * The trace recorder: the entry and exit of every observed method ({@link Probe}) on the threads
 * that play a model actor ({@link #act}), in one global order, written as JSON Lines for
 * {@code cargo xtask validate}. It takes no lock of the code under test: an event is a number
 * from one counter and an append to a lock-free queue, and the values are read from fields.
 *
 * <p>Its advice is installed after the fix layer's (the fix layer re-installs it after each of
 * its own installs), so it wraps a fix part's advice: a call whose body a part replaces is still
 * recorded.
 */
public final class Recorder {
  private static final Map<String, List<Probe>> PROBES = new ConcurrentHashMap<>();
  private static final Set<String> MATCHED = ConcurrentHashMap.newKeySet();
  private static final ThreadLocal<String> ACTOR = new ThreadLocal<>();
  /** Set while a probe reads its values: what that reading calls is not recorded. */
  private static final ThreadLocal<Boolean> READING = ThreadLocal.withInitial(() -> false);
  /** Set by {@link #elide} for the call in progress. */
  private static final ThreadLocal<Boolean> ELIDED = ThreadLocal.withInitial(() -> false);
  private static final AtomicLong SEQ = new AtomicLong();
  private static final ConcurrentLinkedQueue<String> EVENTS = new ConcurrentLinkedQueue<>();
  private static Instrumentation instrumentation;
  private static ResettableClassFileTransformer transformer;

  /** The recording in progress (one row of one replay at a time: the replays run serially). */
  private static volatile Row row;
  private static volatile String replay;
  private static volatile Map<String, String> finalState;
  /** Whether a thread's part of the model's setup was dropped ({@link #setupDone}). */
  private static volatile boolean setupSkipped;

  private Recorder() {
  }

  /** Observes {@code contract}'s methods from now on (once per JVM; later calls do nothing). */
  public static synchronized void observe(String contract, Probe... probes) {
    if (PROBES.putIfAbsent(contract, List.of(probes)) == null) {
      reinstall();
    }
  }

  /**
   * Re-installs the probes' advice if one of them observes a class of {@code types} (classes the
   * fix layer has just advised), so that it stays the outermost there; elsewhere the order of the
   * two advices does not matter.
   */
  public static synchronized void reinstallOver(java.util.Collection<String> types) {
    boolean observed = PROBES.values().stream().flatMap(List::stream)
        .anyMatch(p -> types.contains(p.type()));
    if (observed) {
      reinstall();
    }
  }

  /**
   * (Re)installs the advice of every probe as the outermost transformation. Throws, naming the
   * method, when a probe matched nothing.
   */
  public static synchronized void reinstall() {
    if (PROBES.isEmpty()) {
      return;
    }
    if (instrumentation == null) {
      instrumentation = ByteBuddyAgent.install();
    }
    if (transformer != null) {
      transformer.reset(instrumentation, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
    }
    ClassLoader loader = Recorder.class.getClassLoader();
    AgentBuilder builder = new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .ignore(net.bytebuddy.matcher.ElementMatchers.none());
    List<String> all = new ArrayList<>();
    for (Map.Entry<String, List<Probe>> e : PROBES.entrySet()) {
      for (Probe p : e.getValue()) {
        // each contract's probe is its own advice, bound to "contract/Class.method": two
        // contracts may observe one method, each only in its own rows
        String key = e.getKey() + "/" + p.name();
        all.add(key);
        try {
          Class.forName(p.type(), false, loader);
        } catch (ClassNotFoundException ex) {
          throw new IllegalStateException(key + ": " + p.type() + " is not on the class path",
              ex);
        }
        ElementMatcher<MethodDescription> matched = m -> {
          boolean hit = p.matcher().matches(m) && !m.isAbstract();
          if (hit) {
            MATCHED.add(key);
          }
          return hit;
        };
        builder = builder.type(named(p.type())).transform((b, type, cl, module, pd) -> b.visit(
            (AsmVisitorWrapper) Advice.withCustomMapping().bind(Probe.Name.class, key)
                .to(Hook.class).on(matched)));
      }
    }
    transformer = builder.installOn(instrumentation);
    List<String> missing = all.stream().filter(n -> !MATCHED.contains(n)).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the recorder observes nothing of " + missing);
    }
  }

  /** The advice: an entry and an exit event around each observed call. */
  public static final class Hook {
    private Hook() {
    }

    @Advice.OnMethodEnter
    static long enter(@Probe.Name String key) {
      return Recorder.enter(key);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Probe.Name String key, @Advice.Enter long call,
        @Advice.This(optional = true) Object self, @Advice.AllArguments Object[] args,
        @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object returned,
        @Advice.Thrown Throwable thrown) {
      Recorder.exit(key, call, self, args, returned, thrown);
    }
  }

  /**
   * The call in progress on this thread is not made in the fixed code: a part's advice that
   * replaces a method's whole body with nothing calls it (reregister's P2, whose model makes no
   * clearIBRs call at all), and the recorder drops the call.
   */
  public static void elide() {
    ELIDED.set(true);
  }

  /** The current thread plays the model's {@code actor} from now on ({@code null}: none). */
  public static void act(String actor) {
    if (actor == null) {
      ACTOR.remove();
    } else {
      ACTOR.set(actor);
    }
  }

  /**
   * The current thread's part of the model's setup ends here, where a scenario's setup runs an
   * actor's first steps before handing its threads over and the real thread runs them itself:
   * the calls this thread finished so far are dropped (the calls still open stay, and the model's
   * later steps in them are checked), and the trace says its setup was not recorded, so the
   * validator does not match the model's setup either.
   */
  public static void setupDone() {
    String thread = "\"thread\":" + Json.string(Thread.currentThread().getName()) + ",";
    List<String> open = new ArrayList<>();
    List<String> done = new ArrayList<>();
    for (String line : EVENTS) {
      if (!line.contains(thread)) {
        continue;
      }
      if (line.contains("\"event\":\"enter\"")) {
        open.add(line);
      } else if (!open.isEmpty()) {
        done.add(open.remove(open.size() - 1));
        done.add(line);
      }
    }
    EVENTS.removeAll(done);
    setupSkipped = true;
  }

  /** Starts recording {@code row}'s run (the fix layer calls it). */
  public static void begin(Row row) {
    setupSkipped = false;
    EVENTS.clear();
    SEQ.set(0);
    replay = null;
    finalState = null;
    Recorder.row = row;
  }

  /** The replay the running row belongs to ({@link racelab.conformance.Replay} calls it). */
  public static void replay(String id) {
    replay = id;
  }

  /** The observable state at the end of the run, named as the model's state names it. */
  public static void end(Map<String, String> state) {
    finalState = new LinkedHashMap<>(state);
  }

  /**
   * Writes the run's trace, when the row's contract is observed and a replay named it, to
   * {@code <racelab.traces>/<contract>/<replay>/<variant>[.off].jsonl}; stops recording.
   */
  public static void finish() throws IOException {
    Row r = row;
    row = null;
    if (r == null || replay == null || !PROBES.containsKey(r.contract())) {
      return;
    }
    Path dir = Path.of(System.getProperty("racelab.traces", "target/racelab-traces"),
        r.contract(), replay);
    Files.createDirectories(dir);
    List<String> lines = new ArrayList<>();
    Set<String> observed = new TreeSet<>();
    PROBES.get(r.contract()).forEach(p -> observed.add(p.name()));
    List<String> parts = r.parts().stream().map(p -> p.id()).toList();
    lines.add("{\"trace\":\"racelab-trace/1\",\"contract\":" + Json.string(r.contract())
        + ",\"replay\":" + Json.string(replay) + ",\"variant\":" + Json.string(r.variant())
        + ",\"parts\":" + Json.strings(parts) + ",\"layer_off\":" + r.layerOff()
        + ",\"observed\":" + Json.strings(observed) + ",\"setup\":"
        + (setupSkipped ? "\"skipped\"" : "\"recorded\"") + "}");
    // in seq order: two threads may append in the other order than they numbered their events
    List<String> events = new ArrayList<>(EVENTS);
    events.sort(java.util.Comparator.comparingLong(Recorder::seqOf));
    lines.addAll(events);
    if (finalState != null) {
      lines.add("{\"final\":" + Json.object(finalState) + "}");
    }
    String file = r.variant() + (r.layerOff() ? ".off" : "") + ".jsonl";
    Files.write(dir.resolve(file), lines, StandardCharsets.UTF_8);
  }

  public static long enter(String key) {
    String actor = ACTOR.get();
    Row r = row;
    if (r == null || actor == null || READING.get() || !key.startsWith(r.contract() + "/")) {
      return 0;
    }
    long seq = SEQ.incrementAndGet();
    EVENTS.add(event(seq, "enter", actor, method(key)) + "}");
    return seq;
  }

  public static void exit(String key, long call, Object self, Object[] args, Object returned,
      Throwable thrown) {
    if (call == 0 || row == null) {
      return;
    }
    if (ELIDED.get()) {
      ELIDED.set(false);
      String entry = "{\"seq\":" + call + ",";
      EVENTS.removeIf(line -> line.startsWith(entry));
      return;
    }
    Probe probe = probe(key);
    Map<String, String> values;
    READING.set(true);
    try {
      values = probe.values().at(self, args, returned, thrown);
    } catch (Exception e) {
      values = Map.of("recorder-error", e.toString());
    } finally {
      READING.set(false);
    }
    long seq = SEQ.incrementAndGet();
    StringBuilder line = new StringBuilder(event(seq, "exit", ACTOR.get(), method(key)));
    line.append(",\"values\":").append(Json.object(values));
    if (thrown != null) {
      line.append(",\"threw\":").append(Json.string(thrown.getClass().getName()));
    }
    EVENTS.add(line.append('}').toString());
  }

  /** An event line's seq (each line starts {@code {"seq":N,}). */
  private static long seqOf(String line) {
    int from = line.indexOf(':') + 1;
    return Long.parseLong(line.substring(from, line.indexOf(',', from)));
  }

  /** The probe bound as {@code key} ({@code contract/Class.method}). */
  private static Probe probe(String key) {
    int slash = key.indexOf('/');
    for (Probe p : PROBES.get(key.substring(0, slash))) {
      if (p.name().equals(key.substring(slash + 1))) {
        return p;
      }
    }
    throw new IllegalStateException("no probe " + key);
  }

  /** The {@code Class.method} of a probe's key. */
  private static String method(String key) {
    return key.substring(key.indexOf('/') + 1);
  }

  private static String event(long seq, String kind, String actor, String name) {
    return "{\"seq\":" + seq + ",\"event\":\"" + kind + "\",\"actor\":" + Json.string(actor)
        + ",\"thread\":" + Json.string(Thread.currentThread().getName()) + ",\"method\":"
        + Json.string(name);
  }

  /** Reads field {@code name} of {@code o} (declared by its class or a superclass), no lock. */
  public static Object field(Object o, String name) {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
      } catch (NoSuchFieldException e) {
        // a superclass's
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalArgumentException(o.getClass().getName() + " has no field " + name);
  }

  /** JSON text, written by hand: strings and flat objects of strings are all a trace holds. */
  static final class Json {
    private Json() {
    }

    static String string(String s) {
      StringBuilder b = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          case '\r' -> b.append("\\r");
          case '\t' -> b.append("\\t");
          default -> {
            if (c < 0x20) {
              b.append(String.format("\\u%04x", (int) c));
            } else {
              b.append(c);
            }
          }
        }
      }
      return b.append('"').toString();
    }

    static String strings(Iterable<String> ss) {
      List<String> out = new ArrayList<>();
      ss.forEach(s -> out.add(string(s)));
      return "[" + String.join(",", out) + "]";
    }

    static String object(Map<String, String> m) {
      List<String> out = new ArrayList<>();
      m.forEach((k, v) -> out.add(string(k) + ":" + string(String.valueOf(v))));
      return "{" + String.join(",", out) + "}";
    }
  }
}
