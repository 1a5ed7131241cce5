//! `cargo xtask bench [--cold] [--no-fuzz]`: the figures of the speed targets, printed and
//! written to `target/racelab/bench.json`. A benchmark, not a test: nothing here fails on a
//! figure.
//!
//! - the gate's phases, warm (and, with `--cold`, first from empty target directories);
//! - per loom cell: executions, seconds, executions per second;
//! - per history cell: cases, seconds, cases per second;
//! - per fuzz target: executions per second over 20 s from the committed corpus, and the runs an
//!   upstream-mode run needs to find the bug from an empty corpus (libFuzzer seeds 1 to 5);
//! - where valgrind is installed, figures that do not move with the machine's load:
//!   instructions per loom execution of one cell, and per run of each fuzz target.

use crate::fuzzing::{self, FuzzRun};
use crate::phases::root;
use crate::verify::{fresh_results, run_phases, PhaseTime};
use racelab_core::claims::Checker;
use racelab_core::registry;
use racelab_core::report::{load_records, CellResult};
use serde::Serialize;
use std::path::Path;
use std::process::{Command, ExitCode};

/// Seconds each fuzz target runs from its committed corpus.
const FUZZ_SECONDS: u64 = 20;
/// Runs an upstream-mode fuzz target gets to find the bug from an empty corpus.
const UPSTREAM_RUNS: u64 = 2_000_000;
/// libFuzzer seeds of the upstream-mode runs (1 to this): one seed's count is luck.
const UPSTREAM_SEEDS: u64 = 5;
/// Runs of each fuzz target counted under callgrind.
const COUNTED_FUZZ_RUNS: u64 = 5_000;
/// Runs that grow a corpus (natively, libFuzzer seed 1) before the steady-state count: about a
/// second of fuzzing, after which libFuzzer's inputs are near their longest.
const GROWN_RUNS: u64 = 50_000;
/// The loom cell whose instructions are counted.
const COUNTED_CELL: &str = "recon-sync/proposed/O1/loom";

/// `bench`'s arguments.
#[derive(Debug, PartialEq, clap::Args)]
pub struct Request {
    /// the gate's phases from empty target directories too
    #[arg(long)]
    pub cold: bool,
    /// without the fuzz targets' figures
    #[arg(long = "no-fuzz", action = clap::ArgAction::SetFalse)]
    pub fuzz: bool,
    /// the CI gate itself, cold and warm (see `gate_bench`), instead of the figures
    #[arg(long)]
    pub gate: bool,
    /// with --gate, the gate of REV too, back to back, every figure as a ratio to it
    #[arg(long, value_name = "REV", requires = "gate")]
    pub against: Option<String>,
}

#[derive(Serialize)]
struct Rate {
    cell: String,
    work: u64,
    seconds: f64,
    per_second: f64,
}

#[derive(Serialize)]
struct Fuzzed {
    target: &'static str,
    seconds: u64,
    executions: u64,
    executions_per_second: u64,
    /// Every seed's run found the bug.
    upstream_found: bool,
    /// Per seed, the runs it took (`None`: not found in [`UPSTREAM_RUNS`]).
    upstream_runs_to_find: Vec<Option<u64>>,
    /// Their median, when every seed found it.
    upstream_median_runs: Option<u64>,
    /// Instructions per run over [`COUNTED_FUZZ_RUNS`] runs from the committed corpus
    /// (libFuzzer seed 1, under callgrind): the figure that does not move with the load.
    instructions_per_run: Option<u64>,
    /// The same count from a corpus grown by [`GROWN_RUNS`] runs first. The committed inputs
    /// are short, so the first runs weigh libFuzzer's share of a run more than a 20 s run does.
    instructions_per_run_grown: Option<u64>,
}

#[derive(Serialize)]
struct Counted {
    cell: &'static str,
    instructions: u64,
    executions: u64,
    instructions_per_execution: u64,
}

#[derive(Serialize)]
struct Bench {
    schema_version: u32,
    cold: Option<Vec<PhaseTime>>,
    warm: Vec<PhaseTime>,
    loom_cells: Vec<Rate>,
    loom_total: Rate,
    history_cells: Vec<Rate>,
    fuzz: Vec<Fuzzed>,
    callgrind: Option<Counted>,
}

fn rate(cell: String, work: u64, seconds: f64) -> Rate {
    Rate {
        cell,
        work,
        seconds,
        per_second: if seconds > 0.0 {
            (work as f64 / seconds).round()
        } else {
            0.0
        },
    }
}

pub fn run(request: &Request) -> ExitCode {
    if request.gate {
        return crate::gate_bench::run(request.against.as_deref());
    }
    let out = root().join("target/racelab");
    let bench_dir = out.join("bench");
    let results = match fresh_results(&bench_dir) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cold = request.cold.then(|| {
        println!("== cold: the gate's phases from empty target directories");
        for dir in ["target/fuzzing", "fuzz/target"] {
            let _ = std::fs::remove_dir_all(root().join(dir));
        }
        // The plain build's dependencies, but not the running gate binary itself.
        let _ = Command::new("cargo")
            .current_dir(root())
            .args([
                "clean",
                "--release",
                "-p",
                "racelab-core",
                "-p",
                "racelab-props",
            ])
            .status();
        run_phases(&bench_dir, &results, &[])
    });
    println!("== warm: the gate's phases");
    let results = fresh_results(&bench_dir).unwrap_or(results);
    let warm = run_phases(&bench_dir, &results, &[]);
    let (cells, _) = load_records(&results).unwrap_or_default();
    let (loom, history): (Vec<&CellResult>, Vec<&CellResult>) =
        cells.iter().partition(|c| c.checker == Checker::Loom);
    let loom_cells: Vec<Rate> = loom
        .iter()
        .map(|c| rate(c.key(), c.executions.unwrap_or(0), c.seconds))
        .collect();
    let loom_total = rate(
        "all loom cells".into(),
        loom_cells.iter().map(|r| r.work).sum(),
        loom_cells.iter().map(|r| r.seconds).sum(),
    );
    let history_cells = history
        .iter()
        .map(|c| rate(c.key(), c.cases.unwrap_or(0), c.seconds))
        .collect();
    let fuzz = if request.fuzz {
        fuzz_figures(&bench_dir)
    } else {
        Vec::new()
    };
    let bench = Bench {
        schema_version: 2,
        cold,
        warm,
        loom_cells,
        loom_total,
        history_cells,
        fuzz,
        callgrind: count_instructions(),
    };
    print(&bench);
    let path = out.join("bench.json");
    let json = serde_json::to_string_pretty(&bench).expect("the bench serializes");
    if let Err(e) = std::fs::write(&path, json) {
        eprintln!("error: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("\nwritten: {}", path.display());
    ExitCode::SUCCESS
}

fn fuzz_figures(dir: &Path) -> Vec<Fuzzed> {
    if let Err(e) = crate::install::CARGO_FUZZ.ensure() {
        eprintln!("no fuzz figures: {e}");
        return Vec::new();
    }
    registry::all()
        .iter()
        .filter_map(|e| {
            let target = e.contract.module;
            println!("== fuzz {target}: {FUZZ_SECONDS} s from the committed corpus");
            let scratch = dir.join("fuzz").join(target);
            let _ = std::fs::remove_dir_all(&scratch);
            let from_corpus = FuzzRun {
                target,
                work: scratch.join("corpus"),
                seeds: vec![fuzzing::corpus(target)],
                seconds: Some(FUZZ_SECONDS),
                runs: None,
                variant: None,
                seed: Some(1),
                log: scratch.join("corpus.log"),
            };
            let failed = |e: String| eprintln!("no fuzz figures for {target}: {e}");
            let c = from_corpus.run().map_err(failed).ok()?;
            let mut found = Vec::new();
            for seed in 1..=UPSTREAM_SEEDS {
                println!("== fuzz {target}: upstream, from an empty corpus, libFuzzer seed {seed}");
                let upstream = FuzzRun {
                    target,
                    work: scratch.join(format!("empty-{seed}")),
                    seeds: Vec::new(),
                    seconds: None,
                    runs: Some(UPSTREAM_RUNS),
                    variant: Some("upstream"),
                    seed: Some(seed),
                    log: scratch.join(format!("upstream-{seed}.log")),
                };
                let u = upstream.run().map_err(failed).ok()?;
                found.push(u.crashed.then_some(u.executions));
            }
            Some(Fuzzed {
                target,
                seconds: FUZZ_SECONDS,
                executions: c.executions,
                executions_per_second: c.executions_per_second,
                upstream_found: found.iter().all(Option::is_some),
                upstream_median_runs: median(&found),
                upstream_runs_to_find: found,
                instructions_per_run: count_fuzz_instructions(
                    target,
                    &scratch,
                    &fuzzing::corpus(target),
                ),
                instructions_per_run_grown: grow(target, &scratch)
                    .and_then(|grown| count_fuzz_instructions(target, &scratch, &grown)),
            })
        })
        .collect()
}

/// The median of the counts, when every one is known (the lower middle one of an even number).
fn median(counts: &[Option<u64>]) -> Option<u64> {
    let mut known = counts.iter().copied().collect::<Option<Vec<u64>>>()?;
    known.sort_unstable();
    known.get(known.len().checked_sub(1)? / 2).copied()
}

/// A corpus grown from the committed one by [`GROWN_RUNS`] runs of `target` (natively,
/// libFuzzer seed 1, no reload: the same inputs every time for one build of the target).
fn grow(target: &str, scratch: &Path) -> Option<std::path::PathBuf> {
    if !has_valgrind() {
        return None;
    }
    println!("== fuzz {target}: {GROWN_RUNS} runs to grow a corpus for the steady-state count");
    let grown = scratch.join("grown");
    let _ = std::fs::remove_dir_all(&grown);
    std::fs::create_dir_all(&grown).ok()?;
    let status = Command::new(fuzzing::binary(target).ok()?)
        .arg(format!("-runs={GROWN_RUNS}"))
        .args(fuzzing::OPTIONS)
        .args(["-seed=1", "-reload=0"])
        .arg(&grown)
        .arg(fuzzing::corpus(target))
        .env_remove("RACELAB_FUZZ_VARIANT")
        .output()
        .ok()?
        .status;
    status.success().then_some(grown)
}

/// Instructions per run of the fuzz `target` (built by the runs before), under callgrind:
/// [`COUNTED_FUZZ_RUNS`] runs from `corpus`, libFuzzer seed 1, less a one-run start (loading
/// the binary and replaying the corpus).
fn count_fuzz_instructions(target: &str, scratch: &Path, corpus: &Path) -> Option<u64> {
    if !has_valgrind() {
        return None;
    }
    println!(
        "== callgrind: fuzz {target}, {COUNTED_FUZZ_RUNS} runs from {}",
        corpus.display()
    );
    let exe = fuzzing::binary(target).ok()?;
    let count = |runs: u64| -> Option<u64> {
        let work = scratch.join(format!("counted-{runs}"));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).ok()?;
        let out = Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(&exe)
            .arg(format!("-runs={runs}"))
            .args(fuzzing::OPTIONS)
            .args(["-seed=1", "-reload=0"])
            .arg(&work)
            .arg(corpus)
            .env_remove("RACELAB_FUZZ_VARIANT")
            .output()
            .ok()?;
        collected(&String::from_utf8_lossy(&out.stderr))
    };
    let (start, all) = (count(1)?, count(COUNTED_FUZZ_RUNS)?);
    Some(all.saturating_sub(start) / (COUNTED_FUZZ_RUNS - 1))
}

fn has_valgrind() -> bool {
    Command::new("valgrind").arg("--version").output().is_ok()
}

/// The instructions a callgrind run reports on standard error.
fn collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .find_map(|l| l.split("Collected : ").nth(1))?
        .trim()
        .parse()
        .ok()
}

/// Instructions per loom execution of [`COUNTED_CELL`], under callgrind.
fn count_instructions() -> Option<Counted> {
    if !has_valgrind() {
        return None;
    }
    let exe = std::fs::read_dir(root().join("target/release/deps"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("cells-"))
                && p.extension().is_none()
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())?;
    println!("== callgrind: {COUNTED_CELL}");
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(&exe)
        .args(["--exact", COUNTED_CELL, "--test-threads=1"])
        .output()
        .ok()?;
    let instructions = collected(&String::from_utf8_lossy(&out.stderr))?;
    let executions = pinned(COUNTED_CELL)?;
    Some(Counted {
        cell: COUNTED_CELL,
        instructions,
        executions,
        instructions_per_execution: instructions / executions.max(1),
    })
}

/// The executions the warm run recorded for `key`.
fn pinned(key: &str) -> Option<u64> {
    let results = root().join("target/racelab/bench/results");
    let (cells, _) = load_records(&results).ok()?;
    cells.iter().find(|c| c.key() == key)?.executions
}

fn print(b: &Bench) {
    let phases = |name: &str, p: &[PhaseTime]| {
        println!("\n{name}:");
        for t in p {
            let mark = if t.passed { "" } else { " (FAILED)" };
            println!("  {:<78} {:>7.1} s{mark}", t.phase, t.seconds);
        }
        println!(
            "  {:<78} {:>7.1} s",
            "total",
            p.iter().map(|t| t.seconds).sum::<f64>()
        );
    };
    if let Some(c) = &b.cold {
        phases("verify, cold", c);
    }
    phases("verify, warm", &b.warm);
    println!("\nloom cells (executions, seconds, executions/s):");
    for r in b.loom_cells.iter().chain([&b.loom_total]) {
        println!(
            "  {:<44} {:>9} {:>8.2} {:>9}",
            r.cell, r.work, r.seconds, r.per_second
        );
    }
    println!("\nhistory cells (cases, seconds, cases/s):");
    for r in &b.history_cells {
        println!(
            "  {:<44} {:>9} {:>8.2} {:>9}",
            r.cell, r.work, r.seconds, r.per_second
        );
    }
    if !b.fuzz.is_empty() {
        println!(
            "\nfuzz targets (from the corpus: executions, executions/s; upstream from empty):"
        );
    }
    for f in &b.fuzz {
        let counted = match (f.instructions_per_run, f.instructions_per_run_grown) {
            (Some(n), Some(g)) => format!("{n:>8} instructions/run ({g} grown)"),
            (Some(n), None) => format!("{n:>8} instructions/run"),
            _ => String::new(),
        };
        let runs: Vec<String> = f
            .upstream_runs_to_find
            .iter()
            .map(|r| r.map_or("not found".into(), |n| n.to_string()))
            .collect();
        let upstream = match f.upstream_median_runs {
            Some(m) => format!("found the bug by every seed, median {m} runs"),
            None => "did NOT find the bug with every seed".into(),
        };
        println!(
            "  {:<18} {:>10} {:>8}/s {counted}   upstream {upstream} ({})",
            f.target,
            f.executions,
            f.executions_per_second,
            runs.join(", ")
        );
    }
    if let Some(c) = &b.callgrind {
        println!(
            "\ncallgrind {}: {} instructions / {} executions = {} per execution",
            c.cell, c.instructions, c.executions, c.instructions_per_execution
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{median, Request};
    use crate::args::parse_args;
    use clap::error::ErrorKind;

    #[test]
    fn fuzzing_is_on_unless_turned_off() {
        let r: Request = parse_args(&[]).expect("valid");
        assert!(r.fuzz && !r.cold && !r.gate);
        let r: Request = parse_args(&["--cold", "--no-fuzz"]).expect("valid");
        assert!(!r.fuzz && r.cold);
    }

    #[test]
    fn a_gate_comparison_names_its_revision() {
        let r: Request = parse_args(&["--gate", "--against", "main~1"]).expect("valid");
        assert!(r.gate);
        assert_eq!(r.against.as_deref(), Some("main~1"));
        let kind = |args: &[&str]| parse_args::<Request>(args).expect_err("invalid").kind();
        assert_eq!(kind(&["--gate", "--against"]), ErrorKind::InvalidValue);
        // `--against REV` compares gates: without `--gate` it is refused.
        assert_eq!(
            kind(&["--against", "main"]),
            ErrorKind::MissingRequiredArgument
        );
    }

    #[test]
    fn median_of_counts_needs_every_count() {
        assert_eq!(median(&[Some(5), Some(1), Some(3)]), Some(3));
        assert_eq!(median(&[Some(4), Some(1), Some(3), Some(2)]), Some(2));
        assert_eq!(median(&[Some(4), None, Some(3)]), None);
        assert_eq!(median(&[]), None);
    }
}
