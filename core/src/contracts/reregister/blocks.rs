//! A set of block ids as one machine word. Every block set of the model (the replica map, the
//! pending IBRs, an FBR snapshot, a NameNode's block list) holds ids below [`BlockSet::CAPACITY`]:
//! the histories write at most eight blocks and the scenarios one (X = 7). A word is copied,
//! compared and iterated without allocating or walking a tree, which is what the fuzz target
//! does most (issue 8).

use super::Block;
use std::fmt;

/// Blocks in ascending order, as a `BTreeSet<Block>` would iterate them.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BlockSet(u64);

impl BlockSet {
    /// The largest block id a set can hold, plus one.
    pub const CAPACITY: Block = u64::BITS;

    pub const EMPTY: BlockSet = BlockSet(0);

    fn bit(block: Block) -> u64 {
        assert!(
            block < Self::CAPACITY,
            "block {block}: the model's block ids are below {}",
            Self::CAPACITY
        );
        1 << block
    }

    pub fn insert(&mut self, block: Block) {
        self.0 |= Self::bit(block);
    }

    pub fn contains(self, block: Block) -> bool {
        block < Self::CAPACITY && self.0 & (1 << block) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The blocks of either set.
    pub fn union(self, other: BlockSet) -> BlockSet {
        BlockSet(self.0 | other.0)
    }

    /// The blocks of this set that `other` lacks.
    pub fn difference(self, other: BlockSet) -> BlockSet {
        BlockSet(self.0 & !other.0)
    }

    /// The smallest block.
    pub fn first(self) -> Option<Block> {
        (!self.is_empty()).then(|| self.0.trailing_zeros())
    }

    /// Removes every block and returns them (`std::mem::take`).
    pub fn take(&mut self) -> BlockSet {
        std::mem::take(self)
    }

    pub fn iter(self) -> impl Iterator<Item = Block> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let b = (bits != 0).then(|| bits.trailing_zeros())?;
            bits &= bits - 1;
            Some(b)
        })
    }

    /// Formatted as a list, `[0, 1]`, where upstream's value is one (a `List<Block>`).
    pub fn list(self) -> impl fmt::Display {
        struct List(BlockSet);
        impl fmt::Display for List {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.iter()).finish()
            }
        }
        List(self)
    }
}

/// Formatted as a set, `{0, 1}`.
impl fmt::Debug for BlockSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Block> for BlockSet {
    fn from_iter<I: IntoIterator<Item = Block>>(iter: I) -> Self {
        let mut set = BlockSet::EMPTY;
        for b in iter {
            set.insert(b);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The same contents, order and formatting as the `BTreeSet` and `Vec` it replaces.
    #[test]
    fn behaves_as_a_btreeset() {
        let mut r = super::super::scheduler::SplitMix64(0xB10C);
        for _ in 0..2000 {
            let mut set = BlockSet::EMPTY;
            let mut reference = BTreeSet::new();
            for _ in 0..r.next_u64() % 12 {
                let b = (r.next_u64() % 64) as Block;
                set.insert(b);
                reference.insert(b);
            }
            let other: BTreeSet<Block> = (0..r.next_u64() % 8)
                .map(|_| (r.next_u64() % 64) as Block)
                .collect();
            let other_set: BlockSet = other.iter().copied().collect();
            assert_eq!(
                set.iter().collect::<Vec<_>>(),
                reference.iter().copied().collect::<Vec<_>>()
            );
            assert_eq!(format!("{set:?}"), format!("{reference:?}"));
            let list: Vec<Block> = reference.iter().copied().collect();
            assert_eq!(set.list().to_string(), format!("{list:?}"));
            assert_eq!(set.first(), reference.first().copied());
            assert_eq!(set.is_empty(), reference.is_empty());
            for b in 0..70 {
                assert_eq!(set.contains(b), reference.contains(&b));
            }
            let union: BTreeSet<Block> = reference.union(&other).copied().collect();
            assert_eq!(set.union(other_set), union.iter().copied().collect());
            let difference: BTreeSet<Block> = reference.difference(&other).copied().collect();
            assert_eq!(
                set.difference(other_set),
                difference.iter().copied().collect()
            );
        }
    }
}
