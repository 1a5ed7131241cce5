//! `cargo xtask search`: the searches of the real code, Fray's and Lincheck's, each without
//! latches on the released classes and on every row the fix layer expresses. Too slow for the
//! gate: the scheduled workflow runs them, one contract per job. Each search writes a record
//! (`racelab.search.Tally`, `conformance/<module>/target/racelab-searches/`); this command
//! gathers them into `target/racelab/searches.json`, and with `--keep` into the committed
//! `conformance/searches.json`, which the report shows when no newer search ran here.

use crate::phases::root;
use crate::surefire::{module_cases, run_logged, CaseOutcome};
use clap::{Args, ValueEnum};
use racelab_core::report::searches::{KeptReplay, SearchRecord, Searched};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// A controlled scheduler the searches run under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Tool {
    /// Fray: interleaves at locks, thread starts and joins (JDK 25, profile `fray`)
    Fray,
    /// Lincheck: interleaves at plain-field and collection accesses too (profile `lincheck`)
    Lincheck,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Fray => "fray",
            Tool::Lincheck => "lincheck",
        }
    }

    /// How its test classes begin (`LincheckSearchReregisterO5Test`, `LincheckKept...`).
    fn class_prefix(self) -> &'static str {
        match self {
            Tool::Fray => "Fray",
            Tool::Lincheck => "Lincheck",
        }
    }

    /// The classes `cargo xtask search` runs: Lincheck's searches and its kept schedules' replays;
    /// Fray's searches alone. The gate replays the kept schedules of both tools; Fray's of
    /// recon-sync O8 still miss their outcome now and then (conformance/README.md, "Second
    /// look": identity hashes and GC in the JDK's own tables, which Fray does not control), so
    /// that class runs only when asked (`-Dracelab.fray.kept.nondeterministic=true`).
    fn searched(self, contract: Option<&str>) -> String {
        let camel = contract.map_or(String::new(), camel);
        match self {
            Tool::Fray => format!("FraySearch{camel}*Test"),
            Tool::Lincheck if camel.is_empty() => "Lincheck*Test".into(),
            Tool::Lincheck => format!("Lincheck*{camel}*Test"),
        }
    }

    /// The search classes of one outcome (`--only O1`: `FraySearchDeadNodeO1Test`), no kept
    /// replays: the class names end in the outcomes they search.
    fn searched_only(self, contract: Option<&str>, outcome: &str) -> String {
        let camel = contract.map_or("*".to_string(), camel);
        format!("{}Search{camel}{outcome}Test", self.class_prefix())
    }
}

#[derive(Debug, PartialEq, Args)]
pub struct Request {
    /// the tools whose searches run (both by default)
    #[arg(long, value_enum)]
    pub tool: Vec<Tool>,
    /// runs per search and row: Lincheck's invocations (200 when not given), Fray's iterations
    /// (at most the search's own count, 200); a fixed count keeps a record independent of the
    /// machine's load, where a time budget is not
    #[arg(long, value_name = "N", value_parser = crate::args::positive)]
    pub runs: Option<u64>,
    /// Fray's time budget per search and fix row, in seconds (when not given, all iterations
    /// of each row run; the upstream row always runs all of its)
    #[arg(long, value_name = "S", value_parser = crate::args::positive)]
    pub seconds: Option<u64>,
    /// also write the records to conformance/searches.json, which is committed: they replace
    /// the committed records of the tools and contracts searched, and the others stay
    #[arg(long)]
    pub keep: bool,
    /// only the search classes of these outcomes (`O1`, `R2`: `FraySearchDeadNodeO1Test`, ...);
    /// with --keep they replace the committed records of the searches they wrote and no other
    #[arg(long, value_name = "OUTCOME", value_delimiter = ',')]
    pub only: Vec<String>,
    /// the contracts whose searches run (all by default)
    #[arg(value_name = "CONTRACT", value_parser = crate::args::contract())]
    pub contracts: Vec<String>,
}

/// The searches' records: this machine's last run (`target/racelab/searches.json`), else the
/// committed ones; `None` when there are neither.
pub fn load() -> Result<Option<Searched>, String> {
    match Searched::load(&root().join("target/racelab/searches.json"))? {
        Some(s) => Ok(Some(s)),
        None => Searched::load(&root().join("conformance/searches.json")),
    }
}

/// `racelab-search` for `reregister`: the contract as a test class names it.
fn camel(contract: &str) -> String {
    contract
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Where the searches of `module` write their records.
fn records_dir(module: &str) -> PathBuf {
    root()
        .join("conformance")
        .join(module)
        .join("target/racelab-searches")
}

/// The records under `dir`, sorted by search, variant and layer.
fn collect(dir: &Path, out: &mut Vec<SearchRecord>) -> Result<(), String> {
    let Ok(searches) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for search in searches.flatten() {
        for file in std::fs::read_dir(search.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = file.path();
            if path.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                out.push(
                    serde_json::from_str(&text)
                        .map_err(|e| format!("{}:{}: {e}", path.display(), e.line()))?,
                );
            }
        }
    }
    Ok(())
}

/// One tool's searches, through Maven; the log goes to `target/racelab/search-TOOL.log`.
fn maven(tool: Tool, req: &Request) -> Result<(), String> {
    let conformance = root().join("conformance");
    let mut c = Command::new("mvn");
    c.current_dir(&conformance)
        .args(["-q", "-B", "-ntp", "-Dstyle.color=never", "test"])
        .arg(format!("-P{}", tool.name()))
        .arg("-Dsurefire.failIfNoSpecifiedTests=false") // a contract's searches are in one module
        .arg("-Dracelab.forkTimeout=0"); // no limit on a test JVM: a search runs to its budget
    match tool {
        Tool::Fray => {
            c.env("JDK25_HOME", jdk25_for_fray(&[])?);
        }
        Tool::Lincheck => {}
    }
    c.args(["-pl", "hdfs,ozone"]);
    let contracts: Vec<Option<&str>> = if req.contracts.is_empty() {
        vec![None]
    } else {
        req.contracts.iter().map(|k| Some(k.as_str())).collect()
    };
    let classes: Vec<String> = contracts
        .iter()
        .flat_map(|&k| {
            if req.only.is_empty() {
                vec![tool.searched(k)]
            } else {
                req.only.iter().map(|o| tool.searched_only(k, o)).collect()
            }
        })
        .collect();
    c.arg(format!("-Dtest={}", classes.join(",")));
    match (tool, req.runs) {
        (Tool::Lincheck, Some(n)) => c.arg(format!("-Dracelab.lincheck.invocations={n}")),
        (Tool::Fray, Some(n)) => c.arg(format!("-Dracelab.search.runs={n}")),
        (_, None) => &mut c,
    };
    if let (Tool::Fray, Some(s)) = (tool, req.seconds) {
        c.arg(format!("-Dracelab.search.seconds={s}"));
    }
    let log = root().join(format!("target/racelab/search-{}.log", tool.name()));
    println!("== {} searches (log: {})", tool.name(), log.display());
    let status = run_logged(&mut c, &log)?;
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    for line in text.lines().filter(|l| l.starts_with("[racelab] S ")) {
        println!("  {}", &line["[racelab] S ".len()..]);
    }
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "the {} searches failed (exit {status}): an upstream search that reached nothing \
             fails its test; see {}",
            tool.name(),
            log.display()
        ))
    }
}

/// The kept schedules' replays of `tool` (`<Tool>Kept*Test`, under its profile), through Maven;
/// `Err` when Maven could not run them at all.
fn replay_kept(tool: Tool, offline: bool, repo: Option<&Path>) -> Result<Vec<KeptReplay>, String> {
    let conformance = root().join("conformance");
    let reports = format!("target/kept-{}-reports", tool.name());
    let mut c = Command::new("mvn");
    c.current_dir(&conformance)
        .args(["-q", "-B", "-ntp", "-Dstyle.color=never", "test"])
        .arg(format!("-P{}", tool.name()))
        .arg(format!("-Dtest={}Kept*Test", tool.class_prefix()))
        .arg("-Dsurefire.failIfNoSpecifiedTests=false")
        // a kept replay that fails is a result, read from the reports
        .arg("-Dmaven.test.failure.ignore=true")
        // reports of its own: the premises' run writes the modules' own at the same time
        .arg(format!("-Dracelab.reports={reports}"));
    if offline {
        c.arg("-o");
    }
    if let Some(repo) = repo {
        c.arg(format!("-Dmaven.repo.local={}", repo.display()));
    }
    if tool == Tool::Fray {
        let mut options = Vec::new();
        options.extend(offline.then(|| "-o".to_string()));
        options.extend(repo.map(|r| format!("-Dmaven.repo.local={}", r.display())));
        c.env("JDK25_HOME", jdk25_for_fray(&options)?);
    }
    // both tools keep schedules in both modules (Fray's in hdfs: reregister's); the modules
    // side by side, as the premises' run: each replays its own classes
    let modules = ["hdfs", "ozone"];
    c.args(["-pl", &modules.join(","), "-T", "2"]);
    for m in &modules {
        let _ = std::fs::remove_dir_all(conformance.join(m).join(&reports));
    }
    let log = root().join(format!("target/racelab/kept-{}.log", tool.name()));
    let status = run_logged(&mut c, &log)?;
    if !status.success() {
        return Err(format!(
            "the {} kept schedules could not be replayed (mvn exit {status}); see {}",
            tool.name(),
            log.display()
        ));
    }
    let cases = module_cases(&conformance, &modules, &reports)?;
    if cases.is_empty() {
        return Err(format!(
            "no {}Kept*Test ran; see {}",
            tool.class_prefix(),
            log.display()
        ));
    }
    Ok(cases
        .into_iter()
        .filter_map(|c| {
            let detail = match &c.outcome {
                // a class that runs only when asked (a schedule that does not replay
                // deterministically) is no replay
                CaseOutcome::Skipped => return None,
                CaseOutcome::Passed => None,
                CaseOutcome::Failed(m) | CaseOutcome::Error(m) => Some(m.clone()),
            };
            Some(KeptReplay {
                tool: tool.name().into(),
                test: format!("{}#{}", c.class, c.name),
                passed: detail.is_none(),
                seconds: c.seconds,
                detail,
            })
        })
        .collect())
}

/// The kept schedules of `tools` replayed, for the gate: the replays, and the problems (a
/// replay that did not reach its outcome again, or a tool that could not run).
pub fn replay_all_kept(
    tools: &[Tool],
    offline: bool,
    repo: Option<&Path>,
) -> (Vec<KeptReplay>, Vec<String>) {
    let (mut replays, mut problems) = (Vec::new(), Vec::new());
    // the kept Fray schedules that do not reach their outcome in every replay (recon-sync O8,
    // see `Tool::searched`) run only when asked (`racelab.fray.kept.nondeterministic`):
    // skipped here
    for &tool in tools {
        match replay_kept(tool, offline, repo) {
            Ok(r) => replays.extend(r),
            Err(e) => problems.push(e),
        }
    }
    for r in replays.iter().filter(|r| !r.passed) {
        problems.push(format!(
            "kept schedule {} ({}) did not reach its outcome again: {}",
            r.test,
            r.tool,
            r.detail.as_deref().unwrap_or_default()
        ));
    }
    (replays, problems)
}

/// A `JDK25_HOME` Fray's prepare-fray can link from (`conformance/tools/jdk25-for-fray.sh`),
/// with its instrumented JDK linked once per machine (`conformance/tools/fray-java.sh`, by a
/// Maven run with `maven_options` when none is cached), where each clean clone linked it again.
fn jdk25_for_fray(maven_options: &[String]) -> Result<String, String> {
    let tools = root().join("conformance/tools");
    let script = |name: &str, args: &[String]| -> Result<String, String> {
        let out = Command::new(tools.join(name))
            .args(args)
            .output()
            .map_err(|e| format!("tools/{name}: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            Err(format!(
                "Fray needs a JDK 25 and its instrumented link (tools/{name}: {})",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    let jdk25 = script("jdk25-for-fray.sh", &[])?;
    let args: Vec<String> = std::iter::once(jdk25.clone())
        .chain(maven_options.iter().cloned())
        .collect();
    script("fray-java.sh", &args)?;
    Ok(jdk25)
}

/// The commit checked out, when git can tell.
fn head() -> Option<String> {
    let out = Command::new("git")
        .current_dir(root())
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `records` sorted by contract, search, row and layer, with the commits they were searched at.
fn searched(mut records: Vec<SearchRecord>) -> Searched {
    records.sort_by(|a, b| {
        (&a.contract, &a.search, &a.variant, a.layer_off).cmp(&(
            &b.contract,
            &b.search,
            &b.variant,
            b.layer_off,
        ))
    });
    let commits: std::collections::BTreeSet<&str> =
        records.iter().filter_map(|r| r.commit.as_deref()).collect();
    let provenance = match commits.len() {
        0 => "searched by cargo xtask search".to_string(),
        1 => format!(
            "searched at commit {} by cargo xtask search",
            commits.first().expect("one")
        ),
        _ => format!(
            "searched by cargo xtask search at commits {} (each record names its own)",
            commits.into_iter().collect::<Vec<_>>().join(", ")
        ),
    };
    Searched {
        provenance: Some(provenance),
        records,
    }
}

/// The committed records `kept`, where this run's replace those of the tools and contracts it
/// searched (every contract when none was named).
fn kept_with(
    kept: Option<Searched>,
    this_run: &Searched,
    tools: &[Tool],
    contracts: &[String],
    only: bool,
) -> Searched {
    // with --only, a committed record is replaced only by a record of its own search
    let ran: std::collections::BTreeSet<(&str, &str)> = this_run
        .records
        .iter()
        .map(|r| (r.tool.as_str(), r.search.as_str()))
        .collect();
    let searched_now = |r: &SearchRecord| {
        tools.iter().any(|t| t.name() == r.tool)
            && (contracts.is_empty() || contracts.contains(&r.contract))
            && (!only || ran.contains(&(r.tool.as_str(), r.search.as_str())))
    };
    let others = kept.into_iter().flat_map(|s| s.records);
    searched(
        others
            .filter(|r| !searched_now(r))
            .chain(this_run.records.iter().cloned())
            .collect(),
    )
}

pub fn run(req: &Request) -> ExitCode {
    let tools = if req.tool.is_empty() {
        vec![Tool::Fray, Tool::Lincheck]
    } else {
        req.tool.clone()
    };
    // the commit the searches run at (read before they run: the tree may move meanwhile)
    let commit = head();
    for module in ["hdfs", "ozone"] {
        let _ = std::fs::remove_dir_all(records_dir(module));
    }
    let mut failed = Vec::new();
    for &tool in &tools {
        if let Err(e) = maven(tool, req) {
            failed.push(e);
        }
    }
    let mut records = Vec::new();
    for module in ["hdfs", "ozone"] {
        if let Err(e) = collect(&records_dir(module), &mut records) {
            failed.push(e);
        }
    }
    for r in &mut records {
        r.commit.clone_from(&commit);
    }
    let this_run = searched(records);
    let mut outs = vec![(
        root().join("target/racelab/searches.json"),
        this_run.clone(),
    )];
    if req.keep {
        // the committed records of what this run did not search stay, each with its commit
        let path = root().join("conformance/searches.json");
        match Searched::load(&path) {
            Ok(kept) => {
                let merged = kept_with(
                    kept,
                    &this_run,
                    &tools,
                    &req.contracts,
                    !req.only.is_empty(),
                );
                outs.push((path, merged));
            }
            Err(e) => failed.push(e),
        }
    }
    for (out, s) in &outs {
        let json = serde_json::to_string_pretty(s).expect("records serialize") + "\n";
        if let Err(e) = std::fs::write(out, &json) {
            failed.push(format!("{}: {e}", out.display()));
        }
    }
    println!(
        "{} records written to {}",
        this_run.records.len(),
        outs.iter()
            .map(|(p, _)| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    );
    for e in &failed {
        eprintln!("error: {e}");
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(tool: &str, contract: &str, variant: &str, commit: &str) -> SearchRecord {
        SearchRecord {
            search: "X_O1".into(),
            tool: tool.into(),
            contract: contract.into(),
            variant: variant.into(),
            parts: "-".into(),
            layer_off: false,
            outcome: "O1".into(),
            runs: 10,
            reached: 1,
            first_run: Some(3),
            first_seconds: None,
            seconds: None,
            failures: vec![],
            commit: Some(commit.into()),
        }
    }

    #[test]
    fn a_kept_search_replaces_only_the_records_of_what_it_searched() {
        let kept = searched(vec![
            record("fray", "leader-ready", "upstream", "aaa"),
            record("fray", "dead-node", "upstream", "aaa"),
            record("lincheck", "dead-node", "upstream", "aaa"),
        ]);
        let now = searched(vec![record("fray", "dead-node", "P1", "bbb")]);
        let merged = kept_with(
            Some(kept),
            &now,
            &[Tool::Fray],
            &["dead-node".into()],
            false,
        );
        let rows: Vec<(&str, &str, &str, &str)> = merged
            .records
            .iter()
            .map(|r| {
                let commit = r.commit.as_deref().unwrap_or("-");
                (
                    r.tool.as_str(),
                    r.contract.as_str(),
                    r.variant.as_str(),
                    commit,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("fray", "dead-node", "P1", "bbb"),
                ("lincheck", "dead-node", "upstream", "aaa"),
                ("fray", "leader-ready", "upstream", "aaa"),
            ]
        );
        assert_eq!(
            merged.provenance.as_deref(),
            Some("searched by cargo xtask search at commits aaa, bbb (each record names its own)")
        );
        // nothing named: every contract of the tools searched is replaced
        let all = kept_with(Some(merged), &now, &[Tool::Fray], &[], false);
        assert_eq!(all.records.len(), 2);
    }

    #[test]
    fn a_search_of_some_outcomes_replaces_only_their_records() {
        let mut o2 = record("fray", "dead-node", "upstream", "aaa");
        o2.search = "DN_O2".into();
        let kept = searched(vec![
            o2,
            record("fray", "dead-node", "upstream", "aaa"),
            record("fray", "leader-ready", "upstream", "aaa"),
        ]);
        let now = searched(vec![record("fray", "dead-node", "P1", "bbb")]);
        let merged = kept_with(Some(kept), &now, &[Tool::Fray], &["dead-node".into()], true);
        let rows: Vec<(&str, &str, &str)> = merged
            .records
            .iter()
            .map(|r| {
                let commit = r.commit.as_deref().unwrap_or("-");
                (r.search.as_str(), r.variant.as_str(), commit)
            })
            .collect();
        // dead-node's X_O1 upstream record goes with its search (rows not searched again are
        // dropped, as without --only); DN_O2 and leader-ready's X_O1 (the last) stay
        assert_eq!(
            rows,
            [
                ("DN_O2", "upstream", "aaa"),
                ("X_O1", "P1", "bbb"),
                ("X_O1", "upstream", "aaa"),
            ]
        );
        assert_eq!(
            Tool::Fray.searched_only(Some("dead-node"), "R2"),
            "FraySearchDeadNodeR2Test"
        );
        assert_eq!(
            Tool::Lincheck.searched_only(None, "O10"),
            "LincheckSearch*O10Test"
        );
    }

    #[test]
    fn a_contract_is_named_as_its_test_classes_name_it() {
        assert_eq!(camel("leader-ready"), "LeaderReady");
        assert_eq!(camel("reregister"), "Reregister");
    }
}
