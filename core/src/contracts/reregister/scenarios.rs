//! The loom scenarios: one DataNode, one NameNode, one block finalized in the window. Each builds
//! its starting state by running the same steps on main before any concurrency (the report's
//! first steps), then hands the actors over.

use super::actor::{ActorStart, OfferService};
use super::command_processor::ProcessCommand;
use super::fs_dataset::Writer;
use super::namenode::HaState;
use super::scheduler::HEARTBEAT_INTERVAL;
use super::{run, Block, Fix, Reregister, World};
use crate::model::{Program, Scenario, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

/// The block the writer finalizes in the window.
pub const X: Block = 7;

/// A DataNode that has been running: registered once (registration 1), the periodic FBR
/// scheduled far away, the next heartbeat due now.
fn running(ha: HaState) -> ActorStart {
    ActorStart {
        lease: 0,
        state: ha,
        registration: 1,
        next_block_report: 1_000_000_000,
        reset: false,
        next_heartbeat: 0,
    }
}

/// Steps of the actor thread up to (not including) `blockReport`, on main.
fn iterate_until_block_report(w: &World, trace: &Trace) {
    let mut it = OfferService::iteration(trace, 0, 0);
    while !it.is_done() && !it.at_block_report() {
        it.step(w);
    }
}

/// The report's steps 1–7: the NameNode restarts (`ha` afterwards); the first heartbeat is
/// answered REGISTER (REG1); REG1's `retrieveNamespaceInfo` is slow, so the next heartbeat,
/// still under the old registration, is answered REGISTER too (REG2); REG1 completes and asks
/// for an FBR; the next heartbeat gets a lease. Returns the world with the actor about to run
/// `blockReport` and REG2 queued.
pub fn double_register_start(fix: Fix, trace: &Trace, ha: HaState) -> World {
    let w = World::new(fix, trace, 1, &[ha], running(ha));
    w.namenodes[0].restart(&trace.actor("NameNode"), ha);
    // [2-3] heartbeat -> REGISTER (REG1), queued.
    iterate_until_block_report(&w, trace);
    // [4-5] REG1 is slow; the next heartbeat is answered REGISTER again (REG2).
    w.clock.set(HEARTBEAT_INTERVAL);
    iterate_until_block_report(&w, trace);
    // [6] REG1 completes: FBR due now, heartbeat due now.
    run(&w, ProcessCommand::new(trace, 0, 0));
    // [7] heartbeat with a lease request; granted.
    iterate_until_block_report(&w, trace);
    w
}

/// Runs `fbr` on main up to its snapshot: the lease check and the IBR drain happen before the
/// threads start (nothing concurrent can change them: the IBR queue is empty, the writer not
/// started), so the scenario's concurrency is the report's: the snapshot, the long RPC and the
/// rescheduling against the command thread and the writer.
fn until_snapshot(w: &World, fbr: &mut OfferService) {
    while !fbr.is_done() && !fbr.at_snapshot() {
        fbr.step(w);
    }
}

fn double_register(trace: &Trace, fix: Fix, ha: HaState) -> Setup<Reregister> {
    let w = double_register_start(fix, trace, ha);
    // [8] blockReport on the actor thread up to its snapshot.
    let mut fbr = OfferService::block_report(trace, 0, 0);
    until_snapshot(&w, &mut fbr);
    // [9] the command thread takes REG2 (P3 drops it here).
    let mut reg2 = ProcessCommand::new(trace, 0, 0);
    reg2.step(&w);
    let threads: Vec<Box<dyn Program<World>>> = vec![
        Box::new(fbr),
        Box::new(reg2),
        Box::new(Writer::new(trace, 0, X, fix.writer.get())),
    ];
    Setup {
        world: Arc::new(w),
        threads,
    }
}

pub static DOUBLE_REGISTER_STANDBY: Scenario<Reregister> = Scenario {
    name: "double-register/standby",
    about: "the report's sequence: REG1 done, its FBR in flight on the actor thread, REG2 queued, \
            block X finalized; the NameNode is STANDBY",
    build: |trace, fix| double_register(trace, fix, HaState::Standby),
};

pub static DOUBLE_REGISTER_ACTIVE: Scenario<Reregister> = Scenario {
    name: "double-register/active",
    about: "the same with the NameNode ACTIVE at REG2: nothing is cleared",
    build: |trace, fix| double_register(trace, fix, HaState::Active),
};

/// The dead-node path: the NameNode marked the DataNode dead after a heartbeat gap (descriptor
/// kept, its block locations dropped); the periodic FBR is due, so the next heartbeat asks for a
/// lease, and the answer carries REGISTER and a lease.
fn single_register(trace: &Trace, fix: Fix, ha: HaState) -> Setup<Reregister> {
    let w = World::new(
        fix,
        trace,
        1,
        &[ha],
        ActorStart {
            next_block_report: 0,
            ..running(ha)
        },
    );
    w.namenodes[0].register_datanode(&trace.actor("NameNode"), 0, 0);
    w.namenodes[0].mark_dead(0);
    // The heartbeat (REGISTER and a lease), sendIBRs, blockReport up to its snapshot; the command
    // thread takes the REGISTER.
    let mut iteration = OfferService::iteration(trace, 0, 0);
    until_snapshot(&w, &mut iteration);
    let mut register = ProcessCommand::new(trace, 0, 0);
    register.step(&w);
    let threads: Vec<Box<dyn Program<World>>> = vec![
        Box::new(iteration),
        Box::new(register),
        Box::new(Writer::new(trace, 0, X, fix.writer.get())),
    ];
    Setup {
        world: Arc::new(w),
        threads,
    }
}

pub static SINGLE_REGISTER_STANDBY: Scenario<Reregister> = Scenario {
    name: "single-register/standby",
    about: "no duplicate REGISTER: the NameNode kept the dead node, so one heartbeat answer \
            carries REGISTER and a lease, and the FBR it starts races the one registration",
    build: |trace, fix| single_register(trace, fix, HaState::Standby),
};

/// The NameNode restarted and is busy: the heartbeat was answered REGISTER, and the IBR of X,
/// queued before, times out while the command thread re-registers.
fn failed_ibr(trace: &Trace, fix: Fix) -> Setup<Reregister> {
    let w = World::new(
        fix,
        trace,
        1,
        &[HaState::Standby],
        running(HaState::Standby),
    );
    let nn = trace.actor("NameNode");
    w.namenodes[0].restart(&nn, HaState::Standby);
    run(&w, Writer::new(trace, 0, X, fix.writer.get()));
    w.namenodes[0].fail_next_ibr();
    let mut it = OfferService::iteration(trace, 0, 0);
    it.step(&w); // the heartbeat: REGISTER queued
    let world = Arc::new(w);
    let threads: Vec<Box<dyn Program<World>>> =
        vec![Box::new(it), Box::new(ProcessCommand::new(trace, 0, 0))];
    Setup { world, threads }
}

pub static FAILED_IBR_VS_CLEAR: Scenario<Reregister> = Scenario {
    name: "failed-ibr-vs-clear",
    about: "an IBR RPC to a busy NameNode times out while the command thread's reRegister clears \
            the pending IBRs",
    build: failed_ibr,
};
