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
