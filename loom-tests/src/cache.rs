//! The process's one cache of explorations of outcomes decided on the final state.
//!
//! An exploration is described by one value, its [`Subject`]: the scenario, the preemption
//! bound, the switches, and whose switches they are (a variant's, or a mutant's in their
//! place). Two lookups serve a subject:
//! - the same subject, made or in progress: the cells that share an exploration
//!   ([`crate::cells::companions`]) get its results as they are, and a cell whose companion is
//!   exploring waits for it rather than exploring the same again;
//! - a finished exploration of a variant's switches that agree with the subject's on every
//!   switch that exploration read, for all of the subject's outcomes: that exploration is the
//!   one the subject would make, execution for execution (see [`racelab_core::switches`]), so
//!   its results are the subject's, named after the variant that made them (`explored_by`).
//!
//! A mutant's exploration is never reused by another subject: the variant it would be named
//! after did not make it.
//!
//! Pinned execution counts are not part of the description: they are a cell's (a reachable
//! cell pins the execution where its outcome is found), while companions share one exploration.

use crate::explore::{explore_all, Exploration};
use racelab_core::claims::Verdict;
use racelab_core::model::{Model, Scenario};
use racelab_core::outcome::Outcome;
use racelab_core::switches::{take_reads, Switches};
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock, PoisonError};

/// Whose switches an exploration runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The named variant's own.
    Variant(&'static str),
    /// A mutant's (named), in place of its variant's.
    Mutant(&'static str),
}

/// What an exploration explores: the one value the cache is looked up by.
pub struct Subject<M: Model> {
    pub scenario: &'static Scenario<M>,
    pub bound: Option<usize>,
    pub fix: M::Fix,
    pub by: By,
}

impl<M: Model> Subject<M> {
    fn same(&self, by: By, fix: &M::Fix) -> bool {
        self.by == by && self.fix.differing(fix) == 0
    }
}

/// One exploration, made or in progress.
struct Entry<F> {
    by: By,
    fix: F,
    outcomes: Vec<&'static str>,
    made: OnceLock<Made>,
}

/// A finished exploration: the switches it read ([`racelab_core::switches`]) and each
/// outcome's result.
struct Made {
    read: u64,
    found: HashMap<&'static str, Exploration>,
}

/// The explorations of this process, by scenario (its address) and bound, in the order they
/// were started. Each entry is an `Entry<M::Fix>` of its scenario's model.
type Cache = HashMap<(usize, Option<usize>), Vec<Arc<dyn Any + Send + Sync>>>;
static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(Default::default);

/// [`explore_all`] for `outcomes` of `subject`, all decided on the final state, unless this
/// process has made (or is making) an exploration that serves it (see the module docs).
pub fn explore<M: Model>(
    subject: &Subject<M>,
    outcomes: &[(&'static Outcome<M::World>, Verdict)],
) -> Vec<Exploration> {
    let ids: Vec<&'static str> = outcomes.iter().map(|(o, _)| o.id).collect();
    let covers = |e: &Entry<M::Fix>| ids.iter().all(|id| e.outcomes.contains(id));
    let entry = {
        let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        let entries = cache
            .entry((std::ptr::from_ref(subject.scenario) as usize, subject.bound))
            .or_default();
        let mine = entries
            .iter()
            .filter_map(|e| e.clone().downcast::<Entry<M::Fix>>().ok());
        let mut same = None;
        let mut agreeing = None;
        for e in mine {
            if !covers(&e) {
                continue;
            }
            if subject.same(e.by, &e.fix) {
                same = Some(e);
                break;
            }
            let agrees = |m: &Made| m.read & e.fix.differing(&subject.fix) == 0;
            if agreeing.is_none()
                && matches!(e.by, By::Variant(_))
                && e.made.get().is_some_and(agrees)
            {
                agreeing = Some(e);
            }
        }
        match (same, agreeing) {
            (Some(e), _) => e,
            (None, Some(e)) => {
                let By::Variant(variant) = e.by else {
                    unreachable!("only a variant's exploration is reused")
                };
                let made = e.made.get().expect("a finished exploration");
                return ids
                    .iter()
                    .map(|id| Exploration {
                        seconds: 0.0,
                        explored_by: Some(variant),
                        ..made.found[id].clone()
                    })
                    .collect();
            }
            (None, None) => {
                let e = Arc::new(Entry {
                    by: subject.by,
                    fix: subject.fix,
                    outcomes: ids.clone(),
                    made: OnceLock::new(),
                });
                entries.push(e.clone());
                e
            }
        }
    };
    let made = entry.made.get_or_init(|| {
        take_reads();
        let found = explore_all(subject.scenario, subject.fix, outcomes, subject.bound);
        Made {
            read: take_reads(),
            found: ids.iter().copied().zip(found).collect(),
        }
    });
    ids.iter().map(|id| made.found[id].clone()).collect()
}
