package racelab.fix.reconsync;

import java.util.stream.Stream;
import racelab.fix.Row;

/**
 * recon-sync's rows that ozone-recon 2.2.0 can express. Only upstream: every part of the model
 * (P1 and A1..A4) changes triggerTaskRebuild (HDDS-15863, in no release) together with the sync
 * side, and the rows cannot be told apart on 2.2.0 without it (see DESIGN-NOTES.md, "Fix parts on
 * 2.2.0").
 */
public final class Rows {
  public static final String CONTRACT = "recon-sync";

  private Rows() {
  }

  /** The rows the replays run on. */
  public static Stream<Row> headline() {
    return Stream.of(Row.of(CONTRACT, "upstream"));
  }
}
