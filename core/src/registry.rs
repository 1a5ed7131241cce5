//! The contracts without their types. Every checker, the scenario replay, the gate and the
//! tests read the one list, [`visit`].

use crate::claims::{Claim, Claimed, Claims, ExpectedCell, Method, Verdict};
use crate::model::Contract;
use crate::outcome::Check;
use crate::report::{ReproductionResult, View};

/// What a registered contract provides: its model, and with the `histories` feature its long
/// histories too, so that every checker can be handed the same list.
#[cfg(feature = "histories")]
pub trait Registered: Claimed + crate::histories::Histories {}
#[cfg(feature = "histories")]
impl<M: Claimed + crate::histories::Histories> Registered for M {}
#[cfg(not(feature = "histories"))]
pub trait Registered: Claimed {}
#[cfg(not(feature = "histories"))]
impl<M: Claimed> Registered for M {}

/// Something done once per contract, with the contract's type.
pub trait Visitor {
    fn visit<M: Registered>(&mut self);
}

/// Every contract, in report order: the one list every checker, the replay and the gate read.
pub fn visit(v: &mut impl Visitor) {
    v.visit::<crate::contracts::leader_ready::LeaderReady>();
    v.visit::<crate::contracts::recon_sync::ReconSync>();
    v.visit::<crate::contracts::dead_node::DeadNode>();
    v.visit::<crate::contracts::container_recreate::ContainerRecreate>();
    v.visit::<crate::contracts::reregister::Reregister>();
}

/// Where each contract's recorded steps are upstream (`contracts/<contract>/upstream.rs`): what
/// the reports link every timeline step to. Empty for an id no contract has.
pub fn sources(id: &str) -> &'static crate::upstream::Sources {
    use crate::contracts::*;
    match id {
        "leader-ready" => &leader_ready::upstream::SOURCES,
        "recon-sync" => &recon_sync::upstream::SOURCES,
        "dead-node" => &dead_node::upstream::SOURCES,
        "container-recreate" => &container_recreate::upstream::SOURCES,
        "reregister" => &reregister::upstream::SOURCES,
        _ => &crate::upstream::Sources::EMPTY,
    }
}

/// Every contract's premises (`contracts/<contract>/premises.rs`), in report order, by
/// contract id.
pub fn premises() -> Vec<(&'static str, &'static [crate::premises::Premise])> {
    use crate::contracts::*;
    vec![
        ("leader-ready", leader_ready::premises::PREMISES),
        ("recon-sync", recon_sync::premises::PREMISES),
        ("dead-node", dead_node::premises::PREMISES),
        ("container-recreate", container_recreate::premises::PREMISES),
        ("reregister", reregister::premises::PREMISES),
    ]
}

/// Every contract's headline cells that no replay can decide, with why
/// (`contracts/<contract>/premises.rs`, `NO_REPLAY`).
pub fn no_replay() -> Vec<(&'static str, &'static [crate::premises::NoReplay])> {
    use crate::contracts::*;
    vec![
        ("leader-ready", &[]),
        ("recon-sync", recon_sync::premises::NO_REPLAY),
        ("dead-node", dead_node::premises::NO_REPLAY),
        ("container-recreate", &[]),
        ("reregister", &[]),
    ]
}

/// Every contract's replays whose traces the model cannot follow for a reason outside the model
/// (`contracts/<contract>/premises.rs`, `UNVALIDATED`).
pub fn unvalidated() -> Vec<(&'static str, &'static [crate::premises::Unvalidated])> {
    use crate::contracts::*;
    vec![
        ("leader-ready", &[]),
        ("recon-sync", &[]),
        ("dead-node", &[]),
        (
            "container-recreate",
            container_recreate::premises::UNVALIDATED,
        ),
        ("reregister", &[]),
    ]
}

/// A contract without its model type: what the gate and the reports need.
pub struct Entry {
    pub contract: &'static Contract,
    pub view: View,
    pub cells: Vec<ExpectedCell>,
    /// Each variant's name and the ids of what it switches on: its baseline's changes, then
    /// its parts (what a row of the fix layer on the real code must hold).
    pub rows: Vec<(&'static str, Vec<&'static str>)>,
    reproductions: &'static [crate::claims::Reproduction],
    /// Mistakes in the claims (see [`problems`]).
    pub problems: Vec<String>,
}

impl Entry {
    fn of<M: Claimed>() -> Entry {
        Entry {
            contract: &M::CONTRACT,
            view: View {
                no_replay: no_replay()
                    .into_iter()
                    .find(|(c, _)| *c == M::CONTRACT.id)
                    .map_or(&[], |(_, n)| n),
                ..View::of::<M>(sources(M::CONTRACT.id))
            },
            cells: M::CLAIMS
                .cells
                .iter()
                .flat_map(|c| {
                    let steps = c.has_steps_twin().then(|| c.steps_expectation());
                    std::iter::once(c.expectation()).chain(steps)
                })
                .collect(),
            rows: M::VARIANTS
                .iter()
                .map(|v| {
                    let changes = M::baseline_of(v).changes;
                    (
                        v.name,
                        crate::model::ids(changes)
                            .into_iter()
                            .chain(crate::model::ids(v.parts))
                            .collect(),
                    )
                })
                .collect(),
            reproductions: M::CLAIMS.reproductions,
            problems: problems::<M>(),
        }
    }

    /// The reproductions, with the values the reports give.
    pub fn expected_reproductions(&self) -> Vec<(&'static str, &'static str)> {
        self.reproductions
            .iter()
            .map(|r| (r.what, r.expected))
            .collect()
    }

    /// Runs the model for every reproduction.
    pub fn reproduce(&self) -> Vec<ReproductionResult> {
        self.reproductions
            .iter()
            .map(|r| ReproductionResult::of(self.contract, r))
            .collect()
    }
}

/// All contracts, in report order.
pub fn all() -> Vec<Entry> {
    struct Collect(Vec<Entry>);
    impl Visitor for Collect {
        fn visit<M: Registered>(&mut self) {
            self.0.push(Entry::of::<M>());
        }
    }
    let mut c = Collect(Vec::new());
    visit(&mut c);
    c.0
}

/// The contract named `id`, or the list of known names.
pub fn find(id: &str) -> Result<Entry, Vec<&'static str>> {
    let mut all = all();
    match all.iter().position(|e| e.contract.id == id) {
        Some(i) => Ok(all.swap_remove(i)),
        None => Err(all.iter().map(|e| e.contract.id).collect()),
    }
}

/// What is wrong with a contract's claims, as sentences (empty when nothing is):
/// - a claim names a variant the contract does not have (a variant's parts and a baseline's
///   changes are [`crate::model::Part`] constants, so an unknown one does not compile);
/// - two claims have the same key;
/// - an unreachable loom cell has no reachable twin (the same scenario and bound reaching the
///   outcome in another variant): without one it proves nothing;
/// - a race or deadlock outcome is claimed for a checker other than loom;
/// - a mutant names an unknown variant, or an outcome no loom cell of that variant checks (at
///   the path cell on the scenario it names, when it names one);
/// - a path cell ([`Method::loom_path`]) sits on the scenario of its row's headline cell of
///   the same outcome (it would repeat that cell);
/// - two parts have one id, or a row named by its parts holds others
///   ([`crate::model::part_problems`]);
/// - the first baseline is not the report's, or a variant names an unknown baseline;
/// - a headline row ([`crate::model::Variant::is_headline`]) has no verdict for some outcome;
/// - an unreachable history cell has no twin: the same checker (the same generator) reaching
///   that outcome under some variant, so that its search is known to be able to find it.
pub fn problems<M: Claimed>() -> Vec<String> {
    let claims: &Claims<M> = &M::CLAIMS;
    let mut out = Vec::new();
    if M::BASELINES.first().map(|b| b.name) != Some(crate::model::REPORT) {
        out.push(format!(
            "the first baseline must be `{}`, the code the model was read from",
            crate::model::REPORT
        ));
    }
    out.extend(crate::model::part_problems(M::VARIANTS, M::BASELINES));
    for v in M::VARIANTS {
        if M::baseline(v.baseline).is_none() {
            out.push(format!(
                "variant {} names unknown baseline {}",
                v.name, v.baseline
            ));
        }
        if v.is_headline() {
            for o in M::OUTCOMES {
                if !claims
                    .cells
                    .iter()
                    .any(|c| c.variant == v.name && c.outcome.id == o.id && !c.is_path())
                {
                    out.push(format!(
                        "{}/{}: no verdict (the row must be total)",
                        v.name, o.id
                    ));
                }
            }
        }
    }
    let mut keys = std::collections::BTreeSet::new();
    for c in claims.cells {
        if M::variant(c.variant).is_none() {
            out.push(format!("{}: unknown variant {}", c.key(), c.variant));
        }
        if !keys.insert(c.key()) {
            out.push(format!("{}: claimed twice", c.key()));
        }
        if !matches!(c.outcome.check, Check::State(_)) && !matches!(c.method, Method::Loom { .. }) {
            out.push(format!(
                "{}: a {} outcome can be checked only by loom",
                c.key(),
                c.outcome.kind()
            ));
        }
        if c.expected == Verdict::Unreachable && c.method.loom_scenario().is_none() {
            // a real-code cell's twin is the same replay reaching the outcome on another row
            let same_run = |r: &Claim<M>| match (&r.method, &c.method) {
                (Method::Real { replay: a }, Method::Real { replay: b }) => a == b,
                _ => r.checker() == c.checker(),
            };
            let twin = claims.cells.iter().any(|r| {
                r.expected == Verdict::Reachable && r.outcome.id == c.outcome.id && same_run(r)
            });
            if !twin {
                out.push(format!(
                    "{}: unreachable, but no variant's {} cell reaches it (the generator is not shown able to find it)",
                    c.key(),
                    c.checker().as_str()
                ));
            }
        }
        if c.method.loom_scenario().is_some() {
            match (c.expected, c.method.pinned_final_states()) {
                (Verdict::Unreachable, None) => out.push(format!(
                    "{}: an unreachable loom cell pins the hash of its final states \
                     (`.final_states(0x…)` after its method): run the cell, review, then \
                     `cargo xtask bless`",
                    c.key()
                )),
                (Verdict::Reachable, Some(_)) => out.push(format!(
                    "{}: a reachable loom cell pins no final states (its exploration stops at \
                     the counterexample)",
                    c.key()
                )),
                _ => {}
            }
        }
        if c.is_path() {
            let at = c.method.loom_scenario().map(|(s, _)| s);
            let repeats = claims.cells.iter().any(|h| {
                !h.is_path()
                    && h.variant == c.variant
                    && h.outcome.id == c.outcome.id
                    && h.method
                        .loom_scenario()
                        .zip(at)
                        .is_some_and(|((s, _), a)| std::ptr::eq(s, a))
            });
            if repeats {
                out.push(format!(
                    "{}: a path cell on the scenario of its row's headline cell of {} (it \
                     repeats that cell)",
                    c.key(),
                    c.outcome.id
                ));
            }
        }
        if c.expected == Verdict::Unreachable {
            if let Some(at) = c.method.loom_scenario() {
                let twin = claims.cells.iter().any(|r| {
                    r.expected == Verdict::Reachable
                        && r.outcome.id == c.outcome.id
                        && r.method
                            .loom_scenario()
                            .is_some_and(|(s, b)| std::ptr::eq(s, at.0) && b == at.1)
                });
                if !twin {
                    out.push(format!(
                        "{}: unreachable, but no variant reaches it at the same scenario and bound",
                        c.key()
                    ));
                }
            }
        }
    }
    for m in claims.mutants {
        let caught = claims
            .cells
            .iter()
            .any(|c| m.is_caught_at(c) && c.expected == Verdict::Unreachable);
        if !caught {
            out.push(format!(
                "mutant `{}`: no unreachable loom cell {} to catch it",
                m.name,
                m.catching_key()
            ));
        }
    }
    let keys: Vec<String> = claims
        .cells
        .iter()
        .flat_map(|c| {
            let steps = c.has_steps_twin().then(|| c.steps_expectation().key());
            std::iter::once(c.key()).chain(steps)
        })
        .collect();
    for f in M::FINDINGS {
        if f.cells.is_empty() {
            out.push(format!("finding {}: cites no cell", f.id));
        }
        // a reviewer contests exactly these: the real code's own verdict, or why it has none
        let on_real_code = f.cells.iter().any(|c| crate::claims::is_real_key(c));
        if f.kind == crate::findings::Kind::DisagreesWithReport
            && !on_real_code
            && f.no_replay.is_none()
        {
            out.push(format!(
                "finding {}: disagrees with the report, but cites no J cell and says no why \
                 none can exist (no_replay)",
                f.id
            ));
        }
        for cited in f.cells {
            let key = format!("{}/{cited}", M::CONTRACT.id);
            if !keys.contains(&key) {
                out.push(format!(
                    "finding {}: cites {key}, which no claim names",
                    f.id
                ));
            }
        }
    }
    if claims.mutants.is_empty() {
        out.push("names no mutant (a plausible broken fix the suite must catch)".into());
    }
    out
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::claims::Checker;
    use std::collections::BTreeSet;

    /// Every premise names cells the contracts claim, and ids are unique.
    #[test]
    fn premises_name_claimed_cells() {
        let claimed: BTreeSet<String> = super::all()
            .iter()
            .flat_map(|e| e.cells.iter().map(|c| c.key()))
            .collect();
        let mut ids = BTreeSet::new();
        for (contract, premises) in super::premises() {
            for p in premises {
                assert!(ids.insert(p.id), "premise id {} twice", p.id);
                assert!(p.is_replay() || !p.cells.is_empty(), "{}: no cells", p.id);
                assert_ne!(
                    p.versus_baseline,
                    crate::premises::UNCOMPARED,
                    "{}: its jar's method is not compared with the model's baseline",
                    p.id
                );
                for cell in p.cells {
                    assert!(
                        cell.starts_with(&format!("{contract}/")),
                        "{}: {cell} is not a {contract} cell",
                        p.id
                    );
                    assert!(claimed.contains(*cell), "{}: {cell} is not claimed", p.id);
                }
            }
        }
    }

    /// A replay's J cells are the claims that name it, never listed in its premise (which
    /// lists only the model cells that rest on its reaching the outcome); each replay decides
    /// at least one.
    #[test]
    fn a_replay_premise_decides_j_cells_its_claims_name() {
        for (contract, premises) in super::premises() {
            for p in premises.iter().filter(|p| p.is_replay()) {
                let decided = super::all()
                    .iter()
                    .filter(|e| e.contract.id == contract)
                    .flat_map(|e| e.cells.iter())
                    .filter(|c| c.checker == Checker::Real && c.scenario == Some(p.id))
                    .count();
                assert!(decided > 0, "{}: no J cell names this replay", p.id);
                let own = format!("/{}:{}", Checker::Real.as_str(), p.id);
                assert!(
                    !p.cells.iter().any(|c| c.ends_with(&own)),
                    "{}: lists its own J cells (they are the claims that name it)",
                    p.id
                );
            }
        }
    }

    #[test]
    fn the_claims_of_every_contract_are_well_formed() {
        let problems: Vec<String> = super::all()
            .iter()
            .filter(|e| !e.problems.is_empty())
            .map(|e| format!("{}:\n  {}", e.contract.id, e.problems.join("\n  ")))
            .collect();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
