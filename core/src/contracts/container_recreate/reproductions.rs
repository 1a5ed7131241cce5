//! The report's observable results, computed on the same programs the loom threads run, each
//! played in the reproduction's order and rendered in the report's words.

use super::datanode::{Res, State};
use super::pipeline::{ClientResult, ClientWrite};
use super::{
    created_with_block, run, CloseThenForceDelete, Fix, World, C, CHUNK, LEADER, NEW_BLOCK,
    OLD_BLOCK, PIPELINE,
};
use crate::trace::Trace;

/// A world after `TestCloseContainerByPipeline#testWriteAfterForceDeleteOnLeaderRecreatesContainer`'s
/// steps: a key written with RATIS/THREE, its container closed on all three, a forced delete on
/// the leader only, then a WriteChunk and a PutBlock of a new 1024-byte block in the same
/// container through the same pipeline.
pub fn write_after_force_delete(fix: Fix) -> (World, ClientResult) {
    let trace = Trace::new();
    let w = World::new(fix);
    created_with_block(&trace, &w, C, OLD_BLOCK);
    run(&w, CloseThenForceDelete::new(&trace, &PIPELINE, C, LEADER));
    run(
        &w,
        ClientWrite::new(&trace, &PIPELINE, C, NEW_BLOCK, 0, CHUNK),
    );
    let client = last_client(&w);
    (w, client)
}

fn last_client(w: &World) -> ClientResult {
    w.ghost
        .with(|g| g.clients.last().copied())
        .expect("a client result")
}

fn reply(r: Option<Res>) -> String {
    r.map_or("no reply".into(), |r| r.to_string())
}

/// The repro test's assertions: what the client got, the leader's replica, the followers'.
pub fn repro_test(fix: Fix) -> String {
    let (w, client) = write_after_force_delete(fix);
    let closed_bcsid = w.dn(2).set.get(C).map_or(0, |c| c.data(|d| d.bcsid));
    let leader = match w.dn(LEADER).set.get(C) {
        None => "no replica".to_string(),
        Some(c) => c.data(|d| {
            format!(
                "{:?}, {} block{}, BCSID {} the closed replicas",
                d.state,
                d.blocks.len(),
                if d.blocks.len() == 1 { "" } else { "s" },
                if d.bcsid > closed_bcsid {
                    "above"
                } else {
                    "not above"
                }
            )
        }),
    };
    let followers: Vec<String> = PIPELINE[1..]
        .iter()
        .map(|&f| {
            let state = w.dn(f).set.get(C).map_or("absent".to_string(), |c| {
                c.data(|d| {
                    format!(
                        "{:?} at {} BCSID",
                        d.state,
                        if d.bcsid == closed_bcsid {
                            "the old"
                        } else {
                            "a new"
                        }
                    )
                })
            });
            let replies = w.ghost.replies_of(f);
            let new_write = replies.len().saturating_sub(3);
            let rejected = replies[new_write..]
                .iter()
                .all(|&r| r == Res::ClosedContainerIo);
            format!(
                "{state}, {}",
                if rejected {
                    "rejecting both with CLOSED_CONTAINER_IO"
                } else {
                    "not rejecting both"
                }
            )
        })
        .collect();
    format!(
        "WriteChunk {}, PutBlock {}; leader {leader}; followers {}",
        reply(client.write_chunk),
        reply(client.put_block),
        if followers[0] == followers[1] {
            followers[0].clone()
        } else {
            followers.join(" / ")
        }
    )
}

/// The same sequence with a fix: what the client got, whether the pipeline stays open, and
/// whether the client can then write a new block in a new container through it.
pub fn with_fix(fix: Fix) -> String {
    let trace = Trace::new();
    let (w, client) = write_after_force_delete(fix);
    let open = PIPELINE.iter().all(|&d| w.dn(d).csm.is_healthy());
    // The client excludes the container and allocates a new block in a new one.
    created_with_block(&trace, &w, 2, 1);
    let next = last_client(&w);
    format!(
        "WriteChunk {}, PutBlock {}; pipeline {}; new block in a new container: {}",
        reply(client.write_chunk),
        reply(client.put_block),
        if open { "open" } else { "closed" },
        if next.succeeded() {
            "SUCCESS"
        } else {
            "failed"
        }
    )
}

/// Whether the leader's replica is the recreated one in the state the production log shows
/// right after the recreate: OPEN, BCSID 0 (before the PutBlock's apply).
pub fn leader_state_after_write_chunk(fix: Fix) -> String {
    let trace = Trace::new();
    let w = World::new(fix);
    created_with_block(&trace, &w, C, OLD_BLOCK);
    run(&w, CloseThenForceDelete::new(&trace, &PIPELINE, C, LEADER));
    // Only the WriteChunk: the client's PutBlock is a separate block-sized flush here.
    let mut write = ClientWrite::new(&trace, &PIPELINE, C, NEW_BLOCK, 0, CHUNK);
    while w
        .ghost
        .with(|g| g.replies.iter().filter(|r| r.0 == LEADER).count())
        < 4
    {
        crate::model::Program::step(&mut write, &w);
    }
    let leader = w.dn(LEADER).set.get(C).map_or("no replica".into(), |c| {
        c.data(|d| {
            let state = if d.state == State::Open {
                "OPEN"
            } else {
                "not OPEN"
            };
            format!("{state}, BCSID {}", d.bcsid)
        })
    });
    format!("dn1: C is {leader}")
}
