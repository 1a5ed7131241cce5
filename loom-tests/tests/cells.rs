//! Every loom cell and mutant of every registered contract, as one test each, named by its
//! key (`dead-node/proposed/O3/loom`, `dead-node/mutant/NAME`), and the harness's own toy
//! cells under `harness/`. `cargo test -p racelab-loom -- dead-node/` runs one contract.
//!
//! A deadlock cell re-runs this binary as a child process (loom aborts the process that finds
//! a deadlock): with `RACELAB_LOOM_CHILD=KEY` set, the binary explores that cell and exits.

#[cfg(loom)]
fn main() -> std::process::ExitCode {
    use libtest_mimic::{Arguments, Trial};
    use racelab_core::claims::Claimed;
    use racelab_core::registry::{self, Registered, Visitor};

    /// The trials with their costs (or, for the child, the one cell it explores).
    struct Cells {
        /// Each trial with its cost, the group of cells a shard runs together
        /// (`racelab_loom::shard_group`) and the exploration it shares
        /// (`racelab_loom::exploration_name`).
        trials: Vec<(Trial, u64, String, String)>,
        child: Option<String>,
    }

    impl Cells {
        fn add<M: Claimed>(&mut self) {
            for claim in M::CLAIMS
                .cells
                .iter()
                .filter(|c| c.method.loom_scenario().is_some())
            {
                if self.child.as_deref() == Some(claim.key().as_str()) {
                    racelab_loom::child_main(claim);
                }
                let trial = Trial::test(claim.key(), move || {
                    racelab_loom::verify_cell(claim).map_err(Into::into)
                });
                self.trials.push((
                    trial,
                    racelab_loom::pinned_executions(claim),
                    racelab_loom::shard_group(claim),
                    racelab_loom::exploration_name(claim),
                ));
            }
            for m in M::CLAIMS.mutants {
                // A mutant explores its variant's loom cells, one exploration per group of
                // cells that share one; the cell that catches it stops at the first violation,
                // far short of its pinned count.
                let cells = M::CLAIMS
                    .cells
                    .iter()
                    .filter(|c| c.variant == m.variant && c.method.loom_scenario().is_some())
                    .map(|c| {
                        let cost = if m.is_caught_at(c) {
                            0
                        } else {
                            racelab_loom::pinned_executions(c)
                        };
                        (racelab_loom::exploration_name(c), cost)
                    });
                let groups = racelab_loom::shard::group_costs(cells);
                let all: u64 = groups.iter().map(|(_, cost)| cost).sum();
                let name = format!(
                    "{}/mutant/{}",
                    M::CONTRACT.id,
                    racelab_core::claims::slug(m.name)
                );
                let trial = Trial::test(name.clone(), move || {
                    racelab_loom::verify_mutant(m).map_err(Into::into)
                });
                self.trials.push((trial, all, name.clone(), name));
            }
        }
    }

    impl Visitor for Cells {
        fn visit<M: Registered>(&mut self) {
            self.add::<M>();
        }
    }

    let mut cells = Cells {
        trials: Vec::new(),
        child: std::env::var(racelab_loom::CHILD_ENV).ok(),
    };
    cells.add::<racelab_loom::toys::Toy>();
    let reuse = "harness/reuse-across-variants".to_string();
    cells.trials.push((
        Trial::test(reuse.clone(), || {
            racelab_loom::toys::reuse_self_test().map_err(Into::into)
        }),
        0,
        reuse.clone(),
        reuse,
    ));
    let finals = "harness/final-states-pinned".to_string();
    cells.trials.push((
        Trial::test(finals.clone(), || {
            racelab_loom::toys::final_states_self_test().map_err(Into::into)
        }),
        0,
        finals.clone(),
        finals,
    ));
    registry::visit(&mut cells);
    if let Some(key) = cells.child {
        eprintln!("no loom cell {key}");
        return std::process::ExitCode::from(2);
    }
    let mut trials = cells.trials;
    if let Ok(shard) = std::env::var(racelab_loom::shard::SHARD_ENV) {
        let (k, n) = match racelab_loom::shard::parse(&shard) {
            Ok(kn) => kn,
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::from(2);
            }
        };
        let costs: Vec<(String, String, u64)> = trials
            .iter()
            .map(|(_, c, g, e)| (g.clone(), e.clone(), *c))
            .collect();
        let mine = racelab_loom::shard::mine_grouped(&costs, k, n);
        trials = trials
            .into_iter()
            .zip(mine)
            .filter(|(_, m)| *m)
            .map(|(t, _)| t)
            .collect();
    }
    let trials = trials.into_iter().map(|(t, ..)| t).collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}

/// The loom cells run only under `RUSTFLAGS="--cfg loom"`.
#[cfg(not(loom))]
fn main() {}
