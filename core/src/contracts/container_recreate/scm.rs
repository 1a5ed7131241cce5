//! SCM: the container report handler, the replication manager's handlers, the balancer's move,
//! and what they send to the datanodes. SCM is not in any loom scenario: its report handling
//! and replication decisions are deterministic given the order of events, which the long
//! histories choose.
//!
//! - `AbstractContainerReportHandler.processContainerReplica` under `synchronized
//!   (containerInfo)`: `updateContainerStats` (a CLOSED container whose sequence id is below a
//!   replica's BCSID: an error is logged, then, because the replica is not UNHEALTHY, INVALID or
//!   DELETED, `updateSequenceId(BCSID)` — P4 skips it for a CLOSED container);
//!   `updateContainerState` (CLOSED: nothing); `updateContainerReplica` (seq = BCSID). A full
//!   report also drops the replicas the datanode no longer lists.
//! - `RatisContainerReplicaCount.countReplicas`: UNHEALTHY is unhealthy, any CLOSED replica is
//!   healthy and matching, an OPEN one healthy and mismatched. P5: a CLOSED replica whose seq
//!   differs from the container's is unhealthy.
//! - `MismatchedReplicasHandler`: an OPEN replica of a CLOSED container gets a close command;
//!   with the pipeline up, `CloseContainerCommandHandler` submits it through Ratis, so the
//!   replica ends CLOSED at its own BCSID.
//! - `EmptyContainerHandler`: CLOSED, every replica CLOSED and empty → delete them (non-force);
//!   DELETING only when some replica's seq equals the container's.
//! - `RatisOverReplicationHandler`: replicas sorted by `ContainerReplica.hashCode` (container
//!   ID and datanode; [`hash_code`]), state-mismatched ones deleted first, then in hash order
//!   until the excess is gone; force deletes. Unhealthy replicas are deleted once the healthy
//!   ones reach the replication factor (`ClosedWithUnhealthyReplicasHandler`).
//! - `RatisUnderReplicationHandler.getSources`: CLOSED, healthy replicas, then only those with
//!   the maximum sequence id; the copy goes to the lowest datanode without a replica.
//! - `MoveManager`: replicate source → target, then (`handleSuccessfulAdd`) a force delete of
//!   the source if the container stays healthy without it. It copies from the source it moves
//!   away from, whatever its sequence id.
//!
//! Simplifications: commands run on the datanode when sent, and SCM's replica map reflects a
//! completed delete or copy at once (what the pending-op bookkeeping and the next ICR give);
//! a recreate is learnt only from a report. Placement policy, node health states and
//! maintenance are not modelled; the replication factor is 3.

use super::datanode::{ContainerData, KeyValueContainer, Origin, State};
use super::delete::DeleteContainerCommandHandler;
use super::speed::dense::{self, IdMap, IdSet, SmallMap};
use super::{run, ContainerId, DnId, Fix, World, CONTAINER_SLOTS, DN_SLOTS};
use crate::splitmix::SplitMix64;
use crate::trace::{CxRef, Trace};
use std::fmt;

pub const REPLICATION_FACTOR: usize = 3;

/// `HddsProtos.LifeCycleState`, as far as these histories go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LifeCycle {
    #[default]
    Open,
    Closed,
    Deleting,
}

/// `ContainerInfo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContainerInfo {
    pub state: LifeCycle,
    pub seq: u64,
    /// Ghost: the sequence id at the close.
    pub close_seq: u64,
}

/// `ContainerReplica`, as a report records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContainerReplica {
    pub state: State,
    pub seq: u64,
    pub empty: bool,
}

/// A datanode's report of one replica (`ContainerReplicaProto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaProto {
    pub id: ContainerId,
    pub state: State,
    pub bcsid: u64,
    pub empty: bool,
}

/// A datanode's full container report: its replicas by container ID.
pub type Report = IdMap<ReplicaProto, CONTAINER_SLOTS>;

/// What `processContainerReplica` logged for one replica.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplicaLog {
    /// The error of a CLOSED container whose sequence id is below the replica's BCSID.
    pub closed_below: Option<(u64, u64)>,
    pub seq: SeqUpdate,
}

/// What `updateContainerStats` did to the container's sequence id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SeqUpdate {
    #[default]
    Unchanged,
    /// P4: kept for a CLOSED container.
    Kept,
    /// `updateSequenceId(BCSID)`.
    Raised(u64),
}

impl ReplicaLog {
    pub fn is_empty(&self) -> bool {
        self.closed_below.is_none() && self.seq == SeqUpdate::Unchanged
    }
}

impl fmt::Display for ReplicaLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((seq, bcsid)) = self.closed_below {
            write!(
                f,
                "ERROR Container CLOSED with sequence ID lower than a replica ({seq} < {bcsid})"
            )?;
            if self.seq != SeqUpdate::Unchanged {
                f.write_str(", ")?;
            }
        }
        match self.seq {
            SeqUpdate::Unchanged => Ok(()),
            SeqUpdate::Kept => f.write_str("sequence id kept (P4)"),
            SeqUpdate::Raised(bcsid) => write!(f, "updateSequenceId({bcsid})"),
        }
    }
}

/// What the replication manager decided for one container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `sendCloseContainerReplicaCommand`: `force` closes (rather than quasi-closes) without
    /// the pipeline.
    Close {
        dn: DnId,
        force: bool,
    },
    Delete {
        dn: DnId,
        force: bool,
        why: Why,
    },
    Replicate {
        src: DnId,
        tgt: DnId,
    },
    DeleteContainer,
}

/// Which component sends a delete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// `MoveManager`, after the copy to the target.
    BalancerMove,
    /// A forced delete sent directly (the repro test's).
    Forced,
    /// `EmptyContainerHandler`.
    Empty,
    /// `RatisOverReplicationHandler`: a replica whose state differs from the container's.
    StateMismatch,
    /// `RatisOverReplicationHandler`: the excess, in `hashCode` order.
    Excess,
    /// An unhealthy replica once the healthy ones reach the replication factor.
    Unhealthy,
}

impl Why {
    /// Whether the replication manager chose this replica over the others (O3's decisions).
    pub fn is_replication_choice(self) -> bool {
        matches!(self, Why::StateMismatch | Why::Excess | Why::Unhealthy)
    }
}

/// `ContainerReplica.hashCode` (`HashCodeBuilder(61, 71).append(containerID).append(datanode)`):
/// a fixed order of the replicas that has nothing to do with their content.
pub fn hash_code(id: ContainerId, dn: DnId) -> u64 {
    // SplitMix64 of the pair: as arbitrary as the Java hash, and stable.
    SplitMix64(u64::from(id) << 8 | u64::from(dn)).next_u64()
}

/// The replicas SCM knows of one container, by datanode.
pub type Replicas = IdMap<ContainerReplica, DN_SLOTS>;

/// How many containers SCM's tables hold (the models use two).
pub const SCM_CONTAINERS: usize = 4;

#[derive(Clone, Copy, Debug, Default)]
pub struct Scm {
    pub containers: SmallMap<ContainerInfo, SCM_CONTAINERS>,
    pub replicas: SmallMap<Replicas, SCM_CONTAINERS>,
    /// The replication manager's over- and under-replication queues.
    pub queue: IdSet,
}

/// The SCM parts of the fix.
#[derive(Clone, Copy, Debug)]
pub struct ScmFix {
    pub keep_closed_seq: bool,
    pub seq_mismatch_unhealthy: bool,
}

impl Scm {
    pub fn info(&self, id: ContainerId) -> &ContainerInfo {
        self.containers.get(id).expect("allocated")
    }

    /// The replicas SCM knows of container `id`.
    pub fn replicas(&self, id: ContainerId) -> &Replicas {
        static NONE: Replicas = IdMap::new();
        self.replicas.get(id).unwrap_or(&NONE)
    }

    /// A container allocated on the pipeline.
    pub fn allocate(&mut self, id: ContainerId) {
        self.containers.insert(
            id,
            ContainerInfo {
                state: LifeCycle::Open,
                seq: 0,
                close_seq: 0,
            },
        );
    }

    /// `ContainerManager.updateContainerState(CLOSE)` once the replicas of an OPEN container
    /// closed at `seq` (a later close of one replica changes nothing).
    pub fn close(&mut self, id: ContainerId, seq: u64) {
        let c = self.containers.get_mut(id).expect("allocated");
        if c.state != LifeCycle::Open {
            return;
        }
        c.state = LifeCycle::Closed;
        c.seq = c.seq.max(seq);
        c.close_seq = c.seq;
    }

    /// `processContainerReplica` for one replica; returns what was logged.
    pub fn process_replica(&mut self, fix: ScmFix, dn: DnId, r: ReplicaProto) -> ReplicaLog {
        let mut log = ReplicaLog::default();
        let Some(info) = self.containers.get_mut(r.id) else {
            return log;
        };
        if info.state == LifeCycle::Closed && info.seq < r.bcsid {
            log.closed_below = Some((info.seq, r.bcsid));
        }
        let healthy = !matches!(r.state, State::Unhealthy | State::Deleted);
        if healthy && info.seq < r.bcsid {
            if fix.keep_closed_seq && info.state == LifeCycle::Closed {
                log.seq = SeqUpdate::Kept;
            } else {
                info.seq = r.bcsid;
                log.seq = SeqUpdate::Raised(r.bcsid);
            }
        }
        let replica = ContainerReplica {
            state: r.state,
            seq: r.bcsid,
            empty: r.empty,
        };
        self.replicas
            .get_or_insert_with(r.id, IdMap::new)
            .insert(dn, replica);
        log
    }

    /// A full container report from `dn`: every listed replica processed, the others dropped;
    /// `log` gets a line for each.
    pub fn process_report(
        &mut self,
        fix: ScmFix,
        dn: DnId,
        report: &Report,
        mut log: impl FnMut(fmt::Arguments<'_>),
    ) {
        for r in report.values() {
            let logged = self.process_replica(fix, dn, *r);
            log(format_args!(
                "c{} on dn{dn}: {:?} BCSID {}{}",
                r.id,
                r.state,
                r.bcsid,
                fmt::from_fn(|f| if logged.is_empty() {
                    Ok(())
                } else {
                    write!(f, " — {logged}")
                })
            ));
        }
        for (id, reps) in self.replicas.iter_mut() {
            if reps.contains_key(dn) && !report.contains_key(id) {
                reps.remove(dn);
                log(format_args!(
                    "c{id} on dn{dn}: no longer reported, replica removed"
                ));
            }
        }
    }

    /// `RatisContainerReplicaCount`: whether `r` counts as unhealthy.
    pub fn unhealthy(&self, fix: ScmFix, id: ContainerId, r: &ContainerReplica) -> bool {
        let info = self.info(id);
        r.state == State::Unhealthy
            || (r.state == State::QuasiClosed && r.seq != info.seq)
            || (fix.seq_mismatch_unhealthy
                && info.state == LifeCycle::Closed
                && r.state == State::Closed
                && r.seq != info.seq)
    }

    /// `ReplicationManager.processContainer` for container `id`: the handler chain. Returns the
    /// commands it sends at once and queues the container for the over- and under-replication
    /// processors, which decide later on the replicas known then ([`Scm::process`]).
    pub fn check(&mut self, fix: ScmFix, id: ContainerId) -> Vec<Command> {
        let info = *self.info(id);
        if info.state != LifeCycle::Closed {
            return Vec::new();
        }
        let replicas = self.replicas(id);
        // MismatchedReplicasHandler (always returns false: the chain continues).
        // An OPEN or CLOSING replica of a RATIS container: target QUASI_CLOSED (force=false);
        // a QUASI_CLOSED one whose sequence id matches the container's: CLOSED (force=true).
        let mut commands: Vec<Command> = replicas
            .iter()
            .filter_map(|(dn, r)| match r.state {
                State::Open | State::Closing => Some(Command::Close { dn, force: false }),
                State::QuasiClosed if r.seq == info.seq => Some(Command::Close { dn, force: true }),
                _ => None,
            })
            .collect();
        // EmptyContainerHandler.
        if !replicas.is_empty()
            && replicas
                .values()
                .all(|r| r.state == State::Closed && r.empty)
        {
            commands.extend(replicas.keys().map(|dn| Command::Delete {
                dn,
                force: false,
                why: Why::Empty,
            }));
            if replicas.values().any(|r| r.seq == info.seq) {
                commands.push(Command::DeleteContainer);
            }
            return commands;
        }
        // RatisReplicationCheckHandler and the unhealthy-replica handlers: queue.
        let healthy = replicas
            .values()
            .filter(|r| !self.unhealthy(fix, id, r))
            .count();
        if healthy != REPLICATION_FACTOR || healthy < replicas.len() {
            self.queue.insert(id);
        }
        commands
    }

    /// The under- and over-replication processors: for each queued container, the handler
    /// recounts the replicas known now and sends its commands.
    pub fn process(&mut self, fix: ScmFix) -> Vec<(ContainerId, Vec<Command>)> {
        let queued = std::mem::take(&mut self.queue);
        queued
            .iter()
            .map(|id| {
                let replicas = self.replicas(id);
                let (unhealthy, healthy): (Vec<_>, Vec<_>) = replicas
                    .iter()
                    .partition(|(_, r)| self.unhealthy(fix, id, r));
                let mut commands = Vec::new();
                if healthy.len() < REPLICATION_FACTOR {
                    commands.extend(self.under_replication(fix, id, replicas));
                } else if healthy.len() > REPLICATION_FACTOR {
                    commands.extend(self.over_replication(id, &healthy));
                }
                if healthy.len() >= REPLICATION_FACTOR {
                    commands.extend(unhealthy.iter().map(|&(dn, _)| Command::Delete {
                        dn,
                        force: true,
                        why: Why::Unhealthy,
                    }));
                }
                (id, commands)
            })
            .collect()
    }

    /// `RatisOverReplicationHandler.processAndSendCommands`.
    fn over_replication(
        &self,
        id: ContainerId,
        healthy: &[(DnId, &ContainerReplica)],
    ) -> Vec<Command> {
        let info = self.info(id);
        let mut excess = healthy.len() - REPLICATION_FACTOR;
        let mut sorted: Vec<(DnId, ContainerReplica)> =
            healthy.iter().map(|&(d, &r)| (d, r)).collect();
        sorted.sort_by_key(|(dn, _)| hash_code(id, *dn));
        let mut commands = Vec::new();
        // State-mismatched replicas first.
        sorted.retain(|(dn, r)| {
            if excess > 0 && r.state != State::Closed && info.state == LifeCycle::Closed {
                commands.push(Command::Delete {
                    dn: *dn,
                    force: true,
                    why: Why::StateMismatch,
                });
                excess -= 1;
                false
            } else {
                true
            }
        });
        for (dn, _) in sorted.into_iter().take(excess) {
            commands.push(Command::Delete {
                dn,
                force: true,
                why: Why::Excess,
            });
        }
        commands
    }

    /// `RatisUnderReplicationHandler`: `getSources` and one copy.
    fn under_replication(
        &self,
        fix: ScmFix,
        id: ContainerId,
        replicas: &Replicas,
    ) -> Option<Command> {
        let sources: Vec<(DnId, u64)> = replicas
            .iter()
            .filter(|(_, r)| r.state == State::Closed && !self.unhealthy(fix, id, r))
            .map(|(dn, r)| (dn, r.seq))
            .collect();
        let max = sources.iter().map(|s| s.1).max()?;
        let src = sources.iter().find(|s| s.1 == max)?.0;
        let tgt = (1..=super::DATANODES).find(|&d| !replicas.contains_key(d))?;
        Some(Command::Replicate { src, tgt })
    }
}

// Two attributes, not `cfg(all(test, not(loom)))`: cargo-mutants takes a module for a test
// module only from a plain `cfg(test)`, and its struct-field deletions (in the reference
// model's `Decision`s below) are not filtered by `.cargo/mutants.toml`'s exclude_re.
#[cfg(test)]
#[cfg(not(loom))]
mod tests {
    use super::*;

    /// What `processContainerReplica` logs: the report's ERROR ("Container CLOSED with
    /// sequence ID lower than a replica") for a CLOSED container whose sequence id is below the
    /// replica's BCSID, and the sequence id raised to a higher BCSID (kept by P4 for a CLOSED
    /// container); nothing for an equal BCSID.
    #[test]
    fn process_replica_logs_the_closed_below_error_and_the_sequence_id() {
        for keep_closed_seq in [false, true] {
            let fix = ScmFix {
                keep_closed_seq,
                seq_mismatch_unhealthy: false,
            };
            let mut scm = Scm::default();
            scm.allocate(1);
            scm.close(1, 2);
            scm.allocate(2);
            let mut log = |id, bcsid| {
                let r = ReplicaProto {
                    id,
                    state: State::Closed,
                    bcsid,
                    empty: false,
                };
                scm.process_replica(fix, 4, r)
            };
            let raised = |closed_below, seq| ReplicaLog { closed_below, seq };
            let why = format!("P4: {keep_closed_seq}");
            assert_eq!(log(1, 2), ReplicaLog::default(), "{why}");
            assert_eq!(log(2, 3), raised(None, SeqUpdate::Raised(3)), "OPEN, {why}");
            let closed = if keep_closed_seq {
                SeqUpdate::Kept
            } else {
                SeqUpdate::Raised(3)
            };
            assert_eq!(log(1, 3), raised(Some((2, 3)), closed), "{why}");
        }
    }

    /// SCM at the close's BCSID 2 with `replicas` (datanode, BCSID) reported CLOSED, in order.
    fn reported(fix: ScmFix, replicas: &[(DnId, u64)]) -> Scm {
        let mut scm = Scm::default();
        scm.allocate(1);
        scm.close(1, 2);
        for &(dn, bcsid) in replicas {
            let r = ReplicaProto {
                id: 1,
                state: State::Closed,
                bcsid,
                empty: false,
            };
            scm.process_replica(fix, dn, r);
        }
        scm
    }

    /// The replicas `RatisContainerReplicaCount` counts as unhealthy, and the commands of one
    /// replication-manager pass (the handler chain, then the processors).
    fn decide(fix: ScmFix, replicas: &[(DnId, u64)]) -> (Vec<DnId>, Vec<Command>) {
        let mut scm = reported(fix, replicas);
        let flagged = scm
            .replicas(1)
            .iter()
            .filter(|(_, r)| scm.unhealthy(fix, 1, r))
            .map(|(dn, _)| dn)
            .collect();
        let mut commands = scm.check(fix, 1);
        commands.extend(scm.process(fix).into_iter().flat_map(|(_, c)| c));
        (flagged, commands)
    }

    const FIXES: [(&str, ScmFix); 4] = [
        (
            "upstream",
            ScmFix {
                keep_closed_seq: false,
                seq_mismatch_unhealthy: false,
            },
        ),
        (
            "P4",
            ScmFix {
                keep_closed_seq: true,
                seq_mismatch_unhealthy: false,
            },
        ),
        (
            "P5",
            ScmFix {
                keep_closed_seq: false,
                seq_mismatch_unhealthy: true,
            },
        ),
        (
            "P4+P5",
            ScmFix {
                keep_closed_seq: true,
                seq_mismatch_unhealthy: true,
            },
        ),
    ];

    /// SCM's decisions with four CLOSED replicas, dn1's recreated (BCSID 9 after its late
    /// PutBlock) and three real ones at the close's BCSID 2 (dn2, dn3, dn4): which replicas P5
    /// flags and which one the replication manager deletes. P4+P5 flags the recreated replica
    /// alone and deletes it (as unhealthy, the others being three); P5 without P4 flags the
    /// three real ones, the sequence id having been raised to 9, and copies from the recreated
    /// one; upstream and P4 flag nothing and delete one excess replica in hashCode order,
    /// whatever its BCSID. A P5 that flags the wrong replicas fails here.
    #[test]
    fn p5_flags_the_replicas_whose_bcsid_differs_and_over_replication_deletes_them() {
        let replicas = [(1, 9), (2, 2), (3, 2), (4, 2)];
        for (name, fix) in FIXES {
            let (flagged, commands) = decide(fix, &replicas);
            let (want_flagged, want): (Vec<DnId>, Vec<Command>) = match name {
                "P4+P5" => (
                    vec![1],
                    vec![Command::Delete {
                        dn: 1,
                        force: true,
                        why: Why::Unhealthy,
                    }],
                ),
                "P5" => (vec![2, 3, 4], vec![Command::Replicate { src: 1, tgt: 5 }]),
                _ => {
                    let first = [1, 2, 3, 4]
                        .into_iter()
                        .min_by_key(|&dn| hash_code(1, dn))
                        .expect("four replicas");
                    (
                        vec![],
                        vec![Command::Delete {
                            dn: first,
                            force: true,
                            why: Why::Excess,
                        }],
                    )
                }
            };
            assert_eq!(flagged, want_flagged, "{name}: the replicas flagged");
            assert_eq!(commands, want, "{name}: the commands");
        }
    }

    /// `MismatchedReplicasHandler` on a CLOSED container (sequence id 2): an OPEN or CLOSING
    /// replica is sent a close (force=false: it quasi-closes without the pipeline); a
    /// QUASI_CLOSED one is force-closed only when its sequence id is the container's (one below
    /// it is not: closing it would make a replica that lacks blocks CLOSED); a CLOSED one is
    /// left alone.
    #[test]
    fn only_a_quasi_closed_replica_at_the_containers_sequence_id_is_force_closed() {
        let fix = FIXES[0].1;
        for (state, bcsid, want) in [
            (State::QuasiClosed, 2, Some(true)),
            (State::QuasiClosed, 1, None),
            (State::Open, 1, Some(false)),
            (State::Closing, 1, Some(false)),
            (State::Closed, 2, None),
        ] {
            let mut scm = Scm::default();
            scm.allocate(1);
            scm.close(1, 2);
            let r = ReplicaProto {
                id: 1,
                state,
                bcsid,
                empty: false,
            };
            scm.process_replica(fix, 1, r);
            let closes: Vec<Command> = scm
                .check(fix, 1)
                .into_iter()
                .filter(|c| matches!(c, Command::Close { .. }))
                .collect();
            let want: Vec<Command> = want
                .map(|force| Command::Close { dn: 1, force })
                .into_iter()
                .collect();
            assert_eq!(
                closes, want,
                "{state:?} at BCSID {bcsid}: the close commands"
            );
        }
    }

    /// `RatisReplicationCheckHandler` queues a container for the processors only when it is
    /// under- or over-replicated or has an unhealthy replica. With its three healthy replicas
    /// it is not queued, so the processors send nothing for it even when a fourth replica is
    /// reported between the pass and them; the next pass queues it, and they delete one.
    #[test]
    fn a_container_with_three_healthy_replicas_is_not_queued() {
        let fix = FIXES[0].1;
        let mut scm = reported(fix, &[(1, 2), (2, 2), (3, 2)]);
        assert_eq!(scm.check(fix, 1), vec![], "the pass's commands");
        let fourth = ReplicaProto {
            id: 1,
            state: State::Closed,
            bcsid: 2,
            empty: false,
        };
        scm.process_replica(fix, 4, fourth);
        assert_eq!(scm.process(fix), vec![], "the processors, nothing queued");
        assert_eq!(scm.check(fix, 1), vec![], "the next pass's commands");
        let work = scm.process(fix);
        let deletes = work.iter().flat_map(|(_, c)| c).filter(|c| {
            matches!(
                c,
                Command::Delete {
                    why: Why::Excess,
                    ..
                }
            )
        });
        assert_eq!(deletes.count(), 1, "the processors after it: {work:?}");
    }

    /// SCM at the close's BCSID 2 with `replicas` (datanode, state, BCSID), and the commands
    /// of the processors after one pass.
    fn processed(replicas: &[(DnId, State, u64)]) -> Vec<Command> {
        let fix = FIXES[0].1;
        let mut scm = Scm::default();
        scm.allocate(1);
        scm.close(1, 2);
        for &(dn, state, bcsid) in replicas {
            let r = ReplicaProto {
                id: 1,
                state,
                bcsid,
                empty: false,
            };
            scm.process_replica(fix, dn, r);
        }
        scm.check(fix, 1);
        scm.process(fix).into_iter().flat_map(|(_, c)| c).collect()
    }

    /// `RatisOverReplicationHandler`: the excess is the healthy replicas beyond three; the
    /// state-mismatched ones (healthy, not CLOSED, of a CLOSED container) go first, in hashCode
    /// order and only as many as the excess, then CLOSED ones in hashCode order.
    #[test]
    fn over_replication_deletes_the_excess_mismatched_replicas_first() {
        let mut order = [1, 2, 3, 4];
        order.sort_by_key(|&dn| hash_code(1, dn));
        // The two last in hashCode order OPEN (healthy, mismatched): the first of them goes.
        let replicas: Vec<(DnId, State, u64)> = order
            .iter()
            .enumerate()
            .map(|(i, &dn)| (dn, if i < 2 { State::Closed } else { State::Open }, 2))
            .collect();
        let delete = |dn, why| Command::Delete {
            dn,
            force: true,
            why,
        };
        assert_eq!(
            processed(&replicas),
            vec![delete(order[2], Why::StateMismatch)],
            "two OPEN replicas among four, one in excess"
        );
        // Five CLOSED replicas: two in excess, the first two in hashCode order.
        let mut order = [1, 2, 3, 4, 5];
        order.sort_by_key(|&dn| hash_code(1, dn));
        let replicas: Vec<_> = order.iter().map(|&dn| (dn, State::Closed, 2)).collect();
        assert_eq!(
            processed(&replicas),
            vec![delete(order[0], Why::Excess), delete(order[1], Why::Excess)],
            "five CLOSED replicas"
        );
    }

    /// `RatisUnderReplicationHandler.getSources`: only CLOSED healthy replicas are sources (an
    /// OPEN one is not, whatever its BCSID), and the copy goes to the lowest datanode that has
    /// no replica.
    #[test]
    fn under_replication_copies_from_a_closed_replica_to_the_lowest_free_datanode() {
        let commands = processed(&[(1, State::Closed, 2), (3, State::Open, 5)]);
        assert_eq!(commands, vec![Command::Replicate { src: 1, tgt: 2 }]);
    }

    /// `getSources` with one real replica (dn2, BCSID 2) and the recreated one (dn1, BCSID 9):
    /// upstream and P4 copy from the highest sequence id, the recreated replica; P4+P5 from
    /// the real one, the recreated one being flagged; P5 without P4 from the recreated one,
    /// the real one being the mismatched replica once the sequence id was raised.
    #[test]
    fn under_replication_copies_from_the_replica_each_part_keeps() {
        let replicas = [(1, 9), (2, 2)];
        for (name, fix) in FIXES {
            let (_, commands) = decide(fix, &replicas);
            let src = commands.iter().find_map(|c| match c {
                Command::Replicate { src, .. } => Some(*src),
                _ => None,
            });
            let want = if name == "P4+P5" { 2 } else { 1 };
            assert_eq!(src, Some(want), "{name}: the copy source, in {commands:?}");
        }
    }

    /// What counts as O3 at one decision ([`o3_witness`]): a delete by the replication
    /// manager's own choice (state-mismatched, excess, unhealthy; not a balancer move, a forced
    /// or an empty delete) of a replica holding every pre-close block while SCM knows one
    /// lacking some; a copy from a replica lacking some while SCM knows one holding all.
    /// Neither counts when the other replica is on a datanode SCM does not know of yet (a
    /// recreate not reported), nor when the deleted replica lacks blocks or the source holds
    /// them.
    #[test]
    fn o3_counts_the_replication_managers_choices_among_the_replicas_scm_knows() {
        let set = |dns: &[DnId]| {
            let mut s = IdSet::new();
            for &dn in dns {
                s.insert(dn);
            }
            s
        };
        // dn1 lacks blocks (recreated), dn2 to dn4 hold them.
        let at = |command, known: &[DnId]| ScmDecision {
            container: 1,
            command,
            known: set(known),
            holding: set(&[2, 3, 4]),
            lacking: set(&[1]),
        };
        let delete = |dn, why| Command::Delete {
            dn,
            force: true,
            why,
        };
        let all = [1, 2, 3, 4];
        for why in [
            Why::StateMismatch,
            Why::Excess,
            Why::Unhealthy,
            Why::BalancerMove,
            Why::Forced,
            Why::Empty,
        ] {
            let counts = matches!(why, Why::StateMismatch | Why::Excess | Why::Unhealthy);
            let o3 = o3_witness(&at(delete(2, why), &all));
            assert_eq!(o3.is_some(), counts, "{why:?}: {o3:?}");
            assert_eq!(
                o3_witness(&at(delete(1, why), &all)),
                None,
                "{why:?}: dn1 lacks blocks"
            );
            assert_eq!(
                o3_witness(&at(delete(2, why), &[2, 3, 4])),
                None,
                "{why:?}: SCM does not know dn1's replica"
            );
        }
        assert_eq!(
            o3_witness(&at(delete(3, Why::Excess), &all)).as_deref(),
            Some("c1: SCM deletes the real replica on dn3 (Excess) and keeps dn1's, which lacks blocks")
        );
        let copy = |src| Command::Replicate { src, tgt: 5 };
        assert_eq!(
            o3_witness(&at(copy(1), &all)).as_deref(),
            Some("c1: SCM copies from dn1, which lacks blocks, not from the real replica on dn2")
        );
        assert_eq!(o3_witness(&at(copy(2), &all)), None, "dn2 holds the blocks");
        assert_eq!(
            o3_witness(&at(copy(1), &[1])),
            None,
            "SCM knows no real replica"
        );
        let close = Command::Close {
            dn: 1,
            force: false,
        };
        assert_eq!(o3_witness(&at(close, &all)), None, "a close");
    }

    /// SCM's decision rules as the contract documents them (the module comment and
    /// DESIGN-NOTES §1), written again plainly and apart from [`Scm`], for
    /// [`every_placement_of_the_recreated_replica_decides_as_the_reference`]: what the
    /// replication manager's pass over one CLOSED container decides once every datanode has
    /// reported its replica.
    mod reference {
        use super::super::{hash_code, Why, REPLICATION_FACTOR};
        use super::State;
        use crate::contracts::container_recreate::{ContainerId, DnId, DATANODES};
        use std::collections::{BTreeMap, BTreeSet};

        /// One datanode's report of its replica.
        #[derive(Clone, Copy, Debug)]
        pub struct Reported {
            pub dn: DnId,
            pub state: State,
            pub bcsid: u64,
            pub empty: bool,
        }

        /// What one pass decides.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct Decision {
            /// The container's sequence id after the reports.
            pub seq: u64,
            /// The replicas `RatisContainerReplicaCount` counts unhealthy (P5's flags among them).
            pub flagged: BTreeSet<DnId>,
            /// `MismatchedReplicasHandler`'s closes: (datanode, force).
            pub closed: BTreeSet<(DnId, bool)>,
            /// The deletes, each with the handler's reason.
            pub deleted: BTreeMap<DnId, Why>,
            /// Under-replication's copy: (source, target).
            pub copied: Option<(DnId, DnId)>,
            /// `EmptyContainerHandler` moved the container to DELETING.
            pub deleting: bool,
        }

        /// Container `id`, closed at sequence id `close_seq`, after `reports`.
        pub fn decide(
            keep_closed_seq: bool,
            seq_mismatch_unhealthy: bool,
            id: ContainerId,
            close_seq: u64,
            reports: &[Reported],
        ) -> Decision {
            // updateContainerStats: a replica that is not UNHEALTHY (nor DELETED) and whose
            // BCSID is above the sequence id raises it; P4 never raises a CLOSED container's.
            let mut seq = close_seq;
            for r in reports {
                let counts = r.state != State::Unhealthy && r.state != State::Deleted;
                if counts && r.bcsid > seq && !keep_closed_seq {
                    seq = r.bcsid;
                }
            }
            // countReplicas: UNHEALTHY; QUASI_CLOSED off the sequence id; with P5, CLOSED off it.
            let unhealthy = |r: &Reported| match r.state {
                State::Unhealthy => true,
                State::QuasiClosed => r.bcsid != seq,
                State::Closed => seq_mismatch_unhealthy && r.bcsid != seq,
                _ => false,
            };
            let mut d = Decision {
                seq,
                flagged: reports
                    .iter()
                    .filter(|r| unhealthy(r))
                    .map(|r| r.dn)
                    .collect(),
                ..Decision::default()
            };
            // MismatchedReplicasHandler: OPEN and CLOSING are closed (to QUASI_CLOSED), a
            // QUASI_CLOSED one at the sequence id is force-closed.
            for r in reports {
                match r.state {
                    State::Open | State::Closing => {
                        d.closed.insert((r.dn, false));
                    }
                    State::QuasiClosed if r.bcsid == seq => {
                        d.closed.insert((r.dn, true));
                    }
                    _ => {}
                }
            }
            // EmptyContainerHandler: every replica CLOSED and empty; it ends the chain.
            if !reports.is_empty() && reports.iter().all(|r| r.state == State::Closed && r.empty) {
                for r in reports {
                    d.deleted.insert(r.dn, Why::Empty);
                }
                d.deleting = reports.iter().any(|r| r.bcsid == seq);
                return d;
            }
            let healthy: Vec<Reported> =
                reports.iter().filter(|r| !unhealthy(r)).copied().collect();
            if healthy.len() < REPLICATION_FACTOR {
                // getSources: CLOSED and healthy, then only the highest sequence id; the copy
                // comes from the first of those by datanode and goes to the lowest datanode
                // holding no replica.
                let sources: Vec<&Reported> = healthy
                    .iter()
                    .filter(|r| r.state == State::Closed)
                    .collect();
                if let Some(max) = sources.iter().map(|r| r.bcsid).max() {
                    let src = sources
                        .iter()
                        .filter(|r| r.bcsid == max)
                        .map(|r| r.dn)
                        .min()
                        .expect("a source at the maximum");
                    let tgt = (1..=DATANODES).find(|dn| reports.iter().all(|r| r.dn != *dn));
                    d.copied = tgt.map(|tgt| (src, tgt));
                }
            } else {
                // RatisOverReplicationHandler: in hashCode order, the replicas whose state is not
                // the container's (CLOSED) go first, then the others, until the excess is gone;
                // the unhealthy ones go once the healthy ones reach the factor.
                let mut order = healthy.clone();
                order.sort_by_key(|r| (r.state == State::Closed, hash_code(id, r.dn)));
                for r in order.iter().take(healthy.len() - REPLICATION_FACTOR) {
                    let why = if r.state == State::Closed {
                        Why::Excess
                    } else {
                        Why::StateMismatch
                    };
                    d.deleted.insert(r.dn, why);
                }
                for r in reports.iter().filter(|r| unhealthy(r)) {
                    d.deleted.insert(r.dn, Why::Unhealthy);
                }
            }
            d
        }
    }

    /// What the model decides for container `id` closed at BCSID 2 after `reports`, in the
    /// reference's terms: one report per datanode, then one replication-manager pass (the
    /// handler chain, then the processors), as [`decide`] does.
    fn model_decision(
        fix: ScmFix,
        id: ContainerId,
        reports: &[reference::Reported],
    ) -> reference::Decision {
        let mut scm = Scm::default();
        scm.allocate(id);
        scm.close(id, 2);
        for r in reports {
            let proto = ReplicaProto {
                id,
                state: r.state,
                bcsid: r.bcsid,
                empty: r.empty,
            };
            scm.process_replica(fix, r.dn, proto);
        }
        let mut d = reference::Decision {
            seq: scm.info(id).seq,
            flagged: scm
                .replicas(id)
                .iter()
                .filter(|(_, r)| scm.unhealthy(fix, id, r))
                .map(|(dn, _)| dn)
                .collect(),
            ..reference::Decision::default()
        };
        let mut commands = scm.check(fix, id);
        commands.extend(scm.process(fix).into_iter().flat_map(|(_, c)| c));
        for c in commands {
            match c {
                Command::Close { dn, force } => {
                    assert!(d.closed.insert((dn, force)), "dn{dn} closed twice")
                }
                Command::Delete { dn, why, force } => {
                    assert_eq!(force, why != Why::Empty, "dn{dn}: force for {why:?}");
                    assert!(d.deleted.insert(dn, why).is_none(), "dn{dn} deleted twice");
                }
                Command::Replicate { src, tgt } => {
                    assert!(d.copied.replace((src, tgt)).is_none(), "two copies");
                }
                Command::DeleteContainer => d.deleting = true,
            }
        }
        d
    }

    /// SCM's three decisions (which replicas are flagged unhealthy, which are deleted, which one
    /// is copied from), and the closes and the sequence id they rest on, pinned for every
    /// variant over every placement of the recreated replica, against [`reference`]: container
    /// 1, 2 or 3 (the hashCode order differs) closed at BCSID 2; real replicas, CLOSED at BCSID
    /// 2 and holding blocks, on any subset of the other datanodes (none to four: under-, exactly
    /// and over-replicated, and the empty handler's case); the recreated replica on any of the
    /// five datanodes, OPEN, CLOSING, QUASI_CLOSED, CLOSED or UNHEALTHY, at BCSID 0 to 4
    /// (below, at and above the close's), empty or not, reported before or after the real ones.
    /// 24,000 placements for each pair of SCM parts the variants hold (upstream, P4, P5,
    /// P4+P5; each variant is one of these). The fixtures above pin a few of these; a rule that
    /// picks the same replica as the real one on them and another one elsewhere fails here.
    #[test]
    fn every_placement_of_the_recreated_replica_decides_as_the_reference() {
        use crate::contracts::container_recreate::{ContainerRecreate, DATANODES};
        use crate::model::Model;
        use reference::Reported;
        let states = [
            State::Open,
            State::Closing,
            State::QuasiClosed,
            State::Closed,
            State::Unhealthy,
        ];
        // Each variant's SCM parts; the placements are checked once per distinct pair.
        let mut fixes: Vec<(bool, bool, Vec<&str>)> = Vec::new();
        for v in ContainerRecreate::VARIANTS {
            let f = ContainerRecreate::fix_of_variant(v).scm();
            let key = (f.keep_closed_seq, f.seq_mismatch_unhealthy);
            match fixes.iter_mut().find(|x| (x.0, x.1) == key) {
                Some(x) => x.2.push(v.name),
                None => fixes.push((key.0, key.1, vec![v.name])),
            }
        }
        assert_eq!(
            fixes.len(),
            4,
            "upstream, P4, P5 and P4+P5 among the variants"
        );
        // (P4, P5, the recreated replica flagged, deleted and why, copied from (or another one)).
        type Seen = (bool, bool, bool, Option<Why>, Option<bool>);
        let mut seen: Vec<Seen> = Vec::new();
        let mut placements = 0;
        for &(keep_closed_seq, seq_mismatch_unhealthy, ref variants) in &fixes {
            let fix = ScmFix {
                keep_closed_seq,
                seq_mismatch_unhealthy,
            };
            for id in 1..=3 {
                for recreated_on in 1..=DATANODES {
                    let others: Vec<DnId> =
                        (1..=DATANODES).filter(|&d| d != recreated_on).collect();
                    for mask in 0..1u32 << others.len() {
                        let real: Vec<Reported> = others
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| mask & 1 << i != 0)
                            .map(|(_, &dn)| Reported {
                                dn,
                                state: State::Closed,
                                bcsid: 2,
                                empty: false,
                            })
                            .collect();
                        for state in states {
                            for bcsid in 0..=4 {
                                for empty in [false, true] {
                                    let recreated = Reported {
                                        dn: recreated_on,
                                        state,
                                        bcsid,
                                        empty,
                                    };
                                    for first in [false, true] {
                                        let mut reports = real.clone();
                                        if first {
                                            reports.insert(0, recreated);
                                        } else {
                                            reports.push(recreated);
                                        }
                                        let want = reference::decide(
                                            keep_closed_seq,
                                            seq_mismatch_unhealthy,
                                            id,
                                            2,
                                            &reports,
                                        );
                                        let got = model_decision(fix, id, &reports);
                                        assert_eq!(
                                            got, want,
                                            "{variants:?}: c{id}, reports {reports:?} (the model, then the reference)"
                                        );
                                        placements += 1;
                                        let about = (
                                            keep_closed_seq,
                                            seq_mismatch_unhealthy,
                                            want.flagged.contains(&recreated_on),
                                            want.deleted.get(&recreated_on).copied(),
                                            want.copied.map(|c| c.0 == recreated_on),
                                        );
                                        if !seen.contains(&about) {
                                            seen.push(about);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(placements, 4 * 24_000);
        // The enumeration reaches each decision about the recreated replica under each pair of
        // parts: flagged or not, deleted for each reason or kept, copied from or another one
        // copied from, so that the comparison is not of empty decisions.
        for (p4, p5) in [(false, false), (true, false), (false, true), (true, true)] {
            let of =
                |f: &dyn Fn(&Seen) -> bool| seen.iter().any(|s| s.0 == p4 && s.1 == p5 && f(s));
            let why = format!("P4 {p4}, P5 {p5}");
            assert!(
                of(&|s| s.3 == Some(Why::Excess)),
                "{why}: deleted as excess"
            );
            assert!(
                of(&|s| s.3 == Some(Why::StateMismatch)),
                "{why}: deleted as state-mismatched"
            );
            assert!(
                of(&|s| s.3 == Some(Why::Unhealthy)),
                "{why}: deleted as unhealthy"
            );
            assert!(of(&|s| s.3 == Some(Why::Empty)), "{why}: deleted as empty");
            assert!(of(&|s| s.4 == Some(true)), "{why}: copied from");
            assert!(of(&|s| s.4 == Some(false)), "{why}: another copied from");
            if p5 {
                assert!(of(&|s| s.2 && s.3.is_none()), "{why}: flagged and kept");
            }
        }
    }

    /// `World::replicate` from a source on dn1 to dn4, with the trace: what dn4 then holds (the
    /// copy's state and BCSID), what SCM records for dn4, SCM's replicas of c1 before and after,
    /// and the trace's events.
    fn replicate_from(w: &World, trace: &crate::trace::Trace) -> ReplicateSeen {
        use crate::contracts::container_recreate::{C, LEADER};
        let before = *w.scm_state().replicas(C);
        let lines = trace.events().len();
        w.replicate(trace, C, LEADER, 4);
        let events = trace.events()[lines..]
            .iter()
            .map(|e| format!("{} {}", e.method, e.detail))
            .collect();
        let after = *w.scm_state().replicas(C);
        ReplicateSeen {
            copy: w.dn(4).set.get(C).map(|c| c.data(|d| (d.state, d.bcsid))),
            recorded: after.get(4).copied(),
            scm_unchanged: before == after,
            events,
        }
    }

    struct ReplicateSeen {
        copy: Option<(State, u64)>,
        recorded: Option<ContainerReplica>,
        scm_unchanged: bool,
        events: Vec<String>,
    }

    /// c1 closed on the pipeline at BCSID 2 and reported; SCM believes dn1's replica CLOSED.
    fn closed_and_reported(trace: &crate::trace::Trace) -> World {
        use crate::contracts::container_recreate::{
            created_with_block, run, CloseThroughPipeline, C, OLD_BLOCK, PIPELINE,
        };
        let w = World::new(super::super::Fix::UPSTREAM);
        created_with_block(trace, &w, C, OLD_BLOCK);
        run(&w, CloseThroughPipeline::new(trace, &PIPELINE, C));
        w.reports(trace, &PIPELINE);
        assert_eq!(
            w.scm_state().replicas(C).get(1).map(|r| r.state),
            Some(State::Closed),
            "setup: SCM records dn1's replica CLOSED"
        );
        w
    }

    /// `KeyValueContainer.exportContainerData` (CR_P7): SCM believes dn1's replica CLOSED, the
    /// datanode force-deleted it and the client's late write recreated it OPEN; a copy from dn1
    /// is refused: dn4 imports nothing, SCM's replicas of c1 are unchanged, and the trace names
    /// the export and the state. The same for a CLOSING and a DELETED replica (set directly).
    #[test]
    fn replicate_refuses_a_source_not_closed_quasi_closed_or_unhealthy() {
        use crate::contracts::container_recreate::{late_writer, run, C, LEADER};
        let trace = crate::trace::Trace::new();
        let w = closed_and_reported(&trace);
        run(
            &w,
            DeleteContainerCommandHandler::new(&trace, LEADER, C, true),
        );
        // The client's late write of block 2 to the leader.
        run(&w, late_writer(&trace));
        let recreated = w.dn(LEADER).set.get(C).map(|c| c.state());
        assert_eq!(
            recreated,
            Some(State::Open),
            "setup: the late write recreates c1 OPEN on dn1"
        );
        let mut cases = vec![("recreated", replicate_from(&w, &trace), State::Open)];
        for state in [State::Closing, State::Deleted] {
            let trace = crate::trace::Trace::new();
            let w = closed_and_reported(&trace);
            w.dn(LEADER)
                .set
                .get(C)
                .expect("dn1 holds c1")
                .data(|d| d.state = state);
            cases.push(("set", replicate_from(&w, &trace), state));
        }
        for (how, seen, state) in cases {
            assert_eq!(seen.copy, None, "{how} {state:?}: dn4 imports nothing");
            assert_eq!(
                seen.recorded, None,
                "{how} {state:?}: SCM records no dn4 replica"
            );
            assert!(
                seen.scm_unchanged,
                "{how} {state:?}: SCM's replicas of c1 are unchanged"
            );
            assert_eq!(
                seen.events,
                [format!(
                    "KeyValueContainer.exportContainerData dn1 c1: not exported, {state:?} (only CLOSED, QUASI_CLOSED or UNHEALTHY); dn4 imports nothing"
                )],
                "{how} {state:?}: the trace names the refused export and the state"
            );
        }
    }

    /// `KeyValueContainer.importContainerData` (CR_P8): a CLOSED, a QUASI_CLOSED and an
    /// UNHEALTHY source give a copy in that state, at the source's BCSID, and SCM records it in
    /// that state.
    #[test]
    fn replicate_copies_keep_the_source_state() {
        use crate::contracts::container_recreate::{C, LEADER};
        for state in [State::Closed, State::QuasiClosed, State::Unhealthy] {
            let trace = crate::trace::Trace::new();
            let w = closed_and_reported(&trace);
            let bcsid = w.dn(LEADER).set.get(C).expect("dn1 holds c1").data(|d| {
                d.state = state;
                d.bcsid
            });
            let seen = replicate_from(&w, &trace);
            assert_eq!(
                seen.copy,
                Some((state, bcsid)),
                "a {state:?} source: dn4's copy"
            );
            assert_eq!(
                seen.recorded,
                Some(ContainerReplica {
                    state,
                    seq: bcsid,
                    empty: false
                }),
                "a {state:?} source: SCM's record of dn4's copy"
            );
            assert!(
                seen.events.len() == 1
                    && seen.events[0]
                        .starts_with("KeyValueHandler.importContainer dn4 c1: imported from dn1"),
                "a {state:?} source: the trace records the import: {:?}",
                seen.events
            );
        }
    }
}

/// One of SCM's deletes or copies as it was carried out, with what SCM and the datanodes held
/// at that moment: the observation O3's predicate decides on ([`o3_witness`]).
/// Kept in the ghost ([`super::ghost::GhostState::decisions`]). Every delete and copy is recorded, whoever sent it and whatever it removes: which ones
/// count is the predicate's to say, not the path's that ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScmDecision {
    pub container: ContainerId,
    /// A `Delete` or a `Replicate`.
    pub command: Command,
    /// The datanodes SCM knew a replica of the container on.
    pub known: IdSet,
    /// The datanodes whose replica held every block OM references that was committed before
    /// the close ([`super::World::is_real`] `Some(true)`).
    pub holding: IdSet,
    /// The datanodes whose replica lacked some of them (`Some(false)`).
    pub lacking: IdSet,
}

/// O3 at one of SCM's decisions, as carried out: the replication manager (not a balancer move,
/// not a forced or an empty delete) deletes a replica holding every pre-close block while it
/// knows another that lacks some, or SCM copies from a replica lacking some while it knows one
/// that holds them all. The first such decision is the outcome's witness.
pub fn o3_witness(d: &ScmDecision) -> Option<String> {
    let id = d.container;
    match d.command {
        Command::Delete { dn, why, .. }
            if why.is_replication_choice() && d.holding.contains(dn) =>
        {
            let kept = d.known.iter().find(|&k| k != dn && d.lacking.contains(k))?;
            Some(format!(
                "c{id}: SCM deletes the real replica on dn{dn} ({why:?}) and keeps dn{kept}'s, which lacks blocks"
            ))
        }
        Command::Replicate { src, .. } if d.lacking.contains(src) => {
            let real = d.known.iter().find(|&k| d.holding.contains(k))?;
            Some(format!(
                "c{id}: SCM copies from dn{src}, which lacks blocks, not from the real replica on dn{real}"
            ))
        }
        _ => None,
    }
}

impl Fix {
    pub fn scm(&self) -> ScmFix {
        ScmFix {
            keep_closed_seq: self.keep_closed_seq.get(),
            seq_mismatch_unhealthy: self.seq_mismatch_unhealthy.get(),
        }
    }
}

impl World {
    /// Carries out SCM's commands on the datanodes, recording each in the trace, and each delete
    /// and copy with what the datanodes held then (what O3 is decided on).
    pub fn execute(&self, trace: &Trace, id: ContainerId, commands: &[Command]) {
        let cx = CxRef::new(trace, "ReplicationManager");
        for command in commands {
            if matches!(command, Command::Delete { .. } | Command::Replicate { .. }) {
                self.ghost.decided(self.decision(id, *command));
            }
            match *command {
                Command::Close { dn, force } => {
                    cx.record(
                        "ReplicationManager.sendCloseContainerReplicaCommand",
                        format_args!(
                            "c{id}: close the mismatched replica on dn{dn} (force={force})"
                        ),
                    );
                    self.close_container_command(trace, id, dn, force);
                }
                Command::Delete { dn, force, why } => {
                    cx.record(
                        "ReplicationManager.sendDeleteCommand",
                        format_args!("c{id} on dn{dn}, force={force} ({why:?})"),
                    );
                    run(
                        self,
                        DeleteContainerCommandHandler::new(trace, dn, id, force),
                    );
                    if let Some(r) = self.scm_state().replicas.get_mut(id) {
                        r.remove(dn);
                    }
                }
                Command::Replicate { src, tgt } => {
                    cx.record(
                        "ReplicationManager.sendThrottledReplicationCommand",
                        format_args!("c{id}: dn{src} → dn{tgt}"),
                    );
                    self.replicate(trace, id, src, tgt);
                }
                Command::DeleteContainer => {
                    cx.record(
                        "EmptyContainerHandler.handle",
                        format_args!("c{id}: DELETING"),
                    );
                    if let Some(c) = self.scm_state().containers.get_mut(id) {
                        c.state = LifeCycle::Deleting;
                    }
                }
            }
        }
    }

    /// The full container reports of `dns`, in that order, through SCM's handler (SCM's
    /// state is taken once for all of them: nothing else runs in between).
    pub fn reports(&self, trace: &Trace, dns: &[DnId]) {
        let cx = CxRef::new(trace, "ContainerReportHandler");
        let mut scm = self.scm_state();
        for &dn in dns {
            let report = self.report_of(dn);
            scm.process_report(self.fix.scm(), dn, &report, |line| {
                cx.record(
                    "AbstractContainerReportHandler.processContainerReplica",
                    line,
                )
            });
        }
    }

    /// `command` on container `id` as SCM is about to carry it out: the replicas SCM knows, and
    /// which datanodes' replicas hold every pre-close block and which lack some.
    fn decision(&self, id: ContainerId, command: Command) -> ScmDecision {
        let mut d = ScmDecision {
            container: id,
            command,
            known: IdSet::new(),
            holding: IdSet::new(),
            lacking: IdSet::new(),
        };
        for dn in self.scm_state().replicas(id).keys() {
            d.known.insert(dn);
        }
        for dn in 1..=super::DATANODES {
            match self.is_real(dn, id) {
                Some(true) => d.holding.insert(dn),
                Some(false) => d.lacking.insert(dn),
                None => false,
            };
        }
        d
    }

    /// Replication: `tgt` imports a copy of `src`'s replica; SCM records the new replica.
    ///
    /// As push replication runs it (`hdds.scm.replication.push`, 2.2.0's default and 78d5650c's
    /// only mode): the source's `PushReplicator.replicate` →
    /// `OnDemandContainerReplicationSource.copyData` → `KeyValueHandler.exportContainer` →
    /// `KeyValueContainer.exportContainerData`, which takes the source container's write lock
    /// and throws IllegalStateException ("Failed to export: Unexpected state in ...") unless the
    /// replica is CLOSED, QUASI_CLOSED or UNHEALTHY (premise CR_P7): a replica SCM believes
    /// CLOSED that the datanode has since deleted and recreated OPEN is not copied, the target
    /// imports nothing, and SCM's replica map is unchanged (the pending copy times out). Then
    /// the target: `SendContainerRequestHandler` refuses a container it holds, and
    /// `ContainerImporter.importContainer` → `KeyValueHandler.importContainer` (which clears
    /// P3's tombstone) → `KeyValueContainer.importContainerData` restores the descriptor's
    /// state: the copy, and the ICR SCM records it by, keep the source's state (a QUASI_CLOSED
    /// or UNHEALTHY source gives a QUASI_CLOSED or UNHEALTHY copy; CR_P8).
    ///
    /// SCM's commands run between whole operations, so no delete holds the source's lock here
    /// and taking it would never wait; the assertion says so rather than letting a run wait.
    pub fn replicate(&self, trace: &Trace, id: ContainerId, src: DnId, tgt: DnId) {
        let Some(from) = self.dn(src).set.get(id) else {
            return;
        };
        assert!(
            !from.lock.is_held(),
            "dn{src} c{id}: exportContainerData while the replica's write lock is held"
        );
        let data: ContainerData = from.data(|d| *d);
        if !matches!(
            data.state,
            State::Closed | State::QuasiClosed | State::Unhealthy
        ) {
            CxRef::new(trace, "ReplicateContainerCommandHandler").record(
                "KeyValueContainer.exportContainerData",
                format_args!(
                    "dn{src} c{id}: not exported, {:?} (only CLOSED, QUASI_CLOSED or UNHEALTHY); dn{tgt} imports nothing",
                    data.state
                ),
            );
            return;
        }
        let target = self.dn(tgt);
        if target.set.contains(id) {
            return;
        }
        if self.fix.tombstone.get().is_on() {
            target.set.clear_tombstone(id);
        }
        let summary = data.summary();
        let replica = ContainerReplica {
            state: data.state,
            seq: data.bcsid,
            empty: data.blocks.is_empty(),
        };
        let copy = KeyValueContainer::new(id, data, Origin::Imported);
        if target.set.add(copy, true).is_ok() {
            CxRef::new(trace, "ReplicateContainerCommandHandler").record(
                "KeyValueHandler.importContainer",
                format_args!("dn{tgt} c{id}: imported from dn{src} ({summary})"),
            );
            self.scm_state()
                .replicas
                .get_or_insert_with(id, dense::IdMap::new)
                .insert(tgt, replica);
        }
    }
}
