//! What a contract needs outside its folder, checked: its fuzz target and `[[bin]]` line, its
//! seed corpus, its regressions (each named by a regression of the contract), a scenario
//! example, well-formed claims (a mutant among them), and its place in every other list of
//! contracts (the registry's premises, the scheduled CI job, cargo-mutants' files). And for the workspace: no import
//! circle between files ([`imports`]); no ghost read in fix code ([`ghosts`]); each contract's `mod.rs` the spec alone, its speed
//! machinery in its performance module ([`spec_problems`]).

pub mod ghosts;
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

/// The most lines a contract's `mod.rs` may have: its spec (`Fix` and its parts, the `World`
/// fields, the outcomes in id order, `impl Model`), read first by a reviewer.
pub const SPEC_LINES: usize = 450;

/// What only a contract's performance module (`speed.rs`, or the folder `speed/`) may hold:
/// machinery that makes the checks fast and is no upstream behaviour.
const SPEED_ONLY: &[(&str, &str)] = &[
    ("thread_local!", "a per-thread cache or counter"),
    ("wrote(", "a write counter"),
    ("static WRITES", "a write counter"),
    ("#[inline(never)]", "an inlining hint"),
    ("inline(always)", "an inlining hint"),
];

/// What a contract's `mod.rs` may not hold besides: a test block (tests go in a file of their
/// own).
const NOT_IN_SPEC: &[(&str, &str)] = &[("mod tests {", "a test block")];

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of `text` that hold `needle` outside a line comment, as 1-based numbers.
fn code_lines_with(text: &str, needle: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//") && l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Every line-anchored exclusion of `.cargo/mutants.toml` (`"FILE:LINE:COL: replace OP with
/// …"`: the line and column cargo-mutants names a mutant by, where two mutants share a name)
/// whose operator is not at that place in the file any more, as sentences. An edit above it
/// moves the line, and the exclusion then names another mutant or none: the mutant it argued
/// equivalent would be reported missed, or a real one excluded.
pub fn stale_mutant_anchors() -> Vec<String> {
    let toml = std::fs::read_to_string(root().join(".cargo/mutants.toml")).unwrap_or_default();
    let sources: Vec<PathBuf> = rust_files(&root().join("core/src"));
    stale_anchors_in(&toml, |file| {
        let found: Vec<&PathBuf> = sources.iter().filter(|p| p.ends_with(file)).collect();
        match found[..] {
            [one] => std::fs::read_to_string(one).ok(),
            _ => None,
        }
    })
}

fn stale_anchors_in(toml: &str, read: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (n, line) in toml.lines().enumerate() {
        let Some(entry) = line.trim().strip_prefix('"') else {
            continue;
        };
        let mut parts = entry.splitn(4, ':');
        let (Some(file), Some(l), Some(c), Some(rest)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(l), Ok(c)) = (l.parse::<usize>(), c.parse::<usize>()) else {
            continue;
        };
        let Some(op) = rest
            .trim_start()
            .strip_prefix("replace ")
            .and_then(|r| r.split(" with ").next())
        else {
            continue;
        };
        // the operator as written in a TOML string of a regex: `\\+` is `+`
        let op = op.replace("\\", "");
        let at = read(file).and_then(|text| {
            let code = text.lines().nth(l.checked_sub(1)?)?;
            code.get(c.checked_sub(1)?..)
                .map(|s| s.starts_with(op.as_str()))
        });
        match at {
            Some(true) => {}
            Some(false) | None => problems.push(format!(
                ".cargo/mutants.toml:{}: `{op}` is not at {file}:{l}:{c} (the line moved, or \
                 the file is not one source file under core/src): re-anchor the exclusion",
                n + 1
            )),
        }
    }
    problems
}

/// Every ghost read in the fix code of the contracts ([`ghosts`]), as sentences.
pub fn ghost_reads() -> Vec<String> {
    ghosts::ghost_reads(&root())
}

/// Every contract folder's spec problems, as sentences (empty when there is none): a `mod.rs`
/// longer than [`SPEC_LINES`] or holding a test block, and a per-thread cache, a write counter
/// or an inlining hint outside the contract's performance module.
pub fn spec_problems() -> Vec<String> {
    spec_problems_in(&root().join("core/src/contracts"))
}

/// [`spec_problems`] of the contract folders under `contracts`.
fn spec_problems_in(contracts: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for name in names_in(contracts) {
        let folder = contracts.join(&name);
        if !folder.is_dir() {
            continue;
        }
        for path in rust_files(&folder) {
            let rel = path.strip_prefix(&folder).unwrap_or(&path);
            let shown = format!("core/src/contracts/{name}/{}", rel.display());
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let in_speed = rel.starts_with("speed") || rel == Path::new("speed.rs");
            if rel == Path::new("mod.rs") {
                let lines = text.lines().count();
                if lines > SPEC_LINES {
                    out.push(format!(
                        "{shown} has {lines} lines, more than {SPEC_LINES}: it is the spec alone"
                    ));
                }
                for (needle, what) in NOT_IN_SPEC {
                    for line in code_lines_with(&text, needle) {
                        out.push(format!("{shown}:{line}: {what} in the spec"));
                    }
                }
            }
            if !in_speed {
                for (needle, what) in SPEED_ONLY {
                    for line in code_lines_with(&text, needle) {
                        out.push(format!(
                            "{shown}:{line}: {what} outside the contract's performance module \
                             (speed.rs or speed/)"
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The README's layout block against the files: each top-level folder it names exists, every
/// top-level folder of the repository (but `target`) is named, and each path an indented line
/// names under a folder exists (a `<placeholder>` path is skipped). Sentences, empty when none.
pub fn readme_layout_problems() -> Vec<String> {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
    let Some(block) = readme
        .split("\n## Layout\n")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
    else {
        return vec!["README.md has no `## Layout` section with a code block".into()];
    };
    let mut out = Vec::new();
    let mut named = Vec::new();
    let mut folder = String::new();
    for line in block.lines().skip(1) {
        let Some(path) = line.split_whitespace().next() else {
            continue;
        };
        if !line.starts_with(' ') {
            folder = path.trim_end_matches('/').to_string();
            named.push(folder.clone());
            if !root.join(&folder).is_dir() {
                out.push(format!(
                    "README.md's layout names {path}, which is no folder"
                ));
            }
        } else if path.contains('/') && !path.contains('<') {
            let full = root.join(&folder).join(path.trim_end_matches(','));
            if !full.exists() {
                out.push(format!(
                    "README.md's layout names {folder}/{path}, which does not exist"
                ));
            }
        }
    }
    for name in names_in(&root) {
        if root.join(&name).is_dir() && name != "target" && !named.contains(&name) {
            out.push(format!("README.md's layout leaves out the folder {name}/"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A contract folder with a speed module, a mechanism file and a spec, under a scratch
    /// directory of its own.
    fn contract(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("racelab-tidy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let file = dir.join("demo").join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        dir
    }

    #[test]
    fn a_moved_mutant_anchor_is_found() {
        let toml = "exclude_re = [\n  \"a.rs:2:9: replace != with == in f\",\n  \
                    \"a.rs:1:5: replace \\\\+ with [-*] in g\",\n  \"b.rs:1:1: replace x with y\",\n  \
                    \"replace > with >= in h\",\n]\n";
        let read = |file: &str| (file == "a.rs").then(|| "let a+b;\n   if x != y {}\n".to_string());
        assert_eq!(
            stale_anchors_in(toml, read),
            [
                ".cargo/mutants.toml:3: `+` is not at a.rs:1:5 (the line moved, or the file is \
                 not one source file under core/src): re-anchor the exclusion",
                ".cargo/mutants.toml:4: `x` is not at b.rs:1:1 (the line moved, or the file is \
                 not one source file under core/src): re-anchor the exclusion",
            ]
        );
        // a line inserted above: the `!=` anchor names line 2, the operator is on line 3
        let moved = "\n\n   if x != y {}\n";
        assert_eq!(stale_anchors_in(toml, |_| Some(moved.to_string())).len(), 3);
    }

    #[test]
    fn speed_machinery_is_found_outside_the_speed_module_only() {
        let dir = contract(&[
            ("mod.rs", "pub struct Fix;\nmod tests {\n}\n"),
            (
                "datanode.rs",
                "// #[inline(never)] in a comment\n#[inline(never)]\nfn f() { wrote(); }\n",
            ),
            (
                "speed/writes.rs",
                "thread_local! {}\n#[inline(never)]\npub fn wrote() {}\n",
            ),
        ]);
        let problems = spec_problems_in(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            problems,
            [
                "core/src/contracts/demo/datanode.rs:3: a write counter outside the contract's \
                 performance module (speed.rs or speed/)",
                "core/src/contracts/demo/datanode.rs:2: an inlining hint outside the contract's \
                 performance module (speed.rs or speed/)",
                "core/src/contracts/demo/mod.rs:2: a test block in the spec",
            ]
        );
    }
}
