package racelab.fix.leaderready;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import org.apache.hadoop.hdds.scm.ha.SCMContext;
import org.apache.hadoop.hdds.scm.server.StorageContainerManager;

/**
 * What leader-ready's parts keep outside the advised classes (the layer adds no fields): the term
 * a running {@code notifyLeaderReady} passes (P1), whether its {@code setLeaderReady} set the flag
 * (the patch's return value; 2.2.0's method is void), whether the thread is inside the callback
 * (P2), and the term of the last configuration entry each state machine was told of (P3). The
 * first three are per thread: Ratis runs the whole callback on its apply thread.
 */
public final class Callback {
  private static final ThreadLocal<Long> TERM = new ThreadLocal<>();
  private static final ThreadLocal<Boolean> SET = new ThreadLocal<>();
  private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();
  private static final Map<Object, Long> CHECKED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private static final Field LOCK = field("lock");
  private static final Field IS_LEADER = field("isLeader");
  private static final Field TERM_FIELD = field("term");
  private static final Field IS_LEADER_READY = field("isLeaderReady");

  private Callback() {
  }

  private static Field field(String name) {
    try {
      Field f = SCMContext.class.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException("SCMContext has no field " + name, e);
    }
  }

  /**
   * P1, at notifyLeaderReady's start: the term it will pass. The patch's source is Ratis' current
   * term, read as notifyLeaderChanged reads it; with P3 on, the checked entry's term (null when
   * none was seen: then no set passes).
   */
  public static void start(Object stateMachine, Object scm) {
    Long term;
    if (P3.PART.on()) {
      term = CHECKED.get(stateMachine);
    } else {
      term = ((StorageContainerManager) scm).getScmHAManager().getRatisServer().getDivision()
          .getInfo().getCurrentTerm();
    }
    TERM.set(term);
  }

  /** P1, at notifyLeaderReady's end. */
  public static void end() {
    TERM.remove();
  }

  /** The term the running callback passes (P1), or null. */
  public static Long term() {
    return TERM.get();
  }

  /**
   * P1's setLeaderReady(term): under SCMContext's own write lock, sets isLeaderReady only if
   * isLeader and the context's term is the callback's; keeps whether it did.
   */
  public static void setIfLeaderOfTerm(Object context) {
    try {
      ReadWriteLock lock = (ReadWriteLock) LOCK.get(context);
      Long term = TERM.get();
      boolean set;
      lock.writeLock().lock();
      try {
        set = IS_LEADER.getBoolean(context) && term != null
            && TERM_FIELD.getLong(context) == term;
        if (set) {
          IS_LEADER_READY.setBoolean(context, true);
        }
      } finally {
        lock.writeLock().unlock();
      }
      SET.set(set);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** P2, at notifyLeaderReady's start: inside; upstream's set always sets. */
  public static void enter() {
    INSIDE.set(true);
    SET.set(true);
  }

  /** P2, at notifyLeaderReady's end. */
  public static void leave() {
    INSIDE.remove();
    SET.remove();
  }

  /** P2: whether a services notification comes from a callback whose set did not set. */
  public static boolean notSetInsideCallback() {
    return Boolean.TRUE.equals(INSIDE.get()) && Boolean.FALSE.equals(SET.get());
  }

  /** P3: notifyConfigurationChanged(term, ...) on the apply thread, for a state machine. */
  public static void configurationEntry(Object stateMachine, long term) {
    CHECKED.put(stateMachine, term);
  }
}
