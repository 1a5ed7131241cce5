package racelab.fix;

import static net.bytebuddy.matcher.ElementMatchers.named;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * The fix layer: every part's advice installed into this JVM once, by AgentBuilder
 * retransformation (redefinition fails under Fray: "attempted to change method modifiers"), and
 * switched on per row. Installing proves the layer is active: each advised class is loaded
 * (advice for a class not loaded yet would wait for a load that may never come), and each
 * advised method must have been matched while its class was transformed; otherwise install
 * throws, naming the part and the method.
 */
public final class FixLayer {
  private static final Map<String, Part> INSTALLED = new LinkedHashMap<>();
  /** {@code part:type#method} of every advised method a transformation matched. */
  private static final Set<String> MATCHED = ConcurrentHashMap.newKeySet();
  private static final List<String> ERRORS = new ArrayList<>();
  private static Instrumentation instrumentation;

  private FixLayer() {
  }

  /** Installs the advice of each part not installed yet; throws if a method was not advised. */
  public static synchronized void install(Part... parts) {
    List<Part> fresh = new ArrayList<>();
    for (Part p : parts) {
      if (INSTALLED.putIfAbsent(p.toString(), p) == null) {
        fresh.add(p);
      }
    }
    if (fresh.isEmpty()) {
      return;
    }
    if (instrumentation == null) {
      instrumentation = ByteBuddyAgent.install();
    }
    ClassLoader loader = FixLayer.class.getClassLoader();
    // load first: retransformation then rewrites the loaded class
    for (Part p : fresh) {
      for (Part.Advised a : p.advised()) {
        try {
          Class.forName(a.type(), false, loader);
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException(p + ": " + a.type() + " is not on the class path", e);
        }
      }
    }
    AgentBuilder builder = new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(new AgentBuilder.Listener.Adapter() {
          @Override
          public void onError(String typeName, ClassLoader classLoader, JavaModule module,
              boolean loaded, Throwable throwable) {
            synchronized (ERRORS) {
              ERRORS.add(typeName + ": " + throwable);
            }
          }
        })
        .ignore(net.bytebuddy.matcher.ElementMatchers.none());
    for (Part p : fresh) {
      for (Part.Advised a : p.advised()) {
        String key = p + ":" + a.type() + "#" + a.method();
        ElementMatcher<MethodDescription> recorded = m -> {
          boolean hit = a.matcher().matches(m);
          if (hit) {
            MATCHED.add(key);
          }
          return hit;
        };
        builder = builder.type(named(a.type())).transform(
            (DynamicType.Builder<?> b, TypeDescription type, ClassLoader cl, JavaModule module,
                java.security.ProtectionDomain pd) -> b.visit(
                    (AsmVisitorWrapper) Advice.withCustomMapping()
                        .bind(Part.Self.class, (Object) p.getClass())
                        .to(a.advice())
                        .on(recorded)));
      }
    }
    builder.installOn(instrumentation);
    List<String> missing = new ArrayList<>();
    for (Part p : fresh) {
      for (Part.Advised a : p.advised()) {
        if (!MATCHED.contains(p + ":" + a.type() + "#" + a.method())) {
          missing.add(p + ": " + a.target() + " was not transformed");
        }
      }
    }
    synchronized (ERRORS) {
      missing.addAll(ERRORS);
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the fix layer is not active: " + missing);
    }
    // the recorder's advice wraps the parts' (a call whose body a part replaces is recorded):
    // re-installed when a fresh part advises a class it observes
    Set<String> advised = new java.util.HashSet<>();
    for (Part p : fresh) {
      p.advised().forEach(a -> advised.add(a.type()));
    }
    racelab.trace.Recorder.reinstallOver(advised);
  }

  /** Whether {@code part}'s advice is installed and matched every method it names. */
  public static synchronized boolean active(Part part) {
    return INSTALLED.containsKey(part.toString()) && part.advised().stream()
        .allMatch(a -> MATCHED.contains(part + ":" + a.type() + "#" + a.method()));
  }

  /**
   * Runs {@code body} with exactly the row's parts on (none, with the layer off); installs them
   * first. The run is recorded ({@link racelab.trace.Recorder}) when its contract is observed.
   */
  public static <T> T run(Row row, Callable<T> body) throws Exception {
    install(row.parts().toArray(new Part[0]));
    for (Part p : row.parts()) {
      p.set(!row.layerOff());
    }
    racelab.trace.Recorder.begin(row);
    boolean done = false;
    try {
      T result = body.call();
      done = true;
      return result;
    } finally {
      for (Part p : row.parts()) {
        p.set(false);
      }
      // a run the harness abandoned leaves no trace: its records are not printed either
      if (done) {
        racelab.trace.Recorder.finish();
      } else {
        racelab.trace.Recorder.begin(null);
      }
    }
  }

  /** {@link #run(Row, Callable)} for a body that returns nothing. */
  public static void run(Row row, racelab.conformance.Threads.Body body) throws Exception {
    run(row, () -> {
      body.run();
      return null;
    });
  }
}
