package racelab.fix.reconsync;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.locks.ReentrantLock;
import net.bytebuddy.asm.Advice;
import racelab.fix.Part;

/**
 * The sync side of the model's hand-off lock, as the parts P1 and A1..A4 render it on ozone-recon
 * 2.2.0: one ReentrantLock per OzoneManagerServiceProviderImpl (kept here, keyed by the provider,
 * since the advised class may not gain a field), and the sync thread's bookkeeping (which
 * provider's syncDataFromOM it runs, whether it took the lock in this loop iteration), and the
 * advice the parts share: each piece acts only while the part that installed it is on
 * ({@link Part.Self}); the parts differ in where they take and release the lock. Written for
 * racelab.
 */
public final class SyncSide {
  /** The hand-off lock; {@link #owner()} shows who holds it (a terminated thread never releases). */
  public static final class HandOffLock extends ReentrantLock {
    /** Set by a search's harness once it has decided a run stuck on this lock (see {@link #abandon}). */
    volatile boolean abandoned;
    /**
     * The thread in an abandonable acquisition that has not acquired yet (only when
     * {@link #makeAbandonable} was called): a search reads who waits (under Fray no thread waits
     * in the lock's queue, Fray blocks it before it calls lock()).
     */
    public volatile Thread acquiring;

    public Thread owner() {
      return getOwner();
    }
  }

  /** Thrown to a sync thread that waits for a lock a search's harness {@linkplain #abandon abandoned}. */
  public static final class Abandoned extends RuntimeException {
    Abandoned() {
      super("racelab harness: the hand-off lock's wait was abandoned after the verdict");
    }
  }

  /**
   * Whether a waiting acquisition can be ended by {@link #abandon} (a plain field, not volatile:
   * set once, before any run, by the one search that needs it, FraySearchReconSyncO7Test; false
   * everywhere else, where the acquisition is the plain {@code lock()} and no Fray step is added).
   */
  private static boolean abandonable;

  /** Lets {@link #abandon} end a wait for the lock (call before any run). */
  public static void makeAbandonable() {
    abandonable = true;
  }

  /**
   * After a search has decided its run: a sync thread waiting forever for this provider's lock
   * (its holder exited) is interrupted and leaves its sync by {@link Abandoned}, so that the run's
   * threads can end (Fray ends an iteration only when all have). The verdict is read before.
   */
  public static void abandon(Object provider, Thread waiting) {
    HandOffLock l = existingLockOf(provider);
    if (l != null) {
      l.abandoned = true;
      waiting.interrupt();
    }
  }

  private static final Map<Object, HandOffLock> LOCKS =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static final ThreadLocal<Object> SYNC = new ThreadLocal<>();
  private static final ThreadLocal<Boolean> TAKEN = ThreadLocal.withInitial(() -> false);

  private SyncSide() {
  }

  /** The provider's hand-off lock (created on first use). */
  public static HandOffLock lockOf(Object provider) {
    return LOCKS.computeIfAbsent(provider, k -> new HandOffLock());
  }

  /** The lock if a part ever created it for this provider, else null. */
  public static HandOffLock existingLockOf(Object provider) {
    return LOCKS.get(provider);
  }

  /** syncDataFromOM entered on this thread. */
  public static void syncEnter(Object provider) {
    SYNC.set(provider);
    TAKEN.set(false);
  }

  /** syncDataFromOM left (normally or by an exception). */
  public static void syncExit() {
    SYNC.remove();
    TAKEN.set(false);
  }

  /** Takes the lock once in this loop iteration (a later write batch of it does not re-take it). */
  public static void acquireOnce() {
    Object p = SYNC.get();
    if (p != null && !TAKEN.get()) {
      HandOffLock l = lockOf(p);
      if (!abandonable) {
        l.lock();
      } else {
        // lock()'s semantics (the wait ignores interrupts, the flag is kept), except that a wait
        // the harness abandoned ends
        boolean interrupted = false;
        l.acquiring = Thread.currentThread();
        while (true) {
          try {
            l.lockInterruptibly();
            break;
          } catch (InterruptedException e) {
            if (l.abandoned) {
              throw new Abandoned();
            }
            interrupted = true;
          }
        }
        l.acquiring = null;
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      TAKEN.set(true);
    }
  }

  /** Releases this iteration's hold, if taken (P1's finally of the loop iteration). */
  public static void releaseIterationHold() {
    Object p = SYNC.get();
    if (p != null && TAKEN.get()) {
      TAKEN.set(false);
      lockOf(p).unlock();
    }
  }

  /** The end of a loop iteration where the part does not release (A3, A4): bookkeeping only. */
  public static void endIteration() {
    TAKEN.set(false);
  }

  /** Releases every hold this thread has (A4: syncDataFromOM's finally). */
  public static void releaseAll() {
    Object p = SYNC.get();
    if (p != null) {
      HandOffLock l = lockOf(p);
      while (l.isHeldByCurrentThread()) {
        l.unlock();
      }
    }
  }

  /** syncDataFromOM: which provider this thread syncs for. */
  public static final class Sync {
    @Advice.OnMethodEnter
    static void enter(@Part.Self Class<?> part, @Advice.This Object provider) {
      if (Part.on(part)) {
        syncEnter(provider);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Part.Self Class<?> part) {
      if (Part.on(part)) {
        syncExit();
      }
    }
  }

  /** syncDataFromOM, which releases every hold in its finally (A4). */
  public static final class SyncReleasingAll {
    @Advice.OnMethodEnter
    static void enter(@Part.Self Class<?> part, @Advice.This Object provider) {
      if (Part.on(part)) {
        syncEnter(provider);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Part.Self Class<?> part) {
      if (Part.on(part)) {
        releaseAll();
        syncExit();
      }
    }
  }

  /** Takes the lock, once per loop iteration. */
  public static final class Acquire {
    @Advice.OnMethodEnter
    static void enter(@Part.Self Class<?> part) {
      if (Part.on(part)) {
        acquireOnce();
      }
    }
  }

  /** The end of a loop iteration (OMDBUpdatesHandler.close), which releases its hold. */
  public static final class ReleaseAtIterationEnd {
    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Part.Self Class<?> part) {
      if (Part.on(part)) {
        releaseIterationHold();
      }
    }
  }

  /** The end of a loop iteration where the part does not release (A3, A4). */
  public static final class EndIteration {
    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Part.Self Class<?> part) {
      if (Part.on(part)) {
        endIteration();
      }
    }
  }

  /** The release after a normal hand-off, not on an exception (A3). */
  public static final class ReleaseAtHandOff {
    @Advice.OnMethodExit
    static void exit(@Part.Self Class<?> part) {
      if (Part.on(part)) {
        releaseIterationHold();
      }
    }
  }
}
