//! `cargo xtask explore CONTRACT [--cases N] [--seed S]`: the contract's history cells with
//! more cases, or other histories, than the gate's fixed budget and seed. The seed is printed,
//! so any counterexample can be found again.

use racelab_core::claims::Claim;
use racelab_core::registry::{self, Registered, Visitor};
use racelab_props::checkers::{self, Seed};
use std::process::ExitCode;

/// `explore`'s arguments.
#[derive(Debug, PartialEq, clap::Args)]
pub struct Request {
    /// the contract whose history cells run
    #[arg(value_name = "CONTRACT", value_parser = crate::args::contract())]
    pub contract: String,
    /// cases per cell (default: each claim's budget)
    #[arg(long, value_name = "N", value_parser = crate::args::positive)]
    pub cases: Option<u64>,
    /// the seed (default: a new seed, printed)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

pub fn run(request: &Request) -> ExitCode {
    let seed = request.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    println!(
        "exploring {} with seed {seed} ({} cases per cell); again: cargo xtask explore {} --seed {seed}{}",
        request.contract,
        request
            .cases
            .map_or("each claim's budget of".to_string(), |n| n.to_string()),
        request.contract,
        request
            .cases
            .map_or(String::new(), |n| format!(" --cases {n}"))
    );
    struct Explore<'a> {
        request: &'a Request,
        seed: u64,
        deviations: usize,
    }
    impl Visitor for Explore<'_> {
        fn visit<M: Registered>(&mut self) {
            if M::CONTRACT.id != self.request.contract {
                return;
            }
            for claim in M::CLAIMS.cells.iter().filter(|c| checkers::is_history(c)) {
                let r = check(claim, self.request.cases, Seed::Given(self.seed));
                println!("{}", r.summary());
                if r.observed != claim.expected {
                    self.deviations += 1;
                    for l in &r.timeline {
                        println!("    {l}");
                    }
                }
            }
        }
    }
    let mut e = Explore {
        request,
        seed,
        deviations: 0,
    };
    registry::visit(&mut e);
    if e.deviations == 0 {
        println!("every history cell matches its claim (seed {seed})");
        ExitCode::SUCCESS
    } else {
        println!("{} cell(s) deviate (seed {seed})", e.deviations);
        ExitCode::FAILURE
    }
}

fn check<M: Registered>(
    claim: &Claim<M>,
    cases: Option<u64>,
    seed: Seed,
) -> racelab_core::report::CellResult {
    use racelab_core::claims::Method;
    match (&claim.method, cases) {
        (Method::Proptest { .. }, Some(n)) => {
            checkers::proptest_cell(claim, n.min(u32::MAX.into()) as u32, seed)
        }
        (Method::Quickcheck { .. }, Some(n)) => checkers::quickcheck_cell(claim, n, seed),
        _ => checkers::check_cell(claim, seed),
    }
}
