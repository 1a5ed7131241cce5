package racelab.fix.reregister;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import net.bytebuddy.asm.Advice;
import racelab.fix.Part;

/**
 * reregister P1, the sticky FBR request: a registration's request for an FBR carries a
 * registration epoch, and an FBR whose drain started before that registration neither
 * consumes nor overwrites it. Racelab's design (HDFS-17969 has no patch), rendered over
 * hadoop-hdfs 3.5.0's BPServiceActor and its Scheduler.
 */
public final class P1 extends Part {
  public static final P1 PART = new P1();

  private static final String SCHEDULER =
      "org.apache.hadoop.hdfs.server.datanode.BPServiceActor$Scheduler";
  private static final String ACTOR = "org.apache.hadoop.hdfs.server.datanode.BPServiceActor";

  /** Per Scheduler: the request lock and the epoch (registrations requested so far). */
  private static final Map<Object, State> STATES = new IdentityHashMap<>();
  /** Per actor thread: the epoch each of its schedulers had when its blockReport started. */
  private static final ThreadLocal<Map<Object, Long>> STARTED =
      ThreadLocal.withInitial(IdentityHashMap::new);

  private static final class State {
    final ReentrantLock request = new ReentrantLock();
    long epoch;
  }

  private P1() {
    super("reregister");
    advise(SCHEDULER, "scheduleBlockReport", Request.class);
    advise(SCHEDULER, "scheduleNextBlockReport", Reschedule.class);
    advise(ACTOR, "blockReport", Started.class);
  }

  @Override
  public String renders() {
    return "Scheduler.scheduleBlockReport runs under a per-Scheduler request lock (a ReentrantLock "
        + "kept beside the Scheduler, the model's new Scheduler lock) and, for a registration "
        + "(isRegistration), bumps the epoch in it; BPServiceActor.blockReport reads the epoch "
        + "on entry, before its IBR drain; Scheduler.scheduleNextBlockReport, under the same "
        + "lock, leaves the schedule untouched when the epoch moved since that read, and runs "
        + "3.5.0's body otherwise (a call outside a blockReport runs it as 3.5.0 does, locked)";
  }

  private static synchronized State state(Object scheduler) {
    return STATES.computeIfAbsent(scheduler, s -> new State());
  }

  /** Takes the scheduler's request lock. */
  public static void lock(Object scheduler) {
    state(scheduler).request.lock();
  }

  /** Releases the request lock if this thread holds it. */
  public static void unlock(Object scheduler) {
    ReentrantLock l = state(scheduler).request;
    if (l.isHeldByCurrentThread()) {
      l.unlock();
    }
  }

  /** A registration's request: a new epoch (the caller holds the request lock). */
  public static void bump(Object scheduler) {
    state(scheduler).epoch++;
  }

  /** The scheduler's epoch (read under the request lock, or as blockReport starts). */
  public static long epoch(Object scheduler) {
    State s = state(scheduler);
    s.request.lock();
    try {
      return s.epoch;
    } finally {
      s.request.unlock();
    }
  }

  /** blockReport's entry, on the actor thread: the epoch before the drain. */
  public static void started(Object scheduler) {
    STARTED.get().put(scheduler, epoch(scheduler));
  }

  public static void finished(Object scheduler) {
    STARTED.get().remove(scheduler);
  }

  /**
   * Whether a newer registration's request must stay: this thread's blockReport started under
   * an older epoch (the caller holds the request lock).
   */
  public static boolean newerRequest(Object scheduler) {
    Long start = STARTED.get().get(scheduler);
    return start != null && start != state(scheduler).epoch;
  }

  /** scheduleBlockReport(delay, isRegistration) under the request lock; a registration bumps. */
  public static final class Request {
    @Advice.OnMethodEnter
    static boolean enter(@Advice.This Object scheduler) {
      if (!P1.PART.on()) {
        return false;
      }
      P1.lock(scheduler);
      return true;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.Enter boolean locked, @Advice.This Object scheduler,
        @Advice.Argument(1) boolean isRegistration) {
      if (locked) {
        if (isRegistration) {
          P1.bump(scheduler);
        }
        P1.unlock(scheduler);
      }
    }
  }

  /** scheduleNextBlockReport under the request lock; skipped when a newer request exists. */
  public static final class Reschedule {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This Object scheduler) {
      if (!P1.PART.on()) {
        return false;
      }
      P1.lock(scheduler);
      return P1.newerRequest(scheduler);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.This Object scheduler) {
      if (P1.PART.on()) {
        P1.unlock(scheduler);
      }
    }
  }

  /** blockReport(lease): the epoch before the drain, on the actor thread. */
  public static final class Started {
    @Advice.OnMethodEnter
    static void enter(@Advice.FieldValue("scheduler") Object scheduler) {
      if (P1.PART.on()) {
        P1.started(scheduler);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.FieldValue("scheduler") Object scheduler) {
      if (P1.PART.on()) {
        P1.finished(scheduler);
      }
    }
  }
}
