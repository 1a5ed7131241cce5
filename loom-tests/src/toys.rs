//! Toy models that show the harness's race and deadlock verdicts both ways: two writers of a
//! race-tracked cell, without and with a lock; two threads taking two locks, in opposite and
//! in the same order. They are not contracts (not in the registry): the cell suite runs them
//! under `harness/`.

use racelab_core::claims::Verdict::{Reachable as R, Unreachable as U};
use racelab_core::claims::{Claim, Claimed, Claims, Method, Mutant};
use racelab_core::model::{
    Baseline, Contract, Model, Part, Program, Scenario, Setup, Variant, REPORT,
};
use racelab_core::outcome::{Check, Outcome};
use racelab_core::switches::Switch;
use racelab_core::sync::{Arc, Mutex, RaceCell};
use racelab_core::trace::{Cx, Trace};

racelab_core::switches! {
    pub struct Fix {
        /// The writers take `lock` around their write.
        0 => pub locked: bool = false,
        /// Both lockers take `a` before `b`.
        1 => pub ordered: bool = false,
        /// A writer adds two, not one: a change to the final state that no cell's outcome
        /// reads, which only the pinned hash of the final states sees (no variant has it; the
        /// self-test [`final_states_self_test`] switches it on).
        2 => pub by_two: bool = false,
    }
}

pub struct World {
    fix: Fix,
    lock: Mutex<()>,
    counter: RaceCell<u32>,
    a: Mutex<()>,
    b: Mutex<()>,
}

/// A writer: one step that adds one to the counter.
struct Writer(Cx, bool);

impl Program<World> for Writer {
    fn actor(&self) -> &'static str {
        self.0.actor
    }
    fn is_done(&self) -> bool {
        self.1
    }
    fn step(&mut self, w: &World) {
        let _held = w.fix.locked.get().then(|| w.lock.lock());
        let add = if w.fix.by_two.get() { 2 } else { 1 };
        let n = w.counter.with_mut(|c| {
            *c += add;
            *c
        });
        self.0.record("Toy.write", format!("counter={n}"));
        self.1 = true;
    }
}

/// A locker: one step that takes both locks, its own first unless the fix orders them.
struct Locker(Cx, bool, bool);

impl Program<World> for Locker {
    fn actor(&self) -> &'static str {
        self.0.actor
    }
    fn is_done(&self) -> bool {
        self.2
    }
    fn step(&mut self, w: &World) {
        let (first, second) = if self.1 && !w.fix.ordered.get() {
            (&w.b, &w.a)
        } else {
            (&w.a, &w.b)
        };
        let _one = first.lock();
        let _two = second.lock();
        self.0.record("Toy.lockBoth", "both held");
        self.2 = true;
    }
}

fn world(fix: Fix) -> Arc<World> {
    Arc::new(World {
        fix,
        lock: Mutex::new(()),
        counter: RaceCell::new(0),
        a: Mutex::new(()),
        b: Mutex::new(()),
    })
}

pub static TWO_WRITERS: Scenario<Toy> = Scenario {
    name: "two-writers",
    about: "two threads add one to a shared counter",
    build: |trace: &Trace, fix| Setup {
        world: world(fix),
        threads: vec![
            Box::new(Writer(trace.actor("w1"), false)),
            Box::new(Writer(trace.actor("w2"), false)),
        ],
    },
};

pub static TWO_LOCKERS: Scenario<Toy> = Scenario {
    name: "two-lockers",
    about: "two threads take locks a and b",
    build: |trace: &Trace, fix| Setup {
        world: world(fix),
        threads: vec![
            Box::new(Locker(trace.actor("l1"), false, false)),
            Box::new(Locker(trace.actor("l2"), true, false)),
        ],
    },
};

pub static RACE: Outcome<World> = Outcome {
    id: "O1",
    summary: "the writers race on the counter",
    check: Check::Race,
};

pub static DEADLOCK: Outcome<World> = Outcome {
    id: "O2",
    summary: "the lockers deadlock",
    check: Check::Deadlock,
};

pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "the writers write under a lock",
    on: |fix| Fix {
        locked: Switch::new(true),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary: "the lockers take the locks in one order",
    on: |fix| Fix {
        ordered: Switch::new(true),
        ..fix
    },
};

pub struct Toy;

impl Model for Toy {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "harness",
        module: "harness",
        report: "-",
        title: "the harness's own race and deadlock verdicts",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] = &[&RACE, &DEADLOCK];
    const BASELINES: &'static [Baseline<Fix>] = &[Baseline {
        name: REPORT,
        repo: "racelab/toys",
        commit: "none",
        about: "a toy, not upstream code",
        changes: &[],
    }];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("fixed", &[&P1, &P2]),
    ];
    const UPSTREAM: Fix = Fix::UPSTREAM;

    fn describe(w: &World) -> String {
        format!("counter={}", w.counter.with(|c| *c))
    }
}

impl Claimed for Toy {
    const CLAIMS: Claims<Toy> = Claims {
        cells: &[
            Claim {
                variant: "upstream",
                outcome: &RACE,
                expected: R,
                method: Method::loom(&TWO_WRITERS, 1),
                note: "two unsynchronized writes: loom reports the race",
            },
            Claim {
                variant: "fixed",
                outcome: &RACE,
                expected: U,
                method: Method::loom(&TWO_WRITERS, 4).final_states(0xfd00_1628_7216_5885),
                note: "the lock orders the writes",
            },
            Claim {
                variant: "upstream",
                outcome: &DEADLOCK,
                expected: R,
                method: Method::loom(&TWO_LOCKERS, 2),
                note: "opposite lock orders deadlock",
            },
            Claim {
                variant: "fixed",
                outcome: &DEADLOCK,
                expected: U,
                method: Method::loom(&TWO_LOCKERS, 5).final_states(0xfd06_1628_721a_c433),
                note: "one lock order cannot deadlock",
            },
        ],
        reproductions: &[],
        mutants: &[Mutant {
            name: "writers unlocked",
            variant: "fixed",
            mutate: |fix| Fix {
                locked: Switch::new(false),
                ..fix
            },
            caught_by: &RACE,
            caught_at: None,
            inside_a_step: true,
            about: "the lock removed from the write",
        }],
    };
}

/// Never holds (the writes are serialized outside a race cell): its exploration sees every
/// execution. Only the reuse self-test below checks it.
static LOST_WRITE: Outcome<World> = Outcome {
    id: "O3",
    summary: "a write is lost",
    check: Check::State(|w| {
        let n = w.counter.with(|c| *c);
        (n != 2).then(|| format!("counter={n}"))
    }),
};

/// The cache's reuse of an exploration across switches ([`crate::cache`]): the two writers
/// never read `ordered`, so switching it on explores nothing new, while switching `locked` on
/// (which they read) explores anew and finds other executions.
pub fn reuse_self_test() -> Result<(), String> {
    use crate::cache::{explore, By, Subject};
    let outcomes = [(&LOST_WRITE, U)];
    let run = |by, fix| {
        let subject = Subject {
            scenario: &TWO_WRITERS,
            bound: None,
            fix,
            by,
        };
        explore(&subject, &outcomes)
    };
    let ordered = Fix {
        ordered: Switch::new(true),
        ..Toy::UPSTREAM
    };
    let locked = Fix {
        locked: Switch::new(true),
        ..Toy::UPSTREAM
    };
    let first = run(By::Variant("upstream"), Toy::UPSTREAM).remove(0);
    let reused = run(By::Mutant("ordered"), ordered).remove(0);
    let fresh = crate::explore::explore_all(&TWO_WRITERS, ordered, &outcomes, None).remove(0);
    let other = run(By::Mutant("locked"), locked).remove(0);
    let summary = |e: &crate::explore::Exploration| (e.observed, e.executions, e.explored_by);
    let want = [
        (U, first.executions, None),
        (U, first.executions, Some("upstream")),
        (U, first.executions, None),
    ];
    let got = [summary(&first), summary(&reused), summary(&fresh)];
    if got != want || other.explored_by.is_some() || other.executions == first.executions {
        return Err(format!(
            "reuse: got {got:?} and {:?} under `locked`, want {want:?} and a new exploration",
            summary(&other)
        ));
    }
    Ok(())
}

/// The pinned hash of the final states ([`crate::cells::check_final_states`]): the writers
/// adding two each (`by_two`) leave the race unreachable under the lock in as many executions,
/// so the verdict and the pinned count stand, and loom and the step checker would agree on the
/// changed states; only the hash fails the cell, naming it, both hashes and how to re-pin.
pub fn final_states_self_test() -> Result<(), String> {
    use crate::cache::By;
    use crate::cells::{check, check_final_states};
    let cell = Toy::CLAIMS
        .cells
        .iter()
        .find(|c| c.variant == "fixed" && c.outcome.id == RACE.id)
        .expect("the toy's fixed/O1 cell");
    let pinned = cell
        .method
        .pinned_final_states()
        .ok_or("fixed/O1 pins no final states")?;
    let as_claimed = check(cell, By::Variant(cell.variant), cell.fix())?;
    check_final_states(cell, &as_claimed)?;
    let by_two = Fix {
        by_two: Switch::new(true),
        ..cell.fix()
    };
    let changed = check(cell, By::Mutant("writers add two"), by_two)?;
    let same = (changed.observed, changed.executions) == (U, as_claimed.executions)
        && as_claimed.executions == Some(crate::cells::pinned_executions(cell));
    if !same || changed.final_states.as_deref() != Some(&["counter=4".to_owned()][..]) {
        return Err(format!(
            "by_two should keep fixed/O1 unreachable in {:?} executions and end in counter=4: \
             {} in {:?}, final states {:?}",
            as_claimed.executions, changed.observed, changed.executions, changed.final_states
        ));
    }
    let observed = changed.final_states_hash.unwrap_or(0);
    let want = format!(
        "harness/fixed/O1/loom: the final states' hash is {observed:#018x}, {pinned:#018x} is \
         pinned: a final state changed while the verdict and the 4 executions did not"
    );
    match check_final_states(cell, &changed) {
        Err(e) if e.starts_with(&want) && e.contains("then re-pin with `cargo xtask bless") => {
            Ok(())
        }
        other => Err(format!(
            "by_two: want an error starting {want:?}, got {other:?}"
        )),
    }
}
