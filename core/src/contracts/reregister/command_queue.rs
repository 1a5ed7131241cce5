//! `BPServiceActor.CommandProcessingThread`'s queue: the command batches the actor thread
//! enqueues from heartbeat and block report answers, which the command processor
//! ([`command_processor`](super::command_processor)) takes one at a time.

use super::speed::counted::{Condvar, Mutex};
use crate::trace::Cx;
use std::collections::VecDeque;

/// The commands of one heartbeat response (only DNA_REGISTER matters here; an empty array is
/// not enqueued upstream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub register: bool,
    /// P3's tag: the registration (`bpRegistration` generation) the answered RPC was sent
    /// under, as the DataNode records it (a P3 mutant records another).
    pub sent_under: u64,
    /// Ghost: the registration the RPC was really sent under (what O8 reads; no step reads it).
    pub truly_sent_under: u64,
}

/// The tag of a REGISTER enqueued without one (the mutant `P3::HeartbeatUntagged`): no
/// registration is newer, so P3 takes it as fresh.
pub const UNTAGGED: u64 = u64::MAX;

impl Batch {
    /// A REGISTER answered to an RPC sent under `truly_sent_under`, tagged `tag`.
    pub fn register_tagged(tag: u64, truly_sent_under: u64) -> Self {
        Batch {
            register: true,
            sent_under: tag,
            truly_sent_under,
        }
    }

    /// A REGISTER tagged with the registration its RPC was sent under.
    pub fn register(sent_under: u64) -> Self {
        Self::register_tagged(sent_under, sent_under)
    }
}

/// The `LinkedBlockingQueue<Runnable>`.
#[derive(Debug, Default)]
pub struct CommandQueue {
    queue: Mutex<VecDeque<Batch>>,
    not_empty: Condvar,
}

impl CommandQueue {
    /// `enqueue(cmds)`: `queue.put`.
    pub fn enqueue(&self, cx: &Cx, batch: Batch) {
        let mut q = self.queue.lock();
        q.push_back(batch);
        let len = q.len();
        drop(q);
        self.not_empty.notify_all();
        crate::record!(
            cx,
            "CommandProcessingThread.enqueue",
            "[REGISTER] (sent under registration {}), queue length {len}",
            batch.sent_under
        );
    }

    /// `queue.take()`: blocks until a batch is there.
    pub(super) fn take(&self) -> Batch {
        let mut q = self.queue.lock();
        loop {
            if let Some(batch) = q.pop_front() {
                return batch;
            }
            q = self.not_empty.wait(q);
        }
    }

    pub fn duplicate(&self) -> Self {
        CommandQueue {
            queue: Mutex::new(self.queue.lock().clone()),
            not_empty: Condvar::new(),
        }
    }

    /// Appends the batches to `fingerprint` (see `World::fingerprint`).
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        let queue = self.queue.lock();
        fingerprint.push(queue.len() as u64);
        fingerprint.extend(
            queue
                .iter()
                .map(|b| b.truly_sent_under << 33 | b.sent_under << 1 | u64::from(b.register)),
        );
    }

    pub fn is_empty(&self) -> bool {
        self.queue.lock().is_empty()
    }
}
