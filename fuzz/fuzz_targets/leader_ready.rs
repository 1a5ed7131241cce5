//! HDDS-17575: histories under the proposed fix must reach no outcome but the admitted residual
//! window R1. The stable `cargo test -p racelab-props` replays this target's corpus and
//! regressions through the same function.
#![no_main]

use racelab_core::contracts::leader_ready::{histories::Op, LeaderReady};

racelab_fuzz::histories_target!(LeaderReady, Op);
