package racelab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.bytebuddy.asm.Advice;
import org.junit.jupiter.api.Test;

/** The layer itself: advice applies only while its part is on, and a missed method fails. */
public class FixLayerTest {
  /** A class of the test's own, loaded before its advice is installed. */
  public static final class Target {
    public int answer() {
      return 1;
    }

    public int other() {
      return 10;
    }
  }

  /** Advice two parts share: adds 1 to {@link Target#other} while the part that installed it is on. */
  public static final class PlusOne {
    @Advice.OnMethodExit
    static void exit(@Part.Self Class<?> part, @Advice.Return(readOnly = false) int answer) {
      if (Part.on(part)) {
        answer += 1;
      }
    }
  }

  /** One of the two parts that share {@link PlusOne}. */
  public static final class First extends Part {
    public static final First PART = new First();

    private First() {
      super("fix-layer");
      advise(Target.class.getName(), "other", PlusOne.class);
    }

    @Override
    public String renders() {
      return "Target.other returns one more";
    }
  }

  /** The other. */
  public static final class Second extends Part {
    public static final Second PART = new Second();

    private Second() {
      super("fix-layer");
      advise(Target.class.getName(), "other", PlusOne.class);
    }

    @Override
    public String renders() {
      return "Target.other returns one more";
    }
  }

  /** Makes {@link Target#answer} return 2. */
  public static final class Two extends Part {
    public static final Two PART = new Two();

    private Two() {
      super("fix-layer");
      advise(Target.class.getName(), "answer", Enter.class);
    }

    @Override
    public String renders() {
      return "Target.answer returns 2";
    }

    /** Skips the method when on, and answers 2. */
    public static final class Enter {
      @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
      static boolean enter() {
        return Two.PART.on();
      }

      @Advice.OnMethodExit
      static void exit(@Advice.Enter boolean skipped,
          @Advice.Return(readOnly = false) int answer) {
        if (skipped) {
          answer = 2;
        }
      }
    }
  }

  /** Names a method {@link Target} does not have. */
  public static final class Missing extends Part {
    public static final Missing PART = new Missing();

    private Missing() {
      super("fix-layer");
      advise(Target.class.getName(), "question", Two.Enter.class);
    }

    @Override
    public String renders() {
      return "advice on a method that does not exist";
    }
  }

  @Test
  public void adviceAppliesOnlyInItsRow() throws Exception {
    Target t = new Target();
    assertEquals(1, t.answer());
    int fixed = FixLayer.run(Row.of("fix-layer", "two", Two.PART), t::answer);
    assertEquals(2, fixed);
    assertEquals(1, t.answer(), "the part is off again after its row");
    assertTrue(FixLayer.active(Two.PART));
  }

  @Test
  public void sharedAdviceActsForThePartThatInstalledIt() throws Exception {
    Target t = new Target();
    FixLayer.install(First.PART, Second.PART);
    assertEquals(10, t.other());
    assertEquals(11, (int) FixLayer.run(Row.of("fix-layer", "first", First.PART), t::other));
    assertEquals(11, (int) FixLayer.run(Row.of("fix-layer", "second", Second.PART), t::other));
    assertEquals(12,
        (int) FixLayer.run(Row.of("fix-layer", "both", First.PART, Second.PART), t::other));
    assertEquals(10, (int) FixLayer.run(Row.of("fix-layer", "both", First.PART, Second.PART).off(),
        t::other), "with the layer off the released code runs");
  }

  @Test
  public void aMethodNotTransformedFailsTheInstall() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FixLayer.install(Missing.PART));
    assertTrue(e.getMessage().contains("fix-layer/Missing: FixLayerTest$Target#question was not "
        + "transformed"), e.getMessage());
  }
}
