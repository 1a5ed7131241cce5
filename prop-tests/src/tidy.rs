//! What a contract needs outside its folder, checked: its fuzz target and `[[bin]]` line, its
//! seed corpus, its regressions (each named by a regression of the contract), a scenario
//! example, well-formed claims (a mutant among them), and its place in every other list of
//! contracts (the registry's premises, the scheduled CI job, cargo-mutants' files). And for the workspace: no import
//! circle between files ([`imports`]).

pub mod imports;

use racelab_core::histories::Histories;
use racelab_core::registry;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Where the committed scenario files are.
pub fn scenarios_dir() -> PathBuf {
    root().join("scenarios")
}

/// The committed scenario files, sorted.
pub fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenarios_dir())
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

/// The files every contract's folder has: `mod.rs` (`Fix`, the world, the outcomes, `impl
/// Model`) and one file per concern; beside them, one file per upstream component.
const LAYOUT: &[&str] = &[
    "mod.rs",
    "scenarios.rs",
    "reproductions.rs",
    "claims.rs",
    "findings.rs",
    "histories.rs",
    "premises.rs",
    "upstream.rs",
    "DESIGN-NOTES.md",
];

/// Everything missing for contract `M`, as sentences (empty when nothing is).
pub fn missing<M: Histories>() -> Vec<String> {
    let module = M::CONTRACT.module;
    let fuzz = root().join("fuzz");
    let mut out = registry::problems::<M>();
    let folder = root().join("core/src/contracts").join(module);
    for file in LAYOUT {
        if !folder.join(file).is_file() {
            out.push(format!(
                "core/src/contracts/{module}/{file} (every contract has the same layout)"
            ));
        }
    }
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
    out.extend(unlisted::<M>());
    out
}

/// The lists of contracts outside the registry's `visit` that leave out contract `M`: each
/// would skip it silently.
fn unlisted<M: Histories>() -> Vec<String> {
    let (id, module) = (M::CONTRACT.id, M::CONTRACT.module);
    let mut out = Vec::new();
    if !registry::premises().iter().any(|(c, _)| *c == id) {
        out.push("its premises in `registry::premises` (core/src/registry.rs)".into());
    }
    // The scheduled job fuzzes and mutates each contract of its matrix.
    let workflow =
        std::fs::read_to_string(root().join(".github/workflows/ci.yml")).unwrap_or_default();
    let in_matrix = workflow.lines().any(|l| {
        l.trim()
            .strip_prefix("contract: [")
            .and_then(|l| l.strip_suffix(']'))
            .is_some_and(|list| list.split(',').any(|c| c.trim() == id))
    });
    if !in_matrix {
        out.push(format!(
            "{id} in the scheduled job's `contract: [...]` matrix (.github/workflows/ci.yml)"
        ));
    }
    // cargo-mutants examines only the files listed: a contract without one is never mutated.
    let mutants = std::fs::read_to_string(root().join(".cargo/mutants.toml")).unwrap_or_default();
    if !mutants.contains(&format!("\"core/src/contracts/{module}/")) {
        out.push(format!(
            "its fix code in .cargo/mutants.toml's examine_globs (core/src/contracts/{module}/...)"
        ));
    }
    out
}

/// The crates whose files must not import each other in a circle, by source folder.
const CRATES: &[&str] = &[
    "core/src",
    "loom-tests/src",
    "prop-tests/src",
    "ci/src",
    "fuzz/src",
];

/// Every import circle between the files of one crate, with the edges to cut (empty when
/// there is none).
pub fn import_circles() -> Vec<String> {
    let root = root();
    let mut out = Vec::new();
    for krate in CRATES {
        match imports::graph(&root, &root.join(krate)) {
            Ok(graph) => out.extend(imports::circles(&graph).into_iter().map(|circle| {
                format!(
                    "an import circle between {}:\n    {}",
                    circle.join(", "),
                    imports::edges_in(&graph, &circle).join("\n    ")
                )
            })),
            Err(e) => out.push(e),
        }
    }
    out
}
