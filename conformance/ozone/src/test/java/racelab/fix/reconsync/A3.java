package racelab.fix.reconsync;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;
import racelab.fix.Part;

/**
 * recon-sync's A3 on ozone-recon 2.2.0, sync side only (see {@link #renders()}). Written for
 * racelab; nothing here is copied from upstream.
 */
public final class A3 extends Part {
  public static final A3 PART = new A3();

  private A3() {
    super(Rows.CONTRACT);
    advise(Targets.PROVIDER, "syncDataFromOM", Sync.class);
    advise(Targets.BATCH, "newAtomicOperation", ElementMatchers.named("newAtomicOperation")
        .and(ElementMatchers.takesArguments(1)), Acquire.class);
    advise(Targets.HANDLER, "close", IterationEnd.class);
    advise(Targets.CONTROLLER, "consumeOMEvents", HandOff.class);
  }

  @Override
  public String renders() {
    return "A3, sync side: P1's lock, taken as P1's, released when consumeOMEvents returns normally on the sync thread (the hand-off; not in a finally, and before syncDataFromOM's overflow check rather than at the end of the iteration): an exception between the commit and the hand-off skips the release, and the hold stays with the thread. The REST side (triggerTaskRebuild takes the lock around queueReInitializationEvent) is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
  }

  /** syncDataFromOM: which provider this thread syncs for. */
  public static final class Sync {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object provider) {
      if (PART.on()) {
        SyncSide.syncEnter(provider);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      if (PART.on()) {
        SyncSide.syncExit();
      }
    }
  }

  /** Takes the lock, once per loop iteration. */
  public static final class Acquire {
    @Advice.OnMethodEnter
    static void enter() {
      if (PART.on()) {
        SyncSide.acquireOnce();
      }
    }
  }

  /** The end of a loop iteration (OMDBUpdatesHandler.close, the iteration's try-with-resources). */
  public static final class IterationEnd {
    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      if (PART.on()) {
        SyncSide.endIteration();
      }
    }
  }

  /** The release after a normal hand-off (not on an exception). */
  public static final class HandOff {
    @Advice.OnMethodExit
    static void exit() {
      if (PART.on()) {
        SyncSide.releaseIterationHold();
      }
    }
  }
}
