//! A set of block ids as one machine word. Every block set of the model (the replica map, the
//! pending IBRs, an FBR snapshot, a NameNode's block list) holds ids below [`BlockSet::CAPACITY`]:
//! the histories write at most eight blocks and the scenarios one (X = 7). A word is copied,
//! compared and iterated without allocating or walking a tree, which is what the fuzz target
//! does most (issue 8).

use super::Block;
use std::fmt;

/// Blocks in ascending order, as a `BTreeSet<Block>` would iterate them; printed as a set,
/// `{0, 1}`.
pub type BlockSet = crate::bits::Bits<Block, 1>;

impl BlockSet {
    /// The set as one word, bit `b` for block `b` (a state fingerprint's part, see
    /// `World::fingerprint`).
    pub fn word(self) -> u64 {
        self.bits()
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The same contents, order and formatting as the `BTreeSet` and `Vec` it replaces.
    #[test]
    fn behaves_as_a_btreeset() {
        let mut r = crate::splitmix::SplitMix64(0xB10C);
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
