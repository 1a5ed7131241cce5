//! `SCMNodeManager.register` and `processHeartbeat`, and the datanode's calls to them as the
//! RPC handler thread serves them (`SCMDatanodeProtocolServer.register`, which fires the
//! registration's CONTAINER_REPORT; `SCMDatanodeHeartbeatDispatcher.dispatch`).
//!
//! One datanode's calls are sequential (its state machine waits for each answer), so one
//! program carries them in order; which RPC handler thread serves each call does not matter.
//! Not modelled: the layout-version fence (`errorNodeNotPermitted`: every layout matches), the
//! network topology and the DNS map (no replica depends on them), the node and pipeline reports,
//! the command queue, and the dispatcher's re-register answer to an unknown node (every node is
//! known: none is ever removed).

use super::containers::ContainerReport;
use super::recon;
use super::{NodeId, Service, World};
use crate::model::Program;
use crate::trace::{Cx, Trace};
use std::collections::VecDeque;

/// `SCMNodeManager.register` for a datanode at `address` (address, ports and version as one
/// number). `by_datanode` is false for Recon's `loadExistingNodes`, which calls it for stored
/// nodes. Returns the ghost order of the registration when a datanode registered.
pub fn register(cx: &Cx, w: &World, node: NodeId, address: u8, by_datanode: bool) -> Option<u64> {
    // isNodeRegistered, then getNode: one lookup here. Only a registration replaces the entry,
    // and this datanode's registrations are sequential (Recon's reload re-registers a stored node
    // with the address it last registered with, which replaces nothing).
    let known = w.nodes.get_node(node);
    match known {
        None => {
            let now = w.clock.now();
            w.nodes
                .add_node(cx, &w.ghost, node, address, now, by_datanode);
            cx.record(
                "SCMNodeManager.register",
                format_args!("dn{node} is new: NEW_NODE"),
            );
        }
        Some(old) if old.address != address => {
            let now = w.clock.now();
            w.nodes
                .update_node(cx, &w.ghost, node, address, now, by_datanode);
            cx.record(
                "SCMNodeManager.register",
                format_args!(
                    "dn{node} known, address {} → {address}: NODE_ADDRESS_UPDATE",
                    old.address
                ),
            );
        }
        Some(_) if w.fix.register_refreshes_heartbeat => {
            // P1: `DatanodeInfo.updateLastHeartbeatTime()` for a known node.
            let now = w.clock.now();
            w.nodes.update_last_heartbeat_time(
                cx,
                &w.ghost,
                node,
                now,
                if by_datanode {
                    "SCMNodeManager.register (P1)"
                } else {
                    "SCMNodeManager.register (P1) from loadExistingNodes"
                },
                by_datanode,
            );
        }
        Some(_) => {
            cx.record(
                "SCMNodeManager.register",
                format_args!("dn{node} known, same address, ports and version: nothing refreshed"),
            );
        }
    }
    by_datanode.then(|| {
        w.ghost.with(|g| {
            let seq = g.next_seq();
            let now = g.now;
            g.node(node).registered = Some((seq, now));
            seq
        })
    })
}

/// `SCMNodeManager.processHeartbeat`: `NodeStateManager.updateLastHeartbeatTime`, then the
/// command queue under the node manager's write lock (not modelled: no command matters here).
pub fn process_heartbeat(cx: &Cx, w: &World, node: NodeId) {
    let now = w.clock.now();
    w.nodes.update_last_heartbeat_time(
        cx,
        &w.ghost,
        node,
        now,
        "SCMNodeManager.processHeartbeat",
        true,
    );
}

/// What a datanode does, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DnAction {
    /// A heartbeat (to Recon: answered with `ReregisterCommand` after a gap).
    Heartbeat,
    /// Registration at an address; its full container report follows.
    Register { address: u8 },
    /// The process stops (or is cut off): it sends nothing until its next action.
    Stop,
}

/// The RPC handler side of one datanode's calls.
#[derive(Debug)]
pub struct Datanode {
    cx: Cx,
    node: NodeId,
    actions: VecDeque<DnAction>,
    report: Option<ContainerReport>,
}

impl Datanode {
    /// The RPC handler side of `node`'s calls.
    pub fn actor_of(node: NodeId) -> &'static str {
        match node {
            1 => "RPC-dn1",
            2 => "RPC-dn2",
            3 => "RPC-dn3",
            _ => "RPC",
        }
    }

    pub fn new(trace: &Trace, node: NodeId, actions: &[DnAction]) -> Self {
        Datanode {
            cx: trace.actor(Self::actor_of(node)),
            node,
            actions: actions.iter().copied().collect(),
            report: None,
        }
    }
}

impl Program<World> for Datanode {
    fn actor(&self) -> &'static str {
        self.cx.actor
    }

    fn is_done(&self) -> bool {
        self.actions.is_empty() && self.report.is_none()
    }

    fn step(&mut self, w: &World) {
        let (cx, node) = (&self.cx, self.node);
        if let Some(report) = self.report.take() {
            // SCMDatanodeProtocolServer.register, after a successful register: CONTAINER_REPORT
            // with the registration's full report (isRegister).
            w.reports(node).fire(cx, [report], false);
            return;
        }
        let Some(action) = self.actions.pop_front() else {
            return;
        };
        match action {
            DnAction::Heartbeat => {
                w.ghost.with(|g| g.down.remove(&node));
                match w.service {
                    Service::Scm => process_heartbeat(cx, w, node),
                    Service::Recon => recon::process_heartbeat(cx, w, node),
                }
            }
            DnAction::Register { address } => {
                w.ghost.with(|g| g.down.remove(&node));
                let registration = match w.service {
                    Service::Scm => register(cx, w, node, address, true),
                    Service::Recon => recon::register(cx, w, node, address, true),
                };
                self.report = Some(ContainerReport {
                    node,
                    containers: w.holdings(node),
                    registration,
                });
            }
            DnAction::Stop => {
                w.ghost.with(|g| g.down.insert(node));
                cx.record("Datanode", format_args!("dn{node} stops"));
            }
        }
    }
}
