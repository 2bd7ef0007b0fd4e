//! Torus and mesh: k-ary n-cubes with per-dimension radices (docs/topologies.md §4).
//!
//! Switch ids are mixed-radix numbers, dimension 0 least significant ([`Shape`]). Ports
//! (§4, project choice): port `2i` is the `+` direction of dimension `i`, port `2i+1` the `-`
//! direction; `terminals_per_switch` terminal ports follow the `2L` network ports (terminal
//! id = `switch · terminals_per_switch + i`). Mesh boundary ports exist but are unconnected.
//! A torus dimension with `k_i = 2` keeps a single link on port `2i` (port `2i+1`
//! unconnected); a dimension with `k_i = 1` has no connected ports. Port indices never shift,
//! so port `2i` always means dimension `i`.

use super::limits::{check_radix, check_terminals};
use super::shape::{Coords, Shape};
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, Symmetry, TerminalId, Topology,
    TopologyError,
};

/// Torus or mesh with radices `k_0..k_{L-1}` (docs/topologies.md §4), adjacency computed
/// arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torus {
    shape: Shape,
    wrap: bool,
    terminals_per_switch: u16,
    num_terminals: u32,
    network_ports: PortIndex,
    radix: PortIndex,
}

#[allow(clippy::self_named_constructors)]
impl Torus {
    /// Torus with the given radices (1 to 16 dimensions, every radix at least 1) and
    /// `terminals_per_switch` terminals on every switch (docs/topologies.md §4).
    // `Torus::torus` / `Torus::mesh` name the two variants of one type on purpose.
    #[allow(clippy::self_named_constructors)]
    pub fn torus(radices: &[u32], terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Self::build(radices, terminals_per_switch, true)
    }

    /// Mesh (no wrap-around links) with the given radices and terminals per switch
    /// (docs/topologies.md §4).
    pub fn mesh(radices: &[u32], terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Self::build(radices, terminals_per_switch, false)
    }

    fn build(radices: &[u32], tps: u16, wrap: bool) -> Result<Self, TopologyError> {
        let shape = Shape::new(radices, "radices")?;
        let network_ports = check_radix(2 * shape.dims() as u64)?;
        let radix = check_radix(network_ports as u64 + tps as u64)?;
        let num_terminals = check_terminals(shape.count() as u64 * tps as u64)?;
        Ok(Torus {
            shape,
            wrap,
            terminals_per_switch: tps,
            num_terminals,
            network_ports,
            radix,
        })
    }

    /// Whether this is a torus (wrap-around links) rather than a mesh.
    #[inline]
    pub fn wraps(&self) -> bool {
        self.wrap
    }

    /// The coordinate system (radices and strides).
    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The radices `k_0..k_{L-1}`.
    #[inline]
    pub fn radices(&self) -> &[u32] {
        self.shape.sizes()
    }

    /// Number of dimensions `L`.
    #[inline]
    pub fn dims(&self) -> usize {
        self.shape.dims()
    }

    /// Terminals attached to every switch.
    #[inline]
    pub fn terminals_per_switch(&self) -> u16 {
        self.terminals_per_switch
    }

    /// Number of network port indices `2L`; terminal ports start here.
    #[inline]
    pub fn network_ports(&self) -> PortIndex {
        self.network_ports
    }

    /// Coordinates of `switch`; `None` when out of range.
    #[inline]
    pub fn coords(&self, switch: SwitchId) -> Option<Coords> {
        self.shape.coords(switch)
    }

    /// Coordinate `x_dim` of `switch`; `None` when out of range.
    #[inline]
    pub fn coord(&self, switch: SwitchId, dim: usize) -> Option<u32> {
        self.shape.coord(switch, dim)
    }

    /// Switch with the given coordinates; `None` when their number or a value is out of
    /// range.
    #[inline]
    pub fn switch_id(&self, coords: &[u32]) -> Option<SwitchId> {
        self.shape.id(coords)
    }

    /// The connected port of `switch` that moves one step in dimension `dim`, forward (`+`)
    /// or backward (`-`). In a torus dimension with `k = 2` both directions use port `2·dim`.
    /// `None` when there is no such neighbour (mesh boundary, `k = 1`, or out of range).
    pub fn dim_port(&self, switch: SwitchId, dim: usize, forward: bool) -> Option<PortIndex> {
        let k = self.shape.size(dim)?;
        let x = self.shape.coord(switch, dim)?;
        let plus = (2 * dim) as PortIndex;
        match (k, self.wrap, forward) {
            (1, _, _) => None,
            (2, true, _) => Some(plus),
            (_, true, true) => Some(plus),
            (_, true, false) => Some(plus + 1),
            (_, false, true) => (x + 1 < k).then_some(plus),
            (_, false, false) => (x > 0).then_some(plus + 1),
        }
    }

    /// Peer `(switch, port)` of network port `port` of `switch`, if connected.
    fn network_peer(&self, switch: SwitchId, port: PortIndex) -> Option<(SwitchId, PortIndex)> {
        let dim = port as usize / 2;
        let forward = port.is_multiple_of(2);
        let k = self.shape.size(dim)?;
        let x = self.shape.coord(switch, dim)?;
        let (value, peer_port) = match (k, self.wrap, forward) {
            (1, _, _) => return None,
            (2, true, true) => (x ^ 1, port),
            (2, true, false) => return None,
            (_, true, true) => ((x + 1) % k, port + 1),
            (_, true, false) => ((x + k - 1) % k, port - 1),
            (_, false, true) if x + 1 < k => (x + 1, port + 1),
            (_, false, false) if x > 0 => (x - 1, port - 1),
            _ => return None,
        };
        let peer = self.shape.with_coord(switch, dim, value)?;
        Some((peer, peer_port))
    }
}

impl Topology for Torus {
    fn family(&self) -> Family {
        if self.wrap {
            Family::Torus
        } else {
            Family::Mesh
        }
    }

    fn num_switches(&self) -> u32 {
        self.shape.count()
    }

    fn num_terminals(&self) -> u32 {
        self.num_terminals
    }

    fn radix(&self) -> PortIndex {
        self.radix
    }

    #[inline]
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        if switch >= self.shape.count() || port >= self.radix {
            return Port::Unconnected;
        }
        if port >= self.network_ports {
            let i = (port - self.network_ports) as u32;
            return Port::Terminal(switch * self.terminals_per_switch as u32 + i);
        }
        match self.network_peer(switch, port) {
            Some((peer, peer_port)) => Port::Link(Link {
                peer,
                peer_port,
                class: LinkClass::Dim((port / 2) as u8),
            }),
            None => Port::Unconnected,
        }
    }

    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        let tps = self.terminals_per_switch as u32;
        if t >= self.num_terminals || tps == 0 {
            return None;
        }
        if tps == 1 {
            // Routing asks this at every hop: one terminal per switch needs no division.
            return Some((t, self.network_ports));
        }
        Some((t / tps, self.network_ports + (t % tps) as PortIndex))
    }

    fn symmetry(&self) -> Symmetry {
        // A torus is a Cayley graph of Z_k0 × ... × Z_k(L-1); a mesh is not regular.
        if self.wrap {
            Symmetry::VertexTransitive
        } else {
            Symmetry::None
        }
    }
}

#[cfg(test)]
mod tests {
    use std::string::ToString;
    use std::vec::Vec;

    use super::*;
    use crate::error::{CapacityError, InvalidParam};
    use crate::topology::testutil::{
        assert_port_symmetry, assert_same_histogram_everywhere, diameter_aspl, neighbours,
    };

    const SHAPES: [&[u32]; 13] = [
        &[1],
        &[2],
        &[3],
        &[4],
        &[7],
        &[2, 2],
        &[3, 4],
        &[4, 4],
        &[1, 5],
        &[2, 3, 5],
        &[5, 5, 2, 1],
        &[3, 3, 3, 3],
        &[8, 8],
    ];

    fn product_except(k: &[u32], i: usize, power: u32) -> u64 {
        k.iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &x)| (x as u64).pow(power))
            .product()
    }

    /// Independent neighbour list from coordinates: differ in one dimension by ±1
    /// (mod k for the torus), without duplicates.
    fn expected_neighbours(t: &Torus, s: u32) -> Vec<u32> {
        let k = t.radices();
        let c = t.coords(s).unwrap();
        let mut out = Vec::new();
        for v in 0..t.num_switches() {
            let d = t.coords(v).unwrap();
            let diff: Vec<usize> = (0..k.len()).filter(|&i| c[i] != d[i]).collect();
            if diff.len() != 1 {
                continue;
            }
            let i = diff[0];
            let delta = c[i].abs_diff(d[i]);
            if delta == 1 || (t.wraps() && delta == k[i] - 1) {
                out.push(v);
            }
        }
        out
    }

    #[test]
    fn torus_structure_degree_diameter_and_distance_sum() {
        for k in SHAPES {
            for tps in [0u16, 1, 3] {
                let t = Torus::torus(k, tps).unwrap();
                assert_eq!(t.family(), Family::Torus);
                assert_eq!(t.symmetry(), Symmetry::VertexTransitive);
                assert_eq!(t.radix() as usize, 2 * k.len() + tps as usize);
                let n: u32 = k.iter().product();
                assert_eq!(t.num_switches(), n);
                assert_eq!(t.num_terminals(), n * tps as u32);
                assert_port_symmetry(&t);
                let degree: u32 = k
                    .iter()
                    .map(|&ki| match ki {
                        1 => 0,
                        2 => 1,
                        _ => 2,
                    })
                    .sum();
                for s in 0..n {
                    assert_eq!(t.degree(s), degree, "torus {k:?} degree at {s}");
                    assert_eq!(neighbours(&t, s), expected_neighbours(&t, s));
                }
            }
            let t = Torus::torus(k, 1).unwrap();
            let hist = assert_same_histogram_everywhere(&t);
            let (diam, _) = diameter_aspl(&t);
            let expect_diam: u32 = k.iter().map(|&ki| ki / 2).sum();
            assert_eq!(diam, expect_diam, "torus {k:?} diameter Σ floor(k/2)");
            // Distance sum from one switch: Σ_i floor(k_i²/4) · Π_{j≠i} k_j (§4).
            let sum: u64 = hist.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
            let expect: u64 = (0..k.len())
                .map(|i| (k[i] as u64 * k[i] as u64 / 4) * product_except(k, i, 1))
                .sum();
            assert_eq!(sum, expect, "torus {k:?} distance sum");
        }
    }

    #[test]
    fn mesh_structure_degree_diameter_and_distance_sum() {
        for k in SHAPES {
            let m = Torus::mesh(k, 2).unwrap();
            assert_eq!(m.family(), Family::Mesh);
            assert_eq!(m.symmetry(), Symmetry::None);
            assert_port_symmetry(&m);
            let n = m.num_switches();
            for s in 0..n {
                let c = m.coords(s).unwrap();
                let degree: u32 = (0..k.len())
                    .map(|i| (c[i] > 0) as u32 + (c[i] + 1 < k[i]) as u32)
                    .sum();
                assert_eq!(m.degree(s), degree, "mesh {k:?} degree at {s}");
                assert_eq!(neighbours(&m, s), expected_neighbours(&m, s));
            }
            let (diam, aspl) = diameter_aspl(&m);
            let expect_diam: u32 = k.iter().map(|&ki| ki - 1).sum();
            assert_eq!(diam, expect_diam, "mesh {k:?} diameter Σ(k-1)");
            // Ordered-pair distance sum: Σ_i (k_i³ - k_i)/3 · Π_{j≠i} k_j².
            let total: u64 = (0..k.len())
                .map(|i| {
                    let ki = k[i] as u64;
                    (ki * ki * ki - ki) / 3 * product_except(k, i, 2)
                })
                .sum();
            if n > 1 {
                let pairs = n as f64 * (n as f64 - 1.0);
                assert!(
                    (aspl - total as f64 / pairs).abs() < 1e-9,
                    "mesh {k:?} ASPL"
                );
            }
        }
    }

    #[test]
    fn mesh_is_not_transitive() {
        let m = Torus::mesh(&[3, 3], 1).unwrap();
        let corner = crate::topology::testutil::distance_histogram(&m, 0);
        let centre = crate::topology::testutil::distance_histogram(&m, 4);
        assert_ne!(corner, centre);
    }

    #[test]
    fn port_order_follows_the_spec() {
        // 4×4 torus, id = y·4 + x; switch 5 = (1, 1).
        let t = Torus::torus(&[4, 4], 2).unwrap();
        let link = |s, p| t.port(s, p).link().map(|l| (l.peer, l.peer_port, l.class));
        assert_eq!(link(5, 0), Some((6, 1, LinkClass::Dim(0))));
        assert_eq!(link(5, 1), Some((4, 0, LinkClass::Dim(0))));
        assert_eq!(link(5, 2), Some((9, 3, LinkClass::Dim(1))));
        assert_eq!(link(5, 3), Some((1, 2, LinkClass::Dim(1))));
        assert_eq!(t.port(5, 4), Port::Terminal(10));
        assert_eq!(t.port(5, 5), Port::Terminal(11));
        assert_eq!(t.port(5, 6), Port::Unconnected);
        assert_eq!(t.terminal_port(11), Some((5, 5)));
        // Wrap-around at (3, 0) = switch 3.
        assert_eq!(link(3, 0), Some((0, 1, LinkClass::Dim(0))));
        assert_eq!(link(3, 3), Some((15, 2, LinkClass::Dim(1))));

        // Mesh: boundary ports exist but are unconnected.
        let m = Torus::mesh(&[4, 4], 1).unwrap();
        assert_eq!(m.port(0, 1), Port::Unconnected);
        assert_eq!(m.port(0, 3), Port::Unconnected);
        assert_eq!(m.port(3, 0), Port::Unconnected);
        assert_eq!(m.port(0, 0).link().unwrap().peer, 1);
        assert_eq!(m.port(0, 4), Port::Terminal(0));

        // Torus k = 2: single link on port 2i, port 2i+1 unconnected; k = 1: no links.
        let t2 = Torus::torus(&[2, 1, 3], 0).unwrap();
        let l = t2.port(0, 0).link().unwrap();
        assert_eq!((l.peer, l.peer_port), (1, 0));
        assert_eq!(t2.port(0, 1), Port::Unconnected);
        assert_eq!(t2.port(0, 2), Port::Unconnected);
        assert_eq!(t2.port(0, 3), Port::Unconnected);
        assert_eq!(t2.port(0, 4).link().unwrap().peer, 2);
        assert_eq!(t2.terminal_port(0), None);
    }

    #[test]
    fn coordinates_and_dim_ports() {
        let t = Torus::torus(&[2, 3, 5], 1).unwrap();
        let s = t.switch_id(&[1, 2, 4]).unwrap();
        assert_eq!(s, 1 + 2 * 2 + 4 * 6);
        assert_eq!(t.coords(s).unwrap().as_slice(), &[1, 2, 4]);
        assert_eq!(t.coord(s, 2), Some(4));
        assert_eq!(t.switch_id(&[2, 0, 0]), None);
        assert_eq!(t.coords(30), None);
        for sw in 0..t.num_switches() {
            for dim in 0..3 {
                for fwd in [true, false] {
                    let p = t.dim_port(sw, dim, fwd).unwrap();
                    let peer = t.port(sw, p).link().unwrap().peer;
                    let k = t.radices()[dim];
                    let x = t.coord(sw, dim).unwrap();
                    let want = if fwd { (x + 1) % k } else { (x + k - 1) % k };
                    assert_eq!(t.coord(peer, dim), Some(want));
                }
            }
        }
        let m = Torus::mesh(&[3, 1], 0).unwrap();
        assert_eq!(m.dim_port(0, 0, false), None);
        assert_eq!(m.dim_port(0, 0, true), Some(0));
        assert_eq!(m.dim_port(2, 0, true), None);
        assert_eq!(m.dim_port(2, 0, false), Some(1));
        assert_eq!(m.dim_port(1, 1, true), None);
        assert_eq!(m.dim_port(1, 2, true), None);
        assert_eq!(m.dim_port(3, 0, true), None);
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        assert_eq!(
            Torus::torus(&[], 1).unwrap_err(),
            TopologyError::Invalid(InvalidParam {
                param: "radices",
                value: 0,
                rule: "at least one dimension is needed"
            })
        );
        assert_eq!(
            Torus::mesh(&[4, 0], 1).unwrap_err().to_string(),
            "every dimension size must be at least 1, got radices = 0"
        );
        assert!(matches!(
            Torus::torus(&[2; 17], 1),
            Err(TopologyError::Capacity(CapacityError {
                what: "dimensions",
                needed: 17,
                available: 16
            }))
        ));
        assert!(matches!(
            Torus::torus(&[65536, 65536], 1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                value: 4_294_967_296,
                ..
            }))
        ));
        assert!(matches!(
            Torus::torus(&[1 << 15, 1 << 15], 2),
            Err(TopologyError::Invalid(InvalidParam {
                param: "terminals",
                value: 2_147_483_648,
                ..
            }))
        ));
        assert!(matches!(
            Torus::mesh(&[4], u16::MAX),
            Err(TopologyError::Invalid(InvalidParam {
                param: "radix",
                value: 65537,
                ..
            }))
        ));
    }
}
