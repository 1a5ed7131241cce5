package racelab.search;

import java.lang.reflect.Field;
import org.objenesis.ObjenesisStd;

/**
 * Mockito in the JVMs of the Fray searches and kept replays. There (each module's fray
 * profile's test JVM) a {@code mockito-extensions} resource (common/src/fray/mockito) makes the
 * subclass mock maker Mockito's default: its inline one instruments {@code java.lang.Object},
 * and its advice looks each {@code equals}/{@code wait} receiver up in maps keyed by identity
 * hash, in every thread, so the number of Fray steps changed from one JVM to the next and kept schedules did not replay
 * deterministically (conformance/README.md, "Second look", cause 3). A subclass mock cannot be of
 * a final class: a wiring builds those by hand where {@link #subclassOnly} (see
 * LeaderReadyWiring).
 */
public final class Mocks {
  private static final String PLUGIN = "mockito-extensions/org.mockito.plugins.MockMaker";
  /** What Mockito's inline mock maker injects into the boot class loader when it starts. */
  private static final String INLINE_DISPATCHER =
      "org.mockito.internal.creation.bytebuddy.inject.MockMethodDispatcher";

  private Mocks() {
  }

  /** Whether this JVM's Mockito makes subclass mocks by default (the fray profile's resource). */
  public static boolean subclassOnly() {
    return Mocks.class.getClassLoader().getResource(PLUGIN) != null;
  }

  /**
   * Whether this JVM is the fray profile's (the same resource: it is on that JVM's class path
   * only), where the Fray searches and kept replays run.
   */
  public static boolean frayJvm() {
    return subclassOnly();
  }

  /**
   * Fails unless Mockito's inline mock maker was never started in this JVM (it would have put its
   * dispatcher into the boot class loader, and instrumented {@code Object} at its first mock).
   */
  public static void checkNoInlineMockMaker() {
    try {
      Class.forName(INLINE_DISPATCHER, false, null);
    } catch (ClassNotFoundException expected) {
      return;
    }
    throw new IllegalStateException("Mockito's inline mock maker was started in this Fray JVM ("
        + INLINE_DISPATCHER + " is in the boot class loader): its advice on java.lang.Object "
        + "makes kept schedules non-deterministic; the fray profile's " + PLUGIN
        + " (common/src/fray/mockito) should have made the subclass mock maker the default");
  }

  /**
   * An instance of a (final) class without running a constructor: its fields are the defaults
   * until {@link #set}. A test double whose methods are the released class's own.
   */
  public static <T> T allocate(Class<T> type) {
    return new ObjenesisStd().newInstance(type);
  }

  /** Sets {@code name}, a field declared by {@code owner}, on {@code target}. */
  public static void set(Object target, Class<?> owner, String name, Object value) {
    try {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      f.set(target, value);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(owner.getSimpleName() + "." + name, e);
    }
  }
}
