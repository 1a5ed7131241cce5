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
/// [`take_reads`]'s mask). A contract declares its switches with [`switches!`], which rejects
/// two switches with one index at compile time.
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

/// Stops the build when two switches of one `Fix` share an index, or an index is no bit of a
/// `u64` mask ([`switches!`] calls it in a constant, so a failure is a compile error).
pub const fn check_indices(indices: &[u32]) {
    let mut i = 0;
    while i < indices.len() {
        assert!(
            indices[i] < 64,
            "a switch index is a bit of a u64 mask: 0 to 63"
        );
        let mut j = i + 1;
        while j < indices.len() {
            assert!(
                indices[i] != indices[j],
                "two switches of one Fix have the same index"
            );
            j += 1;
        }
        i += 1;
    }
}

/// Declares a contract's `Fix`, each part's switches in one place: per field its doc comment
/// (which names the part: `P1`, `HDFS-17953`, `mutant`), its index among the contract's
/// switches, its name (what the part does), its type and its upstream value. It generates the
/// struct (a [`Switch`] per field), `Fix::UPSTREAM`, and [`Switches`]; with `fingerprint;`
/// first, also `Fix::fingerprint`, the switches packed into one word, four bits each (every
/// switch then a `bool` or a field-less enum of at most 16 values).
///
/// An index given twice does not compile:
///
/// ```compile_fail
/// racelab_core::switches! {
///     pub struct Fix {
///         /// P1: one part.
///         0 => pub one: bool = false,
///         /// P2: another part, on P1's index.
///         0 => pub other: bool = false,
///     }
/// }
/// ```
///
/// and with distinct indices it does:
///
/// ```
/// racelab_core::switches! {
///     pub struct Fix {
///         /// P1: one part.
///         0 => pub one: bool = false,
///         /// P2: another part.
///         1 => pub other: bool = false,
///     }
/// }
/// assert!(!Fix::UPSTREAM.other.get());
/// ```
#[macro_export]
macro_rules! switches {
    (
        fingerprint;
        $(#[$meta:meta])*
        $vis:vis struct $fix:ident {
            $(
                $(#[$fmeta:meta])*
                $idx:literal => $fvis:vis $field:ident : $ty:ty = $upstream:expr
            ),+ $(,)?
        }
    ) => {
        $crate::switches! {
            $(#[$meta])*
            $vis struct $fix {
                $( $(#[$fmeta])* $idx => $fvis $field : $ty = $upstream ),+
            }
        }

        impl $fix {
            /// The switches as one word, four bits from each switch's index times four (a
            /// read of every switch).
            pub fn fingerprint(&self) -> u64 {
                0 $(| (self.$field.get() as u64) << (4 * $idx))+
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $fix:ident {
            $(
                $(#[$fmeta:meta])*
                $idx:literal => $fvis:vis $field:ident : $ty:ty = $upstream:expr
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $fix {
            $( $(#[$fmeta])* $fvis $field: $crate::switches::Switch<$ty, $idx>, )+
        }

        const _: () = $crate::switches::check_indices(&[$($idx),+]);

        impl $fix {
            /// The switches of upstream: no part.
            pub const UPSTREAM: $fix = $fix {
                $( $field: $crate::switches::Switch::new($upstream), )+
            };
        }

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

    crate::switches! {
        fingerprint;
        struct Fix {
            /// A: a part.
            0 => a: bool = false,
            /// B: another.
            1 => b: u8 = 0,
        }
    }

    const UPSTREAM: Fix = Fix::UPSTREAM;

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

    #[test]
    fn the_fingerprint_packs_four_bits_a_switch() {
        let fix = Fix {
            a: Switch::new(true),
            b: Switch::new(3),
        };
        assert_eq!(fix.fingerprint(), 1 | 3 << 4);
    }
}
