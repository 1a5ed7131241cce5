//! racelab-loom: checks claims-matrix cells by exploring every interleaving with loom.
//!
//! Compiled for real only under `RUSTFLAGS="--cfg loom"` (run as `-p racelab-loom`); without
//! it the crate is empty. The tests (`tests/cells.rs`) are generated from the registry: one per
//! loom cell and mutant of every contract, and the harness's own toy cells.
#![forbid(unsafe_code)]

#[cfg(loom)]
mod runner;
pub mod shard;
#[cfg(loom)]
pub mod toys;
#[cfg(loom)]
pub use runner::*;
