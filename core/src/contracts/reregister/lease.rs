//! `BPServiceActor.fullBlockReportLeaseId`: a plain `long`. The actor thread reads it (each
//! heartbeat, and before `blockReport`), sets it from a heartbeat answer, and zeroes it in
//! `blockReport`'s `finally`; the command thread's `register` zeroes it. No other thread
//! touches it.
//!
//! The actor's zeroing in `finally` is no scheduling point for loom. The only access another
//! thread makes is `register`'s store of the same 0, and no other thread reads the field, so that
//! store and this one commute with each other, and this one commutes with every access another
//! thread can make: loom ordering them only multiplied executions (trunk's
//! `double-register/standby`: 89,464 with it, 15,998 without; DESIGN-NOTES, "What loom
//! explores"). What the actor reads afterwards is 0 whatever the command thread does (its own
//! last write, or a later 0), so until it stores a grant again it reads 0 without asking loom
//! either. Every other access is
//! loom's, as a `SeqCst` atomic with loom's stale reads, as before.

use super::speed::counted::{unseen, AtomicU64, Ordering::SeqCst};

#[derive(Debug)]
pub struct Lease {
    /// The id the heartbeat granted and `register` zeroes (loom's atomic).
    id: AtomicU64,
    /// Whether the actor thread's last write was `blockReport`'s zeroing, which `id` does not
    /// hold (read and written by the actor thread only, and by main once the threads joined).
    zeroed_after_report: unseen::AtomicBool,
}

impl Lease {
    pub fn new(id: u64) -> Self {
        Lease {
            id: AtomicU64::new(id),
            zeroed_after_report: unseen::AtomicBool::new(false),
        }
    }

    /// The lease id (the actor thread, or main once the threads joined).
    pub fn get(&self) -> u64 {
        if self.zeroed_after_report.load(unseen::Ordering::Relaxed) {
            0
        } else {
            self.id.load(SeqCst)
        }
    }

    /// The heartbeat answer's lease, on the actor thread.
    pub fn grant(&self, id: u64) {
        self.zeroed_after_report
            .store(false, unseen::Ordering::Relaxed);
        self.id.store(id, SeqCst);
    }

    /// `blockReport`'s `finally { fullBlockReportLeaseId = 0; }`, on the actor thread: no
    /// scheduling point (see the module doc).
    pub fn zero_after_report(&self) {
        self.zeroed_after_report
            .store(true, unseen::Ordering::Relaxed);
    }

    /// `register`'s `fullBlockReportLeaseId = 0`, on the command thread: the one store another
    /// thread makes, always of 0.
    pub fn zero_on_register(&self) {
        self.id.store(0, SeqCst);
    }
}
