//! GA node mapping on a torus (spec/mapping.md §5, \[GA\]): one run ([`run`]) with the
//! contention proxy or the simulated fitness, and the reproduction study of
//! reference-results.md C ([`study`]).

pub mod claims;
pub mod paths;
pub mod run;
pub mod study;

pub use paths::RoutedPaths;
pub use run::{ga, FitnessKind, GaRequest, GaResult, ScoreRow};

#[cfg(test)]
mod tests;
