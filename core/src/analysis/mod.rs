//! Hop, link and makespan analysis of a collective on a network: (topology, routing,
//! placement rank → terminal, schedule) → numbers (docs/collectives.md §6 and §10,
//! docs/mapping.md §1–§3, docs/routing.md §1 and §8).
//!
//! * [`analyse`]: routes every message hop by hop with any [`crate::routing::Routing`]
//!   ([`RoutedNetwork`], with a hop limit) and reports messages, total router hops (the
//!   \[DISS\] convention: switch-to-switch links), largest message, per-step hops / largest
//!   hops / messages ([`StepBuffers`]), messages per directed channel
//!   ([`Outputs::channel_loads`], `routing::deadlock::channel` indices) and link traversals per
//!   [`crate::topology::LinkClass`] ([`LinkTotals`]; terminal links: 2 per message whose
//!   terminals differ), so the Dragonfly global/local counts of [DF-BC] §III-E fall out.
//! * [`distance_hops`]: the same hop totals through a [`crate::mapping::DistanceOracle`]
//!   (distance matrix, arithmetic distances, or an injected table), without walking routes.
//! * [`makespan()`] / [`makespan_with`]: the [DF-BC] §IV-B link-count makespan model.
//! * [`for_each_routed_message`] / [`route_message`]: the routing engine underneath, for
//!   custom statistics.
//! * Bridges for the mapping optimisers and the Dragonfly collectives: [`flatten()`] turns any
//!   schedule into the `mapping::Message` list, the routing module's
//!   [`crate::routing::DistanceMatrix`] is a `mapping::DistanceOracle` (see
//!   [`crate::mapping::oracle`]), and [`dragonfly_placement`] describes ranks on the
//!   terminals of a [`crate::topology::Dragonfly`] as the job of LLF, GLF and FOREST.
//!
//! Everything works in caller storage, never allocates and reports failures as
//! [`AnalysisError`].

pub mod distance;
pub mod dragonfly;
pub mod error;
pub mod flatten;
pub mod link_totals;
pub mod makespan;
pub mod route;
pub mod routed;
pub mod steps;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;

pub use distance::distance_hops;
pub use dragonfly::dragonfly_placement;
pub use error::AnalysisError;
pub use flatten::flatten;
pub use link_totals::LinkTotals;
pub use makespan::{makespan, makespan_with, Makespan, RankClock};
pub use route::{for_each_routed_message, route_message, RoutedMessage, RoutedNetwork};
pub use routed::{analyse, Analysis, Outputs};
pub use steps::{HopSummary, StepBuffers};
