package racelab.fix.reconsync;

import net.bytebuddy.matcher.ElementMatchers;
import racelab.fix.Part;

/**
 * recon-sync's P1 on ozone-recon 2.2.0, sync side only (see {@link #renders()}). Written for
 * racelab; nothing here is copied from upstream.
 */
public final class P1 extends Part {
  public static final P1 PART = new P1();

  private P1() {
    super(Rows.CONTRACT);
    advise(Targets.PROVIDER, "syncDataFromOM", SyncSide.Sync.class);
    advise(Targets.BATCH, "newAtomicOperation", ElementMatchers.named("newAtomicOperation")
        .and(ElementMatchers.takesArguments(1)), SyncSide.Acquire.class);
    advise(Targets.HANDLER, "close", SyncSide.ReleaseAtIterationEnd.class);
  }

  @Override
  public String renders() {
    return "P1, sync side: a ReentrantLock per provider (racelab's, not a field of the class), taken by the sync thread at the first write-batch commit of a loop iteration (RDBBatchOperation.newAtomicOperation in innerGetAndApplyDeltaUpdatesFromOM: after the RPC has returned, after the first batch's iterate, which only reads the Recon OM DB this thread alone writes) and released at the end of the iteration (OMDBUpdatesHandler.close, the iteration's try-with-resources: after the hand-off, and before the catch that goes to executeFullSnapshot). The REST side (triggerTaskRebuild takes the lock around queueReInitializationEvent) is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
  }
}
