//! The command line of `cargo xtask`: its commands and their arguments, as clap's derive API
//! declares them. The doc comments are the help texts (kept verbatim: their line breaks are the
//! help's layout). Contract names are checked as they are parsed (`args.rs`), so that the
//! commands get only known names; an empty list means every contract.

use crate::args::{contract, known, positive};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use racelab_core::report::jira::Format;
use std::path::PathBuf;

/// The racelab gate.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    verbatim_doc_comment,
    after_help = after_help()
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Debug, PartialEq, Subcommand)]
pub enum Cmd {
    /// test, then report: every check and the claims matrix (all contracts
    /// by default)
    #[command(verbatim_doc_comment)]
    Verify(Contracts),
    /// the test suites, once each: plain tests (models, histories, every
    /// order of whole steps, reproductions), the loom suite, the model
    /// tests on the fuzz build's primitives, the fuzz targets' type
    /// check; a record per cell in target/racelab/results
    #[command(verbatim_doc_comment)]
    Test,
    /// the claims matrix and target/racelab/report.{json,md} from the
    /// records of `test` (or of the directories named, e.g. CI shards);
    /// with --format, also one comment per contract to paste into JIRA
    /// (wiki markup) or an e-mail, printed and written to
    /// target/racelab/comments/CONTRACT.{jira,txt}
    #[command(verbatim_doc_comment)]
    Report(Report),
    /// fuzz one contract's target on stable (default 60 s)
    #[command(verbatim_doc_comment)]
    Fuzz {
        /// the contract whose fuzz target runs
        #[arg(value_name = "CONTRACT", value_parser = contract())]
        contract: String,
        /// how long to fuzz, in seconds
        #[arg(default_value_t = 60, value_parser = positive)]
        seconds: u64,
    },
    /// replay scenario files (see scenarios/) on their variants; exits 1
    /// when a variant reaches other outcomes than its `expect` line says,
    /// 2 on a mistake in a file (FILE:LINE: problem)
    #[command(verbatim_doc_comment)]
    Replay {
        /// scenario files (`.scn`)
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
    },
    /// check traces of runs on the real code against the models, step by
    /// step: each TRACE (a .jsonl file, or a folder searched for them;
    /// default: conformance/*/target/racelab-traces, what `conformance`
    /// writes); exits 1 when the model cannot follow a trace
    #[command(verbatim_doc_comment)]
    Validate {
        /// trace files or folders
        #[arg(value_name = "TRACE")]
        paths: Vec<PathBuf>,
    },
    /// run the contract's history cells with N cases each (default: each
    /// claim's budget) from seed S (default: a new seed, printed)
    #[command(verbatim_doc_comment)]
    Explore(crate::explore::Request),
    /// the speed figures: the gate's phases (warm; cold too with --cold),
    /// every loom and history cell, each fuzz target for 20 s from its
    /// corpus and in upstream mode from an empty one; bench.json;
    /// with --gate: the CI gate (.ci/run) cold then warm, each section
    /// timed, loom cell-seconds per contract, the slowest cell; with
    /// --against, REV's gate first, in the same run, and every figure as
    /// a ratio to it
    #[command(verbatim_doc_comment)]
    Bench(crate::bench::Request),
    /// the models' premises on the released jars: mvn test in
    /// conformance/ (JUnit, Hadoop 3.5.0, Ozone 2.2.0); each result must
    /// come from its test's Premise.check; --negated runs the same tests
    /// negated too, each of which must flip; a result per premise in
    /// target/racelab/conformance.json; exits 1 on a broken premise;
    /// says "skipped: java/mvn not found" without them
    #[command(verbatim_doc_comment)]
    Conformance(crate::conformance::Request),
    /// the searches of the real code without latches: Fray and Lincheck
    /// on the released classes, on every row the fix layer expresses,
    /// each reporting how many runs reached its outcome and the first;
    /// records in target/racelab/searches.json (and, with --keep, the
    /// committed conformance/searches.json that the report shows); not in
    /// the gate: the scheduled workflow runs it
    #[command(verbatim_doc_comment)]
    Search(crate::search::Request),
    /// cargo-mutants on each contract's fix code (.cargo/mutants.toml),
    /// judged by its claims; fails on a missed mutant (not in the gate:
    /// the scheduled workflow runs it)
    #[command(verbatim_doc_comment)]
    Mutants(Contracts),
    /// re-pins the loom cells' execution counts from the records of the
    /// last `test` or `verify`, after a reviewed model change; prints
    /// old → new for each; refuses a cell whose verdict deviates
    #[command(verbatim_doc_comment)]
    Bless(Contracts),
    /// scaffolds contract NAME (`demo`, `lost-update`) as a working toy
    /// model (a lost update) in every list that names contracts; prints
    /// the files and the next steps; refuses an existing or bad name
    #[command(verbatim_doc_comment)]
    New {
        /// lowercase letters and digits in words joined by `-`, starting with a letter
        name: String,
    },
    /// rewrites README.md's findings section from each contract's
    /// findings (a test fails while it is stale)
    #[command(verbatim_doc_comment)]
    Readme,
}

/// Contracts named on the command line.
#[derive(Debug, PartialEq, Args)]
pub struct Contracts {
    /// the contracts (all by default)
    #[arg(value_name = "CONTRACT", value_parser = contract())]
    names: Vec<String>,
}

impl Contracts {
    /// The names given, or every contract when none is.
    pub fn or_all(self) -> Vec<String> {
        if self.names.is_empty() {
            known().into_iter().map(String::from).collect()
        } else {
            self.names
        }
    }
}

/// `report`'s arguments.
#[derive(Debug, PartialEq, Args)]
pub struct Report {
    /// also one comment per contract: JIRA wiki markup or plain text
    #[arg(long, value_name = "FORMAT", value_parser = format())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub contracts: Contracts,
    /// the directories of the records (default: those of `test`)
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub from: Vec<PathBuf>,
}

/// `--format`'s values, named as [`Format::parse`] reads them.
fn format() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(["jira", "text"])
        .try_map(|f| Format::parse(&f).ok_or(format!("unknown format `{f}`")))
}

fn after_help() -> String {
    format!(
        "contracts: {}\n\n`cargo xtask COMMAND --help` prints the command's own help.",
        known().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::{known, Cli, Cmd, Contracts};
    use clap::error::ErrorKind;
    use clap::{CommandFactory, Parser};

    fn p(args: &[&str]) -> Result<Cmd, clap::Error> {
        Cli::try_parse_from(std::iter::once("xtask").chain(args.iter().copied())).map(|c| c.cmd)
    }

    fn kind(args: &[&str]) -> ErrorKind {
        p(args).expect_err("an error").kind()
    }

    fn names(v: &[&str]) -> Contracts {
        Contracts {
            names: v.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn new_takes_one_name() {
        assert_eq!(
            p(&["new", "demo"]).ok(),
            Some(Cmd::New {
                name: "demo".into()
            })
        );
        assert_eq!(kind(&["new"]), ErrorKind::MissingRequiredArgument);
        assert_eq!(kind(&["new", "a", "b"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["new", "--help"]), ErrorKind::DisplayHelp);
    }

    #[test]
    fn verify_defaults_to_every_contract() {
        let Ok(Cmd::Verify(all)) = p(&["verify"]) else {
            panic!("verify parses")
        };
        assert_eq!(all.or_all(), known());
        assert_eq!(
            p(&["verify", "dead-node"]).ok(),
            Some(Cmd::Verify(names(&["dead-node"])))
        );
    }

    #[test]
    fn mutants_and_bless_default_to_every_contract_and_name_bad_ones() {
        assert_eq!(p(&["mutants"]).ok(), Some(Cmd::Mutants(names(&[]))));
        assert_eq!(p(&["bless"]).ok(), Some(Cmd::Bless(names(&[]))));
        let e = p(&["mutants", "nope"]).expect_err("unknown contract");
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        // The error lists the known contracts.
        let text = e.to_string();
        for c in known() {
            assert!(text.contains(c), "{c} missing from: {text}");
        }
    }

    #[test]
    fn bad_input_is_named() {
        assert_eq!(
            kind(&[]),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        assert_eq!(kind(&["verfiy"]), ErrorKind::InvalidSubcommand);
        assert_eq!(
            kind(&["verify", "leader-ready", "nope"]),
            ErrorKind::InvalidValue
        );
        assert_eq!(kind(&["test", "x"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["readme", "x"]), ErrorKind::UnknownArgument);
        assert_eq!(
            kind(&["fuzz", "leader-ready", "0"]),
            ErrorKind::ValueValidation
        );
        assert_eq!(
            kind(&["fuzz", "leader-ready", "x"]),
            ErrorKind::ValueValidation
        );
        assert_eq!(kind(&["fuzz", "nope"]), ErrorKind::InvalidValue);
        assert_eq!(kind(&["fuzz"]), ErrorKind::MissingRequiredArgument);
        // Errors exit as clap's do: status 2.
        assert_eq!(p(&["verfiy"]).expect_err("unknown").exit_code(), 2);
    }

    #[test]
    fn report_takes_a_format_contracts_and_record_directories() {
        use racelab_core::report::jira::Format;
        assert_eq!(
            p(&["report", "--format", "jira", "dead-node"]).ok(),
            Some(Cmd::Report(super::Report {
                contracts: names(&["dead-node"]),
                from: vec![],
                format: Some(Format::Jira),
            }))
        );
        assert_eq!(
            p(&["report", "--format", "text"]).ok(),
            Some(Cmd::Report(super::Report {
                contracts: names(&[]),
                from: vec![],
                format: Some(Format::Text),
            }))
        );
        assert_eq!(
            p(&["report", "--from", "a", "b"]).ok(),
            Some(Cmd::Report(super::Report {
                contracts: names(&[]),
                from: vec!["a".into(), "b".into()],
                format: None,
            }))
        );
        let e = p(&["report", "--format", "html"]).expect_err("unknown format");
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert!(e.to_string().contains("jira, text"), "{e}");
        assert_eq!(kind(&["report", "--from"]), ErrorKind::InvalidValue);
        assert_eq!(kind(&["report", "nope"]), ErrorKind::InvalidValue);
    }

    #[test]
    fn help_is_everywhere() {
        assert_eq!(kind(&["--help"]), ErrorKind::DisplayHelp);
        assert_eq!(kind(&["verify", "--help"]), ErrorKind::DisplayHelp);
        assert_eq!(kind(&["fuzz", "-h"]), ErrorKind::DisplayHelp);
        assert_eq!(kind(&["help"]), ErrorKind::DisplayHelp);
        assert_eq!(kind(&["help", "bench"]), ErrorKind::DisplayHelp);
        assert_eq!(p(&["help"]).expect_err("help").exit_code(), 0);
    }

    #[test]
    fn help_keeps_the_usage_wording_and_lists_the_contracts() {
        let help = Cli::command().render_long_help().to_string();
        assert!(help.contains(&format!("contracts: {}", known().join(", "))));
        assert!(help.contains("test, then report: every check and the claims matrix"));
        let bench = p(&["bench", "--help"]).expect_err("help").to_string();
        assert!(
            bench.contains("with --gate: the CI gate (.ci/run) cold then warm"),
            "{bench}"
        );
    }

    #[test]
    fn explore_takes_cases_and_a_seed() {
        let r = |cases, seed| {
            Some(Cmd::Explore(crate::explore::Request {
                contract: "dead-node".into(),
                cases,
                seed,
            }))
        };
        assert_eq!(p(&["explore", "dead-node"]).ok(), r(None, None));
        assert_eq!(
            p(&["explore", "dead-node", "--cases", "9", "--seed", "7"]).ok(),
            r(Some(9), Some(7))
        );
        assert_eq!(
            p(&["explore", "dead-node", "--seed", "0"]).ok(),
            r(None, Some(0))
        );
        assert_eq!(
            kind(&["explore", "dead-node", "--cases", "x"]),
            ErrorKind::ValueValidation
        );
        assert_eq!(
            kind(&["explore", "dead-node", "--cases", "0"]),
            ErrorKind::ValueValidation
        );
        assert_eq!(
            kind(&["explore", "dead-node", "--fast"]),
            ErrorKind::UnknownArgument
        );
        assert_eq!(kind(&["explore"]), ErrorKind::MissingRequiredArgument);
        assert_eq!(kind(&["explore", "nope"]), ErrorKind::InvalidValue);
    }

    #[test]
    fn conformance_takes_a_repo() {
        assert_eq!(
            p(&["conformance"]).ok(),
            Some(Cmd::Conformance(crate::conformance::Request::default()))
        );
        assert_eq!(
            p(&["conformance", "--repo", "/tmp/m2"]).ok(),
            Some(Cmd::Conformance(crate::conformance::Request {
                repo: Some("/tmp/m2".into()),
                offline: false,
                negated: false
            }))
        );
        assert_eq!(kind(&["conformance", "--help"]), ErrorKind::DisplayHelp);
    }

    #[test]
    fn replay_takes_files() {
        assert_eq!(kind(&["replay"]), ErrorKind::MissingRequiredArgument);
        assert_eq!(
            p(&["replay", "a.scn"]).ok(),
            Some(Cmd::Replay {
                files: vec!["a.scn".into()]
            })
        );
    }

    #[test]
    fn the_scripted_and_documented_invocations_parse() {
        // .ci/run, .github/workflows, ci/tools and README.md run these.
        for line in [
            "test",
            "report",
            "report --format jira",
            "report --format jira reregister",
            "report --format text",
            "report --from a/plain b/loom-0 c/loom-1",
            "conformance --negated",
            "conformance --repo /tmp/m2 --offline",
            "fuzz dead-node 600",
            "fuzz leader-ready 300",
            "mutants dead-node",
            "bench",
            "bench --cold",
            "bench --cold --no-fuzz",
            "bench --gate --against main~1",
            "explore dead-node --cases 20000 --seed 7",
            "verify leader-ready",
            "bless dead-node",
            "new lost-update",
            "replay scenarios/leader-ready-step-down.scn",
            "readme",
        ] {
            let args: Vec<&str> = line.split(' ').collect();
            assert!(p(&args).is_ok(), "`cargo xtask {line}` does not parse");
        }
    }

    #[test]
    fn fuzz_takes_a_contract_and_seconds() {
        let fuzz = |seconds| {
            Some(Cmd::Fuzz {
                contract: "leader-ready".into(),
                seconds,
            })
        };
        assert_eq!(p(&["fuzz", "leader-ready"]).ok(), fuzz(60));
        assert_eq!(p(&["fuzz", "leader-ready", "5"]).ok(), fuzz(5));
        assert_eq!(p(&["fuzz", "leader-ready", "600"]).ok(), fuzz(600));
    }

    /// The command list main.rs's documentation gives is clap's: every subcommand once, in
    /// clap's order (`cargo xtask help` prints the same list).
    #[test]
    fn main_rs_lists_every_command() {
        let documented: Vec<String> = include_str!("main.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("//! - `cargo xtask "))
            .map(|l| l.split([' ', '`']).next().unwrap_or_default().to_string())
            .collect();
        let declared: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        assert_eq!(documented, declared);
        // docs/GUIDE.md's list: the second paragraph under "## Every command".
        let guide = include_str!("../../docs/GUIDE.md");
        let listed: Vec<String> = guide
            .split("## Every command")
            .nth(1)
            .and_then(|s| s.split("\n\n").nth(2))
            .unwrap_or_default()
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        assert_eq!(listed, declared, "docs/GUIDE.md's command list");
    }
}
