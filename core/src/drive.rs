//! The step driver: runs a contract's programs one atomic step at a time in a chosen order, on
//! the same step functions loom's threads run. Property tests and fuzz targets choose the order;
//! a step that would block (see [`Program::enabled`]) is never chosen.

use crate::model::{Model, Program, Setup, ALONE_STEPS};
use crate::sync::Arc;
use crate::trace::{Timeline, Trace};

pub struct Driver<M: Model> {
    pub world: Arc<M::World>,
    pub trace: Trace,
    /// Every program started, with its actor's id (an index into `actors`).
    threads: Vec<(ActorId, BoxedProgram<M>)>,
    /// The unfinished programs, by index into `threads`, in start order. A program finishes
    /// only by stepping, so the driver keeps this as it steps: scans never visit the finished
    /// programs a long history leaves behind.
    live: Vec<usize>,
    /// The actors' names, each once, in start order: names are compared when a program is
    /// started, never when one steps.
    actors: Vec<&'static str>,
    /// Every name seen, by address and length, with its actor. A name is almost always one
    /// literal, so a lookup compares addresses and reads the text only for an address it has
    /// not seen: a text comparison is a `bcmp` call, which libFuzzer intercepts and traces.
    aliases: Vec<(Name, ActorId)>,
}

/// A name's address and length: equal ones are the same text.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Name(usize, usize);

impl Name {
    fn of(name: &'static str) -> Name {
        Name(name.as_ptr() as usize, name.len())
    }
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
            // Sized for a long history, so that the first steps do not regrow them.
            threads: Vec::with_capacity(64),
            live: Vec::with_capacity(16),
            actors: Vec::with_capacity(8),
            aliases: Vec::with_capacity(8),
        };
        for p in setup.threads {
            d.spawn(p);
        }
        d
    }

    /// Starts another actor.
    pub fn spawn(&mut self, program: Box<dyn Program<M::World>>) {
        let name = program.actor();
        let id = match self.alias(name) {
            Some(id) => id,
            None => {
                let id = self.by_text(name).unwrap_or_else(|| {
                    self.actors.push(name);
                    ActorId(self.actors.len() - 1)
                });
                self.aliases.push((Name::of(name), id));
                id
            }
        };
        if !program.is_done() {
            self.live.push(self.threads.len());
        }
        self.threads.push((id, program));
    }

    /// The id of the actor named `name`, if a program of it was ever started.
    fn actor_id(&self, name: &'static str) -> Option<ActorId> {
        self.alias(name).or_else(|| self.by_text(name))
    }

    fn alias(&self, name: &'static str) -> Option<ActorId> {
        let key = Name::of(name);
        self.aliases
            .iter()
            .find(|(n, _)| *n == key)
            .map(|&(_, id)| id)
    }

    fn by_text(&self, name: &str) -> Option<ActorId> {
        self.actors
            .iter()
            .position(|a| same_text(a, name))
            .map(ActorId)
    }

    /// Runs program `i`'s next step, and forgets it once it is done.
    fn run_step(&mut self, i: usize) {
        let program = &mut self.threads[i].1;
        program.step(&self.world);
        if program.is_done() {
            // `i` is in `live` once (a program is started once): removed there, the order kept.
            // A `retain` walks and rewrites the whole list, and this runs for every program.
            if let Some(at) = self.live.iter().position(|&j| j == i) {
                self.live.remove(at);
            }
        }
    }

    /// Calls `f` with the index of every program whose next step can run now, in start order,
    /// until it returns false. Programs of the same actor share one upstream thread, so they
    /// run in the order they were started: only the oldest unfinished one of each actor can
    /// step. Allocates nothing for up to 64 actors.
    pub fn each_enabled(&self, mut f: impl FnMut(usize) -> bool) {
        let mut busy = Busy::new(self.actors.len());
        for &i in &self.live {
            let (actor, t) = &self.threads[i];
            if busy.test_and_set(actor.0) {
                continue;
            }
            if t.enabled(&self.world) && !f(i) {
                return;
            }
        }
    }

    /// Calls `f` with the index and actor of the oldest unfinished program of each actor, in
    /// start order, until it returns false: the programs [`Driver::each_enabled`] asks whether
    /// they can step, unasked (a caller after a few actors asks only theirs, see
    /// [`Driver::can_step`]).
    pub fn each_oldest(&self, mut f: impl FnMut(usize, &'static str) -> bool) {
        let mut busy = Busy::new(self.actors.len());
        for &i in &self.live {
            let actor = self.threads[i].0;
            if !busy.test_and_set(actor.0) && !f(i, self.actors[actor.0]) {
                return;
            }
        }
    }

    /// Whether program `i`'s next step can run now, were it the oldest unfinished one of its
    /// actor.
    pub fn can_step(&self, i: usize) -> bool {
        self.threads[i].1.enabled(&self.world)
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
    pub fn knows_actor(&self, actor: &'static str) -> bool {
        self.actor_id(actor).is_some()
    }

    /// The actors started so far, each once, in start order.
    pub fn actors(&self) -> Vec<&'static str> {
        self.actors.clone()
    }

    /// Whether some program of `actor` has work left.
    pub fn is_running(&self, actor: &'static str) -> bool {
        self.actor_id(actor)
            .and_then(|id| self.oldest_unfinished(id))
            .is_some()
    }

    /// The oldest unfinished program of `actor`: the only one of its programs that can step.
    fn oldest_unfinished(&self, id: ActorId) -> Option<usize> {
        self.live.iter().copied().find(|&i| self.threads[i].0 == id)
    }

    /// Whether every program has finished.
    pub fn is_quiescent(&self) -> bool {
        self.live.is_empty()
    }

    pub fn actor(&self, index: usize) -> &'static str {
        self.actors[self.threads[index].0 .0]
    }

    /// The first program, in start order, whose next step can run now: `step(0)`'s choice,
    /// without counting the others.
    fn first_enabled(&self) -> Option<usize> {
        let mut first = None;
        self.each_enabled(|i| {
            first = Some(i);
            false
        });
        first
    }

    /// Runs one step of the `choice`-th enabled actor (modulo their number), returning its index,
    /// or `None` when no actor can step.
    pub fn step(&mut self, choice: usize) -> Option<usize> {
        // One pass asks every live program whether it can step (a dynamic call each, which
        // libFuzzer traces) and keeps the first `SEEN` answers; only a choice past them needs a
        // second pass. `enabled` reads the world, which nothing changes in between.
        const SEEN: usize = 16;
        let (mut seen, mut n) = ([0; SEEN], 0);
        self.each_enabled(|i| {
            if let Some(slot) = seen.get_mut(n) {
                *slot = i;
            }
            n += 1;
            true
        });
        if n == 0 {
            return None;
        }
        let wanted = choice % n;
        let i = match seen.get(wanted) {
            Some(&i) => i,
            None => {
                let (mut k, mut chosen) = (0, 0);
                self.each_enabled(|i| {
                    chosen = i;
                    k += 1;
                    k <= wanted
                });
                chosen
            }
        };
        self.run_step(i);
        Some(i)
    }

    /// Steps the enabled actors in index order until all are done. Fails, naming them, when some
    /// are not done but none can step (a deadlock, or an actor waiting for what never comes),
    /// or when they have taken [`ALONE_STEPS`] steps and still run (a program that steps on
    /// forever: the run fails instead of hanging).
    pub fn finish(&mut self) -> Result<(), String> {
        let mut steps = 0;
        while let Some(i) = self.first_enabled() {
            if steps == ALONE_STEPS {
                return Err(format!(
                    "no end after {ALONE_STEPS} steps; still running: {}",
                    self.live_actors().join(", ")
                ));
            }
            self.run_step(i);
            steps += 1;
        }
        let stuck = self.live_actors();
        if stuck.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "no actor can step; still waiting: {}",
                stuck.join(", ")
            ))
        }
    }

    /// The actors of the programs not done, in index order.
    fn live_actors(&self) -> Vec<&'static str> {
        self.live
            .iter()
            .map(|&i| self.actors[self.threads[i].0 .0])
            .collect()
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
            .by_text(actor)
            .and_then(|id| self.oldest_unfinished(id))
        else {
            let mut running: Vec<&str> = self
                .live
                .iter()
                .map(|&i| self.actors[self.threads[i].0 .0])
                .collect();
            running.dedup();
            return Err(if running.is_empty() {
                format!("`{actor}` has finished (no actor is running)")
            } else {
                format!("`{actor}` has finished (running: {})", running.join(", "))
            });
        };
        // The oldest unfinished program of its actor is not behind another: it can step
        // exactly when its own next step would not block.
        if !self.threads[i].1.enabled(&self.world) {
            return Err(format!(
                "`{actor}` cannot step now: its next step would block"
            ));
        }
        self.run_step(i);
        Ok(())
    }

    /// Runs the next step of actor `index`, which must be enabled (for fixed reproductions).
    pub fn step_actor(&mut self, index: usize) {
        let t = &self.threads[index].1;
        assert!(
            t.enabled(&self.world),
            "actor {index} ({}) cannot step now",
            t.actor()
        );
        self.run_step(index);
    }
}

/// Whether `a` and `b` are the same text, compared a byte at a time from the end: not a `bcmp`
/// call, which libFuzzer intercepts and traces (a new driver compares each name it starts with
/// the earlier ones), and names of one kind of thread differ near their end
/// (`BPServiceActor:dn0/nn1`).
fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().rev().eq(b.bytes().rev())
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::model::{Baseline, Contract, Variant};
    use crate::outcome::Outcome;

    /// A model of independent counters: one actor each, three steps, never blocked.
    struct Counters;

    crate::switches! {
        struct Fix {
            /// No part: the one switch a model needs.
            0 => none: bool = false,
        }
    }

    struct Count(&'static str, u8);

    impl Program<()> for Count {
        fn actor(&self) -> &'static str {
            self.0
        }
        fn is_done(&self) -> bool {
            self.1 == 0
        }
        fn step(&mut self, _: &()) {
            self.1 -= 1;
        }
    }

    impl Model for Counters {
        type Fix = Fix;
        type World = ();
        const CONTRACT: Contract = Contract {
            id: "counters",
            module: "counters",
            report: "-",
            title: "the driver's own test",
        };
        const OUTCOMES: &'static [&'static Outcome<()>] = &[];
        const VARIANTS: &'static [Variant<Fix>] = &[];
        const BASELINES: &'static [Baseline<Fix>] = &[];
        const UPSTREAM: Fix = Fix::UPSTREAM;
        fn describe(_: &()) -> String {
            String::new()
        }
    }

    /// `step(choice)` runs the `choice`-th enabled program (modulo their number), with more
    /// enabled programs than its one pass keeps.
    #[test]
    fn a_choice_picks_that_enabled_program() {
        const NAMES: [&str; 20] = [
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q",
            "r", "s", "t",
        ];
        let threads: Vec<Box<dyn Program<()>>> = NAMES
            .iter()
            .map(|&n| Box::new(Count(n, 3)) as Box<dyn Program<()>>)
            .collect();
        let setup = Setup {
            world: Arc::new(()),
            threads,
        };
        let mut d: Driver<Counters> = Driver::new(Trace::new(), setup);
        let mut choice = 7u64;
        let mut steps = 0;
        loop {
            choice = choice
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let c = (choice >> 33) as usize;
            let enabled = d.enabled();
            if enabled.is_empty() {
                break;
            }
            assert_eq!(d.step(c), Some(enabled[c % enabled.len()]));
            steps += 1;
        }
        assert_eq!(steps, 60);
        assert_eq!(d.step(3), None);
    }

    /// `same_text` is string equality.
    #[test]
    fn same_text_is_equality() {
        let names = [
            "", "a", "b", "ab", "ba", "dn0/nn1", "dn1/nn1", "dn0/nn0", "dn0/nn1 ",
        ];
        for a in names {
            for b in names {
                assert_eq!(same_text(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    /// Programs whose actor names are equal text at different addresses share one actor: the
    /// later one waits for the earlier one, and both are found by either name.
    #[test]
    fn equal_names_at_different_addresses_are_one_actor() {
        let copy: &'static str = Box::leak(String::from("a").into_boxed_str());
        assert_ne!(copy.as_ptr(), "a".as_ptr());
        let setup = Setup {
            world: Arc::new(()),
            threads: vec![Box::new(Count("a", 2)), Box::new(Count("b", 1))],
        };
        let mut d: Driver<Counters> = Driver::new(Trace::new(), setup);
        d.spawn(Box::new(Count(copy, 1)));
        assert_eq!(d.actors(), ["a", "b"]);
        assert_eq!(d.enabled(), [0, 1]);
        d.step_actor(0);
        d.step_actor(0);
        assert_eq!(d.enabled(), [1, 2]);
        assert!(d.is_running(copy) && d.is_running("a"));
        d.step_actor(2);
        assert!(!d.is_running(copy) && !d.is_running("a") && d.knows_actor(copy));
    }
}
