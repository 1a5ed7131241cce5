//! What every fuzz target shares: the macro that makes a contract's target, and the allocator.

// A re-export, so that the targets' macro reaches libFuzzer through this crate.
pub use libfuzzer_sys;
pub use racelab_core;

/// mimalloc rather than glibc's malloc: a reregister run allocates and frees several world copies
/// (the quiescence simulations), and glibc's allocator was about 17% of its time (perf). Paired
/// 20 s runs from the corpus: 52.4k and 53.4k executions/s with glibc's, 61.4k and 60.8k with
/// mimalloc's. libFuzzer's `-malloc_limit_mb` does not see these allocations (its hooks are
/// glibc's); `-rss_limit_mb` still bounds the process.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The fuzz target of a contract: each input is a history of its operations, checked with
/// [`racelab_core::histories::fuzz`] (the fix property, or a variant's outcomes with
/// `RACELAB_FUZZ_VARIANT`).
#[macro_export]
macro_rules! histories_target {
    ($model:ty, $op:ty) => {
        $crate::libfuzzer_sys::fuzz_target!(|history: $crate::racelab_core::histories::History<
            $op,
        >| {
            $crate::racelab_core::histories::fuzz::<$model>(&history.0)
        });
    };
}
