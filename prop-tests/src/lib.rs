//! racelab-props: long histories through the same step functions loom checks.
//!
//! Each contract gives a [`histories::Histories`] impl: its operations (with a byte codec the
//! fuzz targets and the corpus share), a reference state machine that generates meaningful
//! histories for proptest, and one property function that runs a history on the step driver
//! and reports every outcome it reaches. proptest, quickcheck, cargo-fuzz and the stable corpus
//! replay all call that one function.
#![forbid(unsafe_code)]

pub mod dead_node;
pub mod histories;
pub mod leader_ready;
pub mod recon_sync;
pub mod scenario;
