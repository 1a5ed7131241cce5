//! `cargo xtask verify`: every check, then the claims matrix and the reports.

use crate::phases::{root, Phase};
use racelab_core::registry;
use racelab_core::report::compare::ExpectedReproduction;
use racelab_core::report::jira::{Format, JIRA_LIMIT};
use racelab_core::report::real_code::RealCode;
use racelab_core::report::{load_records, Matrix};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// How long one phase of the gate took.
#[derive(Debug, serde::Serialize)]
pub struct PhaseTime {
    pub phase: &'static str,
    pub seconds: f64,
    pub passed: bool,
}

/// Runs the gate's phases (plain tests, the loom suite, the model tests on the fuzz build's
/// primitives, the fuzz targets' check) for `contracts` (each contract's tests by its key prefix, one
/// filtered run of the plain and loom suites per contract; none: everything), with their
/// records in `results`.
pub fn run_phases(out: &Path, results: &Path, contracts: &[String]) -> Vec<PhaseTime> {
    let mut seen = BTreeSet::new();
    let filters: Vec<Option<String>> = if contracts.is_empty() {
        vec![None]
    } else {
        contracts.iter().map(|c| Some(format!("{c}/"))).collect()
    };
    let log = |suite: &str, filter: &Option<String>| match filter {
        Some(f) => format!("{suite}.{}.log", f.trim_end_matches('/')),
        None => format!("{suite}.log"),
    };
    let filtered = |suite: fn(Option<&str>) -> Phase, name: &str| {
        filters
            .iter()
            .map(|f| (suite(f.as_deref()), log(name, f)))
            .collect::<Vec<_>>()
    };
    let run = |(phase, log): (Phase, String), seen: &mut BTreeSet<PathBuf>| {
        let started = Instant::now();
        let passed = phase.run_logged(&out.join(log), results, seen);
        PhaseTime {
            phase: phase.name,
            seconds: started.elapsed().as_secs_f64(),
            passed,
        }
    };
    // Maven starts first and runs beside every Rust phase: its replays mostly wait (latches, a
    // real Raft server's election, quiescence), so it fills the cores the Rust phases leave
    // idle, and it ends before the last of them; its CPU (about 100 s) slows them. Measured on
    // clean clones (2 cores): started after the plain tests, it took 160 s against 92 alone and
    // ended 15 s after the one-thread tests, the gate's critical path (322 s, 574 CPU-s).
    // Earlier, at a lower priority (`nice -n10`), it ran 192 s and was the critical path too.
    let premises = Background::start(
        "premises and replays on the released jars (conformance/, Maven)",
        "cargo xtask conformance",
        std::env::current_exe().map(|exe| {
            let mut c = std::process::Command::new(exe);
            c.arg("conformance").current_dir(root());
            c
        }),
        &out.join("premises.log"),
        "every Rust phase",
        true,
    );
    let mut times: Vec<PhaseTime> = filtered(Phase::plain, "plain")
        .into_iter()
        .map(|p| run(p, &mut seen))
        .collect();
    times.extend(
        filtered(Phase::loom_suite, "loom")
            .into_iter()
            .map(|p| run(p, &mut seen)),
    );
    // racelab-core's unit tests under cfg(loom) and the fuzz targets' check run beside the
    // one-thread tests: the builds and the tail of those tests (two long ones) leave a core
    // idle much of the time, and none of the three writes a record. (cargo builds the unit
    // tests and the one-thread tests one after the other: they share a target directory.)
    let beside = |phase: Phase, log: &str| {
        Background::start(
            phase.name,
            &format!("cargo {}", phase.args.join(" ")),
            Ok(phase.command()),
            &out.join(log),
            "the one-thread tests",
            false,
        )
    };
    let loom_unit = beside(Phase::loom_unit_tests(), "loom-unit.log");
    let fuzz = beside(Phase::fuzz_targets(), "fuzz-check.log");
    times.push(run(
        (Phase::one_thread(), "one-thread.log".to_owned()),
        &mut seen,
    ));
    times.push(loom_unit.finish());
    times.push(fuzz.finish());
    times.push(premises.finish());
    times
}

/// A phase that writes no record, run in a process of its own beside the others, its output
/// in a log printed when it ends.
struct Background {
    name: &'static str,
    command: String,
    /// A thread waiting for the process: its exit status and its own time (its own, not the
    /// time until the gate asks: the phases it runs beside may outlast it).
    ended: std::thread::JoinHandle<std::io::Result<(std::process::ExitStatus, f64)>>,
    log: PathBuf,
    /// The phases it runs beside, for its header.
    beside: &'static str,
    /// Whether its output is the phase's report (the premises' table), not a build's progress.
    shows_log: bool,
}

impl Background {
    fn start(
        name: &'static str,
        command: &str,
        cmd: std::io::Result<std::process::Command>,
        log: &Path,
        beside: &'static str,
        shows_log: bool,
    ) -> Background {
        let log = log.to_path_buf();
        let file = log.clone();
        let ended = std::thread::spawn(move || {
            let started = Instant::now();
            let file = std::fs::File::create(file)?;
            let status = cmd?.stdout(file.try_clone()?).stderr(file).status()?;
            Ok((status, started.elapsed().as_secs_f64()))
        });
        Background {
            name,
            command: command.to_owned(),
            ended,
            log,
            beside,
            shows_log,
        }
    }

    /// Waits for it, prints its header, its output (or a failed build's errors) and its time.
    fn finish(self) -> PhaseTime {
        println!(
            "\n== {} ({}, beside {}; log: {})",
            self.name,
            self.command,
            self.beside,
            self.log.display()
        );
        let ended = self
            .ended
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("its waiting thread panicked")));
        let (passed, seconds) = match ended {
            Ok((status, seconds)) => {
                if self.shows_log {
                    print!("{}", std::fs::read_to_string(&self.log).unwrap_or_default());
                } else if !status.success() {
                    crate::phases::print_failures(&self.log);
                }
                (status.success(), seconds)
            }
            Err(e) => {
                eprintln!("   cannot run `{}`: {e}", self.command);
                (false, 0.0)
            }
        };
        println!(
            "   {} in {seconds:.0} s",
            if passed { "passed" } else { "FAILED" }
        );
        PhaseTime {
            phase: self.name,
            seconds,
            passed,
        }
    }
}

/// A fresh results directory: stale records from an earlier run must not stand in for checks
/// that did not run.
pub fn fresh_results(out: &Path) -> Result<PathBuf, String> {
    let results = out.join("results");
    let _ = std::fs::remove_dir_all(&results);
    // The premises' results too: a report must not show a run that did not happen.
    let _ = std::fs::remove_file(out.join("conformance.json"));
    std::fs::create_dir_all(&results)
        .map_err(|e| format!("cannot create {}: {e}", results.display()))?;
    Ok(results)
}

/// `cargo xtask verify [CONTRACT...]`: the test suites, then the report from their records.
pub fn run(contracts: &[String]) -> ExitCode {
    let started = Instant::now();
    let tests_ok = test(contracts);
    report(contracts, &[], tests_ok, Some(started))
}

/// `cargo xtask test`: the gate's suites, once each (plain tests, the loom suite, the model
/// tests on the fuzz build's primitives, the fuzz targets' check), with a line per cell as it completes
/// and every record in target/racelab/results. True when every suite passed.
pub fn test(contracts: &[String]) -> bool {
    let out = root().join("target/racelab");
    let results = match fresh_results(&out) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return false;
        }
    };
    // Some of the contracts: each one's tests by its key prefix. All: the whole suites.
    let all = contracts.len() == registry::all().len();
    run_phases(&out, &results, if all { &[] } else { contracts })
        .iter()
        .all(|p| p.passed)
}

/// The claims matrix of `contracts` from the records in `from` (the last `cargo xtask test`'s
/// when empty), and the number of reproductions claimed.
fn build_matrix(contracts: &[String], from: &[PathBuf]) -> Result<(Matrix, usize), String> {
    let out = root().join("target/racelab");
    let dirs = if from.is_empty() {
        vec![out.join("results")]
    } else {
        from.to_vec()
    };
    let real = RealCode::load(&out.join("conformance.json"))?;
    let (mut cells, mut repros) = (Vec::new(), Vec::new());
    // the J cells: the replays' verdicts on the real classes, recorded by the conformance phase
    cells.extend(real.iter().flat_map(|r| r.real_cells.iter().cloned()));
    for d in &dirs {
        let (c, r) = load_records(d).map_err(|e| format!("cannot read the results: {e}"))?;
        cells.extend(c);
        repros.extend(r);
    }
    let entries: Vec<_> = registry::all()
        .into_iter()
        .filter(|e| contracts.iter().any(|c| c == e.contract.id))
        .collect();
    let expected_repros: Vec<ExpectedReproduction> = entries
        .iter()
        .flat_map(|e| {
            e.expected_reproductions()
                .into_iter()
                .map(|(what, expected)| ExpectedReproduction {
                    contract: e.contract.id,
                    what,
                    expected,
                })
        })
        .collect();
    let matrix = Matrix::build(
        entries.iter().map(|e| e.view.clone()).collect(),
        entries.iter().flat_map(|e| e.cells.clone()).collect(),
        &expected_repros,
        cells
            .into_iter()
            .filter(|c| contracts.contains(&c.contract))
            .collect(),
        repros
            .into_iter()
            .filter(|r| contracts.contains(&r.contract))
            .collect(),
    );
    let matrix = match real {
        Some(r) if r.skipped.is_none() => matrix.with_real_code(r),
        Some(r) => {
            let why = r.skipped.clone().unwrap_or_default();
            matrix.with_real_code(r).without_real_code(why)
        }
        None => matrix.without_real_code("the conformance phase did not run".into()),
    };
    let matrix = match crate::search::load()? {
        Some(s) => matrix.with_searches(s),
        None => matrix,
    };
    Ok((matrix, expected_repros.len()))
}

/// `cargo xtask report --format F`: one comment per contract, printed and written to
/// `target/racelab/comments/`. `None` when all went well, else the exit status.
pub fn comments(contracts: &[String], from: &[PathBuf], format: Format) -> Option<ExitCode> {
    let fail = |e: String| {
        eprintln!("error: {e}");
        Some(ExitCode::FAILURE)
    };
    let (matrix, _) = match build_matrix(contracts, from) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let dir = root().join("target/racelab/comments");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return fail(format!("cannot create {}: {e}", dir.display()));
    }
    let ext = match format {
        Format::Jira => "jira",
        Format::Text => "txt",
    };
    for c in &matrix.contracts {
        let comment = matrix.comment(c, format);
        let path = dir.join(format!("{}.{ext}", c.id));
        println!(
            "
== {} comment: {}

{comment}",
            c.id,
            path.display()
        );
        if let Err(e) = std::fs::write(&path, &comment) {
            return fail(format!("cannot write {}: {e}", path.display()));
        }
        let chars = comment.chars().count();
        if format == Format::Jira && chars > JIRA_LIMIT {
            return fail(format!(
                "{}: {chars} characters, over JIRA's limit of {JIRA_LIMIT} on a comment",
                path.display()
            ));
        }
    }
    None
}

/// The step checker's counterexamples as scenario files under `out/counterexamples/`, the old
/// ones removed first (a file left from an earlier run would name a schedule no cell has now).
fn write_counterexamples(out: &Path, matrix: &Matrix) -> std::io::Result<()> {
    let dir = out.join("counterexamples");
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    for (path, text) in matrix.counterexample_files() {
        let path = out.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, text)?;
    }
    Ok(())
}

/// `cargo xtask report [--from DIR...]`: the claims matrix, the counterexamples, report.json and
/// report.md, from the records of the last `cargo xtask test` or of the directories named (the
/// shards of a CI run, merged). Fails on any deviation, and when `tests_ok` is false.
pub fn report(
    contracts: &[String],
    from: &[PathBuf],
    tests_ok: bool,
    started: Option<Instant>,
) -> ExitCode {
    let out = root().join("target/racelab");
    let (matrix, expected_repros) = match build_matrix(contracts, from) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ok = tests_ok;

    println!("\n== counterexamples (one per reachable variant × outcome)");
    print!("{}", matrix.render_timelines());
    println!("\n== claims matrix");
    print!("{}", matrix.render_text());

    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("error: cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let written = std::fs::write(out.join("report.json"), matrix.to_json())
        .and_then(|()| std::fs::write(out.join("report.md"), matrix.to_markdown()))
        .and_then(|()| std::fs::write(out.join("summary.md"), matrix.to_summary()));
    if let Err(e) = written.and_then(|()| write_counterexamples(&out, &matrix)) {
        eprintln!("error: cannot write the reports: {e}");
        return ExitCode::FAILURE;
    }
    println!(
        "\nreports: {}, report.md and summary.md",
        out.join("report.json").display()
    );

    let clean = matrix.is_clean();
    // `report` alone reads records: its own time says nothing about the checks.
    let took = started.map_or(String::new(), |t| {
        format!(" in {:.0} s", t.elapsed().as_secs_f64())
    });
    // Without the real code nothing is VERIFIED: the models are, and the rest is counted.
    let unchecked = matrix.real_code_unchecked.as_ref().map(|why| {
        let premises: usize = racelab_core::registry::premises()
            .iter()
            .filter(|(c, _)| contracts.iter().any(|x| x == c))
            .map(|(_, ps)| ps.len())
            .sum();
        (why.clone(), premises, matrix.real_cells_claimed())
    });
    let ci_needs_real = unchecked.is_some() && crate::phases::under_ci();
    println!(
        "\n{}{took}",
        match (clean, ok) {
            (true, true) if ci_needs_real => {
                let (why, _, _) = unchecked.as_ref().expect("unchecked");
                format!("FAILED: under CI the real code must be checked, and it was not ({why})")
            }
            (true, true) if unchecked.is_some() => {
                let (why, premises, cells) = unchecked.as_ref().expect("unchecked");
                format!(
                    "MODELS VERIFIED: every model claim holds; NOT CHECKED on the real code \
                     ({why}): {premises} premises and replays, {cells} J cells"
                )
            }
            (true, true) => "VERIFIED: every claim holds".to_string(),
            (false, _) => format!(
                "FAILED: {} deviation(s) from the claims",
                matrix.deviations.len()
            ),
            (true, false) =>
                "FAILED: every verdict matches, but a check failed (see its log above)".to_string(),
        }
    );
    // The closing line CI reads: every claimed cell and reproduction, as checks.
    let skipped = unchecked.as_ref().map_or(0, |(_, _, cells)| *cells);
    let checks = matrix.expected.len() + expected_repros - skipped;
    let failed = (matrix.deviations.len() + usize::from(ci_needs_real)).min(checks);
    let skipped = if skipped > 0 {
        format!(", {skipped} skipped")
    } else {
        String::new()
    };
    println!("{} passed, {failed} failed{skipped}", checks - failed);
    if clean && ok && !ci_needs_real {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::Background;
    use std::process::Command;

    fn finished(cmd: std::io::Result<Command>, name: &str) -> super::PhaseTime {
        let log = std::env::temp_dir().join(format!(
            "racelab-background-{}-{name}.log",
            std::process::id()
        ));
        let time =
            Background::start("a background phase", name, cmd, &log, "nothing", false).finish();
        let _ = std::fs::remove_file(&log);
        time
    }

    #[test]
    fn a_background_phase_passes_or_fails_with_its_process() {
        assert!(finished(Ok(Command::new("true")), "true").passed);
        assert!(!finished(Ok(Command::new("false")), "false").passed);
        let mut missing = Command::new("racelab-no-such-program");
        missing.arg("x");
        assert!(!finished(Ok(missing), "missing").passed);
        let unbuilt = Err(std::io::Error::other("no command"));
        assert!(!finished(unbuilt, "unbuilt").passed);
    }
}
