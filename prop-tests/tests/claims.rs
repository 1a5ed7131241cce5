//! Every non-loom claim of every registered contract, as one test each, named by its key:
//!
//! - `CONTRACT/VARIANT/OUTCOME/steps`: every order of whole steps of a loom cell's scenario,
//!   and the counterexample it writes as a scenario file, replayed;
//! - `CONTRACT/mutant/NAME/steps`: the same order of whole steps catches each mutant;
//! - `CONTRACT/VARIANT/OUTCOME/CHECKER`: a history cell (proptest, quickcheck, fuzz replay);
//! - `CONTRACT/fix-property/histories` and `.../committed-inputs`: what the fuzz target checks;
//! - `CONTRACT/regression/NAME`: a shrunk counterexample and its committed file;
//! - `CONTRACT/reproduction/WHAT`: an observable result the report gives;
//! - `CONTRACT/tidy`: the files a contract needs outside its folder;
//! - `tidy/import-circles`: no import circle between the files of a crate (but the listed
//!   ones, which may only go);
//! - `tidy/readme-layout`: README's layout block names every top-level folder, and only paths
//!   that exist;
//! - `tidy/ghost-reads`: no code a switch chooses reads a ghost (state only the outcomes and
//!   the timelines may read);
//! - `tidy/specs`: each contract's `mod.rs` the spec alone (at most 450 lines, no inlining
//!   hint, no test block), per-thread caches and write counters in its performance module;
//! - `scenarios/FILE`: a committed scenario file replays, each variant reaching what its
//!   `expect` line says;
//! - `real/orders`: each J cell whose replay's order is committed (`CONTRACT-real-REPLAY.scn`)
//!   claims that file's verdict, the model's for that order.
//!
//! `cargo test -p racelab-props -- dead-node/` runs one contract.

#[cfg(not(loom))]
fn main() -> std::process::ExitCode {
    use libtest_mimic::{Arguments, Trial};
    use racelab_core::registry::{self, Registered, Visitor};
    use racelab_props::checkers;

    struct Trials(Vec<Trial>);

    impl Visitor for Trials {
        fn visit<M: Registered>(&mut self) {
            let id = M::CONTRACT.id;
            for claim in M::CLAIMS.cells.iter().filter(|c| c.has_steps_twin()) {
                self.0
                    .push(Trial::test(claim.steps_expectation().key(), move || {
                        let r = racelab_core::steps::verify(claim)?;
                        match &r.replay {
                            Some(file) => racelab_props::scenario::replays_as_written(file)
                                .map_err(|e| {
                                    format!("{}: its counterexample file {e}\n{file}", r.key())
                                        .into()
                                }),
                            None => Ok(()),
                        }
                    }));
            }
            // Whole steps cannot show a data race: a mutant caught by one is loom's alone.
            let by_steps = |m: &&racelab_core::claims::Mutant<M>| {
                !matches!(m.caught_by.check, racelab_core::outcome::Check::Race)
            };
            for m in M::CLAIMS.mutants.iter().filter(by_steps) {
                let name = format!("{id}/mutant/{}/steps", racelab_core::claims::slug(m.name));
                self.0.push(Trial::test(name, move || {
                    racelab_core::steps::verify_mutant(m).map_err(Into::into)
                }));
            }
            for claim in M::CLAIMS.cells.iter().filter(|c| checkers::is_history(c)) {
                self.0.push(Trial::test(claim.key(), move || {
                    checkers::verify_cell(claim).map(drop).map_err(Into::into)
                }));
            }
            self.0
                .push(Trial::test(format!("{id}/fix-property/histories"), || {
                    checkers::fix_property_holds::<M>(M::FIX_PROPERTY_CASES, checkers::Seed::Gate)
                        .map_err(Into::into)
                }));
            self.0.push(Trial::test(
                format!("{id}/fix-property/committed-inputs"),
                || {
                    checkers::committed_inputs_hold::<M>()
                        .map(drop)
                        .map_err(Into::into)
                },
            ));
            for r in M::REGRESSIONS {
                self.0
                    .push(Trial::test(format!("{id}/regression/{}", r.name), || {
                        checkers::check_regression::<M>(r).map_err(Into::into)
                    }));
            }
            for r in M::CLAIMS.reproductions {
                let name = format!("{id}/reproduction/{}", racelab_core::claims::slug(r.what));
                self.0.push(Trial::test(name, move || {
                    let got = racelab_core::report::ReproductionResult::of(&M::CONTRACT, r);
                    got.save();
                    if got.matches() {
                        Ok(())
                    } else {
                        Err(format!(
                            "the report gives {:?}, the model {:?}",
                            got.expected, got.observed
                        )
                        .into())
                    }
                }));
            }
            self.0.push(Trial::test(format!("{id}/tidy"), || {
                let missing = racelab_props::tidy::missing::<M>();
                if missing.is_empty() {
                    Ok(())
                } else {
                    Err(format!("missing:\n  {}", missing.join("\n  ")).into())
                }
            }));
        }
    }

    let mut trials = Trials(Vec::new());
    registry::visit(&mut trials);
    let mut trials = trials.0;
    trials.push(Trial::test("README/findings", || {
        use racelab_core::report::readme;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
        let committed = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let views: Vec<_> = registry::all().into_iter().map(|e| e.view).collect();
        if readme::splice(&committed, &readme::section(&views))? == committed {
            Ok(())
        } else {
            Err(
                "README.md: the findings section differs from the contracts' FINDINGS; \
                 run `cargo xtask readme`"
                    .into(),
            )
        }
    }));
    trials.push(Trial::test("tidy/import-circles", || {
        let problems = racelab_props::tidy::import_circles();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n").into())
        }
    }));
    trials.push(Trial::test("tidy/readme-layout", || {
        let problems = racelab_props::tidy::readme_layout_problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n").into())
        }
    }));
    trials.push(Trial::test("tidy/ghost-reads", || {
        let problems = racelab_props::tidy::ghost_reads();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n").into())
        }
    }));
    trials.push(Trial::test("tidy/mutant-anchors", || {
        let problems = racelab_props::tidy::stale_mutant_anchors();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n").into())
        }
    }));
    trials.push(Trial::test("tidy/specs", || {
        let problems = racelab_props::tidy::spec_problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n").into())
        }
    }));
    trials.push(Trial::test("real/orders", || {
        let cells: Vec<_> = registry::all().into_iter().flat_map(|e| e.cells).collect();
        let (problems, _) = racelab_props::real_orders::check(&cells);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n").into())
        }
    }));
    for path in racelab_props::tidy::scenario_files() {
        let name = format!(
            "scenarios/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        trials.push(Trial::test(name, move || {
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            let file = path.display();
            let r = racelab_props::scenario::replay_any(&text).map_err(|e| format!("{file}: {e}"))?;
            let mut problems: Vec<String> = r.differs.iter().map(|e| format!("{file}: {e}")).collect();
            if !r.unchecked.is_empty() {
                problems.push(format!(
                    "{file}: no `expect` line for {} (a committed scenario says what each variant reaches)",
                    r.unchecked.join(", ")
                ));
            }
            if problems.is_empty() {
                Ok(())
            } else {
                Err(format!("{}\n{}", problems.join("\n"), r.out).into())
            }
        }));
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}

/// The history checkers run without loom (`racelab-loom` holds the loom cells).
#[cfg(loom)]
fn main() {}
