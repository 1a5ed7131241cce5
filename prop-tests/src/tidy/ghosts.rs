//! No ghost read in fix code (issue 37, item 3). A ghost is state that only the outcome
//! predicates and the timelines may read: its primitives are loom's unseen ones
//! (`racelab_core::sync::unseen`), so loom explores no order for a read of one. If code that a
//! switch chooses read a ghost, a fix (or a mutant of it) could decide on state loom cannot
//! order, and an unreachable loom cell would stay unreachable, its pin unchanged, whatever that
//! read decided.
//!
//! What is a ghost, as the contracts write it: a field or a function whose doc comment begins
//! `/// Ghost`, and every public function of a contract's `ghost.rs` that returns a value from
//! `&self`. A function that returns nothing is a recording (a ghost write), which fix code may
//! make; so may it assign a ghost field.
//!
//! What is fix code: the code a switch read chooses. For each `fix.NAME.get()` outside the
//! contract's spec, claims and tests, its statement: up to its `;` when no block opens first,
//! otherwise the block that opens (an `if` or a `match` on the switch) and every `else` block
//! after it.

use std::collections::BTreeSet;

/// The files of a contract that hold no step: the spec (its switches' declarations and
/// parts), its claims and tests, its histories and scenarios' drivers, its reports.
const NOT_STEPS: &[&str] = &[
    "mod.rs",
    "claims.rs",
    "tests.rs",
    "findings.rs",
    "premises.rs",
    "upstream.rs",
    "reproductions.rs",
    "histories.rs",
    "scenarios.rs",
];

/// The ghosts `text` declares: fields and getters whose doc comment begins `/// Ghost`, and
/// with `all_getters` (a contract's `ghost.rs`) every public getter.
pub fn ghost_names(text: &str, all_getters: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut doc_is_ghost = false;
    let mut in_doc = false;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(doc) = t.strip_prefix("///") {
            if !in_doc {
                doc_is_ghost = doc.trim_start().starts_with("Ghost");
                in_doc = true;
            }
            continue;
        }
        if t.starts_with("#[") {
            continue;
        }
        let ghost = in_doc && doc_is_ghost;
        in_doc = false;
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = t
            .strip_prefix("pub(super) ")
            .or_else(|| t.strip_prefix("pub(crate) "))
            .unwrap_or(t);
        if let Some(f) = t.strip_prefix("fn ") {
            let name: String = f
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // A getter: it returns a value, from `&self` (an accessor for writing takes
            // `&mut self`). Of a `ghost.rs`, only the public ones (the rest are its own helpers).
            let returns = line.contains("->") && !line.contains("&mut self");
            let public = line.trim_start().starts_with("pub");
            if returns && (ghost || (all_getters && public)) {
                out.insert(name);
            }
        } else if ghost {
            // A field: `name: Type,`.
            if let Some((name, _)) = t.split_once(':') {
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.insert(name.to_owned());
                }
            }
        }
    }
    out
}

/// `text` without its comments and its test module (from `#[cfg(all(test` or `#[cfg(test)]` on,
/// whichever comes first), with the same lines: line comments blanked, so that positions still
/// give line numbers.
fn code_of(text: &str) -> String {
    let end = ["#[cfg(all(test", "#[cfg(test)]"]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The end of the brace block opening at `open` (the index after its `}`).
fn block_end(code: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The fix code of one switch read at `at`: its statement up to a `;`, or the block that
/// opens first and the `else` blocks after it.
fn region(code: &str, at: usize) -> (usize, usize) {
    let bytes = code.as_bytes();
    let mut depth = 0i32;
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth <= 0 => return (at, i),
            b'{' if depth <= 0 => {
                let mut end = block_end(bytes, i);
                loop {
                    let rest = code[end..].trim_start();
                    if !rest.starts_with("else") {
                        return (at, end);
                    }
                    let open = end + code[end..].find('{').unwrap_or(code.len() - end);
                    end = block_end(bytes, open);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (at, bytes.len())
}

/// The end of the block enclosing `at` (the index of its `}`).
fn enclosing_end(code: &[u8], at: usize) -> usize {
    let mut depth = 0i32;
    for (i, &c) in code.iter().enumerate().skip(at) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Whether `word` occurs in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(p, _)| {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        !text[..p].chars().next_back().is_some_and(ident)
            && !text[p + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The switch's further fix code where its read is bound to a local (`let x = fix.S.get()..;`
/// ending at `end`): every `if` or `match` after it, in the enclosing block, whose head (up to
/// its block) names `x`.
fn bound_regions(code: &str, statement: (usize, usize)) -> Vec<(usize, usize)> {
    let line_start = code[..statement.0].rfind('\n').map_or(0, |i| i + 1);
    let head = code[line_start..statement.0].trim_start();
    let Some(rest) = head.strip_prefix("let ") else {
        return Vec::new();
    };
    let rest = rest.strip_prefix("mut ").unwrap_or(rest);
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return Vec::new();
    }
    let bytes = code.as_bytes();
    let scope_end = enclosing_end(bytes, statement.1);
    let mut out = Vec::new();
    let mut i = statement.1;
    while i < scope_end {
        let keyword = ["if ", "match "]
            .iter()
            .filter_map(|k| code[i..scope_end].find(k).map(|p| i + p))
            .min();
        let Some(k) = keyword else { break };
        let open = k + code[k..scope_end].find('{').unwrap_or(scope_end - k);
        if has_word(&code[k..open], &name) {
            let (_, end) = region(code, k);
            out.push((k, end));
        }
        i = open + 1;
    }
    out
}

/// Whether the use of `name` at `at` in `code` is a write: an assignment to it (`name =`, not
/// `==`).
fn is_assignment(code: &str, after: usize) -> bool {
    let rest = code[after..].trim_start();
    rest.starts_with('=') && !rest.starts_with("==")
}

/// The ghost reads in the fix code of `text` (a component file), as `line: what` sentences.
pub fn ghost_reads_in(text: &str, ghosts: &BTreeSet<String>) -> Vec<String> {
    let code = code_of(text);
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("fix.") {
        let at = from + found;
        from = at + 4;
        let switch: String = code[at + 4..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !code[at + 4 + switch.len()..].starts_with(".get()") {
            continue;
        }
        let statement = region(&code, at);
        for (start, end) in std::iter::once(statement).chain(bound_regions(&code, statement)) {
            let body = &code[start..end];
            for name in ghosts {
                let mut k = 0;
                while let Some(f) = body[k..].find(name.as_str()) {
                    let p = k + f;
                    k = p + name.len();
                    let before = body[..p].chars().next_back();
                    let after = body[p + name.len()..].chars().next();
                    let word = !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
                    // A field or a method of something (`x.name`), not a local of the same name.
                    if !word || before != Some('.') || is_assignment(body, p + name.len()) {
                        continue;
                    }
                    let line = code[..start + p].lines().count();
                    if seen.insert((line, name.clone())) {
                        out.push(format!(
                            "{line}: the fix code of switch `{switch}` reads the ghost `{name}`"
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Every ghost read in fix code in `core/src/contracts/` (`root` the workspace), as
/// `file:line: what` sentences.
pub fn ghost_reads(root: &std::path::Path) -> Vec<String> {
    let contracts = root.join("core/src/contracts");
    let mut out = Vec::new();
    for name in super::names_in(&contracts) {
        let folder = contracts.join(&name);
        if !folder.is_dir() {
            continue;
        }
        let files: Vec<_> = super::rust_files(&folder)
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                (p, text)
            })
            .collect();
        let mut ghosts = BTreeSet::new();
        for (path, text) in &files {
            let all_getters = path.file_name().is_some_and(|f| f == "ghost.rs");
            ghosts.extend(ghost_names(text, all_getters));
        }
        for (path, text) in &files {
            let rel = path.strip_prefix(&folder).unwrap_or(path);
            if rel
                .to_str()
                .is_some_and(|r| NOT_STEPS.contains(&r) || r.starts_with("speed"))
            {
                continue;
            }
            for problem in ghost_reads_in(text, &ghosts) {
                out.push(format!(
                    "core/src/contracts/{name}/{}:{problem}",
                    rel.display()
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMPONENT: &str = r#"
pub struct Ratis {
    current: AtomicU64,
    /// Ghost: the term entered, beside `current`.
    entered: Ghost,
}

impl Ratis {
    /// Ghost: the term entered.
    pub fn entered_term(&self) -> u64 {
        self.entered.load(GhostOrdering::SeqCst)
    }
    /// Ghost: records a win.
    pub fn won(&self) {}
    pub fn current_term(&self) -> u64 {
        self.current.load(Ordering::SeqCst)
    }
}

fn start(w: &World, me: &mut Me) {
    // The patch's read, and the ghost beside it, outside any switch's code: allowed.
    me.at_start = w.ratis.entered_term();
    me.term = match w.fix.term.get() {
        Source::Patch => Some(w.ratis.current_term()),
        Source::Entry => Some(me.entry_term),
        SLIP
    };
    if w.fix.guard.get() {
        w.ratis.won();
        me.entered = 0;
    }
}
"#;

    fn component(slip: &str) -> String {
        COMPONENT.replace("SLIP", slip)
    }

    #[test]
    fn the_ghosts_are_the_documented_fields_and_getters() {
        let names: Vec<String> = ghost_names(COMPONENT, false).into_iter().collect();
        assert_eq!(names, ["entered", "entered_term"]);
        let all: Vec<String> = ghost_names(COMPONENT, true).into_iter().collect();
        assert_eq!(all, ["current_term", "entered", "entered_term"]);
        let helpers = "    fn state(&self) -> u8 {}\n    pub fn node(&mut self) -> &mut u8 {}\n";
        assert!(ghost_names(helpers, true).is_empty());
    }

    /// A ghost read in the code a switch chooses is found, by its line; a ghost write there (a
    /// recording, an assignment) and a ghost read outside it are not.
    #[test]
    fn a_ghost_read_in_fix_code_is_found() {
        let ghosts = ghost_names(COMPONENT, false);
        assert_eq!(
            ghost_reads_in(&component(""), &ghosts),
            Vec::<String>::new()
        );
        let bad = component("Source::Slip => Some(w.ratis.entered_term()),");
        assert_eq!(
            ghost_reads_in(&bad, &ghosts),
            ["26: the fix code of switch `term` reads the ghost `entered_term`"]
        );
        let field = component("Source::Slip => Some(w.ratis.entered.load(SeqCst)),");
        assert_eq!(
            ghost_reads_in(&field, &ghosts),
            ["26: the fix code of switch `term` reads the ghost `entered`"]
        );
    }

    /// Where the switch is bound to a local, in an `if` or a `match` on that local later in
    /// the block; not in one on another local.
    #[test]
    fn a_switch_bound_to_a_local_is_followed() {
        let ghosts = ghost_names(COMPONENT, false);
        let text = component("").replace(
            "    if w.fix.guard.get() {",
            "    let guarded = w.fix.guard.get();\n    if other {\n        me.t = w.ratis.entered_term();\n    }\n    \
             if guarded && me.ok {\n        me.t = w.ratis.entered_term();\n    }\n    if guarded {",
        );
        assert_eq!(
            ghost_reads_in(&text, &ghosts),
            ["33: the fix code of switch `guard` reads the ghost `entered_term`"]
        );
    }

    /// In an `else` block of the switch's `if`, and in a statement with no block.
    #[test]
    fn else_blocks_and_plain_statements_are_fix_code() {
        let ghosts = ghost_names(COMPONENT, false);
        let text = component("").replace(
            "        me.entered = 0;\n    }",
            "        me.entered = 0;\n    } else {\n        me.t = w.ratis.entered_term();\n    }\n    \
             let t = w.fix.term.get() == Source::Patch && me.entered > 0;",
        );
        assert_eq!(
            ghost_reads_in(&text, &ghosts),
            [
                "32: the fix code of switch `guard` reads the ghost `entered_term`",
                "34: the fix code of switch `term` reads the ghost `entered`",
            ]
        );
    }
}
