package racelab.search;

import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.core.randomness.Randomness;
import org.pastalab.fray.core.scheduler.PCTScheduler;
import org.pastalab.fray.core.scheduler.Scheduler;

/**
 * PCT of depth 2: random thread priorities, the highest-priority enabled thread runs, and once
 * per iteration, at a step drawn among the steps where two or more threads were enabled (Fray's
 * PCTScheduler counts only those; the bound is the most any earlier iteration had), the running
 * thread drops to the lowest priority. It is Fray's {@link PCTScheduler} with one change point
 * (Fray's default places 3; {@link RandomPriorities} none).
 *
 * <p>Why a search wants it: where one thread must stop at a point where it does not block and
 * another thread must run all of its steps there (container-recreate's R2: the PutBlock's apply
 * between dispatchRequest's getContainer and KeyValueHandler.handle, the whole force delete in
 * between), depth 1 never switches, POS switches at nearly every step (the other thread's many
 * steps never run in a row), and one change point does it whenever it lands in that stretch.
 */
public final class OneChangePoint extends FixedPct {
  public OneChangePoint() {
    this(new ControlledRandom());
  }

  /** The constructor Fray's replay calls with a recording's choices. */
  public OneChangePoint(Randomness rand) {
    this(rand, new PCTScheduler(rand, 1, 0));
  }

  private OneChangePoint(Randomness rand, PCTScheduler pct) {
    super(rand, pct);
  }

  @Override
  public Scheduler nextIteration(Randomness randomness) {
    return new OneChangePoint(randomness, nextPct(randomness));
  }
}
