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
    if found.observed == Verdict::Unreachable && !found.final_states.is_empty() {
        result.final_states = Some(found.final_states.into_iter().collect());
    }
    result.explored_by = found.explored_by.map(str::to_owned);
    result
}

/// The body of every loom cell's test: checks the cell, saves the result for the gate, and
/// checks the verdict, the violation message and the pinned execution count.
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
    Ok(())
}
