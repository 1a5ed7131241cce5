//! HDFS-17969: histories under the proposed fix (P1+P2) must reach no outcome. The stable
//! `cargo test -p racelab-props` replays this target's corpus and regressions through the same
//! function.
#![no_main]

use libfuzzer_sys::fuzz_target;
use racelab_core::contracts::reregister::{cluster::Op, Reregister};
use racelab_core::histories::{fuzz, History};

fuzz_target!(|history: History<Op>| fuzz::<Reregister>(&history.0));
