//! What the checkers observed and what the gate makes of it: the result records
//! ([`results`]), their comparison with the claims ([`compare`]), and the renderings of the
//! matrix ([`render`]).

pub mod compare;
pub mod jira;
pub mod readme;
pub mod real_code;
pub mod render;
pub mod results;
pub mod searches;

pub use compare::{Deviation, Matrix};
pub use results::{final_states_hash, load_records, CellResult, ReproductionResult, RESULTS_ENV};

use crate::model::{Contract, Model};

/// A contract as the reports show it: its names and its outcomes' meanings.
#[derive(Clone, Debug)]
pub struct View {
    pub id: &'static str,
    pub report: &'static str,
    pub title: &'static str,
    pub outcomes: Vec<(&'static str, &'static str)>,
    /// The upstream code the rows are about.
    pub baselines: Vec<BaselineView>,
    pub findings: &'static [crate::findings::Finding],
    /// The rows that must have a verdict for every outcome ([`crate::model::Variant::is_headline`]).
    pub headline: Vec<&'static str>,
    /// The outcomes that are data races (a search's, not a replay's, on the real code).
    pub races: Vec<&'static str>,
    /// The headline cells no replay on a released jar can decide, with why (set by the
    /// registry from the contract's premises.rs).
    pub no_replay: &'static [crate::premises::NoReplay],
    /// Where each recorded step is upstream.
    pub sources: &'static crate::upstream::Sources,
}

/// A baseline as report.json shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BaselineView {
    pub contract: &'static str,
    pub name: &'static str,
    pub repo: &'static str,
    pub commit: &'static str,
    pub url: String,
    pub about: &'static str,
    /// The upstream changes since the report's code that the model switches on.
    pub changes: Vec<&'static str>,
}

impl View {
    /// The view of `M`, whose steps are found upstream in `sources`.
    pub fn of<M: Model>(sources: &'static crate::upstream::Sources) -> View {
        let Contract {
            id, report, title, ..
        } = M::CONTRACT;
        View {
            id,
            report,
            title,
            outcomes: M::OUTCOMES.iter().map(|o| (o.id, o.summary)).collect(),
            baselines: M::BASELINES
                .iter()
                .map(|b| BaselineView {
                    contract: id,
                    name: b.name,
                    repo: b.repo,
                    commit: b.commit,
                    url: b.url(),
                    about: b.about,
                    changes: crate::model::ids(b.changes),
                })
                .collect(),
            findings: M::FINDINGS,
            headline: M::VARIANTS
                .iter()
                .filter(|v| v.is_headline())
                .map(|v| v.name)
                .collect(),
            races: M::OUTCOMES
                .iter()
                .filter(|o| matches!(o.check, crate::outcome::Check::Race))
                .map(|o| o.id)
                .collect(),
            no_replay: &[],
            sources,
        }
    }

    /// The upstream link of a step of `method` in a row built on `baseline` (its line at that
    /// commit, or its class's file).
    pub fn link(&self, baseline: &str, method: &str) -> Option<crate::upstream::Link> {
        let b = self
            .baselines
            .iter()
            .find(|b| b.name == baseline)
            .or(self.baselines.first())?;
        self.sources.link(b.repo, b.commit, b.name, method)
    }

    /// The full key of a cell a finding cites (`VARIANT/OUTCOME/CHECKER`).
    pub fn cell_key(&self, cited: &str) -> String {
        format!("{}/{cited}", self.id)
    }
}
