package org.apache.hadoop.ozone.container.common.impl;

import static org.mockito.Mockito.mock;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandRequestProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerCommandResponseProto;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerDataProto.State;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.ContainerType;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Result;
import org.apache.hadoop.hdds.protocol.datanode.proto.ContainerProtos.Type;
import org.apache.hadoop.hdds.scm.container.ContainerID;
import org.apache.hadoop.ozone.container.checksum.ContainerChecksumTreeManager;
import org.apache.hadoop.ozone.container.common.helpers.ContainerMetrics;
import org.apache.hadoop.ozone.container.common.interfaces.Container;
import org.apache.hadoop.ozone.container.common.interfaces.Handler;
import org.apache.hadoop.ozone.container.common.statemachine.StateContext;
import org.apache.hadoop.ozone.container.common.transport.server.ratis.DispatcherContext;
import org.apache.hadoop.ozone.container.common.utils.StorageVolumeUtil;
import org.apache.hadoop.ozone.container.common.volume.MutableVolumeSet;
import org.apache.hadoop.ozone.container.common.volume.StorageVolume;
import org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler;
import org.apache.hadoop.ozone.container.keyvalue.interfaces.ChunkManager;
import org.apache.hadoop.ozone.container.metadata.WitnessedContainerMetadataStore;
import org.apache.hadoop.ozone.container.metadata.WitnessedContainerMetadataStoreImpl;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import racelab.trace.Recorder;
import racelab.trace.containerrecreate.Probes;

/**
 * container-recreate (HDDS-17643): the pipeline leader's datanode on Ozone 2.2.0's real classes:
 * a MutableVolumeSet with one HddsVolume in a temporary directory, a ContainerSet with its
 * container ID table (WitnessedContainerMetadataStore), KeyValueHandler, HddsDispatcher (with its
 * auto-create). The harness plays the pipeline's ContainerStateMachine: it calls
 * {@code validateContainerCommand} as the leader's {@code startTransaction} does, dispatches
 * WriteChunk in WRITE_DATA and COMMIT_DATA and PutBlock at apply with the DispatcherContext
 * {@code writeStateMachineData}/{@code applyTransaction} build (the same {@code container2BCSIDMap}
 * passed in each), and applies their rule on the result: anything but SUCCESS,
 * CONTAINER_NOT_OPEN, CLOSED_CONTAINER_IO and CHUNK_FILE_INCONSISTENCY, or an exception out of
 * {@code dispatch}, makes the state machine unhealthy (the pipeline closes) and the client gets no
 * further reply. Two collaborators can hold a request: the handler the dispatcher is given (a
 * delegate of the real KeyValueHandler that can wait before {@code handle}) and the
 * KeyValueHandler's chunk manager (replaced by reflection with a delegate of the real one that can
 * wait before {@code writeChunk}): the code under test is never changed. Written for racelab.
 */
public final class ContainerRecreateWiring implements AutoCloseable {
  public static final long C = 1;
  public static final long OLD_BLOCK = 1;
  public static final long NEW_BLOCK = 2;
  public static final int LEN = 1024;

  public final File dir;
  public final OzoneConfiguration conf = new OzoneConfiguration();
  public final String dnUuid = UUID.randomUUID().toString();
  public final String clusterId = UUID.randomUUID().toString();
  public final MutableVolumeSet volumes;
  public final WitnessedContainerMetadataStore idStore;
  public final ContainerSet set;
  public final KeyValueHandler handler;
  public final HddsDispatcher dispatcher;
  /** The pipeline's ContainerStateMachine.container2BCSIDMap. */
  public final Map<Long, Long> container2BCSIDMap = new ConcurrentHashMap<>();
  public final Gate beforeHandle = new Gate("before KeyValueHandler.handle");
  public final Gate beforeChunkWrite = new Gate("before ChunkManager.writeChunk");
  /**
   * Told of each request the dispatcher hands the handler, with the replica it was given, before
   * {@link #beforeHandle}: a search's record of the window it ran in (it holds nothing).
   */
  public volatile HandleSeen onHandle = (what, c) -> { };

  /** A request reaching KeyValueHandler.handle, and the replica object dispatchRequest found. */
  public interface HandleSeen {
    void seen(String what, Container<?> replica);
  }
  private final ContainerMetrics metrics;
  private long lastIndex;
  /** ContainerStateMachine.stateMachineHealthy. */
  public volatile boolean healthy = true;
  /** What made the state machine unhealthy. */
  public volatile String failure = "";
  public final List<String> log = new ArrayList<>();
  /** What KeyValueHandler.handle answered, in order (the handler's own result, before the
   *  dispatcher's marking or exception). */
  public final List<String> handled = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * Whether the threads' work is recorded (the replay's order, after the pre-state): each step of
   * the harness's ContainerStateMachine and command handler labels its thread with the model's
   * actor ({@link #act}).
   */
  public volatile boolean tracing;

  public ContainerRecreateWiring() throws Exception {
    Recorder.observe("container-recreate", Probes.ALL);
    dir = Files.createTempDirectory("racelab-cr").toFile();
    conf.set("hdds.datanode.dir", new File(dir, "data").getAbsolutePath());
    conf.set("ozone.metadata.dirs", new File(dir, "meta").getAbsolutePath());
    conf.set("hdds.datanode.container.db.dir", new File(dir, "db").getAbsolutePath());
    conf.setBoolean("hdds.datanode.container.schema.v3.enabled", false);
    volumes = new MutableVolumeSet(dnUuid, clusterId, conf, null,
        StorageVolume.VolumeType.DATA_VOLUME, null);
    for (StorageVolume v : volumes.getVolumesList()) {
      if (!StorageVolumeUtil.checkVolume(v, clusterId, clusterId, conf, null, null)) {
        throw new IllegalStateException("volume not formatted: " + v);
      }
    }
    idStore = WitnessedContainerMetadataStoreImpl.get(conf);
    set = ContainerSet.newRwContainerSet(idStore, 1000);
    metrics = ContainerMetrics.create(conf);
    handler = new KeyValueHandler(conf, dnUuid, set, volumes, metrics, c -> { },
        new ContainerChecksumTreeManager(conf));
    handler.setClusterID(clusterId);
    Field f = KeyValueHandler.class.getDeclaredField("chunkManager");
    f.setAccessible(true);
    ChunkManager real = (ChunkManager) f.get(handler);
    f.set(handler, Proxy.newProxyInstance(ChunkManager.class.getClassLoader(),
        new Class<?>[] {ChunkManager.class}, delegate(real, (name, args) -> {
          if (name.equals("writeChunk")) {
            beforeChunkWrite.pass(((DispatcherContext) args[4]).getStage().toString());
          }
        })));
    Handler gated = (Handler) mock(Handler.class, inv -> {
      if (inv.getMethod().getName().equals("handle")) {
        ContainerCommandRequestProto req = inv.getArgument(0);
        DispatcherContext ctx = inv.getArgument(2);
        onHandle.seen(req.getCmdType() + (ctx == null ? "" : "/" + ctx.getStage()),
            inv.getArgument(1));
        beforeHandle.pass(req.getCmdType() + (ctx == null ? "" : "/" + ctx.getStage()));
      }
      try {
        inv.getMethod().setAccessible(true);
        Object r = inv.getMethod().invoke(handler, inv.getArguments());
        if (r instanceof ContainerCommandResponseProto) {
          ContainerCommandRequestProto req = inv.getArgument(0);
          DispatcherContext ctx = inv.getArgument(2);
          handled.add(req.getCmdType() + (ctx == null ? "" : "/" + ctx.getStage()) + " -> "
              + ((ContainerCommandResponseProto) r).getResult());
        }
        return r;
      } catch (InvocationTargetException e) {
        handled.add(inv.getMethod().getName() + " threw " + e.getCause());
        throw e.getCause();
      }
    });
    Map<ContainerType, Handler> handlers = new HashMap<>();
    handlers.put(ContainerType.KeyValueContainer, gated);
    // the datanode's state context: a close-container action it is given after a replica is
    // marked unhealthy only triggers a heartbeat of the (absent) datanode state machine
    StateContext context = mock(StateContext.class);
    org.mockito.Mockito.when(context.getParent()).thenReturn(mock(
        org.apache.hadoop.ozone.container.common.statemachine.DatanodeStateMachine.class));
    dispatcher = new HddsDispatcher(conf, set, volumes, handlers, context, metrics, null);
    dispatcher.setClusterId(clusterId);
  }

  interface Hook {
    void before(String method, Object[] args) throws Exception;
  }

  private static InvocationHandler delegate(Object real, Hook hook) {
    return (proxy, m, args) -> {
      hook.before(m.getName(), args);
      try {
        return m.invoke(real, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
  }

  /**
   * A point in a collaborator where the harness can hold one request: armed for requests
   * {@code which} selects, it signals {@link #reached} and waits for {@link #release}.
   */
  public static final class Gate {
    private final String where;
    private volatile Predicate<String> which = s -> false;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    Gate(String where) {
      this.where = where;
    }

    public void arm(Predicate<String> which) {
      this.which = which;
    }

    void pass(String what) throws InterruptedException {
      if (which.test(what)) {
        which = s -> false;
        reached.countDown();
        if (!released.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("harness: " + where + " never released");
        }
      }
    }

    public void awaitReached() throws InterruptedException {
      if (!reached.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("harness: nothing reached " + where);
      }
    }

    public void release() {
      released.countDown();
    }
  }

  // ---- requests (as the client sends them) ----

  public ContainerProtos.DatanodeBlockID blockId(long block) {
    return ContainerProtos.DatanodeBlockID.newBuilder().setContainerID(C).setLocalID(block)
        .setBlockCommitSequenceId(0).build();
  }

  public ContainerProtos.ChunkInfo chunk(long block) {
    return ContainerProtos.ChunkInfo.newBuilder().setChunkName(block + "_chunk_1").setOffset(0)
        .setLen(LEN).setChecksumData(ContainerProtos.ChecksumData.newBuilder()
            .setType(ContainerProtos.ChecksumType.NONE).setBytesPerChecksum(LEN).build())
        .build();
  }

  /** The client's WriteChunk, with its data (what startTransaction and WRITE_DATA see). */
  public ContainerCommandRequestProto writeChunk(long block) {
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.WriteChunk)
        .setContainerID(C).setDatanodeUuid(dnUuid).setPipelineID(UUID.randomUUID().toString())
        .setWriteChunk(ContainerProtos.WriteChunkRequestProto.newBuilder()
            .setBlockID(blockId(block)).setChunkData(chunk(block))
            .setData(ByteString.copyFrom(new byte[LEN])))
        .build();
  }

  public ContainerCommandRequestProto putBlock(long block) {
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.PutBlock)
        .setContainerID(C).setDatanodeUuid(dnUuid)
        .setPutBlock(ContainerProtos.PutBlockRequestProto.newBuilder().setBlockData(
            ContainerProtos.BlockData.newBuilder().setBlockID(blockId(block))
                .addChunks(chunk(block))))
        .build();
  }

  public ContainerCommandRequestProto closeContainer() {
    return ContainerCommandRequestProto.newBuilder().setCmdType(Type.CloseContainer)
        .setContainerID(C).setDatanodeUuid(dnUuid)
        .setCloseContainer(ContainerProtos.CloseContainerRequestProto.getDefaultInstance())
        .build();
  }

  // ---- the harness's ContainerStateMachine ----

  /** One command of the client through the leader: its entry index, or its rejection. */
  public final class Entry {
    public final ContainerCommandRequestProto request;
    public long index;
    /** What the client was told: null while no reply. */
    public volatile String reply;

    Entry(ContainerCommandRequestProto request) {
      this.request = request;
    }

    public boolean succeeded() {
      return "SUCCESS".equals(reply);
    }
  }

  /**
   * startTransaction on the leader: HddsDispatcher.validateContainerCommand; an exception is
   * the client's answer and nothing is appended.
   */
  public Entry startTransaction(ContainerCommandRequestProto request) {
    Entry e = new Entry(request);
    act("dn1 RaftServer-RPC");
    try {
      dispatcher.validateContainerCommand(request);
      e.index = ++lastIndex;
      log.add(request.getCmdType() + " validated, appended at index " + e.index);
    } catch (Exception ex) {
      e.reply = "rejected by validateContainerCommand: " + ex;
      log.add(request.getCmdType() + " " + e.reply);
    } finally {
      act(null);
    }
    return e;
  }

  /**
   * The current thread plays the model's {@code actor} (the timeline's second column of
   * {@code cargo xtask replay}) while {@link #tracing}; {@code null}: none.
   */
  public void act(String actor) {
    Recorder.act(tracing ? actor : null);
  }

  public DispatcherContext writeData(long index) {
    return DispatcherContext.newBuilder(DispatcherContext.Op.WRITE_STATE_MACHINE_DATA)
        .setTerm(1).setLogIndex(index).setStage(DispatcherContext.WriteChunkStage.WRITE_DATA)
        .setContainer2BCSIDMap(container2BCSIDMap).build();
  }

  public DispatcherContext apply(long index, boolean commitData) {
    DispatcherContext.Builder b = DispatcherContext.newBuilder(
        DispatcherContext.Op.APPLY_TRANSACTION).setTerm(1).setLogIndex(index)
        .setContainer2BCSIDMap(container2BCSIDMap);
    if (commitData) {
      b.setStage(DispatcherContext.WriteChunkStage.COMMIT_DATA);
    }
    return b.build();
  }

  private static boolean ignored(Result r) {
    return r == Result.SUCCESS || r == Result.CONTAINER_NOT_OPEN
        || r == Result.CLOSED_CONTAINER_IO || r == Result.CHUNK_FILE_INCONSISTENCY;
  }

  /**
   * One dispatch as the state machine makes it, with its rule on the result; false when the
   * state machine is (or becomes) unhealthy.
   */
  public boolean dispatch(String what, ContainerCommandRequestProto req, DispatcherContext ctx) {
    if (!healthy) {
      return false;
    }
    String res;
    boolean ok;
    try {
      ContainerCommandResponseProto r = dispatcher.dispatch(req, ctx);
      res = r.getResult().toString();
      ok = ignored(r.getResult());
    } catch (RuntimeException ex) {
      res = ex.getClass().getSimpleName() + ": " + ex.getMessage();
      ok = false;
    }
    log.add(what + " -> " + res);
    if (!ok) {
      healthy = false;
      failure = what + " -> " + res;
    }
    return ok;
  }

  /** WRITE_DATA of a WriteChunk entry (the chunk executor). */
  public boolean writeStateMachineData(Entry e) {
    act("dn1 ChunkWriter");
    try {
      return dispatch(e.request.getCmdType() + " WRITE_DATA", e.request, writeData(e.index));
    } finally {
      act(null);
    }
  }

  /** The apply of an entry: COMMIT_DATA for a WriteChunk (its data cleared, as in the log). */
  public boolean applyTransaction(Entry e) {
    boolean wc = e.request.getCmdType() == Type.WriteChunk;
    ContainerCommandRequestProto logged = wc ? e.request.toBuilder().setWriteChunk(
        e.request.getWriteChunk().toBuilder().clearData()).build() : e.request;
    act("dn1 apply");
    try {
      return dispatch(e.request.getCmdType() + (wc ? " COMMIT_DATA" : " apply"), logged,
          apply(e.index, wc));
    } finally {
      act(null);
    }
  }

  /** The client's answer once the entry was applied: SUCCESS, or what the leader returned. */
  public void answer(Entry e, boolean applied) {
    if (e.reply == null) {
      e.reply = applied && healthy ? lastResult(e) : "no reply: the pipeline closed";
    }
  }

  private String lastResult(Entry e) {
    String last = log.get(log.size() - 1);
    return last.substring(last.indexOf("-> ") + 3);
  }

  /** The client's WriteChunk and PutBlock of one block, start to end, nothing in between. */
  public Entry[] write(long block) {
    Entry wc = startTransaction(writeChunk(block));
    if (wc.reply == null) {
      boolean ok = writeStateMachineData(wc) && applyTransaction(wc);
      answer(wc, ok);
    }
    Entry pb = startTransaction(putBlock(block));
    if (pb.reply == null) {
      answer(pb, applyTransaction(pb));
    }
    return new Entry[] {wc, pb};
  }

  /** SCM's close, applied through the pipeline on the leader. */
  public void closeThroughPipeline() {
    Entry e = startTransaction(closeContainer());
    act("apply (CloseContainer)");
    try {
      dispatch("CloseContainer apply", e.request, apply(e.index, false));
    } finally {
      act(null);
    }
  }

  /** SCM's force delete on the leader: DeleteContainerCommandHandler → deleteContainer(force). */
  public void forceDelete() throws Exception {
    Container<?> c = set.getContainer(C);
    act("DeleteContainerCommandHandler");
    try {
      handler.deleteContainer(c, true);
    } finally {
      act(null);
    }
    log.add("force delete of c" + C + " done (state " + c.getContainerState() + ")");
  }

  /**
   * The pre-state of every replay: container 1 created over the pipeline by the first write
   * (auto-create in WRITE_DATA), block 1 committed, OPEN.
   */
  public void openWithBlock() {
    Entry[] e = write(OLD_BLOCK);
    if (!e[0].succeeded() || !e[1].succeeded() || set.getContainer(C) == null) {
      throw new IllegalStateException("harness: the first write failed: " + log);
    }
  }

  // ---- the state the predicates read ----

  public Container<?> replica() {
    return set.getContainer(C);
  }

  /** Whether the container ID table has a row for C (and its state). */
  public String idTableRow() throws Exception {
    var row = idStore.getContainerCreateInfoTable().get(ContainerID.valueOf(C));
    return row == null ? "none" : row.getState().toString();
  }

  public boolean holds(long block) {
    Container<?> c = replica();
    if (c == null) {
      return false;
    }
    try (var db = org.apache.hadoop.ozone.container.keyvalue.helpers.BlockUtils.getDB(
        (org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData) c.getContainerData(),
        conf)) {
      return db.getStore().getBlockDataTable().get(
          ((org.apache.hadoop.ozone.container.keyvalue.KeyValueContainerData) c
              .getContainerData()).getBlockKey(block)) != null;
    } catch (Exception e) {
      return false;
    }
  }

  public String describe() {
    Container<?> c = replica();
    String r = c == null ? "no replica of c" + C
        : "c" + C + " " + c.getContainerState() + " BCSID " + c.getBlockCommitSequenceId()
            + " blocks " + (holds(OLD_BLOCK) ? (holds(NEW_BLOCK) ? "[1, 2]" : "[1]")
                : holds(NEW_BLOCK) ? "[2]" : "[]");
    return r + "; container2BCSIDMap[c" + C + "]=" + container2BCSIDMap.get(C)
        + "; stateMachineHealthy=" + healthy + (healthy ? "" : " (" + failure + ")");
  }

  /**
   * The observable state as the model's state names it (the {@code key=value} words of
   * {@code ContainerRecreate::describe}'s last line): what the trace's last line gives the
   * validator. Only the leader (dn1) is wired.
   */
  public Map<String, String> modelState() {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    Container<?> c = replica();
    m.put("dn1.replicas", c == null ? "0" : "1");
    if (c != null) {
      Map<String, String> r = Probes.replica(c);
      m.put("dn1.c1", r.get("state"));
      m.put("dn1.c1.bcsid", r.get("bcsid"));
      List<String> blocks = new ArrayList<>();
      if (holds(OLD_BLOCK)) {
        blocks.add(String.valueOf(OLD_BLOCK));
      }
      if (holds(NEW_BLOCK)) {
        blocks.add(String.valueOf(NEW_BLOCK));
      }
      m.put("dn1.c1.blocks", blocks.isEmpty() ? "none" : String.join(",", blocks));
    }
    m.put("dn1.healthy", String.valueOf(healthy));
    Long bcsid = container2BCSIDMap.get(C);
    m.put("dn1.container2BCSIDMap[c1]", bcsid == null ? "none" : String.valueOf(bcsid));
    return m;
  }

  public State state() {
    Container<?> c = replica();
    return c == null ? null : c.getContainerState();
  }

  @Override
  public void close() {
    try {
      handler.stop();
    } catch (Exception ignored) {
      // best effort
    }
    try {
      idStore.stop();
    } catch (Exception ignored) {
      // best effort
    }
    volumes.shutdown();
    ContainerMetrics.remove();
    org.apache.commons.io.FileUtils.deleteQuietly(dir);
  }
}
