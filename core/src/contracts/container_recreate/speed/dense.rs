//! Tables keyed by the models' small IDs (datanode, container, local block ID), in place of
//! `BTreeMap` and `BTreeSet`: the same contents and the same iteration order (ascending keys),
//! with no allocation, and a copy for a clone. A history forks, fills and drops dozens of these
//! per run; a fuzz target pays for each distinct instrumented edge a run executes, and a
//! B-tree's generic code has hundreds, these a few.

use std::fmt;

/// A map from IDs below `N` to values, iterated in ascending ID order. Inserting an ID at or
/// beyond `N` panics (the tables are sized for the IDs the models use, see [`super`]'s
/// constants); looking one up finds nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct IdMap<V, const N: usize>([Option<V>; N]);

impl<V, const N: usize> IdMap<V, N> {
    const FITS_U8: () = assert!(N <= 1 << u8::BITS, "IDs are u8");

    pub const fn new() -> Self {
        let () = Self::FITS_U8;
        IdMap([const { None }; N])
    }

    fn slot(&mut self, id: u8) -> &mut Option<V> {
        match self.0.get_mut(usize::from(id)) {
            Some(slot) => slot,
            None => panic!("ID {id} is beyond this table's {N} slots"),
        }
    }

    pub fn get(&self, id: u8) -> Option<&V> {
        self.0.get(usize::from(id))?.as_ref()
    }

    pub fn get_mut(&mut self, id: u8) -> Option<&mut V> {
        self.0.get_mut(usize::from(id))?.as_mut()
    }

    pub fn contains_key(&self, id: u8) -> bool {
        self.get(id).is_some()
    }

    /// Returns the value it replaces.
    pub fn insert(&mut self, id: u8, value: V) -> Option<V> {
        self.slot(id).replace(value)
    }

    /// `BTreeMap::entry(id).or_insert(value)`.
    pub fn get_or_insert(&mut self, id: u8, value: V) -> &mut V {
        self.slot(id).get_or_insert(value)
    }

    pub fn remove(&mut self, id: u8) -> Option<V> {
        self.0.get_mut(usize::from(id))?.take()
    }

    pub fn iter(&self) -> impl Iterator<Item = (u8, &V)> {
        // `as`: N ≤ 256 (FITS_U8), so every index is a u8.
        (self.0.iter().enumerate()).filter_map(|(i, v)| Some((i as u8, v.as_ref()?)))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (u8, &mut V)> {
        (self.0.iter_mut().enumerate()).filter_map(|(i, v)| Some((i as u8, v.as_mut()?)))
    }

    pub fn keys(&self) -> impl Iterator<Item = u8> + '_ {
        self.iter().map(|(id, _)| id)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().filter_map(Option::as_ref)
    }

    pub fn len(&self) -> usize {
        self.values().count()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

impl<V, const N: usize> Default for IdMap<V, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: fmt::Debug, const N: usize> fmt::Debug for IdMap<V, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A map from any IDs to values, at most `N` of them, kept in ascending ID order: for SCM's
/// tables, which the over-replication reproduction fills with every container ID.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SmallMap<V, const N: usize> {
    len: usize,
    entries: [(u8, V); N],
}

impl<V: Copy + Default, const N: usize> SmallMap<V, N> {
    pub fn new() -> Self {
        SmallMap {
            len: 0,
            entries: [(0, V::default()); N],
        }
    }

    fn live(&self) -> &[(u8, V)] {
        &self.entries[..self.len]
    }

    /// Where `id` is, or where it would go (a scan: there are a handful).
    fn find(&self, id: u8) -> Result<usize, usize> {
        for (at, e) in self.live().iter().enumerate() {
            if e.0 >= id {
                return if e.0 == id { Ok(at) } else { Err(at) };
            }
        }
        Err(self.len)
    }

    pub fn get(&self, id: u8) -> Option<&V> {
        let at = self.find(id).ok()?;
        Some(&self.entries[at].1)
    }

    pub fn get_mut(&mut self, id: u8) -> Option<&mut V> {
        let at = self.find(id).ok()?;
        Some(&mut self.entries[at].1)
    }

    /// `BTreeMap::entry(id).or_insert(value)`; panics when `N` IDs are in already.
    pub fn get_or_insert(&mut self, id: u8, value: V) -> &mut V {
        self.get_or_insert_with(id, || value)
    }

    /// `BTreeMap::entry(id).or_insert_with(value)`.
    pub fn get_or_insert_with(&mut self, id: u8, value: impl FnOnce() -> V) -> &mut V {
        let at = match self.find(id) {
            Ok(at) => at,
            Err(at) => {
                assert!(self.len < N, "ID {id}: this table holds at most {N}");
                self.entries[at..=self.len].rotate_right(1);
                self.entries[at] = (id, value());
                self.len += 1;
                at
            }
        };
        &mut self.entries[at].1
    }

    pub fn insert(&mut self, id: u8, value: V) {
        *self.get_or_insert(id, value) = value;
    }

    pub fn iter(&self) -> impl Iterator<Item = (u8, &V)> {
        self.live().iter().map(|(id, v)| (*id, v))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (u8, &mut V)> {
        self.entries[..self.len].iter_mut().map(|(id, v)| (*id, v))
    }
}

impl<V: Copy + Default, const N: usize> Default for SmallMap<V, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for SmallMap<V, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A set of IDs (any `u8`), iterated in ascending order.
pub type IdSet = crate::bits::Bits<u8, 4>;

/// A set of ID pairs, each below 16, iterated in ascending (lexicographic) order: a
/// `BTreeSet<(u8, u8)>` of (datanode, container) or (container, local block ID).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct PairSet(IdSet);

impl PairSet {
    pub const fn new() -> Self {
        PairSet(IdSet::new())
    }

    fn key((a, b): (u8, u8)) -> u8 {
        assert!(
            a < 16 && b < 16,
            "pair ({a}, {b}) is beyond a pair set's 16 × 16"
        );
        a << 4 | b
    }

    pub fn insert(&mut self, pair: (u8, u8)) -> bool {
        self.0.insert(Self::key(pair))
    }

    pub fn remove(&mut self, pair: (u8, u8)) -> bool {
        self.0.remove(Self::key(pair))
    }

    pub fn contains(&self, (a, b): (u8, u8)) -> bool {
        a < 16 && b < 16 && self.0.contains(a << 4 | b)
    }

    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> {
        self.0.iter().map(|k| (k >> 4, k & 15))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The pairs in both sets.
    pub fn intersection(self, other: PairSet) -> PairSet {
        PairSet(self.0.difference(self.0.difference(other.0)))
    }

    /// Keeps the pairs `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut((u8, u8)) -> bool) {
        for pair in self.iter() {
            if !keep(pair) {
                self.remove(pair);
            }
        }
    }
}

impl fmt::Debug for PairSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// The tables agree with the B-trees they replace on a fixed pseudo-random sequence of
    /// operations: contents, order, and `Debug`.
    #[test]
    fn tables_agree_with_the_btrees() {
        let mut map = IdMap::<u64, 16>::new();
        let mut bmap = BTreeMap::new();
        let mut set = IdSet::new();
        let mut bset = BTreeSet::new();
        let mut pairs = PairSet::new();
        let mut bpairs = BTreeSet::new();
        let mut small = SmallMap::<u64, 8>::new();
        let mut bsmall = BTreeMap::new();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..4000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let id = (x % 16) as u8;
            let pair = (((x >> 8) % 16) as u8, ((x >> 16) % 16) as u8);
            match (x >> 24) % 4 {
                0 => assert_eq!(map.insert(id, i), bmap.insert(id, i)),
                1 => assert_eq!(map.remove(id), bmap.remove(&id)),
                2 => assert_eq!(*map.get_or_insert(id, i), *bmap.entry(id).or_insert(i)),
                _ => {
                    if let (Some(a), Some(b)) = (map.get_mut(id), bmap.get_mut(&id)) {
                        *a += 1;
                        *b += 1;
                    }
                }
            }
            let wide = (x >> 32) as u8;
            if bsmall.len() < 8 || bsmall.contains_key(&wide) {
                small.insert(wide, i);
                bsmall.insert(wide, i);
            }
            if let (Some(a), Some(b)) = (small.get_mut(wide ^ 1), bsmall.get_mut(&(wide ^ 1))) {
                *a += 1;
                *b += 1;
            }
            assert_eq!(small.get(wide ^ 2), bsmall.get(&(wide ^ 2)));
            assert!(small.iter().eq(bsmall.iter().map(|(&k, v)| (k, v))));
            if i % 64 == 0 {
                small = SmallMap::new();
                bsmall.clear();
            }
            if x >> 40 & 1 == 0 {
                assert_eq!(set.insert(wide), bset.insert(wide));
                assert_eq!(pairs.insert(pair), bpairs.insert(pair));
            } else {
                assert_eq!(set.remove(wide), bset.remove(&wide));
                assert_eq!(pairs.remove(pair), bpairs.remove(&pair));
            }
            if i % 500 == 0 {
                pairs.retain(|p| p.0 != pair.0);
                bpairs.retain(|p| p.0 != pair.0);
            }
            assert_eq!(map.get(id), bmap.get(&id));
            assert_eq!(map.len(), bmap.len());
            assert_eq!(map.is_empty(), bmap.is_empty());
            assert!(map.iter().eq(bmap.iter().map(|(&k, v)| (k, v))));
            assert!(set.iter().eq(bset.iter().copied()));
            assert_eq!(set.is_empty(), bset.is_empty());
            assert!(pairs.iter().eq(bpairs.iter().copied()));
            assert_eq!(pairs.is_empty(), bpairs.is_empty());
            assert_eq!(pairs.contains(pair), bpairs.contains(&pair));
            let mut other = PairSet::new();
            let want: BTreeSet<_> = [pair, (pair.1, pair.0), (3, 4)].into();
            for &p in &want {
                other.insert(p);
            }
            assert!(pairs
                .intersection(other)
                .iter()
                .eq(bpairs.intersection(&want).copied()));
            assert_eq!(
                format!("{map:?} {set:?} {pairs:?} {small:?}"),
                format!("{bmap:?} {bset:?} {bpairs:?} {bsmall:?}")
            );
        }
        assert!(map.get(200).is_none() && map.remove(200).is_none());
    }
}
