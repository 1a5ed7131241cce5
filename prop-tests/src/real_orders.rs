//! The J cells' claims against the model: a replay on the real classes drives one order, and
//! its J cells claim the model's verdict for that order on each row. Where the order is
//! committed as `scenarios/<contract>-real-<REPLAY>.scn`, whose `expect` lines the scenario
//! replay checks against the model, each J claim of the replay must be that file's verdict.

use racelab_core::claims::{Checker, ExpectedCell, Verdict};
use std::path::PathBuf;

/// The committed order of `replay`, when there is one.
pub fn order_file(contract: &str, replay: &str) -> PathBuf {
    super::tidy::scenarios_dir().join(format!("{contract}-real-{replay}.scn"))
}

/// What `text`'s `expect` lines say each variant reaches (`expect P1 O5 O7`, `expect P2
/// nothing`).
fn expectations(text: &str) -> Vec<(&str, Vec<&str>)> {
    text.lines()
        .filter_map(|l| l.split('#').next()?.trim().strip_prefix("expect "))
        .filter_map(|rest| {
            let mut words = rest.split_whitespace();
            let variant = words.next()?;
            Some((variant, words.filter(|w| *w != "nothing").collect()))
        })
        .collect()
}

/// Each J cell of `cells` whose replay has a committed order, against that order's verdict;
/// the problems, and how many cells were compared.
pub fn check(cells: &[ExpectedCell]) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut compared = 0;
    for c in cells.iter().filter(|c| c.checker == Checker::Real) {
        let Some(replay) = c.scenario else { continue };
        let path = order_file(c.contract, replay);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let expect = expectations(&text);
        let Some((_, reaches)) = expect.iter().find(|(v, _)| *v == c.variant) else {
            problems.push(format!(
                "{}: {} has no `expect` line for {}",
                c.key(),
                path.display(),
                c.variant
            ));
            continue;
        };
        compared += 1;
        let model = if reaches.contains(&c.outcome) {
            Verdict::Reachable
        } else {
            Verdict::Unreachable
        };
        if model != c.expected {
            problems.push(format!(
                "{}: claimed {}, but the model gives {model} for this order ({})",
                c.key(),
                c.expected,
                path.display()
            ));
        }
    }
    (problems, compared)
}

#[cfg(test)]
mod tests {
    #[test]
    fn expect_lines_are_read() {
        let e =
            super::expectations("contract x\nexpect P1 O5 O7  # why\nexpect P2 nothing\nstep a 1");
        assert_eq!(e, [("P1", vec!["O5", "O7"]), ("P2", vec![])]);
    }
}
