package org.apache.hadoop.ozone.container.common.impl;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.ozone.container.common.interfaces.Container;
import racelab.conformance.Threads;
import racelab.fix.containerrecreate.Dn;

/**
 * Which of the CR replays' windows a latch-free run of container-recreate's race fell in, read
 * off stamps the search's two threads write around their steps (one counter, so the stamps are
 * totally ordered) and off the handler delegate ({@link ContainerRecreateWiring#onHandle}: the
 * replica the PutBlock's apply was given). Nothing here holds a thread. The windows, as the
 * replays force them:
 * <ul>
 *   <li>R1 (ReplayContainerRecreateR1Test): the PutBlock validated before the close started,
 *       applied after the force delete ended;
 *   <li>R2 (ReplayContainerRecreateR2Test): the PutBlock validated before the close started, its
 *       apply handed the replica the force delete removed (dispatchRequest found it before the
 *       removal), and that replica already DELETED when the handler was entered (read there).
 *       The replay holds the apply before the handler until the whole delete has ended; what
 *       decides its O5 is the handler reading the replica it was handed as DELETED, which
 *       deleteContainer sets before it removes and moves the replica, so a run where the
 *       handler came between that mark and the delete's end is the same window. (A mark between
 *       the entry and the handler's own read is not counted: conservative.);
 *   <li>R3 (ReplayContainerRecreateR3Test): the force delete ended before the client's first
 *       command (the WriteChunk) was validated.
 * </ul>
 * A run in none of them is "other". Written for racelab.
 */
final class ContainerRecreateWindows {
  private final AtomicInteger clock = new AtomicInteger();
  volatile int wcValidateStart;
  volatile int pbValidated;
  volatile int pbApplyStart;
  volatile int pbHandle;
  volatile int closeStart;
  volatile int closeEnd;
  volatile int deleteEnd;
  /** The replica the PutBlock's apply was handed (dispatchRequest's getContainer). */
  volatile Container<?> pbReplica;
  /** Its state when the handler was entered. */
  volatile Object pbReplicaState;

  int now() {
    return clock.incrementAndGet();
  }

  /** Watches the wiring's handler for the PutBlock's apply. */
  void watch(ContainerRecreateWiring w) {
    w.onHandle = (what, c) -> {
      if (what.startsWith("PutBlock") && pbHandle == 0) {
        pbReplica = c;
        pbReplicaState = c == null ? null : c.getContainerState();
        pbHandle = now();
      }
    };
  }

  private static boolean before(int a, int b) {
    return a > 0 && b > 0 && a < b;
  }

  boolean r1() {
    return before(pbValidated, closeStart) && before(deleteEnd, pbApplyStart);
  }

  boolean r2(Container<?> deleted) {
    return before(pbValidated, closeStart) && deleted != null && pbReplica == deleted
        && "DELETED".equals(String.valueOf(pbReplicaState));
  }

  boolean r3() {
    return before(deleteEnd, wcValidateStart);
  }

  String name(Container<?> deleted) {
    return r1() ? "R1" : r2(deleted) ? "R2" : r3() ? "R3" : "other";
  }

  String describe(Container<?> deleted) {
    return "window " + name(deleted) + " (stamps: WriteChunk validation " + wcValidateStart
        + ", PutBlock validated " + pbValidated + ", its apply " + pbApplyStart + ", its handler "
        + pbHandle + (pbHandle == 0 ? "" : pbReplica == null ? " (no replica)"
            : (pbReplica == deleted ? " (the deleted replica, " : " (another replica, ")
                + pbReplicaState + ")")
        + "; close " + closeStart + "-" + closeEnd + ", force delete ended " + deleteEnd + ")";
  }

  /** Per row, how many runs fell in each window (printed at the end: the records keep reaches only). */
  static final Map<String, Map<String, Integer>> SEEN = new TreeMap<>();
  /** The window of the last run the body made (null: none since {@link #take}). */
  static volatile String last;

  /** Counts the window of the run just made on {@code row}, if one was made (not skipped). */
  static synchronized void take(String row) {
    if (last != null) {
      SEEN.computeIfAbsent(row, r -> new TreeMap<>()).merge(last, 1, Integer::sum);
      last = null;
    }
  }

  static synchronized void print(String search) {
    SEEN.forEach((row, m) -> System.out.println("[racelab] " + search + " windows on " + row
        + ": " + m));
  }

  /** One run of R1's and R2's race, decided: O5 and the window. */
  record Raced(boolean o5, boolean r1, boolean r2, String window, String observed) {
  }

  /**
   * The race of ReplayContainerRecreateR1Test and ReplayContainerRecreateR2Test without their
   * latch: the replays' wiring and pre-state (c1 OPEN with block 1), then what both replays do
   * before SCM acts (block 2's WriteChunk validated, written, applied; its PutBlock validated and
   * appended), then the PutBlock's apply (the harness's applyTransaction) and SCM's thread (the
   * close applied through the pipeline, then the force delete) start together. O5 as the replays
   * decide it (the harness's ContainerStateMachine is unhealthy); the window from the stamps.
   */
  static Raced putBlockAgainstCloseAndDelete(String tag) throws Exception {
    try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
      Dn.registerPipeline(w.dispatcher, w.container2BCSIDMap);
      w.openWithBlock();
      ContainerRecreateReplays.Run r = new ContainerRecreateReplays.Run(w);
      r.wc = w.startTransaction(w.writeChunk(ContainerRecreateWiring.NEW_BLOCK));
      if (r.wc.reply != null) {
        throw new IllegalStateException("harness: block 2's WriteChunk was refused: " + r.wc.reply);
      }
      ContainerRecreateReplays.restOfWriteChunk(r);
      if (!r.wc.succeeded()) {
        throw new IllegalStateException("harness: block 2's WriteChunk failed: " + w.log);
      }
      ContainerRecreateWindows win = new ContainerRecreateWindows();
      win.watch(w);
      r.pb = w.startTransaction(w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
      win.pbValidated = win.now();
      if (r.pb.reply != null) {
        throw new IllegalStateException("harness: block 2's PutBlock was refused: " + r.pb.reply);
      }
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread apply = Threads.recording("apply", failed, () -> {
        win.pbApplyStart = win.now();
        w.answer(r.pb, w.applyTransaction(r.pb));
      });
      Thread scm = Threads.recording("scm", failed, () -> closeAndForceDelete(r, win));
      apply.start();
      scm.start();
      apply.join();
      scm.join();
      boolean ok = failed.get() == null;
      String window = win.name(r.deleted);
      last = window;
      String observed = "O5=" + !w.healthy + " O7=" + r.recreated() + "; "
          + win.describe(r.deleted) + "; " + r.observed()
          + (ok ? "" : "; a thread failed: " + failed.get());
      if (Boolean.getBoolean("racelab.search.verbose")) {
        System.out.println("[racelab] " + tag + " run: " + observed);
      }
      boolean o5 = ok && !w.healthy;
      return new Raced(o5, win.r1(), win.r2(r.deleted), window, observed);
    }
  }

  /** ContainerRecreateReplays.closeAndForceDelete, stamped. */
  static void closeAndForceDelete(ContainerRecreateReplays.Run r, ContainerRecreateWindows win)
      throws Exception {
    win.closeStart = win.now();
    r.w.closeThroughPipeline();
    win.closeEnd = win.now();
    r.deleted = r.w.replica();
    r.closeSeq = r.deleted == null ? -1 : r.deleted.getBlockCommitSequenceId();
    r.w.forceDelete();
    win.deleteEnd = win.now();
  }
}
