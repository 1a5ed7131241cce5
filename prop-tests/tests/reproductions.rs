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

/// The committed scenario files stay valid, and each replays to at least one verdict.
#[test]
fn committed_scenarios_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios/ exists") {
        let path = entry.expect("readable").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        let out = racelab_props::scenario::replay_any(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(out.contains("verdict: "), "{}:\n{out}", path.display());
        n += 1;
    }
    assert!(n > 0, "no scenario files in {}", dir.display());
}
