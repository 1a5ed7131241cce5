//! HDFS-17953's second clear-then-FBR path, argued on the model's [`Scheduler`] (RR-2).
//!
//! On trunk, `IncrementalBlockReportManager.clearIBRsIfNeeded()` (synchronized) empties
//! `pendingIBRs` once `pendingBlockCount` reaches `dfs.datanode.ibr.max.pending.blocks`
//! (default 1,000,000; 0 disables it) and returns `true`; its caller must then ask for a full
//! block report. The caller in `BPServiceActor` is not in the stored sources, so which thread
//! clears and whether it asks with `scheduleBlockReport(0, …)` is not read. The question is
//! whether an FBR already in flight can overwrite that request, as it overwrites a
//! registration's (O2): the cleared blocks are then unknown to the NameNode until the periodic
//! FBR (O1's predicate: no FBR snapshot after the drop).
//!
//! Every order of whole steps of the in-flight FBR (snapshot, then `scheduleNextBlockReport`,
//! as [`super::actor`] splits it) and of the cap's clear-then-request is run on a
//! [`Scheduler`]: the clear on the actor thread is never overwritten. On that thread it runs
//! between two `blockReport`s, or inside one's IBR send after `putMissing` (the count grows
//! there only when the IBR RPC failed, and `sendIBRs` then throws out of `blockReport` before
//! its snapshot and its rescheduling), so no rescheduling follows it. The clear on any other
//! thread (the writer's `notifyNamenodeBlock` walks the actors on the DataXceiver thread) is
//! overwritten, and P1 as built covers it only if the cap's request bumps P1's epoch as a
//! registration does.
//!
//! Reaching the cap during an in-flight FBR needs the FBR's own IBR drain to have succeeded
//! (`generateIBRs` resets `pendingBlockCount`; a failed IBR RPC re-queues and throws before
//! the snapshot) and then `max.pending.blocks` new notifications before its RPC returns: a
//! million at the default, a handful with a small cap.

use super::scheduler::{Rescheduled, Scheduler, BLOCK_REPORT_INTERVAL};
use super::P1;
use crate::trace::{Cx, Trace};

/// Where the caller of `clearIBRsIfNeeded` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CapThread {
    /// `offerService`, between two iterations' `blockReport`s.
    Actor,
    /// Any other thread (the writer's `notifyNamenodeBlock`): its steps interleave with the
    /// in-flight FBR's.
    Other,
}

/// How the cap's caller asks for the FBR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    /// `scheduleBlockReport(0, false)`: `nextBlockReportTime = now`, then
    /// `resetBlockReportTime = false`, two writes.
    Upstream,
    /// With P1: a request under P1's lock that bumps the epoch, as `register`'s does.
    P1Epoch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `blockReport`: the IBR drain and `getBlockReports` (P1 reads its epoch before them).
    Snapshot,
    /// `scheduleNextBlockReport` (upstream: the time, then `reset = false` after a random one).
    Reschedule,
    ClearReset,
    /// `clearIBRsIfNeeded()` at the cap: the queue is emptied.
    Clear,
    RequestTime,
    RequestReset,
}

struct Run {
    scheduler: Scheduler,
    p1: P1,
    tick: u32,
    snapshot: Option<u32>,
    cleared: Option<u32>,
    epoch_at_start: u64,
    rescheduled: Option<Rescheduled>,
}

/// Now: the FBR in flight was due and nothing moves the clock during it.
const NOW: i64 = 10 * BLOCK_REPORT_INTERVAL;

impl Run {
    fn new(p1: P1) -> Self {
        Run {
            scheduler: Scheduler::new(NOW, false, NOW, 7, false),
            p1,
            tick: 0,
            snapshot: None,
            cleared: None,
            epoch_at_start: 0,
            rescheduled: None,
        }
    }

    fn step(&mut self, cx: &Cx, step: Step) {
        self.tick += 1;
        match step {
            Step::Snapshot => {
                self.epoch_at_start = self.scheduler.epoch();
                self.snapshot = Some(self.tick);
            }
            Step::Reschedule if self.p1 == P1::Off => {
                let how = self.scheduler.schedule_next_block_report_time(cx, NOW);
                self.rescheduled = Some(how);
            }
            Step::Reschedule => {
                let how = self.scheduler.schedule_next_block_report_since(
                    cx,
                    NOW,
                    self.p1,
                    self.epoch_at_start,
                );
                self.rescheduled = Some(how);
            }
            Step::ClearReset => {
                if self.rescheduled == Some(Rescheduled::Random) {
                    self.scheduler.clear_reset(cx);
                }
            }
            Step::Clear => self.cleared = Some(self.tick),
            Step::RequestTime => self.scheduler.schedule_block_report_time(cx, NOW, || {}),
            Step::RequestReset => self.scheduler.set_reset(cx, false),
        }
    }

    /// Whether the cleared blocks reach the NameNode by an FBR: the in-flight FBR's snapshot
    /// follows the clear, or an FBR is still due now (the cap's request stands).
    fn cleared_blocks_reported(&self) -> bool {
        let cleared = self.cleared.expect("the cap cleared");
        self.snapshot.is_some_and(|s| s > cleared) || self.scheduler.is_block_report_due(NOW)
    }
}

fn fbr_steps(p1: P1) -> Vec<Step> {
    match p1 {
        P1::Off => vec![Step::Snapshot, Step::Reschedule, Step::ClearReset],
        _ => vec![Step::Snapshot, Step::Reschedule],
    }
}

fn cap_steps(request: Request) -> Vec<Step> {
    match request {
        Request::Upstream => vec![Step::Clear, Step::RequestTime, Step::RequestReset],
        // One step: P1's request lock makes the clear's request one critical section.
        Request::P1Epoch => vec![Step::Clear, Step::RequestTime],
    }
}

/// Every order of the two threads' steps (only the two orders that keep the cap's steps
/// together, before or after the FBR, when both run on the actor thread).
fn orders(fbr: &[Step], cap: &[Step], thread: CapThread) -> Vec<Vec<Step>> {
    fn interleave(a: &[Step], b: &[Step], prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        if a.is_empty() || b.is_empty() {
            out.push([prefix.as_slice(), a, b].concat());
            return;
        }
        for (first, rest, other) in [(a[0], &a[1..], b), (b[0], &b[1..], a)] {
            prefix.push(first);
            interleave(rest, other, prefix, out);
            prefix.pop();
        }
    }
    match thread {
        CapThread::Actor => vec![[cap, fbr].concat(), [fbr, cap].concat()],
        CapThread::Other => {
            let mut out = Vec::new();
            interleave(fbr, cap, &mut Vec::new(), &mut out);
            out
        }
    }
}

/// The orders in which the cap's request is lost, and how many orders were run.
fn lost_orders(p1: P1, request: Request, thread: CapThread) -> (Vec<Vec<Step>>, usize) {
    let trace = Trace::new();
    let cx = trace.actor("test");
    let all = orders(&fbr_steps(p1), &cap_steps(request), thread);
    let lost = all
        .iter()
        .filter(|order| {
            let mut run = Run::new(p1);
            for &step in order.iter() {
                match (step, request) {
                    (Step::RequestTime, Request::P1Epoch) => {
                        run.tick += 1;
                        run.scheduler.request_registration_report(&cx, NOW, || {});
                    }
                    _ => run.step(&cx, step),
                }
            }
            !run.cleared_blocks_reported()
        })
        .cloned()
        .collect();
    (lost, all.len())
}

#[test]
fn a_cap_clear_on_the_actor_thread_is_never_overwritten_by_an_fbr() {
    for p1 in [P1::Off, P1::Sticky] {
        let (lost, runs) = lost_orders(p1, Request::Upstream, CapThread::Actor);
        assert_eq!((lost, runs), (vec![], 2), "{p1:?}");
    }
}

/// The twin at the same steps: off the actor thread the FBR's `scheduleNextBlockReport`
/// overwrites the cap's request after a snapshot taken before the clear (O1's loss), with or
/// without P1 as built, since the cap's request does not bump P1's epoch.
#[test]
fn a_cap_clear_off_the_actor_thread_is_overwritten_unless_its_request_bumps_p1s_epoch() {
    let (lost, runs) = lost_orders(P1::Off, Request::Upstream, CapThread::Other);
    assert_eq!(runs, 20);
    assert!(
        lost.contains(&vec![
            Step::Snapshot,
            Step::Clear,
            Step::RequestTime,
            Step::RequestReset,
            Step::Reschedule,
            Step::ClearReset,
        ]),
        "upstream: {lost:?}"
    );
    assert_eq!(lost.len(), 3, "upstream: {lost:?}");
    let (lost, runs) = lost_orders(P1::Sticky, Request::Upstream, CapThread::Other);
    assert_eq!((lost.len(), runs), (2, 10), "P1 as built: {lost:?}");
    let (lost, runs) = lost_orders(P1::Sticky, Request::P1Epoch, CapThread::Other);
    assert_eq!((lost, runs), (vec![], 6), "P1 covering the cap's request");
}
