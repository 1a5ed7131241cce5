//! `SCMNodeManager.register` and `processHeartbeat`. The datanode that calls them is
//! [`super::datanode`].
//!
//! Not modelled: the layout-version fence (`errorNodeNotPermitted`: every layout matches), the
//! network topology and the DNS map (no replica depends on them), the node and pipeline reports,
//! the command queue, and the dispatcher's re-register answer to an unknown node (every node is
//! known: none is ever removed).

use super::node_state::NodeState;
use super::{NodeId, World};
use crate::trace::Cx;

/// Which known nodes `SCMNodeManager.register` refreshes (P1 is [`Refresh::Known`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refresh {
    /// Upstream: none.
    Off,
    /// P1: every known node that registers.
    Known,
    /// A broken P1 (a mutant the suite must catch): a known node that is not DEAD. O1's path
    /// (a DEAD node registers and stops) stays open; O2's (a STALE node registers) closes.
    UnlessDead,
    /// A broken P1 (a mutant the suite must catch): a known node that is DEAD only. O2's path
    /// stays open; O1's closes.
    OnlyDead,
}

impl Refresh {
    /// Whether `register` refreshes a known node; `health` reads its state (`None`: not
    /// listed), and only the mutants read it (P1 reads nothing more than upstream does).
    pub fn refreshes(self, health: impl FnOnce() -> Option<NodeState>) -> bool {
        let dead = || health() == Some(NodeState::Dead);
        match self {
            Refresh::Off => false,
            Refresh::Known => true,
            Refresh::UnlessDead => !dead(),
            Refresh::OnlyDead => dead(),
        }
    }
}

/// P1's refresh of a known node that registers: `DatanodeInfo.updateLastHeartbeatTime()`.
fn p1_refresh(cx: &Cx, w: &World, node: NodeId, now: u64, by_datanode: bool) {
    let why = if by_datanode {
        "SCMNodeManager.register (P1)"
    } else {
        "SCMNodeManager.register (P1) from loadExistingNodes"
    };
    w.nodes
        .update_last_heartbeat_time(cx, &w.ghost, node, now, why, by_datanode);
}

/// `SCMNodeManager.register` for a datanode that reports `reported` (address, ports and version
/// as one number). Inside an RPC, `Server.getRemoteIp()` is the peer (`remote`), whose hostname
/// and IP replace the reported ones; Recon's `loadExistingNodes` calls it outside any RPC
/// (`remote` is `None`: the stored row's address stands) with `by_datanode` false. Returns the
/// ghost order of the registration when a datanode registered.
pub fn register(
    cx: &Cx,
    w: &World,
    node: NodeId,
    reported: u8,
    remote: Option<u8>,
    by_datanode: bool,
) -> Option<u64> {
    let address = remote.unwrap_or(reported);
    // isNodeRegistered, then getNode: one lookup here. Only a registration replaces the entry,
    // and this datanode's registrations are sequential (Recon's reload re-registers a stored node
    // with the address it last registered with, which replaces nothing).
    match w.nodes.address_of(node) {
        None => {
            let now = w.clock.now();
            w.nodes
                .add_node(cx, &w.ghost, node, address, now, by_datanode);
            cx.record(
                "SCMNodeManager.register",
                format_args!("dn{node} is new: NEW_NODE"),
            );
        }
        Some(old) if old != address => {
            let now = w.clock.now();
            w.nodes
                .update_node(cx, &w.ghost, node, address, now, by_datanode);
            if w.fix
                .register_refreshes_heartbeat
                .get()
                .refreshes(|| w.nodes.node_health(node))
            {
                // P1 refreshes every known node that registers, the one whose DatanodeInfo
                // updateNode just replaced too (its time is already `now`: the write changes
                // nothing but is made).
                p1_refresh(cx, w, node, now, by_datanode);
            }
            cx.record(
                "SCMNodeManager.register",
                format_args!("dn{node} known, address {old} → {address}: NODE_ADDRESS_UPDATE"),
            );
        }
        Some(_)
            if w.fix
                .register_refreshes_heartbeat
                .get()
                .refreshes(|| w.nodes.node_health(node)) =>
        {
            // P1: `DatanodeInfo.updateLastHeartbeatTime()` for a known node.
            p1_refresh(cx, w, node, w.clock.now(), by_datanode);
            cx.record(
                "SCMNodeManager.register",
                format_args!(
                    "dn{node} known, same address, ports and version: P1 refreshed the heartbeat time"
                ),
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
    cx.record(
        "SCMNodeManager.processHeartbeat",
        format_args!("dn{node}: heartbeat time refreshed, no command"),
    );
}
