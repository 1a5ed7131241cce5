//! One folder per bug report, each of the same shape: the upstream components, `Fix`, the
//! actors' steps, the scenarios, the outcomes, the claims, the reproductions and (with the
//! `histories` feature) the long histories. The list of contracts is
//! [`crate::registry::visit`].

pub mod container_recreate;
pub mod dead_node;
pub mod leader_ready;
pub mod recon_sync;
pub mod reregister;
