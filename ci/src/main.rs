//! The racelab gate.
//!
//! - `cargo xtask verify [CONTRACT...]`: plain tests (models, property histories, fuzz corpus
//!   replay, reproductions), the loom suite (optimized test profile), and a build of the fuzz targets; a line
//!   per cell as it completes; then the claims matrix with the counterexample timelines, and
//!   `target/racelab/report.json` / `report.md`. Exits 1 when any verdict or reproduction
//!   deviates from its claim or any check fails.
//! - `cargo xtask test`: the test gate (plain tests and the loom suite), output passed through.
//! - `cargo xtask fuzz CONTRACT [SECONDS]`: fuzzes one contract's target on stable
//!   (`cargo fuzz run --sanitizer none`), installing cargo-fuzz when it is missing.
//! - `cargo xtask mutants [CONTRACT...]`: cargo-mutants on the fix code, judged by the claims.
//! - `cargo xtask explore CONTRACT [--cases N] [--seed S]`: more history exploration than the
//!   gate's, on request, with the seed printed.
//! - `cargo xtask new NAME`: scaffolds a contract, a working toy model, in every list that
//!   names contracts (`new.rs`).
//! - `cargo xtask conformance [--repo DIR] [--offline] [--negated]`: the models' premises as
//!   JUnit tests on the released Hadoop and Ozone jars (`conformance/`); `--negated` adds the
//!   pass with every assertion negated (the scheduled workflow runs it).
#![forbid(unsafe_code)]

mod bench;
mod bless;
mod conformance;
mod explore;
mod fuzzing;
mod gate_bench;
mod install;
mod mutants;
mod new;
mod phases;
mod verify;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  verify [CONTRACT...]      test, then report: every check and the claims matrix (all contracts
                            by default)
  test                      the test suites, once each: plain tests (models, histories, every
                            order of whole steps, reproductions), the loom suite, the model
                            tests on the fuzz build's primitives, the fuzz targets' type
                            check; a record per cell in target/racelab/results
  report [--format jira|text] [CONTRACT...] [--from DIR...]
                            the claims matrix and target/racelab/report.{json,md} from the
                            records of `test` (or of the directories named, e.g. CI shards);
                            with --format, also one comment per contract to paste into JIRA
                            (wiki markup) or an e-mail, printed and written to
                            target/racelab/comments/CONTRACT.{jira,txt}
  fuzz CONTRACT [SECONDS]   fuzz one contract's target on stable (default 60 s)
  replay FILE...            replay scenario files (see scenarios/) on their variants; exits 1
                            when a variant reaches other outcomes than its `expect` line says,
                            2 on a mistake in a file (FILE:LINE: problem)
  explore CONTRACT [--cases N] [--seed S]
                            run the contract's history cells with N cases each (default: each
                            claim's budget) from seed S (default: a new seed, printed)
  bench [--cold] [--no-fuzz] the speed figures: the gate's phases (warm; cold too with --cold),
                            every loom and history cell, each fuzz target for 20 s from its
                            corpus and in upstream mode from an empty one; bench.json
  bench --gate [--against REV]
                            the CI gate (.ci/run) cold then warm, each section timed, loom
                            cell-seconds per contract, the slowest cell; with --against, REV's
                            gate first, in the same run, and every figure as a ratio to it
  conformance [--repo DIR] [--offline] [--negated]
                            the models' premises on the released jars: mvn test in
                            conformance/ (JUnit, Hadoop 3.5.0, Ozone 2.2.0); each result must
                            come from its test's Premise.check; --negated runs the same tests
                            negated too, each of which must flip; a result per premise in
                            target/racelab/conformance.json; exits 1 on a broken premise;
                            says \"skipped: java/mvn not found\" without them
  mutants [CONTRACT...]     cargo-mutants on each contract's fix code (.cargo/mutants.toml),
                            judged by its claims; fails on a missed mutant (not in the gate:
                            the scheduled workflow runs it)
  bless [CONTRACT...]       re-pins the loom cells' execution counts from the records of the
                            last `test` or `verify`, after a reviewed model change; prints
                            old → new for each; refuses a cell whose verdict deviates
  new NAME                  scaffolds contract NAME (`demo`, `lost-update`) as a working toy
                            model (a lost update) in every list that names contracts; prints
                            the files and the next steps; refuses an existing or bad name
  readme                    rewrites README.md's findings section from each contract's
                            findings (a test fails while it is stale)
  help                      this text

`cargo xtask COMMAND --help` prints this text too.
";

/// `report`'s arguments.
#[derive(Debug, PartialEq, Default)]
struct Report {
    contracts: Vec<String>,
    from: Vec<std::path::PathBuf>,
    format: Option<racelab_core::report::jira::Format>,
}

#[derive(Debug, PartialEq)]
enum Cmd {
    Verify(Vec<String>),
    Test,
    Report(Report),
    Fuzz(String, u64),
    Replay(Vec<std::path::PathBuf>),
    Explore(explore::Request),
    Bench(bench::Request),
    Mutants(Vec<String>),
    Conformance(conformance::Request),
    Readme,
    Bless(Vec<String>),
    New(String),
    Help,
}

/// Parses the command line against the known contract names.
fn parse(args: &[String], known: &[&str]) -> Result<Cmd, String> {
    let contract = |name: &String| {
        if known.contains(&name.as_str()) {
            Ok(name.clone())
        } else {
            Err(format!("unknown contract `{name}`"))
        }
    };
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Cmd::Help);
    }
    match args.split_first() {
        None => Err("no command".into()),
        Some((cmd, rest)) => match (cmd.as_str(), rest) {
            ("verify", []) => Ok(Cmd::Verify(known.iter().map(|s| s.to_string()).collect())),
            ("verify", names) => names
                .iter()
                .map(contract)
                .collect::<Result<_, _>>()
                .map(Cmd::Verify),
            ("test", []) => Ok(Cmd::Test),
            ("report", rest) => {
                let mut r = Report::default();
                let mut rest = rest.iter();
                while let Some(a) = rest.next() {
                    match a.as_str() {
                        "--format" => {
                            let f = rest.next().ok_or("`--format` needs jira or text")?;
                            r.format =
                                Some(racelab_core::report::jira::Format::parse(f).ok_or_else(
                                    || format!("unknown format `{f}` (formats: jira, text)"),
                                )?);
                        }
                        "--from" => {
                            let dirs: Vec<_> = rest.by_ref().map(Into::into).collect();
                            if dirs.is_empty() {
                                return Err("`--from` needs at least one directory".into());
                            }
                            r.from = dirs;
                        }
                        name => r.contracts.push(contract(&name.to_string())?),
                    }
                }
                if r.contracts.is_empty() {
                    r.contracts = known.iter().map(|s| s.to_string()).collect();
                }
                Ok(Cmd::Report(r))
            }
            ("fuzz", [name]) => Ok(Cmd::Fuzz(contract(name)?, 60)),
            ("fuzz", [name, secs]) => match secs.parse::<u64>() {
                Ok(s) if s > 0 => Ok(Cmd::Fuzz(contract(name)?, s)),
                _ => Err(format!("`{secs}` is not a positive number of seconds")),
            },
            ("replay", []) => Err("replay needs at least one scenario file".into()),
            ("replay", files) => Ok(Cmd::Replay(files.iter().map(Into::into).collect())),
            ("explore", [name, flags @ ..]) => {
                explore::Request::parse(contract(name)?, flags).map(Cmd::Explore)
            }
            ("explore", []) => Err("explore needs a contract".into()),
            ("bench", flags) => bench::Request::parse(flags).map(Cmd::Bench),
            ("conformance", flags) => conformance::Request::parse(flags).map(Cmd::Conformance),
            ("mutants", []) => Ok(Cmd::Mutants(known.iter().map(|s| s.to_string()).collect())),
            ("mutants", names) => names
                .iter()
                .map(contract)
                .collect::<Result<_, _>>()
                .map(Cmd::Mutants),
            ("readme", []) => Ok(Cmd::Readme),
            ("new", [name]) => Ok(Cmd::New(name.clone())),
            ("new", []) => Err("new needs a NAME (`cargo xtask new lost-update`)".into()),
            ("bless", []) => Ok(Cmd::Bless(known.iter().map(|s| s.to_string()).collect())),
            ("bless", names) => names
                .iter()
                .map(contract)
                .collect::<Result<_, _>>()
                .map(Cmd::Bless),
            ("help" | "--help" | "-h", []) => Ok(Cmd::Help),
            (c @ ("test" | "fuzz" | "readme" | "new" | "help"), extra) => {
                Err(format!("`{c}` does not take `{}`", extra.join(" ")))
            }
            (other, _) => Err(format!("unknown command `{other}`")),
        },
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let known: Vec<&str> = racelab_core::registry::all()
        .iter()
        .map(|e| e.contract.id)
        .collect();
    match parse(&args, &known) {
        Ok(Cmd::Verify(contracts)) => verify::run(&contracts),
        Ok(Cmd::Test) => {
            let all: Vec<String> = known.iter().map(|s| s.to_string()).collect();
            if verify::test(&all) {
                println!("\nevery suite passed; `cargo xtask report` prints the matrix");
                ExitCode::SUCCESS
            } else {
                println!("\nFAILED: a suite failed (see its log above)");
                ExitCode::FAILURE
            }
        }
        Ok(Cmd::Report(r)) => {
            let status = verify::report(&r.contracts, &r.from, true, None);
            match r.format {
                Some(f) => verify::comments(&r.contracts, &r.from, f).unwrap_or(status),
                None => status,
            }
        }
        Ok(Cmd::Fuzz(contract, seconds)) => fuzzing::fuzz(&contract, seconds),
        Ok(Cmd::Replay(files)) => replay(&files),
        Ok(Cmd::Explore(request)) => explore::run(&request),
        Ok(Cmd::Bench(request)) => bench::run(&request),
        Ok(Cmd::Mutants(contracts)) => mutants::run(&contracts),
        Ok(Cmd::Conformance(request)) => conformance::run(&request),
        Ok(Cmd::Readme) => readme(),
        Ok(Cmd::Bless(contracts)) => bless::run(&contracts),
        Ok(Cmd::New(name)) => new::run(&name),
        Ok(Cmd::Help) => {
            print!("{USAGE}\ncontracts: {}\n", known.join(", "));
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {msg}\n\n{USAGE}\ncontracts: {}", known.join(", "));
            ExitCode::from(2)
        }
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

#[cfg(test)]
mod tests {
    use super::{parse, Cmd};

    fn p(args: &[&str]) -> Result<Cmd, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(&args, &["leader-ready", "dead-node"])
    }

    #[test]
    fn new_takes_one_name() {
        assert_eq!(p(&["new", "demo"]), Ok(Cmd::New("demo".into())));
        assert!(p(&["new"]).is_err());
        assert!(p(&["new", "a", "b"]).is_err());
        assert_eq!(p(&["new", "--help"]), Ok(Cmd::Help));
    }

    #[test]
    fn verify_defaults_to_every_contract() {
        assert_eq!(
            p(&["verify"]),
            Ok(Cmd::Verify(vec!["leader-ready".into(), "dead-node".into()]))
        );
        assert_eq!(
            p(&["verify", "dead-node"]),
            Ok(Cmd::Verify(vec!["dead-node".into()]))
        );
    }

    #[test]
    fn mutants_defaults_to_every_contract_and_names_bad_ones() {
        assert_eq!(
            p(&["mutants"]),
            Ok(Cmd::Mutants(vec![
                "leader-ready".into(),
                "dead-node".into()
            ]))
        );
        assert_eq!(
            p(&["mutants", "nope"]),
            Err("unknown contract `nope`".into())
        );
    }

    #[test]
    fn bad_input_is_named() {
        assert_eq!(p(&[]), Err("no command".into()));
        assert_eq!(p(&["verfiy"]), Err("unknown command `verfiy`".into()));
        assert_eq!(
            p(&["verify", "leader-ready", "nope"]),
            Err("unknown contract `nope`".into())
        );
        assert_eq!(p(&["test", "x"]), Err("`test` does not take `x`".into()));
        assert_eq!(
            p(&["fuzz", "leader-ready", "0"]),
            Err("`0` is not a positive number of seconds".into())
        );
        assert_eq!(p(&["fuzz", "nope"]), Err("unknown contract `nope`".into()));
    }

    #[test]
    fn report_takes_a_format_contracts_and_record_directories() {
        use racelab_core::report::jira::Format;
        assert_eq!(
            p(&["report", "--format", "jira", "dead-node"]),
            Ok(Cmd::Report(super::Report {
                contracts: vec!["dead-node".into()],
                from: vec![],
                format: Some(Format::Jira),
            }))
        );
        assert_eq!(
            p(&["report", "--from", "a", "b"]),
            Ok(Cmd::Report(super::Report {
                contracts: vec!["leader-ready".into(), "dead-node".into()],
                from: vec!["a".into(), "b".into()],
                format: None,
            }))
        );
        assert_eq!(
            p(&["report", "--format", "html"]),
            Err("unknown format `html` (formats: jira, text)".into())
        );
        assert_eq!(
            p(&["report", "--from"]),
            Err("`--from` needs at least one directory".into())
        );
        assert_eq!(
            p(&["report", "nope"]),
            Err("unknown contract `nope`".into())
        );
    }

    #[test]
    fn help_is_everywhere() {
        assert_eq!(p(&["verify", "--help"]), Ok(Cmd::Help));
        assert_eq!(p(&["fuzz", "-h"]), Ok(Cmd::Help));
        assert_eq!(p(&["help"]), Ok(Cmd::Help));
    }

    #[test]
    fn explore_takes_cases_and_a_seed() {
        let r = |cases, seed| {
            Ok(Cmd::Explore(super::explore::Request {
                contract: "dead-node".into(),
                cases,
                seed,
            }))
        };
        assert_eq!(p(&["explore", "dead-node"]), r(None, None));
        assert_eq!(
            p(&["explore", "dead-node", "--cases", "9", "--seed", "7"]),
            r(Some(9), Some(7))
        );
        assert_eq!(
            p(&["explore", "dead-node", "--cases", "x"]),
            Err("`--cases` takes a positive number, not `x`".into())
        );
        assert_eq!(
            p(&["explore", "dead-node", "--fast"]),
            Err("unknown option `--fast` (options: --cases N, --seed S)".into())
        );
        assert_eq!(p(&["explore"]), Err("explore needs a contract".into()));
    }

    #[test]
    fn conformance_takes_a_repo() {
        assert_eq!(
            p(&["conformance"]),
            Ok(Cmd::Conformance(super::conformance::Request::default()))
        );
        assert_eq!(
            p(&["conformance", "--repo", "/tmp/m2"]),
            Ok(Cmd::Conformance(super::conformance::Request {
                repo: Some("/tmp/m2".into()),
                offline: false,
                negated: false
            }))
        );
        assert_eq!(p(&["conformance", "--help"]), Ok(Cmd::Help));
    }

    #[test]
    fn replay_takes_files() {
        assert_eq!(
            p(&["replay"]),
            Err("replay needs at least one scenario file".into())
        );
        assert_eq!(
            p(&["replay", "a.scn"]),
            Ok(Cmd::Replay(vec!["a.scn".into()]))
        );
    }

    #[test]
    fn fuzz_takes_a_contract_and_seconds() {
        assert_eq!(
            p(&["fuzz", "leader-ready"]),
            Ok(Cmd::Fuzz("leader-ready".into(), 60))
        );
        assert_eq!(
            p(&["fuzz", "leader-ready", "5"]),
            Ok(Cmd::Fuzz("leader-ready".into(), 5))
        );
    }
}
