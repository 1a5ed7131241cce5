//! `cargo xtask bless [CONTRACT...]`: re-pins the loom cells' execution counts, and the hash
//! of an unreachable cell's final states (`.final_states(0x…)` after its method, see
//! `racelab_core::report::final_states_hash`), after a reviewed model change, from the records
//! the last `cargo xtask test` (or `verify`) left, printing old → new for each pin it changes. A pinned count is the tripwire that says "the model or
//! the scenario changed"; blessing is the review's last step, never its first, so a cell whose
//! verdict deviates from its claim is not re-pinned.

use crate::phases::root;
use racelab_core::claims::{Checker, Verdict};
use racelab_core::report::{load_records, CellResult};
use std::path::Path;
use std::process::ExitCode;

/// One re-pin: the claim's cell and its pins, before and after.
#[derive(Debug, PartialEq)]
pub struct Repin {
    pub variant: String,
    pub outcome: String,
    /// A path cell's scenario.
    pub path: Option<String>,
    pub old: Pins,
    pub new: Pins,
}

impl std::fmt::Display for Repin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hash = |h: Option<u64>| h.map_or("none".to_owned(), |h| format!("{h:#018x}"));
        write!(f, "{}/{}", self.variant, self.outcome)?;
        if let Some(s) = &self.path {
            write!(f, " (path {s})")?;
        }
        write!(f, ":")?;
        if self.old.executions != self.new.executions {
            write!(
                f,
                " {} → {} executions",
                self.old.executions, self.new.executions
            )?;
        }
        if self.old.final_states != self.new.final_states {
            write!(
                f,
                " final states {} → {}",
                hash(self.old.final_states),
                hash(self.new.final_states)
            )?;
        }
        Ok(())
    }
}

/// The span of each `Claim { ... }` literal in a claims file, braces balanced.
fn claim_blocks(source: &str) -> Vec<(usize, usize)> {
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(i) = source[from..].find("Claim {") {
        let start = from + i;
        let mut depth = 0usize;
        let mut end = None;
        for (j, c) in source[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(start + j + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        blocks.push((start, end));
        from = end;
    }
    blocks
}

/// The text of a field `name: VALUE` in a claim block, up to the next `,` at depth 0.
fn field<'a>(block: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let at = block.find(&format!("{name}: "))? + name.len() + 2;
    let mut depth = 0i32;
    let mut in_string = false;
    for (i, c) in block[at..].char_indices() {
        match c {
            '"' => in_string = !in_string,
            '(' | '[' | '{' if !in_string => depth += 1,
            ')' | ']' | '}' if !in_string => {
                if depth == 0 {
                    return Some((at, &block[at..at + i]));
                }
                depth -= 1;
            }
            ',' if !in_string && depth == 0 => return Some((at, &block[at..at + i])),
            _ => {}
        }
    }
    None
}

/// The last integer literal of `text` (the pinned count of a loom method call), with its span.
fn last_integer(text: &str) -> Option<(usize, usize, u64)> {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    while end > 0 && !bytes[end - 1].is_ascii_digit() {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && (bytes[start - 1].is_ascii_digit() || bytes[start - 1] == b'_') {
        start -= 1;
    }
    let value = text[start..end].replace('_', "").parse().ok()?;
    Some((start, end, value))
}

/// The call that pins a loom cell's final states: `.final_states(0x…)` after its method.
const FINAL_STATES: &str = ".final_states(";

/// How a pinned hash is written: 16 hex digits in groups of four.
pub fn hash_literal(hash: u64) -> String {
    let digits = format!("{hash:016x}");
    let groups: Vec<&str> = (0..4).map(|i| &digits[4 * i..4 * i + 4]).collect();
    format!("0x{}", groups.join("_"))
}

/// A loom cell's pins, as its claim writes them.
#[derive(Debug, PartialEq)]
pub struct Pins {
    pub executions: u64,
    pub final_states: Option<u64>,
}

/// The call that makes a loom cell a path cell ([`racelab_core::claims::Method::loom_path`]).
const LOOM_PATH: &str = "loom_path(";

/// `source` with the pins of the loom claim `variant`/`outcome` set to `new` (the count, and
/// the final states' hash: written as `.final_states(0x…)` after the method, or removed when
/// `None`): the old pins, and the new text. `path` is `None` for the row's headline cell, and
/// for a path cell its place among the row's path cells of that outcome, in claim order (the
/// `Method::loom_path` literals of that variant and outcome, counted from 0). `None` when no
/// such claim is written as a literal with a `Method::loom`-style call in its `method` field
/// (then it is re-pinned by hand).
pub fn repin(
    source: &str,
    variant: &str,
    outcome: &str,
    path: Option<usize>,
    new: &Pins,
) -> Option<(Pins, String)> {
    let wanted_variant = format!("\"{variant}\"");
    let wanted_outcome = format!("&{outcome}");
    let mut paths_seen = 0;
    for (start, end) in claim_blocks(source) {
        let block = &source[start..end];
        let (Some((_, v)), Some((_, o))) = (field(block, "variant"), field(block, "outcome"))
        else {
            continue;
        };
        if v.trim() != wanted_variant || o.trim() != wanted_outcome {
            continue;
        }
        let (at, method) = field(block, "method")?;
        if method.contains("Proptest")
            || method.contains("Quickcheck")
            || method.contains("Fuzz")
            || method.contains("real(")
        {
            continue;
        }
        match (path, method.contains(LOOM_PATH)) {
            (None, false) => {}
            (Some(nth), true) => {
                paths_seen += 1;
                if paths_seen - 1 != nth {
                    continue;
                }
            }
            _ => continue,
        }
        let method = method.trim_end();
        // The method call, and the pinned hash after it when there is one.
        let (call, old_hash) = match method.find(FINAL_STATES) {
            Some(i) => {
                let inner = method[i + FINAL_STATES.len()..].strip_suffix(')')?;
                let hex = inner.trim().strip_prefix("0x")?.replace('_', "");
                (&method[..i], Some(u64::from_str_radix(&hex, 16).ok()?))
            }
            None => (method, None),
        };
        let (from, to, old) = last_integer(call)?;
        let hash = new
            .final_states
            .map(|h| format!("{FINAL_STATES}{})", hash_literal(h)))
            .unwrap_or_default();
        let at = start + at;
        let text = format!(
            "{}{}{}{hash}{}",
            &source[..at + from],
            new.executions,
            &call[to..],
            &source[at + method.len()..]
        );
        let old = Pins {
            executions: old,
            final_states: old_hash,
        };
        return Some((old, text));
    }
    None
}

/// Re-pins every loom cell of `contracts` whose record's count differs from its pin.
pub fn run(contracts: &[String]) -> ExitCode {
    let results = root().join("target/racelab/results");
    let cells = match load_records(&results) {
        Ok((cells, _)) => cells,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let loom: Vec<&CellResult> = cells
        .iter()
        .filter(|c| c.checker == Checker::Loom && contracts.contains(&c.contract))
        .collect();
    if loom.is_empty() {
        eprintln!(
            "error: no loom record in {}: run `cargo xtask test` (or `verify`) first",
            results.display()
        );
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    let mut changed = 0;
    for entry in racelab_core::registry::all() {
        let cells = &entry.cells;
        if !contracts.iter().any(|c| c == entry.contract.id) {
            continue;
        }
        let path = root()
            .join("core/src/contracts")
            .join(entry.contract.module)
            .join("claims.rs");
        match bless_file(
            &path,
            loom.iter().filter(|c| c.contract == entry.contract.id),
            cells,
        ) {
            Ok(repins) => {
                for r in &repins {
                    println!("{} {r}", entry.contract.id);
                }
                changed += repins.len();
            }
            Err(problems) => {
                for p in problems {
                    eprintln!("error: {p}");
                }
                failed = true;
            }
        }
    }
    println!("{changed} pin(s) changed");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Re-pins the cells of one claims file; writes it only when every cell could be re-pinned.
fn bless_file<'a>(
    path: &Path,
    records: impl Iterator<Item = &'a &'a CellResult>,
    cells: &[racelab_core::claims::ExpectedCell],
) -> Result<Vec<Repin>, Vec<String>> {
    let file = path.display();
    let mut source = std::fs::read_to_string(path).map_err(|e| vec![format!("{file}: {e}")])?;
    let (mut repins, mut problems) = (Vec::new(), Vec::new());
    for r in records {
        let Some(executions) = r.executions else {
            continue;
        };
        // An unreachable cell's final states; a reachable cell's exploration stops at its
        // counterexample and pins none.
        let final_states = match (r.observed, r.final_states_hash) {
            (Verdict::Unreachable, None) => {
                problems.push(format!(
                    "{file}: {}/{} is not re-pinned: its record has no final states' hash (a \
                     record from before they were hashed? run the cells again)",
                    r.variant, r.outcome
                ));
                continue;
            }
            (Verdict::Unreachable, hash) => hash,
            (Verdict::Reachable, _) => None,
        };
        let new = Pins {
            executions,
            final_states,
        };
        if r.observed != r.expected {
            problems.push(format!(
                "{file}: {}/{} is not re-pinned: loom observed {}, the claim says {} (review the \
                 verdict first)",
                r.variant, r.outcome, r.observed, r.expected
            ));
            continue;
        }
        // a path cell's place among its row's path cells of that outcome, in claim order
        let nth = r.path.then(|| {
            cells
                .iter()
                .filter(|e| {
                    e.checker == Checker::Loom
                        && e.path
                        && (e.variant, e.outcome) == (r.variant.as_str(), r.outcome.as_str())
                })
                .position(|e| e.scenario == r.scenario.as_deref())
        });
        let nth = match nth {
            Some(None) => {
                problems.push(format!(
                    "{file}: {} is not re-pinned: no such path cell is claimed",
                    r.key()
                ));
                continue;
            }
            Some(Some(n)) => Some(n),
            None => None,
        };
        match repin(&source, &r.variant, &r.outcome, nth, &new) {
            Some((old, _)) if old == new => {}
            Some((old, text)) => {
                source = text;
                repins.push(Repin {
                    variant: r.variant.clone(),
                    outcome: r.outcome.clone(),
                    path: r.path_scenario().map(str::to_owned),
                    old,
                    new,
                });
            }
            None => problems.push(format!(
                "{file}: no literal `Claim {{ variant: \"{}\", outcome: &{}, method: …(…, N) }}` \
                 to re-pin to {} executions: re-pin it by hand",
                r.variant, r.outcome, new.executions
            )),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if !repins.is_empty() {
        std::fs::write(path, source).map_err(|e| vec![format!("{file}: {e}")])?;
    }
    Ok(repins)
}

#[cfg(test)]
mod tests {
    use super::{hash_literal, repin, Pins};

    const CLAIMS: &str = r#"
        Claim { variant: "upstream", outcome: &O1, expected: R, method: Method::loom(RACE, 95_878),
            note: "report: closed, {braces} and (parens)" },
        Claim { variant: "P1", outcome: &O1, expected: U, method: double(621), note: "x" },
        Claim { variant: "P1", outcome: &O2, expected: U, method: Method::loom_bounded(S, 3, 40),
            note: "y" },
        Claim { variant: "P1", outcome: &O3, expected: R, method: Method::Proptest { cases: 256 },
            note: "z" },
        Claim { variant: "P2", outcome: &O2, expected: U,
            method: Method::loom(S, 12).final_states(0x0123_4567_89ab_cdef), note: "w" },
        Claim { variant: "P2", outcome: &O2, expected: U,
            method: Method::loom_path(FIRST, 30).final_states(0x0000_0000_0000_0001), note: "p" },
        Claim { variant: "P2", outcome: &O2, expected: R, method: Method::real("X_O2"), note: "j" },
        Claim { variant: "P2", outcome: &O2, expected: U,
            method: Method::loom_path(SECOND, 50).final_states(0x0000_0000_0000_0002), note: "q" },
    "#;

    fn pins(executions: u64, final_states: Option<u64>) -> Pins {
        Pins {
            executions,
            final_states,
        }
    }

    #[test]
    fn the_pin_of_the_named_claim_changes_and_nothing_else() {
        let (old, text) = repin(CLAIMS, "upstream", "O1", None, &pins(96_000, None)).unwrap();
        assert_eq!(old, pins(95_878, None));
        assert_eq!(text, CLAIMS.replace("95_878", "96000"));
        let (old, text) = repin(CLAIMS, "P1", "O1", None, &pins(7, None)).unwrap();
        assert_eq!(
            (old, text),
            (pins(621, None), CLAIMS.replace("double(621)", "double(7)"))
        );
        let (old, text) = repin(CLAIMS, "P1", "O2", None, &pins(41, None)).unwrap();
        assert_eq!(
            (old, text),
            (pins(40, None), CLAIMS.replace("3, 40)", "3, 41)"))
        );
    }

    #[test]
    fn the_final_states_hash_is_written_after_the_method_replaced_or_removed() {
        let (old, text) = repin(CLAIMS, "P1", "O1", None, &pins(621, Some(0xabc))).unwrap();
        assert_eq!(old, pins(621, None));
        assert_eq!(
            text,
            CLAIMS.replace(
                "double(621),",
                "double(621).final_states(0x0000_0000_0000_0abc),"
            )
        );
        let (old, text) = repin(CLAIMS, "P2", "O2", None, &pins(13, Some(u64::MAX))).unwrap();
        assert_eq!(old, pins(12, Some(0x0123_4567_89ab_cdef)));
        assert_eq!(
            text,
            CLAIMS.replace(
                "loom(S, 12).final_states(0x0123_4567_89ab_cdef)",
                "loom(S, 13).final_states(0xffff_ffff_ffff_ffff)"
            )
        );
        let (old, text) = repin(CLAIMS, "P2", "O2", None, &pins(12, None)).unwrap();
        assert_eq!(old, pins(12, Some(0x0123_4567_89ab_cdef)));
        assert_eq!(
            text,
            CLAIMS.replace(".final_states(0x0123_4567_89ab_cdef)", "")
        );
        // Re-pinning what is pinned gives the same text back.
        let same = pins(12, Some(0x0123_4567_89ab_cdef));
        assert_eq!(repin(CLAIMS, "P2", "O2", None, &same).unwrap().1, CLAIMS);
        assert_eq!(hash_literal(0xfd00_1628_7216_5885), "0xfd00_1628_7216_5885");
    }

    /// A row's headline cell and its path cells of one outcome are told apart: `None` is the
    /// headline cell, `Some(k)` the k-th path cell (a J cell of that row is never one).
    #[test]
    fn a_path_cell_is_repinned_by_its_place_among_the_rows_path_cells() {
        let (old, text) = repin(CLAIMS, "P2", "O2", Some(1), &pins(51, Some(3))).unwrap();
        assert_eq!(old, pins(50, Some(2)));
        assert_eq!(
            text,
            CLAIMS.replace(
                "loom_path(SECOND, 50).final_states(0x0000_0000_0000_0002)",
                "loom_path(SECOND, 51).final_states(0x0000_0000_0000_0003)"
            )
        );
        let (old, text) = repin(CLAIMS, "P2", "O2", Some(0), &pins(31, Some(1))).unwrap();
        assert_eq!(old, pins(30, Some(1)));
        assert_eq!(text, CLAIMS.replace("FIRST, 30)", "FIRST, 31)"));
        let (old, _) = repin(CLAIMS, "P2", "O2", None, &pins(12, None)).unwrap();
        assert_eq!(
            old,
            pins(12, Some(0x0123_4567_89ab_cdef)),
            "the headline cell"
        );
        assert_eq!(repin(CLAIMS, "P2", "O2", Some(2), &pins(1, None)), None);
        assert_eq!(repin(CLAIMS, "P1", "O1", Some(0), &pins(1, None)), None);
    }

    #[test]
    fn a_history_cell_or_a_missing_claim_is_not_touched() {
        assert_eq!(repin(CLAIMS, "P1", "O3", None, &pins(1, None)), None);
        assert_eq!(repin(CLAIMS, "P3", "O1", None, &pins(1, None)), None);
        assert_eq!(repin(CLAIMS, "upstream", "O11", None, &pins(1, None)), None);
    }
}
