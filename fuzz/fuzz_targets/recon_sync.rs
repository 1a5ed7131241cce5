//! HDDS-17042: histories under the proposed fix must reach no outcome but O3, and O3 only when
//! a sync failed between its commit and its hand-off (HDDS-5146). The stable
//! `cargo test -p racelab-props` replays this target's corpus and regressions through the same
//! function.
#![no_main]

use racelab_core::contracts::recon_sync::{histories::Op, ReconSync};

racelab_fuzz::histories_target!(ReconSync, Op);
