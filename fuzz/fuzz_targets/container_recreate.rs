//! HDDS-17643: histories under the improved fix must reach no outcome. The stable
//! `cargo test -p racelab-props` replays this target's corpus and regressions through the same
//! function.
#![no_main]

use libfuzzer_sys::fuzz_target;
use racelab_core::contracts::container_recreate::{histories::Op, ContainerRecreate};
use racelab_core::histories::{fuzz, History};

fuzz_target!(|history: History<Op>| fuzz::<ContainerRecreate>(&history.0));
