//! premises
use crate::premises::Premise;

pub static PREMISES: &[Premise] = &[];
