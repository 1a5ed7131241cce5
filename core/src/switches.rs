//! A fix part's switch, and which switches a run has read.
//!
//! A contract's behaviour depends on its variant only through the switches it reads. So if a
//! loom exploration of a scenario under one variant never read a switch on which a second
//! variant differs, the second variant's exploration of that scenario is the same, execution
//! for execution: both make the same choices until the first read of a switch on which they
//! differ, and in this exploration there is none. The loom runner uses this to explore such a
//! scenario once for both variants.
//!
//! For the argument to hold, the value inside a [`Switch`] can be seen only through a recorded
//! read: [`Switch::get`], and `Debug` and `PartialEq`, which read too. The field is private to
//! this module, so no contract can read it any other way.

use std::cell::Cell;
use std::fmt;

/// One switch of a contract's `Fix`, with its index `I` among the contract's switches (a bit in
/// [`take_reads`]'s mask). Two switches with one index only make the runner more cautious.
#[derive(Clone, Copy)]
pub struct Switch<T, const I: u32>(T);

thread_local! {
    /// The switches read on this thread since the last [`take_reads`]: loom runs every model
    /// thread of an exploration on the thread that called it.
    static READS: Cell<u64> = const { Cell::new(0) };
}

impl<T: Copy, const I: u32> Switch<T, I> {
    pub const fn new(value: T) -> Self {
        Switch(value)
    }

    /// The switch's value, recorded as read.
    pub fn get(self) -> T {
        READS.with(|r| r.set(r.get() | Self::BIT));
        self.0
    }

    const BIT: u64 = 1 << I;

    /// This switch's bit if `self` and `other` differ (comparing them is not a read).
    pub fn differs(&self, other: &Self) -> u64
    where
        T: PartialEq,
    {
        if self.0 == other.0 {
            0
        } else {
            Self::BIT
        }
    }
}

impl<T: Copy + PartialEq, const I: u32> PartialEq for Switch<T, I> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl<T: Copy + Eq, const I: u32> Eq for Switch<T, I> {}

impl<T: Copy + fmt::Debug, const I: u32> fmt::Debug for Switch<T, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

/// The switches read on this thread since the last call, as a mask of their indices.
pub fn take_reads() -> u64 {
    READS.with(|r| r.replace(0))
}

/// A contract's switches, compared switch by switch.
pub trait Switches {
    /// The mask of the switches on which `self` and `other` differ.
    fn differing(&self, other: &Self) -> u64;
}

/// Implements [`Switches`] for a `Fix` struct of [`Switch`] fields. The fields are listed by
/// destructuring, so a field left out of the list does not compile.
#[macro_export]
macro_rules! switches {
    ($fix:ident { $($field:ident),+ $(,)? }) => {
        impl $crate::switches::Switches for $fix {
            fn differing(&self, other: &Self) -> u64 {
                let $fix { $($field),+ } = self;
                0 $(| $field.differs(&other.$field))+
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Fix {
        a: Switch<bool, 0>,
        b: Switch<u8, 1>,
    }
    crate::switches!(Fix { a, b });

    const UPSTREAM: Fix = Fix {
        a: Switch::new(false),
        b: Switch::new(0),
    };

    #[test]
    fn reads_are_recorded_per_switch_and_taken_once() {
        take_reads();
        assert!(!UPSTREAM.a.get());
        assert_eq!(take_reads(), 0b01);
        assert_eq!(take_reads(), 0);
        assert_eq!(UPSTREAM.b.get(), 0);
        assert_eq!(take_reads(), 0b10);
    }

    #[test]
    fn debug_and_equality_read_every_switch_but_differing_does_not() {
        let other = Fix {
            b: Switch::new(3),
            ..UPSTREAM
        };
        take_reads();
        assert_eq!(UPSTREAM.differing(&other), 0b10);
        assert_eq!(UPSTREAM.differing(&UPSTREAM), 0);
        assert_eq!(take_reads(), 0);
        assert_ne!(UPSTREAM, other);
        assert_eq!(take_reads(), 0b11);
        assert_eq!(format!("{UPSTREAM:?}"), "Fix { a: false, b: 0 }");
        assert_eq!(take_reads(), 0b11);
    }
}
