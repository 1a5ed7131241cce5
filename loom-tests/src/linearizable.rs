//! What loom explores of [`Linearizable`]: two reads in one order only, a read and a write in
//! both, even when the writer's own thread read just before (the order a loom atomic misses).

use crate::every_execution::every_execution;
use loom::sync::Arc;
use racelab_core::sync::{Linearizable, Mutex};
use std::collections::BTreeSet;

/// Every interleaving of `main` against `spawned` on a fresh table holding 0 (no bound, no
/// limit): the executions explored, and the values `main`'s read returned.
fn explore(
    main: fn(&Linearizable<u32>) -> u32,
    spawned: fn(&Linearizable<u32>),
) -> (u64, BTreeSet<u32>) {
    every_execution(move || {
        let table = Arc::new(Linearizable::new(0));
        let other = table.clone();
        let t = loom::thread::spawn(move || spawned(&other));
        let read = main(&table);
        t.join().expect("the spawned thread panicked");
        read
    })
}

fn read(t: &Linearizable<u32>) -> u32 {
    t.read(|v| *v)
}

fn write(t: &Linearizable<u32>) {
    t.write(|v| *v = 1);
}

#[test]
fn two_reads_on_two_threads_are_explored_in_one_order() {
    assert_eq!(
        explore(read, |t| {
            read(t);
        }),
        (1, BTreeSet::from([0]))
    );
    // Behind one mutex (what the table was), loom explores both orders of the same reads.
    let (n, _) = every_execution(|| {
        let m = Arc::new(Mutex::new(0u32));
        let other = m.clone();
        let t = loom::thread::spawn(move || *other.lock());
        let _ = *m.lock();
        t.join().expect("the spawned thread panicked");
    });
    assert!(n > 1, "{n} executions behind a mutex");
}

#[test]
fn a_read_and_a_write_are_explored_in_both_orders() {
    let (_, values) = explore(read, write);
    assert_eq!(values, BTreeSet::from([0, 1]));
}

/// The writer reads first: its own read is the table's last access when it writes, and the
/// main thread's earlier read must still be ordered after the write in some execution.
#[test]
fn a_read_hidden_by_the_writers_own_read_is_still_reordered() {
    let (_, values) = explore(read, |t| {
        read(t);
        write(t);
    });
    assert_eq!(values, BTreeSet::from([0, 1]));
}
