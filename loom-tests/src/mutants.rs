//! The mutant matrix: a mutant (a deliberately broken fix) runs the loom cells its claim says
//! catch it under its own switches, and must show up in the matrix the gate prints as the
//! deviation its claim names.

use crate::cache::By;
use crate::cells::check;
use racelab_core::claims::{Claim, Claimed, Mutant};
use racelab_core::registry;
use racelab_core::report::{Matrix, View};

/// Runs the loom cell of `m`'s variant that catches it (at `caught_by`, on `caught_at`'s path
/// cell when it names one: [`Mutant::is_caught_at`]) with `m`'s switches in place of the variant's, and returns the matrix the gate would print for them.
/// The variant's cells at other outcomes are left out: the check asks only for the deviation
/// at `caught_by`, and exploring them under the mutant (a third of the loom phase, issue 28)
/// could not change its answer. Each explores for its outcome alone and stops where it finds
/// it ([`crate::cells::check`]).
pub fn matrix_with<M: Claimed>(m: &Mutant<M>) -> Result<Matrix, String> {
    let loom_cells: Vec<&Claim<M>> = M::CLAIMS
        .cells
        .iter()
        .filter(|c| m.is_caught_at(c))
        .collect();
    let fix = m.fix();
    let results = loom_cells
        .iter()
        .map(|c| check(c, By::Mutant(m.name), fix))
        .collect::<Result<_, _>>()?;
    let expected = loom_cells.iter().map(|c| c.expectation()).collect();
    Ok(Matrix::build(
        vec![View::of::<M>(registry::sources(M::CONTRACT.id))],
        expected,
        &[],
        results,
        Vec::new(),
    ))
}

/// A mutant must show up in the matrix the gate prints, as the deviation its claim names.
pub fn verify_mutant<M: Claimed>(m: &Mutant<M>) -> Result<(), String> {
    let matrix = matrix_with(m)?;
    let key = m.catching_key();
    let expected = format!("{key}: expected unreachable, observed reachable");
    if !matrix.deviations.iter().any(|d| d.to_string() == expected) {
        return Err(format!(
            "mutant `{}` was not caught at {key}; deviations: {:?}",
            m.name, matrix.deviations
        ));
    }
    let text = matrix.render_text();
    if !text.contains("!RL") {
        return Err(format!(
            "the printed matrix does not flag mutant `{}`:\n{text}",
            m.name
        ));
    }
    Ok(())
}
