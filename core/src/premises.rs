//! Premises: statements about the upstream Java code that a contract's model rests on. Each is
//! checked by one JUnit test on the released jar in `conformance/` (named by the premise's id),
//! run by `cargo xtask conformance`. A premise lists the claimed cells whose verdict depends on
//! it: a premise that does not hold on the real class marks those cells as deviations.
//!
//! Replays of upstream counterexamples on the real classes are premises too: their statement
//! is that the outcome is reached there, and their cells are the `upstream` cells of that
//! outcome.

/// One statement about the upstream code, with the cells that rest on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Premise {
    /// `RR_P1`: the JUnit test that checks it is `RR_P1_<words>` (the id, then `_`).
    pub id: &'static str,
    /// The upstream method the statement is about (`Class.method`).
    pub upstream: &'static str,
    /// The released artifact the test runs on (`hadoop-hdfs 3.5.0`).
    pub jar: &'static str,
    pub statement: &'static str,
    /// Cell keys (`contract/variant/outcome/checker`) whose verdict rests on the statement.
    pub cells: &'static [&'static str],
}

impl Premise {
    /// Whether `test` (a JUnit method name) is this premise's test.
    pub fn is_test(&self, test: &str) -> bool {
        test.strip_prefix(self.id)
            .is_some_and(|rest| rest.starts_with('_'))
    }
}

/// Every contract's premises, in report order, by contract id.
pub fn all() -> Vec<(&'static str, &'static [Premise])> {
    use crate::contracts::*;
    vec![
        ("leader-ready", leader_ready::premises::PREMISES),
        ("recon-sync", recon_sync::premises::PREMISES),
        ("dead-node", dead_node::premises::PREMISES),
        ("container-recreate", container_recreate::premises::PREMISES),
        ("reregister", reregister::premises::PREMISES),
    ]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// Every premise names cells the contracts claim, and ids are unique.
    #[test]
    fn premises_name_claimed_cells() {
        let claimed: BTreeSet<String> = crate::registry::all()
            .iter()
            .flat_map(|e| e.cells.iter().map(|c| c.key()))
            .collect();
        let mut ids = BTreeSet::new();
        for (contract, premises) in super::all() {
            for p in premises {
                assert!(ids.insert(p.id), "premise id {} twice", p.id);
                assert!(!p.cells.is_empty(), "{}: no cells", p.id);
                for cell in p.cells {
                    assert!(
                        cell.starts_with(&format!("{contract}/")),
                        "{}: {cell} is not a {contract} cell",
                        p.id
                    );
                    assert!(claimed.contains(*cell), "{}: {cell} is not claimed", p.id);
                }
            }
        }
    }

    #[test]
    fn a_test_is_named_by_its_id() {
        let p = super::all()[4].1[0];
        assert_eq!(p.id, "RR_P1");
        assert!(p.is_test("RR_P1_schedulerOverwritesPendingFbr"));
        assert!(!p.is_test("RR_P10_other"));
        assert!(!p.is_test("RR_P1"));
    }
}
