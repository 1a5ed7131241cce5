//! What loom explores of reregister's [`Lease`]: `blockReport`'s zeroing is no scheduling
//! point, and the actor thread and main read what they read with a loom atomic throughout.

use crate::every_execution::every_execution;
use loom::sync::atomic::AtomicU64;
use loom::sync::Arc;
use racelab_core::contracts::reregister::lease::Lease;
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;

/// The actor thread's accesses and the command thread's, on the lease or on a loom atomic.
trait Field: Send + Sync + 'static {
    fn new(id: u64) -> Self;
    fn get(&self) -> u64;
    fn grant(&self, id: u64);
    fn zero_after_report(&self);
    fn zero_on_register(&self);
}

impl Field for Lease {
    fn new(id: u64) -> Self {
        Lease::new(id)
    }
    fn get(&self) -> u64 {
        Lease::get(self)
    }
    fn grant(&self, id: u64) {
        Lease::grant(self, id)
    }
    fn zero_after_report(&self) {
        Lease::zero_after_report(self)
    }
    fn zero_on_register(&self) {
        Lease::zero_on_register(self)
    }
}

/// What the lease was before: one `SeqCst` loom atomic.
struct Atomic(AtomicU64);

impl Field for Atomic {
    fn new(id: u64) -> Self {
        Atomic(AtomicU64::new(id))
    }
    fn get(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
    fn grant(&self, id: u64) {
        self.0.store(id, Ordering::SeqCst)
    }
    fn zero_after_report(&self) {
        self.0.store(0, Ordering::SeqCst)
    }
    fn zero_on_register(&self) {
        self.0.store(0, Ordering::SeqCst)
    }
}

/// Every interleaving of the actor thread (`actor`, on main) against `register` (no bound, no
/// limit): the executions and every (what the actor read, the value once both joined).
fn explore<F: Field>(actor: fn(&F) -> u64) -> (u64, BTreeSet<(u64, u64)>) {
    every_execution(move || {
        let lease = Arc::new(F::new(7));
        let other = lease.clone();
        let t = loom::thread::spawn(move || other.zero_on_register());
        let read = actor(&lease);
        t.join().expect("the spawned thread panicked");
        (read, lease.get())
    })
}

/// The actor's iterations: an FBR's `finally`, then the next heartbeat's check, a grant and the
/// next `blockReport`'s read (what a history's actor thread does while `register` runs).
fn report_then_heartbeat<F: Field>(lease: &F) -> u64 {
    lease.zero_after_report();
    let before = lease.get();
    lease.grant(9);
    before * 100 + lease.get()
}

fn report_only<F: Field>(lease: &F) -> u64 {
    lease.zero_after_report();
    lease.get()
}

#[test]
fn the_actor_and_main_read_what_they_read_with_a_loom_atomic() {
    /// One actor program, on the lease and on the loom atomic.
    type Both = (fn(&Lease) -> u64, fn(&Atomic) -> u64);
    let actors: [Both; 2] = [
        (report_then_heartbeat, report_then_heartbeat),
        (report_only, report_only),
    ];
    for actor in actors {
        let (_, lease) = explore(actor.0);
        let (_, atomic) = explore(actor.1);
        assert_eq!(lease, atomic);
    }
}

#[test]
fn the_zeroing_after_a_report_is_not_ordered_against_registers() {
    let (lease, values) = explore(report_only::<Lease>);
    let (atomic, _) = explore(report_only::<Atomic>);
    assert_eq!(values, BTreeSet::from([(0, 0)]));
    assert_eq!(lease, 1, "the zeroings are not ordered");
    assert!(atomic > 1, "{atomic} executions on a loom atomic");
}
