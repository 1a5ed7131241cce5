//! The statements about Ozone's datanode that this model rests on, each checked by a JUnit test
//! of the same id in `conformance/ozone` (see [`crate::premises`]). CR_P3 and CR_P4 have no test
//! yet: `cargo xtask conformance` reports them as not run.
use crate::premises::{Premise, UNCOMPARED};

const JAR: &str = "hdds-container-service 2.2.0";

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "CR_P1",
        upstream: "HddsDispatcher.dispatchRequest",
        jar: JAR,
        statement: "a container absent from the ContainerSet is auto-created on WriteChunk \
                    (WRITE_DATA) and on PutBlock (apply), whatever container2BCSIDMap records \
                    for it (2.2.0 has no containerAutoCreate check)",
        cells: &[
            "container-recreate/upstream/O1/loom",
            "container-recreate/upstream/O1/steps",
            "container-recreate/upstream/O7/loom",
            "container-recreate/upstream/O7/steps",
            "container-recreate/P2/O1/loom",
            "container-recreate/P2/O1/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "CR_P2",
        upstream: "KeyValueHandler.checkContainerOpen",
        jar: JAR,
        statement: "checkContainerOpen answers CONTAINER_INTERNAL_ERROR for a DELETED replica \
                    (CLOSED_CONTAINER_IO for CLOSED, which the pipeline ignores)",
        cells: &[
            "container-recreate/upstream/O5/loom",
            "container-recreate/upstream/O5/steps",
            "container-recreate/P1/O5/loom",
            "container-recreate/P1/O5/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "CR_P3",
        upstream: "KeyValueHandler.deleteInternal",
        jar: JAR,
        statement: "a force delete removes the container from the ContainerSet and its ID table \
                    and leaves the pipeline's container2BCSIDMap entry (no code removes keys \
                    from it)",
        cells: &[
            "container-recreate/upstream/O1/loom",
            "container-recreate/upstream/O1/steps",
            "container-recreate/P1/O1/loom",
            "container-recreate/P1/O1/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "CR_P4",
        upstream: "KeyValueHandler.handleWriteChunk",
        jar: JAR,
        statement: "the model's step: the state check (checkContainerOpen) and the chunk write \
                    are one step; the code does them in two (CR-1), with a close and a force \
                    delete able to fall between",
        cells: &[
            "container-recreate/improved/O5/loom",
            "container-recreate/improved/O5/steps",
            "container-recreate/P1+P2+P7/O5/loom",
            "container-recreate/P1+P2+P7/O5/steps",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
    Premise {
        id: "CR_O5",
        upstream: "KeyValueHandler.handleWriteChunk",
        jar: JAR,
        statement: "replay of CR-1 (not written yet): a WriteChunk that passed checkContainerOpen \
                    meets a close and a force delete before its chunk file opens, and the open \
                    fails the pipeline. In 2.2.0 KeyValueHandler builds its chunk manager in its \
                    own constructor, so no collaborator can hold the write between the two \
                    steps; the replay needs a real KeyValueContainer on a volume in a temporary \
                    directory",
        cells: &[
            "container-recreate/upstream/O5/loom",
            "container-recreate/P1+P2+P7/O5/loom",
        ],
        versus_baseline: UNCOMPARED,
        not_run: None,
    },
];
