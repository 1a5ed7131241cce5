//! HDDS-17067: histories under the proposed fix must reach no outcome but the residual windows
//! R1, R2 and R3. The stable `cargo test -p racelab-props` replays this target's corpus and
//! regressions through the same function.
#![no_main]

use racelab_core::contracts::dead_node::{histories::Op, DeadNode};

racelab_fuzz::histories_target!(DeadNode, Op);
