package racelab.fix.leaderready;

import net.bytebuddy.asm.Advice;
import racelab.fix.Part;

/** leader-ready P1: setLeaderReady(term) sets the flag only while leader of that term. */
public final class P1 extends Part {
  public static final P1 PART = new P1();

  private P1() {
    super("leader-ready");
    advise("org.apache.hadoop.hdds.scm.ha.SCMStateMachine", "notifyLeaderReady", Start.class);
    advise("org.apache.hadoop.hdds.scm.ha.SCMContext", "setLeaderReady", Set.class);
  }

  @Override
  public String renders() {
    return "2.2.0's setLeaderReady() takes no term, so notifyLeaderReady's entry reads Ratis' "
        + "current term (scm.getScmHAManager().getRatisServer().getDivision().getInfo()"
        + ".getCurrentTerm(), notifyLeaderChanged's source; the checked entry's with P3) into a "
        + "ThreadLocal of the apply thread, and setLeaderReady's body is replaced: under "
        + "SCMContext's own write lock it sets isLeaderReady only if isLeader and term equal that "
        + "term; whether it did goes to a ThreadLocal (the void method cannot return it)";
  }

  /** At notifyLeaderReady's start: the term it passes. */
  public static final class Start {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object stateMachine, @Advice.FieldValue("scm") Object scm) {
      if (P1.PART.on()) {
        Callback.start(stateMachine, scm);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      if (P1.PART.on()) {
        Callback.end();
      }
    }
  }

  /** setLeaderReady's body, replaced by the term check. */
  public static final class Set {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This Object context) {
      if (!P1.PART.on()) {
        return false;
      }
      Callback.setIfLeaderOfTerm(context);
      return true;
    }
  }
}
