//! What makes container-recreate's checks fast, and none of it upstream behaviour: the dense
//! tables that stand for upstream's maps ([`dense`]), a quiet world kept as plain data and
//! built again for each history ([`Image`]), and the first block of a set that no replica holds,
//! read datanode by datanode ([`World::first_unheld`]).

pub mod dense;

#[cfg(feature = "histories")]
use super::datanode::{self, Datanode};
#[cfg(feature = "histories")]
use super::dispatcher;
#[cfg(feature = "histories")]
use super::ghost::{self, Ghost};
#[cfg(feature = "histories")]
use super::scm::Scm;
use super::{ContainerId, LocalId, World, CONTAINER_SLOTS};
#[cfg(feature = "histories")]
use super::{Fix, Om};
#[cfg(feature = "histories")]
use crate::sync::unseen;
use dense::PairSet;

/// A quiet world as plain data (see [`World::image`]).
#[cfg(feature = "histories")]
#[derive(Clone, Debug)]
pub struct Image {
    pub fix: Fix,
    dns: Vec<datanode::DatanodeImage>,
    log: Vec<dispatcher::Request>,
    scm: Scm,
    om: Om,
    ghost: ghost::GhostState,
}

#[cfg(feature = "histories")]
impl Image {
    /// The world, with new lock and replica objects: what building it again would give,
    /// without running its steps again, and without taking a lock.
    pub fn world(&self) -> World {
        World {
            fix: self.fix,
            dns: self
                .dns
                .iter()
                .map(datanode::DatanodeImage::datanode)
                .collect(),
            // Room for a long history's entries: appending them does not reallocate.
            log: unseen::Mutex::new(ghost::with_room(64, &self.log)),
            scm: unseen::Mutex::new(self.scm),
            om: unseen::Mutex::new(self.om),
            ghost: Ghost::from_state(&self.ghost),
        }
    }
}

impl World {
    /// This world, quiet (no step in flight), as plain data: what a history starts from (see
    /// `histories::start`), kept once and built into a new world for every run.
    #[cfg(feature = "histories")]
    pub fn image(&self) -> Image {
        Image {
            fix: self.fix,
            dns: self.dns.iter().map(Datanode::image).collect(),
            log: self.log.lock().clone(),
            scm: *self.scm_state(),
            om: *self.om(),
            ghost: self.ghost.snapshot(),
        }
    }

    /// The first pair of `wanted`, in ascending order, whose block no replica of its
    /// container holds: what `wanted.iter().find(|k| no datanode holds k)` gives. Each
    /// datanode's replicas are read at most once, in datanode order, and only until the blocks
    /// read so far include the pair's (usually the leader's replicas alone).
    pub(super) fn first_unheld(&self, wanted: PairSet) -> Option<(ContainerId, LocalId)> {
        // The datanodes read so far, and the blocks their replicas hold, per container.
        let (mut read, mut held) = (0, [0u32; CONTAINER_SLOTS]);
        wanted.iter().find(|&(id, block)| {
            let id = usize::from(id);
            // No datanode holds a container beyond the map's slots.
            if id >= CONTAINER_SLOTS {
                return true;
            }
            while held[id] & 1 << block == 0 {
                let Some(dn) = self.dns.get(read) else {
                    return true;
                };
                read += 1;
                for (h, m) in held.iter_mut().zip(dn.set.block_masks()) {
                    *h |= m;
                }
            }
            false
        })
    }
}

/// The world `build` gives for `fix`, built from its image, kept per variant on this thread:
/// the setup's steps are deterministic, and they cost as much as a short history.
#[cfg(feature = "histories")]
pub fn from_image(fix: Fix, build: fn(Fix, &crate::trace::Trace) -> World) -> World {
    thread_local! {
        static STARTS: std::cell::RefCell<Vec<Image>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    STARTS.with_borrow_mut(|starts| {
        if let Some(image) = starts.iter().find(|i| i.fix == fix) {
            return image.world();
        }
        let image = build(fix, &crate::trace::Trace::new()).image();
        let world = image.world();
        starts.push(image);
        world
    })
}
