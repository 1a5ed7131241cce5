//! `SCMServiceManager` and the two services the report shows: `ReplicationManager` and
//! `SCMBlockDeletingService`. Both recompute RUNNING/PAUSING under their own `serviceLock` when
//! notified, from `SCMContext.isLeaderReady()`; the manager's `notifyStatusChanged` is
//! `synchronized`.
//!
//! Simplified: `isInSafeMode()` is not modelled (safe mode is off and never changes in these
//! scenarios, so that read returns the same value at any point and removing it removes no
//! behaviour). `shouldRun()` compares a logical clock with the time of the last transition to
//! RUNNING, as upstream compares `clock.millis()`.

use super::context::SCMContext;
use crate::sync::unseen::{AtomicU64, Ordering};
use crate::sync::Mutex;
use crate::trace::Cx;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceStatus {
    Running,
    Pausing,
}

/// A service gated on `isLeaderReady` (`ReplicationManager` and `SCMBlockDeletingService`
/// share this logic upstream: `notifyStatusChanged` and `shouldRun` under `serviceLock`).
#[derive(Debug)]
pub struct GatedService {
    pub name: &'static str,
    notify_method: &'static str,
    /// `ServiceStatus serviceStatus` and `lastTimeToBeReadyInMillis` / `safemodeExitMillis`.
    service_lock: Mutex<(ServiceStatus, u64)>,
}

impl GatedService {
    fn new(name: &'static str, notify_method: &'static str) -> Self {
        GatedService {
            name,
            notify_method,
            service_lock: Mutex::new((ServiceStatus::Pausing, 0)),
        }
    }

    /// `notifyStatusChanged()` under `serviceLock`.
    fn notify_status_changed(&self, cx: &Cx, context: &SCMContext, now: u64) {
        let mut s = self.service_lock.lock();
        let ready = context.is_leader_ready();
        let next = if ready {
            ServiceStatus::Running
        } else {
            ServiceStatus::Pausing
        };
        if next == ServiceStatus::Running && s.0 != ServiceStatus::Running {
            s.1 = now;
        }
        s.0 = next;
        cx.record(
            self.notify_method,
            format_args!("isLeaderReady={ready} → {next:?}"),
        );
    }

    pub fn status(&self) -> ServiceStatus {
        self.service_lock.lock().0
    }

    /// `shouldRun()`: RUNNING for at least `wait` (hdds.scm.wait.time.after.safemode.exit).
    pub fn should_run(&self, now: u64, wait: u64) -> bool {
        let s = self.service_lock.lock();
        s.0 == ServiceStatus::Running && now.saturating_sub(s.1) >= wait
    }
}

#[derive(Debug)]
pub struct SCMServiceManager {
    monitor: Mutex<()>,
    pub replication_manager: GatedService,
    pub block_deleting_service: GatedService,
    /// The logical clock the services read (`clock.millis()`); advanced only by tests, so it is
    /// a plain std atomic, not a synchronization point of the model.
    clock: AtomicU64,
}

impl Default for SCMServiceManager {
    fn default() -> Self {
        SCMServiceManager {
            monitor: Mutex::new(()),
            replication_manager: GatedService::new(
                "ReplicationManager",
                "ReplicationManager.notifyStatusChanged",
            ),
            block_deleting_service: GatedService::new(
                "SCMBlockDeletingService",
                "SCMBlockDeletingService.notifyStatusChanged",
            ),
            clock: AtomicU64::new(0),
        }
    }
}

impl SCMServiceManager {
    /// `synchronized notifyStatusChanged()`: every service recomputes its status.
    pub fn notify_status_changed(&self, cx: &Cx, context: &SCMContext) {
        let _monitor = self.monitor.lock();
        let now = self.now();
        self.replication_manager
            .notify_status_changed(cx, context, now);
        self.block_deleting_service
            .notify_status_changed(cx, context, now);
    }

    pub fn now(&self) -> u64 {
        self.clock.load(Ordering::Relaxed)
    }

    pub fn advance_clock(&self, by: u64) {
        self.clock.fetch_add(by, Ordering::Relaxed);
    }

    pub fn both_running(&self) -> bool {
        self.replication_manager.status() == ServiceStatus::Running
            && self.block_deleting_service.status() == ServiceStatus::Running
    }
}
