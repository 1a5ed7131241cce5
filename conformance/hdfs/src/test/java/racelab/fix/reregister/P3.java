package racelab.fix.reregister;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import racelab.fix.Part;

/**
 * reregister P3, stale DNA_REGISTER dropped: each batch of commands carries the registration
 * its RPC was sent under (a heartbeat's: read before the heartbeat; an FBR's: read at its
 * drain), and a REGISTER in a batch sent under a registration that a newer one has replaced
 * is ignored. Racelab's design (HDFS-17969 has no patch), rendered over hadoop-hdfs 3.5.0.
 */
public final class P3 extends Part {
  public static final P3 PART = new P3();

  private static final String ACTOR = "org.apache.hadoop.hdfs.server.datanode.BPServiceActor";
  private static final String CPT = ACTOR + "$CommandProcessingThread";

  /** No tag: a batch queued by no RPC P3 follows; never dropped. */
  private static final Object UNTAGGED = new Object();
  /** The registration (bpRegistration) the actor thread's last heartbeat was sent under. */
  private static final ThreadLocal<Object> HEARTBEAT = new ThreadLocal<>();
  /** The registration the actor thread's last blockReport was sent under (read at its drain). */
  private static final ThreadLocal<Object> REPORT = new ThreadLocal<>();
  /** The tag of the batch the command thread is processing. */
  private static final ThreadLocal<Object> BATCH = new ThreadLocal<>();
  /** Per CommandProcessingThread: the tags of its queued batches, in queue order. */
  private static final Map<Object, Deque<Object>> TAGS = new IdentityHashMap<>();

  private P3() {
    super("reregister");
    advise(ACTOR, "sendHeartBeat", HeartbeatSent.class);
    advise(ACTOR, "blockReport", ReportSent.class);
    advise(CPT, "enqueue", Enqueue.class);
    advise(CPT, "enqueueFirst", EnqueueFirst.class);
    advise(CPT, "processCommand", Batch.class);
    advise("org.apache.hadoop.hdfs.server.datanode.BPOfferService", "processCommandFromActor",
        DropStale.class);
  }

  @Override
  public String renders() {
    return "the registration an RPC was sent under is the actor's bpRegistration object, read "
        + "on entry to sendHeartBeat and to blockReport (before its drain); "
        + "CommandProcessingThread.enqueue tags the batch it queues with it (a FIFO of tags "
        + "beside the thread's queue: enqueue(DatanodeCommand[]) the heartbeat's, enqueue(List) "
        + "the FBR's, other enqueues untagged; enqueueFirst at the head), processCommand takes "
        + "its batch's tag, and BPOfferService.processCommandFromActor returns false without "
        + "reRegister for a DNA_REGISTER whose tag is not the actor's current bpRegistration "
        + "(a newer registration completed). Differs: 'newer' is object identity, not a count "
        + "(each register makes a new DatanodeRegistration)";
  }

  private static synchronized Deque<Object> tags(Object thread) {
    return TAGS.computeIfAbsent(thread, t -> new ArrayDeque<>());
  }

  static Object orUntagged(Object registration) {
    return registration == null ? UNTAGGED : registration;
  }

  public static void heartbeatSent(Object registration) {
    HEARTBEAT.set(orUntagged(registration));
  }

  public static void reportSent(Object registration) {
    REPORT.set(orUntagged(registration));
  }

  /** A batch queued at the tail (sent: true for the heartbeat's, false for the FBR's). */
  public static void queued(Object thread, Object argument) {
    Object tag;
    if (argument instanceof DatanodeCommand[]) {
      if (((DatanodeCommand[]) argument).length == 0) {
        return; // enqueue queues nothing
      }
      tag = HEARTBEAT.get();
    } else if (argument instanceof List) {
      tag = REPORT.get();
    } else if (argument == null) {
      return; // enqueue(List) of null queues nothing
    } else {
      tag = UNTAGGED;
    }
    Deque<Object> d = tags(thread);
    synchronized (d) {
      d.addLast(tag == null ? UNTAGGED : tag);
    }
  }

  public static void queuedFirst(Object thread) {
    Deque<Object> d = tags(thread);
    synchronized (d) {
      d.addFirst(UNTAGGED);
    }
  }

  public static void processing(Object thread) {
    Deque<Object> d = tags(thread);
    Object tag;
    synchronized (d) {
      tag = d.pollFirst();
    }
    BATCH.set(tag == null ? UNTAGGED : tag);
  }

  public static void processed() {
    BATCH.remove();
  }

  private static volatile Field registrationField;

  /** Whether {@code cmd} is a REGISTER sent under a registration the actor has replaced. */
  public static boolean stale(DatanodeCommand cmd, Object actor) {
    if (cmd == null || cmd.getAction() != DatanodeProtocol.DNA_REGISTER) {
      return false;
    }
    Object tag = BATCH.get();
    if (tag == null || tag == UNTAGGED) {
      return false;
    }
    try {
      Field f = registrationField;
      if (f == null) {
        f = actor.getClass().getDeclaredField("bpRegistration");
        f.setAccessible(true);
        registrationField = f;
      }
      return f.get(actor) != tag;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("P3: " + e, e);
    }
  }

  public static final class HeartbeatSent {
    @Advice.OnMethodEnter
    static void enter(@Advice.FieldValue("bpRegistration") Object registration) {
      if (P3.PART.on()) {
        P3.heartbeatSent(registration);
      }
    }
  }

  public static final class ReportSent {
    @Advice.OnMethodEnter
    static void enter(@Advice.FieldValue("bpRegistration") Object registration) {
      if (P3.PART.on()) {
        P3.reportSent(registration);
      }
    }
  }

  /** Every enqueue overload: the batch's tag, before the batch is queued. */
  public static final class Enqueue {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object thread, @Advice.Argument(0) Object batch) {
      if (P3.PART.on()) {
        P3.queued(thread, batch);
      }
    }
  }

  public static final class EnqueueFirst {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object thread) {
      if (P3.PART.on()) {
        P3.queuedFirst(thread);
      }
    }
  }

  public static final class Batch {
    @Advice.OnMethodEnter
    static void enter(@Advice.This Object thread) {
      if (P3.PART.on()) {
        P3.processing(thread);
      }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit() {
      if (P3.PART.on()) {
        P3.processed();
      }
    }
  }

  /** processCommandFromActor: a stale REGISTER ends the batch (returns false), no reRegister. */
  public static final class DropStale {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.Argument(0) DatanodeCommand cmd,
        @Advice.Argument(1) Object actor) {
      return P3.PART.on() && P3.stale(cmd, actor);
    }

    @Advice.OnMethodExit
    static void exit(@Advice.Enter boolean dropped,
        @Advice.Return(readOnly = false) boolean processed) {
      if (dropped) {
        processed = false;
      }
    }
  }
}
