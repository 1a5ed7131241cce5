//! The loom tests of single primitives ask one question: over every interleaving of a body
//! (no bound, no limit), how many executions did loom run, and what did they end with?

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// Runs `body` in every interleaving loom explores (no preemption bound, never ended early):
/// the number of executions and the set of the values the executions returned.
pub fn every_execution<T, F>(body: F) -> (u64, BTreeSet<T>)
where
    T: Ord + Send + 'static,
    F: Fn() -> T + Send + Sync + 'static,
{
    let runs = Arc::new(Mutex::new((0u64, BTreeSet::new())));
    let seen = runs.clone();
    crate::explore::builder(None).check(move || {
        let value = body();
        let mut seen = seen.lock().expect("not poisoned");
        seen.0 += 1;
        seen.1.insert(value);
    });
    let mut runs = runs.lock().expect("not poisoned");
    (runs.0, std::mem::take(&mut runs.1))
}
