//! HyperX (docs/topologies.md §8; Ahn et al. SC09, \[HX\] §2.2).
//!
//! `L` dimensions of sizes `S_0..S_{L-1}`; every dimension is a complete graph with `K`
//! parallel links ("trunking") between any two switches that differ in exactly that
//! coordinate, and every switch holds `T` terminals. Switch ids are mixed-radix numbers,
//! dimension 0 least significant ([`Shape`]); terminal id = `switch · T + t`.
//!
//! Ports (§8, project choice): `0..T-1` are terminals; then for dimension `i = 0..L-1`, for
//! every other value `v ≠ x_i` in ascending order, `K` consecutive ports to `x[i := v]`.
//! Radix `T + K·Σ(S_i - 1)`; switch-level diameter = number of dimensions with `S_i > 1`.

use crate::error::InvalidParam;
use core::ops::Range;

use heapless::Vec;

use super::limits::{check_radix, check_terminals, MAX_DIMS};
use super::shape::{Coords, Shape};
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, Symmetry, TerminalId, Topology,
    TopologyError,
};

/// HyperX with sizes `S`, trunking `K` and `T` terminals per switch (docs/topologies.md §8),
/// adjacency computed arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HyperX {
    shape: Shape,
    trunk: u16,
    terminals: u16,
    /// First port of every dimension: `T + K·Σ_{j<i}(S_j - 1)`.
    offsets: Vec<PortIndex, MAX_DIMS>,
    radix: PortIndex,
    num_terminals: u32,
}

/// Where a HyperX network port leads, relative to its switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HyperXPort {
    /// Dimension `i` the link runs in.
    pub dim: usize,
    /// Coordinate `v ≠ x_i` of the peer in that dimension.
    pub value: u32,
    /// Which of the `K` parallel links (`0..K`).
    pub trunk: u16,
}

impl HyperX {
    /// HyperX with sizes `S_0..S_{L-1}` (1 to 16 dimensions, every size at least 1),
    /// trunking `K >= 1` and `T` terminals per switch; radix `T + K·Σ(S_i - 1) <= 65535`.
    ///
    /// # Examples
    ///
    /// The \[HX\] system: 12 × 8 switches, `K = 1`, `T = 7` terminals per switch.
    ///
    /// ```
    /// use jumpnet_core::topology::{HyperX, Topology};
    ///
    /// let hx = HyperX::new(&[12, 8], 1, 7)?;
    /// assert_eq!((hx.num_switches(), hx.num_terminals()), (96, 672));
    /// // Radix T + K·((12 − 1) + (8 − 1)) = 7 + 18 = 25; 18 of them are network ports.
    /// assert_eq!((hx.radix(), hx.degree(0)), (25, 18));
    /// // Switch (3, 5) has id 3 + 12·5; dimension 1's ports follow the 11 of dimension 0.
    /// assert_eq!(hx.switch_id(&[3, 5]), Some(63));
    /// assert_eq!(hx.dim_ports(0), Some(7..18));
    /// assert_eq!(hx.dim_ports(1), Some(18..25));
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn new(sizes: &[u32], trunk_k: u16, terminals_t: u16) -> Result<Self, TopologyError> {
        let shape = Shape::new(sizes, "sizes")?;
        if trunk_k == 0 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "K",
                value: 0,
                rule: "HyperX trunking needs K >= 1",
            }));
        }
        let mut offsets = Vec::new();
        let mut next = terminals_t as u64;
        for &s in shape.sizes() {
            // `next` is checked before it is stored, so every offset fits a port index.
            let _ = offsets.push(check_radix(next)?);
            next += trunk_k as u64 * (s as u64 - 1);
        }
        let radix = check_radix(next)?;
        let num_terminals = check_terminals(shape.count() as u64 * terminals_t as u64)?;
        Ok(HyperX {
            shape,
            trunk: trunk_k,
            terminals: terminals_t,
            offsets,
            radix,
            num_terminals,
        })
    }

    /// The coordinate system (sizes and strides).
    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Sizes `S_0..S_{L-1}`.
    #[inline]
    pub fn sizes(&self) -> &[u32] {
        self.shape.sizes()
    }

    /// Number of dimensions `L`.
    #[inline]
    pub fn dims(&self) -> usize {
        self.shape.dims()
    }

    /// Trunking `K` (parallel links between neighbours).
    #[inline]
    pub fn trunk(&self) -> u16 {
        self.trunk
    }

    /// Terminals per switch `T` (on ports `0..T`).
    #[inline]
    pub fn terminals_per_switch(&self) -> u16 {
        self.terminals
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

    /// Port range of dimension `dim` (`K·(S_dim - 1)` ports); `None` when out of range.
    pub fn dim_ports(&self, dim: usize) -> Option<Range<PortIndex>> {
        let start = *self.offsets.get(dim)?;
        let len = self.trunk as u32 * (self.shape.size(dim)? - 1);
        Some(start..start + len as PortIndex)
    }

    /// Port of `switch` whose link (trunk `trunk`) leads to the switch with coordinate
    /// `value` in dimension `dim` and the same other coordinates. `None` when `value` equals
    /// the switch's own coordinate or any argument is out of range.
    pub fn port_to(
        &self,
        switch: SwitchId,
        dim: usize,
        value: u32,
        trunk: u16,
    ) -> Option<PortIndex> {
        let x = self.shape.coord(switch, dim)?;
        if value == x || value >= self.shape.size(dim)? || trunk >= self.trunk {
            return None;
        }
        self.port_of(dim, x, value, trunk)
    }

    /// Dimension, peer coordinate and trunk of network port `port` of `switch`; `None` for
    /// terminal ports and out-of-range arguments.
    pub fn port_target(&self, switch: SwitchId, port: PortIndex) -> Option<HyperXPort> {
        if port < self.terminals || port >= self.radix {
            return None;
        }
        for dim in 0..self.dims() {
            let range = self.dim_ports(dim)?;
            if range.contains(&port) {
                let q = port - range.start;
                let index = (q / self.trunk) as u32;
                let x = self.shape.coord(switch, dim)?;
                let value = if index < x { index } else { index + 1 };
                return Some(HyperXPort {
                    dim,
                    value,
                    trunk: q % self.trunk,
                });
            }
        }
        None
    }

    /// Port, on a switch with coordinate `x` in `dim`, towards value `value ≠ x`.
    #[inline]
    fn port_of(&self, dim: usize, x: u32, value: u32, trunk: u16) -> Option<PortIndex> {
        let index = if value < x { value } else { value - 1 };
        let start = *self.offsets.get(dim)?;
        Some(start + index as PortIndex * self.trunk + trunk)
    }
}

impl Topology for HyperX {
    fn family(&self) -> Family {
        Family::HyperX
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
        if switch >= self.shape.count() {
            return Port::Unconnected;
        }
        if port < self.terminals {
            return Port::Terminal(switch * self.terminals as u32 + port as u32);
        }
        let Some(target) = self.port_target(switch, port) else {
            return Port::Unconnected;
        };
        let peer = self.shape.with_coord(switch, target.dim, target.value);
        let x = self.shape.coord(switch, target.dim);
        let back = x.and_then(|x| self.port_of(target.dim, target.value, x, target.trunk));
        match (peer, back) {
            (Some(peer), Some(peer_port)) => Port::Link(Link {
                peer,
                peer_port,
                class: LinkClass::Dim(target.dim as u8),
            }),
            _ => Port::Unconnected,
        }
    }

    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        let tps = self.terminals as u32;
        if t >= self.num_terminals || tps == 0 {
            return None;
        }
        Some((t / tps, (t % tps) as PortIndex))
    }

    fn symmetry(&self) -> Symmetry {
        // Cartesian product of complete (multi)graphs: a Cayley graph.
        Symmetry::VertexTransitive
    }
}

#[cfg(test)]
mod tests {
    use std::string::ToString;
    use std::vec::Vec;

    use super::*;
    use crate::error::CapacityError;
    use crate::topology::testutil::{
        assert_port_symmetry, assert_same_histogram_everywhere, diameter_aspl, neighbours,
    };

    const CASES: [(&[u32], u16, u16); 8] = [
        (&[2], 1, 1),
        (&[5], 2, 0),
        (&[3, 4], 1, 2),
        (&[2, 3, 4], 2, 1),
        (&[1, 4], 3, 0),
        (&[3, 3, 3], 1, 2),
        (&[4, 1, 2, 3], 1, 1),
        (&[12, 8], 1, 7),
    ];

    #[test]
    fn structure_radix_degree_neighbours_diameter() {
        for (sizes, k, t) in CASES {
            let h = HyperX::new(sizes, k, t).unwrap();
            assert_eq!(h.family(), Family::HyperX);
            assert_eq!(h.symmetry(), Symmetry::VertexTransitive);
            let net: u32 = sizes.iter().map(|&s| s - 1).sum::<u32>() * k as u32;
            assert_eq!(h.radix() as u32, t as u32 + net, "radix T + K·Σ(S-1)");
            let n: u32 = sizes.iter().product();
            assert_eq!(h.num_switches(), n);
            assert_eq!(h.num_terminals(), n * t as u32);
            assert_port_symmetry(&h);
            for s in 0..n {
                assert_eq!(h.degree(s), net);
                // Independent rule: neighbours differ in exactly one coordinate, K times.
                let c = h.coords(s).unwrap();
                let mut expect = Vec::new();
                for v in 0..n {
                    let d = h.coords(v).unwrap();
                    if c.iter().zip(d.iter()).filter(|(a, b)| a != b).count() == 1 {
                        expect.extend(core::iter::repeat_n(v, k as usize));
                    }
                }
                assert_eq!(neighbours(&h, s), expect);
                for p in 0..t {
                    assert_eq!(h.port(s, p), Port::Terminal(s * t as u32 + p as u32));
                }
            }
            assert_same_histogram_everywhere(&h);
            let (diam, _) = diameter_aspl(&h);
            let nontrivial = sizes.iter().filter(|&&s| s > 1).count() as u32;
            assert_eq!(diam, nontrivial, "HyperX {sizes:?} switch-level diameter");
        }
    }

    #[test]
    fn port_order_follows_the_spec() {
        // S = (4, 3), K = 2, T = 1; switch 9 = (1, 2).
        let h = HyperX::new(&[4, 3], 2, 1).unwrap();
        assert_eq!(h.radix(), 11);
        assert_eq!(h.port(9, 0), Port::Terminal(9));
        let link = |p| {
            let l = h.port(9, p).link().unwrap();
            (l.peer, l.peer_port, l.class)
        };
        let d0 = LinkClass::Dim(0);
        let d1 = LinkClass::Dim(1);
        assert_eq!(link(1), (8, 1, d0));
        assert_eq!(link(2), (8, 2, d0));
        assert_eq!(link(3), (10, 3, d0));
        assert_eq!(link(4), (10, 4, d0));
        assert_eq!(link(5), (11, 3, d0));
        assert_eq!(link(6), (11, 4, d0));
        assert_eq!(link(7), (1, 9, d1));
        assert_eq!(link(8), (1, 10, d1));
        assert_eq!(link(9), (5, 9, d1));
        assert_eq!(link(10), (5, 10, d1));
        assert_eq!(h.port(9, 11), Port::Unconnected);
        assert_eq!(h.dim_ports(0), Some(1..7));
        assert_eq!(h.dim_ports(1), Some(7..11));
        assert_eq!(h.dim_ports(2), None);
        assert_eq!(h.port_to(9, 0, 3, 1), Some(6));
        assert_eq!(h.port_to(9, 1, 0, 0), Some(7));
        assert_eq!(h.port_to(9, 0, 1, 0), None);
        assert_eq!(h.port_to(9, 0, 4, 0), None);
        assert_eq!(h.port_to(9, 0, 0, 2), None);
        assert_eq!(
            h.port_target(9, 6),
            Some(HyperXPort {
                dim: 0,
                value: 3,
                trunk: 1
            })
        );
        assert_eq!(h.port_target(9, 0), None);
        assert_eq!(h.port_target(9, 11), None);
        assert_eq!(h.switch_id(&[1, 2]), Some(9));
        assert_eq!(h.coord(9, 1), Some(2));
    }

    #[test]
    fn port_to_and_port_target_are_inverse() {
        let h = HyperX::new(&[3, 1, 4], 2, 3).unwrap();
        for s in 0..h.num_switches() {
            for p in 0..h.radix() {
                match h.port_target(s, p) {
                    Some(t) => {
                        assert_eq!(h.port_to(s, t.dim, t.value, t.trunk), Some(p));
                        let peer = h.port(s, p).link().unwrap().peer;
                        assert_eq!(h.coord(peer, t.dim), Some(t.value));
                    }
                    None => assert!(p < 3),
                }
            }
        }
    }

    #[test]
    fn hx_system_12x8_counts_and_bisection() {
        // [HX]: S = (12, 8), K = 1, T = 7.
        let h = HyperX::new(&[12, 8], 1, 7).unwrap();
        assert_eq!(h.num_switches(), 96);
        assert_eq!(h.num_terminals(), 672);
        assert_eq!(h.radix() - 7, 18, "network radix");
        assert_eq!(h.radix(), 25);
        // Cut the size-8 dimension 4|4 and count links across (each once, from the low half).
        let mut crossing = 0;
        let mut low_terminals = 0;
        for s in 0..h.num_switches() {
            let low = h.coord(s, 1).unwrap() < 4;
            if !low {
                continue;
            }
            low_terminals += h.terminals_per_switch() as u32;
            h.for_each_link(s, |_, l| {
                if h.coord(l.peer, 1).unwrap() >= 4 {
                    crossing += 1;
                }
            });
        }
        assert_eq!(crossing, 192);
        assert_eq!(low_terminals, 336);
        assert_eq!(crossing * 1000 / low_terminals, 571, "57.1 % bisection");
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        assert_eq!(
            HyperX::new(&[4, 4], 0, 1).unwrap_err().to_string(),
            "HyperX trunking needs K >= 1, got K = 0"
        );
        assert!(matches!(
            HyperX::new(&[], 1, 1),
            Err(TopologyError::Invalid(InvalidParam { param: "sizes", .. }))
        ));
        assert!(matches!(
            HyperX::new(&[3, 0], 1, 1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "sizes",
                value: 0,
                ..
            }))
        ));
        assert!(matches!(
            HyperX::new(&[2; 17], 1, 1),
            Err(TopologyError::Capacity(CapacityError {
                what: "dimensions",
                ..
            }))
        ));
        assert!(matches!(
            HyperX::new(&[2, 30_000], 3, 0),
            Err(TopologyError::Invalid(InvalidParam {
                param: "radix",
                value: 90_000,
                ..
            }))
        ));
        assert!(matches!(
            HyperX::new(&[1 << 10, 1 << 10, 1 << 10], 1, 2),
            Err(TopologyError::Invalid(InvalidParam {
                param: "terminals",
                value: 2_147_483_648,
                ..
            }))
        ));
        assert!(matches!(
            HyperX::new(&[1 << 16, 1 << 15], 1, 1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                ..
            }))
        ));
    }
}
