//! The loom scenarios: one DataNode, one NameNode, one block finalized in the window. Each builds
//! its starting state by running the same steps on main before any concurrency (the report's
//! first steps), then hands the actors over.

use super::actor::{ActorStart, OfferService};
use super::command_processor::ProcessCommand;
use super::fs_dataset::Writer;
use super::namenode::HaState;
use super::scheduler::HEARTBEAT_INTERVAL;
use super::world::run;
use super::{Block, Fix, Reregister, World};
use crate::model::{step_once, step_until, Program, Scenario, Setup};
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
        plain_reset: false,
    }
}

/// Steps of the actor thread of pair (0, `nn`) up to (not including) `blockReport`, on main.
fn iterate_until_block_report(w: &World, trace: &Trace, nn: usize) {
    let mut it = OfferService::iteration(trace, 0, nn);
    step_until(
        &mut it,
        w,
        "the iteration's end or its blockReport",
        |it, _| it.is_done() || it.at_block_report(),
    );
}

/// The report's steps 1–7: the NameNode restarts (`ha` afterwards); the first heartbeat is
/// answered REGISTER (REG1); REG1's `retrieveNamespaceInfo` is slow, so the next heartbeat,
/// still under the old registration, is answered REGISTER too (REG2); REG1 completes and asks
/// for an FBR; the next heartbeat gets a lease. Returns the world with the actor about to run
/// `blockReport` and REG2 queued.
pub fn double_register_start(fix: Fix, trace: &Trace, ha: HaState) -> World {
    let w = World::new(fix, trace, 1, &[ha], running(ha));
    report_steps_1_to_7(&w, trace, 0, ha);
    w
}

/// The report's steps 1-7 against NameNode `nn` (see [`double_register_start`]).
fn report_steps_1_to_7(w: &World, trace: &Trace, nn: usize, ha: HaState) {
    w.namenodes[nn].restart(&trace.actor("NameNode"), ha, w.clock.now());
    // [2-3] heartbeat -> REGISTER (REG1), queued.
    iterate_until_block_report(w, trace, nn);
    // [4-5] REG1 is slow; the next heartbeat is answered REGISTER again (REG2).
    w.clock.set(HEARTBEAT_INTERVAL);
    iterate_until_block_report(w, trace, nn);
    // [6] REG1 completes: FBR due now, heartbeat due now.
    run(w, ProcessCommand::new(trace, 0, nn));
    // [7] heartbeat with a lease request; granted.
    iterate_until_block_report(w, trace, nn);
}

/// Runs `fbr` on main up to its snapshot: the lease check and the IBR drain happen before the
/// threads start (nothing concurrent can change them: the IBR queue is empty, the writer not
/// started), so the scenario's concurrency is the report's: the snapshot, the long RPC and the
/// rescheduling against the command thread and the writer.
fn until_snapshot(w: &World, fbr: &mut OfferService) {
    step_until(fbr, w, "the iteration's end or its snapshot", |fbr, _| {
        fbr.is_done() || fbr.at_snapshot()
    });
}

fn double_register(trace: &Trace, fix: Fix, ha: HaState) -> Setup<Reregister> {
    // With the NameNode ACTIVE nothing is cleared: this scenario decides O7, the race on
    // resetBlockReportTime, and that field is race-tracked here (and only here, so that the
    // other scenarios' race cells are about pendingIBRs alone).
    let start = ActorStart {
        plain_reset: ha == HaState::Active,
        ..running(ha)
    };
    let w = World::new(fix, trace, 1, &[ha], start);
    report_steps_1_to_7(&w, trace, 0, ha);
    fbr_against_reg2(w, trace, fix, 0)
}

/// [8] `blockReport` on the actor thread of pair (0, `nn`) up to its snapshot, [9] the command
/// thread takes REG2 (P3 drops it here); then the FBR, REG2 and the writer of X run.
fn fbr_against_reg2(w: World, trace: &Trace, fix: Fix, nn: usize) -> Setup<Reregister> {
    let mut fbr = OfferService::block_report(trace, 0, nn);
    until_snapshot(&w, &mut fbr);
    let mut reg2 = ProcessCommand::new(trace, 0, nn);
    step_once(&mut reg2, &w, "REG2 taken by the command thread");
    let threads: Vec<Box<dyn Program<World>>> = vec![
        Box::new(fbr),
        Box::new(reg2),
        Box::new(Writer::new(trace, 0, X, fix.writer_order.get())),
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
    about: "the same with the NameNode ACTIVE at REG2: nothing is cleared; resetBlockReportTime \
            is race-tracked (O7)",
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
    step_once(
        &mut register,
        &w,
        "the REGISTER taken by the command thread",
    );
    let threads: Vec<Box<dyn Program<World>>> = vec![
        Box::new(iteration),
        Box::new(register),
        Box::new(Writer::new(trace, 0, X, fix.writer_order.get())),
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
    w.namenodes[0].restart(&nn, HaState::Standby, w.clock.now());
    run(&w, Writer::new(trace, 0, X, fix.writer_order.get()));
    w.namenodes[0].fail_next_ibr();
    let mut it = OfferService::iteration(trace, 0, 0);
    step_once(&mut it, &w, "the heartbeat (REGISTER queued)");
    let world = Arc::new(w);
    let threads: Vec<Box<dyn Program<World>>> =
        vec![Box::new(it), Box::new(ProcessCommand::new(trace, 0, 0))];
    Setup { world, threads }
}

/// P3's second path: the REGISTER that trunk's `NameNodeRpcServer.blockReport` returns for an
/// unknown node. The NameNode marked the DataNode dead (descriptor kept), so one heartbeat
/// answer carries REGISTER (REG1) and a lease; the FBR is sent under registration 1, and the
/// NameNode restarts before it arrives: it is answered REGISTER (REG2), and REG1 completes
/// (registration 2) before `blockReport` returns and enqueues REG2. REG1's FBR is then in flight
/// while the command thread takes REG2: the report's race, with REG2 from an FBR's answer.
pub fn fbr_register_start(fix: Fix, trace: &Trace) -> World {
    let ha = HaState::Standby;
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
    let nn = trace.actor("NameNode");
    w.namenodes[0].register_datanode(&nn, 0, 0);
    w.namenodes[0].mark_dead(0);
    // The heartbeat (REGISTER and a lease: REG1 queued), the drain and the snapshot (sent
    // under registration 1).
    let mut fbr0 = OfferService::iteration(trace, 0, 0);
    step_until(&mut fbr0, &w, "REG1's FBR at its RPC", |fbr0, _| {
        fbr0.at_rpc()
    });
    // The NameNode restarts; the FBR reaches it: unknown node, RegisterCommand.REGISTER.
    w.namenodes[0].restart(&nn, ha, w.clock.now());
    step_once(&mut fbr0, &w, "REG1's FBR answered");
    // REG1 up to `bpRegistration = new` (registration 2).
    let mut reg1 = ProcessCommand::new(trace, 0, 0);
    step_until(&mut reg1, &w, "REG1's bpRegistration = 2", |_, w| {
        w.actor(0, 0).registration() >= 2
    });
    // blockReport returns: rescheduled, REG2 enqueued with P3's tag.
    run(&w, fbr0);
    // REG1 asks for an FBR now and a heartbeat now; the heartbeat gets a lease.
    run(&w, reg1);
    iterate_until_block_report(&w, trace, 0);
    w
}

fn fbr_register(trace: &Trace, fix: Fix) -> Setup<Reregister> {
    let w = fbr_register_start(fix, trace);
    fbr_against_reg2(w, trace, fix, 0)
}

pub static FBR_REGISTER_STANDBY: Scenario<Reregister> = Scenario {
    name: "fbr-register/standby",
    about: "REG2 is the REGISTER answered to an FBR sent under registration 1 (the NameNode \
            restarted while it was in flight); REG1 completed before blockReport returned; REG1's \
            FBR races REG2 and block X is finalized",
    build: |trace, fix| fbr_register(trace, fix),
};

/// Two NameNodes: nn0 ACTIVE knows the DataNode and runs on; nn1, restarted STANDBY, goes
/// through the report's sequence. The writer notifies nn0's IBR manager, then nn1's
/// (`BPOfferService.notifyNamenodeReceivedBlock` walks `bpServices`, each call under its own
/// monitor).
fn two_namenodes(trace: &Trace, fix: Fix) -> Setup<Reregister> {
    let has = [HaState::Active, HaState::Standby];
    let w = World::new(fix, trace, 1, &has, running(HaState::Standby));
    w.namenodes[0].register_datanode(&trace.actor("NameNode"), 0, 0);
    w.actor(0, 0).set_state(HaState::Active);
    report_steps_1_to_7(&w, trace, 1, HaState::Standby);
    fbr_against_reg2(w, trace, fix, 1)
}

pub static TWO_NAMENODES: Scenario<Reregister> = Scenario {
    name: "double-register/two-namenodes",
    about: "the report's sequence against nn1 (restarted, STANDBY) while nn0 (ACTIVE) keeps the \
            DataNode; the writer notifies both IBR managers in turn",
    build: two_namenodes,
};

pub static FAILED_IBR_VS_CLEAR: Scenario<Reregister> = Scenario {
    name: "failed-ibr-vs-clear",
    about: "an IBR RPC to a busy NameNode times out while the command thread's reRegister clears \
            the pending IBRs",
    build: failed_ibr,
};

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::actor::OfferService;
    use super::super::namenode::HaState;
    use super::super::world::run;
    use super::super::{Fix, Reregister, World, PROPOSED};
    use super::double_register_start;
    use crate::model::Model;
    use crate::trace::Trace;

    /// The FBR that REG1 asked for (`resetBlockReportTime` set), run to its end: its
    /// `scheduleNextBlockReport` draws a random time and clears the flag, with P1 or without;
    /// when the NameNode restarted during it and answers REGISTER (the node is unknown),
    /// `processCommand` enqueues that command after the rescheduling.
    #[test]
    fn a_block_report_clears_the_reset_and_enqueues_the_register_it_is_answered() {
        // What `World::fingerprint` keeps of DataNode 0's actor for nn0: its command queue (the count,
        // then each batch, REGISTER in the low bit) and its scheduler (the reset flag second).
        let queue_and_scheduler = |w: &World| {
            let (mut queue, mut scheduler) = (Vec::new(), Vec::new());
            w.actor(0, 0).queue.fingerprint(&mut queue);
            w.actor(0, 0).scheduler.fingerprint(&mut scheduler);
            (queue, scheduler)
        };
        for fix in [Fix::UPSTREAM, Reregister::fix(PROPOSED)] {
            for restarted in [false, true] {
                let trace = Trace::new();
                let w = double_register_start(fix, &trace, HaState::Standby);
                let (queued, scheduler) = queue_and_scheduler(&w);
                assert_eq!(scheduler[1], 1, "REG1 asked for an FBR with reset");
                if restarted {
                    w.namenodes[0].restart(
                        &trace.actor("NameNode"),
                        HaState::Standby,
                        w.clock.now(),
                    );
                }
                run(&w, OfferService::iteration(&trace, 0, 0));
                let (after, scheduler) = queue_and_scheduler(&w);
                let why = format!("{fix:?}, restarted: {restarted}");
                assert_eq!(scheduler[1], 0, "{why}: resetBlockReportTime cleared");
                assert_eq!(
                    after[0],
                    queued[0] + u64::from(restarted),
                    "{why}: {after:?}"
                );
                if restarted {
                    assert_eq!(after.last().map(|b| b & 1), Some(1), "{why}: REGISTER");
                }
            }
        }
    }
}
