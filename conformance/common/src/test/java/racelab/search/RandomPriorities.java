package racelab.search;

import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.core.randomness.Randomness;
import org.pastalab.fray.core.scheduler.PCTScheduler;
import org.pastalab.fray.core.scheduler.Scheduler;

/**
 * PCT of depth 1: in each iteration the threads get random priorities (a thread's place in the
 * order is drawn when it is first enabled) and the highest-priority enabled thread always runs;
 * a thread gives way only where it blocks. It is Fray's {@link PCTScheduler} with no priority
 * change point (Fray's default places 3 among the steps of the longest iteration seen so far).
 *
 * <p>Why a search wants it: where a whole thread must fall into another's window, depth 1 puts it
 * there whenever the window ends at a point where the other thread blocks and the priorities fall
 * that way, while change points spread over every step of an iteration rarely land in a short
 * window (container-recreate's write race: O1 in 10 of 30 runs at depth 1, 0 of 400 with 3
 * change points).
 */
public final class RandomPriorities extends FixedPct {
  public RandomPriorities() {
    this(new ControlledRandom());
  }

  /** The constructor Fray's replay calls with a recording's choices. */
  public RandomPriorities(Randomness rand) {
    this(rand, new PCTScheduler(rand, 0, 0));
  }

  private RandomPriorities(Randomness rand, PCTScheduler pct) {
    super(rand, pct);
  }

  @Override
  public Scheduler nextIteration(Randomness randomness) {
    return new RandomPriorities(randomness, nextPct(randomness));
  }
}
