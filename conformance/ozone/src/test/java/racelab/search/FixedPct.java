package racelab.search;

import java.util.Collection;
import java.util.List;
import org.pastalab.fray.core.ThreadContext;
import org.pastalab.fray.core.randomness.Randomness;
import org.pastalab.fray.core.scheduler.PCTScheduler;
import org.pastalab.fray.core.scheduler.Scheduler;

/**
 * Fray's {@link PCTScheduler} with a fixed number of priority change points (Fray's default
 * places 3): {@link RandomPriorities} none, {@link OneChangePoint} one. A subclass is what a
 * search names ({@code scheduler = ...class}) and what a kept schedule's {@code scheduler} file
 * records, so each keeps its own class and the constructors Fray calls. Public, with public
 * subclasses: with this class package-private, Fray 0.9.2's JUnit extension did not run the
 * named scheduler and said nothing (container-recreate's R2 upstream: 0 of 40 runs, as POS finds
 * it, against 8 of 40 with it public, the same as before this class).
 */
public abstract class FixedPct extends Scheduler {
  /**
   * Every choice any of these schedulers made in this JVM: a search checks that its run moved it
   * ({@link FraySearch#runEach}), so that a scheduler Fray was named but did not consult fails
   * the search instead of leaving POS's figures under its name. A plain field, not an atomic:
   * Fray makes an atomic's operations steps of its own, and only one thread runs at a time under
   * it, the scheduler's choices included.
   */
  private static long choices;
  private final PCTScheduler pct;

  protected FixedPct(Randomness rand, PCTScheduler pct) {
    super(rand);
    this.pct = pct;
  }

  /** The next iteration's PCT (it keeps the longest iteration seen, where change points fall). */
  protected final PCTScheduler nextPct(Randomness randomness) {
    return (PCTScheduler) pct.nextIteration(randomness);
  }

  /** How many choices these schedulers have made in this JVM. */
  static long choices() {
    return choices;
  }

  @Override
  public final ThreadContext scheduleNextOperation(List<ThreadContext> threads,
      Collection<ThreadContext> allThreads) {
    choices++;
    return pct.scheduleNextOperation(threads, allThreads);
  }
}
