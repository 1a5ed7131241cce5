//! The report's observable results, computed through the step driver on the same programs the
//! loom threads run: the two Recon reproduction classes (`TestBugMC4DeadNodeRegisterReport`,
//! `TestBugMC5DeadHandlerErasesReturnedNode`) and the patch's three tests. Each function plays
//! the reproduction's schedule one actor at a time and renders what the report observes.
//!
//! Time: the checker's runs are the ticks; the stale interval is 3 ticks, the dead interval 6;
//! a live datanode heartbeats once per tick (`hdds.heartbeat.interval`), below Recon's
//! re-register gap of 2 ticks, so after an outage its first heartbeat to Recon is answered
//! with `ReregisterCommand` and its next one, a tick after it registered, is processed.

use super::datanode::DnAction::{Heartbeat, Register, Stop};
use super::datanode::{Datanode, DnAction};
use super::health_checker::HealthChecker;
use super::node_state::{NodeState, DEAD_INTERVAL};
use super::{
    ContainerReportHandler, DeadNode, DeadNodeHandler, Fix, ReconReload, Service, Source, World,
    CONTAINER, DN, HOLDINGS,
};
use crate::drive::Driver;
use crate::model::{Program, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

/// A reproduction in progress: one world, actors spawned one after another and stepped by
/// index (finished ones stay in the driver, never enabled again).
struct Run {
    d: Driver<DeadNode>,
    trace: Trace,
    spawned: usize,
}

impl Run {
    fn new(fix: Fix, service: Service) -> Run {
        let trace = Trace::new();
        // No producer is pending: a handler ends once its queue is empty.
        let world = Arc::new(World::new(fix, service, HOLDINGS, 0, 0));
        Run {
            d: Driver::new(
                trace.clone(),
                Setup {
                    world,
                    threads: Vec::new(),
                },
            ),
            trace,
            spawned: 0,
        }
    }

    fn w(&self) -> &World {
        &self.d.world
    }

    fn spawn(&mut self, p: impl Program<World> + 'static) -> usize {
        self.d.spawn(Box::new(p));
        self.spawned += 1;
        self.spawned - 1
    }

    fn steps(&mut self, actor: usize, n: usize) {
        for _ in 0..n {
            self.d.step_actor(actor);
        }
    }

    fn finish(&mut self, actor: usize) {
        while self.d.enabled().contains(&actor) {
            self.d.step_actor(actor);
        }
    }

    fn run(&mut self, p: impl Program<World> + 'static) {
        let i = self.spawn(p);
        self.finish(i);
    }

    fn datanode(&mut self, actions: &[DnAction]) {
        let p = Datanode::new(&self.trace, DN, actions);
        self.run(p);
    }

    fn checks(&mut self, runs: u32) {
        let p = HealthChecker::new(&self.trace, runs, false);
        self.run(p);
    }

    fn reports(&mut self) {
        let p = ContainerReportHandler::new(&self.trace, DN);
        self.run(p);
    }

    /// A DEAD_NODE handler for the events fired so far (not yet run).
    fn dead_node_handler(&mut self) -> usize {
        let events = self.w().dead_node_events.drain();
        let p = DeadNodeHandler::new(&self.trace, Source::Given(events.into()));
        self.spawn(p)
    }

    fn health(&self) -> NodeState {
        self.w().health(DN).expect("dn1 is registered")
    }
}

/// JUnit's `assertEquals` message for the first of `checks` that fails, or "passes".
fn junit(checks: &[(NodeState, NodeState)]) -> String {
    checks
        .iter()
        .find(|(expected, was)| expected != was)
        .map_or("passes".into(), |(expected, was)| {
            format!("expected: {expected} but was: {was}")
        })
}

/// The handler's purpose, which P4 must keep: dn1 heartbeats at t=4 and stops for good; it is
/// DEAD at t=10, and the handler, running at t=11 when its heartbeat time is outside the stale
/// deadline, removes its replica.
pub fn dies_after_a_late_heartbeat(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Scm);
    r.checks(4);
    r.datanode(&[Heartbeat, Stop]);
    r.checks(7);
    let dnh = r.dead_node_handler();
    r.finish(dnh);
    r.w().as_reported(DN)
}

/// `TestBugMC4DeadNodeRegisterReport` (Recon, no hooks): dn1 goes DEAD and its replica is
/// removed; it comes back, is told to re-register, registers, its report is applied, and it
/// stops again before its next heartbeat; much later Recon's replication check runs.
pub fn registers_and_stops_again(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Recon);
    r.datanode(&[Stop]);
    r.checks(7); // STALE at t=4, DEAD at t=7
    let dnh = r.dead_node_handler();
    r.finish(dnh);
    r.checks(1);
    r.datanode(&[Heartbeat, Register { address: 0 }, Stop]);
    r.reports();
    r.checks(DEAD_INTERVAL as u32 + 4);
    let dnh = r.dead_node_handler();
    r.finish(dnh);
    r.w().as_reported(DN)
}

/// `TestBugMC5DeadHandlerErasesReturnedNode#returnsShortlyBeforeDeadDeadline` (Recon, no
/// hooks): dn1 comes back at t=6, one tick before its dead deadline, re-registers and its
/// report is applied; the check at t=7 runs before its next heartbeat.
pub fn returns_before_dead_deadline(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Recon);
    r.datanode(&[Stop]);
    r.checks(6); // STALE at t=4
    r.datanode(&[Heartbeat, Register { address: 0 }]);
    r.reports();
    r.checks(1); // t=7
    let dnh = r.dead_node_handler();
    r.finish(dnh);
    r.datanode(&[Heartbeat]);
    r.checks(2);
    r.w().as_reported(DN)
}

/// `TestBugMC5DeadHandlerErasesReturnedNode#comesBackWhileDeadHandlerRuns` (Recon): the
/// dead node handler is held at its first container lookup (`closeContainers`) until dn1 has
/// come back: re-registered, its report applied, its next heartbeat processed and a health
/// check run since.
pub fn comes_back_while_handler_runs(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Recon);
    r.datanode(&[Stop]);
    r.checks(7);
    let dnh = r.dead_node_handler();
    r.steps(dnh, 2); // takes DEAD_NODE, reads DEAD: held at closeContainers
    r.checks(1);
    r.datanode(&[Heartbeat, Register { address: 0 }]);
    r.reports();
    r.checks(1);
    r.datanode(&[Heartbeat]);
    r.checks(1);
    r.finish(dnh);
    r.checks(1);
    r.w().as_reported(DN)
}

/// `testRegisterMovesDeadNodeOutOfDead` (TestSCMNodeManager): DEAD, HEALTHY after registering
/// again, DEAD again after it stops.
pub fn register_moves_dead_node_out_of_dead(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Scm);
    r.datanode(&[Stop]);
    r.checks(7);
    let dead = r.health();
    r.datanode(&[Register { address: 0 }]);
    r.reports();
    r.checks(2);
    let back = r.health();
    r.datanode(&[Stop]);
    r.checks(DEAD_INTERVAL as u32 + 2);
    let dead_again = r.health();
    junit(&[
        (NodeState::Dead, dead),
        (NodeState::Healthy, back),
        (NodeState::Dead, dead_again),
    ])
}

/// `testDeadNodeHandlerKeepsReplicasOfNodeThatCameBack` (TestDeadNodeHandler): the handler has
/// read DEAD; the node registers again, its report is applied and a health check runs; then the
/// handler continues.
pub fn dead_node_handler_keeps_replicas_of_node_that_came_back(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Scm);
    r.datanode(&[Stop]);
    r.checks(7);
    let dnh = r.dead_node_handler();
    r.steps(dnh, 2);
    r.datanode(&[Register { address: 0 }]);
    r.reports();
    r.checks(1);
    r.finish(dnh);
    if r.w().containers.replica(CONTAINER, DN).is_some() {
        "passes".into()
    } else {
        "fails: a replica removal that should not happen".into()
    }
}

/// `testReinitializeKeepsDeadNodeDead` (TestReconNodeManager): a DEAD node stays DEAD across a
/// reload of the node table and the health checks after it.
pub fn reinitialize_keeps_dead_node_dead(fix: Fix) -> String {
    let mut r = Run::new(fix, Service::Recon);
    r.datanode(&[Stop]);
    r.checks(7);
    let dnh = r.dead_node_handler();
    r.finish(dnh);
    let p = ReconReload::new(&r.trace);
    r.run(p);
    r.checks(2);
    junit(&[(NodeState::Dead, r.health())])
}
