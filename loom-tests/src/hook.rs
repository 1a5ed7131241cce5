//! The panic hook, and what it needs to know about the exploration in progress.
//!
//! loom reports what it finds by panicking: a data race as a causality violation, a deadlock
//! as a panic right before it aborts the process; the runner stops an exploration by panicking
//! itself ([`ALL_FOUND`]). These are results, not failures, so the hook keeps them off stderr,
//! and in a deadlock cell's child process it hands the deadlock to the child's reporter
//! ([`on_deadlock`], set by [`crate::child`]) before loom aborts.

use racelab_core::trace::Trace;
use std::cell::RefCell;
use std::panic;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Once, OnceLock};

/// loom's message for two unordered accesses to an `UnsafeCell`.
pub(crate) const CAUSALITY: &str = "Causality violation";
/// loom's message when no thread can run.
pub(crate) const DEADLOCK: &str = "deadlock; threads = ";
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

/// What reports a deadlock (with loom's message and the exploration in progress) in a child
/// process, before loom aborts it.
type Reporter = fn(&str, &Current);
static ON_DEADLOCK: OnceLock<Reporter> = OnceLock::new();

/// Makes this process report a deadlock with `reporter`: the child process of a deadlock cell.
pub(crate) fn on_deadlock(reporter: Reporter) {
    ON_DEADLOCK.get_or_init(|| reporter);
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
            if let Some(report) = ON_DEADLOCK.get().filter(|_| message.starts_with(DEADLOCK)) {
                CURRENT.with(|c| {
                    if let Some(current) = c.try_borrow().ok().as_ref().and_then(|c| c.as_ref()) {
                        report(message, current);
                    }
                });
            }
            if !message.contains(CAUSALITY) && message != ALL_FOUND {
                default(info);
            }
        }));
    });
}
