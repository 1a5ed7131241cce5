//! HDDS-17643: histories under the improved fix must reach no outcome. The stable
//! `cargo test -p racelab-props` replays this target's corpus and regressions through the same
//! function.
#![no_main]

use racelab_core::contracts::container_recreate::{histories::Op, ContainerRecreate};

racelab_fuzz::histories_target!(ContainerRecreate, Op);
