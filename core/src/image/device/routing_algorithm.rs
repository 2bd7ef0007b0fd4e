//! [`RoutingAlgorithm`]: the algorithm a device image's route table was computed with.

use serde::{Deserialize, Serialize};

use crate::routing::RouteAlgo;

/// The routing algorithm the device's table was computed with (docs/routing.md); recorded so
/// a device can report it and recompute or cross-check its table. `Precomputed` is a table
/// the host computed with an algorithm the device cannot run itself (e.g. DFSSSP). The other
/// variants are the algorithms a device computes a switch's table with (firmware route-table
/// requests name them too); their names are [`RouteAlgo`]'s.
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
    /// Dragonfly minimal routing on a single VC (§4): what `df-minimal-1vc` images record
    /// (`df-minimal` images, whose routes carry VCs, record `Precomputed`).
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

    /// Short lower-case name: the name of the [`RouteAlgo`] that selects it (`hyperx-dor`:
    /// `dor` on a HyperX; `precomputed`: none).
    pub const fn name(self) -> &'static str {
        match self {
            RoutingAlgorithm::MinimalBfs => RouteAlgo::Minimal.name(),
            RoutingAlgorithm::TorusDor => RouteAlgo::Dor.name(),
            RoutingAlgorithm::Ecube => RouteAlgo::Ecube.name(),
            RoutingAlgorithm::CirculantNaf => RouteAlgo::Naf.name(),
            RoutingAlgorithm::CirculantGreedy => RouteAlgo::Greedy.name(),
            RoutingAlgorithm::HyperXDor => "hyperx-dor",
            RoutingAlgorithm::FatTreeDmodK => RouteAlgo::Dmodk.name(),
            RoutingAlgorithm::DragonflyMinimal => RouteAlgo::DfMinimal1vc.name(),
            RoutingAlgorithm::Precomputed => "precomputed",
        }
    }

    /// Which network the algorithm needs (`None`: any network, or — for `Precomputed` —
    /// none a device computes a table for).
    pub const fn needs(self) -> Option<&'static str> {
        match self {
            RoutingAlgorithm::MinimalBfs | RoutingAlgorithm::Precomputed => None,
            RoutingAlgorithm::TorusDor => Some("a torus or mesh"),
            RoutingAlgorithm::Ecube => Some("a hypercube"),
            RoutingAlgorithm::CirculantNaf => Some("G(n, log2 n)"),
            RoutingAlgorithm::CirculantGreedy => Some("a ring or circulant"),
            RoutingAlgorithm::HyperXDor => Some("a HyperX"),
            RoutingAlgorithm::FatTreeDmodK => Some("a fat tree"),
            RoutingAlgorithm::DragonflyMinimal => Some("a Dragonfly"),
        }
    }
}

impl core::fmt::Display for RoutingAlgorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_those_of_the_algorithms_that_select_them() {
        // The device computes Dragonfly minimal tables on one VC: `df-minimal-1vc`.
        assert_eq!(RoutingAlgorithm::DragonflyMinimal.name(), "df-minimal-1vc");
        assert_eq!(RoutingAlgorithm::TorusDor.name(), "dor");
        assert_eq!(RoutingAlgorithm::Precomputed.name(), "precomputed");
    }
}
