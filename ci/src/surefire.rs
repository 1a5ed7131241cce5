//! The Surefire XML reports of `conformance/`: each test case, how it ended, what its
//! `Premise.check` printed and the replay records (`[racelab] J ...`) it printed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

/// Runs a Maven command with its standard output and error in `log`.
pub fn run_logged(mvn: &mut Command, log: &Path) -> Result<ExitStatus, String> {
    if let Some(d) = log.parent() {
        let _ = std::fs::create_dir_all(d);
    }
    let file = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    mvn.stdout(file)
        .stderr(err)
        .status()
        .map_err(|e| format!("mvn: {e}"))
}

/// Where a module's Surefire reports are, unless a run names its own (`-Dracelab.reports`, the
/// root pom's property: the kept replays, which run beside the premises' run).
pub const REPORTS: &str = "target/surefire-reports";

/// The test cases of the Surefire reports of `modules` under `dir` (`<module>/<reports>/
/// TEST-*.xml`, in file order); a module without reports has none.
pub fn module_cases(dir: &Path, modules: &[&str], reports: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for module in modules {
        let reports = dir.join(module).join(reports);
        let Ok(entries) = std::fs::read_dir(&reports) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "xml")
                    && p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("TEST-"))
            })
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
            cases.extend(parse_surefire(&text));
        }
    }
    Ok(cases)
}

/// What one JUnit test case reported.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub class: String,
    pub name: String,
    pub seconds: f64,
    pub outcome: CaseOutcome,
    /// What `Premise.check` printed: `Some(true)` for "[racelab] holds:", `Some(false)` for
    /// "[racelab] does not hold:", `None` when the test never reached its check.
    pub observed: Option<bool>,
    /// The replay verdicts it printed (`[racelab] J ...`), one per row and outcome.
    pub records: Vec<JRecord>,
    /// `[racelab] J` lines that are not records (what is wrong with each).
    pub malformed: Vec<String>,
}

/// A replay's verdict on one row, as `racelab.conformance.Replay.record` prints it:
/// `[racelab] J <contract> <variant> <outcome> reached|not-reached parts=<P1+P2|-> replay=<id>
/// -- <observed>`.
#[derive(Clone, Debug, PartialEq)]
pub struct JRecord {
    /// Printed by the row run again with the fix layer off (`[racelab] J-off ...`).
    pub layer_off: bool,
    pub contract: String,
    pub variant: String,
    pub outcome: String,
    pub reached: bool,
    /// The parts the row switched on, baseline changes included.
    pub parts: Vec<String>,
    pub replay: String,
    pub observed: String,
}

impl JRecord {
    const PREFIX: &'static str = "[racelab] J";

    /// The record on `line`; `None` when the line is none, `Err` when it is malformed.
    pub fn parse(line: &str) -> Option<Result<JRecord, String>> {
        // Surefire writes the output in a CDATA section that starts on the first line and
        // ends on the last
        let at = line.find(Self::PREFIX)?;
        let rest = &line[at + Self::PREFIX.len()..];
        let (layer_off, rest) = match (rest.strip_prefix(' '), rest.strip_prefix("-off ")) {
            (Some(r), _) => (false, r),
            (_, Some(r)) => (true, r),
            _ => return None,
        };
        let rest = rest.split_once("]]>").map_or(rest, |(r, _)| r);
        let (head, observed) = rest.split_once(" -- ").unwrap_or((rest, ""));
        let words: Vec<&str> = head.split_whitespace().collect();
        let parsed = match words.as_slice() {
            [contract, variant, outcome, verdict, parts, replay] => {
                let reached = match *verdict {
                    "reached" => Ok(true),
                    "not-reached" => Ok(false),
                    v => Err(format!("verdict {v:?} is neither reached nor not-reached")),
                };
                let parts = parts.strip_prefix("parts=").ok_or("no parts=");
                let replay = replay.strip_prefix("replay=").ok_or("no replay=");
                match (reached, parts, replay) {
                    (Ok(reached), Ok(parts), Ok(replay)) => Ok(JRecord {
                        layer_off,
                        contract: contract.to_string(),
                        variant: variant.to_string(),
                        outcome: outcome.to_string(),
                        reached,
                        parts: match parts {
                            "-" => Vec::new(),
                            p => p.split('+').map(str::to_owned).collect(),
                        },
                        replay: replay.to_string(),
                        observed: observed.trim().to_owned(),
                    }),
                    (Err(e), _, _) => Err(e),
                    (_, Err(e), _) | (_, _, Err(e)) => Err(e.to_owned()),
                }
            }
            _ => Err("expected: contract variant outcome verdict parts=.. replay=..".to_owned()),
        };
        Some(parsed.map_err(|e| format!("{e}: {line:?}")))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum CaseOutcome {
    Passed,
    /// An assertion failed (for a premise test: the statement does not hold).
    Failed(String),
    /// The test threw: it could not check its statement.
    Error(String),
    Skipped,
}

/// A JUnit method's name, without a parameterized run's arguments and index
/// (`DN_O3_x(Row)[2]`).
pub fn method(name: &str) -> &str {
    name.split_once(['(', '[']).map_or(name, |(m, _)| m)
}

/// The `<testcase>` elements of a Surefire XML report. Surefire writes a fixed shape: each
/// test case is `<testcase name=".." classname=".." time="..">` with an optional `<failure`,
/// `<error` or `<skipped` child, or a self-closing element when it passed with no output.
pub fn parse_surefire(xml: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<testcase") {
        let after = &rest[start..];
        let head_end = match after.find('>') {
            Some(i) => i,
            None => break,
        };
        let head = &after[..head_end];
        let self_closing = head.ends_with('/');
        let body_end = if self_closing {
            head_end + 1
        } else {
            after
                .find("</testcase>")
                .map_or(after.len(), |i| i + "</testcase>".len())
        };
        let body = &after[head_end..body_end];
        let attrs = attributes(head);
        let outcome = if self_closing {
            CaseOutcome::Passed
        } else if let Some(i) = body.find("<failure") {
            CaseOutcome::Failed(message(&body[i..]))
        } else if let Some(i) = body.find("<error") {
            CaseOutcome::Error(message(&body[i..]))
        } else if body.contains("<skipped") {
            CaseOutcome::Skipped
        } else {
            CaseOutcome::Passed
        };
        let observed = match (
            body.find("[racelab] holds:"),
            body.find("[racelab] does not hold:"),
        ) {
            (Some(h), Some(n)) => Some(h < n),
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (None, None) => None,
        };
        let (records, malformed): (Vec<_>, Vec<_>) = body
            .lines()
            .filter_map(JRecord::parse)
            .partition(Result::is_ok);
        out.push(Case {
            records: records.into_iter().flatten().collect(),
            malformed: malformed.into_iter().filter_map(Result::err).collect(),
            class: attrs.get("classname").cloned().unwrap_or_default(),
            name: attrs.get("name").cloned().unwrap_or_default(),
            seconds: attrs
                .get("time")
                .and_then(|t| t.replace(',', "").parse().ok())
                .unwrap_or(0.0),
            outcome,
            observed,
        });
        rest = &after[body_end..];
    }
    out
}

/// The `message` attribute of the element starting `elem`, or its type when it has none.
fn message(elem: &str) -> String {
    let head = &elem[..elem.find('>').unwrap_or(elem.len())];
    let a = attributes(head);
    a.get("message")
        .or_else(|| a.get("type"))
        .cloned()
        .unwrap_or_default()
}

fn attributes(head: &str) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    let mut s = head;
    while let Some(eq) = s.find("=\"") {
        let key = s[..eq]
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_owned();
        let v = &s[eq + 2..];
        let Some(end) = v.find('"') else { break };
        m.insert(key, unescape(&v[..end]));
        s = &v[end + 1..];
    }
    m
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#10;", "\n")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="x" tests="4">
  <testcase name="RR_P1_schedulerOverwritesPendingFbr" classname="a.B" time="0.024"/>
  <testcase name="RR_P7_processReport" classname="a.C" time="2.5">
    <failure message="premise does not hold: &quot;x&quot; &amp; y" type="org.opentest4j.AssertionFailedError"><![CDATA[trace]]></failure>
    <system-out><![CDATA[[racelab] does not hold: x -- observed: y]]></system-out>
  </testcase>
  <testcase name="LR_P3_x" classname="a.D" time="1,234.5">
    <error message="boom" type="java.lang.NullPointerException">trace</error>
  </testcase>
  <testcase name="DN_P1_y" classname="a.E" time="0.1">
    <system-out><![CDATA[[racelab] holds: y -- observed: z]]></system-out>
  </testcase>
</testsuite>"#;

    #[test]
    fn surefire_cases_are_read() {
        let c = parse_surefire(XML);
        assert_eq!(c.len(), 4);
        assert_eq!(c[0].name, "RR_P1_schedulerOverwritesPendingFbr");
        assert_eq!(c[0].class, "a.B");
        assert_eq!(c[0].outcome, CaseOutcome::Passed);
        assert_eq!(
            c[1].outcome,
            CaseOutcome::Failed("premise does not hold: \"x\" & y".into())
        );
        assert_eq!(c[2].outcome, CaseOutcome::Error("boom".into()));
        assert_eq!(c[2].seconds, 1234.5);
        assert_eq!(c[3].outcome, CaseOutcome::Passed);
        let seen: Vec<_> = c.iter().map(|c| c.observed).collect();
        assert_eq!(seen, [None, Some(false), None, Some(true)]);
    }

    #[test]
    fn records_are_parsed() {
        let r = JRecord::parse(
            "[racelab] J reregister trunk+P1 O3 not-reached parts=HDFS-17953+P1 replay=RR_O3 \
             -- pending=[] fbr=none",
        )
        .expect("a record")
        .expect("well formed");
        assert_eq!(
            r,
            JRecord {
                layer_off: false,
                contract: "reregister".into(),
                variant: "trunk+P1".into(),
                outcome: "O3".into(),
                reached: false,
                parts: vec!["HDFS-17953".into(), "P1".into()],
                replay: "RR_O3".into(),
                observed: "pending=[] fbr=none".into(),
            }
        );
        let none =
            JRecord::parse("[racelab] J leader-ready upstream O1 reached parts=- replay=LR_O1")
                .expect("a record")
                .expect("well formed");
        assert!(none.parts.is_empty() && none.observed.is_empty());
        let off =
            JRecord::parse("[racelab] J-off leader-ready P1 O1 reached parts=P1 replay=LR_O1")
                .expect("a record")
                .expect("well formed");
        assert!(off.layer_off && off.reached);
        assert!(JRecord::parse("[racelab] holds: x").is_none());
        assert!(JRecord::parse("[racelab] Jx leader-ready").is_none());
    }
}
