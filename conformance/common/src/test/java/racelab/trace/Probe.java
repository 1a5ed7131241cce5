package racelab.trace;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.Map;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * One observed method: the {@code Class.method} the model's steps name (as in the contract's
 * upstream.rs), the released class and method it is, and what to read at its exit: the values
 * the model's step records for it, under the names the model's detail gives them
 * ({@code isLeaderReady=true}).
 */
public record Probe(String name, String type, ElementMatcher<? super MethodDescription> matcher,
    Values values) {

  /** What a call's exit shows: read without the code's locks (fields, not synchronized getters). */
  @FunctionalInterface
  public interface Values {
    Map<String, String> at(Object self, Object[] args, Object returned, Throwable thrown)
        throws Exception;
  }

  /** An advice parameter bound to the probe's key: {@code contract/Class.method}. */
  @Retention(RetentionPolicy.RUNTIME)
  @java.lang.annotation.Target(ElementType.PARAMETER)
  public @interface Name {
  }

  /** Every method named {@code method} of {@code type}, recorded as {@code name}, no values. */
  public static Probe of(String name, String type, String method) {
    return new Probe(name, type, ElementMatchers.named(method), (s, a, r, t) -> Map.of());
  }

  /** The same probe, reading {@code values} at each exit. */
  public Probe reading(Values values) {
    return new Probe(name, type, matcher, values);
  }
}
