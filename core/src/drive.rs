//! The step driver: runs a contract's programs one atomic step at a time in a chosen order, on
//! the same step functions loom's threads run. Property tests and fuzz targets choose the order;
//! a step that would block (see [`Program::enabled`]) is never chosen.

use crate::model::{Model, Program, Setup};
use crate::sync::Arc;
use crate::trace::{Timeline, Trace};

pub struct Driver<M: Model> {
    pub world: Arc<M::World>,
    pub trace: Trace,
    /// Every program started, with its actor's id (an index into `actors`).
    threads: Vec<(ActorId, BoxedProgram<M>)>,
    /// The actors' names, each once, in start order: names are compared when a program is
    /// started, never when one steps.
    actors: Vec<&'static str>,
}

type BoxedProgram<M> = Box<dyn Program<<M as Model>::World>>;

/// An actor (an upstream thread) of a driver, by start order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActorId(usize);

impl<M: Model> Driver<M> {
    pub fn new(trace: Trace, setup: Setup<M>) -> Self {
        let mut d = Driver {
            world: setup.world,
            trace,
            threads: Vec::new(),
            actors: Vec::new(),
        };
        for p in setup.threads {
            d.spawn(p);
        }
        d
    }

    /// Starts another actor.
    pub fn spawn(&mut self, program: Box<dyn Program<M::World>>) {
        let name = program.actor();
        let id = match self.actors.iter().position(|a| *a == name) {
            Some(i) => ActorId(i),
            None => {
                self.actors.push(name);
                ActorId(self.actors.len() - 1)
            }
        };
        self.threads.push((id, program));
    }

    /// Calls `f` with the index of every program whose next step can run now, in start order,
    /// until it returns false. Programs of the same actor share one upstream thread, so they
    /// run in the order they were started: only the oldest unfinished one of each actor can
    /// step. Allocates nothing for up to 64 actors.
    fn each_enabled(&self, mut f: impl FnMut(usize) -> bool) {
        let mut busy = Busy::new(self.actors.len());
        for (i, (actor, t)) in self.threads.iter().enumerate() {
            if t.is_done() || busy.test_and_set(actor.0) {
                continue;
            }
            if t.enabled(&self.world) && !f(i) {
                return;
            }
        }
    }

    /// The programs whose next step can run now, by index (see [`Driver::each_enabled`]).
    pub fn enabled(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.each_enabled(|i| {
            out.push(i);
            true
        });
        out
    }

    /// Whether a program of `actor` was ever started.
    pub fn knows_actor(&self, actor: &str) -> bool {
        self.actors.contains(&actor)
    }

    /// The actors started so far, each once, in start order.
    pub fn actors(&self) -> Vec<&'static str> {
        self.actors.clone()
    }

    /// Whether some program of `actor` has work left.
    pub fn is_running(&self, actor: &str) -> bool {
        self.threads
            .iter()
            .any(|(a, t)| self.actors[a.0] == actor && !t.is_done())
    }

    /// Whether every program has finished.
    pub fn is_quiescent(&self) -> bool {
        self.threads.iter().all(|(_, t)| t.is_done())
    }

    pub fn actor(&self, index: usize) -> &'static str {
        self.actors[self.threads[index].0 .0]
    }

    /// Runs one step of the `choice`-th enabled actor (modulo their number), returning its index,
    /// or `None` when no actor can step.
    pub fn step(&mut self, choice: usize) -> Option<usize> {
        let mut n = 0;
        self.each_enabled(|_| {
            n += 1;
            true
        });
        let mut wanted = choice % n.max(1);
        let mut chosen = None;
        self.each_enabled(|i| {
            if wanted == 0 {
                chosen = Some(i);
                return false;
            }
            wanted -= 1;
            true
        });
        let i = chosen?;
        self.threads[i].1.step(&self.world);
        Some(i)
    }

    /// Steps the enabled actors in index order until all are done. Fails, naming them, when some
    /// are not done but none can step (a deadlock, or an actor waiting for what never comes).
    pub fn finish(&mut self) -> Result<(), String> {
        while self.step(0).is_some() {}
        let stuck: Vec<&str> = self
            .threads
            .iter()
            .filter(|(_, t)| !t.is_done())
            .map(|(a, _)| self.actors[a.0])
            .collect();
        if stuck.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "no actor can step; still waiting: {}",
                stuck.join(", ")
            ))
        }
    }

    /// Drops finished programs (long histories start many).
    pub fn reap(&mut self) {
        self.threads.retain(|(_, t)| !t.is_done());
    }

    pub fn timeline(&self, violation: Option<String>) -> Timeline {
        Timeline {
            events: self.trace.events(),
            violation,
        }
    }
}

impl<M: Model> Driver<M> {
    /// Runs the next step of the oldest unfinished program of `actor` (scenario files name
    /// actors); says why when it cannot step.
    pub fn step_named(&mut self, actor: &str) -> Result<(), String> {
        let Some(i) = self
            .threads
            .iter()
            .position(|(a, t)| self.actors[a.0] == actor && !t.is_done())
        else {
            let mut running: Vec<&str> = self
                .threads
                .iter()
                .filter(|(_, t)| !t.is_done())
                .map(|(a, _)| self.actors[a.0])
                .collect();
            running.dedup();
            return Err(if running.is_empty() {
                format!("`{actor}` has finished (no actor is running)")
            } else {
                format!("`{actor}` has finished (running: {})", running.join(", "))
            });
        };
        if !self.enabled().contains(&i) {
            return Err(format!(
                "`{actor}` cannot step now: its next step would block"
            ));
        }
        self.threads[i].1.step(&self.world);
        Ok(())
    }

    /// Runs the next step of actor `index`, which must be enabled (for fixed reproductions).
    pub fn step_actor(&mut self, index: usize) {
        let t = &mut self.threads[index].1;
        assert!(
            t.enabled(&self.world),
            "actor {index} ({}) cannot step now",
            t.actor()
        );
        t.step(&self.world);
    }
}

/// The actors that already have an unfinished program earlier in start order: a bit set,
/// on the stack for up to 64 actors.
enum Busy {
    Small(u64),
    Large(Vec<bool>),
}

impl Busy {
    fn new(actors: usize) -> Busy {
        if actors <= 64 {
            Busy::Small(0)
        } else {
            Busy::Large(vec![false; actors])
        }
    }

    /// Marks `actor` busy; whether it already was.
    fn test_and_set(&mut self, actor: usize) -> bool {
        match self {
            Busy::Small(bits) => {
                let was = *bits & (1 << actor) != 0;
                *bits |= 1 << actor;
                was
            }
            Busy::Large(v) => std::mem::replace(&mut v[actor], true),
        }
    }
}
