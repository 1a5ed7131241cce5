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

pub use reproductions::*;
pub use scenarios::*;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{Baseline, Contract, Model, Part, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use crate::sync::unseen::{AtomicU64 as GhostU64, Ordering as GhostOrdering};
use nssummary::ReconDb;
use om::{Key, KeyOp, OmDb, OzoneManager};
use recon_om_db::{DeltaId, ReconOMMetadataManager, ReconOmDbState, FULL_SNAPSHOT};
use reentrant_lock::Forever;
use service_provider::{
    HandOffLock, LockFrom, LockUntil, OzoneManagerServiceProviderImpl, RestSpan,
};
use std::collections::BTreeMap;
use std::fmt;
use task_controller::ReconTaskControllerImpl;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    /// P1 (`from: RpcReturned, until: HandOff`): the hand-off lock. `None` upstream.
    pub hand_off_lock: Switch<Option<HandOffLock>, 0>,
}

crate::switches!(Fix { hand_off_lock });

impl Fix {
    pub const UPSTREAM: Fix = Fix {
        hand_off_lock: Switch::new(None),
    };
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

/// `items` separated by `sep`, formatted only when displayed: a step's record detail is
/// formatted only while recording (see [`crate::trace::Cx::record`]).
pub fn joined<'a, I>(items: I, sep: &'a str) -> impl fmt::Display + 'a
where
    I: IntoIterator + Clone + 'a,
    I::Item: fmt::Display,
{
    fmt::from_fn(move |f| {
        for (i, item) in items.clone().into_iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    })
}

/// The bucket every scenario writes to.
pub const BUCKET: u8 = 1;

pub fn file(name: u8) -> Key {
    Key {
        bucket: BUCKET,
        name,
    }
}

pub fn put(name: u8) -> KeyOp {
    KeyOp::Put {
        key: file(name),
        size: 100 * name as u64,
    }
}

pub fn delete(name: u8) -> KeyOp {
    KeyOp::Delete { key: file(name) }
}

impl World {
    /// OM holds `ops` (one write batch each) and Recon is in sync with it: its OM DB came from
    /// a full snapshot, NSSummary was rebuilt from it, and every cursor is OM's sequence number.
    pub fn in_sync(fix: Fix, ops: &[KeyOp]) -> World {
        World::in_sync_with_room(fix, ops, 0, 0)
    }

    /// [`World::in_sync`], with room in OM and in the Recon OM DB for `batches` more write
    /// batches and `keys` more keys (a history's, whose writes then do not regrow them).
    pub fn in_sync_with_room(fix: Fix, ops: &[KeyOp], batches: usize, keys: usize) -> World {
        let mut om = OmDb::with_room(ops.len() + batches, keys);
        for op in ops {
            om.apply(*op);
        }
        let recon = ReconOmDbState::from_om_with_room(&om, batches, keys);
        let mut recon_db = ReconDb::default();
        recon_db.reprocess_state(&recon);
        recon_db.rebuilds = 0;
        World {
            fix,
            om: OzoneManager::new(om),
            recon_om_db: ReconOMMetadataManager::new(recon),
            controller: ReconTaskControllerImpl::new(recon_db),
            provider: OzoneManagerServiceProviderImpl::default(),
            absent: std::array::from_fn(|_| GhostU64::new(u64::MAX)),
        }
    }

    /// A version of everything the predicates of O1, O2, O3 and O5 decide on (the event
    /// buffer, the Recon DB, the Recon OM DB and the provider's ghosts): each part counts its
    /// writes, so the sum changes whenever any of them is written. OM is not part of it: only
    /// the witnesses read OM.
    fn version(&self) -> u64 {
        self.controller.version() + self.recon_om_db.version() + self.provider.version()
    }

    /// `check(self)`, unless it found nothing at this very state before: the history checkers
    /// evaluate every predicate at every quiet state, and most operations write nothing these
    /// predicates read (an OM write, a step when no actor is left). Only "nothing" is kept: an
    /// outcome that holds is decided again, and its witness (which reads OM too) built afresh.
    fn unless_absent(
        &self,
        slot: usize,
        check: impl FnOnce(&World) -> Option<String>,
    ) -> Option<String> {
        let version = self.version();
        if self.absent[slot].load(GhostOrdering::SeqCst) == version {
            return None;
        }
        let found = check(self);
        if found.is_none() {
            self.absent[slot].store(version, GhostOrdering::SeqCst);
        }
        found
    }

    /// `OM files=<n> NSSummary files=<m>` for the bucket, as the report states its numbers
    /// (NSSummary once the event processor has applied everything buffered): what the
    /// reproductions compare with it (the whole observable state is `Model::describe`, which
    /// starts with this).
    pub fn as_reported(&self) -> String {
        let (om_files, _) = self.om.files_in(BUCKET);
        let ns = self.controller.quiescent().summary(BUCKET);
        format!("OM files={om_files} NSSummary files={}", ns.files)
    }

    /// A witness: `head`, then the OM and NSSummary numbers of the bucket. Written into one
    /// string sized once, with the buffer read in place (an admitted O3 under the fix has its
    /// witness built in every fuzz run that reaches it).
    fn witness(&self, head: fmt::Arguments<'_>, q: &ReconDb) -> String {
        use std::fmt::Write;
        let (files, size) = self.om.files_in(BUCKET);
        self.controller.with_pending(|pending| {
            let mut out = String::with_capacity(256);
            let _ = write!(
                out,
                "{head}OM bucket{BUCKET} files={files} size={size}; {q}"
            );
            if !pending.is_empty() {
                let _ = write!(
                    out,
                    " (once the processor has applied the still buffered [{}])",
                    joined(pending, ", ")
                );
            }
            out
        })
    }

    /// The invariant at quiescence: NSSummary equals what the Recon OM DB holds, and the
    /// Recon OM DB and the task cursor are at OM's sequence number. `None` when it holds.
    pub fn invariant_violation(&self) -> Option<String> {
        let om_seq = self.om.sequence_number();
        self.controller.with_quiescent(|q| {
            self.recon_om_db.with_state(|recon| {
                let mut expected = ReconDb::default();
                expected.reprocess_state(recon);
                // A bucket whose files are all gone keeps its (zero) NSSummary row.
                let mut buckets = q.nssummary.iter().chain(&expected.nssummary);
                if buckets.any(|(b, _)| q.summary(*b) != expected.summary(*b)) {
                    return Some(format!(
                        "NSSummary differs from the Recon OM DB: {q} vs recomputed {expected}"
                    ));
                }
                if q.cursor != recon.seq || recon.seq != om_seq {
                    return Some(format!(
                        "cursor #{} / Recon OM DB #{} / OM #{om_seq}",
                        q.cursor, recon.seq
                    ));
                }
                None
            })
        })
    }
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

/// The first write batch the Recon OM DB holds that produced an event and that NSSummary has
/// never applied, once the processor has applied everything buffered, among the batches of
/// the deltas `of` selects. A property of the final state alone: which window lost the batch
/// plays no part. One function for both outcomes (not inlined into each): a fuzz run pays for
/// every distinct code path.
#[inline(never)]
fn never_applied(w: &World, of: &dyn Fn(DeltaId) -> bool) -> Option<String> {
    let lost = w.controller.with_quiescent(|q| {
        w.recon_om_db.with_state(|recon| {
            recon
                .committed
                .iter()
                .find(|c| c.evented && q.applied(c.seq) == 0 && of(c.delta))
                .map(|c| c.seq)
        })
    })?;
    let q = w.controller.quiescent_db();
    Some(w.witness(
        format_args!("write batch #{lost} is in the Recon OM DB and was never applied: "),
        &q,
    ))
}

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

fn never_returns(why: Forever) -> String {
    format!("triggerTaskRebuild never returns: the hand-off lock is held by a sync thread, {why}")
}

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

/// Whether the evented write batches of some delta were applied twice: all of them (`whole`,
/// O1) or only a prefix (O2). Not inlined into each outcome, as [`never_applied`].
#[inline(never)]
fn applied_twice(w: &World, whole: bool) -> Option<String> {
    // Either outcome needs an evented delta batch applied at least twice: without one, neither
    // holds (the full check below finds `twice == 0` for every delta). Decided in place, with
    // no copy of either DB, since the predicates run at every quiet state of a history.
    let some_twice = w.controller.with_quiescent(|q| {
        w.recon_om_db.with_state(|recon| {
            recon
                .committed
                .iter()
                .any(|c| c.delta != FULL_SNAPSHOT && c.evented && q.applied(c.seq) >= 2)
        })
    });
    if !some_twice {
        return None;
    }
    let q = w.controller.quiescent_db();
    let recon = w.recon_om_db.state();
    // The evented write batches of every delta, with how often each was applied.
    let mut deltas: BTreeMap<u64, Vec<(u64, u32)>> = BTreeMap::new();
    for c in recon
        .committed
        .iter()
        .filter(|c| c.delta != FULL_SNAPSHOT && c.evented)
    {
        deltas
            .entry(c.delta)
            .or_default()
            .push((c.seq, q.applied(c.seq)));
    }
    deltas.values().find_map(|batches| {
        let twice = batches.iter().filter(|(_, n)| *n >= 2).count();
        let hit = twice > 0 && ((twice == batches.len()) == whole);
        hit.then(|| {
            let seqs: Vec<String> = batches.iter().map(|(s, _)| format!("#{s}")).collect();
            let all: Vec<String> = batches.iter().map(|(s, n)| format!("#{s}×{n}")).collect();
            w.witness(
                format_args!(
                    "delta [{}] applied as [{}]: ",
                    seqs.join(" "),
                    all.join(" ")
                ),
                &q,
            )
        })
    })
}

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
