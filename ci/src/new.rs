//! `cargo xtask new NAME`: a sixth contract, scaffolded as a working toy model (a lost update:
//! two threads read-modify-write a shared counter; the fix part P1 does it under one lock), so
//! that it compiles and passes tidy and the gate before the engineer replaces the toy with the
//! real mechanism.
//!
//! The contract's files come from `ci/templates/contract/` (embedded, with `{{id}}`,
//! `{{module}}`, `{{Type}}`, `{{PREFIX}}`, `{{report}}` and `{{title}}` filled in); every other
//! list that names contracts gets one small insertion at an anchor, and a missing anchor fails
//! before anything is written. The model-API-dependent text is in the templates of `mod.rs`,
//! `claims.rs` and `histories.rs` only.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The issue key and title the toy carries until the engineer sets the real ones in `mod.rs`
/// (README's findings section shows both; `cargo xtask readme` rewrites it).
const REPORT: &str = "TOY-1";
const TITLE: &str = "TOY: two threads increment a shared counter and one increment is lost";

/// Names of test groups and harness cells that a contract id must not shadow.
const RESERVED: &[&str] = &["harness", "tidy", "scenarios", "readme"];

/// Rust keywords, which cannot be a module name.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield",
];

/// The names of a new contract, from its id.
#[derive(Debug, PartialEq)]
pub struct Names {
    /// `lost-update`: the command line's and the reports' name.
    pub id: String,
    /// `lost_update`: the module, fuzz target and corpus folder.
    pub module: String,
    /// `LostUpdate`: the model's type.
    pub ty: String,
    /// `LU`: the findings' prefix (`LU-F1`).
    pub prefix: String,
}

impl Names {
    /// Lowercase ASCII words of letters and digits joined by `-`, the first starting with a
    /// letter: `demo`, `lost-update`.
    pub fn parse(name: &str) -> Result<Names, String> {
        let words: Vec<&str> = name.split('-').collect();
        let word_ok = |w: &&str| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        };
        let starts_with_letter = name.starts_with(|c: char| c.is_ascii_lowercase());
        if !starts_with_letter || !words.iter().all(word_ok) {
            return Err(format!(
                "`{name}` is not a contract name: lowercase letters and digits in words joined \
                 by `-`, starting with a letter (`demo`, `lost-update`)"
            ));
        }
        let module = words.join("_");
        if KEYWORDS.contains(&module.as_str()) || RESERVED.contains(&name) {
            return Err(format!("`{name}` is reserved; choose another name"));
        }
        let ty = words
            .iter()
            .map(|w| {
                let mut cs = w.chars();
                let first = cs.next().map(|c| c.to_ascii_uppercase());
                first.into_iter().chain(cs).collect::<String>()
            })
            .collect();
        let prefix = if words.len() > 1 {
            words.iter().filter_map(|w| w.chars().next()).collect()
        } else {
            name.chars().take(2).collect::<String>()
        }
        .to_ascii_uppercase();
        Ok(Names {
            id: name.to_owned(),
            module,
            ty,
            prefix,
        })
    }

    /// A template with the names filled in.
    fn fill(&self, template: &str) -> String {
        template
            .replace("{{id}}", &self.id)
            .replace("{{module}}", &self.module)
            .replace("{{Type}}", &self.ty)
            .replace("{{PREFIX}}", &self.prefix)
            .replace("{{report}}", REPORT)
            .replace("{{title}}", TITLE)
    }
}

/// The contract folder's files: `(file name, template)`.
const FOLDER: &[(&str, &str)] = &[
    ("mod.rs", include_str!("../templates/contract/mod.rs")),
    (
        "counter.rs",
        include_str!("../templates/contract/counter.rs"),
    ),
    ("worker.rs", include_str!("../templates/contract/worker.rs")),
    (
        "scenarios.rs",
        include_str!("../templates/contract/scenarios.rs"),
    ),
    (
        "reproductions.rs",
        include_str!("../templates/contract/reproductions.rs"),
    ),
    ("claims.rs", include_str!("../templates/contract/claims.rs")),
    (
        "findings.rs",
        include_str!("../templates/contract/findings.rs"),
    ),
    (
        "histories.rs",
        include_str!("../templates/contract/histories.rs"),
    ),
    (
        "premises.rs",
        include_str!("../templates/contract/premises.rs"),
    ),
    (
        "upstream.rs",
        include_str!("../templates/contract/upstream.rs"),
    ),
    (
        "DESIGN-NOTES.md",
        include_str!("../templates/contract/DESIGN-NOTES.md"),
    ),
];

const FUZZ_TARGET: &str = include_str!("../templates/contract/fuzz_target.rs");
const SCENARIO: &str = include_str!("../templates/contract/scenario.scn");

/// The toy's corpus seed: two increments, then steps (the bytes of `histories.rs`'s codec).
const SEED: &[u8] = &[0, 0, 1, 1, 3, 1];
/// The toy regression `both-read-first`: `[Increment, Increment, Step(0), Step(1)]` encoded.
const REGRESSION: (&str, &[u8]) = ("both-read-first", &[0, 0, 1, 3]);

/// One file to write: new, or an existing one with an insertion.
#[derive(Debug)]
pub struct Change {
    /// Relative to the repository root.
    pub path: PathBuf,
    pub contents: Vec<u8>,
    pub created: bool,
}

/// `text` inserted just before the first `at` that follows the one `within` of `file`: both
/// must be there, `within` once, or the edit fails (the file changed shape: update the anchor).
fn insert(file: &str, old: &str, within: &str, at: &str, text: &str) -> Result<String, String> {
    let anchor_missing = |what: &str| {
        format!(
            "{file}: anchor `{}` not found; cannot add the contract here",
            what.escape_debug()
        )
    };
    let start = match old
        .match_indices(within)
        .map(|(i, _)| i)
        .collect::<Vec<_>>()[..]
    {
        [i] => i + within.len(),
        [] => return Err(anchor_missing(within)),
        _ => {
            return Err(format!(
                "{file}: anchor `{}` is not unique",
                within.escape_debug()
            ))
        }
    };
    let pos = old[start..]
        .find(at)
        .map(|i| start + i)
        .ok_or_else(|| anchor_missing(at))?;
    Ok(format!("{}{text}{}", &old[..pos], &old[pos..]))
}

/// `line` among the consecutive lines that start with `prefix`, in sorted order (as rustfmt
/// orders `pub mod` lines).
fn insert_sorted(file: &str, old: &str, prefix: &str, line: &str) -> Result<String, String> {
    let mut lines: Vec<&str> = old.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.starts_with(prefix))
        .ok_or_else(|| format!("{file}: no line starting with `{prefix}`"))?;
    let len = lines[first..]
        .iter()
        .take_while(|l| l.starts_with(prefix))
        .count();
    let at = first
        + lines[first..first + len]
            .iter()
            .take_while(|l| **l < line)
            .count();
    lines.insert(at, line);
    Ok(lines.join("\n") + "\n")
}

/// The scheduled job's matrix line `contract: [a, b]` with `id` added.
fn add_to_matrix(file: &str, old: &str, id: &str) -> Result<String, String> {
    let mut found = 0;
    let lines: Vec<String> = old
        .lines()
        .map(|l| {
            let list = l
                .trim()
                .strip_prefix("contract: [")
                .and_then(|r| r.strip_suffix(']'));
            match list {
                Some(_) => {
                    found += 1;
                    format!("{}, {id}]", l.trim_end().trim_end_matches(']'))
                }
                None => l.to_owned(),
            }
        })
        .collect();
    match found {
        1 => Ok(lines.join("\n") + "\n"),
        0 => Err(format!("{file}: no `contract: [...]` matrix line")),
        _ => Err(format!("{file}: more than one `contract: [...]` line")),
    }
}

/// Every file to create or edit for contract `n` under `root`, computed before anything is
/// written; `Err` when the contract exists or an anchor is missing.
pub fn plan(root: &Path, n: &Names) -> Result<Vec<Change>, String> {
    let folder = Path::new("core/src/contracts").join(&n.module);
    let fuzz_target = PathBuf::from(format!("fuzz/fuzz_targets/{}.rs", n.module));
    let scenario = PathBuf::from(format!("scenarios/{}-both-read-first.scn", n.id));
    let corpus = PathBuf::from(format!("fuzz/corpus/{}", n.module));
    let regressions = PathBuf::from(format!("fuzz/regressions/{}", n.module));
    for p in [&folder, &fuzz_target, &scenario, &corpus, &regressions] {
        if root.join(p).exists() {
            return Err(format!("{} exists ({})", n.id, p.display()));
        }
    }
    let read = |p: &str| std::fs::read_to_string(root.join(p)).map_err(|e| format!("{p}: {e}"));
    let registry = read("core/src/registry.rs")?;
    if registry.contains(&format!("\"{}\"", n.id)) {
        return Err(format!("{} exists (core/src/registry.rs names it)", n.id));
    }

    let mut out: Vec<Change> = FOLDER
        .iter()
        .map(|(file, template)| Change {
            path: folder.join(file),
            contents: n.fill(template).into_bytes(),
            created: true,
        })
        .collect();
    let mut create = |path: PathBuf, contents: Vec<u8>| {
        out.push(Change {
            path,
            contents,
            created: true,
        })
    };
    create(fuzz_target, n.fill(FUZZ_TARGET).into_bytes());
    create(scenario, n.fill(SCENARIO).into_bytes());
    create(corpus.join("two-increments"), SEED.to_vec());
    create(regressions.join(REGRESSION.0), REGRESSION.1.to_vec());

    let mut edit = |path: &str, new: String| {
        out.push(Change {
            path: path.into(),
            contents: new.into_bytes(),
            created: false,
        })
    };
    let (id, module, ty) = (&n.id, &n.module, &n.ty);

    let f = "core/src/contracts/mod.rs";
    edit(
        f,
        insert_sorted(f, &read(f)?, "pub mod ", &format!("pub mod {module};"))?,
    );

    let f = "core/src/registry.rs";
    let r = insert(
        f,
        &registry,
        "pub fn visit(v: &mut impl Visitor) {\n",
        "}\n",
        &format!("    v.visit::<crate::contracts::{module}::{ty}>();\n"),
    )?;
    let r = insert(
        f,
        &r,
        "pub fn sources(id: &str)",
        "        _ => &crate::upstream::Sources::EMPTY,",
        &format!("        \"{id}\" => &{module}::upstream::SOURCES,\n"),
    )?;
    let r = insert(
        f,
        &r,
        "pub fn premises()",
        "    ]\n}",
        &format!("        (\"{id}\", {module}::premises::PREMISES),\n"),
    )?;
    edit(f, r);

    let f = "fuzz/Cargo.toml";
    let old = read(f)?;
    if !old.contains("\n[[bin]]\n") {
        return Err(format!("{f}: no [[bin]] section to add one beside"));
    }
    edit(
        f,
        format!(
            "{}\n[[bin]]\nname = \"{module}\"\npath = \"fuzz_targets/{module}.rs\"\ntest = false\n\
             doc = false\nbench = false\n",
            old.trim_end()
        ),
    );

    let f = ".cargo/mutants.toml";
    edit(
        f,
        insert(
            f,
            &read(f)?,
            "examine_globs = [\n",
            "\n]\n",
            &format!(
                "\n  # {id}: the fix code (TOY: the counter's increment and the worker's steps).\n  \
                 \"core/src/contracts/{module}/counter.rs\",\n  \
                 \"core/src/contracts/{module}/worker.rs\","
            ),
        )?,
    );

    let f = ".github/workflows/ci.yml";
    edit(f, add_to_matrix(f, &read(f)?, id)?);

    // As `cargo xtask readme` writes it for a contract without findings (this binary was
    // built without the new contract, so it cannot render it).
    let f = "README.md";
    edit(
        f,
        insert(
            f,
            &read(f)?,
            "<!-- findings: generated by",
            "<!-- end of findings -->",
            &format!(
                "\n### {id} ({REPORT}): {TITLE}\n\nNo finding beyond the report's own claims.\n"
            ),
        )?,
    );
    Ok(out)
}

/// Writes the changes under `root`.
pub fn apply(root: &Path, changes: &[Change]) -> Result<(), String> {
    for c in changes {
        let path = root.join(&c.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &c.contents).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `cargo xtask new NAME`.
pub fn run(name: &str) -> ExitCode {
    let root = crate::phases::root();
    let result = Names::parse(name).and_then(|n| {
        let changes = plan(&root, &n)?;
        apply(&root, &changes)?;
        Ok((n, changes))
    });
    let (n, changes) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xtask new: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The templates are formatted for one name; another sorts its imports otherwise.
    let rust: Vec<PathBuf> = changes
        .iter()
        .filter(|c| c.created && c.path.extension().is_some_and(|x| x == "rs"))
        .map(|c| root.join(&c.path))
        .collect();
    let formatted = std::process::Command::new("rustfmt")
        .args(["--edition", "2021"])
        .args(&rust)
        .status();
    if !formatted.is_ok_and(|s| s.success()) {
        eprintln!("xtask new: rustfmt did not run on the new files; run `cargo fmt --all`");
    }
    for (label, created) in [("created", true), ("edited", false)] {
        println!("{label}:");
        for c in changes.iter().filter(|c| c.created == created) {
            println!("  {}", c.path.display());
        }
    }
    let (id, module) = (&n.id, &n.module);
    println!(
        "\n{id} is a working toy model (a lost update). Next:\n\
         \x20 1. cargo test --release -p racelab-props -- {id}/   (tidy, histories, steps)\n\
         \x20 2. cargo xtask verify {id}                            (the gate, loom included)\n\
         \x20 3. replace the toy, file by file: core/src/contracts/{module}/DESIGN-NOTES.md\n\
         \x20    says what goes where; set CONTRACT's report and title in mod.rs, then\n\
         \x20    `cargo xtask readme`; re-pin changed loom cells with `cargo xtask bless {id}`\n\
         \x20 4. premises: each needs a JUnit test of its id in conformance/ (none is needed\n\
         \x20    while premises.rs is empty)"
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_derived_from_the_id() {
        let n = Names::parse("lost-update").expect("a good name");
        assert_eq!(
            n,
            Names {
                id: "lost-update".into(),
                module: "lost_update".into(),
                ty: "LostUpdate".into(),
                prefix: "LU".into(),
            }
        );
        let n = Names::parse("demo").expect("a good name");
        assert_eq!(
            (n.module.as_str(), n.ty.as_str(), n.prefix.as_str()),
            ("demo", "Demo", "DE")
        );
        for bad in [
            "",
            "Demo",
            "2x",
            "a--b",
            "-a",
            "a-",
            "lost_update",
            "a b",
            "type",
            "tidy",
        ] {
            assert!(Names::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    /// Every placeholder of every template is one `fill` knows.
    #[test]
    fn every_placeholder_is_filled() {
        let n = Names::parse("lost-update").expect("a good name");
        let all = FOLDER
            .iter()
            .map(|(_, t)| *t)
            .chain([FUZZ_TARGET, SCENARIO]);
        for t in all {
            let filled = n.fill(t);
            assert!(!filled.contains("{{"), "a placeholder left: {filled}");
        }
    }

    /// A name no one scaffolds for real: the tests still pass once `cargo xtask new demo` or
    /// `lost-update` has been run.
    const SELF_TEST: &str = "new-self-test";

    /// A fresh scratch copy of the files `plan` reads.
    fn scratch(tag: &str) -> PathBuf {
        let root = crate::phases::root();
        let dir = std::env::temp_dir().join(format!("racelab-new-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in [
            "core/src/contracts/mod.rs",
            "core/src/registry.rs",
            "fuzz/Cargo.toml",
            ".cargo/mutants.toml",
            ".github/workflows/ci.yml",
            "README.md",
        ] {
            let to = dir.join(f);
            std::fs::create_dir_all(to.parent().expect("a parent")).expect("scratch dir");
            std::fs::copy(root.join(f), &to).expect("copied");
        }
        dir
    }

    /// Scaffolding into a copy of the lists puts the contract in every one, and a second run
    /// refuses: the contract exists.
    #[test]
    fn scaffolds_into_every_list_once() {
        let dir = scratch("lists");
        let n = Names::parse(SELF_TEST).expect("a good name");
        let changes = plan(&dir, &n).expect("a plan");
        apply(&dir, &changes).expect("written");
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("readable");
        assert!(read("core/src/contracts/mod.rs").contains("pub mod new_self_test;\n"));
        let registry = read("core/src/registry.rs");
        for line in [
            "v.visit::<crate::contracts::new_self_test::NewSelfTest>();\n}",
            "\"new-self-test\" => &new_self_test::upstream::SOURCES,",
            "(\"new-self-test\", new_self_test::premises::PREMISES),\n    ]",
        ] {
            assert!(registry.contains(line), "registry.rs lacks {line}");
        }
        assert!(read("fuzz/Cargo.toml").contains("name = \"new_self_test\""));
        assert!(read(".cargo/mutants.toml")
            .contains("\"core/src/contracts/new_self_test/worker.rs\",\n]"));
        assert!(read(".github/workflows/ci.yml").contains(", new-self-test]"));
        let readme = read("README.md");
        assert!(readme.contains("### new-self-test (TOY-1)"));
        assert!(
            readme.find("### new-self-test").expect("there")
                < readme.find("<!-- end of findings -->").expect("there")
        );
        let folder = dir.join("core/src/contracts/new_self_test");
        for (file, _) in FOLDER {
            assert!(folder.join(file).is_file(), "{file}");
        }
        assert!(dir
            .join("fuzz/regressions/new_self_test/both-read-first")
            .is_file());
        assert!(dir
            .join("scenarios/new-self-test-both-read-first.scn")
            .is_file());
        let again = plan(&dir, &n).expect_err("refused");
        assert!(again.starts_with("new-self-test exists"), "{again}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A missing anchor fails before anything is written.
    #[test]
    fn a_missing_anchor_fails() {
        let dir = scratch("anchor");
        std::fs::write(dir.join(".cargo/mutants.toml"), "exclude_re = []\n").expect("written");
        let n = Names::parse(SELF_TEST).expect("a good name");
        let e = plan(&dir, &n).expect_err("no anchor");
        assert!(e.contains(".cargo/mutants.toml: anchor"), "{e}");
        assert!(!dir.join("core/src/contracts/new_self_test").exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// An existing contract is refused.
    #[test]
    fn an_existing_contract_is_refused() {
        let n = Names::parse("leader-ready").expect("a good name");
        let e = plan(&crate::phases::root(), &n).expect_err("exists");
        assert!(e.starts_with("leader-ready exists"), "{e}");
    }

    /// The toy's committed bytes are its codec's: `Increment` even, `Step(n)` `1 | n << 1`.
    #[test]
    fn the_committed_bytes_decode_as_the_toy_says() {
        assert_eq!(REGRESSION.1, [0, 0, 1, 1 | 1 << 1]);
        assert!(
            SEED.iter().filter(|b| *b % 2 == 0).count() <= 3,
            "at most three workers"
        );
    }
}
