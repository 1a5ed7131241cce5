//! `cargo xtask validate`: every trace of the real code checked against its model
//! (`racelab_props::validate`), and what `cargo xtask conformance` reports of them.

use crate::phases::root;
use racelab_props::validate::{validate_any, RealTrace, Validation};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the replays write their traces: one folder per Maven module.
pub fn default_dirs() -> Vec<PathBuf> {
    ["ozone", "hdfs"]
        .iter()
        .map(|m| {
            root()
                .join("conformance")
                .join(m)
                .join("target/racelab-traces")
        })
        .collect()
}

/// The `.jsonl` files under `paths` (files as given, folders searched), sorted.
pub fn traces(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
                walk(&e.path(), out);
            }
        } else if p.extension().is_some_and(|e| e == "jsonl") {
            out.push(p.to_owned());
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
        } else {
            walk(p, &mut out);
        }
    }
    out.sort();
    out
}

/// One trace's result, as conformance.json keeps it.
#[derive(Debug, Serialize)]
pub struct Checked {
    pub trace: String,
    pub contract: String,
    pub replay: String,
    pub variant: String,
    pub layer_off: bool,
    pub calls: usize,
    pub values: usize,
    pub schedules: u64,
    pub seconds: f64,
    /// The divergence, or the reason the trace could not be validated.
    pub problem: Option<String>,
    /// Whether `problem` is a divergence (the model cannot follow the run), not a bad trace.
    pub diverges: bool,
}

impl Checked {
    fn of(v: Validation) -> Checked {
        Checked {
            trace: relative(&v.trace),
            contract: v.contract,
            replay: v.replay,
            variant: v.variant,
            layer_off: v.layer_off,
            calls: v.calls,
            values: v.values,
            schedules: v.schedules,
            seconds: v.seconds,
            diverges: v.divergence.is_some(),
            problem: v.divergence,
        }
    }

    fn failed(path: &Path, t: Option<&RealTrace>, problem: String) -> Checked {
        Checked {
            trace: relative(path),
            contract: t.map(|t| t.contract.clone()).unwrap_or_default(),
            replay: t.map(|t| t.replay.clone()).unwrap_or_default(),
            variant: t.map(|t| t.variant.clone()).unwrap_or_default(),
            layer_off: t.is_some_and(|t| t.layer_off),
            calls: t.map_or(0, |t| t.calls.len()),
            values: 0,
            schedules: 0,
            seconds: 0.0,
            problem: Some(problem),
            diverges: false,
        }
    }

    /// `contract replay variant[ (layer off)]`.
    pub fn row(&self) -> String {
        let off = if self.layer_off { " (layer off)" } else { "" };
        format!("{} {} {}{off}", self.contract, self.replay, self.variant)
    }
}

fn relative(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// Validates every trace under `paths`, one line each.
pub fn check(paths: &[PathBuf]) -> Vec<Checked> {
    traces(paths)
        .iter()
        .map(|path| {
            let c = match RealTrace::read(path) {
                Err(e) => Checked::failed(path, None, e),
                Ok(t) => match validate_any(&t) {
                    Ok(v) => Checked::of(v),
                    Err(e) => Checked::failed(path, Some(&t), e),
                },
            };
            match &c.problem {
                None => println!(
                    "validated {}: {} calls, {} values, {} schedule(s), {:.3} s",
                    c.row(),
                    c.calls,
                    c.values,
                    c.schedules,
                    c.seconds
                ),
                Some(p) if c.diverges => println!("DIVERGES {}: {p}", c.row()),
                Some(p) => println!("CANNOT VALIDATE {p}"),
            }
            c
        })
        .collect()
}

/// `cargo xtask validate [TRACE...]`.
pub fn run(paths: &[PathBuf]) -> ExitCode {
    let paths = if paths.is_empty() {
        default_dirs()
    } else {
        paths.to_vec()
    };
    for p in &paths {
        if !p.exists() {
            eprintln!("{}: no such file or folder", p.display());
            return ExitCode::from(2);
        }
    }
    let checked = check(&paths);
    let bad = checked.iter().filter(|c| c.problem.is_some()).count();
    let diverge = checked.iter().filter(|c| c.diverges).count();
    println!(
        "\n{} trace(s), {} validated, {diverge} diverge, {} cannot be validated",
        checked.len(),
        checked.len() - bad,
        bad - diverge
    );
    if checked.is_empty() {
        println!("no traces: `cargo xtask conformance` writes them");
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
