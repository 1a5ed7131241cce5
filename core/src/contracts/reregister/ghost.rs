//! What happened, in the order it happened: recorded inside the critical section of the step
//! that did it, with real std primitives (recording adds no interleavings). The outcomes read it
//! together with the final state (the replica map says what was finalized).

use super::blocks::BlockSet;
use super::command_queue::Batch;
use super::speed::counted::unseen::Mutex;
use super::Block;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `notifyNamenodeBlock` queued `block` for NameNode `nn`.
    Notified { dn: usize, nn: usize, block: Block },
    /// `blockReport`'s `sendIBRs` drained the pending IBRs (step (a)).
    Drained { dn: usize, nn: usize },
    /// Blocks removed from the pending IBRs without being sent: by `clearIBRs`, or lost when
    /// `putMissing` threw (`npe`).
    Dropped {
        dn: usize,
        nn: usize,
        blocks: BlockSet,
        npe: bool,
    },
    /// `getBlockReports`: an FBR snapshot for NameNode `nn` (step (b)).
    Snapshot {
        dn: usize,
        nn: usize,
        blocks: BlockSet,
    },
    /// `register`'s `scheduleBlockReport(delay, true)`: a registration asked for an FBR.
    Requested { dn: usize, nn: usize },
    /// The command thread ran `reRegister` for a REGISTER answered to an RPC sent under
    /// registration `sent_under`, while registration `current` (newer) had completed.
    StaleRegister {
        dn: usize,
        nn: usize,
        sent_under: u64,
        current: u64,
    },
}

#[derive(Debug)]
pub struct Ghost(Mutex<Vec<Event>>);

impl Default for Ghost {
    /// Room for the events of a long history (no reallocation while it grows).
    fn default() -> Self {
        Ghost(Mutex::new(Vec::with_capacity(64)))
    }
}

impl Ghost {
    fn push(&self, e: Event) {
        self.0.lock().push(e);
    }

    /// A copy, with room for the events quiescence adds (no reallocation at its first).
    pub fn duplicate(&self) -> Self {
        self.with_events(|events| {
            let mut copy = Vec::with_capacity(events.len() + 16);
            copy.extend_from_slice(events);
            Ghost(Mutex::new(copy))
        })
    }

    /// Whether these are the first `from` events of `later`.
    pub fn starts(&self, later: &Ghost, from: usize) -> bool {
        self.with_events(|e| later.with_events(|l| l.get(..from) == Some(e)))
    }

    /// These events, then those of `later` after its first `from`.
    pub fn followed_by(&self, later: &Ghost, from: usize) -> Self {
        let mut copy = self.duplicate();
        later.with_events(|l| copy.0.get_mut().extend_from_slice(&l[from..]));
        copy
    }

    pub fn events(&self) -> Vec<Event> {
        self.with_events(<[Event]>::to_vec)
    }

    /// `f` on the events so far, without copying them.
    pub fn with_events<R>(&self, f: impl FnOnce(&[Event]) -> R) -> R {
        f(&self.0.lock())
    }

    /// Appends the events to `fingerprint` (see `World::fingerprint`), two words each: the kind,
    /// pair and flag, then the block or blocks.
    pub fn fingerprint(&self, fingerprint: &mut Vec<u64>) {
        self.with_events(|events| {
            fingerprint.push(events.len() as u64);
            for e in events {
                let (kind, dn, nn, payload) = match *e {
                    Event::Notified { dn, nn, block } => (0, dn, nn, u64::from(block)),
                    Event::Drained { dn, nn } => (1, dn, nn, 0),
                    Event::Dropped {
                        dn,
                        nn,
                        blocks,
                        npe,
                    } => (2 | u64::from(npe) << 3, dn, nn, blocks.word()),
                    Event::Snapshot { dn, nn, blocks } => (4, dn, nn, blocks.word()),
                    Event::Requested { dn, nn } => (5, dn, nn, 0),
                    Event::StaleRegister {
                        dn,
                        nn,
                        sent_under,
                        current,
                    } => (6, dn, nn, sent_under << 32 | current),
                };
                fingerprint.extend([kind | (dn as u64) << 8 | (nn as u64) << 16, payload]);
            }
        });
    }

    pub fn notified(&self, dn: usize, nn: usize, block: Block) {
        self.push(Event::Notified { dn, nn, block });
    }

    pub fn drained(&self, dn: usize, nn: usize) {
        self.push(Event::Drained { dn, nn });
    }

    pub fn dropped(&self, dn: usize, nn: usize, blocks: BlockSet, npe: bool) {
        if !blocks.is_empty() || npe {
            self.push(Event::Dropped {
                dn,
                nn,
                blocks,
                npe,
            });
        }
    }

    pub fn snapshot(&self, dn: usize, nn: usize, blocks: BlockSet) {
        self.push(Event::Snapshot { dn, nn, blocks });
    }

    /// The command thread re-registers on `batch` at registration `current`: a stale
    /// REGISTER when the RPC it answered was really sent under an older registration (the
    /// batch's ghost tag, which only this recording reads: the step decides on P3's tag).
    pub fn re_registering(&self, dn: usize, nn: usize, batch: &Batch, current: u64) {
        if batch.truly_sent_under < current {
            self.push(Event::StaleRegister {
                dn,
                nn,
                sent_under: batch.truly_sent_under,
                current,
            });
        }
    }

    pub fn requested(&self, dn: usize, nn: usize) {
        self.push(Event::Requested { dn, nn });
    }
}

/// Whether some snapshot of pair (`dn`, `nn`) after event `at` satisfies `covers`.
pub fn snapshot_after(
    events: &[Event],
    at: usize,
    pair: (usize, usize),
    covers: impl Fn(BlockSet) -> bool,
) -> bool {
    events[at + 1..].iter().any(
        |e| matches!(*e, Event::Snapshot { dn, nn, blocks } if (dn, nn) == pair && covers(blocks)),
    )
}
