package racelab.fix.reconsync;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;
import racelab.fix.Part;

/**
 * recon-sync's A1 on ozone-recon 2.2.0, sync side only (see {@link #renders()}). Written for
 * racelab; nothing here is copied from upstream.
 */
public final class A1 extends Part {
  public static final A1 PART = new A1();

  private A1() {
    super(Rows.CONTRACT);
    advise(Targets.PROVIDER, "syncDataFromOM", Sync.class);
    advise(Targets.PROVIDER, "innerGetAndApplyDeltaUpdatesFromOM", Acquire.class);
    advise(Targets.HANDLER, "close", IterationEnd.class);
  }

  @Override
  public String renders() {
    return "A1, sync side: P1's lock taken at the entry of innerGetAndApplyDeltaUpdatesFromOM (before the OM RPC, so it spans the RPC) and released as P1's, at the end of the loop iteration (OMDBUpdatesHandler.close). The REST side (triggerTaskRebuild takes the lock around queueReInitializationEvent) is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
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
