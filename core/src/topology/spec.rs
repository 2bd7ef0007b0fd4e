//! Plain-data descriptions of the structured (computed) topologies: family and parameters,
//! serialisable with serde/postcard, that build a [`Network`] without any storage.
//!
//! A [`NetworkSpec`] is what travels between machines when both ends must agree on a network:
//! a host asks a device for its route table by naming the network (firmware wire protocol),
//! and table images can name the network they belong to. Building checks every parameter
//! exactly as the family's constructor does (docs/topologies.md §1–§10) and returns its
//! [`TopologyError`]; nothing here panics on any input.
//!
//! Random-shortcut and arbitrary graphs need caller storage for their adjacency
//! ([`super::stored`]) and are not described here.

use crate::error::CapacityError;
use heapless::Vec;
use serde::{Deserialize, Serialize};

use super::circulant::MAX_JUMPS;
use super::galaxy::RouterAssignment;
use super::limits::MAX_DIMS;
use super::{
    Circulant, Dragonfly, Family, FatTree, Galaxyfly, GlobalArrangement, HyperX, Hypercube,
    Network, SlimFly, TopologyError, Torus,
};

/// Family and parameters of a structured topology (docs/topologies.md; section per variant).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NetworkSpec {
    /// Ring of `n` switches, one terminal each (§1): [`Circulant::ring`].
    Ring {
        /// Switches, at least 2.
        n: u32,
    },
    /// Circulant `C(n; jumps)`, one terminal per switch (§2): [`Circulant::new`].
    Circulant {
        /// Switches.
        n: u32,
        /// Jumps `1 = c1 < c2 < ... <= n/2`.
        jumps: Vec<u32, MAX_JUMPS>,
    },
    /// `G(n, log2 n) = C(n; 1, 2, 4, ..., n/2)`, one terminal per switch (§2):
    /// [`Circulant::g`].
    CirculantG {
        /// Switches, a power of two.
        n: u32,
    },
    /// k-ary n-cube torus (§4): [`Torus::torus`].
    Torus {
        /// Radix of every dimension (dimension 0 first).
        radices: Vec<u32, MAX_DIMS>,
        /// Terminals per switch.
        terminals_per_switch: u16,
    },
    /// Mesh (§4): [`Torus::mesh`].
    Mesh {
        /// Radix of every dimension (dimension 0 first).
        radices: Vec<u32, MAX_DIMS>,
        /// Terminals per switch.
        terminals_per_switch: u16,
    },
    /// Binary hypercube (§5): [`Hypercube::new`].
    Hypercube {
        /// Dimension, `1..=30`.
        dim: u32,
        /// Terminals per switch.
        terminals_per_switch: u16,
    },
    /// k-ary n-tree fat tree (§6): [`FatTree::new`].
    FatTree {
        /// Arity `k`.
        k: u32,
        /// Levels `n`.
        n: u32,
    },
    /// Dragonfly (§7): [`Dragonfly::new`].
    Dragonfly {
        /// Groups.
        g: u32,
        /// Routers per group.
        a: u32,
        /// Terminals per router.
        p: u32,
        /// Global ports per router.
        h: u32,
        /// Global link arrangement.
        arrangement: GlobalArrangement,
    },
    /// HyperX (§8): [`HyperX::new`].
    HyperX {
        /// Switches per dimension.
        sizes: Vec<u32, MAX_DIMS>,
        /// Trunking (parallel links per switch pair).
        trunk: u16,
        /// Terminals per switch.
        terminals_per_switch: u16,
    },
    /// Slim Fly MMS graph, prime or prime-power `q` (§9): [`SlimFly::new`].
    SlimFly {
        /// Field size: a prime or a prime power ≥ 3.
        q: u32,
        /// Terminals per router (`None` = the full-global-bandwidth default).
        p: Option<u16>,
    },
    /// Supernode-level Galaxy graph (§10): [`Galaxyfly::galaxy`].
    Galaxy {
        /// Clusters.
        n: u32,
        /// Supernodes per cluster (1 or an odd prime).
        q: u32,
    },
    /// Router-level Galaxyfly (§10): [`Galaxyfly::with_assignment`].
    Galaxyfly {
        /// Clusters.
        n: u32,
        /// Supernodes per cluster (1 or an odd prime).
        q: u32,
        /// Routers per supernode.
        a: u32,
        /// Terminals per router.
        p: u32,
        /// Global ports per router (`None` = the assignment's default).
        h: Option<u32>,
        /// Which router carries which supernode-level edge.
        assignment: RouterAssignment,
    },
}

impl NetworkSpec {
    /// The family the spec describes (the one [`NetworkSpec::build`] reports).
    pub fn family(&self) -> Family {
        match self {
            NetworkSpec::Ring { .. } => Family::Ring,
            NetworkSpec::Circulant { .. } => Family::Circulant,
            NetworkSpec::CirculantG { .. } => Family::CirculantG,
            NetworkSpec::Torus { .. } => Family::Torus,
            NetworkSpec::Mesh { .. } => Family::Mesh,
            NetworkSpec::Hypercube { .. } => Family::Hypercube,
            NetworkSpec::FatTree { .. } => Family::FatTree,
            NetworkSpec::Dragonfly { .. } => Family::Dragonfly,
            NetworkSpec::HyperX { .. } => Family::HyperX,
            NetworkSpec::SlimFly { .. } => Family::SlimFly,
            NetworkSpec::Galaxy { .. } => Family::Galaxy,
            NetworkSpec::Galaxyfly { .. } => Family::Galaxyfly,
        }
    }

    /// Builds the network with the family's constructor (its parameter checks and errors).
    /// Cost: that of the constructor (O(1) for most families; Slim Fly and Galaxy set up
    /// their finite field, O(q)).
    pub fn build(&self) -> Result<Network<'static>, TopologyError> {
        Ok(match self {
            NetworkSpec::Ring { n } => Network::Circulant(Circulant::ring(*n)?),
            NetworkSpec::Circulant { n, jumps } => Network::Circulant(Circulant::new(*n, jumps)?),
            NetworkSpec::CirculantG { n } => Network::Circulant(Circulant::g(*n)?),
            NetworkSpec::Torus {
                radices,
                terminals_per_switch,
            } => Network::Torus(Torus::torus(radices, *terminals_per_switch)?),
            NetworkSpec::Mesh {
                radices,
                terminals_per_switch,
            } => Network::Torus(Torus::mesh(radices, *terminals_per_switch)?),
            NetworkSpec::Hypercube {
                dim,
                terminals_per_switch,
            } => Network::Hypercube(Hypercube::new(*dim, *terminals_per_switch)?),
            NetworkSpec::FatTree { k, n } => Network::FatTree(FatTree::new(*k, *n)?),
            NetworkSpec::Dragonfly {
                g,
                a,
                p,
                h,
                arrangement,
            } => Network::Dragonfly(Dragonfly::new(*g, *a, *p, *h, *arrangement)?),
            NetworkSpec::HyperX {
                sizes,
                trunk,
                terminals_per_switch,
            } => Network::HyperX(HyperX::new(sizes, *trunk, *terminals_per_switch)?),
            NetworkSpec::SlimFly { q, p } => Network::SlimFly(SlimFly::new(*q, *p)?),
            NetworkSpec::Galaxy { n, q } => Network::Galaxyfly(Galaxyfly::galaxy(*n, *q)?),
            NetworkSpec::Galaxyfly {
                n,
                q,
                a,
                p,
                h,
                assignment,
            } => Network::Galaxyfly(Galaxyfly::with_assignment(*n, *q, *a, *p, *h, *assignment)?),
        })
    }

    /// `Torus` spec from a slice of radices; [`TopologyError::Capacity`] beyond
    /// [`MAX_DIMS`] dimensions.
    pub fn torus(radices: &[u32], terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Ok(NetworkSpec::Torus {
            radices: dims_vec(radices)?,
            terminals_per_switch,
        })
    }

    /// `Mesh` spec from a slice of radices; [`TopologyError::Capacity`] beyond
    /// [`MAX_DIMS`] dimensions.
    pub fn mesh(radices: &[u32], terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Ok(NetworkSpec::Mesh {
            radices: dims_vec(radices)?,
            terminals_per_switch,
        })
    }

    /// `HyperX` spec from a slice of sizes; [`TopologyError::Capacity`] beyond
    /// [`MAX_DIMS`] dimensions.
    pub fn hyperx(
        sizes: &[u32],
        trunk: u16,
        terminals_per_switch: u16,
    ) -> Result<Self, TopologyError> {
        Ok(NetworkSpec::HyperX {
            sizes: dims_vec(sizes)?,
            trunk,
            terminals_per_switch,
        })
    }

    /// `Circulant` spec from a slice of jumps; [`TopologyError::Capacity`] beyond
    /// [`MAX_JUMPS`] jumps.
    pub fn circulant(n: u32, jumps: &[u32]) -> Result<Self, TopologyError> {
        let jumps = Vec::from_slice(jumps).map_err(|_| {
            TopologyError::Capacity(CapacityError {
                what: "jumps",
                needed: jumps.len() as u64,
                available: MAX_JUMPS as u64,
            })
        })?;
        Ok(NetworkSpec::Circulant { n, jumps })
    }
}

fn dims_vec(values: &[u32]) -> Result<Vec<u32, MAX_DIMS>, TopologyError> {
    Vec::from_slice(values).map_err(|_| {
        TopologyError::Capacity(CapacityError {
            what: "dimensions",
            needed: values.len() as u64,
            available: MAX_DIMS as u64,
        })
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::topology::galaxy::RouterAssignment;
    use crate::topology::{Port, Topology};
    use std::vec::Vec as StdVec;

    /// Every port of every switch and every terminal location, for comparing two networks.
    fn fingerprint<T: Topology>(t: &T) -> StdVec<(u32, u16, Port)> {
        let mut v = StdVec::new();
        for s in 0..t.num_switches() {
            for p in 0..t.radix() {
                v.push((s, p, t.port(s, p)));
            }
        }
        for d in 0..t.num_terminals() {
            let (s, p) = t.terminal_port(d).unwrap();
            v.push((s, p, Port::Terminal(d)));
        }
        v
    }

    fn cases() -> StdVec<(NetworkSpec, Network<'static>)> {
        std::vec![
            (
                NetworkSpec::Ring { n: 7 },
                Network::Circulant(Circulant::ring(7).unwrap())
            ),
            (
                NetworkSpec::circulant(16, &[1, 3, 8]).unwrap(),
                Network::Circulant(Circulant::new(16, &[1, 3, 8]).unwrap()),
            ),
            (
                NetworkSpec::CirculantG { n: 32 },
                Network::Circulant(Circulant::g(32).unwrap()),
            ),
            (
                NetworkSpec::torus(&[4, 3], 2).unwrap(),
                Network::Torus(Torus::torus(&[4, 3], 2).unwrap()),
            ),
            (
                NetworkSpec::mesh(&[3, 2, 2], 1).unwrap(),
                Network::Torus(Torus::mesh(&[3, 2, 2], 1).unwrap()),
            ),
            (
                NetworkSpec::Hypercube {
                    dim: 4,
                    terminals_per_switch: 1,
                },
                Network::Hypercube(Hypercube::new(4, 1).unwrap()),
            ),
            (
                NetworkSpec::FatTree { k: 2, n: 3 },
                Network::FatTree(FatTree::new(2, 3).unwrap()),
            ),
            (
                NetworkSpec::Dragonfly {
                    g: 5,
                    a: 2,
                    p: 1,
                    h: 2,
                    arrangement: GlobalArrangement::PalmTree,
                },
                Network::Dragonfly(
                    Dragonfly::new(5, 2, 1, 2, GlobalArrangement::PalmTree).unwrap(),
                ),
            ),
            (
                NetworkSpec::hyperx(&[3, 2], 2, 1).unwrap(),
                Network::HyperX(HyperX::new(&[3, 2], 2, 1).unwrap()),
            ),
            (
                NetworkSpec::SlimFly { q: 5, p: Some(2) },
                Network::SlimFly(SlimFly::new(5, Some(2)).unwrap()),
            ),
            (
                NetworkSpec::Galaxy { n: 3, q: 5 },
                Network::Galaxyfly(Galaxyfly::galaxy(3, 5).unwrap()),
            ),
            (
                NetworkSpec::Galaxyfly {
                    n: 3,
                    q: 5,
                    a: 2,
                    p: 1,
                    h: None,
                    assignment: RouterAssignment::ClusterSplit,
                },
                Network::Galaxyfly(
                    Galaxyfly::with_assignment(3, 5, 2, 1, None, RouterAssignment::ClusterSplit)
                        .unwrap(),
                ),
            ),
        ]
    }

    #[test]
    fn every_family_builds_the_constructors_network() {
        let cases = cases();
        assert_eq!(cases.len(), 12, "one case per variant");
        for (spec, direct) in &cases {
            let built = spec.build().unwrap();
            assert_eq!(spec.family(), direct.family(), "{spec:?}");
            assert_eq!(built.family(), direct.family(), "{spec:?}");
            assert_eq!(built.num_switches(), direct.num_switches());
            assert_eq!(built.num_terminals(), direct.num_terminals());
            assert_eq!(fingerprint(&built), fingerprint(direct), "{spec:?}");
        }
    }

    #[test]
    fn postcard_round_trip_is_exact() {
        for (spec, _) in cases() {
            let mut buf = [0u8; 256];
            let bytes = postcard::to_slice(&spec, &mut buf).unwrap();
            let back: NetworkSpec = postcard::from_bytes(bytes).unwrap();
            assert_eq!(back, spec);
        }
        // The encoding is plain postcard: variant index, then the fields as varints.
        let mut buf = [0u8; 16];
        let bytes = postcard::to_slice(&NetworkSpec::CirculantG { n: 1024 }, &mut buf).unwrap();
        assert_eq!(bytes, &[2, 0x80, 0x08]);
    }

    #[test]
    fn bad_parameters_give_the_constructors_error() {
        let bad = [
            NetworkSpec::CirculantG { n: 12 },
            NetworkSpec::Ring { n: 1 },
            NetworkSpec::torus(&[], 1).unwrap(),
            NetworkSpec::Hypercube {
                dim: 31,
                terminals_per_switch: 1,
            },
            NetworkSpec::Dragonfly {
                g: 10,
                a: 2,
                p: 1,
                h: 2,
                arrangement: GlobalArrangement::Consecutive,
            },
            NetworkSpec::SlimFly { q: 6, p: None },
        ];
        for spec in &bad {
            assert!(spec.build().is_err(), "{spec:?} accepted");
        }
        assert_eq!(
            NetworkSpec::CirculantG { n: 12 }.build().unwrap_err(),
            Circulant::g(12).unwrap_err()
        );
        assert!(matches!(
            NetworkSpec::torus(&[2; MAX_DIMS + 1], 1),
            Err(TopologyError::Capacity(..))
        ));
        assert!(matches!(
            NetworkSpec::circulant(1 << 20, &[1; MAX_JUMPS + 1]),
            Err(TopologyError::Capacity(..))
        ));
    }

    #[test]
    fn oversized_vectors_do_not_deserialize() {
        // Variant 3 (Torus) with 17 radices: more than MAX_DIMS.
        let mut bytes = std::vec![3u8, (MAX_DIMS + 1) as u8];
        bytes.extend(std::iter::repeat_n(2u8, MAX_DIMS + 1));
        bytes.push(1);
        assert!(postcard::from_bytes::<NetworkSpec>(&bytes).is_err());
    }
}
