//! Where each recorded step is in the upstream source: per contract, the file of every class its
//! steps name and the line of every `Class.method` at the baseline's commit, read from the
//! source (the numbers are facts about the upstream tree, not copied code). A recorded name that
//! is not an upstream method at that commit has no line: it is listed as unlinked, with why and
//! where upstream's closest method is.
//!
//! Each contract holds its table in `contracts/<contract>/upstream.rs` as `SOURCES`; the
//! registry finds it by contract id ([`crate::registry::sources`]).

use crate::model::{Baseline, REPORT};

/// A tree other than the baseline's: a class of a dependency (Ratis, for Ozone's SCM), at the
/// version the baseline builds with.
#[derive(Debug)]
pub struct Tree {
    /// `apache/ratis`.
    pub repo: &'static str,
    /// The commit (or tag) the lines were read at.
    pub commit: &'static str,
    /// Why this tree: `ratis.version 3.2.1 in ozone's pom.xml at 78d5650c`.
    pub why: &'static str,
}

/// The file of a class named by recorded steps.
#[derive(Debug)]
pub struct Class {
    /// As in the recorded `Class.method`.
    pub name: &'static str,
    /// The path in the repository.
    pub path: &'static str,
    /// `None`: the baseline's repository and commit.
    pub tree: Option<&'static Tree>,
    /// Whether upstream has one object of this class per datanode, so that a step whose detail
    /// begins with `dnN` touches `Class dnN` (a participant of its own in a sequence diagram).
    pub per_datanode: bool,
}

impl Class {
    pub const fn new(name: &'static str, path: &'static str) -> Class {
        Class {
            name,
            path,
            tree: None,
            per_datanode: false,
        }
    }

    /// One object per datanode.
    pub const fn per_datanode(self) -> Class {
        Class {
            per_datanode: true,
            ..self
        }
    }

    /// Read from another tree.
    pub const fn in_tree(self, tree: &'static Tree) -> Class {
        Class {
            tree: Some(tree),
            ..self
        }
    }
}

/// The line of a recorded `Class.method`'s declaration.
#[derive(Debug)]
pub struct Line {
    pub method: &'static str,
    pub line: u32,
}

/// The lines at one baseline's commit.
#[derive(Debug)]
pub struct Lines {
    /// The [`Baseline`]'s name ([`REPORT`] first).
    pub baseline: &'static str,
    pub lines: &'static [Line],
}

/// A recorded name with no line: not an upstream method at the baseline (a model's own name, a
/// renamed or a later method), or one whose line could not be read. The step still links to its
/// class's file when the class is in the map.
#[derive(Debug)]
pub struct Unlinked {
    pub method: &'static str,
    /// Why, and where upstream's closest method is.
    pub why: &'static str,
}

/// A contract's table.
#[derive(Debug)]
pub struct Sources {
    pub classes: &'static [Class],
    /// Per baseline; a baseline without its own lines links to files only.
    pub lines: &'static [Lines],
    pub unlinked: &'static [Unlinked],
}

/// Where a step links to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub url: String,
    /// `None`: the file only (the method is unlinked, or its baseline has no lines).
    pub line: Option<u32>,
}

impl Sources {
    /// A contract without a table.
    pub const EMPTY: Sources = Sources {
        classes: &[],
        lines: &[],
        unlinked: &[],
    };

    pub fn class(&self, name: &str) -> Option<&'static Class> {
        self.classes.iter().find(|c| c.name == name)
    }

    /// The line of `method` at `baseline`; a class read from another [`Tree`] uses
    /// [`REPORT`]'s lines, whatever the baseline.
    pub fn line(&self, baseline: &str, method: &str) -> Option<u32> {
        let (class, _) = method.split_once('.')?;
        let baseline = match self.class(class)?.tree {
            Some(_) => REPORT,
            None => baseline,
        };
        self.lines
            .iter()
            .find(|l| l.baseline == baseline)?
            .lines
            .iter()
            .find(|l| l.method == method)
            .map(|l| l.line)
    }

    pub fn unlinked(&self, method: &str) -> Option<&'static Unlinked> {
        self.unlinked.iter().find(|u| u.method == method)
    }

    /// The link of a step of `method` in a row built on `baseline`: its line at that commit, or
    /// its class's file where the line is not known; `None` for a class not in the map.
    pub fn link(&self, repo: &str, commit: &str, baseline: &str, method: &str) -> Option<Link> {
        let (class, _) = method.split_once('.')?;
        let c = self.class(class)?;
        let (repo, commit) = c.tree.map_or((repo, commit), |t| (t.repo, t.commit));
        let line = self.line(baseline, method);
        let anchor = line.map_or(String::new(), |l| format!("#L{l}"));
        Some(Link {
            url: format!("https://github.com/{repo}/blob/{commit}/{}{anchor}", c.path),
            line,
        })
    }

    /// [`Sources::link`] for a [`Baseline`].
    pub fn link_at<F>(&self, baseline: &Baseline<F>, method: &str) -> Option<Link> {
        self.link(baseline.repo, baseline.commit, baseline.name, method)
    }

    /// How many recorded methods have a line at `baseline`.
    pub fn linked(&self, baseline: &str) -> usize {
        self.lines
            .iter()
            .find(|l| l.baseline == baseline)
            .map_or(0, |l| l.lines.len())
    }

    /// Mistakes in the table itself: a line or an unlinked name of a class not in the map, a
    /// name both linked and unlinked, a name twice, a line 0, an unlinked name without a reason.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut seen: Vec<(&str, &str)> = Vec::new();
        let names = self
            .lines
            .iter()
            .flat_map(|l| l.lines.iter().map(move |m| (l.baseline, m.method, m.line)));
        for (baseline, method, line) in names {
            if seen.contains(&(baseline, method)) {
                out.push(format!("{method}: two lines at {baseline}"));
            }
            seen.push((baseline, method));
            if line == 0 {
                out.push(format!("{method}: line 0"));
            }
            if self.unlinked(method).is_some() {
                out.push(format!("{method}: both linked and unlinked"));
            }
        }
        for (method, class) in self
            .lines
            .iter()
            .flat_map(|l| l.lines.iter().map(|m| m.method))
            .chain(self.unlinked.iter().map(|u| u.method))
            .filter_map(|m| m.split_once('.').map(|(c, _)| (m, c)))
        {
            if self.class(class).is_none() {
                out.push(format!("{method}: class {class} has no path"));
            }
        }
        for u in self.unlinked {
            if u.why.trim().is_empty() {
                out.push(format!("{}: unlinked without a reason", u.method));
            }
        }
        out
    }
}

/// The `Class.method` names a contract's sources record: every string literal of that form in
/// the Rust files of its folder (the methods passed to `record`, and the consts holding them).
/// The test below requires each to have a line or a reason.
#[cfg(all(test, not(loom)))]
fn recorded_names(folder: &std::path::Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .expect("the contract folder is readable")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        // a premise names the upstream method its JUnit test drives, which the model need not
        // record as a step
        .filter(|p| !p.ends_with("premises.rs"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file is readable");
        for literal in text.split('"').skip(1).step_by(2) {
            if is_method_name(literal) && !names.iter().any(|n| n == literal) {
                names.push(literal.to_owned());
            }
        }
    }
    names
}

/// `^[A-Z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$`.
#[cfg(all(test, not(loom)))]
fn is_method_name(s: &str) -> bool {
    let Some((class, method)) = s.split_once('.') else {
        return false;
    };
    let word = |w: &str, first: fn(&char) -> bool| {
        let mut cs = w.chars();
        cs.next().is_some_and(|c| first(&c)) && cs.all(|c| c.is_ascii_alphanumeric())
    };
    word(class, char::is_ascii_uppercase) && word(method, char::is_ascii_lowercase)
}

#[cfg(all(test, not(loom)))]
mod tests;
