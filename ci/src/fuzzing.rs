//! Running cargo-fuzz on stable (`--sanitizer none`): the pinned install, one run of a target
//! with its statistics, and `cargo xtask fuzz`.

use crate::phases::root;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// libFuzzer's options for every run (and for the instruction counts of `cargo xtask bench`):
/// - `-max_len=64`: the committed inputs are at most 43 bytes (one byte per operation), and
///   longer histories are slower to run without reaching more windows;
/// - `-entropic=0 -reduce_inputs=0`: libFuzzer's older input schedule, without the entropic
///   power schedule's per-feature frequencies or the search for smaller inputs with the same
///   features. Both cost a lookup per feature per run, about a third of a run here. From an
///   empty corpus, with six seeds each, every target found its upstream bug in fewer runs
///   without them (medians: leader_ready 2,126 to 1,287; recon_sync 812 to 585; dead_node
///   10,439 to 7,832; container_recreate 4,782 to 2,713; reregister 45,165 to 34,549).
pub const OPTIONS: [&str; 3] = ["-max_len=64", "-entropic=0", "-reduce_inputs=0"];

/// How the targets are built and run: stable (no sanitizer), without libFuzzer's comparison
/// tracing, which cost about 40% of the time per input (a profile of the leader_ready target)
/// and buys little here: every byte of an input decodes to an operation, so there are no magic
/// values for it to find; and `--release`, without which cargo-fuzz adds `-Cdebug-assertions`
/// to an optimized build. Those turn on the standard library's own precondition checks of
/// its unsafe code wherever it is inlined (slice and pointer arithmetic, layouts, copies): no
/// model code is unsafe, and they were about 7% of reregister's instructions per input and
/// 500 of its 3,500 coverage counters. The overflow checks they also bring are kept (see
/// [`CHECKS`]), and the workspace's one `debug_assert!` is asserted under `cfg(fuzzing)` too.
const FLAGS: [&str; 4] = ["--sanitizer", "none", "--no-trace-compares", "--release"];

/// What the fuzz build checks beyond the models' own assertions, kept with `--release`:
/// arithmetic overflow panics, as it did under cargo-fuzz's default `-Cdebug-assertions`
/// (about 1.6% of reregister's instructions per input).
const CHECKS: &str = "-Coverflow-checks=on";

/// LLVM options after cargo-fuzz's own (cargo-fuzz appends `RUSTFLAGS`; the last one wins):
/// edge coverage without indirect-call tracing, and without the stack-depth counter. Both cost
/// time in every run and guide nothing here. libFuzzer reads caller-callee pairs only with
/// `-use_value_profile=1`, which these runs do not use; the stack-depth feature rewards deeper
/// call chains, and no model recurses. Measured over the same inputs: the same edges, the model's
/// part of a run 10–19% fewer instructions.
const COVERAGE: &str =
    "-Cllvm-args=-sanitizer-coverage-level=3 -Cllvm-args=-sanitizer-coverage-stack-depth=0";

/// `cargo fuzz <verb> <FLAGS>` in `fuzz/`, with [`COVERAGE`] after any `RUSTFLAGS` of the
/// caller's. The build and the run must see the same flags, or the run rebuilds.
fn cargo_fuzz(verb: &str) -> Command {
    let mut cmd = Command::new("cargo");
    let user = std::env::var("RUSTFLAGS").unwrap_or_default();
    cmd.current_dir(root().join("fuzz"))
        .args(["fuzz", verb])
        .args(FLAGS)
        .env("RUSTFLAGS", format!("{user} {COVERAGE} {CHECKS}").trim());
    cmd
}

/// The command that reproduces a `cargo fuzz` call by hand, for messages.
pub fn by_hand(verb: &str) -> String {
    format!(
        "RUSTFLAGS='{COVERAGE} {CHECKS}' cargo fuzz {verb} {}",
        FLAGS.join(" ")
    )
}

/// One libFuzzer run of a contract's target.
pub struct FuzzRun<'a> {
    pub target: &'a str,
    /// Where new inputs go (the first corpus directory libFuzzer is given).
    pub work: PathBuf,
    /// Further corpus directories, read only.
    pub seeds: Vec<PathBuf>,
    pub seconds: Option<u64>,
    pub runs: Option<u64>,
    /// `RACELAB_FUZZ_VARIANT`: a variant in which any outcome is a crash.
    pub variant: Option<&'a str>,
    /// libFuzzer's own seed, for runs that must be repeatable.
    pub seed: Option<u64>,
    pub log: PathBuf,
}

/// What a run reports at its end.
#[derive(Debug, Default, serde::Serialize)]
pub struct FuzzStats {
    pub executions: u64,
    pub executions_per_second: u64,
    pub new_units: u64,
    /// The run ended on a crash: an input that breaks the property (its file is named).
    pub crashed: bool,
    pub artifact: Option<String>,
}

impl FuzzRun<'_> {
    /// Builds the target (progress shown) and runs it, with libFuzzer's log in `self.log`.
    pub fn run(&self) -> Result<FuzzStats, String> {
        std::fs::create_dir_all(&self.work)
            .map_err(|e| format!("cannot create {}: {e}", self.work.display()))?;
        let artifacts = self.work.with_extension("artifacts");
        std::fs::create_dir_all(&artifacts)
            .map_err(|e| format!("cannot create {}: {e}", artifacts.display()))?;
        let build = cargo_fuzz("build")
            .arg(self.target)
            .status()
            .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
        if !build.success() {
            return Err(format!("cargo fuzz build {} failed", self.target));
        }
        let log = std::fs::File::create(&self.log)
            .map_err(|e| format!("cannot write {}: {e}", self.log.display()))?;
        let mut cmd = cargo_fuzz("run");
        cmd.arg(self.target)
            .arg(&self.work)
            .args(&self.seeds)
            .arg("--")
            .args(OPTIONS)
            .arg(format!("-artifact_prefix={}/", artifacts.display()))
            .arg("-print_final_stats=1")
            .env_remove("RACELAB_FUZZ_VARIANT")
            .stdout(Stdio::null())
            .stderr(log);
        if let Some(s) = self.seconds {
            cmd.arg(format!("-max_total_time={s}"));
        }
        if let Some(r) = self.runs {
            cmd.arg(format!("-runs={r}"));
        }
        if let Some(s) = self.seed {
            cmd.arg(format!("-seed={s}"));
        }
        if let Some(v) = self.variant {
            cmd.env("RACELAB_FUZZ_VARIANT", v);
        }
        let status = cmd
            .status()
            .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let stat = |name: &str| -> u64 {
            text.lines()
                .filter_map(|l| l.strip_prefix(&format!("stat::{name}:")))
                .filter_map(|v| v.trim().parse().ok())
                .next_back()
                .unwrap_or(0)
        };
        let artifact = text
            .lines()
            .filter_map(|l| l.split("Test unit written to ").nth(1))
            .map(str::to_owned)
            .next_back();
        // A crash ends the run before the final statistics: the last status line (`#N ...`)
        // says how many inputs had run.
        let last_status = text
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
            .next_back()
            .unwrap_or(0);
        let executions = match stat("number_of_executed_units") {
            0 => last_status,
            n => n,
        };
        Ok(FuzzStats {
            executions,
            executions_per_second: stat("average_exec_per_sec"),
            new_units: stat("new_units_added"),
            crashed: !status.success(),
            artifact,
        })
    }
}

/// The fuzz target's binary as `cargo fuzz build` leaves it (for the host's triple).
pub fn binary(target: &str) -> Result<PathBuf, String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let host = text
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .ok_or("rustc -vV names no host")?;
    let path = root()
        .join("fuzz/target")
        .join(host)
        .join("release")
        .join(target);
    if path.exists() {
        Ok(path)
    } else {
        Err(format!("{} is not built", path.display()))
    }
}

/// The committed seed corpus of a contract's target.
pub fn corpus(module: &str) -> PathBuf {
    root().join("fuzz/corpus").join(module)
}

/// `cargo xtask fuzz CONTRACT SECONDS`: the proposed fix's property, from the committed seeds.
pub fn fuzz(contract: &str, seconds: u64) -> ExitCode {
    let Ok(entry) = racelab_core::registry::find(contract) else {
        return ExitCode::from(2);
    };
    let target = entry.contract.module;
    if let Err(e) = crate::install::CARGO_FUZZ.ensure() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    // New inputs go to a scratch corpus; the committed seeds are read only.
    let work = root().join("fuzz/target/work-corpus").join(target);
    let run = FuzzRun {
        target,
        seeds: vec![corpus(target)],
        log: work.with_extension("log"),
        work,
        seconds: Some(seconds),
        runs: None,
        variant: None,
        seed: None,
    };
    println!(
        "fuzzing {target} for {seconds} s (libFuzzer's log: {})",
        run.log.display()
    );
    match run.run() {
        Ok(s) if !s.crashed => {
            println!(
                "no violation: {} runs, {} executions/s, {} new inputs in {}",
                s.executions,
                s.executions_per_second,
                s.new_units,
                run.work.display()
            );
            ExitCode::SUCCESS
        }
        Ok(s) => {
            let file = s.artifact.unwrap_or_else(|| "(see the log)".into());
            eprintln!(
                "the fuzzer found a violation after {} runs: {file}\nminimize it with \
                 `{} {target} {file}` in fuzz/, then commit it under \
                 fuzz/regressions/{target}/ as a regression of the contract",
                s.executions,
                by_hand("tmin")
            );
            print_violation(&run.log);
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The property's message from libFuzzer's log (the panic), without libFuzzer's noise.
fn print_violation(log: &Path) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut on = false;
    for l in text.lines() {
        if l.contains("panicked at") {
            on = true;
        }
        if on {
            if l.starts_with("==") || l.starts_with("note: run with") {
                break;
            }
            eprintln!("  {l}");
        }
    }
}
