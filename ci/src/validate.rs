//! `cargo xtask validate`: every trace of the real code checked against its model
//! (`racelab_props::validate`), and what `cargo xtask conformance` reports of them.

use crate::phases::root;
use racelab_props::real_orders::order_file;
use racelab_props::validate::{validate_any, RealTrace};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the replays write their traces: one folder per Maven module.
pub fn default_dirs() -> Vec<PathBuf> {
    ["ozone", "hdfs"]
        .iter()
        .map(|m| {
            root()
                .join("conformance")
                .join(m)
                .join("target/racelab-traces")
        })
        .collect()
}

/// The `.jsonl` files under `paths` (files as given, folders searched), sorted.
pub fn traces(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
                walk(&e.path(), out);
            }
        } else if p.extension().is_some_and(|e| e == "jsonl") {
            out.push(p.to_owned());
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
        } else {
            walk(p, &mut out);
        }
    }
    out.sort();
    out
}

/// One trace's result, as conformance.json keeps it.
pub use racelab_core::report::real_code::TraceCheck as Checked;

/// `v`, its path relative to the checkout.
fn of(v: Checked) -> Checked {
    Checked {
        trace: relative(Path::new(&v.trace)),
        ..v
    }
}

fn failed(path: &Path, t: Option<&RealTrace>, problem: String) -> Checked {
    Checked {
        trace: relative(path),
        contract: t.map(|t| t.contract.clone()).unwrap_or_default(),
        replay: t.map(|t| t.replay.clone()).unwrap_or_default(),
        variant: t.map(|t| t.variant.clone()).unwrap_or_default(),
        layer_off: t.is_some_and(|t| t.layer_off),
        calls: t.map_or(0, |t| t.calls.len()),
        problem: Some(problem),
        ..Checked::default()
    }
}

fn relative(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// Validates every trace under `paths`, one line each.
pub fn check(paths: &[PathBuf]) -> Vec<Checked> {
    traces(paths)
        .iter()
        .map(|path| {
            // `<contract>/<REPLAY>/<row>.jsonl`: a replay with no order is not validated, even
            // when its trace cannot be read (its harness need not end it)
            let mut up = path
                .iter()
                .rev()
                .skip(1)
                .map(|p| p.to_string_lossy().into_owned());
            let (replay, contract) = (up.next().unwrap_or_default(), up.next().unwrap_or_default());
            let c = match RealTrace::read(path) {
                Err(_) if !order_file(&contract, &replay).exists() => Checked {
                    contract: contract.clone(),
                    replay: replay.clone(),
                    variant: path
                        .file_stem()
                        .map(|s| s.to_string_lossy().trim_end_matches(".off").to_owned())
                        .unwrap_or_default(),
                    layer_off: path.to_string_lossy().ends_with(".off.jsonl"),
                    no_order: true,
                    ..failed(path, None, no_order(&contract, &replay))
                },
                Err(e) => failed(path, None, e),
                Ok(t) if !order_file(&t.contract, &t.replay).exists() => Checked {
                    no_order: true,
                    ..failed(path, Some(&t), no_order(&t.contract, &t.replay))
                },
                Ok(t) => match validate_any(&t) {
                    Ok(v) => of(v),
                    Err(e) => failed(path, Some(&t), e),
                },
            };
            let c = declared(c);
            match &c.problem {
                Some(p) if c.declared.is_some() => {
                    println!("diverges, as declared: {}: {p}", c.row())
                }
                None => println!(
                    "validated {}: {} calls, {} values, {} schedule(s), {:.3} s",
                    c.row(),
                    c.calls,
                    c.values,
                    c.schedules,
                    c.seconds
                ),
                Some(p) if c.diverges => println!("DIVERGES {}: {p}", c.row()),
                Some(p) if c.no_order => println!("not validated {}: {p}", c.row()),
                Some(p) => println!("CANNOT VALIDATE {p}"),
            }
            c
        })
        .collect()
}

/// A divergence of a replay declared unvalidated (`premises.rs` `UNVALIDATED`) is listed with
/// its reason.
fn declared(mut c: Checked) -> Checked {
    if c.diverges {
        c.declared = declaration(&c.contract, &c.replay).map(str::to_owned);
    }
    c
}

fn declaration(contract: &str, replay: &str) -> Option<&'static str> {
    racelab_core::registry::unvalidated()
        .into_iter()
        .filter(|(c, _)| *c == contract)
        .flat_map(|(_, list)| list.iter())
        .find(|u| u.replay == replay)
        .map(|u| u.why)
}

/// A declared replay with traces none of which diverges: the declaration is stale (judged on a
/// whole run's traces: the conformance phase's).
pub fn stale(checked: &[Checked]) -> Vec<Checked> {
    let mut out = Vec::new();
    for (contract, list) in racelab_core::registry::unvalidated() {
        for u in list {
            let ours: Vec<&Checked> = checked
                .iter()
                .filter(|c| c.contract == contract && c.replay == u.replay)
                .collect();
            if !ours.is_empty() && ours.iter().all(|c| c.problem.is_none()) {
                out.push(Checked {
                    contract: contract.to_owned(),
                    replay: u.replay.to_owned(),
                    problem: Some(format!(
                        "{} is declared unvalidated (premises.rs UNVALIDATED) but all its {} \
                         traces validate: remove the declaration",
                        u.replay,
                        ours.len()
                    )),
                    ..Checked::default()
                });
            }
        }
    }
    out
}

/// Why `replay`'s runs are not validated.
fn no_order(contract: &str, replay: &str) -> String {
    let file = order_file(contract, replay);
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    format!("the model has no order for it (scenarios/{name} does not exist)")
}

/// A problem per replay row that printed a J record and has no trace checked: `no trace: ...`
/// fails the phase, `not validated: ...` (its order is not in the model) is listed.
pub fn untraced(pass: &[crate::surefire::Case], traces: &[Checked]) -> Vec<String> {
    let mut rows = std::collections::BTreeSet::new();
    for r in pass.iter().flat_map(|c| c.records.iter()) {
        rows.insert((&r.contract, &r.replay, &r.variant, r.layer_off));
    }
    rows.into_iter()
        .filter_map(|(contract, replay, variant, off)| {
            let row = format!(
                "{contract} {replay} {variant}{}",
                if off { " (layer off)" } else { "" }
            );
            let traced = traces.iter().find(|t| {
                (&t.contract, &t.replay, &t.variant, t.layer_off)
                    == (contract, replay, variant, off)
            });
            match traced {
                Some(t) if t.no_order => Some(format!(
                    "not validated: {row}: {}",
                    no_order(contract, replay)
                )),
                Some(_) => None,
                None if !order_file(contract, replay).exists() => Some(format!(
                    "not validated: {row}: {}",
                    no_order(contract, replay)
                )),
                None => Some(format!(
                    "no trace: {row}: the replay printed a J record and wrote no trace"
                )),
            }
        })
        .collect()
}

/// `cargo xtask validate [TRACE...]`.
pub fn run(paths: &[PathBuf]) -> ExitCode {
    let paths = if paths.is_empty() {
        default_dirs()
    } else {
        paths.to_vec()
    };
    for p in &paths {
        if !p.exists() {
            eprintln!("{}: no such file or folder", p.display());
            return ExitCode::from(2);
        }
    }
    let checked = check(&paths);
    let validated = checked.iter().filter(|c| c.problem.is_none()).count();
    let diverge = checked.iter().filter(|c| c.diverges).count();
    let no_order = checked.iter().filter(|c| c.no_order).count();
    let known = checked.iter().filter(|c| c.declared.is_some()).count();
    let bad = checked.len() - validated - no_order - known;
    println!(
        "\n{} trace(s), {validated} validated, {diverge} diverge ({known} as declared), {} cannot \
         be read or are wrong, {no_order} not validated (no order in the model)",
        checked.len(),
        bad - (diverge - known)
    );
    if checked.is_empty() {
        println!("no traces: `cargo xtask conformance` writes them");
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
