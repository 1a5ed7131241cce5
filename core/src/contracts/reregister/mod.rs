//! reregister — HDFS-17969: a DataNode that re-registers twice after a NameNode restart loses
//! the IBRs of blocks finalized during its in-flight full block report, and the second
//! registration's FBR request: the NameNode does not learn those blocks until the periodic FBR,
//! up to 6 h later (a missing block once every holder is in that state).
//!
//! Components, one per upstream class: [`actor::BPServiceActor`] and its actor thread
//! ([`actor::OfferService`], which runs `blockReport` itself), [`scheduler::Scheduler`],
//! [`ibr_manager::IncrementalBlockReportManager`] (its `clearIBRs` is unsynchronized: a
//! race-tracked cell), [`command_processor`] (`CommandProcessingThread` and `reRegister`),
//! [`fs_dataset`] (the replica map and the writer), and [`namenode`] (`DatanodeManager`,
//! `BlockReportLeaseManager`, `BlockManager.processReport`, the dead-node path). The report has
//! no patch: the parts P1–P3 are ours (DESIGN-NOTES.md).

pub mod actor;
pub mod blocks;
pub mod claims;
pub mod cluster;
pub mod command_processor;
pub mod command_queue;
pub mod findings;
pub mod fs_dataset;
pub mod ghost;
#[cfg(feature = "histories")]
pub mod histories;
#[cfg(all(test, not(loom)))]
mod ibr_cap;
pub mod ibr_manager;
pub mod lease;
pub mod namenode;
pub mod premises;
pub mod reproductions;
pub mod scenarios;
pub mod scheduler;
pub mod speed;
#[cfg(all(test, not(loom)))]
mod tests;
pub mod threads;
pub mod upstream;
pub mod world;

use crate::claims::{Claimed, Claims};
use crate::findings::Finding;
use crate::model::{Baseline, Contract, Model, Part, Variant, REPORT};
use crate::outcome::{Check, Outcome};
use crate::switches::Switch;
use crate::trace::Trace;
use actor::BPServiceActor;
use blocks::BlockSet;
pub use command_processor::{P2, P3};
use fs_dataset::{FsDataset, WriterOrder};
use ghost::{snapshot_after, Event, Ghost};
use namenode::NameNode;
use scheduler::HEARTBEAT_INTERVAL;
pub use scheduler::P1;
use speed::SettledCache;
pub use world::Clock;

/// Logical milliseconds (Java's `long` monotonic time).
pub type Millis = i64;
pub type Block = u32;
/// One storage per DataNode: its index.
pub type StorageId = u32;

/// The most DataNodes a world has (the histories' cluster has three, the scenarios one).
pub const MAX_DATANODES: usize = 3;

crate::switches! {
    fingerprint;
    pub struct Fix {
        /// P1: the sticky FBR request (see [`P1`] for its mutants).
        0 => pub sticky_fbr_request: P1 = P1::Off,
        /// P2: no IBR lost on re-registration (see [`P2`] for its mutant).
        1 => pub keep_ibrs: P2 = P2::Off,
        /// P3: stale DNA_REGISTER dropped (see [`P3`] for its mutant).
        2 => pub drop_stale_register: P3 = P3::Off,
        /// Not a part (mutant `notify-first`): the writer's order (upstream), or its mutant.
        3 => pub writer_order: WriterOrder = WriterOrder::FinalizeThenNotify,
        /// HDFS-17953, upstream's change on trunk (apache/hadoop 2f3cdd76): `clearIBRs`
        /// synchronized (and resetting `pendingBlockCount`), `putMissing` skipping a storage entry a
        /// clear removed.
        4 => pub clear_ibrs_synchronized: bool = false,
    }
}

/// The part is named as its switch's type is: `P1` the part, `P1::Sticky` what it switches on.
pub const P1: Part<Fix> = Part {
    id: "P1",
    summary: "sticky FBR request: register bumps a registration epoch under a scheduler lock; an \
              FBR whose drain started before a registration neither consumes nor overwrites that \
              registration's request",
    on: |fix| Fix {
        sticky_fbr_request: Switch::new(P1::Sticky),
        ..fix
    },
};

pub const P2: Part<Fix> = Part {
    id: "P2",
    summary: "no IBR lost on re-registration: reRegister keeps the pending IBRs (no \
              unsynchronized clearIBRs; HDFS-17953 bounds them while the NN is away)",
    on: |fix| Fix {
        keep_ibrs: Switch::new(P2::Keep),
        ..fix
    },
};

pub const P3: Part<Fix> = Part {
    id: "P3",
    summary: "stale DNA_REGISTER dropped: a REGISTER answered to a heartbeat sent under an older \
              registration than the last completed one is ignored",
    on: |fix| Fix {
        drop_stale_register: Switch::new(P3::Drop),
        ..fix
    },
};

/// Not a part of any fix: the writer-order mutant as a row, R1's reachable twin (a block is
/// lost in the report's window as worded only if the writer notifies before it finalizes).
pub const NOTIFY_FIRST: Part<Fix> = Part {
    id: "notify-first",
    summary: "(not a part of the fix) the writer queues the block's IBR before the replica is \
              FINALIZED",
    on: |fix| Fix {
        writer_order: Switch::new(WriterOrder::NotifyThenFinalize),
        ..fix
    },
};

/// Upstream's change on trunk, a part of the `trunk` baseline rather than of a fix.
pub const HDFS_17953: Part<Fix> = Part {
    id: "HDFS-17953",
    summary: "(upstream, on trunk) clearIBRs synchronized and resetting pendingBlockCount, \
              putMissing skipping a storage a clear removed",
    on: |fix| Fix {
        clear_ibrs_synchronized: Switch::new(true),
        ..fix
    },
};

/// The report's fix.
pub const PROPOSED: &[&Part<Fix>] = &[&P1, &P2];
/// The code of the `trunk` baseline, as parts on the report's.
pub const TRUNK: &[&Part<Fix>] = &[&HDFS_17953];

#[derive(Debug)]
pub struct DataNode {
    pub dataset: FsDataset,
    /// One `BPServiceActor` per NameNode (indexed by NameNode).
    pub actors: Vec<BPServiceActor>,
}

/// Everything the actors share.
#[derive(Debug)]
pub struct World {
    pub fix: Fix,
    pub clock: Clock,
    pub datanodes: Vec<DataNode>,
    pub namenodes: Vec<NameNode>,
    pub ghost: Ghost,
    trace: Trace,
    settled: SettledCache,
}

/// How far past the end of the concurrent part quiescence runs the actors: two heartbeats.
/// Every FBR due before it is performed; a periodic one lies beyond it (its random delay is
/// seeded, see the scheduler test).
pub const QUIESCENCE_HORIZON: Millis = 2 * HEARTBEAT_INTERVAL;

pub struct Reregister;

// Every state outcome but O5 is decided on the world at quiescence: `at_quiescence` gives the
// same events, replicas, block locations and FBR times as `settled` (the equivalence test in
// `speed/quiescence.rs` compares these predicates with their first form, on `settled`, over many
// histories).

/// O1: a finalized block dropped from the pending IBRs with no FBR snapshot after the drop.
pub static O1: Outcome<World> = Outcome {
    id: "O1",
    summary: "a finalized block is dropped from the pending IBRs (clearIBRs, or a putMissing that \
              threw) and no FBR snapshot is taken after the drop",
    check: Check::State(|w| {
        w.at_quiescence().ghost.with_events(|events| {
            events.iter().enumerate().find_map(|(i, e)| match e {
                Event::Dropped { dn, nn, blocks, .. } => blocks
                    .iter()
                    .find(|&b| !snapshot_after(events, i, (*dn, *nn), |s| s.contains(b)))
                    .map(|b| {
                        format!(
                            "block {b} dropped from dn{dn}'s pending IBRs for nn{nn}, in no later \
                             FBR"
                        )
                    }),
                _ => None,
            })
        })
    }),
};

/// O2: a registration whose FBR request no FBR honoured.
pub static O2: Outcome<World> = Outcome {
    id: "O2",
    summary: "a registration's FBR request is lost: no FBR snapshot is taken after its \
              scheduleBlockReport before the horizon (the in-flight FBR's scheduleNextBlockReport \
              overwrote it)",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        w.ghost.with_events(|events| {
            events.iter().enumerate().find_map(|(i, e)| match e {
                Event::Requested { dn, nn } if !snapshot_after(events, i, (*dn, *nn), |_| true) => {
                    let next = w.actor(*dn, *nn).scheduler.next_block_report_time();
                    Some(format!(
                        "dn{dn}'s registration with nn{nn} asked for an FBR now; none came, the \
                         next is at {next} ms"
                    ))
                }
                _ => None,
            })
        })
    }),
};

/// O3: at quiescence a NameNode knows no location of a finalized block.
pub static O3: Outcome<World> = Outcome {
    id: "O3",
    summary: "at quiescence a NameNode knows no location of a block finalized on its DataNodes \
              (a missing block once that NameNode is active)",
    check: Check::State(|w| {
        missing(&w.at_quiescence()).map(|(nn, b)| format!("nn{nn} knows no location of block {b}"))
    }),
};

/// O4: the data race on `pendingIBRs`.
pub static O4: Outcome<World> = Outcome {
    id: "O4",
    summary: "data race on pendingIBRs: clearIBRs clears the HashMap without the monitor that \
              notifyNamenodeBlock, generateIBRs and putMissing hold",
    check: Check::Race,
};

/// O5: `putMissing` after a concurrent `clearIBRs` (the code shows it, the report does not).
pub static O5: Outcome<World> = Outcome {
    id: "O5",
    summary: "putMissing after a failed IBR RPC finds the storage entry removed by a concurrent \
              clearIBRs: NullPointerException upstream, the re-queued blocks are lost",
    check: Check::State(|w| {
        w.ghost.with_events(|events| {
            events.iter().find_map(|e| match e {
                Event::Dropped {
                    dn,
                    nn,
                    blocks,
                    npe: true,
                } => Some(format!(
                    "dn{dn}/nn{nn}: putMissing threw after clearIBRs, {} not re-queued",
                    blocks.list()
                )),
                _ => None,
            })
        })
    }),
};

/// O6: the single-registration race (the code shows it, the report does not).
pub static O6: Outcome<World> = Outcome {
    id: "O6",
    summary: "a block goes missing with a single registration (no duplicate REGISTER): the \
              heartbeat answer that asks the DataNode to register also grants a lease, and the \
              FBR it starts races that one registration",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        let (nn, b) = missing(w)?;
        let once = w.ghost.with_events(|events| {
            (0..w.datanodes.len()).all(|dn| {
                events
                    .iter()
                    .filter(
                        |e| matches!(e, Event::Requested { dn: d, nn: n } if (*d, *n) == (dn, nn)),
                    )
                    .count()
                    <= 1
            })
        });
        once.then(|| {
            format!("nn{nn} knows no location of block {b}; no DataNode registered with it twice")
        })
    }),
};

/// O7: the data race on `resetBlockReportTime`.
pub static O7: Outcome<World> = Outcome {
    id: "O7",
    summary: "data race on resetBlockReportTime: register's scheduleBlockReport (command thread) \
              writes the plain boolean that the in-flight FBR's scheduleNextBlockReport (actor \
              thread) reads and clears, with no lock in common",
    check: Check::Race,
};

/// O8: a stale REGISTER re-registers (the duplicate registration the report starts from).
pub static O8: Outcome<World> = Outcome {
    id: "O8",
    summary: "a REGISTER answered to an RPC sent under an older registration runs reRegister \
              after a newer registration completed: the duplicate registration (its clearIBRs \
              and FBR request) the report's loss starts from",
    check: Check::State(|w| {
        w.at_quiescence().ghost.with_events(|events| {
            events.iter().find_map(|e| match *e {
                Event::StaleRegister {
                    dn,
                    nn,
                    sent_under,
                    current,
                } => Some(format!(
                    "dn{dn}/nn{nn}: a REGISTER sent under registration {sent_under} re-registered \
                     after registration {current}"
                )),
                _ => None,
            })
        })
    }),
};

/// O9: two NameNodes disagree at quiescence: one locates a block the other locates nowhere.
pub static O9: Outcome<World> = Outcome {
    id: "O9",
    summary: "at quiescence one NameNode locates a block that another NameNode locates nowhere: \
              the block is missing once the second one becomes active (the report's failover)",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        let located: Vec<BlockSet> = w
            .namenodes
            .iter()
            .map(|n| n.with_state(|s| s.located()))
            .collect();
        located.iter().enumerate().find_map(|(a, la)| {
            located.iter().enumerate().find_map(|(b, lb)| {
                la.difference(*lb).first().map(|block| {
                    format!("nn{a} locates block {block}, nn{b} knows no location of it")
                })
            })
        })
    }),
};

/// R1: the report's wider window — a block queued between the drain and the snapshot, lost.
pub static R1: Outcome<World> = Outcome {
    id: "R1",
    summary: "the report's window as worded: a block queued for IBR after blockReport's IBR drain \
              and before its snapshot is unknown to the NameNode at quiescence",
    check: Check::State(|w| {
        let w = &w.at_quiescence();
        let lost = |dn: usize, nn: usize, b: Block| {
            w.datanodes[dn].dataset.finalized().contains(b) && !w.namenodes[nn].locates(dn, b)
        };
        w.ghost.with_events(|events| {
            events.iter().enumerate().find_map(|(d, e)| {
                let Event::Drained { dn, nn } = *e else {
                    return None;
                };
                let s = events[d + 1..].iter().position(
                    |e| matches!(e, Event::Snapshot { dn: x, nn: y, .. } if (*x, *y) == (dn, nn)),
                )? + d
                    + 1;
                events[d + 1..s].iter().find_map(|e| match *e {
                    Event::Notified {
                        dn: x,
                        nn: y,
                        block,
                    } if (x, y) == (dn, nn) && lost(dn, nn, block) => Some(format!(
                        "block {block} queued between the drain and the snapshot, unknown to nn{nn}"
                    )),
                    _ => None,
                })
            })
        })
    }),
};

/// A block finalized somewhere that NameNode `nn` locates nowhere: the first such NameNode
/// and the smallest such block.
pub fn missing(w: &World) -> Option<(usize, Block)> {
    let finalized = w.finalized();
    w.namenodes.iter().enumerate().find_map(|(nn, n)| {
        let unlocated = n.with_state(|state| finalized.difference(state.located()));
        unlocated.first().map(|b| (nn, b))
    })
}

impl Model for Reregister {
    type Fix = Fix;
    type World = World;
    const CONTRACT: Contract = Contract {
        id: "reregister",
        module: "reregister",
        report: "HDFS-17969",
        title: "DataNode re-registration after a NameNode restart loses IBRs and the registration's FBR",
    };
    const OUTCOMES: &'static [&'static Outcome<World>] =
        &[&O1, &O2, &O3, &O4, &O5, &O6, &O7, &O8, &O9, &R1];
    const BASELINES: &'static [Baseline<Fix>] = &[
        Baseline {
            name: REPORT,
            repo: "apache/hadoop",
            commit: "rel/release-3.5.0",
            about: "Hadoop 3.5.0, before HDFS-17953 (IncrementalBlockReportManager.clearIBRs \
                    unsynchronized, putMissing without a null check: premises RR_P2 and RR_P3 on \
                    hadoop-hdfs 3.5.0), with BPServiceActor's CommandProcessingThread and \
                    Scheduler as the model has them (premises RR_P1, RR_P4, RR_P5)",
            changes: &[],
        },
        Baseline {
            name: "trunk",
            repo: "apache/hadoop",
            commit: "2f3cdd76861dce4d2b0df5b298bb308d1975202d",
            about: "Hadoop trunk with HDFS-17953 (PR #8626): clearIBRs synchronized and resetting \
                    pendingBlockCount, putMissing skipping a storage a clear removed, \
                    clearIBRsIfNeeded at dfs.datanode.ibr.max.pending.blocks",
            changes: TRUNK,
        },
    ];
    const VARIANTS: &'static [Variant<Fix>] = &[
        Variant::new("upstream", &[]),
        Variant::new("P1", &[&P1]),
        Variant::new("P2", &[&P2]),
        Variant::new("P3", &[&P3]),
        Variant::new("proposed", PROPOSED),
        Variant::new("P1+P3", &[&P1, &P3]),
        Variant::new("P2+P3", &[&P2, &P3]),
        Variant::new("P1+P2+P3", &[&P1, &P2, &P3]),
        Variant::new("notify-first", &[&NOTIFY_FIRST]),
        Variant::on("trunk", "trunk", &[]),
        Variant::on("trunk", "trunk+P1", &[&P1]),
        Variant::on("trunk", "trunk+P2", &[&P2]),
        Variant::on("trunk", "trunk+P3", &[&P3]),
        Variant::on("trunk", "trunk+P1+P2", PROPOSED),
    ];
    const FINDINGS: &'static [Finding] = findings::FINDINGS;
    const UPSTREAM: Fix = Fix::UPSTREAM;

    /// At quiescence: where each NameNode locates each finalized block, the blocks dropped
    /// from pending IBRs, and whether every registration got its FBR ([`World::describe`]).
    fn describe(w: &World) -> String {
        w.describe()
    }
}

impl Claimed for Reregister {
    const CLAIMS: Claims<Self> = claims::CLAIMS;
}
