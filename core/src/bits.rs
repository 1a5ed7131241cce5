//! A set of small ids as machine words: the models' sets of datanodes, containers and blocks.
//! A fuzz run copies, compares and iterates them constantly; a word does that without
//! allocating or walking a tree, and with few distinct code paths (libFuzzer's cost per run
//! grows with them). It iterates in ascending order and prints as a `BTreeSet` does, so
//! timelines and witnesses read as they did with one.

use std::fmt;
use std::marker::PhantomData;

/// An id a [`Bits`] can hold: a small number.
pub trait Id: Copy {
    fn index(self) -> usize;
    fn from_index(index: usize) -> Self;
}

impl Id for u8 {
    fn index(self) -> usize {
        usize::from(self)
    }
    fn from_index(index: usize) -> Self {
        u8::try_from(index).expect("an id of a set of u8 fits a u8")
    }
}

impl Id for u32 {
    fn index(self) -> usize {
        usize::try_from(self).expect("a u32 fits a usize")
    }
    fn from_index(index: usize) -> Self {
        u32::try_from(index).expect("an id of a set of u32 fits a u32")
    }
}

/// A set of ids below `64 * W`. Inserting a larger one panics, naming the capacity.
pub struct Bits<I, const W: usize> {
    words: [u64; W],
    id: PhantomData<I>,
}

impl<I: Id, const W: usize> Bits<I, W> {
    /// One past the largest id the set can hold.
    pub const CAPACITY: usize = 64 * W;

    pub const EMPTY: Self = Self::new();

    pub const fn new() -> Self {
        Bits {
            words: [0; W],
            id: PhantomData,
        }
    }

    pub fn of(ids: &[I]) -> Self {
        ids.iter().copied().collect()
    }

    fn at(id: I) -> (usize, u64) {
        let i = id.index();
        assert!(
            i < Self::CAPACITY,
            "id {i} is past the set's capacity ({})",
            Self::CAPACITY
        );
        (i / 64, 1 << (i % 64))
    }

    /// Whether `id` was not in the set.
    pub fn insert(&mut self, id: I) -> bool {
        let (w, b) = Self::at(id);
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Whether `id` was in the set.
    pub fn remove(&mut self, id: I) -> bool {
        let (w, b) = Self::at(id);
        let had = self.words[w] & b != 0;
        self.words[w] &= !b;
        had
    }

    pub fn contains(&self, id: I) -> bool {
        let i = id.index();
        i < Self::CAPACITY && self.words[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn clear(&mut self) {
        self.words = [0; W];
    }

    /// Removes every id and returns them (`std::mem::take`).
    pub fn take(&mut self) -> Self {
        std::mem::take(self)
    }

    /// The ids of either set.
    pub fn union(self, other: Self) -> Self {
        let mut u = self;
        for (w, o) in u.words.iter_mut().zip(other.words) {
            *w |= o;
        }
        u
    }

    /// The ids of this set that `other` lacks.
    pub fn difference(self, other: Self) -> Self {
        let mut d = self;
        for (w, o) in d.words.iter_mut().zip(other.words) {
            *w &= !o;
        }
        d
    }

    /// The smallest id.
    pub fn first(&self) -> Option<I> {
        self.iter().next()
    }

    /// Removes and returns the smallest id.
    pub fn pop_first(&mut self) -> Option<I> {
        let first = self.first()?;
        self.remove(first);
        Some(first)
    }

    /// The ids, ascending.
    pub fn iter(&self) -> Iter<I, W> {
        Iter {
            words: self.words,
            word: 0,
            id: PhantomData,
        }
    }
}

// By hand, not derived: a derive would ask `I` for the traits too.
impl<I> Bits<I, 1> {
    /// The set as its one word: bit `i` for id `i`.
    pub const fn bits(self) -> u64 {
        self.words[0]
    }
}

impl<I, const W: usize> Clone for Bits<I, W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I, const W: usize> Copy for Bits<I, W> {}

impl<I, const W: usize> PartialEq for Bits<I, W> {
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}

impl<I, const W: usize> Eq for Bits<I, W> {}

impl<I, const W: usize> std::hash::Hash for Bits<I, W> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.words.hash(state);
    }
}

impl<I: Id, const W: usize> Default for Bits<I, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Id, const W: usize> FromIterator<I> for Bits<I, W> {
    fn from_iter<T: IntoIterator<Item = I>>(ids: T) -> Self {
        let mut set = Self::new();
        for id in ids {
            set.insert(id);
        }
        set
    }
}

impl<I: Id + fmt::Debug, const W: usize> fmt::Debug for Bits<I, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The ids of a [`Bits`], ascending.
pub struct Iter<I, const W: usize> {
    words: [u64; W],
    word: usize,
    id: PhantomData<I>,
}

impl<I: Id, const W: usize> Iterator for Iter<I, W> {
    type Item = I;

    fn next(&mut self) -> Option<I> {
        while let Some(bits) = self.words.get_mut(self.word) {
            if *bits != 0 {
                // `as`: below 64.
                let bit = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(I::from_index(self.word * 64 + bit));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every operation against a `BTreeSet`, over pseudo-random ids of a two-word set.
    #[test]
    fn a_set_of_bits_is_a_btree_set() {
        let mut bits: Bits<u8, 2> = Bits::new();
        let mut tree = BTreeSet::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let id = (seed % 128) as u8;
            match seed >> 60 {
                0..=6 => assert_eq!(bits.insert(id), tree.insert(id)),
                7..=11 => assert_eq!(bits.remove(id), tree.remove(&id)),
                12 => assert_eq!(bits.pop_first(), tree.pop_first()),
                13 => {
                    let other = Bits::of(&[id, id / 2, 3]);
                    let want: BTreeSet<u8> = [id, id / 2, 3].into();
                    let diff: Vec<u8> = bits.difference(other).iter().collect();
                    assert_eq!(diff, tree.difference(&want).copied().collect::<Vec<_>>());
                    let union: Vec<u8> = bits.union(other).iter().collect();
                    assert_eq!(union, tree.union(&want).copied().collect::<Vec<_>>());
                }
                _ => assert_eq!(bits.contains(id), tree.contains(&id)),
            }
            assert_eq!(
                bits.iter().collect::<Vec<_>>(),
                Vec::from_iter(tree.clone())
            );
            assert_eq!(format!("{bits:?}"), format!("{tree:?}"));
            assert_eq!(bits.is_empty(), tree.is_empty());
            assert_eq!(bits.first(), tree.first().copied());
        }
        assert!(
            !bits.contains(200),
            "an id past the capacity is not in the set"
        );
    }

    #[test]
    #[should_panic(expected = "id 64 is past the set's capacity (64)")]
    fn an_id_past_the_capacity_is_refused() {
        Bits::<u8, 1>::new().insert(64);
    }
}
