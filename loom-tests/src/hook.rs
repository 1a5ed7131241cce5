//! The panic hook, and what it needs to know about the exploration in progress.
//!
//! loom reports what it finds by panicking: a data race as a causality violation, a deadlock
//! as a panic right before it aborts the process; the runner stops an exploration by panicking
//! itself ([`ALL_FOUND`]). These are results, not failures, so the hook keeps them off stderr,
//! and in a deadlock cell's child process ([`crate::child`]) it prints the result for the
//! parent before loom aborts.

use crate::child::{CHILD_ENV, CHILD_RESULT};
use racelab_core::trace::Trace;
use std::cell::RefCell;
use std::panic;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Once};

/// loom's message for two unordered accesses to an `UnsafeCell`.
pub(crate) const CAUSALITY: &str = "Causality violation";
/// loom's message when no thread can run.
const DEADLOCK: &str = "deadlock; threads = ";
/// The runner's stop once every outcome of an exploration has been found.
pub(crate) const ALL_FOUND: &str = "racelab: every outcome found";

/// The exploration in progress on this thread: its execution counter, its recorder and its
/// actors by loom thread id, for the hook to report a deadlock before loom aborts.
pub(crate) struct Current {
    pub executions: Arc<AtomicU64>,
    pub trace: Trace,
    pub actors: Vec<&'static str>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// Sets (or, with `None`, clears) this thread's exploration in progress.
pub(crate) fn set_current(current: Option<Current>) {
    CURRENT.with(|c| *c.borrow_mut() = current);
}

/// Names the actors of the execution starting on this thread, by loom thread id.
pub(crate) fn set_actors(names: Vec<&'static str>) {
    CURRENT.with(|c| {
        if let Some(current) = c.borrow_mut().as_mut() {
            current.actors = names;
        }
    });
}

/// A panic's message, or a placeholder for a payload that is not text.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Installs the hook, once per process.
pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            if message.starts_with(DEADLOCK) && std::env::var_os(CHILD_ENV).is_some() {
                report_deadlock(message);
            }
            if !message.contains(CAUSALITY) && message != ALL_FOUND {
                default(info);
            }
        }));
    });
}

/// Prints the deadlock's result for the parent: the executions, the blocked actors, and the
/// timeline up to the deadlock.
fn report_deadlock(message: &str) {
    CURRENT.with(|c| {
        let Ok(current) = c.try_borrow() else {
            return;
        };
        let Some(Current {
            executions,
            trace,
            actors,
        }) = current.as_ref()
        else {
            return;
        };
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
                    actors
                        .get(n)
                        .map_or(format!("thread {n}"), |a| a.to_string()),
                )
            })
            .collect();
        for e in trace.events() {
            println!("racelab-event: {}\t{}\t{}", e.actor, e.method, e.detail);
        }
        println!(
            "{CHILD_RESULT}deadlock {} {}",
            executions.load(Ordering::Relaxed),
            blocked.join(", ")
        );
    });
}
