//! The report's reproduction, step by step through the driver.

use super::service_provider::{RestThread, SyncFaults, SyncThread};
use super::task_controller::{EventProcessor, ReconEvent};
use super::{put, Fix, KeyOp, ReconSync, World};
use crate::drive::Driver;
use crate::model::{Program, Setup};
use crate::sync::Arc;
use crate::trace::Trace;

/// What the report's reproduction observes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repro {
    /// `rebuildQueuedInWindow`: the rebuild was queued while the sync thread was paused between
    /// its commit and its hand-off.
    pub queued_in_window: bool,
    /// After the rebuild and the replayed batch.
    pub after_rebuild: String,
    /// After one more ordinary sync of one more put.
    pub after_next_sync: String,
}

/// Runs actor `i` while it can step.
fn run(d: &mut Driver<ReconSync>, i: usize) {
    while d.enabled().contains(&i) {
        d.step_actor(i);
    }
}

/// The report's reproduction through the step driver: Recon in sync with OM (`initial`); OM
/// performs `op`; the sync thread runs until it is paused in `updateOMMetadataManager`,
/// between the commit and the hand-off; a rebuild is requested from a second thread (with P1
/// it is not enabled until the hand-off); then the processor applies everything; then OM writes
/// file9 and one more ordinary sync runs.
pub fn reproduce(fix: Fix, initial: &[KeyOp], op: KeyOp) -> Repro {
    let trace = Trace::new();
    let world = Arc::new(World::in_sync(fix, initial));
    let om = trace.actor("OM");
    world.om.write(&om, op);
    let mut sync = SyncThread::new(&trace, SyncFaults::default());
    crate::model::step_until(&mut sync, &*world, "SyncOM-0's hand-off", |sync, _| {
        sync.at_hand_off()
    });
    let rest = RestThread::new(&trace, &world);
    let threads: Vec<Box<dyn Program<World>>> = vec![Box::new(sync), Box::new(rest)];
    let mut d = Driver::<ReconSync>::new(trace.clone(), Setup { world, threads });
    // 1: the REST thread, while 0, the sync thread, is paused.
    run(&mut d, 1);
    let queued_in_window = d
        .world
        .controller
        .pending()
        .iter()
        .any(|e| matches!(e, ReconEvent::ReInitialization(..)));
    run(&mut d, 0);
    run(&mut d, 1);
    // 2: the event processor, polling until the buffer is empty.
    let polls = d.world.controller.pending().len();
    d.spawn(Box::new(EventProcessor::new(&trace, polls)));
    run(&mut d, 2);
    let after_rebuild = d.world.as_reported();
    // 3: one more ordinary sync of one more put, and 4: the processor again.
    d.world.om.write(&om, put(9));
    d.spawn(Box::new(SyncThread::new(&trace, SyncFaults::default())));
    run(&mut d, 3);
    d.spawn(Box::new(EventProcessor::new(&trace, 1)));
    run(&mut d, 4);
    Repro {
        queued_in_window,
        after_rebuild,
        after_next_sync: d.world.as_reported(),
    }
}
