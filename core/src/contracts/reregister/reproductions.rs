//! The report's observable results, reproduced on the model: its ten-step sequence (the block
//! is unknown to the upgraded NameNode, upstream; known within a heartbeat with the fix), and the
//! delay upstream until the NameNode learns the block, drawn by `scheduleNextBlockReport`.

use super::actor::OfferService;
use super::cluster::{run_ops, REPORT_BLOCK, REPORT_SEQUENCE};
use super::command_processor::ProcessCommand;
use super::fs_dataset::Writer;
use super::namenode::HaState;
use super::scenarios::{double_register_start, X};
use super::scheduler::{BLOCK_REPORT_INTERVAL, HEARTBEAT_INTERVAL};
use super::world::run;
use super::{Fix, Millis, World};
use crate::model::step_until;
use crate::trace::Trace;

/// Where nn1 locates the report's block, as a sentence.
fn located_on_nn1(w: &World) -> String {
    let holders: Vec<String> = (0..w.datanodes.len())
        .filter(|&dn| w.namenodes[1].locations_on(dn).contains(REPORT_BLOCK))
        .map(|dn| format!("dn{dn}"))
        .collect();
    if holders.is_empty() {
        format!("block {REPORT_BLOCK} has no location on nn1 (missing: nn1 is active)")
    } else {
        format!(
            "block {REPORT_BLOCK} located on nn1 at {}",
            holders.join(", ")
        )
    }
}

/// The report's sequence under `fix`, then the DataNodes' loops for `horizon`.
pub fn report_sequence(fix: Fix, horizon: Millis) -> String {
    let d = run_ops(fix, REPORT_SEQUENCE);
    located_on_nn1(&d.world.settled_within(horizon))
}

/// The delay from the report's step 10 to the FBR that tells the NameNode about X, upstream, for
/// one seed of the actor's `ThreadLocalRandom`. With `verify`, runs the DataNode's loop on (a
/// heartbeat every 3 s) and checks that the NameNode learns X at that FBR and not before.
pub fn delay(seed: u64, verify: bool) -> Millis {
    let trace = Trace::new();
    let w = double_register_start(Fix::UPSTREAM, &trace, HaState::Standby);
    w.actor(0, 0).scheduler.reseed(seed);
    // [8] the FBR up to its snapshot, X written, [9] REG2, [10] the FBR returns.
    let mut fbr = OfferService::block_report(&trace, 0, 0);
    step_until(&mut fbr, &w, "the FBR at its RPC", |fbr, _| fbr.at_rpc());
    run(
        &w,
        Writer::new(&trace, 0, X, Fix::UPSTREAM.writer_order.get()),
    );
    run(&w, ProcessCommand::new(&trace, 0, 0));
    run(&w, fbr);
    let step10 = w.clock.now();
    let next = w.actor(0, 0).scheduler.next_block_report_time();
    if !verify {
        return next - step10;
    }
    let before = w.settled_within(next - step10 - 1);
    assert!(
        !before.namenodes[0].locations_on(0).contains(X),
        "seed {seed}: X known before the periodic FBR"
    );
    let at = w.settled_within(next - step10 + HEARTBEAT_INTERVAL);
    assert!(
        at.namenodes[0].locations_on(0).contains(X),
        "seed {seed}: X still unknown after the periodic FBR at {next}"
    );
    next - step10
}

/// Mean and maximum of [`delay`] over seeds `0..n`, in the report's terms.
pub fn delay_distribution(n: u64) -> String {
    let delays: Vec<Millis> = (0..n).map(|s| delay(s, false)).collect();
    let hours = |ms: f64| ms / 3_600_000.0;
    let mean = hours(delays.iter().sum::<Millis>() as f64 / n as f64);
    let max = *delays.iter().max().expect("n > 0");
    let bound = if max < BLOCK_REPORT_INTERVAL {
        "below 6 h"
    } else {
        "6 h or more"
    };
    format!("mean {mean:.1} h, max {bound}")
}

/// The exact figures behind [`delay_distribution`], for the notes.
pub fn delay_figures(n: u64) -> (f64, f64) {
    let delays: Vec<Millis> = (0..n).map(|s| delay(s, false)).collect();
    let mean = delays.iter().sum::<Millis>() as f64 / n as f64 / 3_600_000.0;
    let max = *delays.iter().max().expect("n > 0") as f64 / 3_600_000.0;
    (mean, max)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::{Reregister, PROPOSED};
    use super::*;
    use crate::model::Model;

    #[test]
    fn report_sequence_on_both_variants() {
        println!(
            "upstream: {}",
            report_sequence(Fix::UPSTREAM, super::super::QUIESCENCE_HORIZON)
        );
        println!(
            "proposed: {}",
            report_sequence(Reregister::fix(PROPOSED), HEARTBEAT_INTERVAL)
        );
    }

    #[test]
    fn the_nn_learns_x_at_the_periodic_fbr_and_not_before() {
        for seed in 0..3 {
            delay(seed, true);
        }
    }

    #[test]
    fn delay_figures_over_ten_thousand_seeds() {
        let (mean, max) = delay_figures(10_000);
        println!("delay: mean {mean:.3} h, max {max:.3} h");
        assert!(
            (2.9..3.1).contains(&mean) && max < 6.0,
            "mean {mean} h, max {max} h"
        );
    }
}
