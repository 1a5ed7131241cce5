//! Datanode and container IDs, and sets of them. The model's IDs are small numbers (datanodes 1
//! to 3, containers 1 to 4), so per-node state is an array indexed by the ID and a set of IDs
//! is a bit set: a history runs its predicates at every quiet state and builds its world for
//! every input, and fixed arrays keep that free of allocation and of generic map code. Sets
//! iterate in ascending order and print as a `BTreeSet` does (`{1, 2}`), the order and the
//! words of the maps they stand for.

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

/// A set of IDs below 64.
pub type IdSet = crate::bits::Bits<u8, 1>;

/// A set of container IDs (a node's container-ID set, a full report).
pub type ContainerSet = IdSet;
/// A set of datanode IDs.
pub type NodeSet = IdSet;
