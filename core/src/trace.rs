//! The domain timeline of one execution: which actor ran which upstream method, and what it
//! read and wrote.
//!
//! Recorded with real std primitives, never the loom shim: a recording is not a synchronization
//! point, so observing a model adds no interleavings. Steps record inside their critical
//! sections, so the order of events is the order in which the model's locks were taken.

use crate::sync::unseen::{Arc, Mutex, MutexGuard};
use std::cell::Cell;
use std::fmt;

/// One step of the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The upstream thread (or the model's name for it) that ran the step.
    pub actor: &'static str,
    /// The upstream class and method the step stands for, e.g. `SCMContext.setLeaderReady`.
    pub method: &'static str,
    /// Values read and written.
    pub detail: String,
}

/// A shared, append-only recorder, cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Trace(Arc<Mutex<Log>>);

/// The events of one execution, with every detail written into one buffer: an event costs no
/// allocation once the buffers have grown, and loom reuses them across executions (a String
/// per event, grown while formatting and freed on `clear`, was a tenth of the instructions of
/// a recording loom cell: callgrind, container-recreate P3+P7/O5).
#[derive(Debug, Default)]
struct Log {
    details: String,
    /// Actor, method, and where the event's detail is in `details`.
    events: Vec<(&'static str, &'static str, std::ops::Range<usize>)>,
}

impl Trace {
    pub fn new() -> Self {
        Self::default()
    }

    /// A recording context for one actor.
    pub fn actor(&self, actor: &'static str) -> Cx {
        Cx {
            actor,
            trace: self.clone(),
        }
    }

    fn record(&self, actor: &'static str, method: &'static str, detail: &dyn fmt::Display) {
        use fmt::Write;
        let mut log = self.log();
        let Log { details, events } = &mut *log;
        // A detail whose formatting panics leaves its part written and no event: the range
        // keeps that part out of the next event.
        let start = details.len();
        write!(details, "{detail}").expect("formatting into a String does not fail");
        events.push((actor, method, start..details.len()));
    }

    /// Forgets everything (loom reuses one recorder across executions).
    pub fn clear(&self) {
        let mut log = self.log();
        log.details.clear();
        log.events.clear();
    }

    pub fn events(&self) -> Vec<Event> {
        let log = self.log();
        log.events
            .iter()
            .map(|(actor, method, detail)| Event {
                actor,
                method,
                detail: log.details[detail.clone()].to_owned(),
            })
            .collect()
    }

    fn log(&self) -> MutexGuard<'_, Log> {
        self.0.lock()
    }
}

/// What a step needs to record itself: the actor running it and the timeline.
#[derive(Clone, Debug)]
pub struct Cx {
    pub actor: &'static str,
    trace: Trace,
}

impl Cx {
    /// Records a step of `method` (`Class.method`) with the values it read and wrote. The
    /// detail is formatted only while this thread records (see [`without_recording`]).
    #[inline(always)]
    pub fn record(&self, method: &'static str, detail: impl fmt::Display) {
        self.borrowed().record(method, detail);
    }

    pub fn borrowed(&self) -> CxRef<'_> {
        CxRef::new(&self.trace, self.actor)
    }
}

/// A [`Cx`], borrowed: an actor and the timeline, for steps that record under several actors
/// in turn (a client's write records as each member's RPC, chunk and apply threads) or once per
/// call (a container report). Making a `Cx` clones the timeline's `Arc`, two atomic operations,
/// which a fuzz run would pay on every step. It records exactly as `Cx` does.
#[derive(Clone, Copy, Debug)]
pub struct CxRef<'a> {
    trace: &'a Trace,
    actor: &'static str,
}

impl<'a> CxRef<'a> {
    pub fn new(trace: &'a Trace, actor: &'static str) -> Self {
        CxRef { trace, actor }
    }

    /// As [`Cx::record`]. The recording test is inlined and the write is not: a call site
    /// that records nothing skips the formatting code, and whatever of its arguments the
    /// optimizer can sink into the test. Use [`record!`](crate::record) where an argument
    /// must not be computed at all when nothing records.
    #[inline(always)]
    pub fn record(&self, method: &'static str, detail: impl fmt::Display) {
        if recording() {
            self.write(method, &detail);
        }
    }

    #[inline(never)]
    fn write(&self, method: &'static str, detail: &dyn fmt::Display) {
        if ONLY.with(Cell::get).is_none_or(|only| only == method) {
            self.trace.record(self.actor, method, detail);
        }
    }
}

/// `cx.record(method, format_args!(..))`, with the arguments evaluated only while this thread
/// records: `record` formats nothing otherwise, but a call's arguments are built before it
/// runs, and the fuzz targets run most histories unrecorded.
#[macro_export]
macro_rules! record {
    ($cx:expr, $method:expr, $($detail:tt)+) => {
        if $crate::trace::recording() {
            $cx.record($method, format_args!($($detail)+));
        }
    };
}

thread_local! {
    static RECORDING: Cell<bool> = const { Cell::new(true) };
    /// While set, the one method whose events this thread records ([`recording_only`]).
    static ONLY: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// Runs `f` recording only the events of `method` on this thread: the others' details are not
/// formatted. For a check that looks for one event in every order of a scenario, where
/// formatting every event was half of the time (container-recreate's P8 arm, perf).
pub fn recording_only<R>(method: &'static str, f: impl FnOnce() -> R) -> R {
    /// Restores the filter even when `f` unwinds.
    struct Restore(Option<&'static str>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ONLY.with(|o| o.set(self.0));
        }
    }
    let _restore = Restore(ONLY.with(|o| o.replace(Some(method))));
    f()
}

/// Runs `f` with recording off on this thread: the fuzz targets run most inputs this way and
/// run a violating one again with recording on, for its timeline.
pub fn without_recording<R>(f: impl FnOnce() -> R) -> R {
    /// Restores the switch even when `f` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            set_recording(self.0);
        }
    }
    let _restore = Restore(set_recording(false));
    f()
}

/// Switches recording on this thread on or off; returns whether it was on.
pub fn set_recording(on: bool) -> bool {
    RECORDING.with(|r| r.replace(on))
}

/// Whether this thread records.
pub fn recording() -> bool {
    RECORDING.with(Cell::get)
}

/// Every outcome that holds is reported with this prefix, by every checker.
pub const VIOLATION: &str = "violation: ";

/// The message for outcome `outcome` holding, as `witness` shows.
pub fn violation(outcome: &str, witness: &str) -> String {
    format!("{VIOLATION}{outcome}: {witness}")
}

/// A finished timeline, ready to print: numbered steps, then the violated predicate if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    pub events: Vec<Event>,
    pub violation: Option<String>,
}

impl Timeline {
    /// The lines of the timeline, one per step (used for the text report and report.json).
    pub fn lines(&self) -> Vec<String> {
        let actor_w = self.events.iter().map(|e| e.actor.len()).max().unwrap_or(0);
        let method_w = self
            .events
            .iter()
            .map(|e| e.method.len())
            .max()
            .unwrap_or(0);
        let mut lines: Vec<String> = self
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                format!(
                    "{:>3}  {:<actor_w$}  {:<method_w$}  {}",
                    i + 1,
                    e.actor,
                    e.method,
                    e.detail
                )
            })
            .collect();
        if let Some(v) = &self.violation {
            lines.push(format!("  ✗  {v}"));
        }
        lines
    }
}

impl fmt::Display for Timeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in self.lines() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(actor: &'static str, method: &'static str, detail: &str) -> Event {
        Event {
            actor,
            method,
            detail: detail.to_owned(),
        }
    }

    /// `recording_only` keeps one method's events, formats no other detail, and restores the
    /// whole recording afterwards, also when its closure panics.
    #[test]
    fn recording_only_keeps_one_methods_events() {
        struct Unformatted;
        impl fmt::Display for Unformatted {
            fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
                panic!("a filtered-out detail was formatted")
            }
        }
        let trace = Trace::new();
        let a = trace.actor("a");
        recording_only("A.kept", || {
            a.record("A.other", Unformatted);
            a.record("A.kept", "k=1");
        });
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            recording_only("A.kept", || panic!("inside"))
        }));
        assert!(caught.is_err());
        a.record("A.other", "after");
        assert_eq!(
            trace.events(),
            vec![event("a", "A.kept", "k=1"), event("a", "A.other", "after")]
        );
    }

    /// Events come back in order with their own details; `clear` forgets them; a detail whose
    /// formatting panicked leaves nothing in the next event.
    #[test]
    fn events_keep_their_details_apart() {
        struct Panics;
        impl fmt::Display for Panics {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("half")?;
                panic!("formatting failed")
            }
        }
        let trace = Trace::new();
        let (a, b) = (trace.actor("a"), trace.actor("b"));
        a.record("A.one", format_args!("x={}", 1));
        b.record("B.two", "");
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            a.record("A.panics", Panics);
        }));
        assert!(caught.is_err(), "the detail's panic propagates");
        b.record("B.three", "y=3");
        assert_eq!(
            trace.events(),
            [
                event("a", "A.one", "x=1"),
                event("b", "B.two", ""),
                event("b", "B.three", "y=3"),
            ]
        );
        trace.clear();
        assert_eq!(trace.events(), []);
        a.record("A.four", "z");
        assert_eq!(trace.events(), [event("a", "A.four", "z")]);
    }
}
