//! racelab-core: reference models of five published Ozone/HDFS concurrency bugs, with the
//! upstream behaviour and every part of each proposed fix as switches, and the harness every
//! contract shares (the sync shim, the trace, the step driver, the claims matrix).
#![forbid(unsafe_code)]

pub mod claims;
pub mod drive;
pub mod json;
pub mod matrix;
pub mod model;
pub mod registry;
pub mod sync;
pub mod trace;

pub mod dead_node;
pub mod leader_ready;
pub mod recon_sync;

pub use claims::{Checker, Claim, Claims, Method, Mutant, Reproduction, Verdict};
pub use model::{Contract, Model, Outcome, OutcomeId, Part, Program, Scenario, Setup, Variant};
pub use trace::{Cx, Timeline, Trace};
