package racelab.fix.reconsync;

import racelab.fix.Part;

/**
 * recon-sync's A1 on ozone-recon 2.2.0, sync side only (see {@link #renders()}). Written for
 * racelab; nothing here is copied from upstream.
 */
public final class A1 extends Part {
  public static final A1 PART = new A1();

  private A1() {
    super(Rows.CONTRACT);
    advise(Targets.PROVIDER, "syncDataFromOM", SyncSide.Sync.class);
    advise(Targets.PROVIDER, "innerGetAndApplyDeltaUpdatesFromOM", SyncSide.Acquire.class);
    advise(Targets.HANDLER, "close", SyncSide.ReleaseAtIterationEnd.class);
  }

  @Override
  public String renders() {
    return "A1, sync side: P1's lock taken at the entry of innerGetAndApplyDeltaUpdatesFromOM (before the OM RPC, so it spans the RPC) and released as P1's, at the end of the loop iteration (OMDBUpdatesHandler.close). The REST side (triggerTaskRebuild takes the lock around queueReInitializationEvent) is not rendered: triggerTaskRebuild is in no release (HDDS-15863); no replay on 2.2.0 calls it.";
  }
}
