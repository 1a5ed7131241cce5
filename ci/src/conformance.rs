//! `cargo xtask conformance`: the models' premises checked on the released jars.
//!
//! Runs `mvn test` in `conformance/` (Hadoop 3.5.0 and Ozone 2.2.0, resolved by Maven, the two
//! modules side by side with `-T 2`), reads the Surefire reports into one result per premise of
//! [`racelab_core::premises`] (held, broken or not run). Every premise test ends in
//! `Premise.check(statement, holds, observed)`, which prints the observation before it asserts;
//! a result counts only when its test printed that observation and ended as it says (passed on
//! "holds", failed on "does not hold"): the result is then decided by the check, whose negation
//! (`-Dracelab.negate=true`) gives the opposite. `--negated` runs the whole suite a second time
//! negated and requires every result to flip (the scheduled workflow does). Writes
//! `target/racelab/conformance.json`. Exits 1 when a premise is broken, a test errs or does not
//! reach its check, or (with `--negated`) a result does not flip; 0 with "skipped: java/mvn not
//! found" when Java or Maven is absent.

use crate::phases::root;
use crate::search::Tool;
use crate::surefire::{method, Case, CaseOutcome, REPORTS};
use racelab_core::premises::Premise;
use racelab_core::registry;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// Options of `cargo xtask conformance`.
#[derive(Debug, Default, PartialEq, clap::Args)]
pub struct Request {
    /// Maven's local repository (-Dmaven.repo.local), e.g. a fresh one for a cold measurement
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// mvn -o (every artifact already in the local repository)
    #[arg(long)]
    pub offline: bool,
    /// a second pass with every assertion negated; every result must flip
    #[arg(long)]
    pub negated: bool,
}

/// A premise's result, as `conformance.json` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    Held,
    Broken,
    NotRun,
}

#[derive(Debug, Serialize)]
pub struct PremiseResult {
    pub contract: &'static str,
    pub id: &'static str,
    pub upstream: &'static str,
    pub jar: &'static str,
    pub statement: &'static str,
    pub cells: &'static [&'static str],
    /// How the jar's method compares with the model's baseline.
    pub versus_baseline: &'static str,
    pub result: State,
    /// The test (`Class#method`), when there is one.
    pub test: Option<String>,
    /// The failure's message, an error, or why it did not run.
    pub detail: Option<String>,
    pub seconds: Option<f64>,
    /// Whether the result was decided by the test's `Premise.check` (it printed its
    /// observation and ended as that says), so that the negated check gives the opposite;
    /// `None` when the premise has no test or the test erred.
    pub decided_by_check: Option<bool>,
    /// Whether the negated pass gave the opposite result (a test that can fail); `None` when
    /// the premise has no test or the negated pass did not run (it runs with `--negated`).
    pub negation_flips: Option<bool>,
}

impl PremiseResult {
    /// Whether its premise says why no test can run it.
    fn has_reason(&self) -> bool {
        self.detail
            .as_deref()
            .is_some_and(|d| d.starts_with("cannot run: "))
    }
}

#[derive(Debug, Serialize)]
struct Report {
    skipped: Option<String>,
    premises: Vec<PremiseResult>,
    /// The J cells: each replay's verdict on a row, joined with its claim.
    real_cells: Vec<racelab_core::report::CellResult>,
    /// Test cases in the reports that no premise names.
    unlisted: Vec<String>,
    seconds_pass: f64,
    /// Each replay's rows again with every part off: the J cells whose verdict that changed.
    layer_off_changed: Vec<String>,
    /// `None` when the negated pass did not run (without `--negated`).
    seconds_negated: Option<f64>,
    /// Each replay row's trace, validated against its model.
    traces: Vec<crate::validate::Checked>,
    /// The replay rows with a J record and no validated trace, each with why.
    untraced: Vec<String>,
    /// The searches' kept schedules, replayed (each must reach its outcome again).
    kept: Vec<racelab_core::report::searches::KeptReplay>,
    /// The kept replays' time after `mvn test` ended (Lincheck's; Fray's run beside it).
    seconds_kept: Option<f64>,
}

/// `cargo xtask conformance`.
pub fn run(req: &Request) -> ExitCode {
    let dir = root().join("conformance");
    let out = root().join("target/racelab/conformance.json");
    if let Some(missing) = missing_tools() {
        println!("conformance: skipped: java/mvn not found ({missing})");
        write(
            &out,
            &Report {
                skipped: Some(format!("java/mvn not found ({missing})")),
                premises: Vec::new(),
                real_cells: Vec::new(),
                unlisted: Vec::new(),
                seconds_pass: 0.0,
                layer_off_changed: Vec::new(),
                seconds_negated: None,
                traces: Vec::new(),
                untraced: Vec::new(),
                kept: Vec::new(),
                seconds_kept: None,
            },
        );
        // Outside CI a machine without a JVM still verifies the models (the report says what
        // was not checked); CI must check the real code.
        if crate::phases::under_ci() {
            println!("conformance: FAILED: under CI (CI=true) the real code must be checked");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    // Compiled once first, so that the runs beside each other below compile nothing (a test
    // class rewritten while another JVM loads it): with the classes up to date, the kept
    // replays' profiles recompile nothing either (their Maven reports "Nothing to compile").
    println!("conformance: mvn test-compile in {}", dir.display());
    if let Err(e) = compile(&dir, req) {
        eprintln!("conformance: {e}");
        return ExitCode::FAILURE;
    }
    // Fray's kept schedules are replayed beside the premises' run, in a JVM of their own with
    // reports of their own: under Fray one thread runs at a time, and the premises' replays
    // mostly wait (latches, a Raft election), so the two share the cores. Lincheck's come
    // after it: its threads spin while they wait for their turn, and beside the premises' run
    // they spent the CPU the other phases wait for (the whole conformance phase took 223
    // CPU-seconds, where its three Maven runs one after the other took 155; 2026-12-06).
    println!("conformance: mvn test, beside it Fray's kept schedules replayed");
    let ((pass, seconds_pass), (mut kept, mut kept_problems)) = std::thread::scope(|s| {
        let fray = s.spawn(|| {
            crate::search::replay_all_kept(&[Tool::Fray], req.offline, req.repo.as_deref())
        });
        let t = Instant::now();
        let pass = maven(&dir, req, Pass::Plain);
        let pass = (pass, t.elapsed().as_secs_f64());
        let fray = fray.join().unwrap_or_else(|_| {
            (
                Vec::new(),
                vec!["the Fray kept schedules' replay panicked".to_string()],
            )
        });
        (pass, fray)
    });
    let pass = match pass {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("conformance: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("conformance: Lincheck's kept schedules replayed");
    let t = Instant::now();
    let (lincheck, problems) =
        crate::search::replay_all_kept(&[Tool::Lincheck], req.offline, req.repo.as_deref());
    kept.extend(lincheck);
    kept_problems.extend(problems);
    let seconds_kept = Some(t.elapsed().as_secs_f64());
    // The plain pass's traces, before the negated pass runs the replays again.
    println!("conformance: validating the replays' traces against the models");
    let mut traces = crate::validate::check(&crate::validate::default_dirs());
    let stale = crate::validate::stale(&traces);
    traces.extend(stale);
    let mut negated = None;
    let mut seconds_negated = None;
    if req.negated {
        println!("conformance: the same tests negated (-Dracelab.negate=true)");
        let t = Instant::now();
        negated = match maven(&dir, req, Pass::Negated) {
            Ok(cases) => Some(cases),
            Err(e) => {
                eprintln!("conformance: {e}");
                return ExitCode::FAILURE;
            }
        };
        seconds_negated = Some(t.elapsed().as_secs_f64());
    }

    let mut results = Vec::new();
    for (contract, list) in registry::premises() {
        for p in list {
            results.push(judge(contract, p, &pass, negated.as_deref()));
        }
    }
    let (real_cells, mut record_errors) = crate::real_cells::join(&registry::all(), &pass);
    // The fix layer mutated away: every replay ran each row again with its parts installed
    // but off.
    let layer_off = crate::real_cells::layer_off(&real_cells, &pass);
    record_errors.extend(layer_off.errors.iter().cloned());
    let untraced = crate::validate::untraced(&pass, &traces);
    let unlisted: Vec<String> = pass
        .iter()
        .filter(|c| {
            c.records.is_empty()
                && !is_harness_test(c)
                && !registry::premises()
                    .iter()
                    .any(|(_, ps)| ps.iter().any(|p| p.is_test(&c.name)))
        })
        .map(|c| format!("{}#{}", c.class, c.name))
        .collect();

    let mut bad = false;
    println!();
    for r in &results {
        let flip = match (r.decided_by_check, r.negation_flips) {
            (_, Some(false)) => "  NEGATION DID NOT FLIP",
            (Some(false), _) => "  NOT DECIDED BY ITS CHECK",
            _ => "",
        };
        let word = match r.result {
            State::Held => "held",
            State::Broken => "BROKEN",
            State::NotRun => "not run",
        };
        println!(
            "{:<20} {:<7} {:<30} {}{flip}",
            r.contract, r.id, r.jar, word
        );
        if r.result == State::Broken
            || r.negation_flips == Some(false)
            || r.decided_by_check == Some(false)
        {
            bad = true;
        }
        if r.result != State::Held {
            if let Some(d) = &r.detail {
                println!("    {}", first_line(d));
            }
            if r.result == State::Broken {
                println!("    deviating cells: {}", r.cells.join(", "));
            }
        }
        if r.result == State::NotRun && (r.test.is_some() || !r.has_reason()) {
            bad = true; // the test erred, or nothing says why it cannot run
        }
    }
    for u in &unlisted {
        println!("unlisted test (no premise names it): {u}");
    }
    for c in pass.iter().filter(|c| is_harness_test(c)) {
        if c.outcome != CaseOutcome::Passed {
            println!("the harness's own test failed: {}#{}", c.class, c.name);
            bad = true;
        }
    }
    for e in &record_errors {
        println!("J record: {e}");
        bad = true;
    }
    let reached = real_cells
        .iter()
        .filter(|c| c.observed == racelab_core::claims::Verdict::Reachable)
        .count();
    let deviating: Vec<String> = real_cells
        .iter()
        .filter(|c| c.observed != c.expected)
        .map(|c| {
            format!(
                "{} (claimed {}, observed {})",
                c.key(),
                c.expected,
                c.observed
            )
        })
        .collect();
    println!(
        "\nJ cells (replays on the released classes, each row's parts by the fix layer): {} \
         recorded, {reached} reached, {} not reached; {} deviate from their claim",
        real_cells.len(),
        real_cells.len() - reached,
        deviating.len()
    );
    for d in &deviating {
        println!("  deviates: {d}");
        bad = true;
    }
    println!(
        "with the fix layer off, every row gave the upstream row's verdict unless listed above: \
         {} fixed-row verdicts changed, so they are the advice's doing",
        layer_off.changed.len()
    );
    let validated = traces.iter().filter(|t| t.problem.is_none()).count();
    let diverge = traces.iter().filter(|t| t.diverges).count();
    let no_order = traces.iter().filter(|t| t.no_order).count();
    let declared = traces.iter().filter(|t| t.declared.is_some()).count();
    println!(
        "\ntraces of the replays checked against the models step by step: {} written, \
         {validated} validated, {diverge} diverge ({declared} as declared in UNVALIDATED), \
         {no_order} have no order in the model, {} cannot be read or are wrong",
        traces.len(),
        traces.len() - validated - (diverge - declared) - no_order - declared
    );
    for t in traces
        .iter()
        .filter(|t| t.problem.is_some() && !t.no_order && t.declared.is_none())
    {
        println!(
            "  {}: {}",
            t.row(),
            t.problem.as_deref().unwrap_or_default()
        );
        bad = true;
    }
    for u in &untraced {
        println!("  {u}");
        bad = bad || !u.starts_with("not validated");
    }
    println!(
        "\nkept schedules of the searches, replayed: {} of {} reached their outcome again",
        kept.iter().filter(|k| k.passed).count(),
        kept.len()
    );
    for p in &kept_problems {
        println!("  {p}");
        bad = true;
    }
    let count = |h: State| results.iter().filter(|r| r.result == h).count();
    let negated_note = match seconds_negated {
        Some(s) => format!("negated pass {s:.1} s, every result flipped unless listed above"),
        None => "negated pass not run (--negated runs it)".into(),
    };
    println!(
        "\nconformance: {} held, {} broken, {} not run; mvn {:.1} s, {negated_note}; {}",
        count(State::Held),
        count(State::Broken),
        count(State::NotRun),
        seconds_pass,
        out.display()
    );
    write(
        &out,
        &Report {
            skipped: None,
            premises: results,
            real_cells,
            unlisted,
            seconds_pass,
            layer_off_changed: layer_off.changed,
            seconds_negated,
            traces,
            untraced,
            kept,
            seconds_kept,
        },
    );
    if bad {
        println!(
            "conformance: FAILED (a premise is broken, a test erred or did not reach its check, \
             a J record is wrong, a negation did not flip, a trace diverges from its model, or a kept \
             schedule did not reach its outcome again)"
        );
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn write(out: &Path, report: &Report) {
    if let Some(d) = out.parent() {
        let _ = std::fs::create_dir_all(d);
    }
    let text = serde_json::to_string_pretty(report).expect("serializable");
    if let Err(e) = std::fs::write(out, text + "\n") {
        eprintln!("conformance: cannot write {}: {e}", out.display());
    }
}

/// `Some(name)` of the first tool that does not run.
fn missing_tools() -> Option<&'static str> {
    for (tool, arg) in [("java", "-version"), ("mvn", "-v")] {
        let ok = Command::new(tool)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return Some(tool);
        }
    }
    None
}

/// Which run of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    Plain,
    /// Every assertion negated (`--negated`).
    Negated,
}

/// One `mvn test` over both modules; the test cases of its Surefire reports.
fn maven(dir: &Path, req: &Request, pass: Pass) -> Result<Vec<Case>, String> {
    for module in ["hdfs", "ozone"] {
        let reports = dir.join(module).join(REPORTS);
        let _ = std::fs::remove_dir_all(&reports);
    }
    if let Pass::Plain = pass {
        // a trace is a run of this pass, never of an earlier one
        for d in crate::validate::default_dirs() {
            let _ = std::fs::remove_dir_all(&d);
        }
    }
    let mut c = mvn(dir, req);
    c.args([
        // the two modules (two JVMs) side by side
        "-T",
        "2",
        "test",
        // a premise that does not hold is a result: every module runs, the reports say
        "-Dracelab.testFailureIgnore=true",
    ]);
    match pass {
        Pass::Plain => {}
        Pass::Negated => {
            c.arg("-Dracelab.negate=true");
        }
    }
    let log = root().join(match pass {
        Pass::Plain => "target/racelab/conformance.log",
        Pass::Negated => "target/racelab/conformance-negated.log",
    });
    let status = crate::surefire::run_logged(&mut c, &log)?;
    if !status.success() {
        return Err(format!(
            "mvn test failed to build or resolve (exit {status}); see {}",
            log.display()
        ));
    }
    crate::surefire::module_cases(dir, &["hdfs", "ozone"], REPORTS)
}

/// `mvn test-compile` over both modules, its output in `target/racelab/compile.log`.
fn compile(dir: &Path, req: &Request) -> Result<(), String> {
    let mut c = mvn(dir, req);
    c.args(["-T", "2", "test-compile"]);
    let log = root().join("target/racelab/compile.log");
    let status = crate::surefire::run_logged(&mut c, &log)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "mvn test-compile failed to build or resolve (exit {status}); see {}",
            log.display()
        ))
    }
}

/// Maven in `dir`, quiet and with the request's repository options.
fn mvn(dir: &Path, req: &Request) -> Command {
    let mut c = Command::new("mvn");
    c.current_dir(dir)
        .args(["-q", "-B", "-ntp", "-Dstyle.color=never"]);
    if req.offline {
        c.arg("-o");
    }
    if let Some(repo) = &req.repo {
        c.arg(format!("-Dmaven.repo.local={}", repo.display()));
    }
    c
}

fn judge(
    contract: &'static str,
    p: &'static Premise,
    pass: &[Case],
    negated: Option<&[Case]>,
) -> PremiseResult {
    let mut r = PremiseResult {
        contract,
        id: p.id,
        upstream: p.upstream,
        jar: p.jar,
        statement: p.statement,
        cells: p.cells,
        versus_baseline: p.versus_baseline,
        result: State::NotRun,
        test: None,
        detail: Some(match p.not_run {
            Some(why) => format!("cannot run: {why}"),
            None => "no test in conformance/ names this premise, and it gives no reason".into(),
        }),
        seconds: None,
        decided_by_check: None,
        negation_flips: None,
    };
    let matching: Vec<&Case> = pass.iter().filter(|c| p.is_test(&c.name)).collect();
    let Some(&case) = matching.first() else {
        return r;
    };
    r.test = Some(format!("{}#{}", case.class, method(&case.name)));
    let mut methods: Vec<String> = matching
        .iter()
        .map(|c| format!("{}#{}", c.class, method(&c.name)))
        .collect();
    methods.dedup();
    if methods.len() > 1 {
        r.detail = Some(format!(
            "two tests are named by this premise's id: {}",
            methods.join(", ")
        ));
        r.decided_by_check = Some(false);
        return r;
    }
    if p.is_replay() {
        return judge_replay(r, &matching);
    }
    r.seconds = Some(case.seconds);
    let (result, detail) = match (&case.outcome, case.observed) {
        (CaseOutcome::Passed, _) => (State::Held, None),
        (CaseOutcome::Failed(m), Some(false)) => (State::Broken, Some(m.clone())),
        // an assertion of the harness (a wait that timed out), not the premise's check
        (CaseOutcome::Failed(m), _) => (
            State::NotRun,
            Some(format!("the test failed outside its Premise.check: {m}")),
        ),
        (CaseOutcome::Error(m), _) => (State::NotRun, Some(format!("the test erred: {m}"))),
        (CaseOutcome::Skipped, _) => (State::NotRun, Some("skipped".into())),
    };
    r.result = result;
    r.detail = detail;
    if result != State::NotRun {
        // held: passed on "holds" (the negated check fails); broken: failed on "does not
        // hold" (the negated check passes)
        let decided = case.observed == Some(result == State::Held);
        r.decided_by_check = Some(decided);
        if !decided {
            r.detail = Some(
                "the test passed without printing its Premise.check observation: it cannot fail"
                    .into(),
            );
        }
        if let Some(negated) = negated {
            r.negation_flips = Some(match negated.iter().find(|c| p.is_test(&c.name)) {
                Some(n) => matches!(
                    (&result, &n.outcome),
                    (State::Held, CaseOutcome::Failed(_)) | (State::Broken, CaseOutcome::Passed)
                ),
                None => false,
            });
        }
    }
    r
}

/// A test of the harness itself (the fix layer's `racelab.fix`, the searches' `racelab.search`):
/// it prints no record and no premise names it, and it must pass.
fn is_harness_test(c: &Case) -> bool {
    c.class.starts_with("racelab.fix.") || c.class.starts_with("racelab.search.")
}

/// A replay (`DN_O3`): held when every row's run ended and printed its records (its verdicts
/// are J cells, judged against their claims); not run when a run erred or printed none.
fn judge_replay(mut r: PremiseResult, runs: &[&Case]) -> PremiseResult {
    r.seconds = Some(runs.iter().map(|c| c.seconds).sum());
    let silent = runs
        .iter()
        .find(|c| c.outcome != CaseOutcome::Passed || c.records.is_empty());
    (r.result, r.detail, r.decided_by_check) = match silent {
        None => (State::Held, None, Some(true)),
        Some(c) => (
            State::NotRun,
            Some(match &c.outcome {
                CaseOutcome::Passed => format!("{}: printed no J record", c.name),
                CaseOutcome::Failed(m) | CaseOutcome::Error(m) => format!("{}: {m}", c.name),
                CaseOutcome::Skipped => format!("{}: skipped", c.name),
            }),
            Some(false),
        ),
    };
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surefire::JRecord;

    fn case(name: &str, outcome: CaseOutcome) -> Case {
        let observed = match outcome {
            CaseOutcome::Passed => Some(true),
            CaseOutcome::Failed(_) => Some(false),
            _ => None,
        };
        Case {
            class: "C".into(),
            name: name.into(),
            seconds: 0.0,
            outcome,
            observed,
            records: Vec::new(),
            malformed: Vec::new(),
        }
    }

    #[test]
    fn a_premise_is_judged_with_its_negation() {
        let p = &registry::premises()[4].1[0]; // RR_P1
        let held = [case("RR_P1_a", CaseOutcome::Passed)];
        let flipped = [case("RR_P1_a", CaseOutcome::Failed("neg".into()))];
        let r = judge("reregister", p, &held, Some(&flipped));
        assert_eq!((r.result, r.negation_flips), (State::Held, Some(true)));
        assert_eq!(r.decided_by_check, Some(true));
        let r = judge("reregister", p, &held, Some(&held));
        assert_eq!((r.result, r.negation_flips), (State::Held, Some(false)));
        let broken = [case("RR_P1_a", CaseOutcome::Failed("no".into()))];
        let r = judge("reregister", p, &broken, Some(&held));
        assert_eq!((r.result, r.negation_flips), (State::Broken, Some(true)));
        let erred = [case("RR_P1_a", CaseOutcome::Error("npe".into()))];
        let r = judge("reregister", p, &erred, Some(&erred));
        assert_eq!((r.result, r.negation_flips), (State::NotRun, None));
        let r = judge("reregister", p, &[], Some(&[]));
        assert_eq!((r.result, r.test), (State::NotRun, None));
        // without --negated: decided by the check, or not
        let r = judge("reregister", p, &held, None);
        assert_eq!(
            (r.result, r.decided_by_check, r.negation_flips),
            (State::Held, Some(true), None)
        );
        let mut silent = case("RR_P1_a", CaseOutcome::Passed);
        silent.observed = None;
        let r = judge("reregister", p, &[silent], None);
        assert_eq!((r.result, r.decided_by_check), (State::Held, Some(false)));
        // a harness assertion (no observation printed) is not a broken premise
        let mut timeout = case("RR_P1_a", CaseOutcome::Failed("timed out".into()));
        timeout.observed = None;
        let r = judge("reregister", p, &[timeout], None);
        assert_eq!(r.result, State::NotRun);
    }

    #[test]
    fn a_premise_two_tests_match_is_an_error() {
        let p = &registry::premises()[4].1[0]; // RR_P1
        let mut other = case("RR_P1_b", CaseOutcome::Passed);
        other.class = "D".into();
        let r = judge(
            "reregister",
            p,
            &[case("RR_P1_a", CaseOutcome::Passed), other],
            None,
        );
        assert_eq!((r.result, r.decided_by_check), (State::NotRun, Some(false)));
        assert_eq!(
            r.detail.as_deref(),
            Some("two tests are named by this premise's id: C#RR_P1_a, D#RR_P1_b")
        );
        // the runs of one parameterized test are one test
        let runs = [
            case("RR_P1_a(Row)[1]", CaseOutcome::Passed),
            case("RR_P1_a(Row)[2]", CaseOutcome::Passed),
        ];
        assert_eq!(judge("reregister", p, &runs, None).result, State::Held);
    }

    #[test]
    fn a_replay_holds_when_every_row_ran_and_recorded() {
        let p = registry::premises()
            .iter()
            .flat_map(|(_, ps)| ps.iter())
            .find(|p| p.is_replay())
            .expect("a replay");
        let name = format!("{}_x(Row)[1]", p.id);
        let mut ran = case(&name, CaseOutcome::Passed);
        ran.records.push(JRecord {
            layer_off: false,
            contract: String::new(),
            variant: "upstream".into(),
            outcome: "O1".into(),
            reached: true,
            parts: Vec::new(),
            replay: p.id.into(),
            observed: String::new(),
        });
        ran.observed = None;
        assert_eq!(judge("c", p, &[ran.clone()], None).result, State::Held);
        let mut silent = ran.clone();
        silent.records.clear();
        let r = judge("c", p, &[ran.clone(), silent], None);
        assert_eq!(r.result, State::NotRun);
        assert_eq!(r.detail, Some(format!("{name}: printed no J record")));
        let erred = case(&name, CaseOutcome::Error("latch timed out".into()));
        let r = judge("c", p, &[ran, erred], None);
        assert_eq!(r.result, State::NotRun);
        assert_eq!(r.detail, Some(format!("{name}: latch timed out")));
    }

    #[test]
    fn options() {
        use crate::args::parse_args;
        use clap::error::ErrorKind;
        assert_eq!(parse_args::<Request>(&[]).ok(), Some(Request::default()));
        assert_eq!(
            parse_args::<Request>(&["--repo", "/tmp/m2", "--offline"]).ok(),
            Some(Request {
                repo: Some("/tmp/m2".into()),
                offline: true,
                negated: false
            })
        );
        assert_eq!(
            parse_args::<Request>(&["--negated"]).ok(),
            Some(Request {
                negated: true,
                ..Request::default()
            })
        );
        let kind = |args: &[&str]| parse_args::<Request>(args).expect_err("invalid").kind();
        assert_eq!(kind(&["--repo"]), ErrorKind::InvalidValue);
        assert_eq!(kind(&["--fast"]), ErrorKind::UnknownArgument);
    }
}
