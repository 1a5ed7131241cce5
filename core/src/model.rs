//! The shape every contract shares: its parts, outcomes and variants, its actors as step
//! programs, and its scenarios. The loom runner (`racelab-loom`), the step driver
//! ([`crate::drive`]) and the history checkers all run a contract through these types, so they
//! run the same step functions.

use crate::outcome::Outcome;
use crate::sync::Arc;
use crate::trace::Trace;
use std::fmt;

/// A bug report: the names the command line, the reports and the fuzz targets use.
#[derive(Debug)]
pub struct Contract {
    /// Short name used on the command line and in reports, e.g. `leader-ready`.
    pub id: &'static str,
    /// The module, fuzz target and corpus folder name, e.g. `leader_ready`.
    pub module: &'static str,
    /// The issue key, e.g. `HDDS-17575`.
    pub report: &'static str,
    pub title: &'static str,
}

/// One separable part of a fix, written once: its id in the reports, what it changes upstream,
/// and the switches it sets. A variant, a baseline and the tests name a part by its constant
/// (`&P1`), so a misspelt part does not compile.
///
/// `on` only sets switches (`|fix| Fix { guard: Switch::new(..), ..fix }`) and never reads one:
/// the loom runner shares an exploration between variants that differ only in switches it did
/// not read ([`crate::switches`]), and computing a variant's switches must not count as a read.
/// A part that stands for a whole design (recon-sync's A1–A4) sets every switch it needs on top
/// of whatever it is applied to, as a fix part does.
pub struct Part<F: 'static> {
    pub id: &'static str,
    pub summary: &'static str,
    pub on: fn(F) -> F,
}

impl<F> fmt::Debug for Part<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// The ids of `parts`, as the reports give them.
pub fn ids<F>(parts: &[&Part<F>]) -> Vec<&'static str> {
    parts.iter().map(|p| p.id).collect()
}

/// What the types cannot rule out about a contract's parts, as sentences: two different parts
/// with one id (a copied constant whose id was not changed), and a row named by its parts
/// (`P1+P2`, `trunk+P1`) that holds other parts than its name says.
pub fn part_problems<F>(variants: &[Variant<F>], baselines: &[Baseline<F>]) -> Vec<String> {
    let mut out = Vec::new();
    let every = variants
        .iter()
        .flat_map(|v| v.parts)
        .chain(baselines.iter().flat_map(|b| b.changes));
    // A part's constant is copied wherever it is named, so one id with two summaries is two parts.
    let mut summaries = std::collections::BTreeMap::new();
    for p in every {
        if let Some(other) = summaries.insert(p.id, p.summary) {
            if other != p.summary {
                out.push(format!("two parts have the id {}", p.id));
            }
        }
    }
    for v in variants {
        let mut named: Vec<&str> = v.name.split('+').collect();
        if v.baseline != REPORT && named.first() == Some(&v.baseline) {
            named.remove(0);
        }
        let held = ids(v.parts);
        let by_parts = named.is_empty() || named.iter().all(|n| summaries.contains_key(n));
        if by_parts && held != named {
            out.push(format!(
                "variant {} holds the parts [{}]",
                v.name,
                held.join(", ")
            ));
        }
    }
    out
}

/// The upstream code a row is about: a release tag or a commit. A contract's first baseline is
/// [`REPORT`], the code its model was read from; a later one (trunk after an upstream fix) is
/// that code with upstream's `changes` switched on, each a [`Part`] of the model like a fix part.
#[derive(Debug)]
pub struct Baseline<F: 'static> {
    pub name: &'static str,
    /// `apache/ozone` or `apache/hadoop`.
    pub repo: &'static str,
    /// A commit id or a release tag.
    pub commit: &'static str,
    /// Which code this is, in one sentence (the release, the upstream fixes it holds).
    pub about: &'static str,
    /// The upstream changes since the report's code, as parts of the model (`HDFS-17953`).
    pub changes: &'static [&'static Part<F>],
}

/// The name of a contract's first baseline: the code the report and the model were read against.
pub const REPORT: &str = "report";

impl<F> Baseline<F> {
    /// `apache/hadoop@2f3cdd76`.
    pub fn code(&self) -> String {
        format!("{}@{}", self.repo, self.commit)
    }

    /// The link to the source tree at this baseline.
    pub fn url(&self) -> String {
        format!("https://github.com/{}/tree/{}", self.repo, self.commit)
    }
}

/// A set of fix parts on a baseline, under a name: `upstream` (none), `proposed`, `improved`, or
/// the parts it holds (`P1+P2`). Its switches are computed from the baseline's changes and the
/// parts ([`Model::fix_of_variant`]), so a variant cannot claim parts it does not switch on.
#[derive(Debug)]
pub struct Variant<F: 'static> {
    pub name: &'static str,
    /// Applied in this order, after the baseline's changes.
    pub parts: &'static [&'static Part<F>],
    /// The [`Baseline`] it is built on.
    pub baseline: &'static str,
}

impl<F> Variant<F> {
    /// A variant on the report's code.
    pub const fn new(name: &'static str, parts: &'static [&'static Part<F>]) -> Self {
        Variant {
            name,
            parts,
            baseline: REPORT,
        }
    }

    /// A variant on another baseline.
    pub const fn on(
        baseline: &'static str,
        name: &'static str,
        parts: &'static [&'static Part<F>],
    ) -> Self {
        Variant {
            name,
            parts,
            baseline,
        }
    }

    /// Whether the matrix must give this row a verdict for every outcome: upstream, each part
    /// alone, `proposed`, `improved`, and every baseline's own row.
    pub fn is_headline(&self) -> bool {
        matches!(self.name, "upstream" | "proposed" | "improved") || self.parts.len() <= 1
    }
}

/// A contract's reference model.
pub trait Model: Sized + 'static {
    /// One switch per fix part, each read through [`crate::switches::Switch::get`].
    type Fix: Copy + fmt::Debug + Send + Sync + crate::switches::Switches + 'static;
    /// Everything the actors share.
    type World: crate::sync::Shared + 'static;

    const CONTRACT: Contract;
    const OUTCOMES: &'static [&'static Outcome<Self::World>];
    const VARIANTS: &'static [Variant<Self::Fix>];
    /// The upstream code the variants are built on; the first is [`REPORT`].
    const BASELINES: &'static [Baseline<Self::Fix>];
    /// What the checkers found beyond the report, each with the cells that show it.
    const FINDINGS: &'static [crate::findings::Finding] = &[];

    /// The observable state, in the report's words: what a scenario replay prints, and the
    /// final state that loom and the step checker compare. The one description of a whole
    /// world; a contract's `World::as_reported`, where it has one, is the part of it that the
    /// bug report states and the reproductions compare.
    fn describe(world: &Self::World) -> String;

    /// The switches of upstream: no part.
    const UPSTREAM: Self::Fix;

    /// The switches of a list of parts on the report's code: each part's `on`, in order, from
    /// [`Model::UPSTREAM`].
    fn fix(parts: &[&Part<Self::Fix>]) -> Self::Fix {
        parts.iter().fold(Self::UPSTREAM, |fix, p| (p.on)(fix))
    }

    fn variant(name: &str) -> Option<&'static Variant<Self::Fix>> {
        Self::VARIANTS.iter().find(|v| v.name == name)
    }

    fn baseline(name: &str) -> Option<&'static Baseline<Self::Fix>> {
        Self::BASELINES.iter().find(|b| b.name == name)
    }

    /// The baseline a variant is built on.
    fn baseline_of(variant: &Variant<Self::Fix>) -> &'static Baseline<Self::Fix> {
        Self::baseline(variant.baseline).unwrap_or_else(|| {
            panic!(
                "{}: variant {} names unknown baseline {}",
                Self::CONTRACT.id,
                variant.name,
                variant.baseline
            )
        })
    }

    /// The switches of a variant: its baseline's changes, then its parts.
    fn fix_of_variant(variant: &Variant<Self::Fix>) -> Self::Fix {
        let changes = Self::baseline_of(variant).changes;
        Self::fix(&[changes, variant.parts].concat())
    }

    /// The switches of the variant named `name`.
    fn fix_of(name: &str) -> Option<Self::Fix> {
        Self::variant(name).map(Self::fix_of_variant)
    }

    fn outcome(id: &str) -> Option<&'static Outcome<Self::World>> {
        Self::OUTCOMES.iter().copied().find(|o| o.id == id)
    }
}

/// An actor's remaining work as a sequence of atomic steps: one `step` is what upstream does
/// atomically or under one lock. Loom runs each program on its own thread to completion; the
/// step driver interleaves programs one step at a time.
pub trait Program<W>: crate::sync::Movable {
    /// The upstream thread this program runs on.
    fn actor(&self) -> &'static str;
    fn is_done(&self) -> bool;
    /// Whether the next step can run now without blocking: false while a lock it takes is held
    /// across steps by another actor, or while it waits for a condition. Loom ignores this (its
    /// threads really block).
    fn enabled(&self, _world: &W) -> bool {
        !self.is_done()
    }
    fn step(&mut self, world: &W);
    /// The next step, in upstream's words, for a setup that cannot go on
    /// ([`try_step_until`]'s message): `None` says only "its next step". Asked only when the
    /// step is not enabled, so a program that keeps the default `enabled` needs none.
    fn next_step(&self) -> Option<String> {
        None
    }
}

/// Two programs run one after the other on one thread (`actor`): `first` to its end, then
/// `second`. A scenario uses it where upstream's two threads are ordered anyway (the second
/// cannot begin before the first's last step, and the first does nothing after it), so that
/// loom explores one thread fewer and loses no interleaving; the constructor says why.
#[derive(Debug)]
pub struct Then<A, B> {
    pub actor: &'static str,
    pub first: A,
    pub second: B,
}

impl<W, A: Program<W>, B: Program<W>> Program<W> for Then<A, B> {
    fn actor(&self) -> &'static str {
        self.actor
    }

    fn is_done(&self) -> bool {
        self.second.is_done()
    }

    fn enabled(&self, world: &W) -> bool {
        if self.first.is_done() {
            self.second.enabled(world)
        } else {
            self.first.enabled(world)
        }
    }

    fn step(&mut self, world: &W) {
        if self.first.is_done() {
            self.second.step(world);
        } else {
            self.first.step(world);
        }
    }

    fn next_step(&self) -> Option<String> {
        if self.first.is_done() {
            self.second.next_step()
        } else {
            self.first.next_step()
        }
    }
}

/// Runs `program` to its end on a loom thread (whose steps really block while another thread
/// holds what they need). A program run with nothing else running (a scenario's pre-state, a
/// history's setup) is run by [`run_alone`], which fails where this would wait forever.
pub fn run_to_end<W, P: Program<W> + ?Sized>(program: &mut P, world: &W) {
    while !program.is_done() {
        program.step(world);
    }
}

/// How a setup's failure begins: [`try_step_until`]'s messages, and the panic of
/// [`step_until`], which the step checker turns into its cell's error.
pub const SETUP: &str = "setup: ";

/// The most steps a run takes before it is taken to step on forever: one program alone towards
/// a goal ([`try_step_until`]), a driver's programs to their end (`Driver::finish`), one
/// schedule of the step checker. Far more than any scenario's setup, schedule or history
/// operation needs, so that a program that never ends fails the run instead of hanging it.
pub const ALONE_STEPS: usize = 100_000;

/// Steps `program`, with nothing else running, until `reached` holds (checked before every
/// step, so a goal that holds already takes no step). Fails, naming `goal` and the step it
/// needed, where waiting would never end: the program is done, its next step is not enabled
/// (it would block on a lock or a condition no one else will change: a `Condvar` wait on an
/// empty queue blocks forever on parking_lot's primitives and is a deadlock under loom), or it
/// has taken [`ALONE_STEPS`] steps.
pub fn try_step_until<W, P: Program<W> + ?Sized>(
    program: &mut P,
    world: &W,
    goal: impl fmt::Display,
    mut reached: impl FnMut(&P, &W) -> bool,
) -> Result<(), String> {
    let mut steps = 0;
    while !reached(program, world) {
        let why = if program.is_done() {
            format!("{} is done", program.actor())
        } else if !program.enabled(world) {
            let next = program
                .next_step()
                .unwrap_or_else(|| "its next step".to_owned());
            format!("{}: {next} is not enabled", program.actor())
        } else if steps == ALONE_STEPS {
            format!("{} took {ALONE_STEPS} steps", program.actor())
        } else {
            program.step(world);
            steps += 1;
            continue;
        };
        return Err(format!("{SETUP}never reached {goal}: {why}"));
    }
    Ok(())
}

/// [`try_step_until`] in a scenario's setup or a history's driver, where a failed goal is a
/// defect of the model (or a mutant that breaks the setup's assumption): panics with its message.
#[track_caller]
pub fn step_until<W, P: Program<W> + ?Sized>(
    program: &mut P,
    world: &W,
    goal: impl fmt::Display,
    reached: impl FnMut(&P, &W) -> bool,
) {
    if let Err(e) = try_step_until(program, world, goal, reached) {
        panic!("{e}");
    }
}

/// Runs `f` (a scenario's build, an enumeration of it), turning a setup's failure (a panic of
/// [`step_until`], whose message begins with [`SETUP`]) into its message; any other panic goes
/// on unwinding.
pub fn catching_setup<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .filter(|m| m.starts_with(SETUP))
            .cloned();
        message.unwrap_or_else(|| std::panic::resume_unwind(payload))
    })
}

/// One step of `program` with nothing else running ([`step_until`]): `goal` says what the
/// step is for.
#[track_caller]
pub fn step_once<W, P: Program<W> + ?Sized>(program: &mut P, world: &W, goal: impl fmt::Display) {
    let mut taken = false;
    step_until(program, world, goal, |_, _| {
        std::mem::replace(&mut taken, true)
    });
}

/// Runs `program` to its end with nothing else running ([`step_until`]).
#[track_caller]
pub fn run_alone<W, P: Program<W> + ?Sized>(program: &mut P, world: &W) {
    let actor = program.actor();
    step_until(
        program,
        world,
        format_args!("the end of {actor}"),
        |p, _| p.is_done(),
    );
}

/// A world and the programs that will run on it.
pub struct Setup<M: Model> {
    pub world: Arc<M::World>,
    pub threads: Vec<Box<dyn Program<M::World>>>,
}

/// A small scenario for loom: how to build the world and its threads for a variant. A
/// scenario may run steps before it hands the threads over (they happen before any
/// concurrency, as when main runs them before spawning).
pub struct Scenario<M: Model> {
    pub name: &'static str,
    pub about: &'static str,
    pub build: fn(&Trace, M::Fix) -> Setup<M>,
}

impl<M: Model> fmt::Debug for Scenario<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scenario")
            .field("name", &self.name)
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const A: Part<u8> = Part {
        id: "A",
        summary: "sets bit 0",
        on: |fix| fix | 1,
    };
    const B: Part<u8> = Part {
        id: "B",
        summary: "sets bit 1",
        on: |fix| fix | 2,
    };
    const CHANGE: Part<u8> = Part {
        id: "UP-1",
        summary: "upstream's change",
        on: |fix| fix | 4,
    };
    const BASELINES: &[Baseline<u8>] = &[
        Baseline {
            name: REPORT,
            repo: "-",
            commit: "-",
            about: "-",
            changes: &[],
        },
        Baseline {
            name: "trunk",
            repo: "-",
            commit: "-",
            about: "-",
            changes: &[&CHANGE],
        },
    ];

    #[test]
    fn rows_named_by_their_parts_hold_them() {
        let good = [
            Variant::new("upstream", &[]),
            Variant::new("A+B", &[&A, &B]),
            Variant::new("improved", &[&B]),
            Variant::on("trunk", "trunk", &[]),
            Variant::on("trunk", "trunk+A", &[&A]),
        ];
        assert_eq!(part_problems(&good, BASELINES), Vec::<String>::new());
        let bad = [
            Variant::new("A+B", &[&A]),
            Variant::on("trunk", "trunk", &[&B]),
        ];
        assert_eq!(
            part_problems(&bad, BASELINES),
            [
                "variant A+B holds the parts [A]",
                "variant trunk holds the parts [B]"
            ]
        );
    }

    /// A program of `steps` steps whose next step is enabled only while the world's flag is set.
    struct Gated(u8);

    impl Program<std::cell::Cell<bool>> for Gated {
        fn actor(&self) -> &'static str {
            "gated"
        }
        fn is_done(&self) -> bool {
            self.0 == 0
        }
        fn enabled(&self, open: &std::cell::Cell<bool>) -> bool {
            !self.is_done() && open.get()
        }
        fn step(&mut self, _: &std::cell::Cell<bool>) {
            self.0 -= 1;
        }
        fn next_step(&self) -> Option<String> {
            Some(format!("step {}", 4 - self.0))
        }
    }

    /// A program that never ends and never gets anywhere.
    struct Forever;

    impl Program<()> for Forever {
        fn actor(&self) -> &'static str {
            "forever"
        }
        fn is_done(&self) -> bool {
            false
        }
        fn step(&mut self, _: &()) {}
    }

    /// A goal the program reaches is reached; one it cannot reach fails, naming the goal and
    /// why, instead of stepping a finished program or blocking in a step that cannot run: its
    /// end, a step not enabled, a program that steps on forever.
    #[test]
    fn a_program_alone_reaches_its_goal_or_fails_naming_it() {
        let open = std::cell::Cell::new(true);
        let mut p = Gated(3);
        assert_eq!(
            try_step_until(&mut p, &open, "two steps", |p, _| p.0 == 1),
            Ok(())
        );
        open.set(false);
        assert_eq!(
            try_step_until(&mut p, &open, "the last step", |p, _| p.is_done()),
            Err("setup: never reached the last step: gated: step 3 is not enabled".to_owned())
        );
        open.set(true);
        run_alone(&mut p, &open);
        assert!(p.is_done());
        assert_eq!(
            try_step_until(&mut p, &open, "a fourth step", |_, _| false),
            Err("setup: never reached a fourth step: gated is done".to_owned())
        );
        assert_eq!(
            try_step_until(&mut Forever, &(), "an end", |p, _| p.is_done()),
            Err(format!(
                "setup: never reached an end: forever took {ALONE_STEPS} steps"
            ))
        );
        // As a panic, caught as the step checker catches it; other panics go on unwinding.
        let failed = catching_setup(|| step_once(&mut Gated(0), &open, "one step"));
        assert_eq!(
            failed,
            Err("setup: never reached one step: gated is done".to_owned())
        );
        let other = std::panic::catch_unwind(|| catching_setup(|| panic!("a model defect")))
            .expect_err("not a setup's failure");
        assert_eq!(other.downcast_ref::<&str>(), Some(&"a model defect"));
    }

    #[test]
    fn a_copied_part_with_its_id_unchanged_is_found() {
        const COPY: Part<u8> = Part {
            id: "A",
            summary: "sets bit 2",
            on: |fix| fix | 4,
        };
        let rows = [Variant::new("A", &[&A]), Variant::new("C", &[&COPY])];
        assert_eq!(part_problems(&rows, BASELINES), ["two parts have the id A"]);
    }
}
