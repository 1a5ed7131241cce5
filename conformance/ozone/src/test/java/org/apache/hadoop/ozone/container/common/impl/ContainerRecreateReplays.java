package org.apache.hadoop.ozone.container.common.impl;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.ozone.container.common.interfaces.Container;
import racelab.conformance.Replay;
import racelab.conformance.Threads;
import racelab.fix.FixLayer;
import racelab.fix.Row;
import racelab.fix.containerrecreate.Dn;
import racelab.trace.Recorder;

/**
 * container-recreate's replays: each drives one order of the model's race
 * (write-races-close-and-force-delete: the client's WriteChunk and PutBlock of block 2 on the
 * leader against SCM's close and force delete of c1) on {@link ContainerRecreateWiring}, and
 * decides the datanode outcomes from the state after it:
 * O1 (a replica of c1 exists that is not the deleted one, it holds block 2, and the client was
 * told SUCCESS for both commands), O5 (the harness's ContainerStateMachine is unhealthy: a result
 * it does not ignore, or an exception out of dispatch), O7 (a replica of c1 exists that is not
 * the deleted one). Written for racelab.
 */
final class ContainerRecreateReplays {
  private ContainerRecreateReplays() {
  }

  /** What one replay ran into: the wiring after it, and the deleted replica object. */
  static final class Run {
    final ContainerRecreateWiring w;
    Container<?> deleted;
    ContainerRecreateWiring.Entry wc;
    ContainerRecreateWiring.Entry pb;
    /** The leader replica's BCSID when the close was applied: what SCM closes c1 at. */
    long closeSeq;
    /** SCM's decision on O2, when the order drives SCM. */
    Boolean o2;
    String scm = "";
    /** SCM's sequence id of c1 after the order, when the order drives SCM. */
    Long scmSeq;

    Run(ContainerRecreateWiring w) {
      this.w = w;
    }

    boolean recreated() {
      Container<?> c = w.replica();
      return deleted != null && c != null && c != deleted;
    }

    boolean o1() {
      return recreated() && w.holds(ContainerRecreateWiring.NEW_BLOCK) && wc != null
          && wc.succeeded() && pb != null && pb.succeeded();
    }

    String observed() {
      return w.describe() + scm + "; client WriteChunk " + reply(wc) + ", PutBlock " + reply(pb)
          + "; recreated=" + recreated() + "; log: " + String.join(" | ", w.log.subList(
              Math.min(w.log.size(), 5), w.log.size())) + "; KeyValueHandler.handle answered: "
          + String.join(", ", w.handled.subList(Math.min(w.handled.size(), 5),
              w.handled.size()));
    }

    private static String reply(ContainerRecreateWiring.Entry e) {
      return e == null ? "not sent" : e.reply == null ? "no reply" : e.reply;
    }
  }

  interface Order {
    void drive(Run r) throws Exception;
  }

  /** Runs {@code order} on {@code row} and records the outcomes named. */
  static void replay(String id, Row row, Order order, String... outcomes) throws Exception {
    FixLayer.run(row, () -> {
      try (ContainerRecreateWiring w = new ContainerRecreateWiring()) {
        Dn.registerPipeline(w.dispatcher, w.container2BCSIDMap);
        w.openWithBlock();
        // The model's setup (its scenario's open_container, or CR_O2's history start) writes
        // block 1 on dn1, dn2 and dn3 (and, in CR_O2's start, c2 too, with SCM's reports); the
        // harness wires only the leader and wrote block 1 on it, untraced: the setup is not
        // recorded, and the main thread (the only one that did setup work) says so here, where
        // the model's scenario hands its threads over.
        Recorder.setupDone();
        Run r = new Run(w);
        w.tracing = true;
        order.drive(r);
        w.tracing = false;
        for (String o : outcomes) {
          boolean reached = switch (o) {
            case "O1" -> r.o1();
            case "O5" -> !w.healthy;
            case "O7" -> r.recreated();
            case "O2" -> r.o2;
            default -> throw new IllegalArgumentException(o);
          };
          Replay.record(id, row, o, reached, r.observed());
        }
        Map<String, String> state = w.modelState();
        if (r.scmSeq != null) {
          state.put("scm.c1.seq", String.valueOf(r.scmSeq));
        }
        Recorder.end(state);
      }
    });
  }

  /** The close applied through the pipeline, then the force delete, on the harness thread. */
  static void closeAndForceDelete(Run r) throws Exception {
    r.w.closeThroughPipeline();
    r.deleted = r.w.replica();
    r.closeSeq = r.deleted.getBlockCommitSequenceId();
    r.w.forceDelete();
  }

  /** The rest of the WriteChunk after its validation: WRITE_DATA, then COMMIT_DATA. */
  static void restOfWriteChunk(Run r) {
    boolean ok = r.w.writeStateMachineData(r.wc) && r.w.applyTransaction(r.wc);
    r.w.answer(r.wc, ok);
  }

  /** The PutBlock, from its validation to its apply. */
  static void putBlock(Run r) {
    r.pb = r.w.startTransaction(r.w.putBlock(ContainerRecreateWiring.NEW_BLOCK));
    if (r.pb.reply == null) {
      r.w.answer(r.pb, r.w.applyTransaction(r.pb));
    }
  }

  /** Joins a harness thread; a thread still running or failing in the harness is an error. */
  static void join(Thread t, AtomicReference<Throwable> failed) throws Exception {
    t.join(60_000);
    if (t.isAlive()) {
      throw new IllegalStateException("harness: " + t.getName() + " did not finish");
    }
    if (failed.get() != null) {
      throw new IllegalStateException("harness: " + t.getName() + " failed", failed.get());
    }
  }

  static Thread start(String name, AtomicReference<Throwable> failed, Threads.Body body) {
    Thread t = Threads.recording(name, failed, body);
    t.start();
    return t;
  }
}
