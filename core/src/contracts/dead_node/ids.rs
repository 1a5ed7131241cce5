//! Datanode and container IDs, and sets of them. The model's IDs are small numbers (datanodes 1
//! to 3, containers 1 to 4), so per-node state is an array indexed by the ID and a set of IDs
//! is a bit set: a history runs its predicates at every quiet state and builds its world for
//! every input, and fixed arrays keep that free of allocation and of generic map code. Sets
//! iterate in ascending order and print as a `BTreeSet` does (`{1, 2}`), the order and the
//! words of the maps they stand for.

use std::fmt;

pub type NodeId = u8;
pub type ContainerId = u8;

/// Per-node arrays are indexed by the ID itself (slot 0 is unused): datanodes 1 to 3.
pub const NODE_SLOTS: usize = 4;
/// Per-container arrays are indexed by the ID itself (slot 0 is unused): containers 1 to 4.
pub const CONTAINER_SLOTS: usize = 5;

/// The slot of `id` in a per-node or per-container array.
pub fn slot(id: u8) -> usize {
    usize::from(id)
}

/// A set of IDs below 16.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct IdSet(u16);

/// A set of container IDs (a node's container-ID set, a full report).
pub type ContainerSet = IdSet;
/// A set of datanode IDs.
pub type NodeSet = IdSet;

impl IdSet {
    pub const EMPTY: IdSet = IdSet(0);

    pub fn of(ids: &[u8]) -> IdSet {
        let mut set = IdSet::EMPTY;
        for &id in ids {
            set.insert(id);
        }
        set
    }

    fn bit(id: u8) -> u16 {
        assert!(id < 16, "ID {id} out of range");
        1 << id
    }

    pub fn contains(self, id: u8) -> bool {
        id < 16 && self.0 & (1 << id) != 0
    }

    /// Adds `id`; whether it was new.
    pub fn insert(&mut self, id: u8) -> bool {
        let was = self.contains(id);
        self.0 |= Self::bit(id);
        !was
    }

    /// Removes `id`; whether it was there.
    pub fn remove(&mut self, id: u8) -> bool {
        let was = self.contains(id);
        self.0 &= !Self::bit(id);
        was
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The IDs in `self` and not in `other`.
    pub fn difference(self, other: IdSet) -> IdSet {
        IdSet(self.0 & !other.0)
    }

    /// Removes and returns the smallest ID.
    pub fn pop_first(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(id)
    }

    /// The IDs in ascending order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut rest = self;
        std::iter::from_fn(move || rest.pop_first())
    }
}

impl fmt::Debug for IdSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every subset of 0..6 against a `BTreeSet`: order, membership, difference, and the
    /// printed form the timelines use.
    #[test]
    fn a_set_reads_as_the_btreeset_it_stands_for() {
        for bits in 0u16..64 {
            let ids: Vec<u8> = (0..6).filter(|i| bits & (1 << i) != 0).collect();
            let (set, tree) = (
                IdSet::of(&ids),
                ids.iter().copied().collect::<BTreeSet<u8>>(),
            );
            assert_eq!(set.iter().collect::<Vec<_>>(), ids);
            assert_eq!(format!("{set:?}"), format!("{tree:?}"));
            assert_eq!(set.is_empty(), tree.is_empty());
            for id in 0..8 {
                assert_eq!(set.contains(id), tree.contains(&id));
            }
            let other = IdSet::of(&[1, 3, 4]);
            let expected: Vec<u8> = tree.difference(&[1, 3, 4].into()).copied().collect();
            assert_eq!(set.difference(other).iter().collect::<Vec<_>>(), expected);
        }
    }
}
