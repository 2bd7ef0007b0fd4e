//! Hypercube (docs/topologies.md §5).
//!
//! `2^n` switches, `u ~ u XOR 2^i`; port `i` is dimension `i` (class `Dim(i)`), and
//! `terminals_per_switch` terminal ports follow the `n` network ports (terminal id =
//! `switch · terminals_per_switch + i`).

use super::limits::{check_radix, check_switches, check_terminals};
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, Symmetry, TerminalId, Topology,
    TopologyError,
};
use crate::error::InvalidParam;

/// Largest hypercube dimension (`2^30` switches, see
/// [`MAX_SWITCHES`](super::limits::MAX_SWITCHES)).
pub const MAX_DIM: u32 = 30;

/// Binary hypercube of dimension `n` (docs/topologies.md §5), adjacency computed
/// arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hypercube {
    dim: u32,
    terminals_per_switch: u16,
    num_switches: u32,
    num_terminals: u32,
    radix: PortIndex,
}

impl Hypercube {
    /// Hypercube of dimension `dim` (`1..=30`) with `terminals_per_switch` terminals on every
    /// switch.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::topology::{Hypercube, LinkClass, Topology};
    ///
    /// let cube = Hypercube::new(4, 1)?;
    /// assert_eq!((cube.num_switches(), cube.degree(0), cube.radix()), (16, 4, 5));
    /// // Port i flips address bit i: 0b0101 → 0b1101 on port 3.
    /// let link = cube.port(5, 3).link().unwrap();
    /// assert_eq!((link.peer, link.peer_port, link.class), (13, 3, LinkClass::Dim(3)));
    /// assert!(Hypercube::new(31, 1).is_err());
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn new(dim: u32, terminals_per_switch: u16) -> Result<Self, TopologyError> {
        if dim == 0 || dim > MAX_DIM {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "dim",
                value: dim as u64,
                rule: "a hypercube needs dimension 1..=30",
            }));
        }
        let num_switches = check_switches(1u64 << dim)?;
        let num_terminals = check_terminals(num_switches as u64 * terminals_per_switch as u64)?;
        let radix = check_radix(dim as u64 + terminals_per_switch as u64)?;
        Ok(Hypercube {
            dim,
            terminals_per_switch,
            num_switches,
            num_terminals,
            radix,
        })
    }

    /// Dimension `n` (= network ports per switch = diameter).
    #[inline]
    pub fn dim(&self) -> u32 {
        self.dim
    }

    /// Terminals attached to every switch.
    #[inline]
    pub fn terminals_per_switch(&self) -> u16 {
        self.terminals_per_switch
    }

    /// Port of dimension `d` (`d` itself); `None` when `d >= dim`.
    #[inline]
    pub fn dim_port(&self, d: u32) -> Option<PortIndex> {
        (d < self.dim).then_some(d as PortIndex)
    }
}

impl Topology for Hypercube {
    fn family(&self) -> Family {
        Family::Hypercube
    }

    fn num_switches(&self) -> u32 {
        self.num_switches
    }

    fn num_terminals(&self) -> u32 {
        self.num_terminals
    }

    fn radix(&self) -> PortIndex {
        self.radix
    }

    #[inline]
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        if switch >= self.num_switches || port >= self.radix {
            return Port::Unconnected;
        }
        let p = port as u32;
        if p < self.dim {
            Port::Link(Link {
                peer: switch ^ (1 << p),
                peer_port: port,
                class: LinkClass::Dim(p as u8),
            })
        } else {
            Port::Terminal(switch * self.terminals_per_switch as u32 + (p - self.dim))
        }
    }

    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        let tps = self.terminals_per_switch as u32;
        if t >= self.num_terminals || tps == 0 {
            return None;
        }
        Some((t / tps, (self.dim + t % tps) as PortIndex))
    }

    fn symmetry(&self) -> Symmetry {
        // Cayley graph of Z_2^n.
        Symmetry::VertexTransitive
    }
}

#[cfg(test)]
mod tests {
    use std::string::ToString;

    use super::*;
    use crate::topology::testutil::{assert_port_symmetry, assert_same_histogram_everywhere};

    fn binomial(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn structure_degree_and_diameter() {
        for dim in 1..=8u32 {
            for tps in [0u16, 1, 2] {
                let h = Hypercube::new(dim, tps).unwrap();
                assert_eq!(h.num_switches(), 1 << dim);
                assert_eq!(h.num_terminals(), (1 << dim) * tps as u32);
                assert_eq!(h.radix() as u32, dim + tps as u32);
                assert_port_symmetry(&h);
                for s in 0..h.num_switches() {
                    assert_eq!(h.degree(s), dim);
                }
            }
            let h = Hypercube::new(dim, 1).unwrap();
            // Same histogram from every switch; from any switch exactly C(n, d) switches at
            // distance d, so the diameter is n (not n/2) and the distance sum n·2^(n-1).
            let hist = assert_same_histogram_everywhere(&h);
            assert_eq!(hist.len() as u32 - 1, dim, "diameter of the {dim}-cube");
            for (d, &count) in hist.iter().enumerate() {
                assert_eq!(count, binomial(dim as u64, d as u64));
            }
            let sum: u64 = hist.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
            assert_eq!(sum, dim as u64 * (1 << (dim - 1)));
        }
    }

    #[test]
    fn ports_flip_one_bit() {
        let h = Hypercube::new(4, 2).unwrap();
        let l = h.port(0b0101, 1).link().unwrap();
        assert_eq!(
            (l.peer, l.peer_port, l.class),
            (0b0111, 1, LinkClass::Dim(1))
        );
        assert_eq!(h.port(0b0101, 3).link().unwrap().peer, 0b1101);
        assert_eq!(h.port(5, 4), Port::Terminal(10));
        assert_eq!(h.port(5, 5), Port::Terminal(11));
        assert_eq!(h.port(5, 6), Port::Unconnected);
        assert_eq!(h.port(16, 0), Port::Unconnected);
        assert_eq!(h.terminal_port(11), Some((5, 5)));
        assert_eq!(h.terminal_port(32), None);
        assert_eq!(h.dim_port(3), Some(3));
        assert_eq!(h.dim_port(4), None);
        assert_eq!(h.family(), Family::Hypercube);
        assert_eq!(h.symmetry(), Symmetry::VertexTransitive);
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        assert_eq!(
            Hypercube::new(0, 1).unwrap_err().to_string(),
            "a hypercube needs dimension 1..=30, got dim = 0"
        );
        assert!(matches!(
            Hypercube::new(31, 1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "dim",
                value: 31,
                ..
            }))
        ));
        assert!(matches!(
            Hypercube::new(30, 2),
            Err(TopologyError::Invalid(InvalidParam {
                param: "terminals",
                ..
            }))
        ));
        assert!(matches!(
            Hypercube::new(3, u16::MAX),
            Err(TopologyError::Invalid(InvalidParam { param: "radix", .. }))
        ));
        assert!(Hypercube::new(30, 1).is_ok());
    }
}
