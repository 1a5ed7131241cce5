//! HDFS-17969: histories under the proposed fix (P1+P2) must reach no outcome. The stable
//! `cargo test -p racelab-props` replays this target's corpus and regressions through the same
//! function.
#![no_main]

use racelab_core::contracts::reregister::{cluster::Op, Reregister};

racelab_fuzz::histories_target!(Reregister, Op);
