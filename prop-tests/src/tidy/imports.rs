//! Import circles between files: the file-level graph of each crate of the workspace, built
//! from the paths its sources name (`crate::…`, `super::…`, `self::…`, in `use` items and
//! anywhere else, macro bodies included), and its circles (strongly connected components).
//!
//! A file depends on the file that defines the module a path names (the longest prefix of the
//! path that is a file's module). A module's paths into its own submodules are not edges: a
//! parent declares its children, and that is the tree, not a circle. Each crate is read by
//! itself (no circle can cross crates: cargo forbids circular dependencies).
//!
//! The sources are tokenized with proc-macro2 (the tokenizer of procedural macros), which
//! skips comments and literals and keeps an inline `mod name { … }` one group, whose `super`
//! is the file's module.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's source files by module path (`contracts::dead_node` for
/// `src/contracts/dead_node/mod.rs`), the root's path empty.
pub fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap_or(&path);
            let mut segments: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_owned())
                .collect();
            if matches!(
                segments.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                segments.pop();
            }
            // A binary's main.rs and lib.rs would both be the root: keep lib.rs.
            if segments.is_empty() && out.contains_key(&segments) {
                continue;
            }
            out.insert(segments, path);
        }
    }
    out
}

/// What a file's tokens name: paths from `crate`, `super` or `self` (made absolute), the
/// modules it imports with a glob (`use crate::contracts::*`), and the paths that start with a
/// bare name (`leader_ready::O1`), which may be a glob-imported module's.
#[derive(Default)]
struct Named {
    paths: BTreeSet<Vec<String>>,
    globs: BTreeSet<Vec<String>>,
    bare: BTreeSet<Vec<String>>,
}

/// The modules (absolute paths, unresolved) a file of module `module` names, `modules` being
/// its crate's: the glob-imported one a bare path goes through included.
fn named(
    module: &[String],
    text: &str,
    modules: &BTreeMap<Vec<String>, PathBuf>,
) -> Result<BTreeSet<Vec<String>>, String> {
    let tokens: TokenStream = text.parse().map_err(|e| format!("{e:?}"))?;
    let mut named = Named::default();
    walk(tokens, module, &mut named);
    let mut out = named.paths;
    for bare in &named.bare {
        for glob in &named.globs {
            if modules.contains_key(&[&glob[..], &bare[..1]].concat()) {
                out.insert([&glob[..], &bare[..]].concat());
            }
        }
    }
    Ok(out)
}

/// Collects the paths in `tokens`, inside module `here` (the file's module, or an inline
/// module's in it). `$crate` in a macro is read as `crate`: the defining crate's root.
fn walk(tokens: TokenStream, here: &[String], out: &mut Named) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => {
                // `mod name { … }`: the group's paths are inside `name`.
                let inline = match (i >= 2).then(|| (&trees[i - 2], &trees[i - 1])) {
                    Some((TokenTree::Ident(m), TokenTree::Ident(name)))
                        if m == "mod" && g.delimiter() == Delimiter::Brace =>
                    {
                        Some(name.to_string())
                    }
                    _ => None,
                };
                match inline {
                    Some(name) => {
                        let inner = [here, &[name]].concat();
                        walk(g.stream(), &inner, out);
                    }
                    None => walk(g.stream(), here, out),
                }
                i += 1;
            }
            TokenTree::Ident(id) if id == "use" => {
                let end = (i..trees.len())
                    .find(|&j| matches!(&trees[j], TokenTree::Punct(p) if p.as_char() == ';'))
                    .unwrap_or(trees.len());
                use_tree(&trees[i + 1..end], &[], here, out);
                i = end + 1;
            }
            TokenTree::Ident(id) if is_path_sep(&trees, i + 1) => {
                let mut segments = vec![id.to_string()];
                let mut j = i + 1;
                while is_path_sep(&trees, j) {
                    match trees.get(j + 2) {
                        Some(TokenTree::Ident(next)) => {
                            segments.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                // A macro (`crate::switches!`) is the crate root's, like every exported one.
                if matches!(trees.get(j), Some(TokenTree::Punct(p)) if p.as_char() == '!') {
                    segments.pop();
                }
                // A path from `crate`, `super` or `self`, or one from a bare name (not the
                // tail of a longer path, which `::` precedes).
                let tail = i >= 2 && is_path_sep(&trees, i - 2);
                match absolute(&segments, here) {
                    Some(path) => {
                        out.paths.insert(path);
                    }
                    None if !tail => {
                        out.bare.insert(segments);
                    }
                    None => {}
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// Whether `trees[j..]` starts with `::`.
fn is_path_sep(trees: &[TokenTree], j: usize) -> bool {
    matches!(
        (&trees.get(j), &trees.get(j + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// The paths of a `use` tree (`a::b::{c, d::e}`), each with `prefix` in front.
fn use_tree(trees: &[TokenTree], prefix: &[String], here: &[String], out: &mut Named) {
    let mut path = prefix.to_vec();
    let mut glob = false;
    for t in trees {
        match t {
            TokenTree::Ident(id) if id == "as" => break,
            TokenTree::Ident(id) => path.push(id.to_string()),
            TokenTree::Punct(p) if p.as_char() == '*' => glob = true,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for item in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                {
                    use_tree(item, &path, here, out);
                }
                return;
            }
            _ => {}
        }
    }
    if let Some(path) = absolute(&path, here) {
        if glob {
            out.globs.insert(path.clone());
        }
        out.paths.insert(path);
    }
}

/// `segments` as a path from the crate root, when it starts at `crate`, `super` or `self`
/// (paths into other crates and names in scope are not this crate's files).
fn absolute(segments: &[String], here: &[String]) -> Option<Vec<String>> {
    let mut module = here.to_vec();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            module.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                module.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    module.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(module)
}

/// The file-level graph of the crate whose sources are in `src`: each file (relative to
/// `root`) with the files it depends on.
pub fn graph(root: &Path, src: &Path) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let modules = modules(src);
    let name = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut deps = BTreeSet::new();
        for path in named(module, &text, &modules).map_err(|e| format!("{}: {e}", name(file)))? {
            // The file defining the longest prefix of the path that is a file's module.
            let Some(target) = (0..=path.len())
                .rev()
                .find(|&n| modules.contains_key(&path[..n]))
                .map(|n| &path[..n])
            else {
                continue;
            };
            // Itself, or its own submodules: the tree, not a dependency.
            if target.starts_with(module) {
                continue;
            }
            deps.insert(name(&modules[target]));
        }
        graph.insert(name(file), deps);
    }
    Ok(graph)
}

/// The circles of a graph: its strongly connected components of more than one file, each
/// sorted, in order (Tarjan's algorithm).
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, (usize, usize)>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, (n, n));
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.index[w].1;
                    let entry = self.index.get_mut(v).expect("visited");
                    entry.1 = entry.1.min(low);
                } else if self.on_stack.contains(w) {
                    let low = self.index[w].0;
                    let entry = self.index.get_mut(v).expect("visited");
                    entry.1 = entry.1.min(low);
                }
            }
            let (index, low) = self.index[v];
            if index == low {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// The edges of `graph` inside `circle`, as `a -> b` lines: what to cut.
pub fn edges_in(graph: &BTreeMap<String, BTreeSet<String>>, circle: &[String]) -> Vec<String> {
    circle
        .iter()
        .flat_map(|a| {
            graph[a]
                .iter()
                .filter(|b| circle.contains(b))
                .map(move |b| format!("{a} -> {b}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate of four files in a temporary folder: `a` and `b` import each other (one through
    /// a glob), `m/mod.rs` uses its child `m/c.rs`, which uses its parent.
    #[test]
    fn a_circle_is_found_and_the_module_tree_is_not_one() {
        let src = std::env::temp_dir().join(format!("racelab-imports-{}", std::process::id()));
        let files = [
            ("lib.rs", "mod a; mod b; mod m;"),
            (
                "a.rs",
                "use crate::m::*; pub fn f() { c::g(); crate::b::h(); }",
            ),
            (
                "b.rs",
                "// crate::m::c is a comment\npub fn h() { super::a::f(); }",
            ),
            ("m/mod.rs", "pub mod c; pub fn k() { self::c::g(); }"),
            ("m/c.rs", "pub fn g() { super::k(); let _ = \"crate::a\"; }"),
        ];
        for (name, text) in files {
            let path = src.join(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable");
            std::fs::write(path, text).expect("writable");
        }
        let g = graph(&src, &src).expect("parses");
        let deps = |f: &str| g[f].iter().map(String::as_str).collect::<Vec<_>>();
        assert_eq!(deps("a.rs"), ["b.rs", "m/c.rs", "m/mod.rs"]);
        assert_eq!(deps("b.rs"), ["a.rs"]);
        assert_eq!(deps("m/c.rs"), ["m/mod.rs"]);
        assert!(deps("m/mod.rs").is_empty());
        assert_eq!(circles(&g), [["a.rs", "b.rs"]]);
        assert_eq!(
            edges_in(&g, &circles(&g)[0]),
            ["a.rs -> b.rs", "b.rs -> a.rs"]
        );
        std::fs::remove_dir_all(&src).expect("removable");
    }
}
