//! The world's accessors: a datanode, the pipeline's Ratis log, SCM's and OM's state, whether a
//! replica is real, a datanode's container report, OM's commit, a lost block, and the
//! description the replays print.

use super::datanode::Datanode;
use super::dispatcher;
use super::ghost::Ghost;
use super::pipeline::ClientWrite;
use super::scm::{self, ReplicaProto, Scm};
use super::speed::dense::PairSet;
use super::{run, ContainerId, DnId, Fix, LocalId, Om, World, C, CHUNK, DATANODES, PIPELINE};
use crate::sync::unseen;
use crate::trace::Trace;

impl World {
    pub fn new(fix: Fix) -> Self {
        World {
            fix,
            dns: (1..=DATANODES).map(Datanode::new).collect(),
            log: unseen::Mutex::new(Vec::new()),
            scm: unseen::Mutex::new(Scm::default()),
            om: unseen::Mutex::new(Om::default()),
            ghost: Ghost::default(),
        }
    }

    pub fn dn(&self, id: DnId) -> &Datanode {
        &self.dns[usize::from(id) - 1]
    }

    /// The index the next appended entry gets.
    pub fn peek_log_index(&self) -> u64 {
        self.last_log_index() + 1
    }

    pub fn last_log_index(&self) -> u64 {
        self.log.lock().len() as u64
    }

    /// `startTransaction` accepted the entry: Ratis appends it.
    pub fn append(&self, req: dispatcher::Request) {
        let mut log = self.log.lock();
        // Checked where it always was: in debug builds and in the fuzz targets, which are built
        // without debug assertions (`ci/src/fuzzing.rs`).
        if cfg!(any(debug_assertions, fuzzing)) {
            assert_eq!(req.index, log.len() as u64 + 1, "a log entry out of order");
        }
        log.push(req);
    }

    /// A restart of `dn` (`Op::Restart` in the histories): `loadSnapshot` and the replay of the log after it (`applyTransaction`
    /// for every entry: WriteChunk in COMMIT_DATA, PutBlock).
    pub fn restart(&self, trace: &Trace, dn: DnId) {
        let node = self.dn(dn);
        let missing = node.restart(self.fix.tombstone.get());
        let from = node.csm.snapshot_index();
        let cx = crate::trace::CxRef::new(
            trace,
            match dn {
                1 => "dn1 apply",
                2 => "dn2 apply",
                _ => "dn3 apply",
            },
        );
        cx.record(
            "ContainerStateMachine.loadSnapshot",
            format_args!("dn{dn}: snapshot at index {from}; marked missing {missing:?}; replaying the log after it"),
        );
        self.replay_after(from, |req| {
            let stage = match req.cmd {
                dispatcher::Cmd::WriteChunk { .. } => dispatcher::Stage::CommitData,
                dispatcher::Cmd::PutBlock { .. } | dispatcher::Cmd::StreamInit { .. } => {
                    dispatcher::Stage::Apply
                }
            };
            let reply = dispatcher::Dispatch::new(*req, stage).run(self, node, cx);
            if reply.state_machine_ignores() {
                return std::ops::ControlFlow::Continue(());
            }
            node.csm.fail(req.container);
            cx.record(
                "ContainerStateMachine.applyTransaction",
                format_args!(
                    "dn{dn}: replay of index {}: {reply} is not ignored: pipeline closes",
                    req.index
                ),
            );
            std::ops::ControlFlow::Break(())
        });
    }

    /// Calls `f` on each entry after `index`, in log order, until it breaks: a restart's
    /// replay. The log stays locked meanwhile (no copy of it): `f` must not append.
    pub fn replay_after(
        &self,
        index: u64,
        f: impl FnMut(&dispatcher::Request) -> std::ops::ControlFlow<()>,
    ) {
        let log = self.log.lock();
        let _ = log.iter().filter(|r| r.index > index).try_for_each(f);
    }

    /// Not inlined, as the datanode's accessors (see [`datanode`]).
    pub(super) fn om(&self) -> unseen::MutexGuard<'_, Om> {
        self.om.lock()
    }

    pub(super) fn scm_state(&self) -> unseen::MutexGuard<'_, Scm> {
        self.scm.lock()
    }

    /// Whether `dn` holds a replica of `id` with every block OM references that was committed
    /// before the close (a real replica, or a copy of one): `Some(true)`; one lacking some of
    /// them (recreated, or a copy of a recreated one): `Some(false)`; no replica: `None`.
    pub fn is_real(&self, dn: DnId, id: ContainerId) -> Option<bool> {
        let c = self.dn(dn).set.get(id)?;
        let om = self.om();
        Some(c.data(|d| {
            om.before_close
                .iter()
                .filter(|&k| k.0 == id && om.blocks.contains(k))
                .all(|k| d.blocks.contains_key(k.1))
        }))
    }

    /// The container report of `dn`.
    pub fn report_of(&self, dn: DnId) -> scm::Report {
        let mut report = scm::Report::new();
        self.dn(dn).set.each(|c| {
            report.insert(
                c.id,
                c.data(|d| ReplicaProto {
                    id: c.id,
                    state: d.state,
                    bcsid: d.bcsid,
                    empty: d.blocks.is_empty(),
                }),
            );
        });
        report
    }

    /// OM commits the key of a write whose WriteChunk and PutBlock both succeeded.
    pub fn commit_key(&self, id: ContainerId, block: LocalId) {
        let mut om = self.om();
        om.blocks.insert((id, block));
        if om.closed.contains(id) {
            om.after_close.insert((id, block));
        } else {
            om.before_close.insert((id, block));
        }
    }

    pub(super) fn lost(&self, which: fn(&Om) -> &PairSet) -> Option<String> {
        let lost = {
            let om = self.om();
            // The pairs of `which` that OM still references, in ascending order, as the filter
            // over `which` gave them.
            self.first_unheld(which(&om).intersection(om.blocks))
        };
        lost.map(|(c, b)| {
                let scm = self.scm_state();
                let replicas = scm.replicas(c);
                if replicas.is_empty() {
                    format!("block {b} of c{c}: OM references it, no replica left (NO_REPLICA_FOUND)")
                } else {
                    format!(
                        "block {b} of c{c}: OM references it, every replica SCM keeps ({:?}) lacks it (NO_SUCH_BLOCK)",
                        replicas.keys().collect::<Vec<_>>()
                    )
                }
            })
    }

    /// The observable state in the report's words.
    pub fn describe(&self) -> String {
        let mut lines = Vec::new();
        for dn in &self.dns {
            let reps: Vec<String> = dn
                .set
                .replicas()
                .iter()
                .map(|c| format!("c{} {} ({:?})", c.id, c.data(|d| d.summary()), c.origin))
                .collect();
            lines.push(format!(
                "dn{}: {}{}",
                dn.id,
                if reps.is_empty() {
                    "no replica".to_string()
                } else {
                    reps.join("; ")
                },
                if dn.csm.is_healthy() {
                    ""
                } else {
                    " — pipeline state machine unhealthy"
                }
            ));
        }
        // The same, as `key=value` words (what a real run's trace gives the validator).
        let mut words = Vec::new();
        for dn in &self.dns {
            let d = dn.id;
            let reps = dn.set.replicas();
            words.push(format!("dn{d}.replicas={}", reps.len()));
            for c in reps.iter() {
                let (state, bcsid, blocks) = c.data(|x| {
                    let blocks: Vec<String> = x.blocks.keys().map(|b| b.to_string()).collect();
                    (x.state, x.bcsid, blocks)
                });
                let blocks = if blocks.is_empty() {
                    "none".to_string()
                } else {
                    blocks.join(",")
                };
                words.push(format!(
                    "dn{d}.c{id}={state:?} dn{d}.c{id}.bcsid={bcsid} dn{d}.c{id}.blocks={blocks}",
                    id = c.id
                ));
            }
            words.push(format!("dn{d}.healthy={}", dn.csm.is_healthy()));
        }
        for id in [C] {
            for dn in &self.dns {
                words.push(format!(
                    "dn{}.container2BCSIDMap[c{id}]={}",
                    dn.id,
                    dn.csm
                        .bcsid_of(id)
                        .map_or("none".to_string(), |b| b.to_string())
                ));
            }
        }
        let scm = self.scm_state();
        for (id, c) in scm.containers.iter() {
            words.push(format!("scm.c{id}.seq={}", c.seq));
            lines.push(format!(
                "SCM c{id}: {:?} seq {} replicas {:?}",
                c.state,
                c.seq,
                scm.replicas(id).keys().collect::<Vec<_>>()
            ));
        }
        let clients = self.ghost.with(|g| g.clients.clone());
        for r in clients {
            lines.push(format!(
                "client block {} of c{}: WriteChunk {} PutBlock {}",
                r.block,
                r.container,
                r.write_chunk.map_or("no reply".into(), |x| x.to_string()),
                r.put_block.map_or("no reply".into(), |x| x.to_string())
            ));
        }
        lines.push(format!("observable: {}", words.join(" ")));
        lines.join("\n")
    }
}

/// A container created over the pipeline with one committed block, as every member holds it.
pub fn created_with_block(trace: &Trace, w: &World, id: ContainerId, block: LocalId) {
    w.scm_state().allocate(id);
    run(w, ClientWrite::new(trace, &PIPELINE, id, block, 0, CHUNK));
}
