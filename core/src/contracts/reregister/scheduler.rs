//! `BPServiceActor.Scheduler`: when the actor thread sends its next heartbeat and its next full
//! block report (FBR). It is shared by the actor thread (`scheduleNextBlockReport` after every
//! FBR) and the command thread (`scheduleBlockReport(delay, true)` in `register`).
//!
//! `nextBlockReportTime` is an `AtomicLong` and `resetBlockReportTime` a plain boolean, and no
//! lock spans a read-modify-write of the pair: a registration's request for an FBR "now" can be
//! overwritten by the rescheduling of an FBR that was already in flight (the report's step 10).
//! Each upstream write is its own step here, so the step driver interleaves them as loom does.
//!
//! P1 adds a registration epoch and a lock that makes a request and a rescheduling one critical
//! section each: an FBR whose snapshot started before a registration leaves that registration's
//! request in place.

use super::speed::counted::{unseen, AtomicBool, AtomicU64, Mutex, Ordering::SeqCst, RaceCell};
use super::Millis;
use crate::splitmix::SplitMix64;
use crate::trace::Cx;

/// P1: the sticky FBR request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P1 {
    Off,
    /// The epoch is read before `blockReport`'s drain; requests and reschedulings hold the
    /// scheduler's request lock.
    Sticky,
    /// Mutant: compares with the registration current when the RPC returns (always equal).
    LateEpoch,
    /// Mutant: the rescheduling checks the epoch without the request lock.
    Unlocked,
}

/// `dfs.heartbeat.interval`: 3 s.
pub const HEARTBEAT_INTERVAL: Millis = 3_000;
/// `dfs.blockreport.intervalMsec`: 6 h.
pub const BLOCK_REPORT_INTERVAL: Millis = 21_600_000;
/// `dfs.blockreport.initialDelay`: 0, so `register` asks for an FBR at the next heartbeat.
pub const INITIAL_BLOCK_REPORT_DELAY: Millis = 0;

/// `resetBlockReportTime`: the plain field as a [`RaceCell`] (its accesses race-tracked under
/// loom in a race cell, serialized otherwise), or as an atomic.
#[derive(Debug)]
enum ResetFlag {
    Atomic(AtomicBool),
    Plain(RaceCell<bool>),
}

impl ResetFlag {
    fn new(value: bool, plain: bool) -> Self {
        if plain {
            ResetFlag::Plain(RaceCell::new(value))
        } else {
            ResetFlag::Atomic(AtomicBool::new(value))
        }
    }

    fn load(&self) -> bool {
        match self {
            ResetFlag::Atomic(a) => a.load(SeqCst),
            ResetFlag::Plain(c) => c.with(|v| *v),
        }
    }

    fn store(&self, value: bool) {
        match self {
            ResetFlag::Atomic(a) => a.store(value, SeqCst),
            ResetFlag::Plain(c) => c.with_mut(|v| *v = value),
        }
    }

    fn duplicate(&self) -> Self {
        Self::new(self.load(), matches!(self, ResetFlag::Plain(_)))
    }
}

#[derive(Debug)]
pub struct Scheduler {
    /// An `AtomicLong` upstream. Times are logical milliseconds (two's complement, as Java's
    /// `long`, so that `next - now <= 0` reads as upstream's).
    next_block_report_time: AtomicU64,
    /// A plain `boolean` upstream, written by both threads without a lock: a race-tracked
    /// cell in the scenarios that decide O7 (the data race), an atomic elsewhere. Either way a
    /// state outcome sees the same values: the command thread only ever writes `true`, and a
    /// stale `false` read by the actor makes `scheduleNextBlockReport` advance by a whole
    /// interval instead of a random part of one, which loses a registration's request all the
    /// same (DESIGN-NOTES).
    reset_block_report_time: ResetFlag,
    /// `volatile long nextHeartbeatTime`.
    next_heartbeat_time: AtomicU64,
    /// P1: registrations so far; a request and a rescheduling each hold `request`.
    epoch: AtomicU64,
    request: Mutex<()>,
    /// `ThreadLocalRandom`: per-thread upstream, so not a synchronization point.
    rng: unseen::Mutex<SplitMix64>,
}

/// What the in-flight FBR's `scheduleNextBlockReport` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rescheduled {
    /// `resetBlockReportTime` was set: the next FBR at a random time in the interval.
    Random,
    /// Advanced by whole intervals to the next slot.
    Periodic,
    /// P1: a registration made after this FBR's snapshot started; its request is kept.
    KeptNewerRequest,
}

impl Scheduler {
    /// The state after the actor has started: an FBR due at `next_block_report`, the next
    /// heartbeat due at `next_heartbeat`, `reset` as the last `scheduleBlockReport` left it.
    /// With `plain_reset`, `resetBlockReportTime` is a race-tracked cell (see [`ResetFlag`]).
    pub fn new(
        next_block_report: Millis,
        reset: bool,
        next_heartbeat: Millis,
        seed: u64,
        plain_reset: bool,
    ) -> Self {
        Scheduler {
            next_block_report_time: AtomicU64::new(next_block_report as u64),
            reset_block_report_time: ResetFlag::new(reset, plain_reset),
            next_heartbeat_time: AtomicU64::new(next_heartbeat as u64),
            epoch: AtomicU64::new(0),
            request: Mutex::new(()),
            rng: unseen::Mutex::new(SplitMix64(seed)),
        }
    }

    /// A copy in the same state (for quiescence, which runs on a copy of the world).
    pub fn duplicate(&self) -> Self {
        Scheduler {
            next_block_report_time: AtomicU64::new(self.next_block_report_time.load(SeqCst)),
            reset_block_report_time: self.reset_block_report_time.duplicate(),
            next_heartbeat_time: AtomicU64::new(self.next_heartbeat_time.load(SeqCst)),
            epoch: AtomicU64::new(self.epoch()),
            request: Mutex::new(()),
            rng: unseen::Mutex::new(self.rng.lock().clone()),
        }
    }

    /// Appends the times, the reset flag, the epoch and the generator's state to `fingerprint` (see
    /// `World::fingerprint`).
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        fingerprint.extend([
            self.next_block_report_time.load(SeqCst),
            u64::from(self.reset_block_report_time.load()),
            self.next_heartbeat_time.load(SeqCst),
            self.epoch(),
            self.rng.lock().0,
        ]);
    }

    /// Seeds `ThreadLocalRandom` (the delay reproduction draws over many seeds).
    pub fn reseed(&self, seed: u64) {
        *self.rng.lock() = SplitMix64(seed);
    }

    pub fn next_block_report_time(&self) -> Millis {
        self.next_block_report_time.load(SeqCst) as Millis
    }

    pub fn is_block_report_due(&self, now: Millis) -> bool {
        self.next_block_report_time() - now <= 0
    }

    pub fn is_heartbeat_due(&self, now: Millis) -> bool {
        self.next_heartbeat_time.load(SeqCst) as Millis - now <= 0
    }

    pub fn next_heartbeat_time(&self) -> Millis {
        self.next_heartbeat_time.load(SeqCst) as Millis
    }

    /// `scheduleHeartbeat`: the next heartbeat now.
    pub fn schedule_heartbeat(&self, cx: &Cx, now: Millis) {
        self.next_heartbeat_time.store(now as u64, SeqCst);
        crate::record!(cx, "Scheduler.scheduleHeartbeat", "nextHeartbeatTime={now}");
    }

    /// `scheduleNextHeartbeat`, at the start of `sendHeartBeat`.
    pub fn schedule_next_heartbeat(&self, now: Millis) {
        self.next_heartbeat_time
            .store((now + HEARTBEAT_INTERVAL) as u64, SeqCst);
    }

    /// The registration epoch (P1), read by `blockReport` before its IBR drain.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(SeqCst)
    }

    /// `scheduleBlockReport(initialDelay, true)`, first write: `nextBlockReportTime.getAndSet`.
    /// The delay is 0 (the default): the FBR is due now.
    pub fn schedule_block_report_time(&self, cx: &Cx, now: Millis, ghost: impl FnOnce()) {
        self.next_block_report_time.swap(now as u64, SeqCst);
        ghost();
        crate::record!(
            cx,
            "Scheduler.scheduleBlockReport",
            "nextBlockReportTime={now} (due now)"
        );
    }

    /// `scheduleBlockReport`, second write: `resetBlockReportTime = isRegistration`.
    pub fn set_reset(&self, cx: &Cx, reset: bool) {
        self.reset_block_report_time.store(reset);
        crate::record!(
            cx,
            "Scheduler.scheduleBlockReport",
            "resetBlockReportTime={reset}"
        );
    }

    /// P1's `scheduleBlockReport(delay, true)`: the request, its `reset` and a new epoch in one
    /// critical section.
    pub fn request_registration_report(&self, cx: &Cx, now: Millis, ghost: impl FnOnce()) {
        let _request = self.request.lock();
        self.next_block_report_time.swap(now as u64, SeqCst);
        self.reset_block_report_time.store(true);
        let epoch = self.epoch.fetch_add(1, SeqCst) + 1;
        ghost();
        crate::record!(
            cx,
            "Scheduler.scheduleBlockReport",
            "nextBlockReportTime={now} (due now) resetBlockReportTime=true epoch={epoch}"
        );
    }

    /// `scheduleNextBlockReport`, first part: read `resetBlockReportTime` and write
    /// `nextBlockReportTime` (a random time in the interval, or the next periodic slot). The
    /// second write (`reset = false`) is [`Scheduler::clear_reset`], a separate step.
    pub fn schedule_next_block_report_time(&self, cx: &Cx, now: Millis) -> Rescheduled {
        let reset = self.reset_block_report_time.load();
        let (how, next) = self.reschedule(now, reset);
        crate::record!(
            cx,
            "Scheduler.scheduleNextBlockReport",
            "resetBlockReportTime={reset} -> nextBlockReportTime={next}"
        );
        how
    }

    /// `scheduleNextBlockReport`, second part: `resetBlockReportTime = false` (only after a
    /// random rescheduling).
    pub fn clear_reset(&self, cx: &Cx) {
        self.reset_block_report_time.store(false);
        cx.record(
            "Scheduler.scheduleNextBlockReport",
            "resetBlockReportTime=false",
        );
    }

    /// P1's `scheduleNextBlockReport(epochAtStart)`: under the request lock, a request made by a
    /// registration newer than this FBR's start stays; otherwise as upstream, in one step.
    pub fn schedule_next_block_report_since(
        &self,
        cx: &Cx,
        now: Millis,
        p1: P1,
        epoch_at_start: u64,
    ) -> Rescheduled {
        let _request = (p1 != P1::Unlocked).then(|| self.request.lock());
        let epoch = self.epoch();
        // The mutant compares with the epoch read now, i.e. with the current registration.
        let since = if p1 == P1::LateEpoch {
            epoch
        } else {
            epoch_at_start
        };
        if epoch != since {
            crate::record!(
                cx,
                "Scheduler.scheduleNextBlockReport",
                "epoch {since} -> {epoch}: a newer registration's request stays"
            );
            return Rescheduled::KeptNewerRequest;
        }
        let reset = self.reset_block_report_time.load();
        let (how, next) = self.reschedule(now, reset);
        if reset {
            self.reset_block_report_time.store(false);
        }
        crate::record!(
            cx,
            "Scheduler.scheduleNextBlockReport",
            "epoch {epoch} unchanged, resetBlockReportTime={reset} -> nextBlockReportTime={next}"
        );
        how
    }

    /// Writes `nextBlockReportTime` as `scheduleNextBlockReport` does; returns what it wrote.
    fn reschedule(&self, now: Millis, reset: bool) -> (Rescheduled, Millis) {
        if reset {
            let next = now + self.next_random(BLOCK_REPORT_INTERVAL);
            self.next_block_report_time.swap(next as u64, SeqCst);
            (Rescheduled::Random, next)
        } else {
            // "say the last block report was at 8:20:14 ...": whole intervals past `next`.
            let next = self.next_block_report_time();
            let factor = (now - next + BLOCK_REPORT_INTERVAL) / BLOCK_REPORT_INTERVAL;
            let step = if factor != 0 { factor } else { 1 } * BLOCK_REPORT_INTERVAL;
            let before = self.next_block_report_time.fetch_add(step as u64, SeqCst) as Millis;
            (Rescheduled::Periodic, before + step)
        }
    }

    /// `ThreadLocalRandom.current().nextInt(bound)`.
    fn next_random(&self, bound: Millis) -> Millis {
        let mut rng = self.rng.lock();
        (rng.next_u64() % bound as u64) as Millis
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::trace::Trace;

    /// `scheduleNextBlockReport` without a reset keeps the FBR on its grid: the next slot
    /// after a report on time is one interval on; after one that ran 2.5 intervals late, the
    /// first slot after now (three intervals on), not a slot in the past.
    #[test]
    fn a_periodic_rescheduling_moves_to_the_next_slot_of_the_grid() {
        let (trace, next) = (Trace::new(), 3 * BLOCK_REPORT_INTERVAL + 1_000);
        for (now, slots) in [(next, 1), (next + 5 * BLOCK_REPORT_INTERVAL / 2, 3)] {
            let s = Scheduler::new(next, false, 0, 1, false);
            let how = s.schedule_next_block_report_time(&trace.actor("test"), now);
            assert_eq!(how, Rescheduled::Periodic);
            let expected = next + slots * BLOCK_REPORT_INTERVAL;
            assert_eq!(s.next_block_report_time(), expected, "now {now}");
        }
    }
}
