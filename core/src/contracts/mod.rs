//! One folder per bug report, each of the same shape: the upstream components, `Fix`, the
//! actors' steps, the scenarios, the outcomes, the claims, the reproductions and (with the
//! `histories` feature) the long histories.

pub mod container_recreate;
pub mod dead_node;
pub mod leader_ready;
pub mod recon_sync;
pub mod reregister;

use crate::registry::Visitor;

/// Every contract, in report order: the one list every checker, the replay and the gate read.
pub fn visit(v: &mut impl Visitor) {
    v.visit::<leader_ready::LeaderReady>();
    v.visit::<recon_sync::ReconSync>();
    v.visit::<dead_node::DeadNode>();
    v.visit::<container_recreate::ContainerRecreate>();
    v.visit::<reregister::Reregister>();
}
