//! `cfg(loom)` for this crate when its feature `loom` is on, as `RUSTFLAGS="--cfg loom"` sets it
//! for every crate: the gate's loom build, which then shares the other crates with the plain
//! build.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_LOOM").is_some() {
        println!("cargo::rustc-cfg=loom");
    }
}
