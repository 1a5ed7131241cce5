//! Building a world in sync with OM, reading it, the key helpers the scenarios use, and the
//! predicates the outcomes share.

use super::nssummary::ReconDb;
use super::om::{Key, KeyOp, OmDb, OzoneManager};
use super::recon_om_db::{DeltaId, ReconOMMetadataManager, ReconOmDbState, FULL_SNAPSHOT};
use super::reentrant_lock::Forever;
use super::service_provider::OzoneManagerServiceProviderImpl;
use super::task_controller::ReconTaskControllerImpl;
use super::{Fix, World};
use crate::sync::unseen::{AtomicU64 as GhostU64, Ordering as GhostOrdering};
use std::collections::BTreeMap;
use std::fmt;
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
    pub(super) fn version(&self) -> u64 {
        self.controller.version() + self.recon_om_db.version() + self.provider.version()
    }

    /// `check(self)`, unless it found nothing at this very state before: the history checkers
    /// evaluate every predicate at every quiet state, and most operations write nothing these
    /// predicates read (an OM write, a step when no actor is left). Only "nothing" is kept: an
    /// outcome that holds is decided again, and its witness (which reads OM too) built afresh.
    pub(super) fn unless_absent(
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
    pub(super) fn witness(&self, head: fmt::Arguments<'_>, q: &ReconDb) -> String {
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

/// The first write batch the Recon OM DB holds that produced an event and that NSSummary has
/// never applied, once the processor has applied everything buffered, among the batches of
/// the deltas `of` selects. A property of the final state alone: which window lost the batch
/// plays no part. One function for both outcomes (not inlined into each): a fuzz run pays for
/// every distinct code path.
pub(super) fn never_applied(w: &World, of: &dyn Fn(DeltaId) -> bool) -> Option<String> {
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

/// Whether the evented write batches of some delta were applied twice: all of them (`whole`,
/// O1) or only a prefix (O2). Not inlined into each outcome, as [`never_applied`].
pub(super) fn applied_twice(w: &World, whole: bool) -> Option<String> {
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

pub(super) fn never_returns(why: Forever) -> String {
    format!("triggerTaskRebuild never returns: the hand-off lock is held by a sync thread, {why}")
}
