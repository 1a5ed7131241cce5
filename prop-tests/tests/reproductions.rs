//! Every observable result a report gives, reproduced by the model (all contracts).
#![cfg(not(loom))]

#[test]
fn every_reproduction_matches_the_report() {
    let mut mismatches = Vec::new();
    for entry in racelab_core::registry::all() {
        for r in entry.reproduce() {
            r.save();
            let mark = if r.matches() { "ok " } else { "DEVIATES" };
            println!(
                "{mark} {} reproduction `{}`: {}",
                r.contract, r.what, r.observed
            );
            if !r.matches() {
                mismatches.push(format!(
                    "{} `{}`: report {:?}, model {:?}",
                    r.contract, r.what, r.expected, r.observed
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "reproductions differ:\n{}",
        mismatches.join("\n")
    );
}
