package org.apache.hadoop.hdfs.server.datanode;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Premise;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;
import racelab.search.Tally;

/**
 * A Fray search of reregister on hadoop-hdfs 3.5.0, where Lincheck never explored the order
 * (README, "Fray in the hdfs module"): the RR_O3, RR_O6 or RR_O9 search's race (REG2's
 * registerDatanode and scheduleBlockReport(0, true) against the in-flight FBR, the actor thread
 * running the real blockReport, which hands the command thread and the writer over at its
 * snapshot) under Fray's POS scheduler, no latch, one method per headline row with the layer on.
 * The threads, setup and quiescence are the Lincheck searches' ({@link ReregisterMissingSearches});
 * each iteration builds its own setup (Fray restores nothing, so nothing is pooled). Each
 * row's runs are tallied ({@link Tally}, as the ozone module's Fray searches record theirs) and
 * collected by {@code cargo xtask search reregister --tool fray}. A subclass names its search,
 * its race and the rows it asserts on.
 */
abstract class ReregisterFraySearch {
  static final int ITERATIONS = 200;

  /** What one run's real state says. */
  record Verdict(boolean reached, String observed) {
  }

  /** One search: a tally per row, the race each run makes, the rows one of which must reach. */
  static final class Search {
    private final String id;
    private final String outcome;
    private final Callable<Verdict> race;
    private final List<String> asserted;
    private final Map<String, Tally> tallies = new LinkedHashMap<>();

    Search(String id, String outcome, Callable<Verdict> race, List<String> asserted) {
      this.id = id;
      this.outcome = outcome;
      this.race = race;
      this.asserted = asserted;
    }

    /**
     * One Fray iteration on {@code variant}'s row; skipped, and not counted, once
     * {@code -Dracelab.search.runs} runs of the row were made (unset: every iteration).
     */
    void run(String variant) throws Exception {
      Row row = row(variant);
      Tally tally;
      synchronized (this) {
        tally = tallies.computeIfAbsent(variant,
            v -> new Tally(id, "fray", row, outcome, ReregisterFraySearch::realNanos));
        int max = Integer.getInteger("racelab.search.runs", 0);
        if (max > 0 && tally.runs() >= max) {
          return;
        }
      }
      Verdict v = FixLayer.run(row, race);
      tally.run(v.reached(), null, v.observed());
    }

    /**
     * Writes each row's record; asserts that one of the asserted rows (where the model reaches
     * the outcome) reached it. A fix row's k of N is recorded, not asserted: the report compares
     * it with the model.
     */
    synchronized void finish() {
      tallies.values().forEach(Tally::write);
      int k = asserted.stream().mapToInt(v -> tallies.containsKey(v) ? tallies.get(v).reached() : 0)
          .sum();
      Premise.check(id + ": Fray reaches " + outcome + " on one of " + asserted
              + " in some of its runs (no latches)", k > 0,
          tallies.entrySet().stream().map(e -> e.getKey() + " " + e.getValue().reached() + "/"
              + e.getValue().runs()).collect(Collectors.joining(", ")));
    }
  }

  abstract Search search();

  static Row row(String variant) {
    return Rows.headline().filter(r -> !r.layerOff() && r.variant().equals(variant))
        .findFirst().orElseThrow(() -> new IllegalArgumentException("no headline row " + variant));
  }

  /** Real time (the JVM's uptime): Fray's virtual time makes System.nanoTime virtual. */
  static long realNanos() {
    return java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
  }

  /**
   * Outside Fray's iterations: every part installed, the shared DataNode made, and one whole run
   * per row, so that class loading and first-use initialisation do not fall in an iteration.
   */
  static void warm(Search search) throws Exception {
    Rows.headline().filter(r -> !r.layerOff())
        .forEach(r -> FixLayer.install(r.parts().toArray(new racelab.fix.Part[0])));
    ReregisterMissingSearches.prepare();
    for (Row r : Rows.headline().filter(r -> !r.layerOff()).toList()) {
      FixLayer.run(r, search.race);
    }
  }

  /** RR_O3's race (the NameNode last seen STANDBY): X finalized, unknown to the restarted one. */
  static Verdict o3() throws Exception {
    ReregisterMissingSearches.Setup st =
        ReregisterMissingSearches.doubleRegister(HAServiceState.STANDBY);
    ReregisterMissingSearches.Ended e = race(st, false);
    return new Verdict(lost(st, e), e.observed());
  }

  /** RR_O6's race (one registration): X lost with at most one registration at the NameNode. */
  static Verdict o6() throws Exception {
    ReregisterMissingSearches.Setup st = ReregisterMissingSearches.singleRegister();
    ReregisterMissingSearches.Ended e = race(st, true);
    int registrations;
    synchronized (st.racedNameNode()) {
      registrations = st.racedNameNode().registrations - st.registrationsBefore;
    }
    return new Verdict(lost(st, e) && registrations <= 1,
        e.observed() + "; registrations " + registrations);
  }

  /** RR_O9's race (ACTIVE and STANDBY): one NameNode locates X, another does not. */
  static Verdict o9() throws Exception {
    ReregisterMissingSearches.Setup st = ReregisterMissingSearches.doubleRegister(
        HAServiceState.ACTIVE, HAServiceState.STANDBY);
    ReregisterMissingSearches.Ended e = race(st, false);
    boolean some = false;
    boolean none = false;
    for (ReregisterMissingSearches.NameNode n : st.nns) {
      if (n.rules.locates(ReregisterMissingSearches.X)) {
        some = true;
      } else {
        none = true;
      }
    }
    return new Verdict(some && none, e.observed());
  }

  private static ReregisterMissingSearches.Ended race(ReregisterMissingSearches.Setup st,
      boolean single) throws Exception {
    return ReregisterMissingSearches.race(st, single,
        new ReregisterSearches.CountingScheduler(), true);
  }

  private static boolean lost(ReregisterMissingSearches.Setup st,
      ReregisterMissingSearches.Ended e) {
    return e.finalized.contains(ReregisterMissingSearches.X)
        && !st.racedNameNode().locates(ReregisterMissingSearches.X);
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    search().run("upstream");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    search().run("P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    search().run("P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    search().run("P3");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    search().run("proposed");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunk() throws Exception {
    search().run("trunk");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP1() throws Exception {
    search().run("trunk+P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP2() throws Exception {
    search().run("trunk+P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP3() throws Exception {
    search().run("trunk+P3");
  }
}
