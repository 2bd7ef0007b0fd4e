//! Genetic node mapping on a 2-D torus (docs/mapping.md §5, \[GA\]).
//!
//! A gene is a permutation `Γ: physical position → logical address` of `0..N` (`N = n²`),
//! stored in caller buffers. Traffic patterns ([`TrafficPattern`]) are defined on logical
//! addresses; a flow `x_S → x_D` runs physically from `Γ⁻¹(x_S)` to `Γ⁻¹(x_D)`. A pluggable
//! [`Fitness`] (or, a generation at a time, [`BatchFitness`]) scores a gene with a duration and an avg.hop; [`ProxyFitness`] is the project's
//! contention proxy. [`Ga`] runs the variants S00–S99 with rankings sc / ah / ml.

mod engine;
mod fitness;
mod grid;
pub mod mutation;
mod pattern;
mod score;
mod search_space;
mod stats;
mod ties;
mod variant;

pub use engine::{Ga, GaBuffers, GaConfig, GaOutcome, GaProblem, GaSizes};
pub use fitness::{
    population_gene, proxy_pattern_duration, BatchFitness, Fitness, ProxyFitness, FLITS_PER_PACKET,
    IDEAL_PATTERN_CYCLES, INJECTION_CYCLES, PACKETS_PER_NODE, RECEPTION_CYCLES,
};
pub use grid::Grid;
pub use mutation::{
    box_swap, line_swap, neighbour_swap, random_swap, randomize, Mutation, NeighbourPick,
};
pub use pattern::{PatternSet, TrafficPattern, NO_DEST};
pub use score::{AvgHop, Ranking, Score};
pub use search_space::permutations_scientific;
pub use stats::StepStats;
pub use ties::Ties;
pub use variant::{Radius, Variant, VariantSpec};

/// A logical address or physical position of the GA (`0..N`, `N ≤ 255²`).
pub type Address = u16;
