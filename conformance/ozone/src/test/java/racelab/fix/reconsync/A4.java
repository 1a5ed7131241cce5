package racelab.fix.reconsync;

import net.bytebuddy.matcher.ElementMatchers;
import racelab.fix.Part;

/**
 * recon-sync's A4 on ozone-recon 2.2.0, sync side only (see {@link #renders()}). Written for
 * racelab; nothing here is copied from upstream.
 */
public final class A4 extends Part {
  public static final A4 PART = new A4();

  private A4() {
    super(Rows.CONTRACT);
    advise(Targets.PROVIDER, "syncDataFromOM", SyncSide.SyncReleasingAll.class);
    advise(Targets.BATCH, "newAtomicOperation", ElementMatchers.named("newAtomicOperation")
        .and(ElementMatchers.takesArguments(1)), SyncSide.Acquire.class);
    advise(Targets.HANDLER, "close", SyncSide.EndIteration.class);
  }

  @Override
  public String renders() {
    return "A4, sync side: P1's lock, taken as P1's, released only when syncDataFromOM returns or throws (every hold of the thread: its finally), so held across executeFullSnapshot. The REST side (triggerTaskRebuild takes the lock around queueReInitializationEvent) is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
  }
}
