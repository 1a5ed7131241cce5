//! Model tests that are no matrix cell: the report's wider window, the ACTIVE contrast, P3's
//! tag, the RR-4 gap, trunk's silent drop, and the seeded periodic FBR.

use super::scenarios::DOUBLE_REGISTER_STANDBY;
use super::*;
use crate::claims::Verdict;
use crate::steps::{enumerate, every_choice};
use namenode::HaState;

/// The report's wider window (R1) is not a loss: a block queued between the drain and the
/// snapshot was finalized before the snapshot, so the in-flight FBR carries it. Not a matrix
/// cell: no fix variant reaches R1, so it has no reachable twin; the writer-order mutant is
/// the twin here, over every order of whole steps.
#[test]
fn the_reports_wider_window_is_covered_by_the_snapshot() {
    let upstream = enumerate(&DOUBLE_REGISTER_STANDBY, Fix::UPSTREAM, &R1, every_choice);
    assert_eq!(
        upstream.observed,
        Verdict::Unreachable,
        "{:?}",
        upstream.counterexample
    );
    let notify_first = Reregister::fix(&[&NOTIFY_FIRST]);
    let mutant = enumerate(&DOUBLE_REGISTER_STANDBY, notify_first, &R1, every_choice);
    assert_eq!(mutant.observed, Verdict::Reachable);
    println!(
        "R1: upstream unreachable over {} schedules; notify-before-finalize reaches it",
        upstream.schedules
    );
}

/// With the NameNode ACTIVE at REG2 nothing is cleared: X goes out as an IBR after the FBR,
/// and only the FBR request is lost (O2, a matrix cell). Not matrix cells: no variant
/// reaches O1 or O3 here, so they have no reachable twin; the STANDBY scenario, identical but
/// for the HA state, is the contrast.
#[test]
fn with_the_namenode_active_only_the_fbr_request_is_lost() {
    use super::scenarios::DOUBLE_REGISTER_ACTIVE;
    for o in [&O1, &O3] {
        let active = enumerate(&DOUBLE_REGISTER_ACTIVE, Fix::UPSTREAM, o, every_choice);
        assert_eq!(
            active.observed,
            Verdict::Unreachable,
            "{}: {:?}",
            o.id,
            active.counterexample
        );
        let standby = enumerate(&DOUBLE_REGISTER_STANDBY, Fix::UPSTREAM, o, every_choice);
        assert_eq!(standby.observed, Verdict::Reachable, "{}", o.id);
    }
}

/// P3's tag on both REGISTER paths: the REGISTER a heartbeat is answered with carries the
/// registration the heartbeat was sent under; the one an FBR is answered with (trunk's
/// `NameNodeRpcServer.blockReport` for an unknown node) carries the registration the FBR was
/// sent under, read at its drain, not the one current when `blockReport` returns (the
/// P3-late-tag mutant). In both scenarios registration 2 has completed when REG2 is taken.
#[test]
fn a_register_is_tagged_with_the_registration_its_rpc_was_sent_under() {
    use super::scenarios::fbr_register_start;
    // The queue's fingerprint: its length, then per batch the true registration (bit 33 up),
    // the tag (bit 1 up) and REGISTER (bit 0).
    let queued = |w: &World| {
        let mut fingerprint = Vec::new();
        w.actor(0, 0).queue.fingerprint(&mut fingerprint);
        fingerprint
    };
    for (p3, tag) in [(P3::Drop, 1), (P3::LateTag, 2)] {
        let fix = Fix {
            drop_stale_register: Switch::new(p3),
            ..Fix::UPSTREAM
        };
        let trace = Trace::new();
        let w = fbr_register_start(fix, &trace);
        assert_eq!(w.actor(0, 0).registration(), 2, "{p3:?}");
        assert_eq!(
            queued(&w),
            vec![1, 1 << 33 | tag << 1 | 1],
            "{p3:?}: FBR path"
        );
        let w = scenarios::double_register_start(fix, &trace, HaState::Standby);
        assert_eq!(w.actor(0, 0).registration(), 2, "{p3:?}");
        assert_eq!(
            queued(&w),
            vec![1, 1 << 33 | 1 << 1 | 1],
            "{p3:?}: heartbeat path"
        );
    }
}

/// RR-4 (ConcurrentModificationException, before HDFS-17953): a CME needs `clearIBRs` to
/// run unsynchronized while a writer or the actor walks `pendingIBRs`; the model has one
/// storage and no CME. Every row in which that can happen already reaches O3 or O6 in the
/// scenario where the clear races the writer, but for P1+P3: there a CME in the writer's
/// walk over the actors (`BPOfferService.notifyNamenodeBlock`) would skip the later
/// NameNodes' queues, a loss no cell of that row shows. P1+P3 is argued not a fix on the
/// report's code (DESIGN-NOTES, RR-4); the rows with P2 and the trunk rows have no
/// unsynchronized clear. A new row in that gap fails here.
#[test]
fn every_row_with_an_unsynchronized_clear_but_p1_p3_already_loses_a_block() {
    use crate::claims::Verdict::Reachable;
    let gap: Vec<&str> = Reregister::VARIANTS
        .iter()
        .filter(|v| {
            let fix = Reregister::fix_of_variant(v);
            let unsynchronized =
                !fix.clear_ibrs_synchronized.get() && fix.keep_ibrs.get() == P2::Off;
            let loses = claims::CLAIMS.cells.iter().any(|c| {
                c.variant == v.name
                    && matches!(c.outcome.id, "O3" | "O6")
                    && c.expected == Reachable
                    && c.method.loom_scenario().is_some()
            });
            unsynchronized && !loses
        })
        .map(|v| v.name)
        .collect();
    assert_eq!(gap, ["P1+P3"]);
}

/// RR-1 on trunk: when the IBR RPC fails while reRegister clears, HDFS-17953's putMissing
/// skips the storage the clear removed: no NullPointerException (O5), but the blocks it
/// would have re-queued are dropped silently, in some order of whole steps. The same
/// registration then asks for an FBR whose snapshot carries them: O1 and O3 stay
/// unreachable in this scenario (the trunk/O5 cell's note).
#[test]
fn on_trunk_put_missing_drops_silently_and_the_registration_fbr_covers_it() {
    use super::scenarios::FAILED_IBR_VS_CLEAR;
    static SILENT: Outcome<World> = Outcome {
        id: "silent-drop",
        summary: "putMissing skipped a cleared storage",
        check: Check::State(|w| {
            w.ghost.with_events(|events| {
                events.iter().find_map(|e| match e {
                    Event::Dropped {
                        npe: false, blocks, ..
                    } => Some(format!("{} dropped", blocks.list())),
                    _ => None,
                })
            })
        }),
    };
    let trunk = Reregister::fix(TRUNK);
    let silent = enumerate(&FAILED_IBR_VS_CLEAR, trunk, &SILENT, every_choice);
    assert_eq!(silent.observed, Verdict::Reachable);
    for o in [&O1, &O3, &O5] {
        let e = enumerate(&FAILED_IBR_VS_CLEAR, trunk, o, every_choice);
        assert_eq!(
            e.observed,
            Verdict::Unreachable,
            "{}: {:?}",
            o.id,
            e.counterexample
        );
    }
}

/// The periodic FBR of every loom scenario lies beyond the quiescence horizon: otherwise a
/// lost request would be hidden by a lucky draw.
#[test]
fn the_seeded_periodic_fbr_is_beyond_the_horizon() {
    let trace = Trace::new();
    let w = scenarios::double_register_start(Fix::UPSTREAM, &trace, HaState::Standby);
    let s = &w.actor(0, 0).scheduler;
    for _ in 0..4 {
        s.schedule_next_block_report_time(&trace.actor("test"), 0);
        assert!(s.next_block_report_time() > QUIESCENCE_HORIZON);
    }
}

/// Issue 37's hang, reproduced: with P3's REGISTER from an FBR's answer never enqueued (a P3
/// mutant), `fbr-register`'s setup takes REG2 from an empty command queue. That `take` blocks
/// forever on parking_lot's condition variable (and is a deadlock under loom), so the five O8
/// steps cells of the scenario's P3 rows waited forever. Now each fails, in the step checker's
/// own result, with a message naming the goal and the step that could not run; and the same
/// rows with the real P3 still pass.
#[test]
fn a_broken_setup_fails_its_o8_steps_cells_with_a_named_message() {
    use super::claims::CLAIMS;
    let fbr_register_o8: Vec<_> = CLAIMS
        .cells
        .iter()
        .filter(|c| {
            c.outcome.id == "O8"
                && c.method
                    .loom_scenario()
                    .is_some_and(|(s, _)| s.name == super::scenarios::FBR_REGISTER_STANDBY.name)
                && c.expected == Verdict::Unreachable
        })
        .collect();
    let variants: Vec<&str> = fbr_register_o8.iter().map(|c| c.variant).collect();
    assert_eq!(variants, ["P3", "P1+P3", "P2+P3", "P1+P2+P3", "trunk+P3"]);
    for claim in fbr_register_o8 {
        let (scenario, _) = claim.method.loom_scenario().expect("a loom cell");
        crate::steps::verify(claim).expect("the real P3 passes");
        let lost = Fix {
            drop_stale_register: Switch::new(P3::LostFbrRegister),
            ..claim.fix()
        };
        let e = crate::model::catching_setup(|| enumerate(scenario, lost, &O8, every_choice))
            .expect_err("the setup cannot take REG2");
        assert_eq!(
            e,
            "setup: never reached REG2 taken by the command thread: \
             CommandProcessingThread:dn0/nn0: queue.take() (CommandProcessingThread.processQueue) \
             is not enabled",
            "{}",
            claim.variant
        );
        // The step checker's cell under the mutant: an error naming the cell, not a wait.
        let mutant = crate::claims::Mutant::<Reregister> {
            name: "P3-lost-fbr-register",
            variant: claim.variant,
            mutate: |fix| Fix {
                drop_stale_register: Switch::new(P3::LostFbrRegister),
                ..fix
            },
            caught_by: &O8,
            caught_at: None,
            inside_a_step: false,
            about: "the REGISTER an FBR's answer carries is never enqueued",
        };
        let cell = crate::steps::verify_mutant(&mutant).expect_err("the setup fails");
        let key = claim.steps_expectation().key();
        assert_eq!(cell, format!("mutant `P3-lost-fbr-register` at {key}: {e}"));
    }
}

/// `BPServiceActor.register` zeroes `fullBlockReportLeaseId` on the command thread: a lease a
/// heartbeat granted before REG2 is gone once REG2 is handled, so the next heartbeat asks for
/// a new one.
#[test]
fn a_re_registration_zeroes_the_fbr_lease() {
    use super::command_processor::ProcessCommand;
    use crate::model::try_step_until;
    let trace = Trace::new();
    let w = scenarios::fbr_register_start(Fix::UPSTREAM, &trace);
    w.actor(0, 0).grant_lease(7);
    let mut command = ProcessCommand::new(&trace, 0, 0);
    try_step_until(&mut command, &w, "the lease zeroed", |_, w| {
        w.actor(0, 0).lease() == 0
    })
    .expect("REG2's register zeroes the lease");
    let said = trace
        .events()
        .into_iter()
        .any(|e| e.method == "BPServiceActor.register" && e.detail.contains("LeaseId=0"));
    assert!(said, "the timeline says so");
}
