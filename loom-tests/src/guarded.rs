//! What loom explores of [`RaceCell::guarded`]: accesses that all hold one lock are explored in
//! every order that lock allows, as behind [`RaceCell::new`]'s own lock, in fewer executions;
//! in a race cell it is race-tracked as [`RaceCell::new`]'s.

use crate::every_execution::every_execution;
use loom::sync::Arc;
use racelab_core::sync::{track_races, Mutex, RaceCell};
use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};

/// A monitor and the map it guards: each access takes the monitor, then the cell (as the IBR
/// manager's methods do).
struct Guarded {
    monitor: Mutex<()>,
    cell: RaceCell<Vec<char>>,
}

/// Every interleaving of two threads, each appending its letter under the monitor, then
/// reading the cell without it (no bound, no limit): the executions explored and every final
/// value.
fn explore(cell: fn(Vec<char>) -> RaceCell<Vec<char>>) -> (u64, BTreeSet<String>) {
    every_execution(move || {
        let g = Arc::new(Guarded {
            monitor: Mutex::new(()),
            cell: cell(Vec::new()),
        });
        let append = |g: &Guarded, c: char| {
            let _monitor = g.monitor.lock();
            g.cell.with_mut(|v| v.push(c));
        };
        let other = g.clone();
        let t = loom::thread::spawn(move || append(&other, 'b'));
        append(&g, 'a');
        t.join().expect("the spawned thread panicked");
        g.cell.with(|v| v.iter().collect::<String>())
    })
}

#[test]
fn accesses_under_one_lock_are_explored_in_both_orders_in_fewer_executions() {
    let (own_lock, serialized) = explore(RaceCell::new);
    let (guarded, values) = explore(RaceCell::guarded);
    assert_eq!(values, serialized);
    assert_eq!(values, BTreeSet::from(["ab".to_owned(), "ba".to_owned()]));
    assert!(
        guarded < own_lock,
        "{guarded} executions, {own_lock} with its own lock"
    );
}

/// Built while races are tracked, a guarded cell reports an access without the monitor.
#[test]
fn in_a_race_cell_an_unguarded_access_is_a_race() {
    track_races(true);
    let found = panic::catch_unwind(AssertUnwindSafe(|| {
        crate::explore::builder(None).check(|| {
            let cell = Arc::new(RaceCell::guarded(0u32));
            let other = cell.clone();
            let t = loom::thread::spawn(move || other.with_mut(|v| *v += 1));
            cell.with_mut(|v| *v += 1);
            t.join().expect("the spawned thread panicked");
        })
    }));
    track_races(false);
    let payload = found.expect_err("loom reports the race");
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    assert!(message.contains("Causality violation"), "{message}");
}
