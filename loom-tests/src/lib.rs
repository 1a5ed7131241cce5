//! racelab-loom: checks claims-matrix cells by exploring every interleaving with loom.
//!
//! Compiled for real only under `RUSTFLAGS="--cfg loom"` (run as `-p racelab-loom`); without
//! it the crate is empty. The tests (`tests/cells.rs`) are generated from the registry: one per
//! loom cell and mutant of every contract, and the harness's own toy cells.
//!
//! One file per concern: [`explore`] (one exploration of a scenario under a fix), [`cache`]
//! (the process's one cache of explorations), [`child`] (deadlock cells in a child process),
//! [`hook`] (the panic hook), [`cells`] (a cell's test), [`mutants`] (the mutant matrix) and
//! [`shard`] (the gate's split of the cells between processes).
#![forbid(unsafe_code)]

#[cfg(loom)]
pub mod cache;
#[cfg(loom)]
pub mod cells;
#[cfg(loom)]
pub mod child;
#[cfg(all(test, loom))]
mod every_execution;
#[cfg(loom)]
pub mod explore;
#[cfg(all(test, loom))]
mod guarded;
#[cfg(loom)]
mod hook;
#[cfg(all(test, loom))]
mod lease;
#[cfg(all(test, loom))]
mod linearizable;
#[cfg(loom)]
pub mod mutants;
pub mod shard;
#[cfg(loom)]
pub mod toys;

#[cfg(loom)]
pub use cells::{exploration_name, pinned_executions, shard_group, verify_cell};
#[cfg(loom)]
pub use child::{child_main, CHILD_ENV};
#[cfg(loom)]
pub use mutants::verify_mutant;
