package racelab.fix.reconsync;

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
    advise(Targets.PROVIDER, "syncDataFromOM", SyncSide.Sync.class);
    advise(Targets.BATCH, "newAtomicOperation", ElementMatchers.named("newAtomicOperation")
        .and(ElementMatchers.takesArguments(1)), SyncSide.Acquire.class);
    advise(Targets.HANDLER, "close", SyncSide.EndIteration.class);
    advise(Targets.CONTROLLER, "consumeOMEvents", SyncSide.ReleaseAtHandOff.class);
  }

  @Override
  public String renders() {
    return "A3, sync side: P1's lock, taken as P1's, released when consumeOMEvents returns normally on the sync thread (the hand-off; not in a finally, and before syncDataFromOM's overflow check rather than at the end of the iteration): an exception between the commit and the hand-off skips the release, and the hold stays with the thread. The REST side (triggerTaskRebuild takes the lock around queueReInitializationEvent) is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
  }
}
