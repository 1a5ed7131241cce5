package racelab.fix.reregister;

import java.lang.reflect.Method;
import java.util.Map;
import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import racelab.fix.Part;

/**
 * Upstream's HDFS-17953 (on the model's trunk baseline, apache/hadoop 2f3cdd76), which no
 * release holds: the change a row on the trunk baseline holds as a part. Rendered over
 * hadoop-hdfs 3.5.0's IncrementalBlockReportManager from the model's description of it.
 */
public final class HDFS17953 extends Part {
  public static final HDFS17953 PART = new HDFS17953();

  private static final String IBRM =
      "org.apache.hadoop.hdfs.server.datanode.IncrementalBlockReportManager";

  private HDFS17953() {
    super("reregister");
    advise(IBRM, "clearIBRs", Clear.class);
    advise(IBRM, "putMissing", PutMissing.class);
  }

  @Override
  public String id() {
    return "HDFS-17953";
  }

  @Override
  public String renders() {
    return "clearIBRs clears pendingIBRs holding the manager's own monitor (as trunk's "
        + "synchronized clearIBRs); putMissing (already synchronized in 3.5.0) skips a storage "
        + "whose entry a clear removed instead of dereferencing it, so the blocks of that "
        + "storage are dropped silently. Differs: 3.5.0 has no pendingBlockCount, so there is "
        + "no count to reset, and trunk's clearIBRsIfNeeded cap is not rendered (the model "
        + "does not have it either, RR-2)";
  }

  private static volatile Method perStoragePutMissing;

  /** PerStorageIBR.putMissing(ReceivedDeletedBlockInfo[]) on a private class: by reflection. */
  public static void putMissing(Object perStorage, StorageReceivedDeletedBlocks r) {
    try {
      Method m = perStoragePutMissing;
      if (m == null) {
        m = perStorage.getClass().getDeclaredMethod("putMissing",
            org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo[].class);
        m.setAccessible(true);
        perStoragePutMissing = m;
      }
      m.invoke(perStorage, (Object) r.getBlocks());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("HDFS-17953's putMissing: " + e, e);
    }
  }

  /** clearIBRs under the manager's monitor (P2, when on, keeps instead: its advice skips). */
  public static final class Clear {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This Object manager,
        @Advice.FieldValue("pendingIBRs") Map<?, ?> pending) {
      if (!HDFS17953.PART.on() || P2.PART.on()) {
        return false;
      }
      HDFS17953.clear(manager, pending);
      return true;
    }
  }

  /**
   * The clear under the manager's monitor, in this class rather than inlined in the advice:
   * Fray instruments a class's monitors when it loads the class, and advice retransformed into
   * IncrementalBlockReportManager later is not instrumented again, so an inlined monitor was one
   * Fray did not see (an iteration on a trunk row hung: the command thread blocked on the real
   * monitor that a writer held while Fray had parked the writer).
   */
  public static void clear(Object manager, Map<?, ?> pending) {
    synchronized (manager) {
      pending.clear();
    }
  }

  /** putMissing skipping a storage whose entry is gone (the caller holds the monitor). */
  public static final class PutMissing {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.Argument(0) StorageReceivedDeletedBlocks[] reports,
        @Advice.FieldValue("pendingIBRs") Map<?, ?> pending,
        @Advice.FieldValue(value = "readyToSend", readOnly = false) boolean readyToSend) {
      if (!HDFS17953.PART.on()) {
        return false;
      }
      for (StorageReceivedDeletedBlocks r : reports) {
        Object perStorage = pending.get(r.getStorage());
        if (perStorage != null) {
          HDFS17953.putMissing(perStorage, r);
        }
      }
      if (reports.length > 0) {
        readyToSend = true;
      }
      return true;
    }
  }
}
