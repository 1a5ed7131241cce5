//! The report's reproduction and the paths every fix must keep, run step by step through the
//! driver.

use super::state_machine::{Change, LeaderReadyCallback, RatisThread};
use super::{Fix, LeaderReady, World};
use crate::drive::Driver;
use crate::model::{run_alone, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

/// The observable state with the services' `shouldRun` once the safe-mode wait has passed.
fn with_services(world: &World) -> String {
    let wait = 5 * 60 * 1000; // hdds.scm.wait.time.after.safemode.exit
    world.services.advance_clock(wait);
    let services = &world.services;
    format!(
        "{} ReplicationManager.shouldRun={} SCMBlockDeletingService.shouldRun={}",
        world.as_reported(),
        services
            .replication_manager
            .should_run(services.now(), wait),
        services
            .block_deleting_service
            .should_run(services.now(), wait)
    )
}

/// The path every fix must keep: an SCM elected for term 4, with no leadership change while its
/// callback runs, ends leader-ready with both services running.
pub fn undisturbed(fix: Fix) -> String {
    let trace = Trace::new();
    let world = World::leader_of(fix, 4);
    run_alone(&mut LeaderReadyCallback::new(&trace, 4), &world);
    with_services(&world)
}

/// The same after a step-down and a re-election in term 5, with the term-5 startup entry already
/// queued on the apply thread: the apply thread reaches it only once Ratis has won the term, and
/// the driver runs the first actor that can step, the callback first.
pub fn re_elected_with_the_entry_queued(fix: Fix) -> String {
    let trace = Trace::new();
    let changes = &[Change::StepDown, Change::Elected(5)];
    let mut d = Driver::<LeaderReady>::new(
        trace.clone(),
        Setup {
            world: Arc::new(World::leader_of(fix, 4)),
            threads: vec![
                Box::new(LeaderReadyCallback::new(&trace, 5)),
                Box::new(RatisThread::new(&trace, changes)),
            ],
        },
    );
    match d.finish() {
        Ok(()) => with_services(&d.world),
        Err(stuck) => stuck,
    }
}

/// The report's reproduction, step by step through the driver: the apply thread is held after
/// the flush and reload while leadership moves away, then (with `re_elect`) comes back in term 5
/// and the term-5 callback is observed right after it starts. Returns the state strings.
pub fn reproduce(fix: Fix) -> (String, String, String) {
    let trace = Trace::new();
    let world = Arc::new(World::leader_of(fix, 4));
    let mut d = Driver::<LeaderReady>::new(
        trace.clone(),
        Setup {
            world,
            threads: vec![Box::new(LeaderReadyCallback::new(&trace, 4))],
        },
    );
    let held = |d: &mut Driver<LeaderReady>, actor: usize, steps: usize| {
        for _ in 0..steps {
            d.step_actor(actor);
        }
    };
    held(&mut d, 0, 4); // checkReady, start, flush, reload: held at the INFO line
                        // The first election, held at the same point.
    let first = d.world.as_reported();
    d.spawn(Box::new(RatisThread::new(&trace, &[Change::StepDown])));
    held(&mut d, 1, 3);
    held(&mut d, 0, 2); // setLeaderReady, notifyStatusChanged
    let after_step_down = with_services(&d.world);
    d.spawn(Box::new(RatisThread::new(&trace, &[Change::Elected(5)])));
    held(&mut d, 2, 3); // initElection, changeToLeader, notifyLeaderChanged
    d.spawn(Box::new(LeaderReadyCallback::new(&trace, 5)));
    held(&mut d, 3, 2); // checkReady, start: inside the term-5 notifyLeaderReady
    (first, after_step_down, d.world.as_reported())
}
