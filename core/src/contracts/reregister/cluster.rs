//! The cluster of the long histories and of the report's sequence: three DataNodes holding
//! every block (replication 3), two NameNodes (nn0 ACTIVE, nn1 STANDBY), and the operations of
//! the environment and the scheduler on it. The histories (proptest, quickcheck, the fuzz
//! target), the scenario files and the reproductions all run these operations on the step
//! driver.
//!
//! The missing block needs every holder to lose it at one NameNode. Besides `Step` (the n-th
//! program that can step), `Lockstep` steps one kind of thread on every DataNode at once: the
//! same interleaving on all three holders, which the report's cluster-wide re-registration
//! produces and random single steps almost never do.

use super::actor::{ActorStart, OfferService};
use super::command_processor::ProcessCommand;
use super::fs_dataset::Writer;
use super::namenode::{HaState, HEARTBEAT_EXPIRE_INTERVAL};
use super::scheduler::HEARTBEAT_INTERVAL;
use super::threads::{actor_thread, command_thread, writer_thread};
use super::{Block, Fix, Reregister, World};
use crate::drive::Driver;
use crate::plan::Plan as _;
use crate::trace::Trace;

pub const DATANODES: usize = 3;
pub const NAMENODES: usize = 2;

/// Which thread a `Lockstep` steps on every DataNode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thread {
    Actor,
    Command,
    Writer,
}

/// One operation of a history. Byte format (one byte each): `b % 16` is the kind, `b >> 4` its
/// argument: 0 `Write` (`(b >> 4) % 4` = 0) or `WriteOne(dn)` (`dn = (b >> 4) % 4 - 1`); 1 `Heartbeats(nn)`; 2 `Commands(nn)`; 3 `Restart(nn)`; 4 `Failover(nn)`;
/// 5 `Tick`; 6 `Gap(nn)`; 7–9 `Lockstep(Actor | Command | Writer, nn)`; 10–15 `Step(b >> 4)`.
/// A NameNode argument is `(b >> 4) % 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A client writes the next block; each DataNode's `DataXceiver` finalizes it and notifies.
    Write,
    /// A client writes the next block at replication 1 (a file written with `-D
    /// dfs.replication=1`, or created with replication 1): only DataNode `dn` holds it, so one
    /// holder losing it is a missing block.
    WriteOne(u8),
    /// Every DataNode's actor thread for NameNode `nn` starts an `offerService` iteration.
    Heartbeats(u8),
    /// Every command thread for `nn` with a queued batch starts processing it.
    Commands(u8),
    /// NameNode `nn` restarts (it comes back STANDBY, knowing no DataNode).
    Restart(u8),
    /// NameNode `nn` becomes ACTIVE, the other STANDBY.
    Failover(u8),
    /// Logical time advances by a heartbeat interval.
    Tick,
    /// No heartbeat reaches NameNode `nn` for the expiry interval; its heartbeat monitor marks
    /// the DataNodes dead (descriptors kept, block locations dropped).
    Gap(u8),
    /// One step of the oldest unfinished program of that thread on every DataNode.
    Lockstep(Thread, u8),
    /// One step of the `n`-th program that can step.
    Step(u8),
    /// A re-registration with NameNode `nn` in one of many orders, chosen by `seed`: the
    /// operations [`reregistration`] lists (a restart or a heartbeat gap, the first heartbeat,
    /// then the threads' steps, the command threads started, heartbeats, a tick and a write in
    /// a random order, the actor's steps held back by a random bias: its FBR RPC is the long
    /// one). The generators' way to reach the report's interleavings (one byte and a seed for
    /// the fuzz codec; proptest lists the operations themselves).
    Reregistration { nn: u8, seed: u32 },
}

/// The operations of [`Op::Reregistration`].
pub fn reregistration(nn: u8, seed: u32) -> Vec<Op> {
    let mut ops = Vec::with_capacity(40);
    each_reregistration_op(nn, seed, |op| ops.push(op));
    ops
}

/// Calls `f` on each operation of [`Op::Reregistration`], in order, allocating nothing: a
/// fuzz run carries out most of its operations here (chunks as vectors, sorted, were 7% of the
/// model's instructions in a run).
fn each_reregistration_op(nn: u8, seed: u32, mut f: impl FnMut(Op)) {
    let mut r = crate::splitmix::SplitMix64(u64::from(seed));
    let mut draw = |n: u64| r.next_u64() % n;
    let restart = draw(2) == 1;
    let write = match draw(4) as u8 {
        0 => Op::Write,
        dn => Op::WriteOne(dn - 1),
    };
    let first = 1 + draw(8) as usize;
    let bias = draw(256) as u16;
    let (a, c, w) = (
        Op::Lockstep(Thread::Actor, nn),
        Op::Lockstep(Thread::Command, nn),
        Op::Lockstep(Thread::Writer, nn),
    );
    f(if restart {
        Op::Restart(nn)
    } else {
        Op::Gap(nn)
    });
    f(Op::Heartbeats(nn));
    for _ in 0..first {
        f(a);
    }
    // The chunks, each a word: its key (the random position), its index in the order drawn,
    // and what it holds (an actor step, a command step, or one of `LATER`). Sorted, they are in
    // key order, and chunks of equal keys in the order drawn: what a stable sort by key gives.
    const ACTOR: u32 = 0;
    const COMMAND: u32 = 1;
    const LATER: [Chunk; 6] = [
        Chunk::Write,
        Chunk::Commands,
        Chunk::Commands,
        Chunk::Heartbeats,
        Chunk::Heartbeats,
        Chunk::Tick,
    ];
    const _: () = assert!(CHUNKS == 9 + 9 + LATER.len());
    // The slots past the last chunk hold `u32::MAX`, above every chunk's word (a key is at most
    // 510, 9 bits).
    let mut chunks = [u32::MAX; CHUNKS];
    let mut n = 0;
    let mut push = |key: u16, what: u32| {
        chunks[n] = u32::from(key) << 16 | (n as u32) << 8 | what;
        n += 1;
    };
    for _ in first..10 {
        push(draw(256) as u16 + bias, ACTOR);
    }
    for _ in 0..9 {
        push(draw(256) as u16, COMMAND);
    }
    for i in 0..LATER.len() {
        push(draw(256) as u16, 2 + i as u32);
    }
    // The words are distinct (each holds its index), so every sort orders them alike. Each goes
    // to its rank, the number of words below it: a count over all the slots, without a branch,
    // which the compiler unrolls. The standard library's sort is a few dozen code paths, each a
    // counter libFuzzer reads after every run; an insertion sort's inner loop, a few hundred
    // iterations a re-registration, bumped one coverage counter in each (a chain of
    // read-modify-writes of one byte: 2% of a fuzz run's time, perf).
    let mut sorted = [0u32; CHUNKS];
    for &chunk in &chunks[..n] {
        let rank: u32 = chunks.iter().map(|&other| u32::from(other < chunk)).sum();
        sorted[rank as usize] = chunk;
    }
    for chunk in sorted[..n].iter() {
        match chunk & 0xFF {
            ACTOR => f(a),
            COMMAND => f(c),
            later => match LATER[(later - 2) as usize] {
                Chunk::Write => {
                    f(write);
                    f(w);
                    f(w);
                    f(w);
                }
                Chunk::Commands => f(Op::Commands(nn)),
                Chunk::Heartbeats => f(Op::Heartbeats(nn)),
                Chunk::Tick => f(Op::Tick),
            },
        }
    }
}

/// The chunks of a re-registration at most: nine actor steps, nine command steps and the six
/// of `LATER` (see [`each_reregistration_op`]).
const CHUNKS: usize = 9 + 9 + 6;

/// What a re-registration's chunk after the first actor steps holds (see
/// [`each_reregistration_op`]).
#[derive(Clone, Copy)]
enum Chunk {
    Write,
    Commands,
    Heartbeats,
    Tick,
}

/// What the environment has done: the blocks written so far (the next block's id), and the
/// NameNode it last restarted or cut off (the generator's focus).
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan {
    pub blocks: Block,
    pub focus: u8,
    /// Steps the programs started on the focus NameNode (and the writers) have left, roughly:
    /// actor threads, command threads, writers. Only the generator reads them.
    pub expected: [u8; 3],
    /// The generator's weights of the three thread kinds for this history (swarm testing:
    /// each history draws its own, so that some let an actor thread sit in its FBR RPC while
    /// the command thread and a writer run). Only the generator reads them.
    pub swarm: [u8; 3],
}

impl crate::plan::Plan for Plan {
    type Op = Op;

    fn start() -> Plan {
        Plan::default()
    }

    fn allows(&self, op: &Op) -> bool {
        match *op {
            Op::Heartbeats(n) | Op::Commands(n) | Op::Restart(n) | Op::Failover(n) | Op::Gap(n) => {
                usize::from(n) < NAMENODES
            }
            Op::Lockstep(_, n) => usize::from(n) < NAMENODES,
            Op::Write => self.blocks < 8,
            Op::WriteOne(dn) => self.blocks < 8 && usize::from(dn) < DATANODES,
            Op::Tick | Op::Step(_) => true,
            Op::Reregistration { nn, .. } => usize::from(nn) < NAMENODES,
        }
    }

    fn update(&mut self, op: &Op) {
        let focus = self.focus;
        let add = |e: &mut u8, n: u8| *e = e.saturating_add(n).min(16);
        match *op {
            Op::Write | Op::WriteOne(_) => {
                self.blocks += 1;
                add(&mut self.expected[2], 1 + NAMENODES as u8);
            }
            Op::Restart(n) | Op::Gap(n) => {
                self.focus = n;
                self.expected = [0, 0, self.expected[2]];
            }
            Op::Heartbeats(n) if n == focus => add(&mut self.expected[0], 9),
            Op::Commands(n) if n == focus => add(&mut self.expected[1], 7),
            Op::Lockstep(t, n) if n == focus || t == Thread::Writer => {
                let i = t as usize;
                self.expected[i] = self.expected[i].saturating_sub(1);
            }
            _ => {}
        }
    }
}

/// The cluster a history starts from: every DataNode registered with both NameNodes (which
/// locate nothing yet: nothing is written), heartbeats due, and the periodic FBR due in ten
/// minutes (so that a heartbeat gap ends with it due).
pub fn cluster(fix: Fix, trace: &Trace) -> World {
    let start = ActorStart {
        lease: 0,
        state: HaState::Active,
        registration: 1,
        next_block_report: 600_000,
        reset: false,
        next_heartbeat: 0,
        plain_reset: false,
    };
    let w = World::new(
        fix,
        trace,
        DATANODES,
        &[HaState::Active, HaState::Standby],
        start,
    );
    for (nn, node) in w.namenodes.iter().enumerate() {
        for dn in 0..DATANODES {
            node.register_datanode(&trace.actor("NameNode"), dn, 0);
            w.actor(dn, nn).set_state(node.ha());
        }
    }
    w
}

/// Carries out `op` on the driver if `plan` allows it; false, changing nothing, if not: what a
/// history's session does with an operation ([`crate::histories::Session::apply`]), for the
/// operations a re-registration lists and for the runs outside a session (the reproduction
/// runs in the models' build, which has no sessions).
pub fn run_op(d: &mut Driver<Reregister>, plan: &mut Plan, op: &Op) -> bool {
    plan.allows(op) && apply(d, plan, op)
}

/// Carries out one operation that `plan` allows on the driver (see [`run_op`]).
pub fn apply(d: &mut Driver<Reregister>, plan: &mut Plan, op: &Op) -> bool {
    if let Op::Reregistration { nn, seed } = *op {
        each_reregistration_op(nn, seed, |op| {
            run_op(d, plan, &op);
        });
        return true;
    }
    let block = plan.blocks;
    plan.update(op);
    let trace = d.trace.clone();
    let world = d.world.clone();
    let now = world.clock.now();
    match *op {
        Op::WriteOne(dn) => d.spawn(Box::new(Writer::new(
            &trace,
            dn.into(),
            block,
            world.fix.writer_order.get(),
        ))),
        Op::Write => {
            for dn in 0..DATANODES {
                d.spawn(Box::new(Writer::new(
                    &trace,
                    dn,
                    block,
                    world.fix.writer_order.get(),
                )));
            }
        }
        Op::Heartbeats(nn) => {
            let running = enabled_programs(d, |dn| actor_thread(dn, nn.into()));
            for (dn, running) in running.into_iter().enumerate() {
                // An iteration is the only program of its thread and never blocks: the thread
                // is running exactly when one is enabled.
                if running.is_none() {
                    d.spawn(Box::new(OfferService::iteration(&trace, dn, nn.into())));
                }
            }
        }
        Op::Commands(nn) => {
            let nn = usize::from(nn);
            let running = enabled_programs(d, |dn| command_thread(dn, nn));
            for (dn, running) in running.into_iter().enumerate() {
                // With a batch queued, a running command thread can step: it is running exactly
                // when it is enabled.
                if running.is_none() && !world.actor(dn, nn).queue.is_empty() {
                    d.spawn(Box::new(ProcessCommand::new(&trace, dn, nn)));
                }
            }
        }
        Op::Restart(nn) => world.namenodes[usize::from(nn)].restart(
            &trace.actor("NameNode"),
            HaState::Standby,
            now,
        ),
        Op::Failover(nn) => {
            for (i, node) in world.namenodes.iter().enumerate() {
                let ha = if i == usize::from(nn) {
                    HaState::Active
                } else {
                    HaState::Standby
                };
                node.transition(&trace.actor("NameNode"), ha);
            }
        }
        Op::Tick => world.clock.set(now + HEARTBEAT_INTERVAL),
        Op::Gap(nn) => {
            let later = now + HEARTBEAT_EXPIRE_INTERVAL + 1;
            world.clock.set(later);
            for dn in 0..DATANODES {
                world.namenodes[usize::from(nn)].heartbeat_check(
                    &trace.actor("HeartbeatManager"),
                    dn,
                    later,
                );
            }
        }
        Op::Lockstep(thread, nn) => {
            // One look for the three DataNodes: a step of one DataNode's thread neither starts,
            // ends, blocks nor unblocks another DataNode's (a command thread waits only for its
            // own pair's queue, which only its own pair's actor thread fills).
            let enabled = enabled_programs(d, |dn| match thread {
                Thread::Actor => actor_thread(dn, nn.into()),
                Thread::Command => command_thread(dn, nn.into()),
                Thread::Writer => writer_thread(dn),
            });
            // A thread with nothing to do, or blocked, just does not step.
            for i in enabled.into_iter().flatten() {
                d.step_actor(i);
            }
        }
        Op::Step(n) => {
            d.step(n.into());
        }
        Op::Reregistration { .. } => unreachable!("expanded above"),
    }
    true
}

/// For each DataNode, the program `Driver::step_named(thread(dn))` would step: the oldest
/// unfinished program of that thread, if its next step can run now (`Driver::each_oldest`
/// visits the oldest of each thread), in one pass that allocates nothing. Names are
/// compared by address (every program of the cluster takes its thread's name from one static
/// table, see `THREADS`): the driver's comparison of names, per program and step, was a tenth
/// of a fuzz run, most of it libFuzzer's hook on `bcmp`. The tests below check that the two
/// agree.
fn enabled_programs(
    d: &Driver<Reregister>,
    thread: impl Fn(usize) -> &'static str,
) -> [Option<usize>; DATANODES] {
    let names: [&str; DATANODES] = std::array::from_fn(&thread);
    let mut found = [None; DATANODES];
    // Only these actors' oldest programs are asked whether they can step (a dynamic call each),
    // and the walk ends once each of them is seen: a history leaves many programs unfinished.
    let mut left = DATANODES;
    d.each_oldest(|i, actor| {
        if let Some(dn) = names.iter().position(|&n| std::ptr::eq(actor, n)) {
            if d.can_step(i) {
                found[dn] = Some(i);
            }
            left -= 1;
        }
        left > 0
    });
    found
}

use Op::{Commands, Failover, Heartbeats, Lockstep, Restart, Tick, Write};
use Thread::{Actor, Command, Writer as Xceiver};

/// The report's ten steps on every DataNode, against nn1 (the upgraded NameNode), as
/// `scenarios/reregister-report-sequence.scn` spells them; then nn1 is made active again.
pub const REPORT_SEQUENCE: &[Op] = &[
    // [1] nn1 restarted (STANDBY): it knows no DataNode.
    Restart(1),
    // [2-3] heartbeats answered REGISTER (REG1), queued.
    Heartbeats(1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    // [4] the command threads take REG1; retrieveNamespaceInfo is slow.
    Commands(1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    // [5] the next heartbeats, still under the old registration: REGISTER again (REG2).
    Tick,
    Heartbeats(1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    // [6] REG1 completes: FBR due now, heartbeat due now.
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    // [7-8] heartbeats get leases; blockReport: IBRs drained, snapshot taken, the RPC in flight.
    Heartbeats(1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    // A block written after the snapshot: finalized and queued for IBR on every holder (nn0's
    // IBR manager, then nn1's).
    Write,
    Lockstep(Xceiver, 1),
    Lockstep(Xceiver, 1),
    Lockstep(Xceiver, 1),
    // [9] REG2: clearIBRs (STANDBY), register, FBR requested, heartbeat scheduled.
    Commands(1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    Lockstep(Command, 1),
    // [10] the FBRs return; scheduleNextBlockReport reschedules at random in the interval.
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    Lockstep(Actor, 1),
    // The upgraded NameNode is switched back to active.
    Failover(1),
];

/// The block [`REPORT_SEQUENCE`] writes.
pub const REPORT_BLOCK: Block = 0;

/// Runs `ops` on the cluster under `fix` and finishes every program; the driver at the end.
pub fn run_ops(fix: Fix, ops: &[Op]) -> Driver<Reregister> {
    let trace = Trace::new();
    let setup = crate::model::Setup {
        world: crate::sync::Arc::new(cluster(fix, &trace)),
        threads: Vec::new(),
    };
    let mut d = Driver::new(trace, setup);
    let mut plan = Plan::default();
    for op in ops {
        run_op(&mut d, &mut plan, op);
    }
    d.finish().expect("every program of the cluster finishes");
    d
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::model::Setup;

    /// A re-registration's operations, in its first form (chunks as vectors, stably sorted by
    /// key), are the ones `each_reregistration_op` gives, for every NameNode and many seeds.
    #[test]
    fn reregistration_lists_the_operations_of_its_first_form() {
        fn first_form(nn: u8, seed: u32) -> Vec<Op> {
            let mut r = crate::splitmix::SplitMix64(u64::from(seed));
            let mut draw = |n: u64| r.next_u64() % n;
            let restart = draw(2) == 1;
            let write = match draw(4) as u8 {
                0 => Op::Write,
                dn => Op::WriteOne(dn - 1),
            };
            let first = 1 + draw(8) as usize;
            let bias = draw(256) as u16;
            let (a, c, w) = (
                Op::Lockstep(Thread::Actor, nn),
                Op::Lockstep(Thread::Command, nn),
                Op::Lockstep(Thread::Writer, nn),
            );
            let mut ops = vec![
                if restart {
                    Op::Restart(nn)
                } else {
                    Op::Gap(nn)
                },
                Op::Heartbeats(nn),
            ];
            ops.extend(std::iter::repeat_n(a, first));
            let mut chunks: Vec<(u16, Vec<Op>)> = Vec::new();
            for _ in first..10 {
                chunks.push((draw(256) as u16 + bias, vec![a]));
            }
            for _ in 0..9 {
                chunks.push((draw(256) as u16, vec![c]));
            }
            for chunk in [
                vec![write, w, w, w],
                vec![Op::Commands(nn)],
                vec![Op::Commands(nn)],
                vec![Op::Heartbeats(nn)],
                vec![Op::Heartbeats(nn)],
                vec![Op::Tick],
            ] {
                chunks.push((draw(256) as u16, chunk));
            }
            chunks.sort_by_key(|(k, _)| *k);
            ops.extend(chunks.into_iter().flat_map(|(_, c)| c));
            ops
        }
        let mut r = crate::splitmix::SplitMix64(0x5EED);
        let mut seeds: Vec<u32> = (0..20_000).map(|_| r.next_u64() as u32).collect();
        seeds.extend([0, 1, u32::MAX]);
        for nn in 0..2 {
            for &seed in &seeds {
                assert_eq!(
                    reregistration(nn, seed),
                    first_form(nn, seed),
                    "nn{nn} seed {seed}"
                );
            }
        }
    }

    /// `enabled_programs` finds by address what a comparison of names finds, for every thread,
    /// before every operation of seeded random histories.
    #[test]
    fn threads_are_found_by_address_as_by_name() {
        let mut r = crate::splitmix::SplitMix64(0xADD7);
        let mut found = 0;
        for _ in 0..300 {
            let trace = Trace::new();
            let setup = Setup {
                world: crate::sync::Arc::new(cluster(Fix::UPSTREAM, &trace)),
                threads: Vec::new(),
            };
            let mut d = Driver::<Reregister>::new(trace, setup);
            let mut plan = Plan::default();
            for _ in 0..64 {
                let kinds: [&dyn Fn(usize) -> &'static str; 5] = [
                    &|dn| actor_thread(dn, 0),
                    &|dn| command_thread(dn, 0),
                    &|dn| actor_thread(dn, 1),
                    &|dn| command_thread(dn, 1),
                    &writer_thread,
                ];
                for kind in kinds {
                    let by_address = enabled_programs(&d, kind);
                    for (dn, &program) in by_address.iter().enumerate() {
                        let name = kind(dn);
                        let by_name = d.enabled().into_iter().find(|&i| d.actor(i) == name);
                        assert_eq!(program, by_name, "{name}");
                        found += usize::from(by_name.is_some());
                    }
                }
                let b = r.next_u64() as u8;
                let nn = (b >> 4) % 2;
                let op = match b % 10 {
                    0 => Write,
                    1 => Heartbeats(nn),
                    2 => Commands(nn),
                    3 => Restart(nn),
                    4 => Tick,
                    5 => Op::Gap(nn),
                    6 => Lockstep(Actor, nn),
                    7 => Lockstep(Command, nn),
                    8 => Lockstep(Xceiver, nn),
                    _ => Op::Step(b >> 4),
                };
                run_op(&mut d, &mut plan, &op);
            }
        }
        assert!(found > 10_000, "{found}");
    }

    /// The operations that look threads up, as they were written with the driver's lookups by
    /// name (one per DataNode, before each step): the reference for `apply`.
    fn apply_by_name(d: &mut Driver<Reregister>, plan: &mut Plan, op: &Op) -> bool {
        let trace = d.trace.clone();
        match *op {
            Heartbeats(nn) => {
                plan.update(op);
                for dn in 0..DATANODES {
                    if !d.is_running(actor_thread(dn, nn.into())) {
                        d.spawn(Box::new(OfferService::iteration(&trace, dn, nn.into())));
                    }
                }
                true
            }
            Commands(nn) => {
                plan.update(op);
                for dn in 0..DATANODES {
                    let nn = usize::from(nn);
                    if !d.world.actor(dn, nn).queue.is_empty()
                        && !d.is_running(command_thread(dn, nn))
                    {
                        d.spawn(Box::new(ProcessCommand::new(&trace, dn, nn)));
                    }
                }
                true
            }
            Lockstep(thread, nn) => {
                plan.update(op);
                for dn in 0..DATANODES {
                    let name = match thread {
                        Thread::Actor => actor_thread(dn, nn.into()),
                        Thread::Command => command_thread(dn, nn.into()),
                        Thread::Writer => writer_thread(dn),
                    };
                    if d.is_running(name) {
                        let _ = d.step_named(name);
                    }
                }
                true
            }
            _ => run_op(d, plan, op),
        }
    }

    /// `apply` and its by-name reference leave the same timeline and the same state after
    /// every operation of seeded random histories, under each variant.
    #[test]
    fn apply_steps_the_threads_the_lookup_by_name_steps() {
        let mut r = crate::splitmix::SplitMix64(0x10C5);
        for v in <Reregister as crate::model::Model>::VARIANTS {
            let fix = <Reregister as crate::model::Model>::fix_of_variant(v);
            for _ in 0..100 {
                let drivers = [(); 2].map(|_| {
                    let trace = Trace::new();
                    let setup = Setup {
                        world: crate::sync::Arc::new(cluster(fix, &trace)),
                        threads: Vec::new(),
                    };
                    (Driver::<Reregister>::new(trace, setup), Plan::default())
                });
                let [(mut a, mut pa), (mut b, mut pb)] = drivers;
                for _ in 0..64 {
                    let byte = r.next_u64() as u8;
                    let nn = (byte >> 4) % 2;
                    let op = match byte % 10 {
                        0 => Write,
                        1 | 2 => Heartbeats(nn),
                        3 | 4 => Commands(nn),
                        5 => Restart(nn),
                        6 => Tick,
                        7 => Lockstep(Actor, nn),
                        8 => Lockstep(Command, nn),
                        _ => Lockstep(Xceiver, nn),
                    };
                    assert_eq!(
                        run_op(&mut a, &mut pa, &op),
                        apply_by_name(&mut b, &mut pb, &op)
                    );
                    assert_eq!(a.trace.events(), b.trace.events(), "{op:?}");
                    assert_eq!(a.actors(), b.actors());
                    assert_eq!(a.enabled(), b.enabled());
                }
                a.finish().expect("finishes");
                b.finish().expect("finishes");
                assert_eq!(a.trace.events(), b.trace.events());
            }
        }
    }
}
