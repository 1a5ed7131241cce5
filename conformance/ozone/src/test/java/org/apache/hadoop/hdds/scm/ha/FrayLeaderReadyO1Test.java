package org.apache.hadoop.hdds.scm.ha;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.conformance.Premise;

/**
 * leader-ready O1 on Ozone 2.2.0 under Fray's controlled scheduler, without latches: the apply
 * thread's SCMStateMachine.notifyLeaderReady and the step-down's notifyNotLeader start together
 * and Fray chooses the interleaving (at every lock, thread start and join of the real classes)
 * in each of its iterations. An iteration that ends with a follower that is leader-ready and a
 * ReplicationManager that runs has reached O1; the class asserts, after all iterations, that
 * Fray reached it. The latch version is ReplayLeaderReadyO1Test. Run with
 * {@code mvn -pl ozone test -Pfray} (JDK25_HOME set; see README.md, "Schedulers").
 */
@ExtendWith(FrayTestExtension.class)
public class FrayLeaderReadyO1Test {
  static final int ITERATIONS = 20;
  static final AtomicInteger runs = new AtomicInteger();
  static final AtomicInteger reachedO1 = new AtomicInteger();
  static final AtomicReference<String> firstO1 = new AtomicReference<>();

  @ConcurrencyTest(iterations = ITERATIONS)
  public void LR_O1_explored() throws Exception {
    LeaderReadyWiring w = new LeaderReadyWiring(4);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread apply = w.applyThread(failed, 4, () -> { });
    Thread raft = w.stepDownThread(failed, () -> { });
    apply.start();
    raft.start();
    apply.join();
    raft.join();
    runs.incrementAndGet();
    if (failed.get() == null && !w.context.isLeader() && w.context.isLeaderReady()
        && w.replicationManager.shouldRun()) {
      reachedO1.incrementAndGet();
      firstO1.compareAndSet(null, w.state());
    }
    // Fray ends an iteration only when every thread the test started has ended: the
    // ReplicationManager's monitor and processors (started once it sees itself leader-ready)
    // are stopped here
    w.replicationManager.stop();
  }

  @AfterAll
  static void fraySawO1() {
    Premise.check("leader-ready O1 is reached on Ozone 2.2.0 in some interleaving Fray "
            + "explores of notifyLeaderReady against notifyNotLeader (no latches)",
        reachedO1.get() > 0,
        reachedO1.get() + " of " + runs.get() + " iterations reached O1; first: "
            + firstO1.get());
  }
}
