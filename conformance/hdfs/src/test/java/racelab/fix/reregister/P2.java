package racelab.fix.reregister;

import net.bytebuddy.asm.Advice;
import racelab.fix.Part;

/**
 * reregister P2, no IBR lost on re-registration: reRegister keeps the pending IBRs instead of
 * clearing them. Racelab's design (HDFS-17969 has no patch), rendered over hadoop-hdfs 3.5.0.
 */
public final class P2 extends Part {
  public static final P2 PART = new P2();

  private P2() {
    super("reregister");
    advise("org.apache.hadoop.hdfs.server.datanode.IncrementalBlockReportManager", "clearIBRs",
        Keep.class);
  }

  @Override
  public String renders() {
    return "IncrementalBlockReportManager.clearIBRs returns without clearing (its only caller in "
        + "3.5.0 is BPServiceActor.reRegister, for a NameNode last seen STANDBY or OBSERVER), so "
        + "the pending IBRs stay queued across the registration and go out with the next "
        + "sendIBRs; the model's P2 (Keep): no clear at all, so no monitor question arises; the "
        + "trace drops the call (Recorder.elide)";
  }

  /** Skips clearIBRs' body. */
  public static final class Keep {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter() {
      if (!P2.PART.on()) {
        return false;
      }
      // the model's P2 makes no clearIBRs call: the trace does not show one
      racelab.trace.Recorder.elide();
      return true;
    }
  }
}
