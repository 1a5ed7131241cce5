package racelab.fix.leaderready;

import net.bytebuddy.asm.Advice;
import racelab.fix.Part;

/** leader-ready P2: services are notified only when the flag was set. */
public final class P2 extends Part {
  public static final P2 PART = new P2();

  private P2() {
    super("leader-ready");
    advise("org.apache.hadoop.hdds.scm.ha.SCMStateMachine", "notifyLeaderReady", Inside.class);
    advise("org.apache.hadoop.hdds.scm.ha.SCMServiceManager", "notifyStatusChanged",
        Notify.class);
  }

  @Override
  public String renders() {
    return "SCMServiceManager.notifyStatusChanged (inside its monitor) is skipped when called from "
        + "a notifyLeaderReady on this thread whose setLeaderReady did not set the flag (P1's "
        + "ThreadLocal; upstream's set always sets); FinalizationManager.onLeaderReady and the "
        + "Ratis event still run (the model reads neither; the patch's handling of them is not "
        + "known)";
  }

  /** Marks the apply thread as inside notifyLeaderReady. */
  public static final class Inside {
    @Advice.OnMethodEnter
    static void enter() {
      if (P2.PART.on()) {
        Callback.enter();
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      if (P2.PART.on()) {
        Callback.leave();
      }
    }
  }

  /** The services' notification, skipped after a refused set. */
  public static final class Notify {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter() {
      if (!P2.PART.on()) {
        return false;
      }
      return Callback.notSetInsideCallback();
    }
  }
}
