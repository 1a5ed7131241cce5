package org.apache.hadoop.hdfs.server.datanode;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.concurrent.Callable;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.FixLayer;
import racelab.fix.reregister.Rows;
import racelab.search.FraySearch;

/**
 * A Fray search of reregister on hadoop-hdfs 3.5.0, where Lincheck never explored the order
 * (README, "Fray in the hdfs module"): the RR_O3, RR_O6 or RR_O9 search's race (REG2's
 * registerDatanode and scheduleBlockReport(0, true) against the in-flight FBR, the actor thread
 * running the real blockReport, which hands the command thread and the writer over at its
 * snapshot) under Fray's POS scheduler, no latch, one method per headline row with the layer on.
 * The threads, setup and quiescence are the Lincheck searches' ({@link ReregisterMissingSearches});
 * each iteration builds its own setup (Fray restores nothing, so nothing is pooled). The runs
 * are the shared harness's ({@link FraySearch}, as the ozone module's Fray searches): a tally
 * per row, and the schedule of each reaching run kept, which a {@code FrayKeptReregister*Test}
 * replays; {@code cargo xtask search reregister --tool fray} collects the records. A subclass
 * names its search, its race and the rows it asserts on.
 */
abstract class ReregisterFraySearch {
  static final int ITERATIONS = 200;

  abstract FraySearch search();

  /** The race one run makes, and decides from the real state. */
  abstract Callable<FraySearch.Verdict> race();

  /** The search's rows: reregister's headline rows, with the layer on. */
  static FraySearch search(String id, String outcome) {
    return new FraySearch(id, outcome, Rows.headline());
  }

  /**
   * Outside Fray's iterations: every part installed, then the shared DataNode made (as before
   * the harness was shared: the parts first), then {@link FraySearch#warm}'s whole run per row
   * and its run under a Fray scheduler of its own, so that class loading and first-use
   * initialisation do not fall in an iteration.
   */
  static void warm(FraySearch search, Callable<FraySearch.Verdict> race) throws Exception {
    search.rows().forEach(r -> FixLayer.install(r.parts().toArray(new racelab.fix.Part[0])));
    ReregisterMissingSearches.prepare();
    search.warm(race);
  }

  /** RR_O3's race (the NameNode last seen STANDBY): X finalized, unknown to the restarted one. */
  static FraySearch.Verdict o3() throws Exception {
    ReregisterMissingSearches.Setup st =
        ReregisterMissingSearches.doubleRegister(HAServiceState.STANDBY);
    ReregisterMissingSearches.Ended e = race(st, false);
    return new FraySearch.Verdict(lost(st, e), e.observed());
  }

  /** RR_O6's race (one registration): X lost with at most one registration at the NameNode. */
  static FraySearch.Verdict o6() throws Exception {
    ReregisterMissingSearches.Setup st = ReregisterMissingSearches.singleRegister();
    ReregisterMissingSearches.Ended e = race(st, true);
    int registrations;
    synchronized (st.racedNameNode()) {
      registrations = st.racedNameNode().registrations - st.registrationsBefore;
    }
    return new FraySearch.Verdict(lost(st, e) && registrations <= 1,
        e.observed() + "; registrations " + registrations);
  }

  /** RR_O9's race (ACTIVE and STANDBY): one NameNode locates X, another does not. */
  static FraySearch.Verdict o9() throws Exception {
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
    return new FraySearch.Verdict(some && none, e.observed());
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
    search().run("upstream", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    search().run("P1", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    search().run("P2", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    search().run("P3", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    search().run("proposed", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunk() throws Exception {
    search().run("trunk", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP1() throws Exception {
    search().run("trunk+P1", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP2() throws Exception {
    search().run("trunk+P2", race());
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP3() throws Exception {
    search().run("trunk+P3", race());
  }
}
