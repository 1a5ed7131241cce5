//! State upstream keeps in a concurrent structure whose every call is one linearizable
//! operation (a `ConcurrentSkipListMap`, a RocksDB table): a call either reads it or writes
//! it, and nothing spans two calls.
//!
//! Behind a mutex taken for each call, loom would order every pair of calls, two reads as well.
//! Two reads commute (each sees what the other sees, and neither changes anything), so every
//! order loom explores of two reads between the same writes is one it has already explored.
//! Here a read is dependent, for loom, only on the writes, and a write on every call:
//!
//! - each loom thread reading has a slot, a loom mutex of its own, which its reads take;
//! - a write takes every slot (in slot order, so two writers cannot deadlock).
//!
//! Two reads on different threads then touch no common loom object, and loom's partial-order
//! reduction does not reorder them; a read and a write share the reader's slot, and two writes
//! share every slot, so loom explores both orders of those, as it did behind one mutex. The
//! value itself sits behind an [`unseen`] mutex, read or written right after the slots are
//! taken with no scheduling point between: each call is one atomic step.
//!
//! A loom atomic (a load per read, a read-modify-write per write) would say the same, but
//! loom keeps only the last access of an atomic for its reduction: a read by the writer's own
//! thread hides an earlier read by another thread, and the reordering of that read and the
//! write is never explored (container-recreate's upstream O1 was missed that way).
//!
//! Outside loom the slots are not needed: a call is the backend's mutex, taken for that call.

#[cfg(loom)]
pub use self::explored::Linearizable;
#[cfg(not(loom))]
pub use self::plain::Linearizable;

#[cfg(not(loom))]
mod plain {
    use crate::sync::Mutex;

    /// One lock taken for each call (see the module doc).
    #[derive(Debug, Default)]
    pub struct Linearizable<T>(Mutex<T>);

    impl<T> Linearizable<T> {
        pub fn new(value: T) -> Self {
            Self(Mutex::new(value))
        }

        /// One read: `f` must not change what it reads (it gets a shared reference).
        pub fn read<R>(&self, f: impl FnOnce(&T) -> R) -> R {
            f(&self.0.lock())
        }

        /// One write.
        pub fn write<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
            f(&mut self.0.lock())
        }
    }
}

#[cfg(loom)]
mod explored {
    use crate::sync::{unseen, Mutex};

    /// One slot for each thread loom can model.
    const SLOTS: usize = loom::MAX_THREADS;

    /// Reads on per-thread slots, writes on all of them (see the module doc).
    #[derive(Debug, Default)]
    pub struct Linearizable<T> {
        slots: [Mutex<()>; SLOTS],
        /// The loom thread of each slot, in the order of their first read. A world is built
        /// anew for every execution, and loom runs one deterministically, so the slots are
        /// handed out the same way each time an execution is repeated.
        readers: unseen::Mutex<Vec<loom::thread::ThreadId>>,
        value: unseen::Mutex<T>,
    }

    impl<T> Linearizable<T> {
        pub fn new(value: T) -> Self {
            Linearizable {
                slots: Default::default(),
                readers: unseen::Mutex::new(Vec::new()),
                value: unseen::Mutex::new(value),
            }
        }

        /// The calling thread's slot.
        fn slot(&self) -> &Mutex<()> {
            let me = loom::thread::current().id();
            let mut readers = self.readers.lock();
            let i = match readers.iter().position(|&t| t == me) {
                Some(i) => i,
                None => {
                    readers.push(me);
                    readers.len() - 1
                }
            };
            &self.slots[i]
        }

        /// One read: `f` must not change what it reads (it gets a shared reference).
        pub fn read<R>(&self, f: impl FnOnce(&T) -> R) -> R {
            let _slot = self.slot().lock();
            f(&self.value.lock())
        }

        /// One write: every slot, then the value.
        pub fn write<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
            let _slots = self.slots.each_ref().map(|slot| slot.lock());
            f(&mut self.value.lock())
        }
    }
}
