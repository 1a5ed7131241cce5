//! Every registered contract's table against its sources: in a file of its own, since it
//! needs the registry, which lists every contract and so sits above this module.

use super::*;
use crate::registry::{self, Visitor};

/// Every `Class.method` a contract's sources name has a line at the report's commit or an
/// unlinked entry with its reason; the table names no method the sources do not record.
#[test]
fn every_recorded_method_links_to_upstream() {
    struct Check(Vec<String>);
    impl Visitor for Check {
        fn visit<M: registry::Registered>(&mut self) {
            let id = M::CONTRACT.id;
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src/contracts")
                .join(M::CONTRACT.module);
            let sources = registry::sources(id);
            let recorded = recorded_names(&folder);
            assert!(!recorded.is_empty(), "{id}: no recorded names found");
            for name in &recorded {
                if sources.line(REPORT, name).is_none() && sources.unlinked(name).is_none() {
                    self.0.push(format!(
                        "{id}: {name} is recorded but has no line in upstream.rs and no \
                         unlinked entry with its reason"
                    ));
                }
            }
            let listed = sources
                .lines
                .iter()
                .flat_map(|l| l.lines.iter().map(|m| m.method))
                .chain(sources.unlinked.iter().map(|u| u.method));
            for name in listed {
                if !recorded.iter().any(|r| r == name) {
                    self.0
                        .push(format!("{id}: upstream.rs lists {name}, never recorded"));
                }
            }
            self.0
                .extend(sources.problems().into_iter().map(|p| format!("{id}: {p}")));
            for b in M::BASELINES {
                if let Some(l) = sources.lines.iter().find(|l| l.baseline == b.name) {
                    assert!(!l.lines.is_empty(), "{id}: empty lines for {}", b.name);
                }
            }
        }
    }
    let mut check = Check(Vec::new());
    registry::visit(&mut check);
    assert!(check.0.is_empty(), "{}", check.0.join("\n"));
}

#[test]
fn method_names_are_recognized() {
    assert!(is_method_name("SCMContext.setLeaderReady"));
    assert!(is_method_name("Scheduler.scheduleNextBlockReport"));
    assert!(!is_method_name("dn1.c5"));
    assert!(!is_method_name("SCMContext.SetLeaderReady"));
    assert!(!is_method_name("SCMContext.set leader"));
    assert!(!is_method_name("a.b.c"));
    assert!(!is_method_name("Fix.p1_x"));
}

#[test]
fn a_link_is_the_line_at_the_commit_or_the_file() {
    static RATIS: Tree = Tree {
        repo: "apache/ratis",
        commit: "r1",
        why: "test",
    };
    static S: Sources = Sources {
        classes: &[
            Class::new("A", "src/A.java"),
            Class::new("R", "r/R.java").in_tree(&RATIS),
        ],
        lines: &[
            Lines {
                baseline: REPORT,
                lines: &[
                    Line {
                        method: "A.f",
                        line: 12,
                    },
                    Line {
                        method: "R.g",
                        line: 7,
                    },
                ],
            },
            Lines {
                baseline: "trunk",
                lines: &[Line {
                    method: "A.f",
                    line: 15,
                }],
            },
        ],
        unlinked: &[Unlinked {
            method: "A.helper",
            why: "the model's name",
        }],
    };
    let at = |b: &str, m: &str| S.link("apache/x", "c0", b, m).map(|l| l.url);
    assert_eq!(
        at(REPORT, "A.f").as_deref(),
        Some("https://github.com/apache/x/blob/c0/src/A.java#L12")
    );
    assert_eq!(
        at("trunk", "A.f").as_deref(),
        Some("https://github.com/apache/x/blob/c0/src/A.java#L15")
    );
    assert_eq!(
        at("other", "A.f").as_deref(),
        Some("https://github.com/apache/x/blob/c0/src/A.java")
    );
    assert_eq!(
        at("trunk", "R.g").as_deref(),
        Some("https://github.com/apache/ratis/blob/r1/r/R.java#L7")
    );
    assert_eq!(
        at(REPORT, "A.helper").as_deref(),
        Some("https://github.com/apache/x/blob/c0/src/A.java")
    );
    assert_eq!(at(REPORT, "B.f"), None);
    assert!(S.problems().is_empty(), "{:?}", S.problems());
}
