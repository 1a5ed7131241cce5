//! Running cargo: the gate's phases, their logs, and the progress lines.

use racelab_core::report::results::read_record;
use racelab_core::report::RESULTS_ENV;
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
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

/// Whether this runs under CI (`CI=true`, as CI services set it): there the real code must be
/// checked, and a missing JVM fails the gate.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// A cargo invocation of the gate: a build and its tests, or a build alone.
pub struct Phase {
    pub name: &'static str,
    pub args: Vec<String>,
    /// Arguments for the test binaries (after `--`).
    pub test_args: Vec<String>,
    /// A `--cfg` the phase builds with, in a target directory of its own (`target/<cfg>`), so
    /// that it rebuilds nothing of the other phases'.
    pub cfg: Option<&'static str>,
    /// Test processes run at once, each a share of the tests (see `racelab_loom::shard`);
    /// 1 runs them through cargo.
    pub shards: usize,
    /// The test target whose binary a sharded phase runs (its build is all of `args`'s).
    pub sharded_target: &'static str,
}

impl Phase {
    pub fn new(name: &'static str, args: &[&str]) -> Phase {
        Phase {
            name,
            args: args.iter().map(|s| s.to_string()).collect(),
            test_args: Vec::new(),
            cfg: None,
            shards: 1,
            sharded_target: "",
        }
    }

    /// The plain tests (models, histories, fuzz corpus replay, reproductions), optimized: the
    /// gate binary is built in release too, so the two share one build of every dependency.
    pub fn plain(filter: Option<&str>) -> Phase {
        let mut p = Phase::new(
            "plain tests: models, histories, fuzz corpus replay, reproductions (release)",
            // racelab-loom too: its own unit tests (the shard split) need no loom.
            &["test", "--release", "--workspace"],
        );
        p.test_args.extend(filter.map(str::to_owned));
        p
    }

    /// The loom cells, in two processes at once on two cores: loom scales across processes,
    /// not across threads of one (measured: dead-node's cells took 115 s with two threads in
    /// one process and 54 s with one). `cfg(loom)` comes from the feature `loom` of
    /// racelab-loom and racelab-core (their build scripts set it for those two crates alone),
    /// not from `--cfg loom` in RUSTFLAGS, which builds every crate again in a target directory
    /// of its own: so the phase builds, optimized (`--release`, whose settings are the test
    /// profile's that `RUSTFLAGS="--cfg loom" cargo test` builds with, Cargo.toml), only loom's
    /// own dependencies, racelab-core without `histories`, and the cells' harness, and shares
    /// the rest with the plain build ([`Phase::loom_unit_tests`] then adds racelab-core's unit
    /// tests). The rest of that command (the other crates' unit tests and the history claims
    /// under `cfg(loom)`, the doctests) runs tests the plain phase runs on the same models; the
    /// scheduled workflow runs the command in full (job `loom-command`).
    ///
    /// racelab-core and the cells at `opt-level` 1: a loom execution's time is mostly loom's own
    /// scheduler, which stays optimized. Measured on two cores kept idle (2026-12-06), build and
    /// run of the 412 tests: 22.6 + 20.4 CPU-seconds against 61.4 + 18.6 at the release
    /// profile's 3 (racelab-core alone at 1: 28.1 + 20.9; at 0: 15.4 + 37.8). The executions
    /// loom explores, which every cell pins, do not depend on it.
    pub fn loom_suite(filter: Option<&str>) -> Phase {
        let mut p = Phase::new(
            "loom cells (feature loom: cfg(loom) for racelab-core and racelab-loom; both at opt-level 1)",
            &[
                "test",
                "--release",
                "--config",
                "profile.release.package.racelab-core.opt-level=1",
                "--config",
                "profile.release.package.racelab-loom.opt-level=1",
                "-p",
                "racelab-loom",
                "--features",
                "loom",
                "--test",
                "cells",
            ],
        );
        p.shards = 2;
        p.sharded_target = "cells";
        p.test_args.push("--test-threads=1".into());
        p.test_args.extend(filter.map(str::to_owned));
        p
    }

    /// racelab-core's unit tests under `cfg(loom)`, on the cells' build (only the test harness
    /// of racelab-core is built again): where a test that builds a model's world outside a loom
    /// model fails (loom's atomics live only inside one), the most common way to break
    /// `RUSTFLAGS="--cfg loom" cargo test`. Unfiltered: seconds. Unoptimized: its 15 tests ran
    /// in 0.25 s instead of 0.10, its build took 5 CPU-seconds instead of 9 (two idle cores).
    pub fn loom_unit_tests() -> Phase {
        Phase::new(
            "racelab-core's unit tests under cfg(loom) (feature loom)",
            &[
                "test",
                "--release",
                "--config",
                "profile.release.package.racelab-core.opt-level=0",
                "-p",
                "racelab-core",
                "--features",
                "loom",
                "--lib",
            ],
        )
    }

    /// The models' unit tests on the primitives of cargo fuzz's build (one thread's cells, see
    /// `racelab_core::sync`), which only the fuzz targets otherwise run. Every check the tests
    /// make of the models (the memo's and the quiet-state cache's against a fresh simulation,
    /// say) is then made on those primitives too. Chosen by the feature `one-thread`, not by
    /// `--cfg fuzzing`, so that the plain build's dependencies serve (a `--cfg` in RUSTFLAGS
    /// builds every crate again; the fuzz targets' check has `--cfg fuzzing`). Unfiltered: the
    /// unit tests are named by module, not by cell key, and take seconds. Six are ignored here:
    /// container-recreate's arguments over every order of whole steps (P8's missing-chunk arm
    /// in no scenario and no history, CR-3, CR-5, CR-6, CR-9), about the model's paths rather
    /// than its primitives (about 35 CPU-seconds); the plain phase runs them. racelab-core is
    /// built at `opt-level = 1` for it, its one build of its own (the dependencies are the
    /// plain phase's): 31 CPU-seconds against 41 at 3, with the tests' 6 s unchanged (two idle
    /// cores).
    pub fn one_thread() -> Phase {
        Phase::new(
            "model tests on the fuzz build's one-thread primitives (release, feature one-thread)",
            &[
                "test",
                "--release",
                "--config",
                "profile.release.package.racelab-core.opt-level=1",
                "-p",
                "racelab-core",
                "--features",
                "histories,one-thread",
                "--lib",
            ],
        )
    }

    /// The fuzz targets, type-checked as cargo fuzz builds them (`--cfg fuzzing`) but without
    /// libFuzzer (`--no-default-features`): its C++ was most of this phase's 35 s, and no
    /// change here can break it; the nightly fuzz jobs build, link and run the targets.
    pub fn fuzz_targets() -> Phase {
        let mut p = Phase::new(
            "fuzz targets, type-checked (--cfg fuzzing, without libFuzzer)",
            &[
                "check",
                "--manifest-path",
                "fuzz/Cargo.toml",
                "--bins",
                "--no-default-features",
            ],
        );
        p.cfg = Some("fuzzing");
        p
    }

    fn cargo(&self) -> Command {
        let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        c.current_dir(root()).env("RUST_BACKTRACE", "0");
        if let Some(cfg) = self.cfg {
            let flags = std::env::var("RUSTFLAGS").unwrap_or_default();
            c.env("RUSTFLAGS", format!("{flags} --cfg {cfg}").trim())
                .env("CARGO_TARGET_DIR", root().join("target").join(cfg));
        }
        clean_env(&mut c);
        c
    }

    /// The whole cargo command, tests included.
    pub fn command(&self) -> Command {
        let mut c = self.cargo();
        c.args(&self.args);
        if !self.test_args.is_empty() {
            c.arg("--").args(&self.test_args);
        }
        c
    }

    /// Runs with the output in `log` (one log per shard beside it), printing a line for each
    /// result record that appears in `results` meanwhile; true on success.
    pub fn run_logged(&self, log: &Path, results: &Path, seen: &mut BTreeSet<PathBuf>) -> bool {
        println!(
            "\n== {} (cargo {}; log: {})",
            self.name,
            self.args.join(" "),
            log.display()
        );
        let started = Instant::now();
        let mut logs = vec![log.to_path_buf()];
        let commands = if self.shards <= 1 {
            vec![self.command()]
        } else {
            let exe = match self.build_test_binary(log) {
                Ok(exe) => exe,
                Err(e) => {
                    eprintln!("   {e}");
                    print_failures(log);
                    return false;
                }
            };
            println!(
                "   built in {:.0} s; {} processes",
                started.elapsed().as_secs_f64(),
                self.shards
            );
            logs = (0..self.shards)
                .map(|k| log.with_extension(format!("{k}.log")))
                .collect();
            (0..self.shards)
                .map(|k| {
                    let mut c = Command::new(&exe);
                    clean_env(&mut c);
                    c.args(&self.test_args)
                        .current_dir(root())
                        .env("RUST_BACKTRACE", "0")
                        .env(SHARD_ENV, format!("{k}/{}", self.shards));
                    c
                })
                .collect()
        };
        let ok = run_watched(commands, &logs, results, seen);
        println!(
            "   {} in {:.0} s",
            if ok { "passed" } else { "FAILED" },
            started.elapsed().as_secs_f64()
        );
        if !ok {
            for l in &logs {
                print_failures(l);
            }
        }
        ok
    }

    /// Builds the phase's test binaries (`cargo test --no-run`) and returns the path of the
    /// one it runs sharded.
    fn build_test_binary(&self, log: &Path) -> Result<PathBuf, String> {
        let file = File::create(log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
        let out = self
            .cargo()
            .args(&self.args)
            .args(["--no-run", "--message-format=json-render-diagnostics"])
            .stderr(file)
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !out.status.success() {
            return Err("the build failed".into());
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["profile"]["test"] == true)
            .filter(|m| m["target"]["name"] == self.sharded_target)
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .ok_or_else(|| format!("cargo built no test binary `{}`", self.sharded_target))
    }
}

/// The environment variable that splits the loom cells between processes (see racelab-loom).
const SHARD_ENV: &str = "RACELAB_SHARD";

/// A proof must not end early, and the gate's checkers read no knob from the environment.
pub fn clean_env(c: &mut Command) {
    for var in [
        "LOOM_MAX_DURATION",
        "LOOM_MAX_PERMUTATIONS",
        "LOOM_CHECKPOINT_FILE",
        "LOOM_MAX_PREEMPTIONS",
        SHARD_ENV,
        "RACELAB_LOOM_CHILD",
        "RACELAB_FUZZ_VARIANT",
    ] {
        c.env_remove(var);
    }
}

/// Runs `commands` at once, each with its output in its log, printing a line for every result
/// record that appears in `results` meanwhile; true when all succeed.
fn run_watched(
    commands: Vec<Command>,
    logs: &[PathBuf],
    results: &Path,
    seen: &mut BTreeSet<PathBuf>,
) -> bool {
    let mut children = Vec::new();
    for (mut cmd, log) in commands.into_iter().zip(logs) {
        let spawned = File::create(log).and_then(|file| {
            cmd.env(RESULTS_ENV, results)
                .stdout(file.try_clone()?)
                .stderr(file)
                .spawn()
        });
        match spawned {
            Ok(c) => children.push(c),
            Err(e) => {
                eprintln!("cannot run {}: {e}", log.display());
                return false;
            }
        }
    }
    let done = Arc::new(AtomicBool::new(false));
    std::thread::scope(|s| {
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
            })
        };
        // Every child is waited for, even after one failed.
        let statuses: Vec<bool> = children
            .iter_mut()
            .map(|c| c.wait().is_ok_and(|s| s.success()))
            .collect();
        let ok = statuses.into_iter().all(|ok| ok);
        done.store(true, Ordering::SeqCst);
        let _ = watcher.join();
        ok
    })
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
pub fn print_failures(log: &Path) {
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
