//! A loom cell's test: its exploration (shared with its companions, or in a child process for
//! a deadlock), its result record, and the checks of its verdict, violation message and
//! pinned execution count. Also what the gate's shard split needs to know about a cell.

use crate::cache::{self, By, Subject};
use crate::child::explore_in_child;
use crate::explore::{explore, Exploration};
use racelab_core::claims::{Claim, Claimed, Method, Verdict};
use racelab_core::outcome::Check;
use racelab_core::report::CellResult;
use racelab_core::trace::VIOLATION;

/// The loom cells that share `claim`'s exploration ([`crate::explore::explore_all`]), `claim`
/// among them: the cells of its contract with the same variant, scenario and bound whose
/// outcomes are decided on the final state. A race or deadlock cell explores alone.
pub fn companions<M: Claimed>(claim: &Claim<M>) -> Vec<&'static Claim<M>> {
    let shares = |c: &Claim<M>| match (c.method.loom_scenario(), claim.method.loom_scenario()) {
        (Some((s, b)), Some((t, d))) => {
            std::ptr::eq(s, t) && b == d && matches!(c.outcome.check, Check::State(_))
        }
        _ => false,
    };
    if !shares(claim) {
        return M::CLAIMS
            .cells
            .iter()
            .filter(|c| c.key() == claim.key())
            .collect();
    }
    M::CLAIMS
        .cells
        .iter()
        .filter(|c| c.variant == claim.variant && shares(c))
        .collect()
}

/// The name of the exploration `claim` shares with its [`companions`]: the key of the first.
/// The gate's shard split keeps the cells of one exploration in one process.
pub fn exploration_name<M: Claimed>(claim: &Claim<M>) -> String {
    companions(claim)
        .first()
        .map_or_else(|| claim.key(), |c| c.key())
}

/// The cells the gate's shard split keeps in one process: a state cell with the other state
/// cells of its scenario and bound that pin the same executions. Such cells of different
/// variants often explore the same executions, and only the process that made an exploration
/// can reuse it ([`crate::cache`]). A heuristic for placing cells: it decides no verdict.
pub fn shard_group<M: Claimed>(claim: &Claim<M>) -> String {
    match (&claim.method, &claim.outcome.check) {
        (
            Method::Loom {
                scenario,
                bound,
                executions,
                ..
            },
            Check::State(_),
        ) => format!(
            "{}/{}/{bound:?}/{executions}",
            M::CONTRACT.id,
            scenario.name
        ),
        _ => exploration_name(claim),
    }
}

/// A loom cell's pinned executions (0 for other cells): its cost when the cells are split
/// between processes.
pub fn pinned_executions<M: Claimed>(claim: &Claim<M>) -> u64 {
    match claim.method {
        Method::Loom { executions, .. } => executions,
        _ => 0,
    }
}

/// Checks the loom cell `claim` under `fix`, its variant's switches or, when `by` names a
/// mutant, the mutant's: its result record. A state cell explores with its companions, once
/// per process ([`crate::cache`]); under a mutant, alone. A deadlock cell's child explores the
/// variant's switches.
pub fn check<M: Claimed>(claim: &Claim<M>, by: By, fix: M::Fix) -> Result<CellResult, String> {
    let Some((scenario, bound)) = claim.method.loom_scenario() else {
        return Err(format!("{} is not a loom cell", claim.key()));
    };
    let found = match claim.outcome.check {
        Check::Deadlock => explore_in_child(claim)?,
        Check::Race => explore(scenario, fix, claim.outcome, bound, claim.expected),
        Check::State(_) => {
            // A mutant's check asks for one deviation, so its exploration looks for its one
            // outcome and stops where it is found; companions would have it run to the end
            // for outcomes nobody reads under the mutant.
            let group = match by {
                By::Variant(_) => companions(claim),
                By::Mutant(_) => vec![claim],
            };
            let outcomes: Vec<_> = group.iter().map(|c| (c.outcome, c.expected)).collect();
            let subject = Subject {
                scenario,
                bound,
                fix,
                by,
            };
            let found = cache::explore(&subject, &outcomes);
            group
                .iter()
                .zip(found)
                .find(|(c, _)| c.outcome.id == claim.outcome.id)
                .map(|(_, e)| e)
                .expect("a cell is among its companions")
        }
    };
    Ok(record(claim, found))
}

/// A cell's result record from its exploration.
fn record<M: Claimed>(claim: &Claim<M>, found: Exploration) -> CellResult {
    let mut result = CellResult::for_cell(&claim.expectation(), found.observed);
    result.executions = Some(found.executions);
    result.seconds = found.seconds;
    if let Some(t) = &found.counterexample {
        result.set_counterexample(Vec::new(), t);
    }
    if found.observed == Verdict::Unreachable {
        result.final_states_hash = found.final_states_hash;
        if !found.final_states.is_empty() {
            result.final_states = Some(found.final_states.into_iter().collect());
        }
    }
    result.explored_by = found.explored_by.map(str::to_owned);
    result
}

/// The body of every loom cell's test: checks the cell, saves the result for the gate, and
/// checks the verdict, the violation message, the pinned execution count and, for an
/// unreachable cell, the pinned hash of its final states.
pub fn verify_cell<M: Claimed>(claim: &Claim<M>) -> Result<(), String> {
    let result = check(claim, By::Variant(claim.variant), claim.fix())?;
    result.save();
    if result.observed != claim.expected {
        return Err(format!(
            "{}: expected {}, loom found {} after {} executions\n{}",
            claim.key(),
            claim.expected,
            result.observed,
            result.executions.unwrap_or(0),
            result.timeline.join("\n")
        ));
    }
    if result.observed == Verdict::Reachable {
        let last = result.timeline.last().map(String::as_str).unwrap_or("");
        let expected = format!("✗  {VIOLATION}{}: ", claim.outcome.id);
        if !last.contains(&expected) {
            return Err(format!(
                "{}: violation message {last:?} lacks {expected:?}",
                claim.key()
            ));
        }
    }
    let pinned = pinned_executions(claim);
    if result.executions != Some(pinned) {
        return Err(format!(
            "{}: loom explored {} executions, {pinned} are pinned; the model or the scenario \
             changed: review the change, then re-pin",
            claim.key(),
            result.executions.unwrap_or(0)
        ));
    }
    check_final_states(claim, &result)
}

/// An unreachable loom cell's final states against its pin: the set of final states (each
/// execution's [`racelab_core::model::Model::describe`]) hashed
/// ([`racelab_core::report::final_states_hash`]) must be the pinned one, so that a change to a
/// final state no outcome reads fails the cell even where the verdict and the execution count
/// stand, and even where loom and the step checker agree (both run the same, possibly changed,
/// model). A reachable cell's exploration stops at its counterexample: it pins none.
pub fn check_final_states<M: Claimed>(claim: &Claim<M>, result: &CellResult) -> Result<(), String> {
    let how = format!(
        "review the change (the cell's record in the results directory lists its final states, \
         but for a deadlock cell), then re-pin with `cargo xtask bless {}`",
        M::CONTRACT.id
    );
    let pinned = claim.method.pinned_final_states();
    match (result.observed, pinned, result.final_states_hash) {
        (Verdict::Reachable, None, _) => Ok(()),
        (Verdict::Reachable, Some(p), _) => Err(format!(
            "{}: a reachable cell pins no final states (its exploration stops at the \
             counterexample), yet {p:#018x} is pinned: remove `.final_states({p:#018x})`",
            claim.key()
        )),
        (Verdict::Unreachable, _, None) => Err(format!(
            "{}: the unreachable cell's exploration reported no final states' hash",
            claim.key()
        )),
        (Verdict::Unreachable, None, Some(o)) => Err(format!(
            "{}: the final states' hash is {o:#018x} and none is pinned; {how}",
            claim.key()
        )),
        (Verdict::Unreachable, Some(p), Some(o)) if p != o => Err(format!(
            "{}: the final states' hash is {o:#018x}, {p:#018x} is pinned: a final state \
             changed while the verdict and the {} executions did not (the model or the \
             scenario changed); {how}",
            claim.key(),
            result.executions.unwrap_or(0)
        )),
        (Verdict::Unreachable, Some(_), Some(_)) => Ok(()),
    }
}
