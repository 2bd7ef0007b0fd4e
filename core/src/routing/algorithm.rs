//! [`RouteAlgo`]: the routing algorithms by name (docs/routing.md) — the one list of their
//! canonical names, which the host's `--algo`, the device images' recorded algorithm
//! ([`crate::image::device::RoutingAlgorithm`]) and the firmware's route-table rejections
//! spell.

use core::fmt;
use core::str::FromStr;

use serde::Serialize;

/// A routing algorithm, by the name a user gives it (docs/routing.md; the section is named
/// per variant). [`RouteAlgo::name`] is its canonical name, [`RouteAlgo::summary`] a one-line
/// description; names parse back with [`RouteAlgo::from_name`] (or [`FromStr`]).
///
/// Which implementation a name selects can depend on the network (`dor` is torus, HyperX or
/// hypercube dimension-order routing); a device image records the implementation its table
/// was computed with as a [`crate::image::device::RoutingAlgorithm`].
///
/// serde writes the kebab-case variant name, which is the canonical name except for
/// [`RouteAlgo::DfMinimal1vc`] (`df-minimal1vc`; reports have always spelled it so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteAlgo {
    /// `minimal` (§1).
    Minimal,
    /// `dfsssp` (§6).
    Dfsssp,
    /// `dor` (§2).
    Dor,
    /// `dor-dateline` (§2).
    DorDateline,
    /// `dor-booksim` (§2).
    #[serde(rename = "dor-booksim")]
    DorBookSim,
    /// `ecube` (§2).
    Ecube,
    /// `greedy` (§3).
    Greedy,
    /// `naf` (§3).
    Naf,
    /// `dmodk` (§5).
    Dmodk,
    /// `nca` (§5.1).
    Nca,
    /// `anca` (§5.1).
    Anca,
    /// `df-minimal` (§4).
    DfMinimal,
    /// `df-minimal-1vc` (§4).
    DfMinimal1vc,
    /// `df-valiant` (§4).
    DfValiant,
    /// `df-valiant-dest` (§4).
    DfValiantDest,
    /// `df-ugal-l` (§4).
    DfUgalL,
    /// `df-ugal-g` (§4).
    DfUgalG,
    /// `df-ugal-booksim` (§4).
    #[serde(rename = "df-ugal-booksim")]
    DfUgalBookSim,
    /// `parx` (§7).
    Parx,
    /// `parx-large` (§7).
    ParxLarge,
    /// `min-latency` (§9).
    MinLatency,
}

/// A name that is not one of [`RouteAlgo::ALL`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownRouteAlgo;

impl fmt::Display for UnknownRouteAlgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown routing algorithm")
    }
}

impl core::error::Error for UnknownRouteAlgo {}

impl RouteAlgo {
    /// Every algorithm, in the order they are listed to users.
    pub const ALL: [RouteAlgo; 21] = [
        RouteAlgo::Minimal,
        RouteAlgo::Dfsssp,
        RouteAlgo::Dor,
        RouteAlgo::DorDateline,
        RouteAlgo::DorBookSim,
        RouteAlgo::Ecube,
        RouteAlgo::Greedy,
        RouteAlgo::Naf,
        RouteAlgo::Dmodk,
        RouteAlgo::Nca,
        RouteAlgo::Anca,
        RouteAlgo::DfMinimal,
        RouteAlgo::DfMinimal1vc,
        RouteAlgo::DfValiant,
        RouteAlgo::DfValiantDest,
        RouteAlgo::DfUgalL,
        RouteAlgo::DfUgalG,
        RouteAlgo::DfUgalBookSim,
        RouteAlgo::Parx,
        RouteAlgo::ParxLarge,
        RouteAlgo::MinLatency,
    ];

    /// The canonical name (lower case, as the command line spells it).
    pub const fn name(self) -> &'static str {
        match self {
            RouteAlgo::Minimal => "minimal",
            RouteAlgo::Dfsssp => "dfsssp",
            RouteAlgo::Dor => "dor",
            RouteAlgo::DorDateline => "dor-dateline",
            RouteAlgo::DorBookSim => "dor-booksim",
            RouteAlgo::Ecube => "ecube",
            RouteAlgo::Greedy => "greedy",
            RouteAlgo::Naf => "naf",
            RouteAlgo::Dmodk => "dmodk",
            RouteAlgo::Nca => "nca",
            RouteAlgo::Anca => "anca",
            RouteAlgo::DfMinimal => "df-minimal",
            RouteAlgo::DfMinimal1vc => "df-minimal-1vc",
            RouteAlgo::DfValiant => "df-valiant",
            RouteAlgo::DfValiantDest => "df-valiant-dest",
            RouteAlgo::DfUgalL => "df-ugal-l",
            RouteAlgo::DfUgalG => "df-ugal-g",
            RouteAlgo::DfUgalBookSim => "df-ugal-booksim",
            RouteAlgo::Parx => "parx",
            RouteAlgo::ParxLarge => "parx-large",
            RouteAlgo::MinLatency => "min-latency",
        }
    }

    /// One-line description: what the algorithm does, on which networks, with which
    /// virtual channels (the command line's help text).
    pub const fn summary(self) -> &'static str {
        match self {
            RouteAlgo::Minimal => "Minimal BFS routing, lowest port on ties (any topology, §1)",
            RouteAlgo::Dfsssp => {
                "DFSSSP: balanced minimal routes with deadlock-free virtual layers (any topology, §6)"
            }
            RouteAlgo::Dor => {
                "Dimension-order routing with 1 VC (torus, mesh, HyperX; hypercube = e-cube) (§2)"
            }
            RouteAlgo::DorDateline => {
                "Torus dimension-order routing with dateline VCs, + on distance ties (jumpnet's choice) (§2)"
            }
            RouteAlgo::DorBookSim => {
                "Torus dimension-order routing as BookSim2's dim_order: a dimension's hops in \
                 class 1 iff the destination's coordinate is below the entry's, on the upper \
                 half of the VCs, class 0 on the lower; random direction on distance ties (§2)"
            }
            RouteAlgo::Ecube => "Hypercube e-cube routing (§2)",
            RouteAlgo::Greedy => "Circulant greedy routing by largest jump (§3)",
            RouteAlgo::Naf => "Optimal NAF routing for G(n, log2 n) (§3)",
            RouteAlgo::Dmodk => "Fat-tree up/down with D-mod-k (§5)",
            RouteAlgo::Nca => {
                "Fat-tree nearest common ancestor, a random up port at every switch (BookSim2's \
                 nca) (§5.1)"
            }
            RouteAlgo::Anca => {
                "Fat-tree nearest common ancestor, the less occupied of two random up ports \
                 (BookSim2's anca; in `jumpnet sim`) (§5.1)"
            }
            RouteAlgo::DfMinimal => {
                "Dragonfly minimal routing, BookSim VCs (VC0 before the global hop, VC1 after) (§4)"
            }
            RouteAlgo::DfMinimal1vc => {
                "Dragonfly minimal routing on a single VC (deadlocks in general; for analysis) (§4)"
            }
            RouteAlgo::DfValiant => {
                "Dragonfly Valiant: intermediate group hashed from (source, destination), 3 VCs (§4)"
            }
            RouteAlgo::DfValiantDest => {
                "Dragonfly Valiant with the intermediate hashed from the destination only (table-able)"
            }
            RouteAlgo::DfUgalL => {
                "Dragonfly UGAL-L: minimal or Valiant chosen at the source router by its \
                 output-queue occupancies × hops (in `jumpnet sim`; elsewhere, with no queues, \
                 minimal), 3 VCs (§4)"
            }
            RouteAlgo::DfUgalG => {
                "Dragonfly UGAL-G: as df-ugal-l on the occupancies of the paths' global channels"
            }
            RouteAlgo::DfUgalBookSim => {
                "Dragonfly UGAL as BookSim2's ugal_dragonflynew (its rule, for --booksim): random                  intermediate router per packet, minimal iff q_min <= 2 q_val + 30 at the source                  router, 3 VCs (§4)"
            }
            RouteAlgo::Parx => "PARX for 2-D HyperX, small-message (< 512 B) destination LIDs (§7)",
            RouteAlgo::ParxLarge => {
                "PARX for 2-D HyperX, large-message (>= 512 B) destination LIDs (§7)"
            }
            RouteAlgo::MinLatency => {
                "Shortest paths by channel latency as BookSim2's anynet tables them (Dijkstra, \
                 lowest switch id first on ties), any VC (any topology, §9)"
            }
        }
    }

    /// The algorithm whose canonical name is `name` (exactly).
    pub fn from_name(name: &str) -> Option<RouteAlgo> {
        RouteAlgo::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether every route is a shortest path (checked against BFS distances).
    pub const fn is_minimal(self) -> bool {
        // Dragonfly "minimal" routes use at most one global hop; a path through a third
        // group can be shorter in the switch graph, so they are not checked for minimality.
        !matches!(
            self,
            RouteAlgo::Greedy
                | RouteAlgo::DfMinimal
                | RouteAlgo::DfMinimal1vc
                | RouteAlgo::DfValiant
                | RouteAlgo::DfValiantDest
                | RouteAlgo::DfUgalL
                | RouteAlgo::DfUgalG
                | RouteAlgo::DfUgalBookSim
                | RouteAlgo::ParxLarge
                | RouteAlgo::MinLatency
        )
    }

    /// Whether the chosen port depends only on (switch, destination), so the routing
    /// compiles into per-switch forwarding tables.
    pub const fn destination_based(self) -> bool {
        !matches!(
            self,
            RouteAlgo::DorDateline
                | RouteAlgo::DorBookSim
                | RouteAlgo::Nca
                | RouteAlgo::Anca
                | RouteAlgo::DfMinimal
                | RouteAlgo::DfValiant
                | RouteAlgo::DfValiantDest
                | RouteAlgo::DfUgalL
                | RouteAlgo::DfUgalG
                | RouteAlgo::DfUgalBookSim
                | RouteAlgo::Parx
                | RouteAlgo::ParxLarge
        )
    }
}

impl fmt::Display for RouteAlgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RouteAlgo {
    type Err = UnknownRouteAlgo;

    /// [`RouteAlgo::from_name`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RouteAlgo::from_name(s).ok_or(UnknownRouteAlgo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn names_are_distinct_and_parse_back() {
        for (i, a) in RouteAlgo::ALL.into_iter().enumerate() {
            assert_eq!(a.name().parse::<RouteAlgo>(), Ok(a));
            assert_eq!(a.to_string(), a.name());
            assert!(!a.summary().is_empty());
            for b in &RouteAlgo::ALL[..i] {
                assert_ne!(a.name(), b.name());
            }
        }
        assert_eq!("DOR".parse::<RouteAlgo>(), Err(UnknownRouteAlgo));
        assert_eq!(
            RouteAlgo::from_name("dor-dateline"),
            Some(RouteAlgo::DorDateline)
        );
        assert_eq!(RouteAlgo::DfMinimal1vc.name(), "df-minimal-1vc");
    }

    #[test]
    fn table_properties() {
        let names = |f: fn(RouteAlgo) -> bool| {
            RouteAlgo::ALL
                .into_iter()
                .filter(|&a| !f(a))
                .map(RouteAlgo::name)
                .collect::<std::vec::Vec<_>>()
        };
        assert_eq!(
            names(RouteAlgo::destination_based),
            [
                "dor-dateline",
                "dor-booksim",
                "nca",
                "anca",
                "df-minimal",
                "df-valiant",
                "df-valiant-dest",
                "df-ugal-l",
                "df-ugal-g",
                "df-ugal-booksim",
                "parx",
                "parx-large"
            ]
        );
        assert_eq!(
            names(RouteAlgo::is_minimal),
            [
                "greedy",
                "df-minimal",
                "df-minimal-1vc",
                "df-valiant",
                "df-valiant-dest",
                "df-ugal-l",
                "df-ugal-g",
                "df-ugal-booksim",
                "parx-large",
                "min-latency"
            ]
        );
    }
}
