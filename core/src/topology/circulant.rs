//! Ring, circulant `C(n; c1..ck)` and `G(n, log2 n)` (docs/topologies.md §1–2).
//!
//! Switch `a` is joined to `a ± c_i (mod n)` for every jump `c_i`. Ports (§2, project choice):
//! port `2(i-1)` → `a + c_i`, port `2(i-1)+1` → `a - c_i`; when `c_i = n/2` only the `+` port
//! exists. The ring is `C(n; 1)` with ports 0 → `a+1`, 1 → `a-1` (§1; `n = 2` has one port).
//! Every switch holds exactly one terminal (terminal id = switch id) on the port right after
//! the network ports (§0, direct topology).

use crate::error::{CapacityError, InvalidParam};
use heapless::Vec;

use super::limits::check_switches;
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, Symmetry, TerminalId, Topology,
    TopologyError,
};

/// Largest number of jumps of a circulant (enough for `G(2^30, 30)`).
pub const MAX_JUMPS: usize = 32;

/// Ring, circulant `C(n; jumps)` or `G(n, log2 n)` (docs/topologies.md §1–2), adjacency
/// computed arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circulant {
    family: Family,
    n: u32,
    jumps: Vec<u32, MAX_JUMPS>,
    network_ports: PortIndex,
}

impl Circulant {
    /// Ring of `n >= 2` switches (docs/topologies.md §1), i.e. `C(n; 1)` reported as
    /// [`Family::Ring`].
    pub fn ring(n: u32) -> Result<Self, TopologyError> {
        if n < 2 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "a ring needs n >= 2",
            }));
        }
        Self::build(Family::Ring, n, &[1])
    }

    /// Circulant `C(n; jumps)` (docs/topologies.md §2): `n >= 2`, jumps start with 1, are
    /// strictly increasing and at most `floor(n/2)`; at most [`MAX_JUMPS`] jumps.
    pub fn new(n: u32, jumps: &[u32]) -> Result<Self, TopologyError> {
        Self::build(Family::Circulant, n, jumps)
    }

    /// `G(n, log2 n) = C(n; 1, 2, 4, ..., n/2)` for `n` a power of two, `n >= 2`
    /// (docs/topologies.md §2).
    ///
    /// # Examples
    ///
    /// `G(16, 4) = C(16; 1, 2, 4, 8)`: jumps ±1, ±2, ±4 on ports 0–5 and the jump `8 = n/2` on
    /// port 6 only, so the degree is `2·4 − 1 = 7`; the terminal follows on port 7.
    ///
    /// ```
    /// use jumpnet_core::topology::{Circulant, Port, Topology};
    ///
    /// let g = Circulant::g(16)?;
    /// assert_eq!(g.jumps(), &[1, 2, 4, 8]);
    /// assert_eq!((g.num_switches(), g.degree(0), g.radix()), (16, 7, 8));
    /// // Switch 3: port 2 is +2, port 5 is −4 (mod 16), port 6 is +8.
    /// let peer = |port| g.port(3, port).link().map(|l| l.peer);
    /// assert_eq!((peer(2), peer(5), peer(6)), (Some(5), Some(15), Some(11)));
    /// assert_eq!(g.port(3, 7), Port::Terminal(3));
    /// // n must be a power of two.
    /// assert!(Circulant::g(24).is_err());
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn g(n: u32) -> Result<Self, TopologyError> {
        if !n.is_power_of_two() {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "G(n, log2 n) needs n a power of two",
            }));
        }
        if n < 2 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "G(n, log2 n) needs n >= 2",
            }));
        }
        check_switches(n as u64)?;
        let mut jumps: Vec<u32, MAX_JUMPS> = Vec::new();
        for i in 0..n.trailing_zeros() {
            jumps.push(1 << i).map_err(|_| {
                TopologyError::Capacity(CapacityError {
                    what: "jumps",
                    needed: n.trailing_zeros() as u64,
                    available: MAX_JUMPS as u64,
                })
            })?;
        }
        Self::build(Family::CirculantG, n, &jumps)
    }

    fn build(family: Family, n: u32, jumps: &[u32]) -> Result<Self, TopologyError> {
        if n < 2 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "a circulant needs n >= 2",
            }));
        }
        check_switches(n as u64)?;
        if jumps.is_empty() {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "jumps",
                value: 0,
                rule: "a circulant needs at least one jump",
            }));
        }
        let mut own: Vec<u32, MAX_JUMPS> = Vec::new();
        own.extend_from_slice(jumps).map_err(|_| {
            TopologyError::Capacity(CapacityError {
                what: "jumps",
                needed: jumps.len() as u64,
                available: MAX_JUMPS as u64,
            })
        })?;
        let mut prev = 0u32;
        for (i, &c) in jumps.iter().enumerate() {
            if i == 0 && c != 1 {
                return Err(TopologyError::Invalid(InvalidParam {
                    param: "jumps",
                    value: c as u64,
                    rule: "the first jump must be c1 = 1",
                }));
            }
            if i > 0 && c <= prev {
                return Err(TopologyError::Invalid(InvalidParam {
                    param: "jumps",
                    value: c as u64,
                    rule: "jumps must be strictly increasing",
                }));
            }
            if c > n / 2 {
                return Err(TopologyError::Invalid(InvalidParam {
                    param: "jumps",
                    value: c as u64,
                    rule: "jumps must be at most floor(n/2)",
                }));
            }
            prev = c;
        }
        // Only the last jump can equal n/2 (jumps are strictly increasing and <= n/2).
        let full = 2 * jumps.len() as u64;
        let ports = if 2 * prev as u64 == n as u64 {
            full - 1
        } else {
            full
        };
        Ok(Circulant {
            family,
            n,
            jumps: own,
            network_ports: ports as PortIndex,
        })
    }

    /// Number of switches `n` (= number of terminals).
    #[inline]
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The jump sequence `c1 < c2 < ... < ck`.
    #[inline]
    pub fn jumps(&self) -> &[u32] {
        &self.jumps
    }

    /// Number of network ports of every switch: `2k`, or `2k - 1` when `ck = n/2`
    /// (docs/topologies.md §2). The terminal port has this index.
    #[inline]
    pub fn network_ports(&self) -> PortIndex {
        self.network_ports
    }

    /// Port that follows jump `index` (0-based, `c_{index+1}`) forward (`+c`) or backward
    /// (`-c`). When the jump is `n/2` both directions use the single `+` port. `None` when
    /// `index` is out of range.
    #[inline]
    pub fn jump_port(&self, index: usize, forward: bool) -> Option<PortIndex> {
        let c = *self.jumps.get(index)?;
        let plus = (2 * index) as PortIndex;
        if forward || 2 * c as u64 == self.n as u64 {
            Some(plus)
        } else {
            Some(plus + 1)
        }
    }

    /// Jump index and direction (`true` = `+c`) of network port `port`; `None` for the
    /// terminal port and beyond.
    #[inline]
    pub fn port_jump(&self, port: PortIndex) -> Option<(usize, bool)> {
        if port >= self.network_ports {
            return None;
        }
        Some((port as usize / 2, port.is_multiple_of(2)))
    }
}

impl Topology for Circulant {
    fn family(&self) -> Family {
        self.family
    }

    fn num_switches(&self) -> u32 {
        self.n
    }

    fn num_terminals(&self) -> u32 {
        self.n
    }

    fn radix(&self) -> PortIndex {
        self.network_ports + 1
    }

    #[inline]
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        if switch >= self.n {
            return Port::Unconnected;
        }
        if port == self.network_ports {
            return Port::Terminal(switch);
        }
        let Some((index, forward)) = self.port_jump(port) else {
            return Port::Unconnected;
        };
        let Some(&c) = self.jumps.get(index) else {
            return Port::Unconnected;
        };
        let n = self.n as u64;
        let (peer, peer_port) = if forward {
            let back = if 2 * c as u64 == n { port } else { port + 1 };
            ((switch as u64 + c as u64) % n, back)
        } else {
            ((switch as u64 + n - c as u64) % n, port - 1)
        };
        Port::Link(Link {
            peer: peer as SwitchId,
            peer_port,
            class: LinkClass::Dim(index as u8),
        })
    }

    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        (t < self.n).then_some((t, self.network_ports))
    }

    fn symmetry(&self) -> Symmetry {
        // Circulants are Cayley graphs of Z_n.
        Symmetry::VertexTransitive
    }
}

#[cfg(test)]
mod tests {
    use std::format;
    use std::string::ToString;
    use std::vec::Vec;

    use super::*;
    use crate::topology::testutil::{
        assert_port_symmetry, assert_same_histogram_everywhere, bfs, diameter_aspl, neighbours,
    };

    /// Weight of the non-adjacent form of `x` (minimal number of signed powers of two).
    fn naf_weight(mut x: u64) -> u32 {
        let mut w = 0;
        while x != 0 {
            if x & 1 == 1 {
                w += 1;
                // Digit +1 when x ≡ 1 (mod 4), −1 when x ≡ 3 (mod 4).
                if x & 3 == 3 {
                    x += 1;
                } else {
                    x -= 1;
                }
            }
            x >>= 1;
        }
        w
    }

    /// docs/topologies.md §2 table (n = 2^k, k = 2..13): degree, diameter, ASPL · 10^4.
    const A1: [(u32, u32, u32, u64); 12] = [
        (4, 3, 1, 10000),
        (8, 5, 2, 12857),
        (16, 7, 2, 15333),
        (32, 9, 3, 18387),
        (64, 11, 3, 21429),
        (128, 13, 4, 24646),
        (256, 15, 4, 27882),
        (512, 17, 5, 31174),
        (1024, 19, 5, 34477),
        (2048, 21, 6, 37797),
        (4096, 23, 6, 41121),
        (8192, 25, 7, 44450),
    ];

    #[test]
    fn a1_g_table_degree_diameter_aspl() {
        for &(n, degree, diameter, aspl_e4) in &A1 {
            let g = Circulant::g(n).unwrap();
            assert_eq!(g.family(), Family::CirculantG);
            assert_eq!(g.symmetry(), Symmetry::VertexTransitive);
            for s in [0, 1, n / 2, n - 1] {
                assert_eq!(g.degree(s), degree, "degree of G({n}) at {s}");
            }
            // Vertex-transitive: one BFS from switch 0 gives every eccentricity and the
            // distance sum of every source (confirmed by all-pairs below for small n).
            let d = bfs(&g, 0);
            let ecc = *d.iter().max().unwrap();
            let sum: u64 = d.iter().map(|&x| x as u64).sum();
            assert_eq!(ecc, diameter, "diameter of G({n})");
            let rounded = (sum * 20_000 + (n as u64 - 1)) / (2 * (n as u64 - 1));
            assert_eq!(rounded, aspl_e4, "ASPL of G({n}) to 4 decimals");
        }
    }

    #[test]
    fn a1_small_g_is_transitive_by_all_pairs() {
        for &(n, _, diameter, aspl_e4) in A1.iter().take(7) {
            let g = Circulant::g(n).unwrap();
            assert_same_histogram_everywhere(&g);
            let (diam, aspl) = diameter_aspl(&g);
            assert_eq!(diam, diameter);
            assert_eq!((aspl * 10_000.0).round() as u64, aspl_e4);
        }
    }

    #[test]
    fn g_distance_is_naf_weight() {
        // docs/topologies.md §2: d(v0, vx) = minimal number of signed powers of two summing
        // to x (mod n).
        for k in 1..=13 {
            let n = 1u32 << k;
            let g = Circulant::g(n).unwrap();
            let d = bfs(&g, 0);
            for x in 0..n {
                let expect = naf_weight(x as u64).min(naf_weight((n - x) as u64));
                assert_eq!(d[x as usize], expect, "G({n}) distance to {x}");
            }
        }
    }

    #[test]
    fn g_1024_has_degree_19_and_jumps_powers_of_two() {
        let g = Circulant::g(1024).unwrap();
        assert_eq!(g.jumps(), &[1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
        assert_eq!(g.network_ports(), 19);
        assert_eq!(g.radix(), 20);
        assert_eq!(Circulant::g(16).unwrap().jumps(), &[1, 2, 4, 8]);
    }

    #[test]
    fn port_order_follows_the_spec() {
        // G(16,4) = C(16; 1,2,4,8), switch 3.
        let g = Circulant::g(16).unwrap();
        let peers: Vec<(u32, u16)> = (0..7)
            .map(|p| {
                let l = g.port(3, p).link().unwrap();
                (l.peer, l.peer_port)
            })
            .collect();
        assert_eq!(
            peers,
            [(4, 1), (2, 0), (5, 3), (1, 2), (7, 5), (15, 4), (11, 6)]
        );
        for p in 0..7u16 {
            assert_eq!(
                g.port(3, p).link().unwrap().class,
                LinkClass::Dim((p / 2) as u8)
            );
        }
        assert_eq!(g.port(3, 7), Port::Terminal(3));
        assert_eq!(g.port(3, 8), Port::Unconnected);
        assert_eq!(g.terminal_port(3), Some((3, 7)));
        assert_eq!(g.jump_port(3, false), Some(6));
        assert_eq!(g.jump_port(1, false), Some(3));
        assert_eq!(g.jump_port(4, true), None);
        assert_eq!(g.port_jump(5), Some((2, false)));
        assert_eq!(g.port_jump(7), None);
    }

    #[test]
    fn ring_ports_and_diameter() {
        let r2 = Circulant::ring(2).unwrap();
        assert_eq!(r2.radix(), 2);
        assert_eq!(
            r2.port(0, 0),
            Port::Link(Link {
                peer: 1,
                peer_port: 0,
                class: LinkClass::Dim(0)
            })
        );
        assert_eq!(r2.port(0, 1), Port::Terminal(0));
        for n in 2..=17u32 {
            let r = Circulant::ring(n).unwrap();
            assert_eq!(r.family(), Family::Ring);
            assert_port_symmetry(&r);
            let l0 = r.port(0, 0).link().unwrap();
            assert_eq!(l0.peer, 1 % n);
            if n > 2 {
                assert_eq!(r.port(0, 1).link().unwrap().peer, n - 1);
                assert_eq!(r.degree(0), 2);
            } else {
                assert_eq!(r.degree(0), 1);
            }
            assert_eq!(diameter_aspl(&r).0, n / 2, "ring {n} diameter");
            assert_same_histogram_everywhere(&r);
        }
    }

    #[test]
    fn circulants_are_symmetric_connected_with_expected_degree() {
        let cases: [(u32, &[u32]); 9] = [
            (5, &[1, 2]),
            (9, &[1, 2, 4]),
            (10, &[1, 3, 5]),
            (12, &[1, 2, 6]),
            (12, &[1, 5]),
            (13, &[1, 5, 6]),
            (16, &[1, 2, 4, 8]),
            (20, &[1, 4, 7, 10]),
            (31, &[1, 2, 3, 7, 11, 15]),
        ];
        for (n, jumps) in cases {
            let c = Circulant::new(n, jumps).unwrap();
            assert_eq!(c.family(), Family::Circulant);
            assert_port_symmetry(&c);
            let k = jumps.len() as u32;
            let expect = if 2 * jumps[jumps.len() - 1] == n {
                2 * k - 1
            } else {
                2 * k
            };
            for s in 0..n {
                assert_eq!(c.degree(s), expect, "C({n}; {jumps:?}) degree at {s}");
                // Independent neighbour set: a ± c_i mod n.
                let mut nb: Vec<u32> = jumps
                    .iter()
                    .flat_map(|&j| [(s + j) % n, (s + n - j) % n])
                    .collect();
                nb.sort_unstable();
                nb.dedup();
                assert_eq!(neighbours(&c, s), nb);
            }
            assert_same_histogram_everywhere(&c);
            assert_eq!(c.num_terminals(), n);
        }
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        let e = Circulant::g(1000).unwrap_err();
        assert_eq!(
            e,
            TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 1000,
                rule: "G(n, log2 n) needs n a power of two"
            })
        );
        assert_eq!(
            e.to_string(),
            "G(n, log2 n) needs n a power of two, got n = 1000"
        );
        assert!(matches!(
            Circulant::g(0),
            Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                ..
            }))
        ));
        assert_eq!(
            Circulant::g(1).unwrap_err().to_string(),
            "G(n, log2 n) needs n >= 2, got n = 1"
        );
        assert!(matches!(
            Circulant::g(1 << 31),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                ..
            }))
        ));
        assert!(matches!(
            Circulant::ring(1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 1,
                ..
            }))
        ));
        assert!(matches!(
            Circulant::new(0, &[1]),
            Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                ..
            }))
        ));
        assert!(matches!(
            Circulant::new(u32::MAX, &[1]),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                ..
            }))
        ));
        assert!(matches!(
            Circulant::new(10, &[]),
            Err(TopologyError::Invalid(InvalidParam {
                param: "jumps",
                value: 0,
                ..
            }))
        ));
        assert_eq!(
            Circulant::new(10, &[2, 3]).unwrap_err().to_string(),
            "the first jump must be c1 = 1, got jumps = 2"
        );
        assert_eq!(
            Circulant::new(10, &[1, 3, 3]).unwrap_err(),
            TopologyError::Invalid(InvalidParam {
                param: "jumps",
                value: 3,
                rule: "jumps must be strictly increasing"
            })
        );
        assert_eq!(
            Circulant::new(11, &[1, 6]).unwrap_err(),
            TopologyError::Invalid(InvalidParam {
                param: "jumps",
                value: 6,
                rule: "jumps must be at most floor(n/2)"
            })
        );
        let many: Vec<u32> = (1..=33).collect();
        assert_eq!(
            Circulant::new(1000, &many).unwrap_err(),
            TopologyError::Capacity(CapacityError {
                what: "jumps",
                needed: 33,
                available: 32
            })
        );
        assert!(format!("{}", Circulant::new(4, &[1, 3]).unwrap_err()).contains("floor(n/2)"));
    }

    #[test]
    fn out_of_range_queries_are_unconnected() {
        let c = Circulant::new(7, &[1, 3]).unwrap();
        assert_eq!(c.port(7, 0), Port::Unconnected);
        assert_eq!(c.port(0, 5), Port::Unconnected);
        assert_eq!(c.port(u32::MAX, u16::MAX), Port::Unconnected);
        assert_eq!(c.terminal_port(7), None);
    }
}
