package org.apache.hadoop.hdds.scm.node;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.ozone.protocol.commands.ReregisterCommand;
import org.apache.hadoop.ozone.protocol.commands.SCMCommand;
import org.apache.hadoop.ozone.recon.scm.ReconNodeManager;
import racelab.search.LincheckSearch;
import racelab.search.LincheckSearch.Verdict;

/**
 * dead-node O10 under Lincheck, on Ozone 2.2.0's ReconNodeManager: two datanodes' first
 * heartbeats since Recon started, on two RPC handler threads at once, no latch. Recon is the
 * replays' (ReconDeadNodeReplays: ReconNodeManager over DeadNodeWiring, dn1 loaded from its node
 * table), built once outside Lincheck's block (its collaborators include Mockito mocks, which
 * the first-heartbeat path does not call). Each invocation gives it the datanodeHeartbeatMap its
 * constructor makes (a new, empty HashMap: Recon just started) and runs
 * processHeartbeat(dn1) and processHeartbeat(dn2) on two threads.
 *
 * <p>Reached (the outcome's consequence, from the real state): after both heartbeats the map
 * does not hold both datanodes (an insert was lost: that node's next heartbeat is answered
 * ReregisterCommand again), or its size disagrees with its entries. A witness of the race on the
 * map's table; runs in which the two puts overlapped without a visible loss are not counted.
 */
final class DeadNodeSearches {
  private DeadNodeSearches() {
  }

  /** The O10 body: one Recon, reused; the map the race is on, fresh each invocation. */
  static final class FirstBeats implements LincheckSearch.Body, AutoCloseable {
    final ReconDeadNodeReplays recon;
    final DatanodeDetails dn1;
    final DatanodeDetails dn2 = DeadNodeWiring.datanode("dn2", "10.0.0.2");
    private final Field map;

    FirstBeats() throws Exception {
      recon = new ReconDeadNodeReplays(false);
      dn1 = recon.dn;
      map = ReconNodeManager.class.getDeclaredField("datanodeHeartbeatMap");
      map.setAccessible(true);
    }

    @Override
    public Verdict run() throws Exception {
      Map<Object, Long> beats = new HashMap<>();
      map.set(recon.nm, beats);
      AtomicReference<Throwable> threw = new AtomicReference<>();
      AtomicReference<List<SCMCommand<?>>> answer1 = new AtomicReference<>();
      AtomicReference<List<SCMCommand<?>>> answer2 = new AtomicReference<>();
      Thread h1 = new Thread(new Beat(recon.nm, beats, dn1, answer1, threw), "IPC Server handler 1");
      Thread h2 = new Thread(new Beat(recon.nm, beats, dn2, answer2, threw), "IPC Server handler 2");
      h1.start();
      h2.start();
      h1.join();
      h2.join();
      if (threw.get() != null) {
        throw new IllegalStateException("harness: processHeartbeat threw " + threw.get(),
            threw.get());
      }
      boolean firstBeats = reregister(answer1.get()) && reregister(answer2.get());
      int entries = beats.entrySet().size();
      int counted = 0;
      for (var it = beats.entrySet().iterator(); it.hasNext(); it.next()) {
        counted++;
      }
      boolean both = beats.containsKey(dn1.getID()) && beats.containsKey(dn2.getID());
      boolean reached = !both || counted != beats.size();
      return Verdict.of(reached, "datanodeHeartbeatMap holds dn1=" + beats.containsKey(dn1.getID())
          + " dn2=" + beats.containsKey(dn2.getID()) + ", size()=" + beats.size() + ", entries="
          + counted + " (" + entries + "); both answered ReregisterCommand=" + firstBeats);
    }

    private static boolean reregister(List<SCMCommand<?>> answer) {
      return answer != null && answer.size() == 1 && answer.get(0) instanceof ReregisterCommand;
    }

    @Override
    public void close() throws Exception {
      recon.close();
    }
  }

  /** One RPC handler thread: a datanode's heartbeat (no command queue report). */
  static final class Beat implements Runnable {
    private final ReconNodeManager nm;
    /**
     * The map the reflection put into nm: held here too so that Lincheck, which does not see a
     * reflective write, knows the handler threads share it (an object it believes local to the
     * main thread gets no switch point: with the map reached only through nm, 0 of 33).
     */
    @SuppressWarnings("unused")
    private final Map<Object, Long> beats;
    private final DatanodeDetails dn;
    private final AtomicReference<List<SCMCommand<?>>> answer;
    private final AtomicReference<Throwable> threw;

    Beat(ReconNodeManager nm, Map<Object, Long> beats, DatanodeDetails dn,
        AtomicReference<List<SCMCommand<?>>> answer, AtomicReference<Throwable> threw) {
      this.nm = nm;
      this.beats = beats;
      this.dn = dn;
      this.answer = answer;
      this.threw = threw;
    }

    @Override
    public void run() {
      try {
        answer.set(nm.processHeartbeat(dn, null));
      } catch (Throwable t) {
        threw.set(t);
      }
    }
  }
}
