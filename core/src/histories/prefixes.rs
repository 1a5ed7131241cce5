//! Histories resumed after a prefix run before, while nothing records (the fuzz targets' runs:
//! a violating input is run again, recorded, from its start). A fuzz input is a small mutation
//! of an earlier one: about half of its operations are a prefix some earlier input ran, and
//! that prefix holds most of its quiet states, whose outcomes are the costly part of a run.
//!
//! After a prefix that leaves no program running (a quiet point), a session is its world, its
//! plan and the outcomes found so far: a new driver on a copy of that world goes on as the first
//! would (a finished program never steps again, and the driver chooses among the programs
//! started later, in start order). So [`run`] keeps, per thread, the quiet points of the
//! prefixes it ran, in a trie of their encoded operations with a root per fix, and resumes a
//! history after the longest of them it starts with. For contracts that say how to copy a world
//! ([`Histories::FORK`]). Every test of this crate runs each resumed history from its start too,
//! and compares the state at the resumption and the outcomes at the end.

use super::{Codec, Histories, Session, Violation};
use crate::drive::Driver;
use crate::model::Setup;
use crate::switches::Switches;
use crate::sync::Arc;
use crate::trace::Trace;
use rustc_hash::FxHashMap;
use std::any::Any;
use std::cell::RefCell;

/// How a contract's world is copied at a quiet point ([`Histories::FORK`]). Its operations'
/// encoding must tell apart every two operations a history holds (it does for the operations
/// `decode` returns, which are the fuzz targets').
pub struct Fork<W> {
    /// A copy of `world`, on which no program is running, in the same state, recording into
    /// `trace`.
    pub copy: fn(&W, &Trace) -> W,
    /// The whole state as text, every field: the tests compare each resumed world with the one a
    /// run from the start reaches.
    pub state: fn(&W) -> String,
}

/// Quiet points kept at once (a world is a few kilobytes), and the trie's nodes before it starts
/// over.
const CAPACITY: usize = 1 << 13;
const NODES: usize = 1 << 20;

thread_local! {
    /// Each contract's [`Prefixes`], by type.
    static KEPT: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `ops` under `fix` as a run from the start does, resuming after the longest prefix of them that
/// this thread ran to a quiet point before.
pub(super) fn run<M: Histories>(
    fork: &Fork<M::World>,
    fix: M::Fix,
    ops: &[M::Op],
) -> Vec<Violation> {
    let kept = KEPT.with_borrow_mut(|kept| {
        let i = kept.iter().position(|p| p.is::<Prefixes<M>>())?;
        kept.swap_remove(i).downcast::<Prefixes<M>>().ok()
    });
    let mut prefixes = kept.unwrap_or_default();
    let found = prefixes.run(fork, fix, ops);
    KEPT.with_borrow_mut(|kept| kept.push(prefixes));
    found
}

/// A quiet point: what a session is when no program is running.
struct Quiet<M: Histories> {
    world: M::World,
    plan: M::Plan,
    found: Vec<Violation>,
}

/// What the trie knows of the session after a node's prefix.
enum Point<M: Histories> {
    /// A program is running there.
    Busy,
    /// Quiet, and one history stopped there: the next that passes keeps it. Most histories
    /// are never mutated again (libFuzzer mutates the inputs it keeps), so a copy of every quiet
    /// point would cost more than it saves.
    Seen,
    Kept(Box<Quiet<M>>),
}

/// The quiet points of one contract's prefixes. Node ids index `points`.
struct Prefixes<M: Histories> {
    roots: Vec<(M::Fix, u32)>,
    /// A node's child by the next byte of the encoded operations.
    children: FxHashMap<(u32, u8), u32>,
    points: Vec<Point<M>>,
    kept: usize,
    /// One operation's encoding, and a history's path (buffers kept for their allocations).
    bytes: Vec<u8>,
    path: Vec<u32>,
}

impl<M: Histories> Default for Prefixes<M> {
    fn default() -> Self {
        Prefixes {
            roots: Vec::new(),
            children: FxHashMap::default(),
            points: Vec::new(),
            kept: 0,
            bytes: Vec::new(),
            path: Vec::new(),
        }
    }
}

impl<M: Histories> Prefixes<M> {
    /// Makes room: the kept quiet points become seen ones (kept again by the next history
    /// that passes), and past [`NODES`] the trie starts over.
    fn make_room(&mut self) {
        if self.points.len() >= NODES {
            *self = Prefixes::default();
        } else if self.kept >= CAPACITY {
            for p in &mut self.points {
                if let Point::Kept(_) = p {
                    *p = Point::Seen;
                }
            }
            self.kept = 0;
        }
    }

    fn run(&mut self, fork: &Fork<M::World>, fix: M::Fix, ops: &[M::Op]) -> Vec<Violation> {
        self.make_room();
        // The trie's nodes on `ops`'s path (`path[d]`: after `d` operations): the prefix that
        // earlier histories ran, to the last quiet point of each.
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(self.root(fix));
        for op in ops {
            match self.child(path[path.len() - 1], op) {
                Some(child) => path.push(child),
                None => break,
            }
        }
        let point = |d: usize| &self.points[path[d] as usize];
        let resume = (0..path.len())
            .rev()
            .find(|&d| matches!(point(d), Point::Kept(_)));
        // The deepest quiet point this history shares with an earlier one, past the resumption:
        // where the next mutations of that input will resume.
        let keep = (resume.map_or(0, |d| d + 1)..path.len())
            .rev()
            .find(|&d| matches!(point(d), Point::Seen));
        let (mut session, start) = match resume {
            Some(d) => {
                let session = self.resume(fork, path[d]);
                #[cfg(test)]
                check_resumed(fork, fix, &ops[..d], &session);
                (session, d)
            }
            None => {
                let session = Session::<M>::new(fix);
                let root = &mut self.points[path[0] as usize];
                if session.driver.is_quiescent() && matches!(root, Point::Busy) {
                    *root = Point::Seen;
                }
                (session, 0)
            }
        };
        if keep == Some(start) {
            self.keep(fork, path[start], &session);
        }
        for (i, op) in ops.iter().enumerate().skip(start) {
            session.apply(op);
            let d = i + 1;
            if !session.driver.is_quiescent() {
                continue;
            }
            if d < path.len() {
                if keep == Some(d) {
                    self.keep(fork, path[d], &session);
                }
                continue;
            }
            // A quiet point no history reached before: its nodes, the last one seen.
            while path.len() <= d {
                let at = path.len() - 1;
                let child = self.child_or_new(path[at], &ops[at]);
                path.push(child);
            }
            self.points[path[d] as usize] = Point::Seen;
        }
        self.path = path;
        #[cfg(test)]
        let world = session.driver.world.clone();
        let found = session.finish();
        #[cfg(test)]
        FINAL.set((fork.state)(&world));
        found
    }

    /// The root of `fix`'s trie.
    fn root(&mut self, fix: M::Fix) -> u32 {
        match self.roots.iter().find(|(f, _)| f.differing(&fix) == 0) {
            Some(&(_, root)) => root,
            None => {
                let root = self.new_node();
                self.roots.push((fix, root));
                root
            }
        }
    }

    fn new_node(&mut self) -> u32 {
        self.points.push(Point::Busy);
        (self.points.len() - 1) as u32
    }

    /// The node after `op` from `node`, if the trie holds it.
    fn child(&mut self, node: u32, op: &M::Op) -> Option<u32> {
        self.bytes.clear();
        op.encode(&mut self.bytes);
        let mut n = node;
        for &b in &self.bytes {
            n = *self.children.get(&(n, b))?;
        }
        Some(n)
    }

    fn child_or_new(&mut self, node: u32, op: &M::Op) -> u32 {
        self.bytes.clear();
        op.encode(&mut self.bytes);
        let mut n = node;
        for i in 0..self.bytes.len() {
            let key = (n, self.bytes[i]);
            n = match self.children.get(&key) {
                Some(&c) => c,
                None => {
                    let c = self.new_node();
                    self.children.insert(key, c);
                    c
                }
            };
        }
        n
    }

    /// Keeps the quiet point `session` is at as `node`'s.
    fn keep(&mut self, fork: &Fork<M::World>, node: u32, session: &Session<M>) {
        self.points[node as usize] = Point::Kept(Box::new(Quiet {
            world: (fork.copy)(&session.driver.world, &Trace::new()),
            plan: session.plan.clone(),
            found: session.found.clone(),
        }));
        self.kept += 1;
    }

    /// A session at `node`'s quiet point.
    fn resume(&self, fork: &Fork<M::World>, node: u32) -> Session<M> {
        let Point::Kept(quiet) = &self.points[node as usize] else {
            unreachable!("resumed at a point not kept")
        };
        let trace = Trace::new();
        let world = (fork.copy)(&quiet.world, &trace);
        Session {
            driver: Driver::new(
                trace,
                Setup {
                    world: Arc::new(world),
                    threads: Vec::new(),
                },
            ),
            plan: quiet.plan.clone(),
            found: quiet.found.clone(),
        }
    }
}

/// The session resumed after `prefix` is the one a run of `prefix` from the start reaches.
#[cfg(test)]
fn check_resumed<M: Histories>(
    fork: &Fork<M::World>,
    fix: M::Fix,
    prefix: &[M::Op],
    resumed: &Session<M>,
) {
    let mut fresh = Session::<M>::new(fix);
    for op in prefix {
        fresh.apply(op);
    }
    assert!(fresh.driver.is_quiescent(), "resumed at a busy point");
    assert_eq!(
        (fork.state)(&resumed.driver.world),
        (fork.state)(&fresh.driver.world),
        "the resumed world differs after {prefix:?}"
    );
    assert_eq!(format!("{:?}", resumed.plan), format!("{:?}", fresh.plan));
    assert_eq!(outcomes(&resumed.found), outcomes(&fresh.found));
    RESUMED.set(RESUMED.get() + 1);
}

#[cfg(test)]
fn outcomes(found: &[Violation]) -> Vec<(&str, &str)> {
    found
        .iter()
        .map(|v| (v.outcome, v.witness.as_str()))
        .collect()
}

#[cfg(test)]
thread_local! {
    static RESUMED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The state the last history [`run`] ran ended in.
    static FINAL: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

/// How many histories this thread resumed (for the tests' tallies).
#[cfg(test)]
pub(crate) fn resumed() -> usize {
    RESUMED.get()
}

/// The outcomes of `ops`, resumed where [`run`] can, checked against a run from the start: the
/// same outcomes and witnesses, and the same state at the end.
#[cfg(test)]
pub(crate) fn checked_run<M: Histories>(fix: M::Fix, ops: &[M::Op]) -> Vec<Violation> {
    let fork = M::FORK.expect("a contract that forks");
    crate::trace::without_recording(|| {
        let found = run::<M>(&fork, fix, ops);
        let mut fresh = Session::<M>::new(fix);
        for op in ops {
            fresh.apply(op);
        }
        let world = fresh.driver.world.clone();
        assert_eq!(outcomes(&found), outcomes(&fresh.finish()), "{ops:?}");
        assert_eq!(FINAL.take(), (fork.state)(&world), "{ops:?}");
        found
    })
}
