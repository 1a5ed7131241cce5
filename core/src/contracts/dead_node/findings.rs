//! What the checkers found beyond HDDS-17067's report, each with the cells that show it (`VARIANT/OUTCOME/CHECKER`; DESIGN-NOTES.md has
//! the argument of each).

use crate::findings::{Finding, Kind};

pub const FINDINGS: &[Finding] = &[
    Finding {
        id: "DN-F1",
        kind: Kind::DisagreesWithReport,
        statement: "P2 alone does not close O3: without P1 the recheck under the monitor reads \
                    DEAD on an unrefreshed heartbeat time; P1 and P2 together close it.",
        cells: &[
            "P2/O3/loom",
            "P1+P2/O3/loom",
            "proposed/O3/loom",
            "P2/O3/real:DN_O3R",
            "P1+P2/O3/real:DN_O3R",
            "proposed/O3/real:DN_O3R",
        ],
        no_replay: None,
    },
    Finding {
        id: "DN-F2",
        kind: Kind::DisagreesWithReport,
        statement: "The residual window R1 belongs to P1's refresh, not to the patch's recheck: \
                    P1 alone reaches it with no recheck, and upstream and P2 or P3 alone do not.",
        cells: &[
            "P1/R1/loom",
            "upstream/R1/loom",
            "P2/R1/loom",
            "P3/R1/loom",
            "P1/R1/real:DN_R1",
            "upstream/R1/real:DN_R1",
            "P2/R1/real:DN_R1",
            "P3/R1/real:DN_R1",
        ],
        no_replay: None,
    },
    Finding {
        id: "DN-F3",
        kind: Kind::Precedent,
        statement: "Written as HDDS-14834 wrote its guard (a second getNodeStatus without the \
                    DatanodeInfo monitor), P2 leaves O3 open: the monitor matters.",
        cells: &["P1+P2u+P3/O3/loom", "proposed/O3/loom"],
        no_replay: None,
    },
    Finding {
        id: "DN-F4",
        kind: Kind::BeyondReport,
        statement: "A registration with a changed address replaces the DatanodeInfo, so P2's \
                    monitor does not exclude the report thread (R3).",
        cells: &["P2/R3/loom", "proposed/R3/loom"],
        no_replay: None,
    },
    Finding {
        id: "DN-F5",
        kind: Kind::BeyondReport,
        statement: "Recon's datanodeHeartbeatMap is a plain HashMap written by two RPC threads \
                    at once on the first heartbeats after Recon starts (a data race, O10).",
        cells: &["upstream/O10/loom"],
        no_replay: None,
    },
    Finding {
        id: "DN-F6",
        kind: Kind::ResidualWindow,
        statement: "Our improved fix closes R1, O5, O6 and O7; R2 and R3 stay open.",
        cells: &["improved/R1/loom", "improved/R2/loom", "improved/R3/loom"],
        no_replay: None,
    },
];
