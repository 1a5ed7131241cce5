package racelab.fix;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * One part of a fix, rendered as racelab's own bytecode advice over a released class. A subclass
 * is named by the model's part id ({@code racelab.fix.deadnode.P1} renders dead-node's P1), holds
 * its one instance as {@code PART}, and declares its advice in its constructor with
 * {@link #advise}. The advice is installed once per JVM by {@link FixLayer#install} and does
 * nothing unless the part is on in the running row: each advice method starts with
 * {@code if (!P1.PART.on()) ...}, so the released behaviour is untouched in every other row.
 */
public abstract class Part {
  /** One advised method: the class, the method and the advice class inlined into it. */
  public record Advised(String type, String method, ElementMatcher<? super MethodDescription> matcher,
      Class<?> advice) {
    public String target() {
      return type.substring(type.lastIndexOf('.') + 1) + "#" + method;
    }
  }

  /**
   * An advice parameter ({@code Class<?>}) that receives the class of the part whose advice it
   * is: advice several parts share reads {@code Part.on(part)} instead of one part's switch.
   */
  @Retention(RetentionPolicy.RUNTIME)
  @java.lang.annotation.Target(ElementType.PARAMETER)
  public @interface Self {
  }

  private static final Map<Class<?>, Part> BY_CLASS = new ConcurrentHashMap<>();

  private final String contract;
  private final List<Advised> advised = new ArrayList<>();
  private volatile boolean on;

  protected Part(String contract) {
    this.contract = contract;
    BY_CLASS.put(getClass(), this);
  }

  /** Whether the part of class {@code part} is on: what shared advice reads ({@link Self}). */
  public static boolean on(Class<?> part) {
    Part p = BY_CLASS.get(part);
    return p != null && p.on();
  }

  /** The model's contract id ({@code dead-node}). */
  public final String contract() {
    return contract;
  }

  /**
   * The model's part id ({@code P1}): the class's simple name. A baseline's change whose id is
   * no Java name ({@code HDFS-17953}) overrides it; a row on that baseline holds it as a part.
   */
  public String id() {
    return getClass().getSimpleName();
  }

  /** Whether the running row holds this part: what every advice reads first. */
  public final boolean on() {
    return on;
  }

  final void set(boolean value) {
    on = value;
  }

  /** One line: how this renders the model's part, and where it differs from it. */
  public abstract String renders();

  /** The methods this part advises. */
  public final List<Advised> advised() {
    return Collections.unmodifiableList(advised);
  }

  /** Inlines {@code advice} into every method named {@code method} of {@code type}. */
  protected final void advise(String type, String method, Class<?> advice) {
    advise(type, method, ElementMatchers.named(method), advice);
  }

  /**
   * Inlines {@code advice} into the methods of {@code type} that {@code matcher} selects;
   * {@code method} names them in messages.
   */
  protected final void advise(String type, String method,
      ElementMatcher<? super MethodDescription> matcher, Class<?> advice) {
    advised.add(new Advised(type, method, matcher, advice));
  }

  @Override
  public String toString() {
    return contract + "/" + id();
  }
}
