//! The settled worlds this thread has simulated, by the state they were settled from
//! ([`World::fingerprint`]): quiescence is a function of the state alone (no clock but the world's,
//! seeded generators), so a state seen before need not be simulated again. The fingerprint leaves
//! out the ghost, which no step reads: a world whose events differ settles as the one seen, its
//! events followed by the ones the simulation added (a copy, not a simulation). Most final states
//! of a fuzz run differ from those seen only by the history that led to them. A fuzz run is a small
//! mutation of an earlier input, and most of its quiet states were reached, and settled, by the
//! runs before it (nine in ten, measured on a 30 s run of the fuzz target). Not under loom, and not
//! model state: a cache of real std types, one per thread (tests run in parallel; loom, which never
//! reads it, runs a model on one thread).

use crate::contracts::reregister::World;
use crate::sync::unseen::Arc;
use crate::trace::Trace;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::cell::{Cell, RefCell};

/// Settled worlds kept before the memo starts over (a few kilobytes each). Paired 20 s fuzz runs
/// from the corpus: 2^11, 2^12 and 2^13 ran 65.2k–65.7k executions/s, 2^14 61.5k (and more than
/// twice the memory: a larger memo is slower to walk and to drop than its few extra hits save).
const CAPACITY: usize = 1 << 12;

/// A settled world, and how many events the state it was settled from had.
type Seen = (Arc<World>, usize);

/// The settled worlds by their fingerprint's hash, each with its fingerprint: the fingerprint is
/// hashed once per lookup (a map keyed by the fingerprint hashed it again to insert, and again
/// to grow). Two fingerprints of one hash share a slot: a lookup compares the fingerprints, so
/// that the other one is a miss, simulated and kept in its place.
type Settled = FxHashMap<u64, (Box<[u64]>, Seen)>;

thread_local! {
    /// Sized for [`CAPACITY`] worlds from the start: a table that grows rehashes every world it
    /// holds (and `clear` keeps the size).
    static SETTLED: RefCell<Settled> =
        RefCell::new(Settled::with_capacity_and_hasher(CAPACITY, FxBuildHasher));
    /// The fingerprint being looked up, kept for its allocation.
    static FINGERPRINT: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    /// Settled worlds reused on this thread (for the tests' tallies).
    #[cfg(test)]
    static REUSED: Cell<usize> = const { Cell::new(0) };
    /// Of those, the ones given other events (for the tests' tallies).
    #[cfg(test)]
    static REBASED: Cell<usize> = const { Cell::new(0) };
}

/// How many settled worlds this thread has reused, and how many of them with other events.
#[cfg(test)]
pub fn reused() -> (usize, usize) {
    (REUSED.get(), REBASED.get())
}

/// The fingerprint's hash: FxHash's multiply by its constant over each word, in four lanes of
/// every fourth word, then the lanes and the length folded. Hashing the words as bytes
/// (`BuildHasher::hash_one`) ran one chain of multiplies, 16 bytes a turn, and its loop bumped
/// one coverage counter a turn (a chain of read-modify-writes of one byte): about a third of
/// `at_quiescence`'s own time in a fuzz run (perf). Only a hash: a lookup compares the
/// fingerprints in full.
fn hash(words: &[u64]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut lanes = [0u64; 4];
    let mut quads = words.chunks_exact(4);
    for quad in &mut quads {
        for (lane, &w) in lanes.iter_mut().zip(quad) {
            *lane = (*lane ^ w).wrapping_mul(K);
        }
    }
    for (lane, &w) in lanes.iter_mut().zip(quads.remainder()) {
        *lane = (*lane ^ w).wrapping_mul(K);
    }
    lanes.iter().fold(words.len() as u64, |h, &lane| {
        (h.rotate_left(26) ^ lane).wrapping_mul(K)
    })
}

/// The settled world of `world`'s state: the one `simulate` gave for an equal state before, or
/// `simulate(world)`'s, kept. Every test checks a reuse against a fresh simulation.
pub fn settled(world: &World, simulate: impl Fn(&World) -> Arc<World>) -> Arc<World> {
    let mut fingerprint = FINGERPRINT.take();
    fingerprint.clear();
    world.fingerprint(&mut fingerprint);
    let hash = hash(&fingerprint);
    let found = SETTLED.with_borrow(|m| {
        m.get(&hash)
            .filter(|(seen, _)| **seen == *fingerprint)
            .map(|(_, seen)| seen.clone())
    });
    let settled = match found {
        Some((seen, from)) => {
            let seen = if world.ghost.starts(&seen.ghost, from) {
                seen
            } else {
                #[cfg(test)]
                REBASED.set(REBASED.get() + 1);
                let ghost = world.ghost.followed_by(&seen.ghost, from);
                Arc::new(seen.with_ghost(ghost, &Trace::new()))
            };
            #[cfg(test)]
            assert!(
                simulate(world).state() == seen.state(),
                "the memo's settled world differs from a fresh simulation of the same state"
            );
            #[cfg(test)]
            REUSED.set(REUSED.get() + 1);
            seen
        }
        None => {
            let settled = simulate(world);
            let from = world.ghost.with_events(<[_]>::len);
            SETTLED.with_borrow_mut(|m| {
                if m.len() >= CAPACITY {
                    m.clear();
                }
                m.insert(
                    hash,
                    (fingerprint.as_slice().into(), (settled.clone(), from)),
                );
            });
            settled
        }
    };
    FINGERPRINT.set(fingerprint);
    settled
}
