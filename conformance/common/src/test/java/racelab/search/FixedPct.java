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
 * records, so each keeps its own class and the constructors Fray calls.
 *
 * <p>Public, with public subclasses. An earlier stop made this class package-private, saw
 * container-recreate's R2 upstream reach O5 in 0 of 40 runs against 8 of 40, and wrote that Fray
 * then ran without the named scheduler. It does run it: each iteration now checks the running
 * scheduler's class and that it made choices ({@link FraySearch#checkScheduler}), and both held
 * with this class package-private. The rate still differed, paired runs of 20 in fresh JVMs
 * (2026-12-06): package-private 1 and 4, public 8 and 5. The change point is drawn among the
 * steps of the longest iteration so far, which is the first one (its first-use work); one JVM
 * each, that first iteration took 20,655 steps package-private and 10,573 public, and a change
 * point drawn past the end of a run never fires. An observation, not a proven cause.
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
