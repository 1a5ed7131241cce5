//! Deadlock cells run in a child process: loom aborts the process that finds a deadlock. The
//! parent re-runs its own test binary with [`CHILD_ENV`] naming the cell; the child explores
//! it and prints its result, which on a deadlock the panic hook ([`crate::hook`]) has it print
//! before loom aborts.

use crate::explore::{explore, Exploration};
use crate::hook::{self, Current, DEADLOCK};
use racelab_core::claims::{Claim, Verdict};
use racelab_core::model::Model;
use racelab_core::trace::{violation, Timeline};
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The environment variable that makes a loom test binary explore one deadlock cell and exit.
pub const CHILD_ENV: &str = "RACELAB_LOOM_CHILD";
const CHILD_RESULT: &str = "racelab-child: ";

/// In a child process: explores the loom cell `key` and prints its result for the parent. On a
/// deadlock loom aborts the process; the panic hook prints the result first.
pub fn child_main<M: Model>(claim: &Claim<M>) -> ! {
    let (scenario, bound) = claim
        .method
        .loom_scenario()
        .expect("a child explores a loom cell");
    hook::on_deadlock(report_deadlock);
    let e = explore(scenario, claim.fix(), claim.outcome, bound, claim.expected);
    let hash = e
        .final_states_hash
        .expect("an unreachable exploration hashes its final states");
    println!("{CHILD_RESULT}unreachable {} {hash:016x}", e.executions);
    std::process::exit(0)
}

/// Explores a deadlock cell in a child process (loom aborts the process that finds one):
/// re-runs this test binary with [`CHILD_ENV`] naming the cell.
pub fn explore_in_child<M: Model>(claim: &Claim<M>) -> Result<Exploration, String> {
    let started = Instant::now();
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the test binary: {e}"))?;
    let out = std::process::Command::new(exe)
        .env(CHILD_ENV, claim.key())
        .env("RUST_BACKTRACE", "0")
        .output()
        .map_err(|e| format!("cannot run the child: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let seconds = started.elapsed().as_secs_f64();
    let result = stdout
        .lines()
        .find_map(|l| l.strip_prefix(CHILD_RESULT))
        .ok_or_else(|| {
            format!(
                "the child exploring {} reported nothing ({}):\n{}{}",
                claim.key(),
                out.status,
                stdout,
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
    let mut words = result.splitn(3, ' ');
    let (verdict, executions) = (words.next(), words.next().and_then(|n| n.parse().ok()));
    let executions = executions.ok_or(format!("bad child result {result:?}"))?;
    match verdict {
        Some("unreachable") if out.status.success() => Ok(Exploration {
            observed: Verdict::Unreachable,
            executions,
            seconds,
            counterexample: None,
            final_states: BTreeSet::new(),
            final_states_hash: Some(
                words
                    .next()
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .ok_or(format!(
                        "bad child result {result:?}: no final states' hash"
                    ))?,
            ),
            explored_by: None,
        }),
        Some("deadlock") => {
            let blocked = words.next().unwrap_or_default();
            let events = stdout
                .lines()
                .filter_map(|l| l.strip_prefix("racelab-event: "))
                .filter_map(|l| {
                    let mut f = l.splitn(3, '\t');
                    Some(racelab_core::trace::Event {
                        actor: leak(f.next()?),
                        method: leak(f.next()?),
                        detail: f.next()?.to_owned(),
                    })
                })
                .collect();
            Ok(Exploration {
                observed: Verdict::Reachable,
                executions,
                seconds,
                final_states: BTreeSet::new(),
                final_states_hash: None,
                explored_by: None,
                counterexample: Some(Timeline {
                    events,
                    violation: Some(violation(
                        claim.outcome.id,
                        &format!("deadlock: blocked {blocked}"),
                    )),
                }),
            })
        }
        _ => Err(format!("bad child result {result:?} ({})", out.status)),
    }
}

/// Actor and method names come back from the child as text; the timeline holds `&'static str`.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// Prints the deadlock's result for the parent: the executions, the blocked actors, and the
/// timeline up to the deadlock.
fn report_deadlock(message: &str, current: &Current) {
    // loom lists `(Id(n), State)` per thread; thread n runs the scenario's actor n.
    let blocked: Vec<String> = message
        .trim_start_matches(DEADLOCK)
        .split("), (")
        .filter(|t| t.contains("Blocked"))
        .filter_map(|t| {
            let n: usize = t
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse()
                .ok()?;
            Some(
                current
                    .actors
                    .get(n)
                    .map_or(format!("thread {n}"), |a| a.to_string()),
            )
        })
        .collect();
    for e in current.trace.events() {
        println!("racelab-event: {}\t{}\t{}", e.actor, e.method, e.detail);
    }
    println!(
        "{CHILD_RESULT}deadlock {} {}",
        current.executions.load(Ordering::Relaxed),
        blocked.join(", ")
    );
}
