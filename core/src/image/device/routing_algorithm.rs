//! [`RoutingAlgorithm`]: the algorithm a device image's route table was computed with.

use serde::{Deserialize, Serialize};

/// The routing algorithm the device's table was computed with (spec/routing.md); recorded so
/// a device can report it and recompute or cross-check its table. `Precomputed` is a table
/// the host computed with an algorithm the device cannot run itself (e.g. DFSSSP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoutingAlgorithm {
    /// Minimal BFS routing, lowest port on ties (§1).
    MinimalBfs,
    /// Dimension-order routing on a torus or mesh (§2).
    TorusDor,
    /// E-cube routing on a hypercube (§2).
    Ecube,
    /// NAF routing on `G(n, log2 n)` (§3).
    CirculantNaf,
    /// Greedy largest-jump routing on a circulant (§3).
    CirculantGreedy,
    /// Dimension-order routing on a HyperX (§2).
    HyperXDor,
    /// D-mod-k routing on a fat tree (§5).
    FatTreeDmodK,
    /// Dragonfly minimal routing (§4).
    DragonflyMinimal,
    /// A table computed on the host by another algorithm.
    Precomputed,
}

impl RoutingAlgorithm {
    /// Every algorithm, in encoding order.
    pub const ALL: [RoutingAlgorithm; 9] = [
        RoutingAlgorithm::MinimalBfs,
        RoutingAlgorithm::TorusDor,
        RoutingAlgorithm::Ecube,
        RoutingAlgorithm::CirculantNaf,
        RoutingAlgorithm::CirculantGreedy,
        RoutingAlgorithm::HyperXDor,
        RoutingAlgorithm::FatTreeDmodK,
        RoutingAlgorithm::DragonflyMinimal,
        RoutingAlgorithm::Precomputed,
    ];

    /// Short lower-case name, as the host CLI spells it.
    pub const fn name(self) -> &'static str {
        match self {
            RoutingAlgorithm::MinimalBfs => "minimal",
            RoutingAlgorithm::TorusDor => "dor",
            RoutingAlgorithm::Ecube => "ecube",
            RoutingAlgorithm::CirculantNaf => "naf",
            RoutingAlgorithm::CirculantGreedy => "greedy",
            RoutingAlgorithm::HyperXDor => "hyperx-dor",
            RoutingAlgorithm::FatTreeDmodK => "dmodk",
            RoutingAlgorithm::DragonflyMinimal => "df-minimal",
            RoutingAlgorithm::Precomputed => "precomputed",
        }
    }
}

impl core::fmt::Display for RoutingAlgorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
