package racelab.conformance;

import java.util.concurrent.atomic.AtomicReference;

/** The threads of a replay or premise test: each plays one upstream thread, named as it is. */
public final class Threads {
  private Threads() {
  }

  /** A call into the real classes, which may throw. */
  public interface Body {
    void run() throws Exception;
  }

  /**
   * A thread named {@code name} that runs {@code body}, keeps what it throws in {@code failed}
   * (for the test's observation) and then runs {@code after}, even when it threw.
   */
  public static Thread recording(String name, AtomicReference<Throwable> failed, Body body,
      Runnable after) {
    return new Thread(() -> {
      try {
        body.run();
      } catch (Throwable t) {
        failed.set(t);
      } finally {
        after.run();
      }
    }, name);
  }

  /** {@link #recording(String, AtomicReference, Body, Runnable)} with nothing after. */
  public static Thread recording(String name, AtomicReference<Throwable> failed, Body body) {
    return recording(name, failed, body, () -> { });
  }
}
