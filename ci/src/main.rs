//! The racelab gate: `cargo xtask COMMAND`. Every command (a test checks this list against
//! `cli.rs`, where clap declares them with their arguments; `args.rs` checks their values):
//!
//! - `cargo xtask verify [CONTRACT...]`: `test`, then `report`: every check and the claims
//!   matrix; exits 1 when any verdict or reproduction deviates from its claim or a check fails.
//! - `cargo xtask test`: every suite once (plain tests, the loom suite, the model tests on the
//!   fuzz build's primitives, the fuzz targets' type check, the premises when Java and Maven are
//!   there); a record per cell in `target/racelab/results`.
//! - `cargo xtask report [--format jira|text] [--from DIR...] [CONTRACT...]`: the claims matrix and
//!   `target/racelab/report.{json,md}` from the records; with `--format`, a comment per contract.
//! - `cargo xtask fuzz CONTRACT [SECONDS]`: fuzzes one contract's target on stable
//!   (`cargo fuzz run --sanitizer none`), installing cargo-fuzz when it is missing.
//! - `cargo xtask replay FILE...`: replays scenario files on their variants.
//! - `cargo xtask validate [TRACE...]`: checks traces of runs on the real code against the
//!   models, step by step (`validate.rs`; the conformance phase validates every replay's).
//! - `cargo xtask explore CONTRACT [--cases N] [--seed S]`: more history exploration than the
//!   gate's, on request, with the seed printed.
//! - `cargo xtask bench [--cold] [--no-fuzz] [--gate [--against REV]]`: the speed figures (`bench.json`).
//! - `cargo xtask conformance [--repo DIR] [--offline] [--negated]`: the models' premises as
//!   JUnit tests on the released Hadoop and Ozone jars (`conformance/`).
//! - `cargo xtask search [--tool fray|lincheck] [--runs N] [--only OUTCOME,..] [--keep]
//!   [CONTRACT...]`: the searches of the real code without latches, Fray's and Lincheck's
//!   (`search.rs`).
//! - `cargo xtask mutants [CONTRACT...]`: cargo-mutants on the fix code, judged by the claims.
//! - `cargo xtask bless [CONTRACT...]`: re-pins the loom cells' execution counts after a
//!   reviewed model change.
//! - `cargo xtask new NAME`: scaffolds a contract, a working toy model, in every list that
//!   names contracts (`new.rs`).
//! - `cargo xtask readme`: rewrites README.md's findings section from the contracts' findings.
#![forbid(unsafe_code)]

mod args;
mod bench;
mod bless;
mod cli;
mod conformance;
mod explore;
mod fuzzing;
mod gate_bench;
mod install;
mod mutants;
mod new;
mod phases;
mod real_cells;
mod search;
mod surefire;
mod validate;
mod verify;

use cli::{Cli, Cmd};
use std::process::ExitCode;

fn main() -> ExitCode {
    // On a mistake clap prints its message and exits 2; on `--help` or `help`, the help and 0.
    let cmd = <Cli as clap::Parser>::parse().cmd;
    match cmd {
        Cmd::Verify(contracts) => verify::run(&contracts.or_all()),
        Cmd::Test => {
            let all: Vec<String> = args::known().into_iter().map(String::from).collect();
            if verify::test(&all) {
                println!("\nevery suite passed; `cargo xtask report` prints the matrix");
                ExitCode::SUCCESS
            } else {
                println!("\nFAILED: a suite failed (see its log above)");
                ExitCode::FAILURE
            }
        }
        Cmd::Report(r) => {
            let contracts = r.contracts.or_all();
            let status = verify::report(&contracts, &r.from, true, None);
            match r.format {
                Some(f) => verify::comments(&contracts, &r.from, f).unwrap_or(status),
                None => status,
            }
        }
        Cmd::Fuzz { contract, seconds } => fuzzing::fuzz(&contract, seconds),
        Cmd::Replay { files } => replay(&files),
        Cmd::Validate { paths } => validate::run(&paths),
        Cmd::Explore(request) => explore::run(&request),
        Cmd::Bench(request) => bench::run(&request),
        Cmd::Mutants(contracts) => mutants::run(&contracts.or_all()),
        Cmd::Conformance(request) => conformance::run(&request),
        Cmd::Search(request) => search::run(&request),
        Cmd::Readme => readme(),
        Cmd::Bless(contracts) => bless::run(&contracts.or_all()),
        Cmd::New { name } => new::run(&name),
    }
}

/// `cargo xtask readme`: README.md's findings section, generated again.
fn readme() -> ExitCode {
    use racelab_core::report::readme;
    let path = phases::root().join("README.md");
    let views: Vec<_> = racelab_core::registry::all()
        .into_iter()
        .map(|e| e.view)
        .collect();
    let result = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e}", path.display()))
        .and_then(|old| {
            let new = readme::splice(&old, &readme::section(&views))?;
            if new != old {
                std::fs::write(&path, &new).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(new != old)
        });
    match result {
        Ok(changed) => {
            let n: usize = views.iter().map(|v| v.findings.len()).sum();
            let what = if changed {
                "rewritten"
            } else {
                "already up to date"
            };
            println!("README.md: the findings section ({n} findings) {what}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask replay FILE...`: exits 2 on the first file that cannot be read or has a mistake,
/// and 1 when an `expect` line of some file does not hold.
fn replay(files: &[std::path::PathBuf]) -> ExitCode {
    let mut differs = false;
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                return ExitCode::from(2);
            }
        };
        match racelab_props::scenario::replay_any(&text) {
            Ok(r) => {
                print!("{}", r.out);
                for e in &r.differs {
                    eprintln!("error: {}:{}: {}", f.display(), e.line, e.problem);
                }
                differs |= !r.differs.is_empty();
            }
            Err(e) if e.line == 0 => {
                eprintln!("error: {}: {}", f.display(), e.problem);
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("error: {}:{}: {}", f.display(), e.line, e.problem);
                return ExitCode::from(2);
            }
        }
    }
    if differs {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
