//! A delete on a datanode's `DeleteContainerCommandHandler` executor thread:
//! `ContainerController.deleteContainer` → `KeyValueHandler.deleteInternal(container, force)`.
//!
//! Upstream: `getContainerWithWriteLock` (get, `writeLock`, get again, same object); without
//! force an OPEN or non-empty replica is refused (the force delete of moves and excess
//! replicas skips both checks); `markContainerForDelete` (DELETED);
//! `ContainerSet.removeContainer(id)`, which is `containerMap.remove` and then
//! `deleteFromContainerTable` — the ID is not added to `missingContainerSet`, and nothing
//! touches `container2BCSIDMap`; `KeyValueContainerUtil.removeContainer` (the DB's prefix
//! delete and the move of the container directory to the volume's tmp folder, still under the
//! lock); `writeUnlock`; `sendICR`; the files in tmp go.
//!
//! P3 writes a tombstone row instead of deleting the row, *before* `containerMap.remove` (the
//! order upstream already keeps for `markMissing`, for the same reason: a write that finds
//! the container absent must also find the tombstone). [`Tombstone::AfterRemove`] is the
//! obvious edit — turn `deleteFromContainerTable` into a put — which keeps upstream's order: a
//! mutant the suite must catch. [`Fix::mark_deleted_missing`] is another plausible broken fix:
//! `removeContainer(id, markMissing=true, …)`.

use super::datanode::{KeyValueContainer, State};
use super::{ContainerId, DnId, Tombstone, World};
use crate::model::Program;
use crate::sync::unseen::Arc;
use crate::trace::{Cx, Trace};

#[derive(Debug)]
enum Step {
    Get,
    Lock(Arc<KeyValueContainer>),
    Mark,
    /// P3: the tombstone before the map removal.
    Tombstone,
    RemoveFromMap,
    DeleteRow,
    /// `KeyValueContainerUtil.removeContainer`: DB prefix delete, directory to tmp.
    MoveToTmp,
    Unlock,
    Done,
}

/// One `DeleteContainerCommand(force=true)` on one datanode.
#[derive(Debug)]
pub struct DeleteContainerCommandHandler {
    cx: Cx,
    dn: DnId,
    id: ContainerId,
    force: bool,
    held: Option<Arc<KeyValueContainer>>,
    removed: bool,
    next: Step,
}

impl DeleteContainerCommandHandler {
    pub const ACTOR: &'static str = "DeleteContainerCommandHandler";

    pub fn new(trace: &Trace, dn: DnId, id: ContainerId, force: bool) -> Self {
        DeleteContainerCommandHandler {
            cx: trace.actor(Self::ACTOR),
            dn,
            id,
            force,
            held: None,
            removed: false,
            next: Step::Get,
        }
    }

    fn held(&self) -> &KeyValueContainer {
        self.held
            .as_ref()
            .expect("the container write lock is held")
    }
}

impl Program<World> for DeleteContainerCommandHandler {
    fn next_step(&self) -> Option<String> {
        Some(format!("{:?}", self.next))
    }

    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        matches!(self.next, Step::Done)
    }

    fn enabled(&self, _w: &World) -> bool {
        match &self.next {
            Step::Done => false,
            Step::Lock(c) => !c.lock.is_held(),
            _ => true,
        }
    }

    fn step(&mut self, w: &World) {
        let dn = w.dn(self.dn);
        let id = self.id;
        let cx = &self.cx;
        self.next = match std::mem::replace(&mut self.next, Step::Done) {
            Step::Get => match dn.set.get(id) {
                Some(c) => {
                    // deleteInternal begins: its first step is the lock below.
                    cx.record(
                        "KeyValueHandler.deleteInternal",
                        format_args!("dn{} c{id}: force={}", dn.id, self.force),
                    );
                    Step::Lock(c)
                }
                None => {
                    cx.record(
                        "ContainerController.deleteContainer",
                        format_args!("dn{} c{id}: absent, nothing to delete", dn.id),
                    );
                    Step::Done
                }
            },
            Step::Lock(c) => {
                c.lock.acquire(Self::ACTOR);
                match dn.set.get(id) {
                    Some(now) if Arc::ptr_eq(&now, &c) => {
                        cx.record(
                            "ContainerSet.getContainerWithWriteLock",
                            format_args!("dn{} c{id}: write lock", dn.id),
                        );
                        self.held = Some(c);
                        Step::Mark
                    }
                    Some(_) => {
                        c.lock.release(Self::ACTOR);
                        cx.record(
                            "ContainerSet.getContainerWithWriteLock",
                            format_args!("dn{} c{id}: mapping changed, retry", dn.id),
                        );
                        Step::Get
                    }
                    None => {
                        c.lock.release(Self::ACTOR);
                        cx.record(
                            "ContainerSet.getContainerWithWriteLock",
                            format_args!("dn{} c{id}: CONTAINER_NOT_FOUND", dn.id),
                        );
                        Step::Done
                    }
                }
            }
            Step::Mark => {
                let force = self.force;
                let refused = self.held().data(|d| {
                    if !force && d.state == State::Open {
                        return Some("DELETE_ON_OPEN_CONTAINER");
                    }
                    if !force && !d.blocks.is_empty() {
                        return Some("DELETE_ON_NON_EMPTY_CONTAINER");
                    }
                    let from = d.state;
                    d.state = State::Deleted;
                    cx.record(
                        "KeyValueContainer.markContainerForDelete",
                        format_args!(
                            "dn{} c{id}: Marked container DELETED from {from:?} (force={force}) \
                             state={:?} bcsid={}",
                            dn.id, d.state, d.bcsid
                        ),
                    );
                    None
                });
                if let Some(r) = refused {
                    cx.record(
                        "KeyValueHandler.deleteInternal",
                        format_args!("dn{} c{id}: {r}", dn.id),
                    );
                    Step::Unlock
                } else if w.fix.tombstone.get().before_remove() {
                    Step::Tombstone
                } else {
                    Step::RemoveFromMap
                }
            }
            Step::Tombstone => {
                dn.set.write_tombstone(id);
                cx.record(
                    "ContainerSet.removeContainer",
                    format_args!("dn{} c{id}: tombstone row written (P3)", dn.id),
                );
                Step::RemoveFromMap
            }
            Step::RemoveFromMap => {
                if w.fix.mark_deleted_missing.get() {
                    dn.set.mark_missing(id);
                }
                dn.set.remove_from_map(id);
                self.removed = true;
                w.ghost.deleted(dn.id, id);
                cx.record(
                    "ContainerSet.removeContainer",
                    format_args!(
                        "dn{} c{id}: containerMap.remove{}",
                        dn.id,
                        if w.fix.mark_deleted_missing.get() {
                            " (marked missing first)"
                        } else {
                            ", not marked missing"
                        }
                    ),
                );
                Step::DeleteRow
            }
            Step::DeleteRow => {
                let what = match w.fix.tombstone.get() {
                    Tombstone::Off => {
                        dn.set.delete_row(id);
                        "deleteFromContainerTable"
                    }
                    Tombstone::AfterRemove => {
                        dn.set.write_tombstone(id);
                        "tombstone row written after the map removal (mutant)"
                    }
                    _ => "row kept as the tombstone (P3)",
                };
                cx.record(
                    "ContainerSet.removeContainer",
                    format_args!("dn{} c{id}: {what}", dn.id),
                );
                Step::MoveToTmp
            }
            Step::MoveToTmp => {
                self.held().data(|d| d.moved = true);
                cx.record(
                    "KeyValueContainerUtil.removeContainer",
                    format_args!(
                        "dn{} c{id}: DB rows deleted, container directory moved to tmp",
                        dn.id
                    ),
                );
                Step::Unlock
            }
            Step::Unlock => {
                let c = self.held.take().expect("the container write lock is held");
                cx.record(
                    "KeyValueHandler.deleteInternal",
                    format_args!(
                        "dn{} c{id}: writeUnlock{}",
                        dn.id,
                        if self.removed {
                            ", ICR sent, files removed"
                        } else {
                            ""
                        }
                    ),
                );
                c.lock.release(Self::ACTOR);
                Step::Done
            }
            Step::Done => Step::Done,
        };
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::datanode::{ContainerData, Origin};
    use super::super::Fix;
    use super::*;
    use crate::model::{run_alone, try_step_until};

    /// `deleteInternal`'s checks: without force an OPEN replica is refused
    /// (DELETE_ON_OPEN_CONTAINER), and so is a non-empty one (DELETE_ON_NON_EMPTY_CONTAINER); a
    /// force delete (a move's, an excess replica's) skips both; an empty CLOSED replica goes
    /// either way.
    #[test]
    fn only_a_force_delete_removes_an_open_or_non_empty_replica() {
        let open = ContainerData::open();
        let mut non_empty = ContainerData {
            state: State::Closed,
            ..ContainerData::open()
        };
        let empty = non_empty;
        non_empty.blocks.insert(1, 1);
        for (what, data, kept_without_force) in [
            ("open", open, true),
            ("non-empty", non_empty, true),
            ("empty", empty, false),
        ] {
            for force in [false, true] {
                let (w, trace) = (World::new(Fix::UPSTREAM), Trace::new());
                let set = &w.dn(1).set;
                set.add(KeyValueContainer::new(1, data, Origin::Pipeline), true)
                    .expect("added");
                run_alone(
                    &mut DeleteContainerCommandHandler::new(&trace, 1, 1, force),
                    &w,
                );
                let kept = kept_without_force && !force;
                assert_eq!(set.contains(1), kept, "{what}, force={force}");
            }
        }
    }

    /// `writeLock` blocks while another thread holds the container's lock: the step driver
    /// must not run it then.
    #[test]
    fn the_write_lock_is_enabled_only_while_the_lock_is_free() {
        let (w, trace) = (World::new(Fix::UPSTREAM), Trace::new());
        let set = &w.dn(1).set;
        set.add(
            KeyValueContainer::new(1, ContainerData::open(), Origin::Pipeline),
            true,
        )
        .expect("added");
        let mut delete = DeleteContainerCommandHandler::new(&trace, 1, 1, true);
        delete.step(&w);
        assert!(matches!(delete.next, Step::Lock(_)), "{:?}", delete.next);
        let container = set.get(1).expect("the container");
        container.lock.acquire("another thread");
        assert!(
            !delete.enabled(&w),
            "writeLock enabled while the lock is held"
        );
        container.lock.release("another thread");
        assert!(
            delete.enabled(&w),
            "writeLock not enabled with the lock free"
        );
    }

    /// A setup that waits on the delete's `writeLock` while another thread holds the lock fails
    /// naming that step (`next_step`), not "its next step".
    #[test]
    fn a_delete_stuck_at_the_write_lock_is_named() {
        let (w, trace) = (World::new(Fix::UPSTREAM), Trace::new());
        let set = &w.dn(1).set;
        set.add(
            KeyValueContainer::new(1, ContainerData::open(), Origin::Pipeline),
            true,
        )
        .expect("added");
        set.get(1)
            .expect("the container")
            .lock
            .acquire("another thread");
        let mut delete = DeleteContainerCommandHandler::new(&trace, 1, 1, true);
        let err = try_step_until(&mut delete, &w, "the delete's end", |d, _| d.is_done())
            .expect_err("the delete cannot take the held lock");
        let named = format!("{}: Lock(", DeleteContainerCommandHandler::ACTOR);
        assert!(
            err.contains(&named) && err.ends_with(" is not enabled"),
            "the message does not name the writeLock step: {err}"
        );
    }
}
