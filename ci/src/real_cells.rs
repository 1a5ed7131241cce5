//! The `J` cells: each replay's record for a row and outcome (`[racelab] J ...`, printed by the
//! JUnit replays in `conformance/`), joined with the cell its contract claims. A record must
//! name a claimed cell, come from the replay the claim names, and hold exactly the parts the
//! model's variant switches on (its baseline's changes, then its parts); anything else is an
//! error of the conformance phase, never a silently dropped verdict.

use crate::conformance::{Case, JRecord};
use racelab_core::claims::{Checker, Verdict};
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
        for r in &case.records {
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

fn cell(entries: &[Entry], case: &Case, r: &JRecord) -> Result<CellResult, String> {
    let entry = entries
        .iter()
        .find(|e| e.contract.id == r.contract)
        .ok_or_else(|| format!("a record of unknown contract {:?}", r.contract))?;
    let key = format!("{}/{}/{}/real", r.contract, r.variant, r.outcome);
    let claim = entry
        .cells
        .iter()
        .find(|e| e.checker == Checker::Real && e.variant == r.variant && e.outcome == r.outcome)
        .ok_or_else(|| {
            format!(
                "{key}: recorded by {}, but no such J cell is claimed",
                r.replay
            )
        })?;
    if claim.scenario != Some(r.replay.as_str()) {
        return Err(format!(
            "{key}: recorded by replay {}, but claimed for {}",
            r.replay,
            claim.scenario.unwrap_or("none")
        ));
    }
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
    use crate::conformance::{parse_surefire, CaseOutcome};
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
                "a.ReplayX#LR_ZZ_x(Row)[1]: leader-ready/proposed/O9/real: recorded by LR_ZZ, but \
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

    #[test]
    fn records_are_parsed() {
        let r = JRecord::parse(
            "[racelab] J reregister trunk+P1 O3 not-reached parts=HDFS-17953+P1 replay=RR_O3 \
             -- pending=[] fbr=none",
        )
        .expect("a record")
        .expect("well formed");
        assert_eq!(
            r,
            JRecord {
                contract: "reregister".into(),
                variant: "trunk+P1".into(),
                outcome: "O3".into(),
                reached: false,
                parts: vec!["HDFS-17953".into(), "P1".into()],
                replay: "RR_O3".into(),
                observed: "pending=[] fbr=none".into(),
            }
        );
        let none =
            JRecord::parse("[racelab] J leader-ready upstream O1 reached parts=- replay=LR_O1")
                .expect("a record")
                .expect("well formed");
        assert!(none.parts.is_empty() && none.observed.is_empty());
        assert!(JRecord::parse("[racelab] holds: x").is_none());
    }
}
