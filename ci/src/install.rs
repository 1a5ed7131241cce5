//! The cargo subcommands the gate installs itself, at pinned versions.

use std::process::Command;

/// A cargo subcommand from crates.io: `cargo <command>` is `crate` at `version`.
pub struct Tool {
    pub command: &'static str,
    pub krate: &'static str,
    pub version: &'static str,
    /// How long an install takes on two cores, for the message.
    pub takes: &'static str,
}

/// cargo-fuzz (0.13.2 resolves with this workspace's dependencies; docs/DESIGN.md).
pub const CARGO_FUZZ: Tool = Tool {
    command: "fuzz",
    krate: "cargo-fuzz",
    version: "0.13.2",
    takes: "about a minute",
};

/// cargo-nextest, which cargo-mutants runs the tests with (`test_tool` in `.cargo/mutants.toml`);
/// the workflow installs the same version.
pub const CARGO_NEXTEST: Tool = Tool {
    command: "nextest",
    krate: "cargo-nextest",
    version: "0.9.151",
    takes: "about ten minutes",
};

/// cargo-mutants.
pub const CARGO_MUTANTS: Tool = Tool {
    command: "mutants",
    krate: "cargo-mutants",
    version: "27.1.0",
    takes: "about ten minutes",
};

impl Tool {
    /// Installs the tool when `cargo <command> --version` does not print the pinned version.
    pub fn ensure(&self) -> Result<(), String> {
        let installed = Command::new("cargo")
            .args([self.command, "--version"])
            .output()
            .is_ok_and(|o| {
                o.status.success() && String::from_utf8_lossy(&o.stdout).contains(self.version)
            });
        if installed {
            return Ok(());
        }
        println!(
            "installing {} {} ({})",
            self.krate, self.version, self.takes
        );
        let args = ["install", self.krate, "--locked", "--version", self.version];
        if Command::new("cargo")
            .args(args)
            .status()
            .is_ok_and(|s| s.success())
        {
            Ok(())
        } else {
            Err(format!("`cargo {}` failed", args.join(" ")))
        }
    }
}
