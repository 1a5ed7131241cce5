//! The NameNode side: `DatanodeManager` (heartbeats, registration, the dead-node path of
//! `HeartbeatManager`), `BlockReportLeaseManager` and `BlockManager`'s report processing, all
//! under the `FSNamesystem` lock (one mutex here; heartbeats take its read lock upstream, and
//! nothing else in the model runs concurrently with them on the NameNode).
//!
//! The handlers run inside the DataNode caller's RPC step: the caller does nothing else while it
//! waits, and each handler is one critical section. A long RPC (the FBR) is split by its caller
//! into this processing step and the response step.

use super::blocks::BlockSet;
use super::speed::counted::{unseen, Mutex};
use super::{Block, Millis, MAX_DATANODES};
use crate::trace::Cx;

/// `HAServiceState` as the NameNode reports it in every heartbeat response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaState {
    Active,
    Standby,
    Observer,
}

impl HaState {
    pub fn code(self) -> u64 {
        self as u64
    }

    pub fn from_code(code: u64) -> Self {
        match code {
            0 => HaState::Active,
            1 => HaState::Standby,
            _ => HaState::Observer,
        }
    }
}

/// `dfs.namenode.heartbeat.recheck-interval` × 2 + 10 heartbeats: 10.5 min.
pub const HEARTBEAT_EXPIRE_INTERVAL: Millis = 2 * 300_000 + 10 * 3_000;

/// How long a restarted NameNode stays in startup safe mode here: `dfs.namenode.safemode.extension`
/// (30 s), counted from the restart.
pub const SAFEMODE_EXTENSION: Millis = 30_000;

/// A `DatanodeDescriptor` and its storage's block list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Descriptor {
    /// `isAlive` (`isRegistered()` = alive and not forced to re-register).
    pub alive: bool,
    /// The blocks the NameNode locates on this DataNode.
    pub blocks: BlockSet,
    /// `DatanodeStorageInfo.blockReportCount`, reset by `updateRegInfo`.
    pub block_report_count: u32,
    /// `lastUpdateMonotonic`, for the dead-node check.
    pub last_update: Millis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Namesystem {
    pub ha: HaState,
    /// `datanodeMap`, by DataNode index (`None`: no descriptor).
    pub datanodes: [Option<Descriptor>; MAX_DATANODES],
    /// `BlockReportLeaseManager.nodes`, by DataNode index: a node's current lease id (0: none;
    /// `None`: not in the map).
    pub leases: [Option<u64>; MAX_DATANODES],
    next_lease_id: u64,
    /// `isInStartupSafeMode()` until this time: a restart enters startup safe mode, and the
    /// model's NameNode leaves it [`SAFEMODE_EXTENSION`] later (upstream leaves once the
    /// reported blocks reach the threshold, then waits the extension; a restarted NameNode busy
    /// with every DataNode's reports, the report's situation, is in it throughout the scenarios'
    /// windows, which last a few heartbeats).
    pub startup_safe_mode_until: Millis,
}

/// What `handleHeartbeat` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeartbeatResponse {
    /// `[RegisterCommand.REGISTER]`: the node is unknown or not registered.
    pub register: bool,
    /// `fullBlockReportLeaseId` (0: none).
    pub lease: u64,
    pub ha: HaState,
}

/// How `NameNodeRpcServer.blockReport` answers an FBR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportAnswer {
    /// Processed: the storage's block list is the snapshot.
    Processed,
    /// The node is unknown (`UnregisteredNodeException` caught): `RegisterCommand.REGISTER`
    /// is returned as the RPC's command.
    Register,
}

/// How `NameNodeRpcServer.blockReport` rejects an FBR: an exception in the DataNode's
/// `blockReport`, so no `scheduleNextBlockReport`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// `InvalidBlockReportLeaseException`: the lease is not the node's current one.
    InvalidLease,
    /// `processReport`'s `IOException`: "ProcessReport from dead or unregistered node".
    Unregistered,
}

/// A `blockReceivedAndDeleted` RPC that times out (the NameNode is busy), for scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RpcTimeout;

#[derive(Debug)]
pub struct NameNode {
    pub id: usize,
    ns: Mutex<Namesystem>,
    /// Scenario fault: the next `blockReceivedAndDeleted` times out (not a model state).
    fail_next_ibr: unseen::AtomicBool,
}

impl NameNode {
    pub fn new(id: usize, ha: HaState) -> Self {
        NameNode {
            id,
            ns: Mutex::new(Namesystem {
                ha,
                datanodes: [None; MAX_DATANODES],
                leases: [None; MAX_DATANODES],
                next_lease_id: 1,
                startup_safe_mode_until: 0,
            }),
            fail_next_ibr: Default::default(),
        }
    }

    pub fn duplicate(&self) -> Self {
        NameNode {
            id: self.id,
            ns: Mutex::new(self.state()),
            fail_next_ibr: unseen::AtomicBool::new(
                self.fail_next_ibr.load(unseen::Ordering::SeqCst),
            ),
        }
    }

    /// Appends the namesystem and the scenario fault to `fingerprint` (see `World::fingerprint`):
    /// per DataNode, whether it has a descriptor and a lease-manager entry, and their contents.
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        let ns = self.ns.lock();
        let fail = self.fail_next_ibr.load(unseen::Ordering::SeqCst);
        fingerprint.extend([
            ns.ha.code() | u64::from(fail) << 2,
            ns.next_lease_id,
            ns.startup_safe_mode_until as u64,
        ]);
        for (d, lease) in ns.datanodes.iter().zip(ns.leases) {
            fingerprint.push(u64::from(d.is_some()) | u64::from(lease.is_some()) << 1);
            if let Some(d) = d {
                fingerprint.extend([
                    u64::from(d.alive),
                    d.blocks.word(),
                    d.block_report_count.into(),
                    d.last_update as u64,
                ]);
            }
            fingerprint.extend(lease);
        }
    }

    pub fn state(&self) -> Namesystem {
        *self.ns.lock()
    }

    /// `f` on the namesystem, without copying it.
    pub fn with_state<R>(&self, f: impl FnOnce(&Namesystem) -> R) -> R {
        f(&self.ns.lock())
    }

    /// Whether the NameNode knows DataNode `dn` and holds it alive (`isRegistered()`): its
    /// heartbeats are answered without REGISTER.
    pub fn is_registered(&self, dn: usize) -> bool {
        self.ns.lock().datanodes[dn].is_some_and(|d| d.alive)
    }

    /// Whether this NameNode locates `block` on DataNode `dn`.
    pub fn locates(&self, dn: usize, block: Block) -> bool {
        self.ns.lock().datanodes[dn].is_some_and(|d| d.blocks.contains(block))
    }

    pub fn ha(&self) -> HaState {
        self.ns.lock().ha
    }

    /// The blocks this NameNode locates on DataNode `dn`.
    pub fn locations_on(&self, dn: usize) -> BlockSet {
        self.ns.lock().datanodes[dn]
            .map(|d| d.blocks)
            .unwrap_or_default()
    }

    pub fn fail_next_ibr(&self) {
        self.fail_next_ibr.store(true, unseen::Ordering::SeqCst);
    }

    /// `FSNamesystem.handleHeartbeat`: `DatanodeManager.handleHeartbeat` answers REGISTER for an
    /// unknown or unregistered node; the lease is asked of `BlockManager` separately, and
    /// `requestBlockReportLeaseId` only needs the descriptor to exist, so one answer can carry
    /// both REGISTER and a lease (a dead node the NameNode kept).
    pub fn handle_heartbeat(
        &self,
        cx: &Cx,
        dn: usize,
        request_lease: bool,
        now: Millis,
    ) -> HeartbeatResponse {
        let mut ns = self.ns.lock();
        let ha = ns.ha;
        let known = ns.datanodes[dn].is_some();
        let register = match &mut ns.datanodes[dn] {
            Some(d) if d.alive => {
                d.last_update = now;
                false
            }
            _ => true,
        };
        let lease = if request_lease && known {
            ns.request_lease(dn)
        } else {
            0
        };
        crate::record!(
            cx,
            "DatanodeManager.handleHeartbeat",
            "nn{} {}{}, lease {lease}, {ha:?}",
            self.id,
            if known { "" } else { "unknown node: " },
            if register { "REGISTER" } else { "no command" }
        );
        HeartbeatResponse {
            register,
            lease,
            ha,
        }
    }

    /// `DatanodeManager.registerDatanode`. A known node: `updateRegInfo` (block report counts
    /// reset) and `heartbeatManager.register` (alive again); its lease stays. A new node: a new
    /// descriptor, registered with the lease manager.
    pub fn register_datanode(&self, cx: &Cx, dn: usize, now: Millis) {
        let mut ns = self.ns.lock();
        let known = match &mut ns.datanodes[dn] {
            Some(d) => {
                d.block_report_count = 0;
                d.alive = true;
                d.last_update = now;
                true
            }
            None => {
                ns.datanodes[dn] = Some(Descriptor {
                    alive: true,
                    last_update: now,
                    ..Descriptor::default()
                });
                ns.leases[dn].get_or_insert(0);
                false
            }
        };
        crate::record!(
            cx,
            "DatanodeManager.registerDatanode",
            "nn{}: {}",
            self.id,
            if known {
                "known node re-registered (updateRegInfo)"
            } else {
                "new node"
            }
        );
    }

    /// `blockReceivedAndDeleted`: queued, then `processIncrementalBlockReport`; from a node that
    /// is not registered it throws on the NameNode and is only logged ("next heartbeat will
    /// correct the problem"): the DataNode sees success either way.
    pub fn block_received_and_deleted(
        &self,
        cx: &Cx,
        dn: usize,
        blocks: BlockSet,
    ) -> Result<(), RpcTimeout> {
        if self.fail_next_ibr.swap(false, unseen::Ordering::SeqCst) {
            crate::record!(
                cx,
                "NameNodeRpcServer.blockReceivedAndDeleted",
                "nn{}: {} timed out (NameNode busy)",
                self.id,
                blocks.list()
            );
            return Err(RpcTimeout);
        }
        let mut ns = self.ns.lock();
        let accepted = match &mut ns.datanodes[dn] {
            Some(d) if d.alive => {
                d.blocks = d.blocks.union(blocks);
                true
            }
            _ => false,
        };
        crate::record!(
            cx,
            "NameNodeRpcServer.blockReceivedAndDeleted",
            "nn{}: {} {}",
            self.id,
            blocks.list(),
            if accepted {
                "added"
            } else {
                "dropped: node not registered"
            }
        );
        Ok(())
    }

    /// `NameNodeRpcServer.blockReport` (trunk): the lease is checked first
    /// (`checkBlockReportLease`): an unknown node is answered REGISTER, a lease that is not the
    /// node's current one gets `InvalidBlockReportLeaseException` (older releases ignored the
    /// report and returned normally). Then `processReport`: an unregistered (dead) node gets an
    /// `IOException`; otherwise the storage's block list becomes the snapshot, and the lease
    /// ends (`removeBRLeaseIfNeeded`).
    pub fn block_report(
        &self,
        cx: &Cx,
        dn: usize,
        lease: u64,
        snapshot: BlockSet,
        now: Millis,
    ) -> Result<ReportAnswer, Rejected> {
        let mut ns = self.ns.lock();
        let Some(registered) = ns.datanodes[dn].map(|d| d.alive) else {
            crate::record!(
                cx,
                "NameNodeRpcServer.blockReport",
                "nn{}: unknown node: RegisterCommand.REGISTER",
                self.id
            );
            return Ok(ReportAnswer::Register);
        };
        if !ns.check_lease(dn, lease) {
            crate::record!(
                cx,
                "NameNodeRpcServer.blockReport",
                "nn{}: InvalidBlockReportLeaseException (lease {lease})",
                self.id
            );
            return Err(Rejected::InvalidLease);
        }
        if !registered {
            crate::record!(
                cx,
                "BlockManager.processReport",
                "nn{}: IOException: from dead or unregistered node",
                self.id
            );
            return Err(Rejected::Unregistered);
        }
        let safe_mode = now < ns.startup_safe_mode_until;
        let d = ns.datanodes[dn].as_mut().expect("known");
        if safe_mode && d.block_report_count > 0 {
            // BlockManager.processReport: "discarded non-initial block report ... because
            // namenode still in startup phase"; the lease is removed and the RPC returns
            // normally, so the DataNode takes the report as sent.
            ns.leases[dn] = Some(0);
            crate::record!(
                cx,
                "BlockManager.processReport",
                "nn{}: startup safe mode, blockReportCount > 0: report of dn{dn} discarded",
                self.id
            );
            return Ok(ReportAnswer::Processed);
        }
        d.blocks = snapshot;
        d.block_report_count += 1;
        ns.leases[dn] = Some(0);
        crate::record!(
            cx,
            "BlockManager.processReport",
            "nn{}: blocks of dn{dn} := {snapshot:?}",
            self.id
        );
        Ok(ReportAnswer::Processed)
    }

    /// `HeartbeatManager.heartbeatCheck` → `DatanodeManager.removeDeadDatanode`: a node whose
    /// last heartbeat is older than the expiry interval is marked dead; its descriptor stays in
    /// `datanodeMap`, its block locations are dropped (`removeBlocksAssociatedTo`) and its
    /// lease is unregistered. Returns whether it was marked dead.
    pub fn heartbeat_check(&self, cx: &Cx, dn: usize, now: Millis) -> bool {
        let mut ns = self.ns.lock();
        let dead = match &mut ns.datanodes[dn] {
            Some(d) if d.alive && d.last_update < now - HEARTBEAT_EXPIRE_INTERVAL => {
                d.alive = false;
                d.blocks = BlockSet::EMPTY;
                true
            }
            _ => false,
        };
        if dead {
            ns.leases[dn] = None;
            crate::record!(
                cx,
                "DatanodeManager.removeDeadDatanode",
                "nn{}: dn{dn} dead, its block locations dropped",
                self.id
            );
        }
        dead
    }

    /// Marks `dn` dead as `removeDeadDatanode` does, for a scenario's starting state.
    pub fn mark_dead(&self, dn: usize) {
        let mut ns = self.ns.lock();
        if let Some(d) = &mut ns.datanodes[dn] {
            d.alive = false;
            d.blocks = BlockSet::EMPTY;
        }
        ns.leases[dn] = None;
    }

    /// A restart: the datanode map, the block locations and the leases are gone.
    pub fn restart(&self, cx: &Cx, ha: HaState, now: Millis) {
        let mut ns = self.ns.lock();
        ns.datanodes = [None; MAX_DATANODES];
        ns.leases = [None; MAX_DATANODES];
        ns.ha = ha;
        ns.startup_safe_mode_until = now + SAFEMODE_EXTENSION;
        crate::record!(
            cx,
            "NameNode.restart",
            "nn{}: empty datanode map, {ha:?}, startup safe mode",
            self.id
        );
    }

    /// A failover changes the HA state only.
    pub fn transition(&self, cx: &Cx, ha: HaState) {
        self.ns.lock().ha = ha;
        crate::record!(cx, "NameNode.transitionTo", "nn{}: {ha:?}", self.id);
    }
}

impl Namesystem {
    /// `BlockReportLeaseManager.requestLease`: an unknown node is registered now; a new lease
    /// replaces any old one (the pending limit is not modelled: leases are always granted).
    fn request_lease(&mut self, dn: usize) -> u64 {
        let id = self.next_lease_id;
        self.next_lease_id += 1;
        self.leases[dn] = Some(id);
        id
    }

    /// `BlockReportLeaseManager.checkLease` (lease expiry is not modelled).
    fn check_lease(&self, dn: usize, id: u64) -> bool {
        id == 0 || self.leases[dn].is_some_and(|l| l != 0 && l == id)
    }

    /// The blocks located on some DataNode.
    pub fn located(&self) -> BlockSet {
        self.datanodes
            .iter()
            .flatten()
            .fold(BlockSet::EMPTY, |all, d| all.union(d.blocks))
    }
}
