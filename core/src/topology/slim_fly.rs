//! Slim Fly: the McKay–Miller–Širáň graph (docs/topologies.md §9), for prime and prime-power
//! `q` (`GF(q)` arithmetic of [`MmsField::prime_power`]).
//!
//! Routers `(s, x, y)`, `s ∈ {0, 1}`, `x, y ∈ F_q`, id `s·q² + x·q + y`; `2q²` routers of
//! network degree `k' = (3q − δ)/2`; terminal `t` of router `R` has id `R·p + t`.
//!
//! Port order (project choice; the spec leaves it open), with `hs = (q − δ)/2`:
//!
//! | ports | router `(0, x, y)` | router `(1, m, c)` |
//! |---|---|---|
//! | `0..p` | terminal `t` | terminal `t` |
//! | `p + i`, `i < hs` | `(0, x, y + X_i)` | `(1, m, c + X'_i)` |
//! | `p + hs + j`, `j < q` | `(1, j, y − j·x)` (by `m = j` ascending) | `(0, j, j·m + c)` (by `x = j` ascending) |
//!
//! `X_i`, `X'_i` are the generators in spec exponent order ([`MmsField`]). The intra-subgraph
//! port `i` pairs with port `neg_index(i)` at the peer (the index of `−X_i`); cross port `m` of
//! `(0, x, y)` pairs with cross port `x` of `(1, m, y − m·x)`. Intra-subgraph links are
//! [`LinkClass::Local`], cross links [`LinkClass::Global`].

use super::field::MmsField;
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, TerminalId, Topology, TopologyError,
};
use crate::error::InvalidParam;

/// Slim Fly MMS network (docs/topologies.md §9), computed arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlimFly {
    field: MmsField,
    q: u32,
    p: u32,
    /// `hs = |X| = (q − δ)/2` intra-subgraph ports.
    hs: u32,
    switches: u32,
    terminals: u32,
    radix: PortIndex,
}

impl SlimFly {
    /// Slim Fly for a prime or prime-power `q ≥ 3` with `p` terminals per router (`None` =
    /// `ceil(k'/2)`, the \[SF\] full-global-bandwidth choice).
    ///
    /// Rules: `q = 4w + δ` an odd prime, an odd prime power (`δ = ±1`, e.g. 9, 25, 27) or a
    /// power of two ≥ 4 (`δ = 0`) — [`TopologyError::Invalid`] naming `q` otherwise (e.g.
    /// `q = 6`); `2q²` routers and `2q²·p` terminals fit in `u32`; radix `p + k'` ≤ 65535.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::topology::{SlimFly, Topology};
    ///
    /// // q = 5 = 4·1 + 1 (δ = 1): 2q² = 50 routers of network degree (3q − δ)/2 = 7, and by
    /// // default p = ceil(7/2) = 4 terminals per router.
    /// let sf = SlimFly::new(5, None)?;
    /// assert_eq!((sf.num_switches(), sf.network_degree(), sf.p()), (50, 7, 4));
    /// assert_eq!(sf.num_terminals(), 200);
    /// assert!((0..50).all(|r| sf.degree(r) == 7));
    /// // Router (s, x, y) = (1, 2, 3) has id s·q² + x·q + y = 38.
    /// assert_eq!(sf.router(1, 2, 3), Some(38));
    /// // q = 9 = 3² uses GF(9) arithmetic; 6 is not a prime power.
    /// assert_eq!(SlimFly::new(9, Some(1))?.num_switches(), 162);
    /// assert!(SlimFly::new(6, None).is_err());
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn new(q: u32, p: Option<u16>) -> Result<Self, TopologyError> {
        let field = MmsField::prime_power(q)?;
        let hs = field.generator_count();
        let k = hs + q;
        let p = match p {
            Some(p) => p as u32,
            None => k.div_ceil(2),
        };
        let switches = 2 * q as u64 * q as u64;
        if switches > u32::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "q",
                value: q as u64,
                rule: "a Slim Fly needs 2·q² < 2^32 routers (q ≤ 46337)",
            }));
        }
        let terminals = switches * p as u64;
        if terminals > u32::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "p",
                value: p as u64,
                rule: "a Slim Fly needs 2·q²·p < 2^32 terminals",
            }));
        }
        let radix = p as u64 + k as u64;
        if radix > PortIndex::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "p",
                value: p as u64,
                rule: "a Slim Fly needs radix p + (3q − δ)/2 ≤ 65535",
            }));
        }
        Ok(SlimFly {
            field,
            q,
            p,
            hs,
            switches: switches as u32,
            terminals: terminals as u32,
            radix: radix as PortIndex,
        })
    }

    /// The field size `q`.
    pub fn q(&self) -> u32 {
        self.q
    }

    /// Terminals per router `p`.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// The field with `ξ`, `δ`, `X`, `X'`.
    pub fn field(&self) -> &MmsField {
        &self.field
    }

    /// Network degree `k' = (3q − δ)/2` of every router.
    pub fn network_degree(&self) -> u32 {
        self.hs + self.q
    }

    /// Number of intra-subgraph ports `(q − δ)/2`; cross ports start at `p + intra_ports()`.
    pub fn intra_ports(&self) -> u32 {
        self.hs
    }

    /// Router id of `(s, x, y)`, or `None` if `s > 1` or `x, y ≥ q`.
    pub fn router(&self, s: u32, x: u32, y: u32) -> Option<SwitchId> {
        (s < 2 && x < self.q && y < self.q).then(|| (s * self.q + x) * self.q + y)
    }

    /// Coordinates `(s, x, y)` of `switch`, or `None` if out of range.
    pub fn coords(&self, switch: SwitchId) -> Option<(u32, u32, u32)> {
        if switch >= self.switches {
            return None;
        }
        let q = self.q;
        Some((switch / (q * q), switch / q % q, switch % q))
    }
}

impl Topology for SlimFly {
    fn family(&self) -> Family {
        Family::SlimFly
    }

    fn num_switches(&self) -> u32 {
        self.switches
    }

    fn num_terminals(&self) -> u32 {
        self.terminals
    }

    fn radix(&self) -> PortIndex {
        self.radix
    }

    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        let Some((s, x, y)) = self.coords(switch) else {
            return Port::Unconnected;
        };
        let port = port as u32;
        if port < self.p {
            return Port::Terminal(switch * self.p + port);
        }
        let f = &self.field;
        let j = port - self.p;
        if j < self.hs {
            let (Some(d), Some(back)) =
                (if s == 0 { f.x(j) } else { f.x_prime(j) }, f.neg_index(j))
            else {
                return Port::Unconnected;
            };
            let peer = (s * self.q + x) * self.q + f.add(y, d);
            return Port::Link(Link {
                peer,
                peer_port: (self.p + back) as PortIndex,
                class: LinkClass::Local,
            });
        }
        let j = j - self.hs;
        if j >= self.q {
            return Port::Unconnected;
        }
        let (peer, back) = if s == 0 {
            // (0, x, y) ~ (1, m, c) with m = j, c = y − m·x; back port indexed by x.
            let c = f.sub(y, f.mul(j, x));
            ((self.q + j) * self.q + c, x)
        } else {
            // (1, m, c) ~ (0, x, y) with x = j, y = m·x + c; back port indexed by m.
            let yy = f.add(f.mul(x, j), y);
            (j * self.q + yy, x)
        };
        Port::Link(Link {
            peer,
            peer_port: (self.p + self.hs + back) as PortIndex,
            class: LinkClass::Global,
        })
    }

    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        if self.p == 0 || t >= self.terminals {
            return None;
        }
        Some((t / self.p, (t % self.p) as PortIndex))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (common rules)
mod tests {
    use super::*;
    use crate::topology::testutil::{assert_port_symmetry, bfs, diameter_aspl, neighbours};
    use std::collections::BTreeSet;
    use std::vec::Vec;

    /// Independent adjacency test straight from the §9 definition, with X and X' built from
    /// the spec's exponent lists by repeated multiplication.
    fn spec_adjacent(q: u32, xi: u32, a: (u32, u32, u32), b: (u32, u32, u32)) -> bool {
        let q64 = q as u64;
        let delta: i64 = if q % 4 == 1 { 1 } else { -1 };
        let w = ((q as i64 - delta) / 4) as u32;
        let pow = |e: u32| (0..e).fold(1u64, |v, _| v * xi as u64 % q64) as u32;
        let exps: Vec<u32> = if delta == 1 {
            (0..=q - 3).step_by(2).collect()
        } else {
            (0..=2 * w - 2)
                .step_by(2)
                .chain((2 * w - 1..=4 * w - 3).step_by(2))
                .collect()
        };
        let x: BTreeSet<u32> = exps.iter().map(|&e| pow(e)).collect();
        let xp: BTreeSet<u32> = exps.iter().map(|&e| pow(e + 1)).collect();
        let diff = |u: u32, v: u32| ((u as u64 + q64 - v as u64) % q64) as u32;
        match (a.0, b.0) {
            (0, 0) => a.1 == b.1 && x.contains(&diff(a.2, b.2)),
            (1, 1) => a.1 == b.1 && xp.contains(&diff(a.2, b.2)),
            (0, 1) => a.2 as u64 == (b.1 as u64 * a.1 as u64 + b.2 as u64) % q64,
            (1, 0) => b.2 as u64 == (a.1 as u64 * b.1 as u64 + a.2 as u64) % q64,
            _ => unreachable!(),
        }
    }

    #[test]
    fn degree_order_and_diameter_two() {
        // docs/topologies.md §9 (verified): degrees 7, 11, 17, 19 for q = 5, 7, 11, 13.
        for (q, deg) in [(3u32, 5u32), (5, 7), (7, 11), (11, 17), (13, 19)] {
            let sf = SlimFly::new(q, None).unwrap();
            assert_eq!(sf.num_switches(), 2 * q * q);
            assert_eq!(sf.network_degree(), deg);
            let delta = if q % 4 == 1 { 1 } else { -1 };
            assert_eq!(deg as i64, (3 * q as i64 - delta) / 2);
            assert_eq!(sf.p(), deg.div_ceil(2));
            assert_eq!(sf.num_terminals(), 2 * q * q * sf.p());
            for s in 0..sf.num_switches() {
                assert_eq!(sf.degree(s), deg, "q = {q}, router {s}");
                // Simple graph: no parallel links, no self loops.
                let nb = neighbours(&sf, s);
                assert!(nb.windows(2).all(|w| w[0] < w[1]), "q = {q}, router {s}");
                assert!(!nb.contains(&s));
            }
            assert_port_symmetry(&sf);
            assert_eq!(diameter_aspl(&sf).0, 2, "q = {q}");
        }
    }

    #[test]
    fn larger_q_symmetric_regular_and_eccentricity_two() {
        for q in [17u32, 19, 23, 29, 31] {
            let sf = SlimFly::new(q, Some(1)).unwrap();
            let deg = sf.network_degree();
            assert_port_symmetry(&sf);
            for s in 0..sf.num_switches() {
                assert_eq!(sf.degree(s), deg, "q = {q}");
            }
            for src in [0, q * q - 1, q * q, 2 * q * q - 1] {
                assert_eq!(
                    bfs(&sf, src).into_iter().max(),
                    Some(2),
                    "q = {q}, from {src}"
                );
            }
        }
    }

    #[test]
    fn prime_power_q_gives_diameter_two_and_degree_3q_minus_delta_over_2() {
        // docs/topologies.md §9: δ = 0 for powers of two, δ = ±1 for odd prime powers; [SF]
        // lists q = 4 (32 routers, k' = 6), 8 (128, 12), 9 (162, 13), 16 (512, 24).
        for (q, deg) in [(4u32, 6u32), (8, 12), (9, 13), (16, 24), (25, 37), (27, 41)] {
            let sf = SlimFly::new(q, None).unwrap();
            assert_eq!(sf.num_switches(), 2 * q * q);
            assert_eq!(sf.network_degree(), deg, "q = {q}");
            assert_port_symmetry(&sf);
            for s in 0..sf.num_switches() {
                assert_eq!(sf.degree(s), deg, "q = {q}, router {s}");
                let nb = neighbours(&sf, s);
                assert!(nb.windows(2).all(|w| w[0] < w[1]), "q = {q}, router {s}");
                assert!(!nb.contains(&s));
            }
            if q <= 16 {
                assert_eq!(diameter_aspl(&sf).0, 2, "q = {q}");
            } else {
                for src in [0, 1, q * q - 1, q * q, q * q + 7, 2 * q * q - 1] {
                    assert_eq!(bfs(&sf, src).into_iter().max(), Some(2), "q = {q}");
                }
            }
        }
    }

    #[test]
    fn prime_power_adjacency_matches_the_definition() {
        // §9 adjacency evaluated with the field's own +, −, · but the generator sets built
        // from the spec's exponent lists (X, X' = ξX).
        for q in [4u32, 8, 9] {
            let sf = SlimFly::new(q, Some(1)).unwrap();
            let f = *sf.field();
            let xs: BTreeSet<u32> = f.x_iter().collect();
            let xps: BTreeSet<u32> = xs.iter().map(|&v| f.mul(f.xi(), v)).collect();
            let n = sf.num_switches();
            for u in 0..n {
                let nb: BTreeSet<u32> = neighbours(&sf, u).into_iter().collect();
                let a = sf.coords(u).unwrap();
                for v in 0..n {
                    let b = sf.coords(v).unwrap();
                    let want = u != v
                        && match (a.0, b.0) {
                            (0, 0) => a.1 == b.1 && xs.contains(&f.sub(a.2, b.2)),
                            (1, 1) => a.1 == b.1 && xps.contains(&f.sub(a.2, b.2)),
                            (0, 1) => a.2 == f.add(f.mul(b.1, a.1), b.2),
                            _ => b.2 == f.add(f.mul(a.1, b.1), a.2),
                        };
                    assert_eq!(nb.contains(&v), want, "q = {q}: {a:?} ~ {b:?}");
                }
            }
        }
    }

    #[test]
    fn adjacency_matches_the_definition() {
        for q in [3u32, 5, 7, 11] {
            let sf = SlimFly::new(q, Some(1)).unwrap();
            let xi = sf.field().xi();
            let n = sf.num_switches();
            for u in 0..n {
                let nb: BTreeSet<u32> = neighbours(&sf, u).into_iter().collect();
                let cu = sf.coords(u).unwrap();
                for v in 0..n {
                    let cv = sf.coords(v).unwrap();
                    let want = u != v && spec_adjacent(q, xi, cu, cv);
                    assert_eq!(nb.contains(&v), want, "q = {q}: {cu:?} ~ {cv:?}");
                }
            }
        }
    }

    #[test]
    fn port_order_and_classes() {
        // q = 5, ξ = 2, X = {1, 4}, X' = {2, 3}; p = 2.
        let sf = SlimFly::new(5, Some(2)).unwrap();
        assert_eq!(sf.radix(), 2 + 7);
        let r = sf.router(0, 2, 3).unwrap();
        assert_eq!(r, 13);
        assert_eq!(sf.port(r, 0), Port::Terminal(26));
        assert_eq!(sf.port(r, 1), Port::Terminal(27));
        let peers: Vec<(u32, u32, u32)> = (2..9)
            .map(|p| sf.coords(sf.port(r, p).link().unwrap().peer).unwrap())
            .collect();
        // Intra ports: y + 1, y + 4; cross ports m = 0..4: c = 3 − 2m mod 5.
        assert_eq!(
            peers,
            [
                (0, 2, 4),
                (0, 2, 2),
                (1, 0, 3),
                (1, 1, 1),
                (1, 2, 4),
                (1, 3, 2),
                (1, 4, 0)
            ]
        );
        let classes: Vec<LinkClass> = (2..9)
            .map(|p| sf.port(r, p).link().unwrap().class)
            .collect();
        assert_eq!(&classes[..2], [LinkClass::Local; 2]);
        assert_eq!(&classes[2..], [LinkClass::Global; 5]);
        // Subgraph 1: (1, 1, 1) intra ports c + 2, c + 3.
        let r1 = sf.router(1, 1, 1).unwrap();
        assert_eq!(
            sf.coords(sf.port(r1, 2).link().unwrap().peer),
            Some((1, 1, 3))
        );
        assert_eq!(
            sf.coords(sf.port(r1, 3).link().unwrap().peer),
            Some((1, 1, 4))
        );
        assert_eq!(sf.port(r1, 9), Port::Unconnected);
        assert_eq!(sf.terminal_port(99), Some((49, 1)));
        assert_eq!(sf.terminal_port(100), None);
    }

    #[test]
    fn accessors_and_errors() {
        let sf = SlimFly::new(7, None).unwrap();
        for s in 0..sf.num_switches() {
            let (a, b, c) = sf.coords(s).unwrap();
            assert_eq!(sf.router(a, b, c), Some(s));
        }
        assert_eq!(sf.coords(98), None);
        assert_eq!(sf.router(2, 0, 0), None);
        assert_eq!(sf.router(0, 7, 0), None);
        for q in [1u32, 6, 12] {
            assert!(
                matches!(
                    SlimFly::new(q, None),
                    Err(TopologyError::Invalid(InvalidParam { param: "q", .. }))
                ),
                "q = {q}"
            );
        }
        assert!(matches!(
            SlimFly::new(2, None),
            Err(TopologyError::Invalid(InvalidParam { param: "q", .. }))
        ));
        assert!(matches!(
            SlimFly::new(46_349, None),
            Err(TopologyError::Invalid(InvalidParam { param: "q", .. }))
        ));
        assert!(matches!(
            SlimFly::new(4_099, None),
            Err(TopologyError::Invalid(InvalidParam { param: "p", .. }))
        ));
        // p = 0: switch-only network.
        let sf = SlimFly::new(5, Some(0)).unwrap();
        assert_eq!(sf.num_terminals(), 0);
        assert_eq!(sf.terminal_port(0), None);
        assert_port_symmetry(&sf);
    }
}
