//! The datanode's container report thread (`ContainerReportPublisher`), which reads every
//! replica's state and BCSID with no container lock.

use super::{DnId, World};
use crate::model::Program;
use crate::trace::{Cx, Trace};

/// The datanode's container report thread (`ContainerReportPublisher` →
/// `ContainerSet.getContainerReport` → `KeyValueContainer.getContainerReport`): for each
/// replica, the state (`ContainerData.getState`, synchronized) and the BCSID
/// (`getBlockCommitSequenceId`, a plain read), with no container lock.
#[derive(Debug)]
pub struct ContainerReport {
    cx: Cx,
    dn: DnId,
    done: bool,
}

impl ContainerReport {
    pub const ACTOR: &'static str = "ContainerReportPublisher";

    pub fn new(trace: &Trace, dn: DnId) -> Self {
        ContainerReport {
            cx: trace.actor(Self::ACTOR),
            dn,
            done: false,
        }
    }
}

impl Program<World> for ContainerReport {
    fn actor(&self) -> &'static str {
        Self::ACTOR
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self, w: &World) {
        for c in w.dn(self.dn).set.replicas() {
            let state = c.state();
            let bcsid = c.bcsid_read();
            self.cx.record(
                "KeyValueContainerData.buildContainerReplicaProto",
                format_args!("dn{} c{}: {state:?} BCSID {bcsid}", self.dn, c.id),
            );
        }
        self.done = true;
    }
}
