//! What the checkers found beyond HDDS-17575's report, each with the cells that show it (`VARIANT/OUTCOME/CHECKER`; DESIGN-NOTES.md has
//! the argument of each).

use crate::findings::{Finding, Kind};

pub const FINDINGS: &[Finding] = &[
    Finding {
        id: "LR-F1",
        kind: Kind::BeyondReport,
        statement: "P1 alone closes O1 and O2: a notify after a refused set recomputes PAUSING, \
                    so P2 is needed for neither, and P2 alone changes nothing.",
        cells: &["P1/O1/loom", "P1/O2/loom", "P2/O1/loom", "P2/O2/loom"],
        no_replay: None,
    },
    Finding {
        id: "LR-F2",
        kind: Kind::ResidualWindow,
        statement: "The patch's residual is wider than the report words it: only the step-down \
                    and the start of a candidacy must precede the callback's term read.",
        cells: &["proposed/R1/loom", "proposed/R2/loom"],
        no_replay: None,
    },
    Finding {
        id: "LR-F3",
        kind: Kind::BeyondReport,
        statement: "Taking the term from the entry Ratis checked (improved) closes both \
                    residual windows.",
        cells: &["improved/R1/loom", "improved/R2/loom"],
        no_replay: None,
    },
];
