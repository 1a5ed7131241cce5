//! `cargo xtask bench --gate [--against REV]`: the CI gate (`.ci/run`) of this tree and of
//! another revision, back to back on this machine, cold (empty target directories) then warm,
//! with each `== ` section of the gate timed, the loom cell-seconds per contract and the slowest
//! loom cell, each as a ratio to the other revision's figure measured in the same run: these
//! machines' speed moves from one hour to the next, so only figures of one run compare.
//!
//! The other revision is checked out with `git worktree` in the system's temporary directory
//! (`racelab-bench-gate/base`, beside the logs and gate.json); its own `.ci/run` runs there,
//! whatever its phases are. The one-time installs (Debian's Chromium) are paid by whichever
//! run comes first: run the gate once before.

use crate::phases::{clean_env, root};
use racelab_core::claims::Checker;
use racelab_core::report::load_records;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// One run of a tree's gate.
#[derive(Debug, Default, Serialize)]
pub struct GateRun {
    pub passed: bool,
    pub seconds: f64,
    /// Each `== ` section of the gate's output, in order, with its seconds.
    pub sections: Vec<(String, f64)>,
    /// Loom cell-seconds per contract.
    pub loom_seconds: BTreeMap<String, f64>,
    /// The slowest loom cell and its seconds.
    pub slowest_cell: Option<(String, f64)>,
}

#[derive(Debug, Serialize)]
pub struct Tree {
    pub revision: String,
    pub cold: GateRun,
    pub warm: GateRun,
}

/// The gate of `dir`, with every `== ` line starting a section; the output goes to `log`.
fn run_gate(dir: &Path, log: &Path) -> GateRun {
    let started = Instant::now();
    let mut cmd = Command::new(dir.join(".ci/run"));
    clean_env(&mut cmd);
    let child = cmd
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("RUSTFLAGS")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn();
    let mut run = GateRun::default();
    let Ok(mut child) = child else {
        eprintln!("cannot run {}/.ci/run", dir.display());
        return run;
    };
    let mut text = String::new();
    let mut section = ("start".to_string(), Instant::now());
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(header) = line.strip_prefix("== ") {
                let name = section_name(header);
                let done = std::mem::replace(&mut section, (name, Instant::now()));
                run.sections.push((done.0, done.1.elapsed().as_secs_f64()));
                println!("   [{:>6.0} s] {line}", started.elapsed().as_secs_f64());
            }
            text.push_str(&line);
            text.push('\n');
        }
    }
    run.sections
        .push((section.0, section.1.elapsed().as_secs_f64()));
    run.passed = child.wait().is_ok_and(|s| s.success());
    run.seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::write(log, text);
    if let Ok((cells, _)) = load_records(&dir.join("target/racelab/results")) {
        for c in cells.iter().filter(|c| c.checker == Checker::Loom) {
            *run.loom_seconds.entry(c.contract.clone()).or_default() += c.seconds;
            if run
                .slowest_cell
                .as_ref()
                .is_none_or(|(_, s)| c.seconds > *s)
            {
                run.slowest_cell = Some((c.key(), c.seconds));
            }
        }
    }
    run
}

/// A section's name in both trees' gates: its header without the time the gate prints
/// (`[+12 s]`) or a closing parenthesis (a phase's command and log path, which name the tree).
fn section_name(header: &str) -> String {
    let header = header.split(" [+").next().unwrap_or(header);
    match header.rfind(" (") {
        Some(i) if header.ends_with(')') => header[..i].to_string(),
        _ => header.to_string(),
    }
}

/// Cold (after removing every target directory), then warm.
fn measure(dir: &Path, revision: &str, logs: &Path) -> Tree {
    for t in ["target", "fuzz/target"] {
        let _ = std::fs::remove_dir_all(dir.join(t));
    }
    println!("== gate of {revision}, cold ({})", dir.display());
    let cold = run_gate(dir, &logs.join(format!("{revision}-cold.log")));
    println!("== gate of {revision}, warm");
    let warm = run_gate(dir, &logs.join(format!("{revision}-warm.log")));
    Tree {
        revision: revision.to_string(),
        cold,
        warm,
    }
}

/// A worktree of `revision` beside the logs.
fn checkout(revision: &str, logs: &Path) -> Result<PathBuf, String> {
    let dir = logs.join("base");
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root())
            .args(args)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))
    };
    let _ = git(&["worktree", "remove", "--force", &dir.to_string_lossy()]);
    let _ = std::fs::remove_dir_all(&dir);
    let out = git(&[
        "worktree",
        "add",
        "--detach",
        &dir.to_string_lossy(),
        revision,
    ])?;
    if !out.status.success() {
        return Err(format!(
            "cannot check out {revision}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(dir)
}

fn ratio(head: f64, base: f64) -> String {
    if base > 0.0 {
        format!("{:.2}", head / base)
    } else {
        "-".into()
    }
}

fn print(head: &Tree, base: Option<&Tree>) {
    for (name, h, b) in [
        ("cold", &head.cold, base.map(|b| &b.cold)),
        ("warm", &head.warm, base.map(|b| &b.warm)),
    ] {
        println!(
            "\ngate, {name} (seconds; ratio to {}):",
            base.map_or("-", |b| &b.revision)
        );
        let width = 64;
        for (section, s) in &h.sections {
            let other = b.and_then(|b| b.sections.iter().find(|(n, _)| n == section));
            match other {
                Some((_, o)) => {
                    println!("  {section:<width$} {s:>7.1} {o:>7.1}  x{}", ratio(*s, *o))
                }
                None => println!("  {section:<width$} {s:>7.1}"),
            }
        }
        for (section, o) in b.iter().flat_map(|b| &b.sections) {
            if !h.sections.iter().any(|(n, _)| n == section) {
                println!(
                    "  {section:<width$} {:>7} {o:>7.1}  (only in the other)",
                    "-"
                );
            }
        }
        let total = b.map_or(String::new(), |b| {
            format!(" {:>7.1}  x{}", b.seconds, ratio(h.seconds, b.seconds))
        });
        let passed = if h.passed { "" } else { " (FAILED)" };
        println!("  {:<width$} {:>7.1}{total}{passed}", "total", h.seconds);
        for (contract, s) in &h.loom_seconds {
            let other = b.and_then(|b| b.loom_seconds.get(contract));
            let cmp = other.map_or(String::new(), |o| format!(" {o:>7.1}  x{}", ratio(*s, *o)));
            println!("  loom cell-seconds, {contract:<46} {s:>7.1}{cmp}");
        }
        if let Some((cell, s)) = &h.slowest_cell {
            let cmp = b
                .and_then(|b| b.slowest_cell.as_ref())
                .map_or(String::new(), |(c, o)| {
                    format!(" (the other's: {c} {o:.1} s)")
                });
            println!("  slowest loom cell: {cell} {s:.1} s{cmp}");
        }
    }
}

pub fn run(against: Option<&str>) -> ExitCode {
    // The trees' target directories are removed for the cold runs: the logs, the other
    // revision's worktree and gate.json live outside them.
    let logs = std::env::temp_dir().join("racelab-bench-gate");
    if let Err(e) = std::fs::create_dir_all(&logs) {
        eprintln!("error: cannot create {}: {e}", logs.display());
        return ExitCode::FAILURE;
    }
    let base = match against {
        None => None,
        Some(rev) => match checkout(rev, &logs) {
            Ok(dir) => Some(measure(&dir, rev, &logs)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let head = measure(&root(), "this tree", &logs);
    print(&head, base.as_ref());
    let json = serde_json::json!({ "head": head, "base": base });
    let path = logs.join("gate.json");
    match std::fs::write(
        &path,
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    ) {
        Ok(()) => {
            println!("\nwritten: {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::section_name;

    #[test]
    fn a_section_is_named_without_its_time_command_and_log() {
        assert_eq!(section_name("rustfmt [+0 s]"), "rustfmt");
        assert_eq!(
            section_name("plain tests (release) (cargo test --release; log: /tmp/a/plain.log)"),
            "plain tests (release)"
        );
        assert_eq!(section_name("claims matrix"), "claims matrix");
    }
}
