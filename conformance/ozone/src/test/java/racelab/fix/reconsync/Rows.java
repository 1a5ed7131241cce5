package racelab.fix.reconsync;

import java.util.stream.Stream;
import racelab.fix.Row;

/**
 * recon-sync's headline rows on ozone-recon 2.2.0. Each part is rendered on its sync side only:
 * its REST side is in triggerTaskRebuild, which no release holds (HDDS-15863). A row is run only
 * by replays that never call triggerTaskRebuild (their rebuild, if any, comes from 2.2.0's upgrade
 * action, which no part locks, neither in the model nor in the report's patch).
 */
public final class Rows {
  public static final String CONTRACT = "recon-sync";

  private Rows() {
  }

  /** upstream, proposed (P1), and the designs A1..A4. */
  public static Stream<Row> headline() {
    return Row.withLayerOff(Stream.of(Row.of(CONTRACT, "upstream"), Row.of(CONTRACT, "proposed", P1.PART),
        Row.of(CONTRACT, "A1", A1.PART), Row.of(CONTRACT, "A2", A2.PART),
        Row.of(CONTRACT, "A3", A3.PART), Row.of(CONTRACT, "A4", A4.PART)));
  }
}
