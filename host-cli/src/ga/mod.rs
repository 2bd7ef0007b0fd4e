//! GA node mapping on a torus (spec/mapping.md §5, \[GA\]): one run ([`run`]) with the
//! contention proxy or the simulated fitness, and the reproduction study of
//! reference-results.md C ([`study`]).

pub mod paths;
pub mod run;
pub mod sim_fitness;
pub mod sim_pool;

pub use paths::RoutedPaths;
pub use run::{ga, FitnessKind, GaRequest, GaResult, ScoreRow};

#[cfg(test)]
mod sim_tests;
#[cfg(test)]
mod tests;
