package org.apache.hadoop.hdds.scm.ha;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftConfigurationProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.Test;
import racelab.conformance.Premise;

/**
 * leader-ready (HDDS-17575): the premise about Ratis' ordering, on ratis-server 3.2.1 (the
 * version Ozone 2.2.0 depends on), with a real RaftServer: one peer over gRPC on localhost, a
 * real RaftServerImpl, LeaderStateImpl and StateMachineUpdater, and racelab's own state machine
 * (not SCMStateMachine), which records every callback with its thread and whether that thread
 * holds the RaftServerImpl monitor, and holds its first notifyLeaderReady on a latch. While it is
 * held, the test asks the server to step down (the admin transferLeadership with no new leader,
 * the Ratis admin step-down the report names) and waits; with one peer, the server then elects
 * itself again in the next term. Written for racelab.
 *
 * <p>What it shows: on the real 3.2.1 classes nothing in Ratis waits for notifyLeaderReady to
 * return before a step-down or a new election of this server completes: notifyNotLeader
 * (LeaderStateImpl's event processor: stepDown, changeToFollower, shutdownLeaderState, stop) and
 * the next term's notifyLeaderChanged (the election thread, changeToLeader) run under the
 * RaftServerImpl monitor on their own threads while the apply thread is inside notifyLeaderReady
 * without it. That is the order O1 and O2 rest on (LR_O1 forces it with a harness playing
 * Ratis). Ratis' current term is the new one while the old term's callback has not returned, so
 * a read of it by the callback after its entry sees the new term: the R1 and R2 windows (LR_R1,
 * LR_R2). It also shows what P3 rests on: notifyConfigurationChanged for the startup entry, with
 * its term, is the apply thread's call just before checkReady's notifyLeaderReady.
 *
 * <p>What it does not show: the hold is a latch in the test's own state machine, so the order is
 * shown permitted, not how likely it is without one (SCMStateMachine's 2.2.0 callback has a few
 * calls before setLeaderReady, master's has the flush and reload). One peer: the step-down is the
 * admin one, the re-election is won without other voters; a higher-term step-down from another
 * peer's vote request or append reply (the same changeToFollower, on an RPC thread) is not run.
 */
public class LeaderReadyRatisPremiseTest {

  /** One callback as the state machine saw it. */
  record Event(String what, String thread, boolean monitor, long ratisTerm, boolean insideReady) {
    @Override
    public String toString() {
      return what + "@" + thread + (monitor ? "[monitor]" : "") + " term=" + ratisTerm
          + (insideReady ? " (inside notifyLeaderReady)" : "");
    }
  }

  /** Records callbacks; holds the first notifyLeaderReady until released. */
  static final class RecordingStateMachine extends BaseStateMachine {
    final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch readyHeld = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch steppedDown = new CountDownLatch(1);
    final CountDownLatch reElected = new CountDownLatch(1);
    final CountDownLatch secondReady = new CountDownLatch(1);
    private volatile RaftServer server;
    private volatile RaftGroupId group;
    private volatile boolean insideReady;
    private volatile long heldTerm = -1;
    private int readyCalls;

    @Override
    public void initialize(RaftServer raftServer, RaftGroupId groupId, RaftStorage storage)
        throws IOException {
      super.initialize(raftServer, groupId, storage);
      server = raftServer;
      group = groupId;
    }

    RaftServer.Division division() {
      try {
        return server.getDivision(group);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    private Event record(String what) {
      RaftServer.Division d = division();
      Event e = new Event(what, Thread.currentThread().getName(), Thread.holdsLock(d),
          d.getInfo().getCurrentTerm(), insideReady);
      events.add(e);
      return e;
    }

    @Override
    public void notifyConfigurationChanged(long term, long index,
        RaftConfigurationProto conf) {
      record("notifyConfigurationChanged(term=" + term + ",index=" + index + ")");
    }

    @Override
    public void notifyLeaderReady() {
      int call;
      synchronized (this) {
        call = ++readyCalls;
      }
      Event e = record("notifyLeaderReady#" + call);
      if (call == 1) {
        insideReady = true;
        heldTerm = e.ratisTerm();
        readyHeld.countDown();
        try {
          if (!release.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        }
        record("notifyLeaderReady#1 returns");
        insideReady = false;
      } else {
        secondReady.countDown();
      }
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pending) {
      record("notifyNotLeader");
      steppedDown.countDown();
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId leader) {
      Event e = record("notifyLeaderChanged(" + leader + ")");
      if (member.getPeerId().equals(leader) && heldTerm >= 0 && e.ratisTerm() > heldTerm) {
        reElected.countDown();
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * LR-P5: Ratis calls notifyLeaderReady from LeaderStateImpl.checkReady on the
   * StateMachineUpdater thread without the RaftServerImpl monitor, right after
   * notifyConfigurationChanged for the same (startup) entry on that thread; a step-down's
   * notifyNotLeader (changeToFollower, under the monitor, on another thread) runs to completion
   * while that notifyLeaderReady has not returned, and so does the re-election's
   * notifyLeaderChanged in a higher term.
   */
  @Test
  public void LR_P5_stepDownAndReElectionWhileNotifyLeaderReadyRuns() throws Exception {
    File dir = Files.createTempDirectory("racelab-ratis").toFile();
    RaftPeerId id = RaftPeerId.valueOf("s1");
    int port = freePort();
    RaftPeer peer = RaftPeer.newBuilder().setId(id).setAddress("127.0.0.1:" + port).build();
    RaftGroup group = RaftGroup.valueOf(RaftGroupId.randomId(), peer);
    RaftProperties props = new RaftProperties();
    RaftConfigKeys.Rpc.setType(props, SupportedRpcType.GRPC);
    GrpcConfigKeys.Server.setPort(props, port);
    RaftServerConfigKeys.setStorageDir(props, Collections.singletonList(dir));
    RaftServerConfigKeys.Rpc.setTimeoutMin(props, TimeDuration.valueOf(200, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(props, TimeDuration.valueOf(400, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(props,
        TimeDuration.valueOf(100, TimeUnit.MILLISECONDS));
    RecordingStateMachine sm = new RecordingStateMachine();
    RaftServer server = RaftServer.newBuilder().setServerId(id).setGroup(group)
        .setProperties(props).setStateMachine(sm)
        .setOption(RaftStorage.StartupOption.FORMAT).build();
    try {
      server.start();
      if (!sm.readyHeld.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the server never became ready as leader");
      }
      long termAtReady = sm.heldTerm;
      CompletableFuture<RaftClientReply> stepDown = server.transferLeadershipAsync(
          new TransferLeadershipRequest(ClientId.randomId(), id, group.getGroupId(), 1, null,
              10_000));
      boolean steppedDown = sm.steppedDown.await(30, TimeUnit.SECONDS);
      RaftClientReply reply = steppedDown ? stepDown.get(30, TimeUnit.SECONDS) : null;
      boolean reElected = steppedDown && sm.reElected.await(30, TimeUnit.SECONDS);
      long termWhileHeld = sm.division().getInfo().getCurrentTerm();
      sm.release.countDown();
      boolean secondReady = sm.secondReady.await(30, TimeUnit.SECONDS);
      List<Event> events;
      synchronized (sm.events) {
        events = new ArrayList<>(sm.events);
      }
      Event ready = first(events, "notifyLeaderReady#1");
      int at = events.indexOf(ready);
      Event before = null;
      for (int i = at - 1; i >= 0; i--) {
        if (events.get(i).thread().equals(ready.thread())) {
          before = events.get(i);
          break;
        }
      }
      Event notLeader = first(events, "notifyNotLeader");
      Event returns = first(events, "notifyLeaderReady#1 returns");
      Event win = null;
      for (Event e : events) {
        if (e.what().startsWith("notifyLeaderChanged(" + id) && e.ratisTerm() > termAtReady
            && e.insideReady()) {
          win = e;
          break;
        }
      }
      boolean applyThread = ready.thread().contains("StateMachineUpdater") && !ready.monitor();
      boolean confFirst = before != null
          && before.what().startsWith("notifyConfigurationChanged(term=" + termAtReady + ",");
      boolean stepDownInside = notLeader != null && notLeader.insideReady()
          && notLeader.monitor() && !notLeader.thread().equals(ready.thread())
          && events.indexOf(notLeader) < events.indexOf(returns);
      boolean winInside = win != null && win.monitor()
          && !win.thread().equals(ready.thread()) && events.indexOf(win) < events.indexOf(returns);
      Premise.check(
          "ratis-server 3.2.1: LeaderStateImpl.checkReady calls notifyLeaderReady on the "
              + "StateMachineUpdater thread without the RaftServerImpl monitor, right after "
              + "notifyConfigurationChanged for the same startup entry's term on that thread; "
              + "while that notifyLeaderReady has not returned, a step-down's notifyNotLeader "
              + "(changeToFollower, under the monitor, another thread) and the re-election's "
              + "notifyLeaderChanged in a higher term both run to completion",
          applyThread && confFirst && stepDownInside && reElected && winInside,
          sm.division().getClass().getName() + " from "
              + sm.division().getClass().getProtectionDomain().getCodeSource().getLocation()
              + "; ready in term " + termAtReady + ", on the apply thread without the monitor="
              + applyThread + ", notifyConfigurationChanged of that term just before it on that "
              + "thread=" + confFirst + "; step-down inside it=" + stepDownInside + " (reply "
              + (reply == null ? "none" : reply.isSuccess()) + "), re-elected inside it="
              + winInside + ", Ratis term while it was held=" + termWhileHeld
              + " (what the patch's read would see if the apply thread read it after its entry: "
              + "the R1 order), the next term's notifyLeaderReady after the release=" + secondReady
              + "; events: " + events);
    } finally {
      sm.release.countDown();
      server.close();
    }
  }

  private static Event first(List<Event> events, String what) {
    for (Event e : events) {
      if (e.what().equals(what)) {
        return e;
      }
    }
    return null;
  }
}
