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
  public void aMethodNotTransformedFailsTheInstall() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FixLayer.install(Missing.PART));
    assertTrue(e.getMessage().contains("fix-layer/Missing: FixLayerTest$Target#question was not "
        + "transformed"), e.getMessage());
  }
}
