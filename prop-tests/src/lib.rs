//! racelab-props: the checkers of long histories (proptest over each contract's reference state
//! machine, quickcheck over its fuzz codec, the stable replay of the committed fuzz inputs) and
//! scenario files, for every registered contract. The contracts' histories themselves live in
//! their folders in racelab-core (`histories` feature).
#![forbid(unsafe_code)]

pub mod checkers;
pub mod real_orders;
pub mod scenario;
pub mod tidy;
pub mod validate;
