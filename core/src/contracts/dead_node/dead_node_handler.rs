//! `DeadNodeHandler.onMessage` on the DEAD_NODE executor's thread (and `ReconDeadNodeHandler`,
//! which runs it and then refreshes the node's operational state from SCM and reruns Recon's
//! container health and pipeline sync tasks: reads and reports, not modelled).
//!
//! Upstream: reads the node's status once; returns unless DEAD; `closeContainers` (fires
//! CLOSE_CONTAINER for OPEN containers: every container here is CLOSED, so it only reads);
//! `destroyPipelines` (pipelines hold no replicas: not modelled); then `removeContainerReplicas`:
//! for each ID in the node's container set, the node's replica is removed. No monitor, no new
//! status read. The tail (REPLICATION_MANAGER_NOTIFY, the command queue, the deleted block log,
//! and the topology removal that the snapshot already guards with a second status read) touches
//! no replica and is only recorded.
//!
//! P2 (the patch): `removeContainerReplicas` looks the `DatanodeInfo` up, takes its monitor (the
//! one the report handlers hold), reads the status again and removes only if still DEAD.
//!
//! P4 (improved, ours): under the same monitor, the handler also requires the heartbeat time to
//! be past the stale deadline (`lastHeartbeatTime < now − stale`), the condition under which the
//! next `checkNodesHealth` would *not* resurrect the node. A DEAD node whose heartbeat time is
//! within it has registered (P1) or heartbeated since the last health check, which saw it DEAD;
//! the next check (one tick away: the checker runs every tick) moves it to HEALTHY_READONLY. So
//! keeping its replicas never leaves a DEAD node with replicas: either the node is back, or it
//! stops again and goes through STALE and DEAD, which fires DEAD_NODE again and removes them.
//! This closes R1, the recheck between a registration and the next health check, without
//! changing `register`, the health state machine or its events. It does not close R2 (the
//! report applied after the node died again) or R3 (another object's monitor).

use super::containers::Replica;
use super::ghost::{Against, NodeGhost};
use super::ids::{ContainerId, ContainerSet, NodeId};
use super::node_state::{DatanodeInfo, NodeState, StatusRead, STALE_INTERVAL};
use super::{Recheck, Service, World};
use crate::model::Program;
use crate::outcome::OutcomeId;
use crate::trace::{Cx, Trace};
use std::collections::VecDeque;
use std::fmt;
// std's Arc, not the shim's: which `DatanodeInfo` object an entry points at is model state,
// its reference count is not, and loom's Arc would add a scheduling point to every clone.
use crate::sync::unseen::Arc;

/// The status read the removal acts on (the first read upstream, the recheck with P2).
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    pub read: StatusRead,
    /// The `DatanodeInfo` object whose monitor the handler holds (P2).
    pub monitor: Option<u32>,
}

#[derive(Debug)]
enum Step {
    Take,
    GetNodeStatus(NodeId),
    CloseContainers(NodeId, StatusRead),
    /// Upstream `removeContainerReplicas`: `getContainers`.
    RemoveReplicas(NodeId, Decision),
    /// P2: `getNode`, `synchronized`, the recheck (and `getContainers`).
    Recheck(NodeId),
    /// One container's replica at a time (each is its own `ContainerManager` calls), under
    /// the monitor with P2.
    Removing(Removal),
    Done,
}

/// The removal in progress.
#[derive(Debug)]
struct Removal {
    node: NodeId,
    decision: Decision,
    /// The object whose monitor is held (P2).
    held: Option<Arc<DatanodeInfo>>,
    /// Still to remove, in ascending order.
    containers: ContainerSet,
}

/// What P4's test of the heartbeat time reads (P4 is [`HeartbeatTest::UnderMonitor`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeartbeatTest {
    /// Upstream and the patch: no test.
    Off,
    /// P4: the heartbeat time the recheck reads under the monitor.
    UnderMonitor,
    /// A broken P4 (a mutant the suite must catch): the heartbeat time of the handler's first
    /// status read, before the monitor: a refresh between the two is not seen.
    FirstRead,
}

/// Why the recheck keeps the replicas (P2, P4).
#[derive(Clone, Copy, Debug)]
enum Keep {
    /// The recheck did not read DEAD.
    NotDead(NodeId, NodeState),
    /// P4: DEAD, but the heartbeat time is within the stale deadline at `now`.
    WithinStaleDeadline {
        node: NodeId,
        last_heartbeat: u64,
        now: u64,
    },
}

impl fmt::Display for Keep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Keep::NotDead(node, health) => write!(f, "dn{node} is {health}"),
            Keep::WithinStaleDeadline {
                node,
                last_heartbeat,
                now,
            } => write!(
                f,
                "dn{node} is DEAD but lastHeartbeatTime {last_heartbeat} is within the stale \
                 deadline at t={now}: the next health check resurrects it"
            ),
        }
    }
}

/// Where the handler's events come from.
#[derive(Debug)]
pub enum Source {
    /// The DEAD_NODE executor's queue.
    Queue,
    /// The same queue, when a loom scenario knows how many events will come: the thread ends
    /// after handling that many, without waiting for the producers to finish (as
    /// `ContainerReportHandler::handling`).
    Counted(usize),
    /// Events already taken from the queue before the scenario's threads start.
    Given(VecDeque<NodeId>),
}

/// The DEAD_NODE handler thread.
#[derive(Debug)]
pub struct DeadNodeHandler {
    cx: Cx,
    source: Source,
    next: Step,
    /// The heartbeat time of the handler's first status read of the node it handles, which
    /// only the mutant [`HeartbeatTest::FirstRead`] tests (P4 tests the recheck's).
    first_read_heartbeat: u64,
}

impl DeadNodeHandler {
    pub const ACTOR: &'static str = "DNH-thread";

    pub fn new(trace: &Trace, source: Source) -> Self {
        DeadNodeHandler {
            cx: trace.actor(Self::ACTOR),
            source,
            next: Step::Take,
            first_read_heartbeat: 0,
        }
    }

    /// `removeContainerReplicas` for one container: `getContainer`, `getContainerReplicas`, then
    /// `removeContainerReplica` of the one on this node, by (container, datanode) key. One
    /// section here: a report handler's update that falls between the find and the removal is
    /// removed as well, and one that adds the replica after the find is left, which is the
    /// outcome of the one-section removal with the update after it.
    fn remove(&self, w: &World, node: NodeId, decision: Decision, c: ContainerId) {
        let cx = &self.cx;
        let Some(replica) = w.containers.remove_replica(c, node) else {
            return;
        };
        let current = w.ghost.with(|g| g.node(node).to_owned());
        let verdict = classify(&decision, &replica, &current);
        cx.record(
            "DeadNodeHandler.removeContainerReplicas",
            format_args!(
                "container {c}: replica on dn{node} removed{}",
                fmt::from_fn(|f| match &verdict {
                    Some((o, why)) => write!(f, " — {o}: {why}"),
                    None => Ok(()),
                })
            ),
        );
        if let Some((outcome, why)) = verdict {
            let health = w.containers.health(c);
            w.ghost.witness(
                outcome,
                format!("container {c} {health}: replica on dn{node} removed, {why}"),
            );
        }
    }

    fn tail(&self, w: &World) {
        self.cx.record(
            "DeadNodeHandler.onMessage",
            if w.service == Service::Recon {
                "REPLICATION_MANAGER_NOTIFY, command queue cleared, topology if still DEAD; \
                 ReconDeadNodeHandler: op state from SCM, container health task"
            } else {
                "REPLICATION_MANAGER_NOTIFY, command queue cleared, topology if still DEAD"
            },
        );
    }
}

/// Whether removing `replica` was wrong, and which outcome that is.
///
/// Whether it was wrong is decided from the node's state alone, never from what the handler
/// read (so a broken recheck cannot make a wrong removal look right): `now` is the node's
/// ghost at the removal, and its last transition into DEAD is the one the removal is judged
/// against. The removal is wrong when
/// - that DEAD was written against evidence of life in SCM's own state ([`Against`]: O2, the
///   old heartbeat time of a datanode that registered; O6, a heartbeat time refreshed between
///   the check's deadline test and its write; O7, a `DatanodeInfo` replaced between the
///   check's status read and its write), or
/// - the replica was written by the report of a registration *after* that DEAD: the datanode
///   came back, and the node has not gone DEAD again since.
///
/// Which window let the wrong removal through is then told by the decision (the status read
/// the removal acts on, and the monitor held): R3 when the handler held another
/// `DatanodeInfo`'s monitor than the report handler did; R1 when its deciding read under the
/// monitor followed the report, saw DEAD and the heartbeat time had been refreshed since the
/// node went DEAD (no health check had run since); O3 in every other case (the report came
/// after the deciding read, or the registration had not refreshed the heartbeat time, or the
/// handler removed although its read did not see DEAD).
pub fn classify(d: &Decision, replica: &Replica, now: &NodeGhost) -> Option<(OutcomeId, String)> {
    let Some(e) = now.last_dead else {
        return Some(("O3", "although the node has never been DEAD".to_string()));
    };
    if let Some(against) = e.against {
        return Some((
            against.outcome(),
            format!(
                "although it was declared DEAD at t={} against evidence it was alive: {}",
                e.time,
                match against {
                    Against::Registration =>
                        "it had registered within the dead interval (the old heartbeat time)",
                    Against::RefreshDuringCheck =>
                        "its heartbeat time was refreshed between the check's deadline test and its write",
                    Against::ReplacedObject =>
                        "the check tested a replaced DatanodeInfo's heartbeat time and wrote DEAD to the new one",
                }
            ),
        ));
    }
    replica.registration.filter(|&r| r > e.seq)?;
    let read = if d.monitor.is_some() {
        "the recheck under the monitor"
    } else {
        "the handler's status read"
    };
    Some(match d.monitor {
        Some(m) if m != replica.incarnation => (
            "R3",
            format!(
                "reported under DatanodeInfo #{}'s monitor while the handler held #{m}'s (the \
                 object was replaced)",
                replica.incarnation
            ),
        ),
        _ if replica.applied > d.read.at => (
            "O3",
            format!(
                "registered after it went DEAD at t={}; the report was applied after {read}, \
                 which the removal acts on",
                e.time
            ),
        ),
        _ if d.read.health != NodeState::Dead => (
            "O3",
            format!(
                "registered after it went DEAD at t={}; {read} followed the report and saw {}, \
                 and the handler removed them all the same",
                e.time, d.read.health
            ),
        ),
        _ if d.read.refreshed_since_dead => (
            "R1",
            format!(
                "{read} followed the report and still saw DEAD (t={}): the registration \
                 refreshed the heartbeat time but no health check had run since",
                e.time
            ),
        ),
        _ => (
            "O3",
            format!(
                "{read} followed the report and still saw DEAD (t={}): the registration did \
                 not refresh the heartbeat time",
                e.time
            ),
        ),
    })
}

impl Program<World> for DeadNodeHandler {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        match self.next {
            Step::Done => true,
            Step::Take => matches!(self.source, Source::Counted(0)),
            _ => false,
        }
    }

    fn enabled(&self, w: &World) -> bool {
        match &self.next {
            Step::Take => match &self.source {
                Source::Queue | Source::Counted(_) => w.dead_node_events.ready(),
                Source::Given(_) => true,
            },
            Step::Recheck(node) => {
                !w.fix.recheck.get().holds_monitor() || !w.nodes.is_monitor_held(*node)
            }
            Step::Done => false,
            _ => true,
        }
    }

    fn step(&mut self, w: &World) {
        let step = std::mem::replace(&mut self.next, Step::Done);
        let cx = &self.cx;
        self.next = match step {
            Step::Take => {
                let next = match &mut self.source {
                    Source::Queue => w.dead_node_events.take(),
                    Source::Counted(n) => {
                        *n -= 1;
                        w.dead_node_events.take()
                    }
                    Source::Given(events) => events.pop_front(),
                };
                next.map_or(Step::Done, Step::GetNodeStatus)
            }
            Step::GetNodeStatus(node) => {
                let Some(read) = w.nodes.get_node_status(&w.ghost, node) else {
                    return self.next = Step::Take;
                };
                cx.record(
                    "DeadNodeHandler.onMessage",
                    format_args!("DEAD_NODE dn{node}: getNodeStatus → {}", read.health),
                );
                if read.health == NodeState::Dead {
                    Step::CloseContainers(node, read)
                } else {
                    cx.record(
                        "DeadNodeHandler.onMessage",
                        format_args!("skip: dn{node} is {}", read.health),
                    );
                    Step::Take
                }
            }
            Step::CloseContainers(node, read) => {
                cx.record(
                    "DeadNodeHandler.closeContainers",
                    "every container is CLOSED: nothing to close; destroyPipelines",
                );
                if w.fix.recheck.get() != Recheck::None {
                    self.first_read_heartbeat = read.last_heartbeat;
                    Step::Recheck(node)
                } else {
                    Step::RemoveReplicas(
                        node,
                        Decision {
                            read,
                            monitor: None,
                        },
                    )
                }
            }
            Step::RemoveReplicas(node, decision) => {
                let containers = w.nodes.get_containers(node);
                // The call is made whatever the set holds (an empty one removes nothing).
                cx.record(
                    "DeadNodeHandler.removeContainerReplicas",
                    format_args!("getContainers(dn{node}) → {containers:?}"),
                );
                Step::Removing(Removal {
                    node,
                    decision,
                    held: None,
                    containers,
                })
            }
            Step::Recheck(node) => {
                let Some(info) = w.nodes.get_node(node) else {
                    return self.next = Step::Take;
                };
                let locked = w.fix.recheck.get().holds_monitor();
                if locked {
                    info.monitor.acquire(Self::ACTOR);
                }
                let Some((read, containers)) =
                    w.nodes.get_node_status_and_containers(&w.ghost, node)
                else {
                    if locked {
                        info.monitor.release(Self::ACTOR);
                    }
                    return self.next = Step::Take;
                };
                let falls_through = w.fix.recheck.get() == Recheck::UnderMonitorNoReturn;
                let mut keep =
                    (read.health != NodeState::Dead).then_some(Keep::NotDead(node, read.health));
                let tested = match w.fix.recheck_heartbeat_time.get() {
                    HeartbeatTest::Off => None,
                    HeartbeatTest::UnderMonitor => Some(read.last_heartbeat),
                    HeartbeatTest::FirstRead => Some(self.first_read_heartbeat),
                };
                if let (None, Some(last_heartbeat)) = (keep, tested) {
                    let now = w.clock.now();
                    if last_heartbeat + STALE_INTERVAL >= now {
                        keep = Some(Keep::WithinStaleDeadline {
                            node,
                            last_heartbeat,
                            now,
                        });
                    }
                }
                let monitor = fmt::from_fn(|f| match locked {
                    true => write!(f, "synchronized (DatanodeInfo #{})", info.incarnation),
                    false => f.write_str("no monitor"),
                });
                let decision = fmt::from_fn(|f| match keep {
                    None => f.write_str(" → remove"),
                    Some(why) => write!(
                        f,
                        " → keep replicas ({why}){}",
                        if falls_through {
                            ", and falls through to the removal"
                        } else {
                            ""
                        }
                    ),
                });
                cx.record(
                    "DeadNodeHandler.removeContainerReplicas",
                    format_args!("{monitor}: recheck → {}{decision}", read.health),
                );
                if keep.is_some() && !falls_through {
                    if locked {
                        info.monitor.release(Self::ACTOR);
                    }
                    self.tail(w);
                    Step::Take
                } else {
                    let monitor = locked.then_some(info.incarnation);
                    Step::Removing(Removal {
                        node,
                        decision: Decision { read, monitor },
                        held: locked.then_some(info),
                        containers,
                    })
                }
            }
            Step::Removing(mut r) => {
                if let Some(c) = r.containers.pop_first() {
                    self.remove(w, r.node, r.decision, c);
                }
                if r.containers.is_empty() {
                    if let Some(info) = r.held {
                        info.monitor.release(Self::ACTOR);
                    }
                    self.tail(w);
                    Step::Take
                } else {
                    Step::Removing(r)
                }
            }
            Step::Done => Step::Done,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::super::ghost::Episode;
    use super::*;

    /// A removal of a replica that registration 5's report applied at order 6, judged against
    /// a DEAD at order 3 (the node came back after it), by a handler whose deciding read
    /// happened at `read_at` and saw `health`.
    fn judge(read_at: u64, health: NodeState, refreshed: bool, monitor: Option<u32>) -> OutcomeId {
        let dead = Episode {
            seq: 3,
            time: 1,
            against: None,
        };
        let decision = Decision {
            read: StatusRead {
                health,
                last_heartbeat: 0,
                incarnation: 1,
                at: read_at,
                episode: Some(dead),
                refreshed_since_dead: refreshed,
            },
            monitor,
        };
        let replica = Replica {
            applied: 6,
            incarnation: 1,
            registration: Some(5),
        };
        let now = NodeGhost {
            last_dead: Some(dead),
            ..NodeGhost::default()
        };
        classify(&decision, &replica, &now)
            .expect("a wrong removal")
            .0
    }

    /// Which window a wrong removal fell in, one case per rule of [`classify`]'s doc.
    #[test]
    fn each_window_is_told_apart() {
        use NodeState::{Dead, Healthy};
        // The report came after the read the removal acts on: O3, even if refreshed.
        assert_eq!(judge(4, Dead, true, Some(1)), "O3");
        // The read followed the report and did not see DEAD, yet the handler removed: O3.
        assert_eq!(judge(7, Healthy, true, Some(1)), "O3");
        // The read followed the report, saw DEAD, and the heartbeat time was refreshed: R1.
        assert_eq!(judge(7, Dead, true, Some(1)), "R1");
        // ... not refreshed (the registration refreshed nothing): O3.
        assert_eq!(judge(7, Dead, false, Some(1)), "O3");
        // Another DatanodeInfo's monitor than the report's: R3.
        assert_eq!(judge(7, Dead, true, Some(2)), "R3");
        // A replica from before the DEAD is a right removal.
        let dead = Episode {
            seq: 3,
            time: 1,
            against: None,
        };
        let old = Replica {
            applied: 1,
            incarnation: 1,
            registration: Some(2),
        };
        let now = NodeGhost {
            last_dead: Some(dead),
            ..NodeGhost::default()
        };
        let d = Decision {
            read: StatusRead {
                health: Dead,
                last_heartbeat: 0,
                incarnation: 1,
                at: 7,
                episode: Some(dead),
                refreshed_since_dead: false,
            },
            monitor: Some(1),
        };
        assert_eq!(classify(&d, &old, &now), None);
    }

    /// Why the recheck keeps the replicas, as the timeline says it.
    #[test]
    fn a_kept_replica_says_why() {
        assert_eq!(
            Keep::NotDead(1, NodeState::Healthy).to_string(),
            "dn1 is HEALTHY"
        );
        let stale = Keep::WithinStaleDeadline {
            node: 1,
            last_heartbeat: 6,
            now: 9,
        };
        assert_eq!(
            stale.to_string(),
            "dn1 is DEAD but lastHeartbeatTime 6 is within the stale deadline at t=9: the next \
             health check resurrects it"
        );
    }

    /// A setup that cannot go on names the step it waits at (issue 37, item 5): the handler
    /// waits on an empty DEAD_NODE queue that a checker may still fire into.
    // A world's atomics are loom's under `cfg(loom)`, usable only inside a loom model.
    #[test]
    #[cfg(not(loom))]
    fn a_waiting_handler_names_its_next_step() {
        use super::super::{Fix, Service};
        use crate::model::try_step_until;
        let trace = Trace::new();
        // dn1 holds c1 (the scenarios' world; their module imports this one).
        let w = World::new(Fix::UPSTREAM, Service::Scm, &[(1, &[1])], 1, 0);
        let mut handler = DeadNodeHandler::new(&trace, Source::Queue);
        let e = try_step_until(&mut handler, &w, "the handler's end", |p, _| p.is_done())
            .expect_err("no DEAD_NODE event comes");
        assert_eq!(
            e,
            "setup: never reached the handler's end: DNH-thread: Take is not enabled"
        );
    }
}
