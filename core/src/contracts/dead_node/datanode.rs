//! A datanode's calls as the RPC handler thread serves them (`SCMDatanodeProtocolServer.register`,
//! which fires the registration's CONTAINER_REPORT; `SCMDatanodeHeartbeatDispatcher.dispatch`),
//! to SCM's node manager or Recon's.
//!
//! One datanode's calls are sequential (its state machine waits for each answer), so one
//! program carries them in order; which RPC handler thread serves each call does not matter.

use super::containers::ContainerReport;
use super::{node_manager, recon};
use super::{NodeId, Service, World};
use crate::model::Program;
use crate::trace::{Cx, Trace};

/// What a datanode does, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DnAction {
    /// A heartbeat (to Recon: answered with `ReregisterCommand` after a gap).
    Heartbeat,
    /// Registration with the address (and ports and version) the datanode reports about
    /// itself; SCM sees the RPC peer's ([`World::peer_address`]); its full container report
    /// follows.
    Register { address: u8 },
    /// The process stops (or is cut off): it sends nothing until its next action.
    Stop,
}

/// The most actions one program carries (a reproduction's heartbeat, registration and stop).
const MAX_ACTIONS: usize = 3;

/// The RPC handler side of one datanode's calls.
#[derive(Debug)]
pub struct Datanode {
    cx: Cx,
    node: NodeId,
    /// `actions[next..len]` are still to do (a fixed array: a history starts one program per
    /// datanode operation).
    actions: [DnAction; MAX_ACTIONS],
    next: usize,
    len: usize,
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
        assert!(
            actions.len() <= MAX_ACTIONS,
            "at most {MAX_ACTIONS} actions"
        );
        let mut all = [DnAction::Stop; MAX_ACTIONS];
        all[..actions.len()].copy_from_slice(actions);
        Datanode {
            cx: trace.actor(Self::actor_of(node)),
            node,
            actions: all,
            next: 0,
            len: actions.len(),
            report: None,
        }
    }
}

impl Program<World> for Datanode {
    fn actor(&self) -> &'static str {
        self.cx.actor
    }

    fn is_done(&self) -> bool {
        self.next == self.len && self.report.is_none()
    }

    fn step(&mut self, w: &World) {
        let (cx, node) = (&self.cx, self.node);
        if let Some(report) = self.report.take() {
            // SCMDatanodeProtocolServer.register, after a successful register: CONTAINER_REPORT
            // with the registration's full report (isRegister).
            w.reports(node).fire(cx, [report], false);
            return;
        }
        if self.next == self.len {
            return;
        }
        let action = self.actions[self.next];
        self.next += 1;
        if action != DnAction::Stop {
            // The datanode process runs again (or still).
            w.ghost.with(|g| g.down.remove(node));
        }
        match action {
            DnAction::Heartbeat => match w.service {
                Service::Scm => node_manager::process_heartbeat(cx, w, node),
                Service::Recon => recon::process_heartbeat(cx, w, node),
            },
            DnAction::Register { address } => {
                let peer = Some(w.peer_address(node, address));
                let registration = match w.service {
                    Service::Scm => node_manager::register(cx, w, node, address, peer, true),
                    Service::Recon => recon::register(cx, w, node, address, peer, true),
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
