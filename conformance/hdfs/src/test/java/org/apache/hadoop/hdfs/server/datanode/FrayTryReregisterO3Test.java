package org.apache.hadoop.hdfs.server.datanode;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.reregister.Rows;

/**
 * A try, not a recorded search: reregister O3 and O2 in the RR_O3 search's race (REG2's
 * registerDatanode and scheduleBlockReport(0, true) against the in-flight FBR, which the Lincheck
 * search never ran inside the FBR) under Fray's POS scheduler on hadoop-hdfs 3.5.0, one method
 * per headline row with the layer on. The threads, setup and quiescence are the Lincheck
 * search's (ReregisterMissingSearches: the actor thread's real blockReport, which hands the
 * command thread and the writer over at its snapshot; the NameNode last seen STANDBY); each
 * iteration builds its own setup (Fray restores nothing, so nothing is pooled). Predicates: O3 as
 * the RR_O3 search's (X finalized, unknown to the restarted NameNode at quiescence); O2 as
 * RR_O2_FBR's (REG2 requested an FBR and no snapshot began after it, on the counting clock).
 * Prints one line per iteration and each row's k of N at the end; asserts nothing: the records
 * of cargo xtask search come from the ozone module's Fray harness, which this module does not
 * have (README, "Fray in the hdfs module"). Profile {@code fray} (JDK25_HOME set).
 */
@ExtendWith(FrayTestExtension.class)
public class FrayTryReregisterO3Test {
  static final int ITERATIONS = 200;
  /** Per row: runs, O3 reached, O2 reached, the first O3 run, the first O2 run. */
  private static final Map<String, int[]> COUNTS = new TreeMap<>();

  static Row row(String variant) {
    return Rows.headline().filter(r -> !r.layerOff() && r.variant().equals(variant))
        .findFirst().orElseThrow();
  }

  /**
   * Outside Fray's iterations: every part installed, the shared DataNode made, and one whole run
   * per row, so that class loading and first-use initialisation do not fall in an iteration.
   */
  @BeforeAll
  static void warm() throws Exception {
    Rows.headline().filter(r -> !r.layerOff())
        .forEach(r -> FixLayer.install(r.parts().toArray(new racelab.fix.Part[0])));
    ReregisterMissingSearches.prepare();
    for (Row r : Rows.headline().filter(r -> !r.layerOff()).toList()) {
      FixLayer.run(r, () -> {
        once();
        return null;
      });
    }
  }

  static void run(String variant) throws Exception {
    boolean[] seen = FixLayer.run(row(variant), FrayTryReregisterO3Test::once);
    int[] c;
    synchronized (COUNTS) {
      c = COUNTS.computeIfAbsent(variant, v -> new int[] {0, 0, 0, -1, -1});
      c[0]++;
      if (seen[0]) {
        c[1]++;
        c[3] = c[3] < 0 ? c[0] : c[3];
      }
      if (seen[1]) {
        c[2]++;
        c[4] = c[4] < 0 ? c[0] : c[4];
      }
    }
  }

  /**
   * The outcome tried: O3 (default), or with {@code -Dracelab.fray.try=O6} or {@code O9} the
   * RR_O6 or RR_O9 search's setup and predicate (ReregisterMissingSearches.O6, O9).
   */
  static final String OUTCOME = System.getProperty("racelab.fray.try", "O3");

  /** One race and quiescence; {the outcome reached, O2 reached}. */
  static boolean[] once() throws Exception {
    boolean o6 = OUTCOME.equals("O6");
    boolean o9 = OUTCOME.equals("O9");
    ReregisterMissingSearches.Setup st = o6 ? ReregisterMissingSearches.singleRegister()
        : o9 ? ReregisterMissingSearches.doubleRegister(HAServiceState.ACTIVE,
            HAServiceState.STANDBY)
        : ReregisterMissingSearches.doubleRegister(HAServiceState.STANDBY);
    ReregisterSearches.CountingScheduler s = new ReregisterSearches.CountingScheduler();
    ReregisterMissingSearches.Ended e = ReregisterMissingSearches.race(st, o6, s, true);
    boolean lost = e.finalized.contains(ReregisterMissingSearches.X)
        && !st.racedNameNode().locates(ReregisterMissingSearches.X);
    boolean reached;
    if (o6) {
      int registrations;
      synchronized (st.racedNameNode()) {
        registrations = st.racedNameNode().registrations - st.registrationsBefore;
      }
      reached = lost && registrations <= 1;
    } else if (o9) {
      boolean some = false;
      boolean none = false;
      for (ReregisterMissingSearches.NameNode n : st.nns) {
        if (n.rules.locates(ReregisterMissingSearches.X)) {
          some = true;
        } else {
          none = true;
        }
      }
      reached = some && none;
    } else {
      reached = lost;
    }
    long snapshot = ReregisterMissingSearches.lastSnapshot();
    boolean o2 = s.commandRead > 0 && snapshot < s.commandRead;
    if (reached || o2) {
      System.out.println("[racelab] fray-try " + OUTCOME + "=" + reached + " O2=" + o2
          + " REG2's request #" + s.commandRead + ", last snapshot #" + snapshot + "; "
          + e.observed());
    }
    return new boolean[] {reached, o2};
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void upstream() throws Exception {
    run("upstream");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P1() throws Exception {
    run("P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P2() throws Exception {
    run("P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void P3() throws Exception {
    run("P3");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void proposed() throws Exception {
    run("proposed");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunk() throws Exception {
    run("trunk");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP1() throws Exception {
    run("trunk+P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP2() throws Exception {
    run("trunk+P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK)
  public void trunkP3() throws Exception {
    run("trunk+P3");
  }

  @AfterAll
  static void report() {
    COUNTS.forEach((v, c) -> System.out.println("[racelab] fray-try RR_" + OUTCOME + " " + v + ": "
        + OUTCOME + " " + c[1]
        + " of " + c[0] + (c[3] > 0 ? " (first at run " + c[3] + ")" : "") + ", O2 " + c[2]
        + " of " + c[0] + (c[4] > 0 ? " (first at run " + c[4] + ")" : "")));
  }
}
