//! The health checker thread: `NodeStateManager.checkNodesHealth`, run by the scheduled
//! `SCMHeartbeatProcessor` every `ozone.scm.heartbeat.thread.interval`, in its upstream steps (the
//! state it reads and writes is [`NodeStateManager`]'s, in [`node_state`](super::node_state)).

use super::ids::NodeId;
use super::node_state::{LifeCycleEvent, Listed, NodeState};
use crate::model::Program;
use crate::record;
use crate::trace::{Cx, Trace};
use std::fmt;

/// Where the checker is in its run: at the listed object `i`, whose status it read as `from`,
/// about to test (or, for `Write`, to apply) the `k`-th event of `LifeCycleEvent::plan(from)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CheckStep {
    Tick,
    List,
    Status(usize),
    Test {
        i: usize,
        from: NodeState,
        k: usize,
    },
    Write {
        i: usize,
        from: NodeState,
        k: usize,
        tested: Option<u64>,
    },
}

/// The health checker thread (`NodeStateManager.run`, rescheduled every tick): `runs` runs of
/// `checkNodesHealth`, each in its upstream steps, every one its own critical section:
/// `getAllDatanodeInfos` lists the objects; per object, `getNodeStatus` by ID reads the status
/// once; each event of its plan tests its condition on the *listed* object's heartbeat time
/// (`DatanodeInfo.getLastHeartbeatTime`) and, when it holds, writes the next state by ID
/// (`updateNodeHealthState`) and fires its event. A STALE node reads its heartbeat time twice,
/// for `TIMEOUT` and then `RESTORE`, both with the status read at the start.
///
/// `checkNodesHealth` is `synchronized` on the `NodeStateManager`, and nothing else a modelled
/// actor runs takes that monitor: registration (`SCMNodeManager.register`, `addNode`,
/// `updateNode`) and heartbeats (`updateLastHeartbeatTime`) do not, and the only other
/// synchronized method, `forceNodesToHealthyReadOnly` (upgrade finalization), is not run here.
/// So the monitor never blocks anyone and is not modelled; registrations and heartbeats land
/// between the run's sections.
#[derive(Debug)]
pub struct HealthChecker {
    cx: Cx,
    runs: u32,
    next: CheckStep,
    now: u64,
    listed: Listed,
    /// Close the DEAD_NODE queue after the last run (a loom scenario's handler then ends).
    closes: bool,
}

impl HealthChecker {
    pub const ACTOR: &'static str = "HB-checker";

    pub fn new(trace: &Trace, runs: u32, closes: bool) -> Self {
        HealthChecker {
            cx: trace.actor(Self::ACTOR),
            runs,
            next: CheckStep::Tick,
            now: 0,
            listed: Listed::default(),
            closes,
        }
    }

    /// A checker whose one run has already started, listed the `DatanodeInfo` objects and, with
    /// `status_read`, read the first one's status (a scenario that races only the run's later
    /// sections with what the other actors do).
    pub fn started(trace: &Trace, w: &super::World, closes: bool, status_read: bool) -> Self {
        let mut checker = Self::new(trace, 1, closes);
        for _ in 0..2 + usize::from(status_read) {
            crate::model::step_once(&mut checker, w, "the run's listing and status read");
        }
        checker
    }

    /// The step after the `k`-th event of object `i` read as `from`: its next event, the next
    /// object, or the end of the run.
    fn after(&mut self, i: usize, from: NodeState, k: usize) -> CheckStep {
        match LifeCycleEvent::plan(from).get(k) {
            Some(ev) if ev.tests_heartbeat() => CheckStep::Test { i, from, k },
            Some(_) => CheckStep::Write {
                i,
                from,
                k,
                tested: None,
            },
            None => self.next_object(i + 1),
        }
    }

    fn next_object(&mut self, i: usize) -> CheckStep {
        if i < self.listed.len() {
            CheckStep::Status(i)
        } else {
            self.end_run();
            CheckStep::Tick
        }
    }

    fn end_run(&mut self) {
        self.runs -= 1;
        self.listed = Listed::default();
    }

    // The run's sections, each one critical section: `step` runs one per call, `run_whole`
    // all of them in the same order.

    /// The run's `Time.monotonicNow()`: the clock's next tick.
    fn start_run(&mut self, w: &super::World) {
        self.now = w.clock.advance();
        let now = self.now;
        w.ghost.with(|g| g.now = now);
    }

    /// `getAllDatanodeInfos`.
    fn list(&mut self, w: &super::World) {
        self.listed = w.nodes.get_all_datanode_infos();
        let listed = fmt::from_fn(|f| {
            for (k, i) in self.listed.iter().enumerate() {
                let sep = if k > 0 { ", " } else { "" };
                write!(f, "{sep}dn{} #{}", i.id, i.incarnation)?;
            }
            Ok(())
        });
        record!(
            self.cx,
            "NodeStateMap.getAllDatanodeInfos",
            "t={}: checkNodesHealth lists {listed}",
            self.now
        );
    }

    /// `getNodeStatus` of the `i`-th object listed, by ID (`None`: no longer in the map).
    fn read_status(&self, w: &super::World, i: usize) -> Option<NodeState> {
        let info = self.listed.get(i);
        let from = w.nodes.node_health(info.id)?;
        record!(
            self.cx,
            "NodeStateManager.checkNodesHealth",
            "t={}: dn{} (DatanodeInfo #{}): getNodeStatus → {from}",
            self.now,
            info.id,
            info.incarnation
        );
        Some(from)
    }

    /// `ev`'s condition on the heartbeat time of the `i`-th object listed, read as `from`:
    /// the heartbeat time it tested when the condition holds.
    fn test(&self, w: &super::World, i: usize, from: NodeState, ev: LifeCycleEvent) -> Option<u64> {
        let info = self.listed.get(i);
        let hb = w.nodes.last_heartbeat_time(info);
        let holds = ev.holds(from, hb, self.now);
        record!(
            self.cx,
            "NodeStateManager.updateNodeState",
            "t={}: {ev}? lastHeartbeatTime {hb} of DatanodeInfo #{} → {}",
            self.now,
            info.incarnation,
            if holds { "yes" } else { "no" }
        );
        holds.then_some(hb)
    }

    /// `updateNodeHealthState` with `ev`'s next state; the node whose DEAD_NODE fires.
    fn write(
        &self,
        w: &super::World,
        i: usize,
        from: NodeState,
        ev: LifeCycleEvent,
        tested: Option<u64>,
    ) -> Option<NodeId> {
        let to = ev.next(from);
        let info = self.listed.get(i);
        w.nodes
            .update_node_health_state(&self.cx, &w.ghost, info, ev, tested, to, self.now);
        // fireHealthStateEvent: only DEAD_NODE's handler is modelled (STALE_NODE and the
        // HEALTHY ones close or create pipelines, which hold no replicas).
        (to == NodeState::Dead).then_some(info.id)
    }

    /// The next run to its end, with nothing between its sections: what stepping it alone
    /// does (the same sections in the same order, each DEAD_NODE fired after its write),
    /// without the state machine's dispatch per section (the histories' whole-run tick; a
    /// test compares the two). It never closes the queue: a checker that does is stepped
    /// through its last run (`step` closes in the last section's own `fire`).
    pub fn run_whole(&mut self, w: &super::World) {
        assert!(
            self.next == CheckStep::Tick && !self.is_done() && !(self.closes && self.runs == 1),
            "run_whole starts a run, and not a last run that closes the queue"
        );
        self.start_run(w);
        self.list(w);
        for i in 0..self.listed.len() {
            let Some(from) = self.read_status(w, i) else {
                continue;
            };
            for &ev in LifeCycleEvent::plan(from) {
                let tested = if ev.tests_heartbeat() {
                    match self.test(w, i, from, ev) {
                        Some(hb) => Some(hb),
                        None => continue,
                    }
                } else {
                    None
                };
                let fired = self.write(w, i, from, ev, tested);
                w.dead_node_events.fire(&self.cx, fired, false);
            }
        }
        self.end_run();
    }
}

impl Program<super::World> for HealthChecker {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.runs == 0
    }

    fn step(&mut self, w: &super::World) {
        let runs = self.runs;
        let mut fired = None;
        self.next = match self.next {
            CheckStep::Tick => {
                self.start_run(w);
                CheckStep::List
            }
            CheckStep::List => {
                self.list(w);
                self.next_object(0)
            }
            CheckStep::Status(i) => match self.read_status(w, i) {
                Some(from) => self.after(i, from, 0),
                None => self.next_object(i + 1),
            },
            CheckStep::Test { i, from, k } => {
                let ev = LifeCycleEvent::plan(from)[k];
                match self.test(w, i, from, ev) {
                    Some(hb) => CheckStep::Write {
                        i,
                        from,
                        k,
                        tested: Some(hb),
                    },
                    None => self.after(i, from, k + 1),
                }
            }
            CheckStep::Write { i, from, k, tested } => {
                let ev = LifeCycleEvent::plan(from)[k];
                fired = self.write(w, i, from, ev, tested);
                self.after(i, from, k + 1)
            }
        };
        let last = runs == 1 && self.runs == 0 && self.closes;
        w.dead_node_events.fire(&self.cx, fired, last);
    }
}
