package racelab.fix.reconsync;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;
import racelab.fix.Part;

/**
 * recon-sync's A2 on ozone-recon 2.2.0, sync side only (see {@link #renders()}). Written for
 * racelab; nothing here is copied from upstream.
 */
public final class A2 extends Part {
  public static final A2 PART = new A2();

  private A2() {
    super(Rows.CONTRACT);
    advise(Targets.PROVIDER, "syncDataFromOM", Sync.class);
    advise(Targets.BATCH, "newAtomicOperation", ElementMatchers.named("newAtomicOperation")
        .and(ElementMatchers.takesArguments(1)), Acquire.class);
    advise(Targets.HANDLER, "close", IterationEnd.class);
  }

  @Override
  public String renders() {
    return "A2, sync side: as P1's (the same lock, span and release). A2 differs from P1 only on the REST side (triggerTaskRebuild holds the lock around createOMCheckpoint alone), which is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
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
        SyncSide.releaseIterationHold();
      }
    }
  }

}
