//! `EventQueue.fireEvent` and the executor behind a handler: `EventQueue.addHandler` gives each
//! (event, handler) pair a `SingleThreadExecutor` (DEAD_NODE → `DeadNodeHandler`), and container
//! reports go to a `FixedThreadPoolWithAffinityExecutor` that runs one datanode's reports on one
//! thread, in order. Either way: a FIFO that one handler thread drains.
//!
//! A loom scenario is finite, so its producers say when they are done; the handler thread then
//! ends when the queue is empty (a Java executor would wait for ever). In the step driver
//! producers never finish, and a handler whose queue is empty is not enabled.

use crate::sync::{Condvar, Mutex};
use crate::trace::Cx;
use std::collections::VecDeque;
use std::fmt;

#[derive(Debug)]
struct Pending<E> {
    events: VecDeque<E>,
    producers: usize,
}

/// The queue of one executor.
#[derive(Debug)]
pub struct EventQueue<E> {
    event: &'static str,
    pending: Mutex<Pending<E>>,
    arrived: Condvar,
}

impl<E: fmt::Debug> EventQueue<E> {
    /// A queue with `producers` actors that will still fire into it.
    pub fn new(event: &'static str, producers: usize) -> Self {
        EventQueue {
            event,
            pending: Mutex::new(Pending {
                events: VecDeque::new(),
                producers,
            }),
            arrived: Condvar::new(),
        }
    }

    /// `EventPublisher.fireEvent` for each of `events`; with `last`, this producer is done. No
    /// lock is taken when there is nothing to fire and nothing to say.
    pub fn fire(&self, cx: &Cx, events: impl IntoIterator<Item = E>, last: bool) {
        let mut events = events.into_iter().peekable();
        if events.peek().is_none() && !last {
            return;
        }
        let mut p = self.pending.lock();
        for e in &mut events {
            cx.record("EventQueue.fireEvent", format_args!("{} {e:?}", self.event));
            p.events.push_back(e);
        }
        if last {
            p.producers = p.producers.saturating_sub(1);
        }
        drop(p);
        self.arrived.notify_all();
    }

    /// The handler thread's next event: waits while the queue is empty and a producer may still
    /// fire; `None` once it is empty and every producer is done.
    pub fn take(&self) -> Option<E> {
        let mut p = self.pending.lock();
        loop {
            if let Some(e) = p.events.pop_front() {
                return Some(e);
            }
            if p.producers == 0 {
                return None;
            }
            p = self.arrived.wait(p);
        }
    }

    /// Whether `take` would return without waiting (for the step driver).
    pub fn ready(&self) -> bool {
        let p = self.pending.lock();
        !p.events.is_empty() || p.producers == 0
    }

    pub fn is_empty(&self) -> bool {
        self.pending.lock().events.is_empty()
    }

    /// Removes every queued event (a scenario's setup hands them to a handler directly).
    pub fn drain(&self) -> Vec<E> {
        self.pending.lock().events.drain(..).collect()
    }
}
