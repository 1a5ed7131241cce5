//! HDDS-17042: histories under the proposed fix must reach no outcome but O3, and O3 only when
//! a sync failed between its commit and its hand-off (HDDS-5146). The stable
//! `cargo test -p racelab-props` replays this target's corpus and regressions through the same
//! function.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use racelab_core::contracts::recon_sync::{histories::Op, ReconSync};
use racelab_core::histories::{fuzz, Codec};

// The input decoded exactly as `History<Op>` decodes it (operations until the bytes run out,
// an undecodable one rejects the input), into a vector sized once rather than grown.
fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    let mut ops = Vec::with_capacity(bytes.len());
    while !u.is_empty() {
        match Op::decode(&mut u) {
            Ok(op) => ops.push(op),
            Err(_) => return,
        }
    }
    fuzz::<ReconSync>(&ops);
});
