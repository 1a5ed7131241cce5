package racelab.fix.leaderready;

import net.bytebuddy.asm.Advice;
import racelab.fix.Part;

/** leader-ready P3 (improved): the term passed is the one of the startup entry Ratis checked. */
public final class P3 extends Part {
  public static final P3 PART = new P3();

  private P3() {
    super("leader-ready");
    advise("org.apache.hadoop.hdds.scm.ha.SCMStateMachine", "notifyConfigurationChanged",
        Entry.class);
  }

  @Override
  public String renders() {
    return "SCMStateMachine.notifyConfigurationChanged(term, index, conf), which Ratis 3.2.1 calls "
        + "on the apply thread for the startup entry just before checkReady (premise LR_P5), "
        + "keeps that term per state machine (a weak map, not a field); P1's read at "
        + "notifyLeaderReady's start takes it instead of Ratis' current term";
  }

  /** Keeps the configuration entry's term. */
  public static final class Entry {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object stateMachine, @Advice.Argument(0) long term) {
      if (P3.PART.on()) {
        Callback.configurationEntry(stateMachine, term);
      }
    }
  }
}
