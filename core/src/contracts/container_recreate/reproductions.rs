//! The report's observable results, computed on the same programs the loom threads run, each
//! played in the reproduction's order and rendered in the report's words.

use super::datanode::{Res, State};
use super::delete::DeleteContainerCommandHandler;
use super::ghost::ClientResult;
use super::pipeline::ClientWrite;
use super::{
    close_then_force_delete, created_with_block, run, CloseThroughPipeline, Fix, World, C, CHUNK,
    LEADER, NEW_BLOCK, OLD_BLOCK, PIPELINE,
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
    run(&w, close_then_force_delete(&trace, &PIPELINE, C, LEADER));
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

/// The production timeline of the report, for container C on leader dn1 (followers dn2, dn3):
/// each line's state, rendered as the report logs it.
pub fn production_timeline(fix: Fix) -> String {
    let trace = Trace::new();
    let w = World::new(fix);
    created_with_block(&trace, &w, C, OLD_BLOCK);
    run(&w, CloseThroughPipeline::new(&trace, &PIPELINE, C));
    let n = w.dn(LEADER).set.get(C).map_or(0, |c| c.data(|d| d.bcsid));
    let closed = PIPELINE.iter().all(|&d| {
        w.dn(d)
            .set
            .get(C)
            .is_some_and(|c| c.data(|r| r.state == State::Closed && r.bcsid == n))
    });
    let mut lines = vec![format!(
        "00:00 C {} on dn1, dn2, dn3 at BCSID N",
        if closed { "closes" } else { "does not close" }
    )];
    w.replicate(&trace, C, LEADER, 4);
    run(
        &w,
        DeleteContainerCommandHandler::new(&trace, LEADER, C, true),
    );
    lines.push("00:04 moved from dn1 to dn4, forced delete on dn1".into());
    let mut write = ClientWrite::new(&trace, &PIPELINE, C, NEW_BLOCK, 0, CHUNK);
    // The WriteChunk: its WRITE_DATA and COMMIT_DATA on every member.
    crate::model::step_until(
        &mut write,
        &w,
        "the WriteChunk's six replies",
        |write, _| write.replies().len() >= 2 * 3,
    );
    lines.push(
        w.dn(LEADER)
            .set
            .get(C)
            .map_or("00:06 dn1: C absent".into(), |c| {
                c.data(|d| {
                    format!(
                        "00:06 dn1: C is {}, BCSID {}",
                        if d.state == State::Open {
                            "OPEN"
                        } else {
                            "not OPEN"
                        },
                        d.bcsid
                    )
                })
            }),
    );
    lines.push(format!(
        "00:07 dn1: GetBlock for an existing block of C returns {}",
        w.dn(LEADER).get_block(C, OLD_BLOCK)
    ));
    run(&w, write);
    run(&w, CloseThroughPipeline::new(&trace, &PIPELINE, C));
    lines.push(
        w.dn(LEADER)
            .set
            .get(C)
            .map_or("00:09 dn1: C absent".into(), |c| {
                c.data(|d| match d.bcsid.checked_sub(n) {
                    Some(k) if k > 0 && d.state == State::Closed => {
                        "00:09 dn1: C CLOSED at BCSID N + k (k > 0)".to_string()
                    }
                    _ => format!("00:09 dn1: C {:?} at BCSID {}", d.state, d.bcsid),
                })
            }),
    );
    lines.join("; ")
}

/// The replication manager on four CLOSED replicas of a CLOSED container, one of them the
/// recreated replica on dn1 with a BCSID above the three real ones on dn2..dn4 (upstream
/// raised the container's sequence id to it; P4 keeps the close's), for every container ID
/// 1..=255: how many decisions delete a real replica. Upstream's choice follows `hashCode`
/// only.
pub fn over_replication_share(fix: Fix) -> (usize, usize) {
    use super::scm::{Command, ContainerInfo, ContainerReplica, LifeCycle, Replicas, Scm};
    let replica = |seq| ContainerReplica {
        state: State::Closed,
        seq,
        empty: false,
    };
    let mut real = 0;
    let ids = 1..=u8::MAX;
    for id in ids.clone() {
        let mut scm = Scm::default();
        let seq = if fix.keep_closed_seq.get() { 2 } else { 6 };
        scm.containers.insert(
            id,
            ContainerInfo {
                state: LifeCycle::Closed,
                seq,
                close_seq: 2,
            },
        );
        let mut replicas = Replicas::new();
        for (dn, seq) in [(1, 6), (2, 2), (3, 2), (4, 2)] {
            replicas.insert(dn, replica(seq));
        }
        scm.replicas.insert(id, replicas);
        scm.queue.insert(id);
        let deleted = scm
            .process(fix.scm())
            .into_iter()
            .flat_map(|(_, c)| c)
            .find_map(|c| match c {
                Command::Delete { dn, .. } => Some(dn),
                _ => None,
            });
        real += usize::from(deleted.is_some_and(|dn| dn != 1));
    }
    (real, ids.count())
}

/// [`over_replication_share`] in the report's terms.
pub fn over_replication_deletes(fix: Fix) -> String {
    let (real, total) = over_replication_share(fix);
    if 2 * real > total {
        "most decisions delete a real replica".into()
    } else {
        format!("{real} of {total} decisions delete a real replica")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// The share the over-replication reproduction's description gives.
    #[test]
    fn over_replication_share_is_the_described_one() {
        assert_eq!(over_replication_share(Fix::UPSTREAM), (194, 255));
    }
}
