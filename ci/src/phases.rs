//! Running cargo: the gate's phases, their logs, and the progress lines.

use racelab_core::report::results::read_record;
use racelab_core::report::RESULTS_ENV;
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The workspace root (this crate lives in `ci/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("ci/ has a parent")
        .to_path_buf()
}

/// A cargo invocation of the gate.
pub struct Phase {
    pub name: &'static str,
    pub args: Vec<String>,
    pub loom: bool,
}

impl Phase {
    pub fn new(name: &'static str, args: &[&str]) -> Phase {
        Phase {
            name,
            args: args.iter().map(|s| s.to_string()).collect(),
            loom: false,
        }
    }

    /// The loom suite (release), for some test files or all. One test at a time: loom's
    /// executions are mostly thread-stack switches, and two at once on two cores ran at half
    /// the speed of one (measured: dead-node's file 115 s with two, 54 s with one).
    pub fn loom_suite(filter: Option<&str>) -> Phase {
        let p = Phase::new(
            "loom suite (release)",
            &["test", "--release", "-p", "racelab-loom"],
        )
        .loom()
        .arg("--")
        .arg("--test-threads=1");
        match filter {
            Some(f) => p.arg(f),
            None => p,
        }
    }

    /// Under `--cfg loom`, in its own target directory so the plain build stays warm.
    pub fn loom(mut self) -> Phase {
        self.loom = true;
        self
    }

    pub fn arg(mut self, a: impl Into<String>) -> Phase {
        self.args.push(a.into());
        self
    }

    fn command(&self) -> Command {
        let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        c.args(&self.args)
            .current_dir(root())
            .env("RUST_BACKTRACE", "0");
        if self.loom {
            let flags = std::env::var("RUSTFLAGS").unwrap_or_default();
            c.env("RUSTFLAGS", format!("{flags} --cfg loom").trim())
                .env("CARGO_TARGET_DIR", root().join("target/loom"));
        }
        for var in [
            "LOOM_MAX_DURATION",
            "LOOM_MAX_PERMUTATIONS",
            "LOOM_CHECKPOINT_FILE",
        ] {
            c.env_remove(var); // a proof must not end early; the runner ignores them anyway
        }
        c
    }

    /// Runs with the output passed through; true on success.
    pub fn run_inherit(&self) -> bool {
        println!("\n== {} (cargo {})", self.name, self.args.join(" "));
        self.command()
            .status()
            .map(|s| s.success())
            .unwrap_or_else(|e| {
                eprintln!("cannot run cargo: {e}");
                false
            })
    }

    /// Runs with the output in `log`, printing a line for each result record that appears in
    /// `results` meanwhile; true on success.
    pub fn run_logged(&self, log: &Path, results: &Path, seen: &mut BTreeSet<PathBuf>) -> bool {
        println!(
            "\n== {} (cargo {}; log: {})",
            self.name,
            self.args.join(" "),
            log.display()
        );
        let started = Instant::now();
        let file = match File::create(log) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("cannot write {}: {e}", log.display());
                return false;
            }
        };
        let mut cmd = self.command();
        cmd.env(RESULTS_ENV, results)
            .stdout(file.try_clone().expect("log file handle"))
            .stderr(file);
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("cannot run cargo: {e}");
                return false;
            }
        };
        let done = Arc::new(AtomicBool::new(false));
        let status = std::thread::scope(|s| {
            let watcher = {
                let done = done.clone();
                s.spawn(move || {
                    let mut mine = BTreeSet::new();
                    loop {
                        let finished = done.load(Ordering::SeqCst);
                        announce_new(results, seen, &mut mine);
                        if finished {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(200));
                    }
                    mine.len()
                })
            };
            let status = child.wait();
            done.store(true, Ordering::SeqCst);
            let _ = watcher.join();
            status
        });
        let ok = status.map(|s| s.success()).unwrap_or(false);
        println!(
            "   {} in {:.0} s",
            if ok { "passed" } else { "FAILED" },
            started.elapsed().as_secs_f64()
        );
        if !ok {
            print_failures(log);
        }
        ok
    }
}

/// Prints a progress line for every record in `dir` not seen before.
fn announce_new(dir: &Path, seen: &mut BTreeSet<PathBuf>, mine: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut fresh: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !seen.contains(p))
        .collect();
    fresh.sort();
    for p in fresh {
        // A record being renamed into place is read on the next round.
        if let Ok(record) = read_record(&p) {
            println!("   {}", record.summary());
            seen.insert(p.clone());
            mine.insert(p);
        }
    }
}

/// The failing tests' output and compiler errors from a phase's log.
fn print_failures(log: &Path) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let interesting: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("error")
                || l.starts_with("thread '")
                || l.starts_with("assertion")
                || l.starts_with("---- ")
                || l.contains("panicked")
                || l.starts_with("test result")
        })
        .collect();
    let tail: Vec<&str> = text
        .lines()
        .rev()
        .take(25)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    println!("   --- from {} ---", log.display());
    for l in if interesting.is_empty() {
        tail
    } else {
        interesting
    }
    .iter()
    .take(60)
    {
        println!("   {l}");
    }
}

/// `cargo xtask test`: plain tests, then the loom suite.
pub fn test_gate() -> ExitCode {
    let plain = Phase::new(
        "plain tests",
        &["test", "--workspace", "--exclude", "racelab-loom"],
    );
    let loom = Phase::loom_suite(None);
    if plain.run_inherit() && loom.run_inherit() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `cargo xtask fuzz CONTRACT SECONDS`.
pub fn fuzz(contract: &str, seconds: u64) -> ExitCode {
    let target = match racelab_core::registry::find(contract) {
        Ok(e) => e.contract.module,
        Err(_) => return ExitCode::from(2),
    };
    let fuzz_dir = root().join("fuzz");
    let has_cargo_fuzz = Command::new("cargo")
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_cargo_fuzz {
        println!("cargo-fuzz is missing: installing it (about a minute)");
        let ok = Command::new("cargo")
            .args(["install", "cargo-fuzz", "--locked"])
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("error: `cargo install cargo-fuzz --locked` failed");
            return ExitCode::FAILURE;
        }
    }
    // New inputs go to a scratch corpus; the committed seeds are read only.
    let work = fuzz_dir.join("target/work-corpus").join(target);
    if let Err(e) = std::fs::create_dir_all(&work) {
        eprintln!("error: cannot create {}: {e}", work.display());
        return ExitCode::FAILURE;
    }
    let status = Command::new("cargo")
        .current_dir(&fuzz_dir)
        .args(["fuzz", "run", "--sanitizer", "none", target])
        .arg(&work)
        .arg(fuzz_dir.join("corpus").join(target))
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .status();
    match status {
        Ok(s) if s.success() => {
            println!(
                "no violation in {seconds} s; new inputs in {}",
                work.display()
            );
            ExitCode::SUCCESS
        }
        Ok(_) => {
            eprintln!(
                "the fuzzer found a violation: see fuzz/artifacts/{target}/; minimize it with \
                 `cargo fuzz tmin --sanitizer none {target} <file>`, then commit it under \
                 fuzz/regressions/{target}/ with a named test"
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: cannot run cargo fuzz: {e}");
            ExitCode::FAILURE
        }
    }
}
