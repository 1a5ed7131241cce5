//! HDDS-17067: histories under the proposed fix must reach no outcome but the residual windows
//! R1, R2 and R3. The stable `cargo test -p racelab-props` replays this target's corpus and
//! regressions through the same function.
#![no_main]

use libfuzzer_sys::fuzz_target;
use racelab_core::contracts::dead_node::{histories::Op, DeadNode};
use racelab_core::histories::{fuzz, History};

fuzz_target!(|history: History<Op>| fuzz::<DeadNode>(&history.0));
