//! The values of the command line's arguments, checked as clap parses them: contract names (the
//! registry's) and positive numbers. Apart from `cli.rs`, so that the modules whose options
//! `cli.rs` gathers (`explore`, `bench`, `conformance`) can use them without an import circle.

use clap::builder::PossibleValuesParser;

/// The contracts the registry knows, in its order.
pub fn known() -> Vec<&'static str> {
    racelab_core::registry::all()
        .iter()
        .map(|e| e.contract.id)
        .collect()
}

/// A contract name: one of [`known`] (clap's error and the help list them).
pub fn contract() -> PossibleValuesParser {
    PossibleValuesParser::new(known())
}

/// A count or a duration: a positive whole number.
pub fn positive(s: &str) -> Result<u64, String> {
    s.parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or(format!("`{s}` is not a positive whole number"))
}

/// Parses `args` (without the program's name) as the arguments `A` declares: how the modules'
/// tests parse their own options.
#[cfg(test)]
pub fn parse_args<A: clap::Args + clap::FromArgMatches>(args: &[&str]) -> Result<A, clap::Error> {
    let command = A::augment_args(clap::Command::new("test"));
    let mut matches =
        command.try_get_matches_from(std::iter::once("test").chain(args.iter().copied()))?;
    A::from_arg_matches_mut(&mut matches)
}
