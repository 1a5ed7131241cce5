//! The loom scenarios: each starts the world where its outcome's window opens (an argument for
//! why the prefix runs in one order is in the scenario's `about` and in DESIGN-NOTES.md) and
//! hands loom the threads that race there.

use super::containers::ContainerReportHandler;
use super::datanode::{Datanode, DnAction};
use super::dead_node_handler::{DeadNodeHandler, Source};
use super::health_checker::HealthChecker;
use super::recon::ReconReload;
use super::{ContainerId, DeadNode, Fix, NodeId, Service, World};
use crate::model::{run_alone, step_once, Program, Scenario, Setup, Then};
use crate::sync::Arc;
use crate::trace::Trace;

/// The datanode of the scenarios and the container it holds.
pub const DN: NodeId = 1;
pub const CONTAINER: ContainerId = 1;
pub(super) const HOLDINGS: &[(NodeId, &[ContainerId])] = &[(DN, &[CONTAINER])];

/// Runs `program` to its end with no other actor running; fails where it cannot (see
/// [`run_alone`]).
fn run(w: &World, mut program: impl Program<World>) {
    run_alone(&mut program, w);
}

/// A loom world: one checker may fire DEAD_NODE (a report thread knows how many reports come).
fn scenario_world(fix: Fix, service: Service) -> Arc<World> {
    Arc::new(World::new(fix, service, HOLDINGS, 1, 0))
}

/// The datanode stops at tick 0 and the checker runs `runs` times (STALE at tick 4, DEAD at 7).
fn outage(trace: &Trace, w: &World, runs: u32) {
    run(w, Datanode::new(trace, DN, &[DnAction::Stop]));
    run(w, HealthChecker::new(trace, runs, false));
}

/// The DEAD_NODE events fired so far, handled to the end.
fn handle_dead_node_events(trace: &Trace, w: &World) {
    run(
        w,
        DeadNodeHandler::new(trace, Source::Given(w.dead_node_events.drain().into())),
    );
}

fn setup(world: Arc<World>, threads: Vec<Box<dyn Program<World>>>) -> Setup<DeadNode> {
    Setup { world, threads }
}

/// O1: the node went DEAD and its replica was removed; the restarted datanode registers and
/// stops again before its first heartbeat, while its report is applied and a health check runs.
pub static REGISTERS_AND_STOPS: Scenario<DeadNode> = Scenario {
    name: "dead-node-registers-and-stops",
    about:
        "dn1 DEAD at t=7, replica removed; the RPC thread registers it and it stops; the CR thread \
            applies the report; the checker runs at t=8",
    build: |trace, fix| {
        let w = scenario_world(fix, Service::Scm);
        outage(trace, &w, 7);
        handle_dead_node_events(trace, &w);
        let dn = Datanode::new(
            trace,
            DN,
            &[DnAction::Register { address: 0 }, DnAction::Stop],
        );
        setup(
            w,
            vec![
                Box::new(dn),
                Box::new(ContainerReportHandler::handling(trace, DN, 1)),
                Box::new(HealthChecker::new(trace, 1, false)),
            ],
        )
    },
};

/// O2: the node registered at t=6, just before its dead deadline (t=7), and its report was
/// applied; the checker's run at t=7 races the datanode's first heartbeat.
pub static RETURNS_BEFORE_DEAD_DEADLINE: Scenario<DeadNode> = Scenario {
    name: "returns-before-dead-deadline",
    about: "dn1 STALE, registered at t=6 and its report applied; the checker runs at t=7, the DNH thread \
            handles what it fires, the datanode's first heartbeat arrives",
    build: |trace, fix| {
        let w = scenario_world(fix, Service::Scm);
        outage(trace, &w, 6);
        run(&w, Datanode::new(trace, DN, &[DnAction::Register { address: 0 }]));
        run(&w, ContainerReportHandler::handling(trace, DN, 1));
        setup(
            w,
            vec![
                Box::new(HealthChecker::new(trace, 1, true)),
                Box::new(DeadNodeHandler::new(trace, Source::Queue)),
                Box::new(Datanode::new(trace, DN, &[DnAction::Heartbeat])),
            ],
        )
    },
};

fn comes_back(trace: &Trace, fix: Fix, address: u8) -> Setup<DeadNode> {
    let w = scenario_world(fix, Service::Scm);
    outage(trace, &w, 7);
    let events = w.dead_node_events.drain();
    let dn = Datanode::new(trace, DN, &[DnAction::Register { address }]);
    setup(
        w,
        vec![
            Box::new(DeadNodeHandler::new(trace, Source::Given(events.into()))),
            Box::new(dn),
            Box::new(ContainerReportHandler::handling(trace, DN, 1)),
        ],
    )
}

/// O3 and R1: DEAD_NODE for dn1 fired at t=7; the DNH thread handles it while the datanode
/// registers again and the CR thread applies its report.
pub static COMES_BACK_WHILE_HANDLED: Scenario<DeadNode> = Scenario {
    name: "comes-back-while-dead-node-handler-runs",
    about:
        "dn1 DEAD at t=7, replica still there, DEAD_NODE taken by the DNH thread; the RPC thread \
            registers dn1 (same address), the CR thread applies its report",
    build: |trace, fix| comes_back(trace, fix, 0),
};

/// R3: as [`COMES_BACK_WHILE_HANDLED`], but the datanode registers with a new address.
pub static COMES_BACK_AT_NEW_ADDRESS: Scenario<DeadNode> = Scenario {
    name: "comes-back-at-new-address-while-dead-node-handler-runs",
    about: "dn1 DEAD at t=7, DEAD_NODE taken by the DNH thread; dn1 registers with a new address \
            (updateNode replaces its DatanodeInfo), the CR thread applies its report",
    build: |trace, fix| comes_back(trace, fix, 1),
};

/// O5: dn1 came back after it went DEAD (registered, its report applied) while DEAD_NODE waits
/// for the handler; its first heartbeat and the next health check race the handler, so the
/// recheck can read DEAD, or HEALTHY_READONLY after a RESURRECT.
pub static RESURRECTED_WHILE_HANDLED: Scenario<DeadNode> = Scenario {
    name: "resurrected-while-dead-node-handler-runs",
    about: "dn1 DEAD at t=7, DEAD_NODE taken by the DNH thread; dn1 registered again and its report was \
            applied; its first heartbeat and the health check at t=8 (which has listed dn1) race the handler",
    build: |trace, fix| {
        let w = scenario_world(fix, Service::Scm);
        outage(trace, &w, 7);
        let events = w.dead_node_events.drain();
        run(&w, Datanode::new(trace, DN, &[DnAction::Register { address: 0 }]));
        run(&w, ContainerReportHandler::handling(trace, DN, 1));
        let checker = HealthChecker::started(trace, &w, false, false);
        setup(
            w,
            vec![
                Box::new(DeadNodeHandler::new(trace, Source::Given(events.into()))),
                Box::new(checker),
                Box::new(Datanode::new(trace, DN, &[DnAction::Heartbeat])),
            ],
        )
    },
};

/// O8: as [`RECON_RELOAD`], but dn1 is behind NAT and registered again before its outage: its
/// row holds the address it reported, memory the peer's.
pub static RECON_RELOAD_ROW_DIFFERS: Scenario<DeadNode> = Scenario {
    name: "recon-reload-row-differs",
    about: "Recon: dn1 behind NAT registered again at t=0 (the node table row gets its own address, memory \
            keeps the peer's), then DEAD at t=7 and down, replica removed; the sync thread reinitializes; the \
            checker runs at t=8",
    build: |trace, fix| {
        let w = Arc::new(World::behind_nat(fix, Service::Recon, HOLDINGS, 1, 0, &[DN]));
        run(&w, Datanode::new(trace, DN, &[DnAction::Register { address: 0 }]));
        run(&w, ContainerReportHandler::handling(trace, DN, 1));
        outage(trace, &w, 7);
        handle_dead_node_events(trace, &w);
        setup(
            w,
            vec![
                Box::new(ReconReload::new(trace)),
                Box::new(HealthChecker::new(trace, 1, false)),
            ],
        )
    },
};

/// O9: dn1 behind NAT registered again (its row holds its own address, memory the peer's) and
/// stopped; Recon's reload has reinitialized the container manager. The reload's
/// `loadExistingNodes` (whose `updateNode` replaces the `DatanodeInfo` with one whose container-ID
/// set is empty) races the CR thread applying the registration report, then the health
/// checker's runs to the dead deadline and the DNH thread's handling of the DEAD_NODE it fires.
///
/// The CR thread, the checker and the handler run in that order on one loom thread. The
/// handler after the checker is upstream's order: the checker fires the one DEAD_NODE in its
/// seventh run's last section, which ends it, and the handler cannot start before. The apply
/// before the checker's runs is a restriction, argued: runs 1 to 6 touch no replica and no
/// container-ID set, so they commute with the apply; an apply after the seventh run's DEAD
/// leaves a stuck replica that is R2's (checked at registration-report-waits-past-dead-interval),
/// never O9's. The reload's steps race all of it: an updateNode after the apply empties the set
/// (O9), one during the runs gives the node a heartbeat time that the seventh run does not find
/// past the dead deadline. With P3 the reload registers no known node, so no set is emptied in
/// any order.
pub static RECON_RELOAD_EMPTIES_SET: Scenario<DeadNode> = Scenario {
    name: "recon-reload-empties-container-set",
    about: "Recon: dn1 behind NAT registered again at t=0 (row: its own address; memory: the peer's) and \
            stopped, its report queued; the reload has reinitialized the container manager; the sync thread's \
            loadExistingNodes races the CR thread's apply of the report, then the checker's runs to t=7 and the \
            DNH thread",
    build: |trace, fix| {
        let w = Arc::new(World::behind_nat(fix, Service::Recon, HOLDINGS, 1, 0, &[DN]));
        run(&w, Datanode::new(trace, DN, &[DnAction::Register { address: 0 }, DnAction::Stop]));
        let mut reload = ReconReload::new(trace);
        // ReconContainerManager.reinitialize: no replica until the next reports.
        step_once(&mut reload, &w, "the reload's reinitialize");
        let report_then_checks = Then {
            actor: "CR-thread-dn1, then HB-checker, then DNH-thread",
            first: ContainerReportHandler::handling(trace, DN, 1),
            second: Then {
                actor: "HB-checker, then DNH-thread",
                first: HealthChecker::new(trace, 7, true),
                second: DeadNodeHandler::new(trace, Source::Queue),
            },
        };
        setup(w, vec![Box::new(reload), Box::new(report_then_checks)])
    },
};

/// O10: Recon has just started (its node table loaded, `datanodeHeartbeatMap` empty) and dn1
/// and dn2 send their first heartbeats, served on two RPC handler threads.
pub static FIRST_HEARTBEATS: Scenario<DeadNode> = Scenario {
    name: "recon-first-heartbeats",
    about: "Recon just started: dn1 and dn2 known from the node table, datanodeHeartbeatMap empty; their first \
            heartbeats are served on two RPC handler threads at once",
    build: |trace, fix| {
        let w = Arc::new(World::new(
            fix,
            Service::Recon,
            &[(DN, &[CONTAINER]), (2, &[CONTAINER])],
            0,
            0,
        ));
        w.recon.started_empty();
        setup(
            w,
            vec![
                Box::new(Datanode::new(trace, DN, &[DnAction::Heartbeat])),
                Box::new(Datanode::new(trace, 2, &[DnAction::Heartbeat])),
            ],
        )
    },
};

/// O6: dn1, STALE, registers while the health check at its dead deadline runs: the
/// registration (P1's refresh) can land between the check's deadline test and its write.
pub static REGISTERS_DURING_CHECK: Scenario<DeadNode> = Scenario {
    name: "registers-during-health-check",
    about: "dn1 STALE (last heartbeat t=0); the checker's run at t=7, its dead deadline, has listed dn1, read \
            its status and tested TIMEOUT on heartbeat time 0; the RPC thread registers dn1 (same address) \
            while the run writes DEAD and tests RESTORE; the DNH thread handles the DEAD_NODE the run fires",
    build: |trace, fix| registers_during_check(trace, fix, 0),
};

/// O7: as [`REGISTERS_DURING_CHECK`], with a new address: `updateNode` replaced the object
/// between the check's status read and its write, which went to the new object; the CR thread
/// applies the report under the new object while the DNH thread handles the DEAD_NODE.
pub static NEW_ADDRESS_DURING_CHECK: Scenario<DeadNode> = Scenario {
    name: "new-address-during-health-check",
    about: "dn1 STALE (last heartbeat t=0); the checker's run at t=7 listed DatanodeInfo #1, read its status \
            and tested TIMEOUT on #1's heartbeat time 0; then dn1 registered with a new address (updateNode: #2) \
            and the run wrote DEAD by ID, to #2, and fired DEAD_NODE; the CR thread (which has looked #2 up) \
            applies the registration report, the DNH thread handles the event, the run tests RESTORE",
    build: |trace, fix| registers_during_check(trace, fix, 1),
};

/// The two health-check scenarios: dn1 STALE since t=0, the checker's run at t=7 started: dn1
/// listed, its status read, and TIMEOUT tested on the listed object's heartbeat time 0 (a
/// registration before that test gives no DEAD, or, upstream, refreshes nothing: it cannot
/// reach O6 or O7). So the run always writes DEAD and fires exactly one DEAD_NODE, which the
/// handler thread takes and then ends (the run does not close the queue).
///
/// With the same address (O6) the registration races the run's DEAD write and RESTORE test.
/// With a new one (O7) the registration's `updateNode`, the DEAD write by ID (to the new
/// object) and the CR thread's `getNode` (the new object) run before the threads start: in
/// every execution that reaches O7 the replacement precedes the write, and until the write fires
/// DEAD_NODE the handler and the report thread can only wait on their queues, so moving those
/// steps first changes no result (the write and the report's apply touch different fields, and
/// O7 is decided at the write). Explored: the report's apply under #2's monitor against the
/// handler and the run's RESTORE test.
fn registers_during_check(trace: &Trace, fix: Fix, address: u8) -> Setup<DeadNode> {
    let w = scenario_world(fix, Service::Scm);
    outage(trace, &w, 6);
    let mut checker = HealthChecker::started(trace, &w, false, true);
    // TIMEOUT? on lastHeartbeatTime 0 of #1: yes.
    step_once(&mut checker, &w, "the run's TIMEOUT test on #1");
    let dn = Datanode::new(trace, DN, &[DnAction::Register { address }]);
    let handler = Box::new(DeadNodeHandler::new(trace, Source::Counted(1)));
    if address == 0 {
        return setup(w, vec![Box::new(checker), Box::new(dn), handler]);
    }
    run(&w, dn); // updateNode: #2, and CONTAINER_REPORT queued
                 // updateNodeHealthState: DEAD to #2; DEAD_NODE fired.
    step_once(&mut checker, &w, "the run's DEAD write to #2");
    let mut reports = ContainerReportHandler::handling(trace, DN, 1);
    step_once(&mut reports, &w, "the CR thread's take of dn1's report");
    step_once(&mut reports, &w, "the CR thread's getNode (#2)");
    setup(w, vec![Box::new(checker), Box::new(reports), handler])
}

/// R2: the registration's report is still queued when the node, stopped again, goes DEAD.
pub static REPORT_WAITS_PAST_DEAD_INTERVAL: Scenario<DeadNode> = Scenario {
    name: "registration-report-waits-past-dead-interval",
    about: "dn1 registered again at t=1 and stopped; its report is still queued at t=7 (STALE); the \
            checker runs at t=8, the DNH thread handles what it fires, the CR thread applies the report",
    build: |trace, fix| {
        let w = scenario_world(fix, Service::Scm);
        run(&w, HealthChecker::new(trace, 1, false));
        run(&w, Datanode::new(trace, DN, &[DnAction::Register { address: 0 }, DnAction::Stop]));
        run(&w, HealthChecker::new(trace, 6, false));
        setup(
            w,
            vec![
                Box::new(HealthChecker::new(trace, 1, true)),
                Box::new(DeadNodeHandler::new(trace, Source::Queue)),
                Box::new(ContainerReportHandler::handling(trace, DN, 1)),
            ],
        )
    },
};

/// O4: Recon reloads its node table (SCM DB snapshot) while dn1 is DEAD and down.
pub static RECON_RELOAD: Scenario<DeadNode> = Scenario {
    name: "recon-reload-with-dead-node",
    about:
        "Recon: dn1 DEAD at t=7 and down, replica removed; the sync thread reinitializes the node \
            manager from the node table; the checker runs at t=8",
    build: |trace, fix| {
        let w = scenario_world(fix, Service::Recon);
        outage(trace, &w, 7);
        handle_dead_node_events(trace, &w);
        setup(
            w,
            vec![
                Box::new(ReconReload::new(trace)),
                Box::new(HealthChecker::new(trace, 1, false)),
            ],
        )
    },
};
