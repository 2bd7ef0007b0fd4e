//! Topology specifications as users write them: `<family> key=value ...`.
//!
//! Examples: `gcirculant n=1024`, `circulant n=16 jumps=1,2,4,8`, `torus k=8,8`,
//! `dragonfly g=129 a=16 p=8 h=8 arrangement=palm-tree`, `random-shortcut n=1024 d=19 seed=1`,
//! `arbitrary edges=graph.txt`. Every family documents its keys in [`FAMILIES`]; unknown keys,
//! missing keys and malformed values are errors that say what is allowed.

mod display;
mod families;
mod parse;
#[cfg(test)]
mod tests;

pub use families::{FamilyHelp, FAMILIES};

use std::path::PathBuf;

use anyhow::Result;
use jumpnet_core::topology::galaxy::RouterAssignment;
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::{GlobalArrangement, TopologyError};
use serde::Serialize;

/// Global-link arrangement of a Dragonfly, as written on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrangement {
    /// Consecutive / absolute.
    Consecutive,
    /// Palm tree (the default meaning of "relative", spec/topologies.md §7).
    PalmTree,
    /// Mirror image of palm tree (`T = G + i + 1`).
    RelativeMirror,
}

/// Which Galaxyfly router carries which supernode-level link (spec/topologies.md §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Assignment {
    /// Edge `j` of a supernode on router `j mod a` (project default).
    RoundRobin,
    /// Router 0 intra-cluster, router 1 inter-cluster (the paper's `a = 2` layout).
    ClusterSplit,
}

/// A parsed topology specification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub enum TopologySpec {
    /// Ring.
    Ring {
        /// Switches.
        n: u32,
    },
    /// Circulant.
    Circulant {
        /// Switches.
        n: u32,
        /// Jump sequence.
        jumps: Vec<u32>,
    },
    /// G(n, log2 n).
    Gcirculant {
        /// Switches.
        n: u32,
    },
    /// Random shortcut.
    RandomShortcut {
        /// Switches.
        n: u32,
        /// Degree.
        d: u32,
        /// Seed.
        seed: u64,
    },
    /// Torus.
    Torus {
        /// Radices.
        k: Vec<u32>,
        /// Terminals per switch.
        t: u16,
    },
    /// Mesh.
    Mesh {
        /// Radices.
        k: Vec<u32>,
        /// Terminals per switch.
        t: u16,
    },
    /// Hypercube.
    Hypercube {
        /// Dimension.
        dim: u32,
        /// Terminals per switch.
        t: u16,
    },
    /// k-ary n-tree.
    FatTree {
        /// Arity.
        k: u32,
        /// Levels.
        n: u32,
    },
    /// Dragonfly.
    Dragonfly {
        /// Groups.
        g: u32,
        /// Routers per group.
        a: u32,
        /// Terminals per router.
        p: u32,
        /// Global links per router.
        h: u32,
        /// Arrangement.
        arrangement: Arrangement,
    },
    /// HyperX.
    Hyperx {
        /// Sizes.
        s: Vec<u32>,
        /// Trunking.
        k: u16,
        /// Terminals per switch.
        t: u16,
    },
    /// Slim Fly.
    SlimFly {
        /// Prime or prime-power q.
        q: u32,
        /// Terminals per router.
        p: Option<u16>,
    },
    /// Galaxy graph.
    Galaxy {
        /// Clusters.
        n: u32,
        /// Supernodes per cluster.
        q: u32,
    },
    /// Galaxyfly.
    Galaxyfly {
        /// Clusters.
        n: u32,
        /// Supernodes per cluster.
        q: u32,
        /// Routers per supernode.
        a: u32,
        /// Terminals per router.
        p: u32,
        /// Inter-supernode links per router.
        h: Option<u32>,
        /// Router assignment of supernode links.
        assignment: Assignment,
    },
    /// Arbitrary edge list.
    Arbitrary {
        /// File.
        edges: PathBuf,
        /// Terminals per switch.
        t: u16,
    },
}

impl TopologySpec {
    /// The core's description of a computed (structured) network, which
    /// `jumpnet_core::topology::spec::NetworkSpec::build` turns into a network; `None` for
    /// the families that need storage (random shortcut, arbitrary).
    pub fn network_spec(&self) -> Result<Option<NetworkSpec>, TopologyError> {
        Ok(Some(match self {
            TopologySpec::Ring { n } => NetworkSpec::Ring { n: *n },
            TopologySpec::Circulant { n, jumps } => NetworkSpec::circulant(*n, jumps)?,
            TopologySpec::Gcirculant { n } => NetworkSpec::CirculantG { n: *n },
            TopologySpec::Torus { k, t } => NetworkSpec::torus(k, *t)?,
            TopologySpec::Mesh { k, t } => NetworkSpec::mesh(k, *t)?,
            TopologySpec::Hypercube { dim, t } => NetworkSpec::Hypercube {
                dim: *dim,
                terminals_per_switch: *t,
            },
            TopologySpec::FatTree { k, n } => NetworkSpec::FatTree { k: *k, n: *n },
            TopologySpec::Dragonfly {
                g,
                a,
                p,
                h,
                arrangement,
            } => NetworkSpec::Dragonfly {
                g: *g,
                a: *a,
                p: *p,
                h: *h,
                arrangement: match arrangement {
                    Arrangement::Consecutive => GlobalArrangement::Consecutive,
                    Arrangement::PalmTree => GlobalArrangement::PalmTree,
                    Arrangement::RelativeMirror => GlobalArrangement::RelativeMirror,
                },
            },
            TopologySpec::Hyperx { s, k, t } => NetworkSpec::hyperx(s, *k, *t)?,
            TopologySpec::SlimFly { q, p } => NetworkSpec::SlimFly { q: *q, p: *p },
            TopologySpec::Galaxy { n, q } => NetworkSpec::Galaxy { n: *n, q: *q },
            TopologySpec::Galaxyfly {
                n,
                q,
                a,
                p,
                h,
                assignment,
            } => NetworkSpec::Galaxyfly {
                n: *n,
                q: *q,
                a: *a,
                p: *p,
                h: *h,
                assignment: match assignment {
                    Assignment::RoundRobin => RouterAssignment::RoundRobin,
                    Assignment::ClusterSplit => RouterAssignment::ClusterSplit,
                },
            },
            TopologySpec::RandomShortcut { .. } | TopologySpec::Arbitrary { .. } => {
                return Ok(None)
            }
        }))
    }

    /// Family name as written on the command line.
    pub fn family_name(&self) -> &'static str {
        match self {
            TopologySpec::Ring { .. } => "ring",
            TopologySpec::Circulant { .. } => "circulant",
            TopologySpec::Gcirculant { .. } => "gcirculant",
            TopologySpec::RandomShortcut { .. } => "random-shortcut",
            TopologySpec::Torus { .. } => "torus",
            TopologySpec::Mesh { .. } => "mesh",
            TopologySpec::Hypercube { .. } => "hypercube",
            TopologySpec::FatTree { .. } => "fat-tree",
            TopologySpec::Dragonfly { .. } => "dragonfly",
            TopologySpec::Hyperx { .. } => "hyperx",
            TopologySpec::SlimFly { .. } => "slim-fly",
            TopologySpec::Galaxy { .. } => "galaxy",
            TopologySpec::Galaxyfly { .. } => "galaxyfly",
            TopologySpec::Arbitrary { .. } => "arbitrary",
        }
    }
}
