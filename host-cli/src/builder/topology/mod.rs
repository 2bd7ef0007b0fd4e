//! Topology specifications as users write them: `<family> key=value ...`.
//!
//! Examples: `gcirculant n=1024`, `circulant n=16 jumps=1,2,4,8`, `torus k=8,8`,
//! `dragonfly g=129 a=16 p=8 h=8 arrangement=palm-tree`, `random-shortcut n=1024 d=19 seed=1`,
//! `arbitrary edges=graph.txt`. Every family documents its keys in [`FAMILIES`]; unknown keys,
//! missing keys and malformed values are errors that say what is allowed.
//!
//! The structured families are core's [`NetworkSpec`] (its fields, limits and `build`); this
//! module adds only the command-line words for them and the two families whose adjacency the
//! host stores.

mod display;
mod families;
mod parse;
#[cfg(test)]
mod tests;

pub use families::{FamilyHelp, FAMILIES};

use std::path::PathBuf;

use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::Family;

/// Where an anynet network comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyNetSource {
    /// A BookSim2 `network_file` (opened as written, relative to the working directory).
    File(PathBuf),
    /// One router with this many nodes.
    Crossbar(u32),
    /// A `k`-ary tree of `levels` levels: one root, `k^h` routers at level `h`, `k` nodes
    /// on each leaf, node `i` on leaf `i / k` (BookSim2's `qtree`: `k = 4`, 3 levels;
    /// docs/booksim.md §3.4).
    Tree {
        /// Children per router and nodes per leaf.
        k: u32,
        /// Levels of routers.
        levels: u32,
    },
    /// A `k`-ary `n`-fly (BookSim2's `fly`, `n >= 2`): `n` stages of `k^(n-1)` routers;
    /// node `c` injects at the first stage and ejects at the last ([`crate::builder::fly`],
    /// docs/booksim.md §3.7).
    Fly {
        /// Ports per router in each direction.
        k: u32,
        /// Stages.
        n: u32,
    },
}

/// A parsed topology specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopologySpec {
    /// A structured (computed) family, ring to galaxyfly: core's description, which
    /// [`NetworkSpec::build`] turns into a network without storage.
    Structured(NetworkSpec),
    /// Random shortcut.
    RandomShortcut {
        /// Switches.
        n: u32,
        /// Degree.
        d: u32,
        /// Seed.
        seed: u64,
    },
    /// A BookSim2 anynet network (docs/topologies.md §11): from its `network_file`, or one
    /// router with `crossbar` nodes (BookSim2's `fly` with `n = 1`).
    AnyNet(AnyNetSource),
    /// Arbitrary edge list.
    Arbitrary {
        /// File.
        edges: PathBuf,
        /// Terminals per switch.
        t: u16,
    },
}

impl TopologySpec {
    /// The core's description of a computed (structured) network; `None` for the families
    /// that need storage (random shortcut, arbitrary).
    pub fn network_spec(&self) -> Option<&NetworkSpec> {
        match self {
            TopologySpec::Structured(spec) => Some(spec),
            TopologySpec::RandomShortcut { .. }
            | TopologySpec::Arbitrary { .. }
            | TopologySpec::AnyNet(_) => None,
        }
    }

    /// The family the spec describes.
    pub fn family(&self) -> Family {
        match self {
            TopologySpec::Structured(spec) => spec.family(),
            TopologySpec::RandomShortcut { .. } => Family::RandomShortcut,
            TopologySpec::Arbitrary { .. } | TopologySpec::AnyNet(_) => Family::Arbitrary,
        }
    }

    /// Family name as written on the command line ([`Family::name`]; `anynet` for a
    /// BookSim2 anynet network, whose core family is `arbitrary`).
    pub fn family_name(&self) -> &'static str {
        match self {
            TopologySpec::AnyNet(_) => "anynet",
            _ => self.family().name(),
        }
    }
}
