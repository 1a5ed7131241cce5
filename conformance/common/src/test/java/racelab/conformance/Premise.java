package racelab.conformance;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The one assertion every premise and replay test ends with. With {@code -Dracelab.negate=true}
 * (or {@code mvn test -Pnegate}) it is flipped: the test fails exactly when the statement holds.
 * That pass shows each test can fail; {@code cargo xtask conformance} runs it and requires every
 * result to flip.
 */
public final class Premise {
  private Premise() {
  }

  public static boolean negated() {
    return Boolean.getBoolean("racelab.negate");
  }

  /**
   * @param statement the premise as the model states it
   * @param holds whether the real class behaved that way
   * @param observed what was observed, for the report
   */
  public static void check(String statement, boolean holds, String observed) {
    // printed first, in both modes: the report then shows the observation the assertion
    // (plain or negated) is decided by, whichever way it goes
    System.out.println("[racelab] " + (holds ? "holds" : "does not hold") + ": " + statement
        + " -- observed: " + observed);
    if (negated()) {
      if (holds) {
        fail("[negated] the statement holds, so the negated assertion fails: " + statement
            + " -- observed: " + observed);
      }
    } else if (!holds) {
      fail("premise does not hold: " + statement + " -- observed: " + observed);
    }
  }
}
