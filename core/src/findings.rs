//! What racelab found beyond a report, as data beside the contract's claims: each finding names
//! the cells that show it, so that the reports and the JIRA export are generated from it and a
//! finding whose cells stop holding is a deviation.

use serde::Serialize;

/// How a finding relates to the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Something the report does not say: a part it needs, an outcome it missed.
    BeyondReport,
    /// A claim of the report that the checkers refute.
    DisagreesWithReport,
    /// A window the fix leaves open.
    ResidualWindow,
    /// The fix compared with one upstream already merged for a neighbouring bug.
    Precedent,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::BeyondReport => "beyond the report",
            Kind::DisagreesWithReport => "disagrees with the report",
            Kind::ResidualWindow => "residual window",
            Kind::Precedent => "precedent compared",
        }
    }
}

/// One finding: a sentence a reviewer can quote, and the cells (`VARIANT/OUTCOME/CHECKER`, of
/// the same contract) whose verdicts show it.
#[derive(Debug, Serialize)]
pub struct Finding {
    pub id: &'static str,
    pub kind: Kind,
    pub statement: &'static str,
    pub cells: &'static [&'static str],
    /// For a finding that disagrees with the report and cites no J cell: why no replay on the
    /// released classes can show it (a reviewer contests exactly these).
    pub no_replay: Option<&'static str>,
}

impl Finding {
    /// The finding as a Markdown list item, as report.md and the README show it.
    pub fn markdown(&self) -> String {
        let cells: Vec<String> = self.cells.iter().map(|k| format!("`{k}`")).collect();
        let no_replay = self
            .no_replay
            .map_or(String::new(), |why| format!(" No J cell: {why}."));
        format!(
            "- **{}** ({}): {} Cells: {}.{no_replay}",
            self.id,
            self.kind.as_str(),
            self.statement,
            cells.join(", ")
        )
    }
}
