//! What loom explores of [`Linearizable`]: two reads in one order only, a read and a write in
//! both, even when the writer's own thread read just before (the order a loom atomic misses).

use loom::sync::Arc;
use racelab_core::sync::{Linearizable, Mutex};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex as StdMutex;

/// Every interleaving of `main` against `spawned` on a fresh table holding 0 (no bound, no
/// limit): the executions explored, and the values `main`'s read returned.
fn explore(
    main: fn(&Linearizable<u32>) -> u32,
    spawned: fn(&Linearizable<u32>),
) -> (u64, BTreeSet<u32>) {
    let executions = std::sync::Arc::new(AtomicU64::new(0));
    let seen = std::sync::Arc::new(StdMutex::new(BTreeSet::new()));
    let (n, values) = (executions.clone(), seen.clone());
    unbounded().check(move || {
        n.fetch_add(1, Ordering::Relaxed);
        let table = Arc::new(Linearizable::new(0));
        let other = table.clone();
        let t = loom::thread::spawn(move || spawned(&other));
        let read = main(&table);
        t.join().expect("the spawned thread panicked");
        values.lock().expect("not poisoned").insert(read);
    });
    let values = seen.lock().expect("not poisoned").clone();
    (executions.load(Ordering::Relaxed), values)
}

/// loom's builder with no preemption bound and no limit, whatever the environment says.
fn unbounded() -> loom::model::Builder {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = None;
    builder.max_duration = None;
    builder.max_permutations = None;
    builder.checkpoint_file = None;
    builder
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
    let executions = std::sync::Arc::new(AtomicU64::new(0));
    let n = executions.clone();
    unbounded().check(move || {
        n.fetch_add(1, Ordering::Relaxed);
        let m = Arc::new(Mutex::new(0u32));
        let other = m.clone();
        let t = loom::thread::spawn(move || *other.lock());
        let _ = *m.lock();
        t.join().expect("the spawned thread panicked");
    });
    let n = executions.load(Ordering::Relaxed);
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
