package racelab.fix.reconsync;

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
    advise(Targets.PROVIDER, "syncDataFromOM", SyncSide.Sync.class);
    advise(Targets.BATCH, "newAtomicOperation", ElementMatchers.named("newAtomicOperation")
        .and(ElementMatchers.takesArguments(1)), SyncSide.Acquire.class);
    advise(Targets.HANDLER, "close", SyncSide.ReleaseAtIterationEnd.class);
  }

  @Override
  public String renders() {
    return "A2, sync side: as P1's (the same lock, span and release). A2 differs from P1 only on the REST side (triggerTaskRebuild holds the lock around createOMCheckpoint alone), which is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
  }
}
