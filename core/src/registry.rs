//! Every contract racelab checks, without its model type: what the gate and the reports need.

use crate::claims::{Claims, ExpectedCell, Method, Reproduction};
use crate::matrix::{ExpectedReproduction, ReproductionResult};
use crate::model::{Contract, Model};

pub struct Entry {
    pub contract: &'static Contract,
    pub cells: Vec<ExpectedCell>,
    pub reproductions: Vec<ExpectedReproduction>,
    observers: &'static [Reproduction],
    /// Loom cells whose unreachable verdict has no reachable twin at the same scenario and bound.
    pub twinless: Vec<String>,
}

fn entry<M: Model>(claims: &'static Claims<M>) -> Entry {
    Entry {
        contract: M::CONTRACT,
        cells: claims.cells.iter().map(|c| c.expectation()).collect(),
        reproductions: claims
            .reproductions
            .iter()
            .map(|r| ExpectedReproduction {
                contract: M::CONTRACT.id,
                report: M::CONTRACT.report,
                what: r.what,
                expected: r.expected,
            })
            .collect(),
        observers: claims.reproductions,
        twinless: twinless(claims),
    }
}

impl Entry {
    /// Runs the model for every reproduction.
    pub fn reproduce(&self) -> Vec<ReproductionResult> {
        self.observers
            .iter()
            .map(|r| ReproductionResult {
                contract: self.contract.id.into(),
                report: self.contract.report.into(),
                what: r.what.into(),
                expected: r.expected.into(),
                observed: (r.observe)(),
            })
            .collect()
    }
}

/// An unreachable loom cell proves something only if the same scenario and bound find the
/// outcome in some other variant (usually upstream).
fn twinless<M: Model>(claims: &Claims<M>) -> Vec<String> {
    use crate::claims::Verdict::{Reachable, Unreachable};
    let loom = |c: &crate::claims::Claim<M>| match &c.method {
        Method::Loom {
            scenario, bound, ..
        } => Some((scenario.name, *bound)),
        Method::Histories(_) => None,
    };
    claims
        .cells
        .iter()
        .filter(|c| c.expected == Unreachable && loom(c).is_some())
        .filter(|u| {
            !claims
                .cells
                .iter()
                .any(|r| r.expected == Reachable && r.outcome == u.outcome && loom(r) == loom(u))
        })
        .map(|c| c.key())
        .collect()
}

/// All contracts, in report order.
pub fn all() -> Vec<Entry> {
    use crate::leader_ready::{claims::CLAIMS, LeaderReady};
    vec![
        entry::<LeaderReady>(&CLAIMS),
        entry::<crate::recon_sync::ReconSync>(&crate::recon_sync::claims::CLAIMS),
        entry::<crate::dead_node::DeadNode>(&crate::dead_node::claims::CLAIMS),
    ]
}

/// The contract named `id`, or the list of known names.
pub fn find(id: &str) -> Result<Entry, Vec<&'static str>> {
    let mut all = all();
    match all.iter().position(|e| e.contract.id == id) {
        Some(i) => Ok(all.swap_remove(i)),
        None => Err(all.iter().map(|e| e.contract.id).collect()),
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    #[test]
    fn every_unreachable_loom_cell_has_a_reachable_twin() {
        for e in super::all() {
            assert!(
                e.twinless.is_empty(),
                "{}: cells without a twin: {:?}",
                e.contract.id,
                e.twinless
            );
        }
    }

    #[test]
    fn claims_name_known_variants_and_outcomes() {
        for e in super::all() {
            for c in &e.cells {
                assert!(
                    e.contract.outcome(c.outcome).is_some(),
                    "{}: unknown outcome",
                    c.key()
                );
            }
        }
    }
}
