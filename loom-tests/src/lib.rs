//! racelab-loom: checks claims-matrix cells by exploring every interleaving with loom.
//!
//! Compiled for real only under `RUSTFLAGS="--cfg loom"` (run as `-p racelab-loom`); without
//! it the crate is empty.
#![forbid(unsafe_code)]

#[cfg(loom)]
mod runner;
#[cfg(loom)]
pub use runner::*;
