//! The upstream threads' names, as the programs and the traces give them.

use super::MAX_DATANODES;

/// The upstream threads' names: one actor thread and one command thread per (DataNode,
/// NameNode) pair, one `DataXceiver` per DataNode (the model's histories have at most three
/// DataNodes and two NameNodes). Statics, not constants: every program takes its thread's name
/// from here, so one thread's name is one address (the cluster compares them by address).
static THREADS: [[(&str, &str); 2]; MAX_DATANODES] = [
    [
        ("BPServiceActor:dn0/nn0", "CommandProcessingThread:dn0/nn0"),
        ("BPServiceActor:dn0/nn1", "CommandProcessingThread:dn0/nn1"),
    ],
    [
        ("BPServiceActor:dn1/nn0", "CommandProcessingThread:dn1/nn0"),
        ("BPServiceActor:dn1/nn1", "CommandProcessingThread:dn1/nn1"),
    ],
    [
        ("BPServiceActor:dn2/nn0", "CommandProcessingThread:dn2/nn0"),
        ("BPServiceActor:dn2/nn1", "CommandProcessingThread:dn2/nn1"),
    ],
];
static WRITERS: [&str; MAX_DATANODES] = ["DataXceiver:dn0", "DataXceiver:dn1", "DataXceiver:dn2"];

pub fn actor_thread(dn: usize, nn: usize) -> &'static str {
    THREADS[dn][nn].0
}

pub fn command_thread(dn: usize, nn: usize) -> &'static str {
    THREADS[dn][nn].1
}

pub fn writer_thread(dn: usize) -> &'static str {
    WRITERS[dn]
}
