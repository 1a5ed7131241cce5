//! `cargo xtask mutants [CONTRACT...]`: cargo-mutants on each contract's fix code (scoped by
//! `.cargo/mutants.toml`), judged by that contract's own tests ([`filter`]), with the numbers
//! a reviewer asks for: mutants, caught, missed, timeouts, unviable.

use crate::install::{CARGO_MUTANTS, CARGO_NEXTEST};
use crate::phases::{clean_env, root};
use racelab_core::report::RESULTS_ENV;
use serde::Serialize;
use std::path::Path;
use std::process::{Command, ExitCode};

/// What cargo-mutants found for one contract.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Tally {
    pub contract: String,
    pub mutants: u64,
    pub caught: u64,
    pub missed: u64,
    pub timeouts: u64,
    pub unviable: u64,
    /// The missed mutants, as cargo-mutants names them (file:line:column: what changed).
    pub missed_mutants: Vec<String>,
}

impl Tally {
    /// Reads `mutants.out/outcomes.json` and `missed.txt` from cargo-mutants' output directory.
    fn read(contract: &str, out: &Path) -> Result<Tally, String> {
        let path = out.join("outcomes.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not cargo-mutants' outcomes: {e}", path.display()))?;
        let count = |field: &str| json[field].as_u64().unwrap_or(0);
        let missed_mutants = std::fs::read_to_string(out.join("missed.txt"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect();
        Ok(Tally {
            contract: contract.to_owned(),
            mutants: count("total_mutants"),
            caught: count("caught"),
            missed: count("missed"),
            timeouts: count("timeout"),
            unviable: count("unviable"),
            missed_mutants,
        })
    }

    /// Whether every viable mutant was caught: none missed, and none timed out (a timeout is a
    /// mutant whose verdict nobody saw, see [`TIMEOUT_FLOOR_SECONDS`]).
    fn all_caught(&self) -> bool {
        self.missed == 0 && self.timeouts == 0
    }
}

/// The nextest filterset of contract `id` (module `module`): its unit tests in racelab-core,
/// and in racelab-props its claims (`ID/...`), its scenario files (`scenarios/ID-...`) and
/// `real/orders` (each committed real order's verdict, its own among them).
fn filter(id: &str, module: &str) -> String {
    format!(
        "(package(racelab-core) & test(/^contracts::{module}::/)) | (package(racelab-props) & \
         (test(/^{id}\\//) | test(/^scenarios\\/{id}-/) | test(=real/orders)))"
    )
}

/// Runs cargo-mutants on `contracts`; fails when a mutant is missed or timed out, or the
/// unmutated tree fails its tests.
///
/// cargo-mutants' own time limit comes from its baseline, which runs only the mutated package's
/// (racelab-core's) share of the tests: 20 s for leader-ready and dead-node. A missed mutant whose
/// tests a loaded machine slowed past it was reported as a timeout, and a timeout used to count
/// as caught. The limit's floor is now above nextest's own per-test limit (the `mutants`
/// profile's 10 minutes), so a test that hangs under a mutant is ended by nextest, a failing
/// test (caught), and a slow one runs to its verdict; a timeout left over is a failure to triage.
const TIMEOUT_FLOOR_SECONDS: &str = "660";
pub fn run(contracts: &[String]) -> ExitCode {
    for tool in [&CARGO_NEXTEST, &CARGO_MUTANTS] {
        if let Err(e) = tool.ensure() {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut tallies = Vec::new();
    let mut failed = false;
    for id in contracts {
        let Ok(entry) = racelab_core::registry::find(id) else {
            return ExitCode::from(2);
        };
        let scope = format!("contracts/{}/", entry.contract.module);
        let out = root().join("target/racelab/mutants").join(id);
        // cargo-mutants writes `mutants.out` inside `--output`, which must exist.
        if let Err(e) = std::fs::create_dir_all(&out) {
            eprintln!("error: cannot create {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        println!(
            "\n== mutants of {id}'s fix code (cargo-mutants' log: {}/mutants.out)",
            out.display()
        );
        // The other contracts' files left out as files, not only by `--re`: cargo-mutants 27
        // puts its struct-field deletions (`delete field F from struct S expression`) in the
        // list without the name filters (`--re` and exclude_re), so container-recreate's one in
        // `World::replicate` was in every contract's run, judged by that contract's tests
        // (missed). `--file` cannot narrow it: cargo-mutants adds it to examine_globs.
        let others = racelab_core::registry::all()
            .into_iter()
            .filter(|e| e.contract.module != entry.contract.module)
            .flat_map(|e| {
                [
                    "--exclude".to_owned(),
                    format!("core/src/contracts/{}/**", e.contract.module),
                ]
            })
            .collect::<Vec<_>>();
        let mut cmd = Command::new("cargo");
        cmd.current_dir(root())
            // In place: the mutants are built in this tree, so every build after the first
            // (and every later run) is an incremental build of the workspace crates in one
            // target directory; a copy of the tree at a new temporary path each run rebuilt
            // them from scratch (3-6 min here) before the first mutant. cargo-mutants puts each
            // file back after its mutant (and on Ctrl-C): do not edit the tree while it runs.
            .args([
                "mutants",
                "--no-shuffle",
                "--in-place",
                "--re",
                &scope,
                "--minimum-test-timeout",
                TIMEOUT_FLOOR_SECONDS,
                "--output",
            ])
            .arg(&out)
            .args(&others)
            // The contract's own tests only: its unit tests in racelab-core, and in
            // racelab-props its claims, its scenario files and the real orders (the mutated
            // files are its own, so every other contract's tests pass whatever they do). The
            // first failure ends the run at once: a caught mutant does not wait for the tests
            // still running (the slowest takes about a minute).
            // nextest's `mutants` profile (.config/nextest.toml) orders the tests: the slowest
            // at once on one thread, the components' unit tests first on the other.
            .args([
                "--",
                "--profile",
                "mutants",
                "--max-fail",
                "1:immediate",
                "-E",
                &filter(id, entry.contract.module),
            ])
            .env_remove(RESULTS_ENV)
            // One target directory for every run and contract, apart from the gate's (whose
            // release build of the same tree must not be invalidated by the mutants').
            .env("CARGO_TARGET_DIR", root().join("target/mutants"));
        clean_env(&mut cmd);
        let status = match cmd.status() {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: cannot run cargo mutants: {e}");
                return ExitCode::FAILURE;
            }
        };
        let outcomes = out.join("mutants.out");
        if !outcomes.join("outcomes.json").exists() && status.success() {
            println!("{id}: no fix code in .cargo/mutants.toml's examine_globs");
            continue;
        }
        match Tally::read(id, &outcomes) {
            Ok(t) => {
                // cargo-mutants exits 0 (all caught), 2 (missed), 3 (timeouts only); anything
                // else is a failed baseline or a tool error.
                failed |= !t.all_caught() || !matches!(status.code(), Some(0 | 2 | 3));
                tallies.push(t);
            }
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
            }
        }
    }
    println!("\n== mutants\n  contract            mutants  caught  missed  timeouts  unviable");
    for t in &tallies {
        println!(
            "  {:<18}  {:>7}  {:>6}  {:>6}  {:>8}  {:>8}",
            t.contract, t.mutants, t.caught, t.missed, t.timeouts, t.unviable
        );
        for m in &t.missed_mutants {
            println!("    missed: {m}");
        }
    }
    let summary = root().join("target/racelab/mutants.json");
    let json = serde_json::to_string_pretty(&tallies).expect("the tallies serialize");
    if let Err(e) = std::fs::write(&summary, json) {
        eprintln!("error: cannot write {}: {e}", summary.display());
        return ExitCode::FAILURE;
    }
    println!("\n{}", summary.display());
    if failed {
        println!(
            "FAILED: a mutant of the fix code passes the tests or timed out, or the unmutated \
             tree fails"
        );
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn reads_cargo_mutants_outcomes() {
        let dir = std::env::temp_dir().join(format!("racelab-mutants-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("outcomes.json"),
            r#"{"total_mutants": 5, "caught": 3, "missed": 1, "timeout": 1, "unviable": 0}"#,
        )
        .unwrap();
        std::fs::write(dir.join("missed.txt"), "a.rs:1:2: replace x with y\n").unwrap();
        let t = Tally::read("dead-node", &dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            t,
            Tally {
                contract: "dead-node".into(),
                mutants: 5,
                caught: 3,
                missed: 1,
                timeouts: 1,
                unviable: 0,
                missed_mutants: vec!["a.rs:1:2: replace x with y".into()],
            }
        );
    }

    #[test]
    fn a_timeout_is_not_a_caught_mutant() {
        let tally = |missed, timeouts| Tally {
            mutants: 5,
            caught: 5 - missed - timeouts,
            missed,
            timeouts,
            ..Tally::default()
        };
        assert!(tally(0, 0).all_caught());
        assert!(!tally(1, 0).all_caught(), "a missed mutant");
        assert!(!tally(0, 1).all_caught(), "a timed-out mutant");
    }
}
