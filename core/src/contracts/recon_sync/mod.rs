//! recon-sync — HDDS-17042: a manual Recon task rebuild requested while a delta sync is being
//! applied makes the tasks apply that delta twice.
//!
//! Components: [`om::OzoneManager`] (its RocksDB, sequence-numbered write batches,
//! `getDBUpdates`); [`recon_om_db::ReconOMMetadataManager`] (Recon's OM DB copy, its checkpoints,
//! `OMDBUpdatesHandler`); [`service_provider`] (`OzoneManagerServiceProviderImpl`: the sync thread
//! `syncDataFromOM` and the REST thread's `triggerTaskRebuild`, where the fix's lock lives);
//! [`task_controller::ReconTaskControllerImpl`] (its monitor, the event buffer and the event
//! processor thread); [`nssummary`] (`NSSummaryTask` and the Recon DB it writes);
//! [`reentrant_lock`] (the fix's lock); [`sync_scheduler`] (the sync thread's executor, and the
//! REST thread's `triggerSyncDataFromOMImmediately`, which replaces it).
//!
//! The outcomes and variants beyond the report's, the baseline and where each finding stands
//! are in `DESIGN-NOTES.md` beside this file; the claims matrix is in [`claims`].

pub mod claims;
pub mod findings;
#[cfg(feature = "histories")]
pub mod histories;
pub mod nssummary;
pub mod om;
pub mod premises;
pub mod recon_om_db;
pub mod reentrant_lock;
pub mod reproductions;
pub mod scenarios;
pub mod service_provider;
pub mod sync_scheduler;
pub mod task_controller;
pub mod trigger_sync;
pub mod upstream;
pub mod world;

pub use reproductions::*;
pub use scenarios::*;
use world::{applied_twice, never_applied, never_returns};
pub use world::{delete, file, joined, put, BUCKET};

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{Baseline, Contract, Model, Part, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use crate::sync::unseen::AtomicU64 as GhostU64;
use om::{KeyOp, OzoneManager};
use recon_om_db::ReconOMMetadataManager;
use reentrant_lock::Forever;
use service_provider::{
    HandOffLock, LockFrom, LockUntil, OzoneManagerServiceProviderImpl, RestSpan,
};
use task_controller::ReconTaskControllerImpl;

crate::switches! {
    pub struct Fix {
        /// P1 (`from: RpcReturned, until: HandOff`): the hand-off lock. `None` upstream.
        0 => pub hand_off_lock: Option<HandOffLock> = None,
    }
}

/// The fix has one switch, the lock with its span, so P1 and each alternative design (A1–A4)
/// set the whole of it: whatever it is applied to, the lock is that design's.
const fn lock(from: LockFrom, until: LockUntil, rest: RestSpan) -> Fix {
    Fix {
        hand_off_lock: Switch::new(Some(HandOffLock { from, until, rest })),
    }
}

pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "a hand-off lock in OzoneManagerServiceProviderImpl: the sync thread takes it after \
              the OM RPC has returned and before the first commit and releases it after \
              consumeOMEvents; triggerTaskRebuild takes it around queueReInitializationEvent",
    on: |_| {
        lock(
            LockFrom::RpcReturned,
            LockUntil::HandOff,
            RestSpan::Queueing,
        )
    },
};

pub const A1: Part<Fix> = Part {
    id: "A1",
    summary: "(the alternative the report rejected, not a part of the fix) the same lock taken \
              before the OM RPC, so that it spans the RPC and its retries",
    on: |_| lock(LockFrom::BeforeRpc, LockUntil::HandOff, RestSpan::Queueing),
};

pub const A3: Part<Fix> = Part {
    id: "A3",
    summary: "(a design to rule out, not a part of the fix) P1 with its release not in a \
              finally: an exception between the commit and the hand-off skips it, and the lock \
              stays held by SyncOM-0, which re-enters it in later syncs (a thread that \
              triggerSyncDataFromOMImmediately starts in its place waits for it forever)",
    on: |_| {
        lock(
            LockFrom::RpcReturned,
            LockUntil::HandOffNoFinally,
            RestSpan::Queueing,
        )
    },
};

pub const A4: Part<Fix> = Part {
    id: "A4",
    summary: "(a design to rule out, not a part of the fix) P1 released in syncDataFromOM's \
              finally: held across executeFullSnapshot after a failed delta (getServiceList and \
              the snapshot download from OM)",
    on: |_| {
        lock(
            LockFrom::RpcReturned,
            LockUntil::SyncEnd,
            RestSpan::Queueing,
        )
    },
};

pub const A2: Part<Fix> = Part {
    id: "A2",
    summary: "(a broken design, not a part of the fix) P1's sync side, but triggerTaskRebuild \
              holds the lock only around createOMCheckpoint: it drains the buffer before and \
              offers the rebuild after, outside the lock",
    on: |_| {
        lock(
            LockFrom::RpcReturned,
            LockUntil::HandOff,
            RestSpan::Checkpoint,
        )
    },
};

/// The patch.
pub const PROPOSED: &[&Part<Fix>] = &[&P1];

/// Everything the actors share.
#[derive(Debug)]
pub struct World {
    pub fix: Fix,
    pub om: OzoneManager,
    pub recon_om_db: ReconOMMetadataManager,
    pub controller: ReconTaskControllerImpl,
    pub provider: OzoneManagerServiceProviderImpl,
    /// Ghost: for O1, O2, O3 and O5, the [`World::version`] at which the outcome's predicate
    /// last found nothing (`u64::MAX` before); see [`World::unless_absent`].
    absent: [GhostU64; 4],
}

pub struct ReconSync;

/// O1: a whole delta applied twice.
pub static O1: Outcome<World> = Outcome {
    id: "O1",
    summary: "a delta is applied twice: the rebuild's checkpoint holds all of it and it \
              is processed again after the rebuild (NSSummary too high after a put, too \
              low after a delete)",
    check: Check::State(|w| w.unless_absent(0, |w| applied_twice(w, true))),
};

/// O2: the committed prefix of a delta applied twice, the rest once.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary: "the rebuild's checkpoint falls between two write-batch commits of one \
              delta: the committed prefix is applied twice, the rest once",
    check: Check::State(|w| w.unless_absent(1, |w| applied_twice(w, false))),
};

/// O3: a committed write batch never applied (HDDS-5146), whatever the cause.
pub static O3: Outcome<World> = Outcome {
    id: "O3",
    summary: "a write batch committed to the Recon OM DB is never applied, whatever the \
              cause (HDDS-5146: the sync failed between its commit and its hand-off)",
    check: Check::State(|w| w.unless_absent(2, |w| never_applied(w, &|_| true))),
};

/// O4: liveness of a manual rebuild while the sync hangs in the OM RPC.
pub static O4: Outcome<World> = Outcome {
    id: "O4",
    summary: "a manual rebuild requested while the sync thread is stuck in the OM RPC \
              never completes (triggerTaskRebuild waits forever, or no rebuild runs)",
    check: Check::State(|w| match w.provider.rebuild_blocked() {
        Some(why @ Forever::InGetDbUpdates) => Some(never_returns(why)),
        Some(_) => None,
        None => {
            let none_ran = w.provider.rebuilds_accepted() > 0
                && w.controller.with_quiescent(|q| q.rebuilds == 0);
            none_ran.then(|| {
                let q = w.controller.quiescent_db();
                w.witness(format_args!("a rebuild was accepted and none ran: "), &q)
            })
        }
    }),
};

/// O5: O3 with no fault to explain it: the lost batch's sync handed its events off.
pub static O5: Outcome<World> = Outcome {
    id: "O5",
    summary: "a write batch committed to the Recon OM DB is never applied although the sync \
              that committed it did not fail: it handed the batch's events off",
    check: Check::State(|w| {
        w.unless_absent(3, |w| {
            never_applied(w, &|delta| !w.provider.delta_failed(delta))
        })
    }),
};

/// O6: liveness of a manual rebuild when the hand-off lock's holder is anywhere else: O4 and
/// O6 split "triggerTaskRebuild waits forever" by where the holder is, and together cover it.
pub static O6: Outcome<World> = Outcome {
    id: "O6",
    summary: "a manual rebuild never completes because the sync thread keeps the hand-off lock \
              outside the OM RPC: inside the full-snapshot fallback's download, or after \
              syncDataFromOM has returned (a hold no finally released)",
    check: Check::State(|w| match w.provider.rebuild_blocked() {
        Some(Forever::InGetDbUpdates) | None => None,
        Some(why) => Some(never_returns(why)),
    }),
};

/// O7: liveness of the sync itself.
pub static O7: Outcome<World> = Outcome {
    id: "O7",
    summary: "the OM sync stops for good: a sync thread waits forever for the hand-off lock \
              (triggerSyncDataFromOMImmediately replaced the thread that keeps it), with \
              isSyncDataFromOMRunning set, so every later scheduled run and every \
              GET /triggerdbsync/om answers that a sync is running",
    check: Check::State(|w| {
        w.provider.sync_blocked().map(|blocked| {
            format!(
                "{blocked}; Recon OM DB at #{}, OM at #{}",
                w.recon_om_db.sequence_number(),
                w.om.sequence_number()
            )
        })
    }),
};

/// O8: the `scheduler` field raced by two manual syncs.
pub static O8: Outcome<World> = Outcome {
    id: "O8",
    summary: "(from the code) two GET /api/v1/triggerdbsync/om at once: both REST threads find no sync \
              running and read (stopSyncDataFromOMThread) and write (scheduler = newScheduledThreadPool) \
              OzoneManagerServiceProviderImpl.scheduler, a plain field, with no lock: a data race (the \
              field keeps one executor, the other syncs on, unreferenced)",
    check: Check::Race,
};

impl Model for ReconSync {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "recon-sync",
        module: "recon_sync",
        report: "HDDS-17042",
        title: "Recon manual task rebuild during a delta sync applies that delta twice",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] = &[&O1, &O2, &O3, &O4, &O5, &O6, &O7, &O8];
    const BASELINES: &'static [Baseline<Fix>] = &[Baseline {
        name: REPORT,
        repo: "apache/ozone",
        commit: "78d5650c313f2fa0731bdf08b76d4604090dabca",
        about: "Ozone master of 2026-08-23, read for the model",
        changes: &[],
    }];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("proposed", PROPOSED),
        Variant::new("A1", &[&A1]),
        Variant::new("A2", &[&A2]),
        Variant::new("A3", &[&A3]),
        Variant::new("A4", &[&A4]),
    ];
    const FINDINGS: &'static [Finding] = findings::FINDINGS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    /// The observable state, in the report's words (also the final state the two
    /// exhaustive checkers compare).
    fn describe(w: &World) -> String {
        let q = w.controller.quiescent();
        let recon = w.recon_om_db.state().seq;
        format!(
            "{} (bucket{BUCKET}); Recon OM DB at #{recon}; {q} (omSeq={} reconOmDbSeq={recon})",
            w.as_reported(),
            w.om.sequence_number()
        )
    }
}

impl Claimed for ReconSync {
    const CLAIMS: Claims<Self> = claims::CLAIMS;
}
