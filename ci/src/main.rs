//! The racelab gate.
//!
//! - `cargo xtask verify [CONTRACT...]`: plain tests (models, property histories, fuzz corpus
//!   replay, reproductions), the loom suite in release, and a build of the fuzz targets; a line
//!   per cell as it completes; then the claims matrix with the counterexample timelines, and
//!   `target/racelab/report.json` / `report.md`. Exits 1 when any verdict or reproduction
//!   deviates from its claim or any check fails.
//! - `cargo xtask test`: the test gate (plain tests and the loom suite), output passed through.
//! - `cargo xtask fuzz CONTRACT [SECONDS]`: fuzzes one contract's target on stable
//!   (`cargo fuzz run --sanitizer none`), installing cargo-fuzz when it is missing.
#![forbid(unsafe_code)]

mod phases;
mod verify;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  verify [CONTRACT...]      run every check and print the claims matrix (all contracts by default)
  test                      the test gate: plain tests and the loom suite
  fuzz CONTRACT [SECONDS]   fuzz one contract's target on stable (default 60 s)
  help                      this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let known: Vec<&str> = racelab_core::registry::all().iter().map(|e| e.contract.id).collect();
    let usage_error = |msg: String| {
        eprintln!("error: {msg}\n\n{USAGE}\ncontracts: {}", known.join(", "));
        ExitCode::from(2)
    };
    let contracts = |names: &[String]| -> Result<Vec<String>, String> {
        match names.iter().find(|n| !known.contains(&n.as_str())) {
            Some(bad) => Err(format!("unknown contract `{bad}`")),
            None if names.is_empty() => Ok(known.iter().map(|s| s.to_string()).collect()),
            None => Ok(names.to_vec()),
        }
    };
    match args.first().map(String::as_str) {
        Some("verify") => match contracts(&args[1..]) {
            Ok(c) => verify::run(&c),
            Err(e) => usage_error(e),
        },
        Some("test") if args.len() == 1 => phases::test_gate(),
        Some("fuzz") => {
            let seconds = match args.get(2).map(|s| s.parse::<u64>()) {
                None => Ok(60),
                Some(Ok(s)) if s > 0 && args.len() == 3 => Ok(s),
                Some(_) => Err(format!("`{}` is not a number of seconds", args[2..].join(" "))),
            };
            match (args.get(1), seconds) {
                (None, _) => usage_error("fuzz needs a contract".into()),
                (Some(_), Err(e)) => usage_error(e),
                (Some(c), Ok(s)) => match contracts(std::slice::from_ref(c)) {
                    Ok(_) => phases::fuzz(c, s),
                    Err(e) => usage_error(e),
                },
            }
        }
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}\ncontracts: {}\n", known.join(", "));
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(format!("unknown command `{}`", [other].into_iter().chain(args[1..].iter().map(String::as_str)).collect::<Vec<_>>().join(" "))),
        None => usage_error("no command".into()),
    }
}
