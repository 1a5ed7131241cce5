//! The loom scenarios: the client's late write against the close and the force delete (O1, O5,
//! O7), and against the container report thread (O8).

use super::close::close_then_force_delete;
use super::container_report::ContainerReport;
use super::pipeline::ClientWrite;
use super::{
    created_with_block, ContainerRecreate, Fix, World, C, CHUNK, LEADER, LEADER_ONLY, NEW_BLOCK,
    OLD_BLOCK,
};
use crate::model::{Program, Scenario, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

/// The client of every race: it allocated block 2 before the close, and writes it to the leader
/// (WriteChunk at offset 0, then PutBlock).
pub fn late_writer(trace: &Trace) -> ClientWrite {
    ClientWrite::new(trace, LEADER_ONLY, C, NEW_BLOCK, 0, CHUNK)
}

/// The pre-state of every scenario: container 1 created over the pipeline, block 1 committed
/// at BCSID 2 on all three members, OPEN.
pub fn open_container(trace: &Trace, fix: Fix) -> Arc<World> {
    let w = Arc::new(World::new(fix));
    created_with_block(trace, &w, C, OLD_BLOCK);
    w
}

pub fn setup(world: Arc<World>, threads: Vec<Box<dyn Program<World>>>) -> Setup<ContainerRecreate> {
    Setup { world, threads }
}

/// The race: a client that allocated block 2 before the close writes it (WriteChunk at
/// offset 0, PutBlock) while the close is applied and SCM force-deletes the leader's replica.
/// Every order of the two covers the report's sequence (closed and deleted before the write,
/// as in the repro test) and the writes in flight across the close and the delete.
pub static WRITE_RACES_CLOSE_AND_DELETE: Scenario<ContainerRecreate> = Scenario {
    name: "write-races-close-and-force-delete",
    about: "c1 OPEN at BCSID 2 on dn1 (leader), dn2, dn3; the client writes block 2 (WriteChunk, \
            PutBlock) while the close is applied and dn1's command handler force-deletes c1",
    build: |trace, fix| {
        let w = open_container(trace, fix);
        setup(
            w,
            vec![
                Box::new(late_writer(trace)),
                Box::new(close_then_force_delete(trace, LEADER_ONLY, C, LEADER)),
            ],
        )
    },
};

/// O8: the report thread reads the BCSID while the PutBlock's apply writes it.
pub static REPORT_RACES_PUT_BLOCK: Scenario<ContainerRecreate> = Scenario {
    name: "report-races-put-block-apply",
    about: "c1 OPEN at BCSID 2 on dn1 (leader); the client writes block 2 (WriteChunk, PutBlock) while \
            dn1's report thread builds its container report",
    build: |trace, fix| {
        let w = open_container(trace, fix);
        setup(
            w,
            vec![
                Box::new(late_writer(trace)),
                Box::new(ContainerReport::new(trace, LEADER)),
            ],
        )
    },
};

/// SCM's replication manager on a container whose leader recreated it, one pass as upstream's
/// threads make it: the datanodes' full reports, the handler chain (the recreated OPEN replica
/// closed through the pipeline), the reports again, then the over- and under-replication
/// processors, each command carried out on the datanodes when sent.
#[derive(Debug)]
pub struct ScmPass {
    trace: Trace,
    id: super::ContainerId,
    step: u8,
}

impl ScmPass {
    pub const ACTOR: &'static str = "SCM (reports, ReplicationManager)";

    pub fn new(trace: &Trace, id: super::ContainerId) -> Self {
        ScmPass {
            trace: trace.clone(),
            id,
            step: 0,
        }
    }
}

/// Every datanode, in ID order.
const EVERY_DATANODE: &[super::DnId] = &[1, 2, 3, 4, 5];

impl Program<World> for ScmPass {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.step == 4
    }

    fn step(&mut self, w: &World) {
        let (trace, id) = (&self.trace, self.id);
        match self.step {
            0 | 2 => w.reports(trace, EVERY_DATANODE),
            1 => {
                let commands = w.scm_state().check(w.fix.scm(), id);
                w.execute(trace, id, &commands);
            }
            _ => {
                let work = w.scm_state().process(w.fix.scm());
                for (c, commands) in work {
                    w.execute(trace, c, &commands);
                }
            }
        }
        self.step += 1;
    }

    fn next_step(&self) -> Option<String> {
        Some(
            match self.step {
                0 | 2 => "the datanodes' full container reports",
                1 => "ReplicationManager.processContainer (the handler chain)",
                _ => "the over- and under-replication processors",
            }
            .into(),
        )
    }
}

/// P5's flagged replicas (issue 37): the production timeline up to SCM's decision. c1 closes
/// on dn1, dn2, dn3 at BCSID 2; the balancer moves it from the leader dn1 to dn4 (copy, then
/// the force delete on dn1); the client's late write of block 2 recreates it on dn1 and
/// commits there above the close's BCSID. Then SCM's one pass ([`ScmPass`]): four CLOSED
/// replicas, the recreated one closed through the pipeline at its own BCSID. Which replica the
/// replication manager deletes or copies from rests on which it counts unhealthy: with P4+P5
/// the recreated one (its BCSID differs from the kept sequence id), deleted as unhealthy;
/// without P5 none, and over-replication deletes the first in hashCode order, c1's dn2, a
/// real replica (O3). SCM is deterministic: one thread, one execution (loom and the step
/// checker both see the one order); the cell is about the decision, not a race.
pub static SCM_COUNTS_A_RECREATED_REPLICA: Scenario<ContainerRecreate> = Scenario {
    name: "scm-counts-a-recreated-replica",
    about: "c1 CLOSED at BCSID 2 on dn2, dn3, dn4 (moved off dn1), recreated on dn1 by the late \
            write with block 2 above it; SCM's reports and one replication-manager pass",
    build: |trace, fix| {
        use super::scm::{Command, Why};
        use super::{run, CloseThroughPipeline, PIPELINE};
        let w = open_container(trace, fix);
        run(&w, CloseThroughPipeline::new(trace, &PIPELINE, C));
        w.reports(trace, &PIPELINE);
        // MoveManager: replicate dn1 → dn4, then the source's force delete.
        w.replicate(trace, C, LEADER, 4);
        w.execute(
            trace,
            C,
            &[Command::Delete {
                dn: LEADER,
                force: true,
                why: Why::BalancerMove,
            }],
        );
        run(
            &w,
            ClientWrite::new(trace, &PIPELINE, C, NEW_BLOCK, 0, CHUNK),
        );
        setup(w, vec![Box::new(ScmPass::new(trace, C))])
    },
};

/// The leader and one follower, the members [`WRITE_RACES_ON_A_FOLLOWER`] runs the write and
/// the close on.
pub const LEADER_AND_FOLLOWER: &[super::DnId] = &[LEADER, 2];

/// The O5 predicate reads every member (issue 37): the race of
/// [`WRITE_RACES_CLOSE_AND_DELETE`] with SCM's force delete on the follower dn2 instead of the
/// leader (the balancer moving c1 off a follower). The leader's replica is only ever closed,
/// so every write it applies answers SUCCESS or CLOSED_CONTAINER_IO (ignored) and its state
/// machine never fails; the follower's applies meet the delete as the leader's do in the race
/// (a PutBlock appended before the close and applied after the delete auto-creates an empty
/// replica and fails UNABLE_TO_FIND_CHUNK), so O5 is reached on dn2 alone. dn3 is left out as
/// the race leaves the followers out.
pub static WRITE_RACES_ON_A_FOLLOWER: Scenario<ContainerRecreate> = Scenario {
    name: "write-races-close-and-force-delete-on-a-follower",
    about: "c1 OPEN at BCSID 2 on dn1 (leader), dn2, dn3; the client writes block 2 through dn1 and dn2 \
            while the close is applied on both and dn2's command handler force-deletes c1",
    build: |trace, fix| {
        let w = open_container(trace, fix);
        setup(
            w,
            vec![
                Box::new(ClientWrite::new(
                    trace,
                    LEADER_AND_FOLLOWER,
                    C,
                    NEW_BLOCK,
                    0,
                    CHUNK,
                )),
                Box::new(close_then_force_delete(trace, LEADER_AND_FOLLOWER, C, 2)),
            ],
        )
    },
};

/// A datanode's restart as one step: `loadSnapshot`, the missing set, the replay of the log
/// after the snapshot ([`World::restart`]).
#[derive(Debug)]
pub struct Restart {
    trace: Trace,
    dn: super::DnId,
    done: bool,
}

impl Restart {
    pub const ACTOR: &'static str = "restart (OzoneContainer start, loadSnapshot, log replay)";

    pub fn new(trace: &Trace, dn: super::DnId) -> Self {
        Restart {
            trace: trace.clone(),
            dn,
            done: false,
        }
    }
}

impl Program<World> for Restart {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self, w: &World) {
        w.restart(&self.trace, self.dn);
        self.done = true;
    }

    fn next_step(&self) -> Option<String> {
        Some(format!("the restart of dn{}", self.dn))
    }
}

/// P3's restart half as a cell (issue 37): c1 created through the data stream (StreamInit, then
/// PutBlock: nothing of it in `container2BCSIDMap`), closed at BCSID 2, force-deleted on the
/// leader, and no snapshot taken; then the leader restarts and replays its log. The replay of
/// the StreamInit auto-creates an absent container at any stage: only a record that survives
/// the restart refuses it. P3's tombstone is in the container ID table, which the restart
/// keeps (and does not mark missing): no recreate. The map P1 reads is rebuilt from the
/// snapshot, which predates c1: P1 forgets it and the replay recreates c1 (CR-F6). A P3 whose
/// restart drops the tombstone recreates it too. Deterministic: one thread, one execution.
pub static RESTART_REPLAYS_A_STREAMED_CONTAINER: Scenario<ContainerRecreate> = Scenario {
    name: "restart-replays-a-deleted-streamed-container",
    about: "c1 streamed (StreamInit, PutBlock) on dn1, dn2, dn3, closed at BCSID 2, force-deleted on dn1, no \
            snapshot; dn1 restarts and replays its log",
    build: |trace, fix| {
        use super::delete::DeleteContainerCommandHandler;
        use super::{run, CloseThroughPipeline, PIPELINE};
        let w = Arc::new(World::new(fix));
        w.scm_state().allocate(C);
        run(
            &w,
            ClientWrite::streamed(trace, &PIPELINE, C, OLD_BLOCK, CHUNK),
        );
        run(&w, CloseThroughPipeline::new(trace, &PIPELINE, C));
        run(&w, DeleteContainerCommandHandler::new(trace, LEADER, C, true));
        setup(w, vec![Box::new(Restart::new(trace, LEADER))])
    },
};

/// P2's COMMIT_DATA refusal with a tombstone, and P3's restart half that keeps a tombstoned ID
/// out of the missing set (issue 37, path cells of O5): c1 created over the pipeline (WriteChunk,
/// PutBlock), closed at BCSID 2, force-deleted on the leader, no snapshot taken; then the leader
/// restarts and replays its log. The replay of the WriteChunk's COMMIT_DATA finds c1 absent,
/// and the map P1 reads is the snapshot's, which predates c1: only P3's tombstone, kept across
/// the restart and not marked missing, remembers it, and P2 answers CONTAINER_NOT_OPEN, which
/// the state machine ignores (the PutBlock's replay is refused by the tombstone). Without the
/// tombstone, or with P2 reading the map alone, COMMIT_DATA answers CONTAINER_NOT_FOUND; with a
/// tombstoned ID marked missing at the restart, CONTAINER_MISSING: either fails the pipeline
/// (O5). Deterministic: one thread, one execution.
pub static RESTART_REPLAYS_A_DELETED_CONTAINER: Scenario<ContainerRecreate> = Scenario {
    name: "restart-replays-a-deleted-container",
    about: "c1 written (WriteChunk, PutBlock) on dn1, dn2, dn3, closed at BCSID 2, force-deleted on dn1, \
            no snapshot; dn1 restarts and replays its log (the WriteChunk's COMMIT_DATA, the PutBlock)",
    build: |trace, fix| {
        use super::delete::DeleteContainerCommandHandler;
        use super::{run, CloseThroughPipeline, PIPELINE};
        let w = open_container(trace, fix);
        run(&w, CloseThroughPipeline::new(trace, &PIPELINE, C));
        run(&w, DeleteContainerCommandHandler::new(trace, LEADER, C, true));
        setup(w, vec![Box::new(Restart::new(trace, LEADER))])
    },
};

/// P7's pass-through of CONTAINER_NOT_OPEN (issue 37, a path cell of O5): the race of
/// [`WRITE_RACES_CLOSE_AND_DELETE`] with the WriteChunk of block 2 already written and
/// committed on the leader, so that only its PutBlock races the close and the force delete:
/// validated while c1 is OPEN, applied across the delete. Applied while the delete holds the
/// replica DELETED, `checkContainerOpen` answers CONTAINER_INTERNAL_ERROR upstream, and the
/// replica cannot be marked UNHEALTHY: the exception fails the pipeline (O5). P7 answers
/// CONTAINER_NOT_OPEN there and `canIgnoreException` passes it. Applied after the delete, the
/// PutBlock auto-creates c1 unless P1 or P3 refuses it. In the rows with P7 and P1 or P3 but
/// not P8, only the pass-through closes O5 here (the race's O5, the chunk file opened after the
/// delete, needs the WriteChunk in flight).
pub static PUT_BLOCK_RACES_CLOSE_AND_DELETE: Scenario<ContainerRecreate> = Scenario {
    name: "put-block-races-close-and-force-delete",
    about: "c1 OPEN at BCSID 2 on dn1 (leader), dn2, dn3; block 2's WriteChunk written and committed on dn1; \
            its PutBlock races the close and dn1's force delete of c1",
    build: |trace, fix| {
        let w = open_container(trace, fix);
        let put_block = late_writer(trace).past_the_write_chunk(&w);
        setup(
            w,
            vec![
                Box::new(put_block),
                Box::new(close_then_force_delete(trace, LEADER_ONLY, C, LEADER)),
            ],
        )
    },
};

/// P8's catch in `handleStreamInit` (issue 37, a path cell of O5): the race of
/// [`WRITE_RACES_CLOSE_AND_DELETE`] with the client's block 2 written through the data stream
/// (StreamInit, then PutBlock). The stream's WRITE_DATA dispatches StreamInit, which opens the
/// chunk file the stream then writes: a StreamInit that passed `checkContainerOpen` while c1
/// was OPEN opens it after the close and the force delete moved the directory, and the open
/// throws, as the WriteChunk's does in the race; P8's catch in `handleStreamInit` reads the
/// state again and answers CONTAINER_NOT_OPEN. Applied after the delete, the StreamInit and the
/// PutBlock meet P3's tombstone (or P1's map); while the delete holds the replica DELETED, P7.
pub static STREAMED_WRITE_RACES_CLOSE_AND_DELETE: Scenario<ContainerRecreate> = Scenario {
    name: "streamed-write-races-close-and-force-delete",
    about: "c1 OPEN at BCSID 2 on dn1 (leader), dn2, dn3; the client streams block 2 (StreamInit, PutBlock) \
            while the close is applied and dn1's command handler force-deletes c1",
    build: |trace, fix| {
        let w = open_container(trace, fix);
        setup(
            w,
            vec![
                Box::new(ClientWrite::streamed(trace, LEADER_ONLY, C, NEW_BLOCK, CHUNK)),
                Box::new(close_then_force_delete(trace, LEADER_ONLY, C, LEADER)),
            ],
        )
    },
};
