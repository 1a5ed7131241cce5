//! The `J` cells: each replay's record for a row and outcome (`[racelab] J ...`, printed by the
//! JUnit replays in `conformance/`), joined with the cell its contract claims. A record must
//! name a claimed cell, come from the replay the claim names, and hold exactly the parts the
//! model's variant switches on (its baseline's changes, then its parts); anything else is an
//! error of the conformance phase, never a silently dropped verdict.

use crate::surefire::{Case, JRecord};
use racelab_core::claims::{run_key, Checker, Verdict};
use racelab_core::registry::Entry;
use racelab_core::report::CellResult;

/// The J cells the records of `cases` decide, and what is wrong with the records.
pub fn join(entries: &[Entry], cases: &[Case]) -> (Vec<CellResult>, Vec<String>) {
    let mut errors: Vec<String> = cases
        .iter()
        .flat_map(|c| {
            c.malformed
                .iter()
                .map(move |m| format!("{}#{}: {m}", c.class, c.name))
        })
        .collect();
    let mut cells: Vec<CellResult> = Vec::new();
    for case in cases {
        for r in case.records.iter().filter(|r| !r.layer_off) {
            match cell(entries, case, r) {
                Ok(c) => match cells.iter().find(|o| o.key() == c.key()) {
                    Some(o) if o.observed != c.observed => errors.push(format!(
                        "{}: two records disagree ({} and {})",
                        c.key(),
                        o.observed,
                        c.observed
                    )),
                    Some(_) => {}
                    None => cells.push(c),
                },
                Err(e) => errors.push(format!("{}#{}: {e}", case.class, case.name)),
            }
        }
    }
    (cells, errors)
}

/// What the replays gave with the fix layer off.
#[derive(Debug, Default, PartialEq)]
pub struct LayerOff {
    /// The J cells whose verdict changed: a fixed row's verdict that is the advice's doing.
    pub changed: Vec<String>,
    /// Rows that did not give the upstream row's verdict with every part off, and cells the
    /// pass did not record.
    pub errors: Vec<String>,
}

/// Checks the replays' records with every part off (`J-off`, in `cases`) against the J cells:
/// with no part on, each row runs the released code, so it must give what the upstream row
/// gave.
pub fn layer_off(cells: &[CellResult], cases: &[Case]) -> LayerOff {
    let mut out = LayerOff::default();
    let records: Vec<&JRecord> = cases
        .iter()
        .flat_map(|c| &c.records)
        .filter(|r| r.layer_off)
        .collect();
    for c in cells {
        let (Some(base), Some(r)) = (
            cells.iter().find(|b| {
                (&b.contract, b.variant.as_str(), &b.outcome, &b.scenario)
                    == (&c.contract, "upstream", &c.outcome, &c.scenario)
            }),
            records.iter().find(|r| {
                (&r.contract, &r.variant, &r.outcome, Some(r.replay.as_str()))
                    == (&c.contract, &c.variant, &c.outcome, c.scenario.as_deref())
            }),
        ) else {
            out.errors.push(format!(
                "{}: with the fix layer off, no record, or no upstream row of its replay to \
                 compare with",
                c.key()
            ));
            continue;
        };
        let observed = if r.reached {
            Verdict::Reachable
        } else {
            Verdict::Unreachable
        };
        if observed != base.observed {
            out.errors.push(format!(
                "{}: with the fix layer off it is {observed}, but the upstream row is {}: \
                 the replay does not depend on the parts alone",
                c.key(),
                base.observed
            ));
        } else if observed != c.observed {
            out.changed.push(c.key());
        }
    }
    out
}

fn cell(entries: &[Entry], case: &Case, r: &JRecord) -> Result<CellResult, String> {
    let entry = entries
        .iter()
        .find(|e| e.contract.id == r.contract)
        .ok_or_else(|| format!("a record of unknown contract {:?}", r.contract))?;
    let key = run_key(
        &r.contract,
        &r.variant,
        &r.outcome,
        Checker::Real,
        Some(&r.replay),
    );
    let claim = entry
        .cells
        .iter()
        .find(|e| e.key() == key)
        .ok_or_else(|| format!("{key}: recorded, but no such J cell is claimed"))?;
    let parts = entry
        .rows
        .iter()
        .find(|(v, _)| *v == r.variant)
        .map(|(_, p)| p)
        .ok_or_else(|| format!("{key}: no variant {}", r.variant))?;
    if r.parts != *parts {
        return Err(format!(
            "{key}: the row held {:?}, but the model's {} is {:?}",
            r.parts, r.variant, parts
        ));
    }
    let observed = if r.reached {
        Verdict::Reachable
    } else {
        Verdict::Unreachable
    };
    let mut c = CellResult::for_cell(claim, observed);
    c.seconds = case.seconds;
    c.timeline = vec![format!(
        "{} on {} ({}#{}): {} -- {}",
        r.replay,
        r.variant,
        case.class,
        case.name,
        if r.reached { "reached" } else { "not reached" },
        r.observed
    )];
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surefire::{parse_surefire, CaseOutcome};
    use racelab_core::registry;

    /// A Surefire report of one parameterized replay, each run printing `lines`.
    fn report(runs: &[(&str, &str)]) -> Vec<Case> {
        let cases: String = runs
            .iter()
            .map(|(name, out)| {
                format!(
                    "<testcase name=\"{name}\" classname=\"a.ReplayX\" time=\"0.5\">\
                     <system-out><![CDATA[{out}]]></system-out></testcase>"
                )
            })
            .collect();
        parse_surefire(&format!("<testsuite>{cases}</testsuite>"))
    }

    // leader-ready's `proposed` is P1+P2 and claims no J cell yet in this test's view unless
    // one is claimed; the join is checked on records that name no claimed cell.
    #[test]
    fn a_record_names_a_claimed_cell_of_its_replay_with_the_variants_parts() {
        let entries = registry::all();
        let cases = report(&[(
            "LR_ZZ_x(Row)[1]",
            "[racelab] J leader-ready proposed O9 reached parts=P1+P2 replay=LR_ZZ -- state",
        )]);
        assert_eq!(cases[0].outcome, CaseOutcome::Passed);
        assert_eq!(cases[0].records.len(), 1);
        let (cells, errors) = join(&entries, &cases);
        assert!(cells.is_empty());
        assert_eq!(
            errors,
            [
                "a.ReplayX#LR_ZZ_x(Row)[1]: leader-ready/proposed/O9/real:LR_ZZ: recorded, but \
                 no such J cell is claimed"
            ]
        );
    }

    #[test]
    fn a_malformed_record_is_an_error_not_a_dropped_verdict() {
        let cases = report(&[(
            "LR_O1_x(Row)[1]",
            "[racelab] J leader-ready proposed O1 maybe parts=P1+P2 replay=LR_O1 -- s",
        )]);
        assert!(cases[0].records.is_empty());
        let (_, errors) = join(&registry::all(), &cases);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].contains("verdict \"maybe\" is neither reached nor not-reached"),
            "{errors:?}"
        );
    }

    fn j(variant: &str, verdict: Verdict) -> CellResult {
        let e = registry::all()
            .into_iter()
            .flat_map(|e| e.cells)
            .find(|e| e.checker == Checker::Real && e.variant == variant)
            .expect("a claimed J cell");
        CellResult::for_cell(&e, verdict)
    }

    #[test]
    fn with_the_layer_off_every_row_gives_the_upstream_rows_verdict() {
        let (up, fixed) = (
            j("upstream", Verdict::Reachable),
            j("proposed", Verdict::Unreachable),
        );
        let line = |variant: &str, verdict: &str| {
            format!(
                "[racelab] J-off {} {variant} {} {verdict} parts=- replay={}\n",
                up.contract,
                up.outcome,
                up.scenario.as_deref().unwrap_or("")
            )
        };
        let off = |fixed_verdict: &str| {
            report(&[(
                "x",
                &(line("upstream", "reached") + &line("proposed", fixed_verdict)),
            )])
        };
        let cells = [up.clone(), fixed.clone()];
        let r = layer_off(&cells, &off("reached"));
        assert_eq!(r.errors, Vec::<String>::new());
        assert_eq!(r.changed, [fixed.key()]);
        let r = layer_off(&cells, &off("not-reached"));
        assert_eq!(r.changed, Vec::<String>::new());
        assert_eq!(r.errors.len(), 1);
        assert!(
            r.errors[0].contains("does not depend on the parts alone"),
            "{r:?}"
        );
        // a record of another replay (another order) for the same row and outcome is not this
        // cell's
        let other = line("proposed", "not-reached").replace(
            &format!("replay={}", up.scenario.as_deref().unwrap_or("")),
            "replay=ZZ_O9",
        );
        let r = layer_off(
            &cells,
            &report(&[(
                "x",
                &(other + &line("upstream", "reached") + &line("proposed", "reached")),
            )]),
        );
        assert_eq!((r.errors.len(), r.changed.len()), (0, 1), "{r:?}");
        let r = layer_off(&cells, &report(&[("x", &line("upstream", "reached"))]));
        assert!(r.errors[0].starts_with(&format!(
            "{}: with the fix layer off, no record",
            fixed.key()
        )));
    }
}
