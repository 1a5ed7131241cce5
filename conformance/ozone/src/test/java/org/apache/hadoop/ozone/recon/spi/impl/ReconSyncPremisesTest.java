package org.apache.hadoop.ozone.recon.spi.impl;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;

/**
 * recon-sync (HDDS-17042): premises on ozone-recon 2.2.0's OzoneManagerServiceProviderImpl that
 * need no running Recon (no OM database, no SQL schema): the class's own declarations. Written
 * for racelab; nothing here is copied from upstream.
 */
public class ReconSyncPremisesTest {

  /**
   * RS-P3, the race O8 rests on: the sync scheduler is a plain instance field (neither volatile
   * nor final), and triggerSyncDataFromOMImmediately, which REST threads call and which
   * replaces that scheduler, takes no monitor; so two such calls at once write the field with
   * no happens-before between them.
   */
  @Test
  public void RS_P3_schedulerIsAPlainFieldReplacedWithoutAMonitor() throws Exception {
    Class<?> c = OzoneManagerServiceProviderImpl.class;
    Field scheduler = c.getDeclaredField("scheduler");
    int f = scheduler.getModifiers();
    Method trigger = c.getDeclaredMethod("triggerSyncDataFromOMImmediately");
    int m = trigger.getModifiers();
    boolean plainField = !Modifier.isStatic(f) && !Modifier.isVolatile(f)
        && !Modifier.isFinal(f) && scheduler.getType() == ScheduledExecutorService.class;
    boolean noMonitor = !Modifier.isSynchronized(m) && Modifier.isPublic(m);
    Premise.check(
        "OzoneManagerServiceProviderImpl.scheduler is a plain ScheduledExecutorService field and "
            + "triggerSyncDataFromOMImmediately is not synchronized",
        plainField && noMonitor,
        "scheduler: " + Modifier.toString(f) + " " + scheduler.getType().getSimpleName()
            + "; triggerSyncDataFromOMImmediately: " + Modifier.toString(m));
  }
}
