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
    public Thread owner() {
      return getOwner();
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
      lockOf(p).lock();
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
