//! The premises' results on the released jars (`cargo xtask conformance` writes them to
//! `target/racelab/conformance.json`): held, broken or not run, each with the cells that rest
//! on it. A broken premise makes its cells deviations; a replay that reached its outcome on the
//! real classes is the matrix's `J` mark for the cells it replays.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// A premise's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PremiseState {
    Held,
    Broken,
    NotRun,
}

impl PremiseState {
    pub fn as_str(self) -> &'static str {
        match self {
            PremiseState::Held => "held",
            PremiseState::Broken => "broken",
            PremiseState::NotRun => "not run",
        }
    }
}

/// One premise or replay, as conformance.json records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PremiseRecord {
    pub contract: String,
    pub id: String,
    pub upstream: String,
    pub jar: String,
    pub statement: String,
    /// Full cell keys (`contract/variant/outcome/checker`).
    pub cells: Vec<String>,
    /// How the jar's method compares with the model's baseline.
    #[serde(default)]
    pub versus_baseline: String,
    pub result: PremiseState,
    #[serde(default)]
    pub test: Option<String>,
    #[serde(default)]
    pub detail: Option<String>,
    #[serde(default)]
    pub seconds: Option<f64>,
    #[serde(default)]
    pub negation_flips: Option<bool>,
}

impl PremiseRecord {
    /// A replay of a counterexample (`RR_O5`, `DN_R1`), not a statement about one method.
    pub fn is_replay(&self) -> bool {
        crate::premises::is_replay_id(&self.id)
    }
}

/// What conformance.json holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RealCode {
    /// Why nothing ran (no java or mvn), when nothing did.
    #[serde(default)]
    pub skipped: Option<String>,
    #[serde(default)]
    pub premises: Vec<PremiseRecord>,
    /// The J cells: each replay's verdict on a row, joined with its claim.
    #[serde(default)]
    pub real_cells: Vec<super::CellResult>,
    /// Each replay row's trace, checked against the model step by step.
    #[serde(default)]
    pub traces: Vec<TraceCheck>,
    /// The searches' kept schedules, replayed.
    #[serde(default)]
    pub kept: Vec<super::searches::KeptReplay>,
}

/// One trace of a replay row on the real classes, validated against the model
/// (`cargo xtask validate`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceCheck {
    pub trace: String,
    pub contract: String,
    pub replay: String,
    pub variant: String,
    pub layer_off: bool,
    /// Real calls of observed methods.
    pub calls: usize,
    /// Values compared on the model's explanation.
    pub values: usize,
    /// Model schedules the search completed.
    pub schedules: u64,
    pub seconds: f64,
    /// The divergence, or why the trace could not be validated.
    pub problem: Option<String>,
    /// `problem` is a divergence: the model cannot follow the run.
    pub diverges: bool,
    /// The replay's order is not in the model: nothing to validate against.
    pub no_order: bool,
    /// The divergence is declared (`premises::Unvalidated`): why the model cannot follow it.
    #[serde(default)]
    pub declared: Option<String>,
}

impl TraceCheck {
    /// `contract replay variant[ (layer off)]`.
    pub fn row(&self) -> String {
        let off = if self.layer_off { " (layer off)" } else { "" };
        format!("{} {} {}{off}", self.contract, self.replay, self.variant)
    }
}

impl RealCode {
    /// The results in `path`; `None` when conformance did not run (no file).
    pub fn load(path: &Path) -> Result<Option<RealCode>, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn replays_are_told_from_premises_by_their_id() {
        let r = |id: &str| PremiseRecord {
            contract: "reregister".into(),
            id: id.into(),
            upstream: String::new(),
            jar: String::new(),
            statement: String::new(),
            cells: vec![],
            versus_baseline: String::new(),
            result: PremiseState::Held,
            test: None,
            detail: None,
            seconds: None,
            negation_flips: None,
        };
        assert!(r("RR_O5").is_replay());
        assert!(r("DN_O3").is_replay());
        assert!(!r("RR_P7").is_replay());
    }

    #[test]
    fn a_missing_file_means_not_run_and_a_bad_one_is_named() {
        let dir = std::env::temp_dir().join(format!("racelab-real-code-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        assert_eq!(RealCode::load(&dir.join("none.json")), Ok(None));
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{").expect("write");
        let err = RealCode::load(&bad).expect_err("not JSON");
        assert!(err.starts_with(&format!("{}: ", bad.display())), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
