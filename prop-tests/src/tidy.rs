//! What a contract needs outside its folder, checked: its fuzz target and `[[bin]]` line, its
//! seed corpus, its regressions (each named by a regression of the contract), a scenario
//! example, and well-formed claims (a mutant among them).

use racelab_core::histories::Histories;
use racelab_core::registry;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The committed scenario files, sorted.
pub fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "scn"));
    files.sort();
    files
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Everything missing for contract `M`, as sentences (empty when nothing is).
pub fn missing<M: Histories>() -> Vec<String> {
    let module = M::CONTRACT.module;
    let fuzz = root().join("fuzz");
    let mut out = registry::problems::<M>();
    if !fuzz
        .join("fuzz_targets")
        .join(format!("{module}.rs"))
        .is_file()
    {
        out.push(format!("the fuzz target fuzz/fuzz_targets/{module}.rs"));
    }
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).unwrap_or_default();
    if !manifest.contains(&format!("name = \"{module}\"")) {
        out.push(format!("a [[bin]] named {module} in fuzz/Cargo.toml"));
    }
    if names_in(&fuzz.join("corpus").join(module)).is_empty() {
        out.push(format!("a seed corpus in fuzz/corpus/{module}/"));
    }
    let committed = names_in(&fuzz.join("regressions").join(module));
    if M::REGRESSIONS.is_empty() {
        out.push("a shrunk counterexample kept as a named regression".into());
    }
    for name in &committed {
        if !M::REGRESSIONS.iter().any(|r| r.name == name) {
            out.push(format!(
                "a regression named {name} (fuzz/regressions/{module}/{name} has no test)"
            ));
        }
    }
    let contract_line = format!("contract {}", M::CONTRACT.id);
    let has_scenario = scenario_files().iter().any(|p| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .any(|l| l.trim() == contract_line)
    });
    if !has_scenario {
        out.push(format!(
            "a scenario example in scenarios/ (`{contract_line}`)"
        ));
    }
    out
}
