//! The step driver: runs a contract's programs one atomic step at a time in a chosen order, on
//! the same step functions loom's threads run. Property tests and fuzz targets choose the order;
//! a step that would block (see [`Program::enabled`]) is never chosen.

use crate::model::{Model, Program, Setup};
use crate::sync::Arc;
use crate::trace::{Timeline, Trace};

pub struct Driver<M: Model> {
    pub world: Arc<M::World>,
    pub trace: Trace,
    threads: Vec<Box<dyn Program<M::World>>>,
}

impl<M: Model> Driver<M> {
    pub fn new(trace: Trace, setup: Setup<M>) -> Self {
        Driver {
            world: setup.world,
            trace,
            threads: setup.threads,
        }
    }

    /// Starts another actor.
    pub fn spawn(&mut self, program: Box<dyn Program<M::World>>) {
        self.threads.push(program);
    }

    /// The programs whose next step can run now, by index. Programs of the same actor share
    /// one upstream thread, so they run in the order they were started: only the oldest
    /// unfinished one of each actor can step.
    pub fn enabled(&self) -> Vec<usize> {
        (0..self.threads.len())
            .filter(|&i| {
                let t = &self.threads[i];
                t.enabled(&self.world)
                    && !self.threads[..i]
                        .iter()
                        .any(|e| e.actor() == t.actor() && !e.is_done())
            })
            .collect()
    }

    /// Whether a program of `actor` was ever started (finished ones included, until reaped).
    pub fn knows_actor(&self, actor: &str) -> bool {
        self.threads.iter().any(|t| t.actor() == actor)
    }

    /// The actors started so far, each once, in start order.
    pub fn actors(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for t in &self.threads {
            if !names.contains(&t.actor()) {
                names.push(t.actor());
            }
        }
        names
    }

    /// Whether some program of `actor` has work left.
    pub fn is_running(&self, actor: &str) -> bool {
        self.threads
            .iter()
            .any(|t| t.actor() == actor && !t.is_done())
    }

    /// Whether every program has finished.
    pub fn is_quiescent(&self) -> bool {
        self.threads.iter().all(|t| t.is_done())
    }

    pub fn actor(&self, index: usize) -> &'static str {
        self.threads[index].actor()
    }

    /// Runs one step of the `choice`-th enabled actor (modulo their number), returning its index,
    /// or `None` when no actor can step.
    pub fn step(&mut self, choice: usize) -> Option<usize> {
        let enabled = self.enabled();
        let i = *enabled.get(choice % enabled.len().max(1))?;
        self.threads[i].step(&self.world);
        Some(i)
    }

    /// Steps the enabled actors in index order until all are done. Fails, naming them, when some
    /// are not done but none can step (a deadlock, or an actor waiting for what never comes).
    pub fn finish(&mut self) -> Result<(), String> {
        while self.step(0).is_some() {}
        let stuck: Vec<&str> = self
            .threads
            .iter()
            .filter(|t| !t.is_done())
            .map(|t| t.actor())
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
        self.threads.retain(|t| !t.is_done());
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
            .position(|t| t.actor() == actor && !t.is_done())
        else {
            let mut running: Vec<&str> = self
                .threads
                .iter()
                .filter(|t| !t.is_done())
                .map(|t| t.actor())
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
        self.threads[i].step(&self.world);
        Ok(())
    }

    /// Runs the next step of actor `index`, which must be enabled (for fixed reproductions).
    pub fn step_actor(&mut self, index: usize) {
        let t = &mut self.threads[index];
        assert!(
            t.enabled(&self.world),
            "actor {index} ({}) cannot step now",
            t.actor()
        );
        t.step(&self.world);
    }
}
