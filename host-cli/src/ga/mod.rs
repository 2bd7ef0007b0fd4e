//! GA node mapping on a torus (docs/mapping.md §5, \[GA\]): one run ([`run`]) with the
//! contention proxy or the simulated fitness, and the reproduction study of
//! docs/reference-results.md C ([`crate::study::ga_mapping`]).

pub mod run;
pub mod sim_fitness;
pub mod sim_pool;

pub use crate::builder::routed_paths::RoutedPaths;
pub use run::{ga, FitnessKind, GaRequest, GaResult, ScoreRow};

#[cfg(test)]
mod sim_tests;
#[cfg(test)]
mod tests;
