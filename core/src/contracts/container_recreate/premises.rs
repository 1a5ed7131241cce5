//! The statements about Ozone's datanode that this model rests on, each checked by a JUnit test
//! of the same id in `conformance/ozone` (see [`crate::premises`]), on the real leader datanode
//! of `ContainerRecreateWiring` (ContainerSet with its container ID table, HddsDispatcher,
//! KeyValueHandler, KeyValueContainer on an HddsVolume in a temporary directory), and the
//! replays of the race's orders on every row (`ReplayContainerRecreate*Test`, the J cells).
use crate::premises::{Premise, Unvalidated};

/// The replays whose runs the model cannot follow, each with why (see
/// [`crate::premises::Unvalidated`]).
pub static UNVALIDATED: &[Unvalidated] = &[
    // CR_O2's replay drives a narrower order than its order file: it wires the leader alone,
    // closes c1 there and sends no container reports, while the file (a history: the only start a
    // scenario file can give CR_O2's second container and SCM's reports) closes c1 on dn1..dn3 and
    // has every datanode report c1 and c2. No order file can state the replay's order (a file from
    // a loom scenario has only steps, no loom scenario runs SCM's report processing, and the
    // history's `close` acts on the whole pipeline); the replay would need the followers wired.
    Unvalidated {
        replay: "CR_O2",
        why: "the replay wires the leader alone and sends no reports; its order file closes on \
              dn1..dn3 and processes every datanode's reports (no scenario file can state the \
              replay's order)",
    },
    // A model gap kept open (DESIGN-NOTES §8): in 2.2.0 SCM's close is a Ratis log entry and takes
    // an index, so a PutBlock after it commits at a BCSID one higher; the model's close takes no
    // index. Giving it one inside the close's apply step lets loom apply a later entry before it
    // (loom and the step checker then reach different final states), and applying it in log order
    // means modelling the close's submission and apply as the pipeline's other entries are.
    Unvalidated {
        replay: "CR_O1",
        why: "model gap: the model's close takes no Ratis log index, so on the rows where a \
              PutBlock follows the close the code's container2BCSIDMap[c1] is one higher (5) than \
              the model's (4)",
    },
    Unvalidated {
        replay: "CR_R3",
        why: "model gap: the model's close takes no Ratis log index, so on the rows where a \
              PutBlock follows the close the code's container2BCSIDMap[c1] is one higher (5) than \
              the model's (4)",
    },
];

const JAR: &str = "hdds-container-service 2.2.0";

/// The methods the replays drive, compared once for all of them.
const REPLAYS_VERSUS_BASELINE: &str = "the methods these orders drive differ little between \
    ozone-2.2.0 and 78d5650c: KeyValueHandler.handleWriteChunk and handlePutBlock only add \
    updateRecoveringContainerTimeout at their end (a RECOVERING replica only), checkContainerOpen, \
    deleteInternal, handleCreateContainer, markContainerForClose and closeContainer are identical, \
    ContainerSet.removeContainer and FilePerBlockStrategy.writeChunk/finishWriteChunks are \
    identical, HddsDispatcher.validateContainerCommand, canIgnoreException, createContainer and \
    updateBCSID are identical; dispatchRequest gains HDDS-15791's isContainerCreatable refusal \
    (CONTAINER_NOT_FOUND when the request sets containerAutoCreate=false, which Ratis clients \
    never do: these requests leave it unset, so both take the auto-create branch) and \
    StreamInitWithPutBlock as a write stage (not sent here); ContainerStateMachine's \
    startTransaction, writeStateMachineData, handleCommandResult and applyTransaction are \
    identical, but 78d5650c's write() closes the Raft division when writeStateMachineData's \
    future fails, where 2.2.0 only marks the state machine unhealthy: the pipeline fails either \
    way (O5), more abruptly on master. No verdict depends on the differences. The harness plays \
    ContainerStateMachine (its result rule, its container2BCSIDMap), so its code is not run";

pub static PREMISES: &[Premise] = &[
    Premise {
        id: "CR_P1",
        upstream: "HddsDispatcher.dispatchRequest",
        jar: JAR,
        statement: "a container absent from the ContainerSet (force-deleted: CLOSED, then \
                    KeyValueHandler.deleteContainer(force)) is auto-created by the real \
                    KeyValueHandler.handleCreateContainer on WriteChunk (WRITE_DATA) and on \
                    PutBlock (apply), whatever container2BCSIDMap records for it (2.2.0 has no \
                    containerAutoCreate check)",
        cells: &[
            "container-recreate/upstream/O1/loom",
            "container-recreate/upstream/O1/steps",
            "container-recreate/upstream/O7/loom",
            "container-recreate/upstream/O7/steps",
            "container-recreate/P2/O1/loom",
            "container-recreate/P2/O1/steps",
        ],
        versus_baseline:
            "HddsDispatcher.dispatchRequest differs: 78d5650c refuses the auto-create \
                          with CONTAINER_NOT_FOUND when the request sets containerAutoCreate=false \
                          (HDDS-15791; only ECReconstructionCoordinator sets it), and counts \
                          StreamInitWithPutBlock as a write stage; a Ratis WriteChunk or PutBlock \
                          leaves the flag unset and is auto-created in both; \
                          KeyValueHandler.handleCreateContainer is identical. No verdict depends \
                          on the difference (the HDDS-15791 row renders the refusal's answer)",
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
        versus_baseline: "KeyValueHandler.checkContainerOpen is identical in ozone-2.2.0 and \
                          78d5650c (and HddsDispatcher.canIgnoreException, which does not pass \
                          CONTAINER_INTERNAL_ERROR); no verdict depends on the version",
        not_run: None,
    },
    Premise {
        id: "CR_P3",
        upstream: "KeyValueHandler.deleteInternal",
        jar: JAR,
        statement: "a force delete (KeyValueHandler.deleteContainer(c, true)) removes the \
                    container from the ContainerSet and its row from the container ID table, \
                    does not mark it missing, and leaves the pipeline's container2BCSIDMap entry \
                    (the delete path has no reference to the map; no code removes its keys)",
        cells: &[
            "container-recreate/upstream/O1/loom",
            "container-recreate/upstream/O1/steps",
            "container-recreate/P1/O1/loom",
            "container-recreate/P1/O1/steps",
        ],
        versus_baseline: "KeyValueHandler.deleteInternal and ContainerSet.removeContainer / \
                          deleteFromContainerTable are identical in ozone-2.2.0 and 78d5650c; \
                          ContainerStateMachine still only puts into container2BCSIDMap; no \
                          verdict depends on the version",
        not_run: None,
    },
    Premise {
        id: "CR_P4",
        upstream: "KeyValueHandler.handleWriteChunk",
        jar: JAR,
        statement: "handleWriteChunk checks the state (checkContainerOpen) and writes the chunk \
                    (ChunkManager.writeChunk) in separate steps, holding no lock between them: a \
                    WriteChunk held in the chunk manager after its check passed on the OPEN \
                    replica lets SCM's close and a force delete run to their end, and the write \
                    then runs on the replica the delete left DELETED (the model's CR-1)",
        cells: &[
            "container-recreate/improved/O5/loom",
            "container-recreate/improved/O5/steps",
            "container-recreate/P1+P2+P7/O5/loom",
            "container-recreate/P1+P2+P7/O5/steps",
        ],
        versus_baseline: "KeyValueHandler.handleWriteChunk differs only by 78d5650c's \
                          updateRecoveringContainerTimeout after the write (RECOVERING replicas \
                          only); the check and the write are the same separate steps; no verdict \
                          depends on the difference",
        not_run: None,
    },
    Premise {
        id: "CR_P5",
        upstream: "FilePerBlockStrategy.writeChunk",
        jar: JAR,
        statement: "the model's O5 mechanism of CR-1, as 2.2.0 has it: a chunk write that passed \
                    checkContainerOpen and runs after a close and a force delete moved the \
                    container directory fails at getChunkFile's chunks-directory check with the \
                    checked StorageContainerException UNABLE_TO_FIND_DATA_DIR, which \
                    handleWriteChunk returns as its result; dispatchRequest, finding the result \
                    not ignorable and the replica DELETED, throws IllegalStateException \
                    (Preconditions.checkState). The model has the chunk file's open throw an \
                    unchecked exception out of the handler: the same verdict (an exception out of \
                    dispatch fails the pipeline), another failing call (DESIGN-NOTES CR-12)",
        cells: &[
            "container-recreate/upstream/O5/loom",
            "container-recreate/P1+P2+P7/O5/loom",
            "container-recreate/P2+P3+P7/O5/loom",
        ],
        versus_baseline: "FilePerBlockStrategy.writeChunk and getChunkFile, \
                          KeyValueHandler.handleWriteChunk (but for the RECOVERING timeout) and \
                          dispatchRequest's marking and checkState are identical in ozone-2.2.0 \
                          and 78d5650c: the same mechanism on master; no verdict depends on the \
                          version",
        not_run: None,
    },
    Premise {
        id: "CR_P6",
        upstream: "AbstractContainerReportHandler.updateContainerStats",
        jar: "hdds-server-scm 2.2.0",
        statement: "SCM's ContainerReportHandler, given the leader's real report of a recreated \
                    replica (OPEN, BCSID above the close's), raises the CLOSED container's \
                    sequence id to that BCSID, as a production JVM runs it (assertions off); with \
                    -ea, ContainerInfo.updateSequenceId's assert (isOpen() || QUASI_CLOSED) throws \
                    AssertionError out of onMessage and the sequence id stays: the code's own \
                    assertion is P4's rule, enforced only under -ea",
        cells: &[
            "container-recreate/upstream/O2/proptest",
            "container-recreate/P2/O2/proptest",
            "container-recreate/upstream/O2/real:CR_O2",
        ],
        versus_baseline: "AbstractContainerReportHandler.updateContainerStats and \
                          ContainerInfo.updateSequenceId (with its assert) are identical in \
                          ozone-2.2.0 and 78d5650c; no verdict depends on the version",
        not_run: None,
    },
    Premise {
        id: "CR_O2",
        upstream: "AbstractContainerReportHandler.updateContainerStats",
        jar: "hdds-container-service, hdds-server-scm 2.2.0",
        statement: "replay on every row: CR_R3's order on the leader (close and force delete to \
                    their end, then the whole write), then the leader's full container report \
                    (its real ContainerSet's) to SCM's real ContainerReportHandler for c1 CLOSED \
                    at the close's BCSID, ContainerInfo's assertions off as in production (the \
                    NodeManager and ContainerManager are mocks handing it the datanode and the \
                    real ContainerInfo); records O2",
        cells: &[],
        versus_baseline: "the datanode methods are those of the other replays (see CR_O1); \
                          ContainerReportHandler.onMessage differs only in types between \
                          ozone-2.2.0 and 78d5650c (getNode returns DatanodeInfo; the \
                          pending-allocation call loses its null guard), updateContainerStats and \
                          updateSequenceId are identical; no verdict depends on the difference",
        not_run: None,
    },
    Premise {
        id: "CR_O1",
        upstream: "HddsDispatcher.dispatchRequest",
        jar: JAR,
        statement: "replay on every row: the leader validates the client's WriteChunk of block 2 \
                    while c1 is OPEN, SCM's close is applied and its force delete runs to its \
                    end, then the WriteChunk's WRITE_DATA and COMMIT_DATA and the PutBlock; \
                    records O1 and O7",
        cells: &[],
        versus_baseline: REPLAYS_VERSUS_BASELINE,
        not_run: None,
    },
    Premise {
        id: "CR_O5",
        upstream: "KeyValueHandler.handleWriteChunk",
        jar: JAR,
        statement: "replay of CR-1 on every row: the WriteChunk's WRITE_DATA passes \
                    checkContainerOpen on the OPEN replica and is held in the chunk manager (a \
                    delegate of the real one, put in KeyValueHandler's private final field by \
                    reflection) while SCM's close is applied and the force delete runs to its \
                    end; then the write goes on, and the rest of the client's write follows. \
                    Upstream the pipeline fails (O5) through UNABLE_TO_FIND_DATA_DIR and \
                    dispatchRequest's IllegalStateException for the DELETED replica (CR_P5), not \
                    through the unchecked exception the model prints; records O5 and O7",
        cells: &[
            "container-recreate/upstream/O5/loom",
            "container-recreate/P1+P2+P7/O5/loom",
        ],
        versus_baseline: REPLAYS_VERSUS_BASELINE,
        not_run: None,
    },
    Premise {
        id: "CR_R1",
        upstream: "KeyValueHandler.handlePutBlock",
        jar: JAR,
        statement: "replay on every row of the report's outcome A: the WriteChunk of block 2 \
                    written and applied and its PutBlock validated while c1 is OPEN; SCM's close \
                    and force delete; then the PutBlock's apply (upstream: auto-create, \
                    UNABLE_TO_FIND_CHUNK, the new replica UNHEALTHY); records O5 and O7",
        cells: &[],
        versus_baseline: REPLAYS_VERSUS_BASELINE,
        not_run: None,
    },
    Premise {
        id: "CR_R2",
        upstream: "KeyValueHandler.checkContainerOpen",
        jar: JAR,
        statement: "replay on every row of CR-F2: the PutBlock validated while c1 is OPEN; SCM's \
                    close applied; the PutBlock's apply finds c1 and is held before the handler \
                    (a delegate of the real KeyValueHandler given to the dispatcher) while the \
                    force delete runs to its end; the handler then reads the replica DELETED; \
                    records O5 and O7",
        cells: &[],
        versus_baseline: REPLAYS_VERSUS_BASELINE,
        not_run: None,
    },
    Premise {
        id: "CR_R3",
        upstream: "HddsDispatcher.dispatchRequest",
        jar: JAR,
        statement: "replay on every row of the report's repro test on the leader (CR-F1, \
                    CR-F10): SCM's close and force delete to their end, then the client's \
                    WriteChunk and PutBlock of block 2; records O1, O5 and O7",
        cells: &[],
        versus_baseline: REPLAYS_VERSUS_BASELINE,
        not_run: None,
    },
    Premise {
        id: "CR_P7",
        upstream: "KeyValueContainer.exportContainerData",
        jar: JAR,
        statement: "exportContainerData (through KeyValueHandler.exportContainer, what the \
                    replication source's copyData calls), under the container's write lock (an \
                    export waits while another thread holds it), throws IllegalStateException \
                    (\"Failed to export: Unexpected state in ...\") and writes nothing for a \
                    replica that is not CLOSED, QUASI_CLOSED or UNHEALTHY (OPEN, CLOSING), and \
                    exports a CLOSED, a QUASI_CLOSED and an UNHEALTHY one: a replica SCM believes \
                    CLOSED that the datanode recreated OPEN is not copied (World::replicate \
                    refuses it)",
        cells: &[
            "container-recreate/upstream/O3/loom",
            "container-recreate/P5/O3/loom",
            "container-recreate/P4+P5/O3/loom",
            "container-recreate/upstream/O3/proptest",
            "container-recreate/upstream/O4/proptest",
            "container-recreate/upstream/O6/proptest",
        ],
        versus_baseline: "KeyValueContainer.exportContainerData and \
                          KeyValueHandler.exportContainer are identical in ozone-2.2.0 and \
                          78d5650c (the same write lock, state test and message); no verdict \
                          depends on the version",
        not_run: None,
    },
    Premise {
        id: "CR_P8",
        upstream: "KeyValueContainer.importContainerData",
        jar: JAR,
        statement: "the copy a target imports (the real ContainerImporter.importContainer, \
                    ContainerController and KeyValueHandler.importContainer, from the archive \
                    exportContainerData wrote) has the exported replica's state and BCSID \
                    (importContainerData restores the descriptor's state): a QUASI_CLOSED or \
                    UNHEALTHY source gives a QUASI_CLOSED or UNHEALTHY copy, a CLOSED one a CLOSED \
                    copy (World::replicate's copy keeps the source's state)",
        cells: &[
            "container-recreate/upstream/O3/loom",
            "container-recreate/P5/O3/loom",
            "container-recreate/P4+P5/O3/loom",
            "container-recreate/upstream/O3/proptest",
            "container-recreate/upstream/O4/proptest",
        ],
        versus_baseline: "KeyValueContainer.importContainerData (both), \
                          KeyValueHandler.importContainer and ContainerImporter.importContainer \
                          are identical in ozone-2.2.0 and 78d5650c; no verdict depends on the \
                          version",
        not_run: None,
    },
];
