package racelab.conformance;

import racelab.fix.Row;

/**
 * A replay's verdict on one row: a {@code J} cell of the claims matrix. The test decides from the
 * real state whether the outcome happened and prints one record per outcome it decides; the gate
 * reads the records and compares each with the cell claimed in the contract's claims.rs (a
 * difference is a deviation). "Not reached" is about this order, on these classes, with this
 * rendering of the fix: evidence, not a proof that the outcome is unreachable.
 */
public final class Replay {
  private Replay() {
  }

  /**
   * Prints {@code [racelab] J <contract> <variant> <outcome> reached|not-reached parts=<P1+P2>
   * replay=<id> -- <observed>} ({@code J-off} for a row run with the fix layer off).
   */
  public static void record(String replay, Row row, String outcome, boolean reached,
      String observed) {
    racelab.trace.Recorder.replay(replay);
    System.out.println("[racelab] " + (row.layerOff() ? "J-off " : "J ") + row.contract() + " "
        + row.variant() + " " + outcome
        + " " + (reached ? "reached" : "not-reached") + " parts=" + row.partIds() + " replay="
        + replay + " -- " + observed.replace('\n', ' '));
  }
}
