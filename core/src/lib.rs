//! racelab-core: reference models of five published Ozone/HDFS concurrency bugs, with the
//! upstream behaviour and every part of each proposed fix as switches, and the harness every
//! contract shares (the sync shim, the trace, the step driver, the claims matrix, the reports).
#![deny(unsafe_code)]

pub mod bits;
pub mod claims;
pub mod contracts;
pub mod drive;
pub mod findings;
#[cfg(feature = "histories")]
pub mod histories;
pub mod model;
pub mod outcome;
pub mod plan;
pub mod premises;
pub mod registry;
pub mod report;
pub mod schedule;
pub mod splitmix;
pub mod steps;
pub mod switches;
pub mod sync;
pub mod trace;
pub mod upstream;

pub use claims::{Checker, Claim, Claims, Method, Mutant, Reproduction, Verdict};
pub use model::{Contract, Model, Part, Program, Scenario, Setup, Variant};
pub use outcome::{Check, Outcome, OutcomeId};
pub use trace::{Cx, Timeline, Trace};
