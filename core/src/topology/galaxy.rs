//! Galaxy graph and Galaxyfly (spec/topologies.md §10).
//!
//! **Supernode level (Galaxy graph).** `n` clusters of `q` supernodes; supernode `(k, x)`,
//! `x ∈ F_q`, has id `k·q + x`. With `ξ`, `X` of [`MmsField`] and `H(x) = ξ·x`:
//! * intra-cluster: `(k, i) ~ (k, j)` iff `j − i ∈ X` (every cluster uses `X`);
//! * inter-cluster, clusters `s < t`: `(s, r) ~ (t, u)` iff `r = H(u)`.
//!
//! Supernode degree `hs + hg` with `hs = (q − δ)/2`, `hg = n − 1`. `q = 1` is the Dragonfly
//! case (one supernode per cluster, no intra-cluster edges, complete inter-cluster graph).
//!
//! The neighbours of supernode `U = (k, x)` in ascending id are: `(s, H(x))` for `s < k`, then
//! `(k, x + d)` for `d ∈ X` sorted by value `(x + d) mod q`, then `(t, H⁻¹(x))` for `t > k`.
//! Call them `V_0, V_1, …`.
//!
//! **Router level (Galaxyfly).** Each supernode `U` is `a` fully connected routers; router
//! `(U, t)` has id `U·a + t`, terminal `j` of router `R` has id `R·p + j`. Ports of router
//! `(U, t)` (same order as the Dragonfly):
//!
//! | ports | meaning |
//! |---|---|
//! | `0..p` | terminal `j` |
//! | `p..p+a−1` | local port `j`: router `j` if `j < t`, else `j + 1` ([`LinkClass::Local`]) |
//! | `p+a−1..p+a−1+h` | global slot `c`: edge `U–V_{c·a+t}` ([`LinkClass::Global`]) |
//!
//! Which router of `U` carries the edge `U–V_j` is a [`RouterAssignment`]; the default
//! [`RouterAssignment::RoundRobin`] is the spec/topologies.md §10 project choice: router
//! `j mod a`, global slot `floor(j/a)`, default `h = ceil((hs + hg)/a)`. The peer end is found
//! the same way from `V`'s ordered list. Slots that carry no edge are unconnected.

use crate::error::{CapacityError, InvalidParam};
use serde::{Deserialize, Serialize};

use super::dragonfly::GlobalLinkEnds;
use super::field::MmsField;
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, TerminalId, Topology, TopologyError,
};

/// Which router of a supernode carries which supernode-level edge (spec/topologies.md §10).
/// `j` is the position of the edge in the supernode's ascending neighbour list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RouterAssignment {
    /// Project choice of spec/topologies.md §10 (the default): edge `j` on router `j mod a`,
    /// global slot `floor(j/a)`; default `h = ceil((hs + hg)/a)`.
    #[default]
    RoundRobin,
    /// The [GF-ICS] `a = 2` layout: router 0 carries the `hs` intra-cluster edges (slot =
    /// position among them), router 1 the `hg = n − 1` inter-cluster edges (slot = position
    /// among them); only for `a = 2`; default `h = max(hs, hg)`. With it the router-level
    /// diameter is at most 4 (spec/topologies.md §10), which round-robin does not guarantee.
    ClusterSplit,
}

/// Galaxy graph / Galaxyfly network (spec/topologies.md §10), computed arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Galaxyfly {
    family: Family,
    assignment: RouterAssignment,
    field: MmsField,
    n: u32,
    q: u32,
    a: u32,
    p: u32,
    h: u32,
    /// `hs = |X| = (q − δ)/2` intra-cluster neighbours per supernode.
    hs: u32,
    /// Supernode degree `hs + n − 1`.
    degree: u32,
    supernodes: u32,
    switches: u32,
    terminals: u32,
    radix: PortIndex,
}

impl Galaxyfly {
    /// Galaxyfly with `n` clusters of `q` supernodes of `a` routers, `p` terminals and `h`
    /// global ports per router (`None` = `ceil((hs + hg)/a)`).
    ///
    /// Rules: `n ≥ 1`; `q = 1` or an odd prime (`q = 9` → [`TopologyError::NotPrime`],
    /// `q = 2` → [`TopologyError::Invalid`]); `a ≥ 1`; `a·h ≥ hs + hg`; `n·q·a` routers and
    /// `n·q·a·p` terminals fit in `u32`; radix `p + a − 1 + h ≤ 65535`.
    pub fn new(n: u32, q: u32, a: u32, p: u32, h: Option<u32>) -> Result<Self, TopologyError> {
        Self::build(
            Family::Galaxyfly,
            RouterAssignment::RoundRobin,
            n,
            q,
            a,
            p,
            h,
        )
    }

    /// Galaxyfly with an explicit router assignment. [`RouterAssignment::ClusterSplit`] needs
    /// `a = 2` and `h ≥ max(hs, hg)` (default `h = max(hs, hg)`); otherwise as [`Self::new`].
    pub fn with_assignment(
        n: u32,
        q: u32,
        a: u32,
        p: u32,
        h: Option<u32>,
        assignment: RouterAssignment,
    ) -> Result<Self, TopologyError> {
        Self::build(Family::Galaxyfly, assignment, n, q, a, p, h)
    }

    /// The supernode-level Galaxy graph: one router per supernode (`a = 1`), one terminal per
    /// router, `h = hs + hg`. Router ids equal supernode ids and the network ports of router
    /// `U` (ports `1..=hs+hg`) list its neighbours in ascending id.
    pub fn galaxy(n: u32, q: u32) -> Result<Self, TopologyError> {
        Self::build(
            Family::Galaxy,
            RouterAssignment::RoundRobin,
            n,
            q,
            1,
            1,
            None,
        )
    }

    fn build(
        family: Family,
        assignment: RouterAssignment,
        n: u32,
        q: u32,
        a: u32,
        p: u32,
        h: Option<u32>,
    ) -> Result<Self, TopologyError> {
        if n == 0 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a Galaxy graph needs at least one cluster (n ≥ 1)",
            }));
        }
        let field = if q == 1 {
            MmsField::trivial()
        } else {
            MmsField::new(q)?
        };
        if a == 0 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "a",
                value: 0,
                rule: "a Galaxyfly needs at least one router per supernode (a ≥ 1)",
            }));
        }
        let supernodes = n as u64 * q as u64;
        let switches = supernodes * a as u64;
        if switches > u32::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "a Galaxyfly needs n·q·a < 2^32 routers",
            }));
        }
        let terminals = switches * p as u64;
        if terminals > u32::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "p",
                value: p as u64,
                rule: "a Galaxyfly needs n·q·a·p < 2^32 terminals",
            }));
        }
        let hs = field.generator_count();
        let degree = hs + (n - 1);
        let h = match assignment {
            RouterAssignment::RoundRobin => match h {
                Some(h) if (h as u64) * (a as u64) < degree as u64 => {
                    return Err(TopologyError::Invalid(InvalidParam {
                        param: "h",
                        value: h as u64,
                        rule: "a Galaxyfly needs a·h ≥ hs + hg = (q − δ)/2 + (n − 1)",
                    }))
                }
                Some(h) => h,
                None => degree.div_ceil(a),
            },
            RouterAssignment::ClusterSplit => {
                if a != 2 {
                    return Err(TopologyError::Invalid(InvalidParam {
                        param: "a",
                        value: a as u64,
                        rule: "the cluster-split router assignment needs a = 2",
                    }));
                }
                let min_h = hs.max(n - 1);
                match h {
                    Some(h) if h < min_h => {
                        return Err(TopologyError::Invalid(InvalidParam {
                            param: "h",
                            value: h as u64,
                            rule: "the cluster-split assignment needs h ≥ max(hs, hg) = \
                                   max((q − δ)/2, n − 1)",
                        }))
                    }
                    Some(h) => h,
                    None => min_h,
                }
            }
        };
        let radix = p as u64 + a as u64 - 1 + h as u64;
        if radix > PortIndex::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "h",
                value: h as u64,
                rule: "a Galaxyfly needs radix p + a − 1 + h ≤ 65535",
            }));
        }
        Ok(Galaxyfly {
            family,
            assignment,
            field,
            n,
            q,
            a,
            p,
            h,
            hs,
            degree,
            supernodes: supernodes as u32,
            switches: switches as u32,
            terminals: terminals as u32,
            radix: radix as PortIndex,
        })
    }

    /// Number of clusters `n`.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Supernodes per cluster `q`.
    pub fn q(&self) -> u32 {
        self.q
    }

    /// Routers per supernode `a`.
    pub fn a(&self) -> u32 {
        self.a
    }

    /// Terminals per router `p`.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// Global ports per router `h`.
    pub fn h(&self) -> u32 {
        self.h
    }

    /// The router assignment of supernode-level edges.
    pub fn assignment(&self) -> RouterAssignment {
        self.assignment
    }

    /// The field with `ξ`, `δ`, `X` (the trivial field for `q = 1`).
    pub fn field(&self) -> &MmsField {
        &self.field
    }

    /// Intra-cluster degree `hs = (q − δ)/2` (0 for `q = 1`).
    pub fn intra_degree(&self) -> u32 {
        self.hs
    }

    /// First global port index (`p + a − 1`).
    pub fn first_global_port(&self) -> PortIndex {
        (self.p + self.a - 1) as PortIndex
    }

    /// Number of supernodes `n·q`.
    pub fn num_supernodes(&self) -> u32 {
        self.supernodes
    }

    /// Supernode degree `hs + hg = (q − δ)/2 + (n − 1)` (the same for every supernode).
    pub fn supernode_degree(&self) -> u32 {
        self.degree
    }

    /// Supernode id `k·q + x` of `(cluster, x)`, or `None` if out of range.
    pub fn supernode(&self, cluster: u32, x: u32) -> Option<u32> {
        (cluster < self.n && x < self.q).then(|| cluster * self.q + x)
    }

    /// `(cluster, x)` of `supernode`, or `None` if out of range.
    pub fn supernode_coords(&self, supernode: u32) -> Option<(u32, u32)> {
        (supernode < self.supernodes).then(|| (supernode / self.q, supernode % self.q))
    }

    /// Supernode of `router`, or `None` if out of range.
    #[inline]
    pub fn supernode_of(&self, router: SwitchId) -> Option<u32> {
        (router < self.switches).then(|| router / self.a)
    }

    /// Offset `t` (`0..a`) of `router` inside its supernode, or `None` if out of range.
    #[inline]
    pub fn router_offset(&self, router: SwitchId) -> Option<u32> {
        (router < self.switches).then(|| router % self.a)
    }

    /// Router id `U·a + t`, or `None` if out of range.
    #[inline]
    pub fn router(&self, supernode: u32, t: u32) -> Option<SwitchId> {
        (supernode < self.supernodes && t < self.a).then(|| supernode * self.a + t)
    }

    /// `#{d ∈ X : (x + d) mod q < v}` and whether `v − x ∈ X` (one pass over `X`).
    fn intra_count_below(&self, x: u32, v: u32) -> (u32, bool) {
        let mut below = 0;
        let mut hit = false;
        for d in self.field.x_iter() {
            let y = self.field.add(x, d);
            if y < v {
                below += 1;
            } else if y == v {
                hit = true;
            }
        }
        (below, hit)
    }

    /// The `m`-th smallest of `{(x + d) mod q : d ∈ X}` (binary search on the value,
    /// O(|X| log q)); `m < hs` is required by the callers.
    fn intra_select(&self, x: u32, m: u32) -> u32 {
        let (mut lo, mut hi) = (0, self.q - 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.intra_count_below(x, mid + 1).0 > m {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The `j`-th Galaxy-graph neighbour (ascending id) of `supernode`, or `None` if out of
    /// range (`j ≥ hs + hg`).
    pub fn supernode_neighbor(&self, supernode: u32, j: u32) -> Option<u32> {
        let (k, x) = self.supernode_coords(supernode)?;
        if j >= self.degree {
            return None;
        }
        let q = self.q;
        if j < k {
            // Lower cluster s = j: node H(x) of s.
            Some(j * q + self.field.iso(x))
        } else if j - k < self.hs {
            Some(k * q + self.intra_select(x, j - k))
        } else {
            // Higher cluster t: node H⁻¹(x) of t.
            let t = k + 1 + (j - k - self.hs);
            Some(t * q + self.field.iso_inv(x))
        }
    }

    /// Position of `v` in the ascending neighbour list of `u`, or `None` if they are not
    /// adjacent (or out of range).
    pub fn supernode_neighbor_rank(&self, u: u32, v: u32) -> Option<u32> {
        let (k, x) = self.supernode_coords(u)?;
        let (l, y) = self.supernode_coords(v)?;
        if l < k {
            (y == self.field.iso(x)).then_some(l)
        } else if l == k {
            let (below, hit) = self.intra_count_below(x, y);
            (hit && y != x).then_some(k + below)
        } else {
            (x == self.field.iso(y)).then_some(k + self.hs + (l - k - 1))
        }
    }

    /// Writes the Galaxy-graph neighbours of `supernode` in ascending id into `out` and returns
    /// how many were written (`hs + hg`).
    ///
    /// Errors: `supernode` out of range → [`TopologyError::Invalid`]; `out` shorter than
    /// `hs + hg` → [`TopologyError::Capacity`].
    pub fn supernode_neighbors(
        &self,
        supernode: u32,
        out: &mut [u32],
    ) -> Result<usize, TopologyError> {
        let (k, x) = self
            .supernode_coords(supernode)
            .ok_or(TopologyError::Invalid(InvalidParam {
                param: "supernode",
                value: supernode as u64,
                rule: "supernode ids are below n·q",
            }))?;
        let deg = self.degree as usize;
        let Some(out) = out.get_mut(..deg) else {
            return Err(TopologyError::Capacity(CapacityError {
                what: "supernode neighbours",
                needed: deg as u64,
                available: out.len() as u64,
            }));
        };
        let q = self.q;
        let (lower, rest) = out.split_at_mut(k as usize);
        let (intra, higher) = rest.split_at_mut(self.hs as usize);
        let hx = self.field.iso(x);
        for (s, slot) in (0..).zip(lower.iter_mut()) {
            *slot = s * q + hx;
        }
        for (slot, d) in intra.iter_mut().zip(self.field.x_iter()) {
            *slot = k * q + self.field.add(x, d);
        }
        intra.sort_unstable();
        let hinv = self.field.iso_inv(x);
        for (t, slot) in (k + 1..).zip(higher.iter_mut()) {
            *slot = t * q + hinv;
        }
        Ok(deg)
    }

    /// `(router offset, global slot)` carrying edge `j` of a supernode in cluster `k`.
    fn carrier_slot(&self, k: u32, j: u32) -> (u32, u32) {
        match self.assignment {
            RouterAssignment::RoundRobin => (j % self.a, j / self.a),
            RouterAssignment::ClusterSplit => {
                if j < k {
                    (1, j)
                } else if j - k < self.hs {
                    (0, j - k)
                } else {
                    (1, j - self.hs)
                }
            }
        }
    }

    /// Inverse of [`Self::carrier_slot`]: the edge index carried by global slot `c` of router
    /// offset `t` in a supernode of cluster `k`, or `None` if the slot carries no edge.
    fn slot_edge(&self, k: u32, t: u32, c: u64) -> Option<u32> {
        let j = match self.assignment {
            RouterAssignment::RoundRobin => c * self.a as u64 + t as u64,
            RouterAssignment::ClusterSplit => {
                if t == 0 {
                    if c >= self.hs as u64 {
                        return None;
                    }
                    k as u64 + c
                } else if c < k as u64 {
                    c
                } else {
                    c + self.hs as u64
                }
            }
        };
        (j < self.degree as u64).then_some(j as u32)
    }

    /// Router of `supernode` carrying its `j`-th supernode edge and that router's global port.
    fn carrier(&self, supernode: u32, j: u32) -> (SwitchId, PortIndex) {
        let (t, c) = self.carrier_slot(supernode / self.q, j);
        (
            supernode * self.a + t,
            (self.p + self.a - 1 + c) as PortIndex,
        )
    }

    /// Which routers carry the supernode edge `u–v`:
    /// `(router in u, its global port, router in v, its global port)`, or `None` if `u` and `v`
    /// are not adjacent. O(|X| log q).
    pub fn edge_routers(&self, u: u32, v: u32) -> Option<GlobalLinkEnds> {
        let j = self.supernode_neighbor_rank(u, v)?;
        let j_back = self.supernode_neighbor_rank(v, u)?;
        let (r1, p1) = self.carrier(u, j);
        let (r2, p2) = self.carrier(v, j_back);
        Some((r1, p1, r2, p2))
    }
}

impl Topology for Galaxyfly {
    fn family(&self) -> Family {
        self.family
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
        if switch >= self.switches || port >= self.radix {
            return Port::Unconnected;
        }
        let port = port as u32;
        if port < self.p {
            return Port::Terminal(switch * self.p + port);
        }
        let u = switch / self.a;
        let t = switch % self.a;
        let j = port - self.p;
        if j + 1 < self.a {
            let to = if j < t { j } else { j + 1 };
            let back = if t < to { t } else { t - 1 };
            return Port::Link(Link {
                peer: u * self.a + to,
                peer_port: (self.p + back) as PortIndex,
                class: LinkClass::Local,
            });
        }
        let c = (j - (self.a - 1)) as u64;
        let Some(idx) = self.slot_edge(u / self.q, t, c) else {
            return Port::Unconnected;
        };
        let Some(v) = self.supernode_neighbor(u, idx) else {
            return Port::Unconnected;
        };
        let Some(j_back) = self.supernode_neighbor_rank(v, u) else {
            return Port::Unconnected;
        };
        let (peer, peer_port) = self.carrier(v, j_back);
        Port::Link(Link {
            peer,
            peer_port,
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
    use crate::topology::testutil::{assert_port_symmetry, diameter_aspl, neighbours};
    use std::collections::BTreeSet;
    use std::vec;
    use std::vec::Vec;

    /// spec/topologies.md §10 worked example n = 3, q = 5: neighbours of S1..S15 (1-based).
    const TABLE_3_5: [[u32; 4]; 15] = [
        [2, 5, 6, 11],
        [1, 3, 9, 14],
        [2, 4, 7, 12],
        [3, 5, 10, 15],
        [1, 4, 8, 13],
        [1, 7, 10, 11],
        [3, 6, 8, 14],
        [5, 7, 9, 12],
        [2, 8, 10, 15],
        [4, 6, 9, 13],
        [1, 6, 12, 15],
        [3, 8, 11, 13],
        [5, 10, 12, 14],
        [2, 7, 13, 15],
        [4, 9, 11, 14],
    ];

    /// Independent Galaxy graph from [GF-ICS] Algorithms 1–3 (coordinate matrices), with ξ
    /// found by brute force and X from the spec exponent lists. Returns sorted neighbour lists.
    fn spec_galaxy(n: u32, q: u32) -> Vec<Vec<u32>> {
        let q64 = q as u64;
        let (xi, x): (u64, BTreeSet<u64>) = if q == 1 {
            (0, BTreeSet::new())
        } else {
            let order = |g: u64| {
                let (mut v, mut k) = (g, 1);
                while v != 1 {
                    v = v * g % q64;
                    k += 1;
                }
                k
            };
            let xi = (2..q64).find(|&g| order(g) == q64 - 1).unwrap();
            let pow = |e: u64| (0..e).fold(1u64, |v, _| v * xi % q64);
            let delta: i64 = if q % 4 == 1 { 1 } else { -1 };
            let w = (q as i64 - delta) as u64 / 4;
            let exps: Vec<u64> = if delta == 1 {
                (0..=q64 - 3).step_by(2).collect()
            } else {
                (0..=2 * w - 2)
                    .step_by(2)
                    .chain((2 * w - 1..=4 * w - 3).step_by(2))
                    .collect()
            };
            (xi, exps.into_iter().map(pow).collect())
        };
        let h = |v: u64| if q == 1 { 0 } else { xi * v % q64 };
        // M_k[row][col]: column col is the identity if col >= k, else H.
        let m = |k: u32, row: u32, col: u32| if col >= k { row as u64 } else { h(row as u64) };
        let id = |k: u32, x: u32| (k * q + x) as usize;
        let mut adj = vec![BTreeSet::new(); (n * q) as usize];
        for k in 0..n {
            for i in 0..q {
                for j in 0..q {
                    let diff = (m(k, j, k) + q64 - m(k, i, k)) % q64;
                    if i != j && x.contains(&diff) {
                        adj[id(k, i)].insert(id(k, j) as u32);
                    }
                }
            }
        }
        for s in 0..n {
            for t in s + 1..n {
                for r in 0..q {
                    for u in 0..q {
                        if m(s, r, t) == m(t, u, s) {
                            adj[id(s, r)].insert(id(t, u) as u32);
                            adj[id(t, u)].insert(id(s, r) as u32);
                        }
                    }
                }
            }
        }
        adj.into_iter().map(|s| s.into_iter().collect()).collect()
    }

    #[test]
    fn worked_example_n3_q5() {
        let gf = Galaxyfly::galaxy(3, 5).unwrap();
        assert_eq!(gf.family(), Family::Galaxy);
        assert_eq!((gf.num_switches(), gf.supernode_degree()), (15, 4));
        assert_eq!((gf.field().xi(), gf.intra_degree()), (2, 2));
        let mut buf = [0u32; 4];
        for (s, row) in TABLE_3_5.iter().enumerate() {
            let want: Vec<u32> = row.iter().map(|&v| v - 1).collect();
            assert_eq!(gf.supernode_neighbors(s as u32, &mut buf), Ok(4));
            assert_eq!(buf.as_slice(), want, "S{}", s + 1);
            // Router level of the Galaxy graph: ports 1..=4 list the neighbours ascending.
            let ports: Vec<u32> = (1..5)
                .map(|p| gf.port(s as u32, p).link().unwrap().peer)
                .collect();
            assert_eq!(ports, want, "S{} ports", s + 1);
            assert_eq!(neighbours(&gf, s as u32), want);
        }
        // N(S8) = {S5, S7, S9, S12}.
        assert_eq!(gf.supernode_neighbors(7, &mut buf), Ok(4));
        assert_eq!(buf, [4, 6, 8, 11]);
        assert_eq!(
            spec_galaxy(3, 5),
            TABLE_3_5.map(|r| r.map(|v| v - 1).to_vec())
        );
        assert_port_symmetry(&gf);
    }

    #[test]
    fn galaxy_matches_independent_construction() {
        for (n, q) in [
            (1, 5),
            (2, 3),
            (3, 5),
            (4, 7),
            (5, 11),
            (3, 13),
            (6, 1),
            (2, 17),
        ] {
            let gf = Galaxyfly::galaxy(n, q).unwrap();
            let want = spec_galaxy(n, q);
            let mut buf = vec![0u32; gf.supernode_degree() as usize];
            for (u, nb) in want.iter().enumerate() {
                let u = u as u32;
                assert_eq!(gf.supernode_neighbors(u, &mut buf), Ok(nb.len()));
                assert_eq!(&buf, nb, "n={n} q={q} U={u}");
                for (j, &v) in nb.iter().enumerate() {
                    assert_eq!(gf.supernode_neighbor(u, j as u32), Some(v));
                    assert_eq!(gf.supernode_neighbor_rank(u, v), Some(j as u32));
                }
                assert_eq!(gf.supernode_neighbor(u, nb.len() as u32), None);
                for v in 0..gf.num_supernodes() {
                    if !nb.contains(&v) {
                        assert_eq!(gf.supernode_neighbor_rank(u, v), None, "{u} {v}");
                        assert_eq!(gf.edge_routers(u, v), None);
                    }
                }
            }
            assert_port_symmetry(&gf);
        }
    }

    #[test]
    fn galaxy_diameter_two() {
        for (n, q) in [(3, 5), (4, 5), (4, 7), (5, 11), (7, 3), (13, 13), (10, 29)] {
            let gf = Galaxyfly::galaxy(n, q).unwrap();
            let delta: i64 = if q % 4 == 1 { 1 } else { -1 };
            let deg = ((q as i64 - delta) / 2) as u32 + n - 1;
            for s in 0..gf.num_switches() {
                assert_eq!(gf.degree(s), deg);
            }
            assert_eq!(diameter_aspl(&gf).0, 2, "(n, q) = ({n}, {q})");
        }
    }

    #[test]
    fn router_assignment_follows_the_project_choice() {
        // Edge U–V_j on router j mod a, slot floor(j/a), peer found from V's list.
        for (n, q, a, p) in [(3, 5, 4, 1), (3, 5, 2, 2), (4, 7, 3, 0), (5, 1, 3, 1)] {
            let gf = Galaxyfly::new(n, q, a, p, None).unwrap();
            let want = spec_galaxy(n, q);
            let deg = gf.supernode_degree();
            assert_eq!(gf.h(), deg.div_ceil(a));
            let first_global = p + a - 1;
            for (u, nb) in want.iter().enumerate() {
                let u = u as u32;
                for (j, &v) in nb.iter().enumerate() {
                    let j = j as u32;
                    let jb = want[v as usize].binary_search(&u).unwrap() as u32;
                    let r1 = u * a + j % a;
                    let p1 = (first_global + j / a) as PortIndex;
                    let r2 = v * a + jb % a;
                    let p2 = (first_global + jb / a) as PortIndex;
                    assert_eq!(
                        gf.port(r1, p1),
                        Port::Link(Link {
                            peer: r2,
                            peer_port: p2,
                            class: LinkClass::Global
                        })
                    );
                    assert_eq!(gf.edge_routers(u, v), Some((r1, p1, r2, p2)));
                }
                // Router t of U: a − 1 local links + edges j ≡ t (mod a).
                for t in 0..a {
                    let r = u * a + t;
                    let carried = (0..deg).filter(|j| j % a == t).count() as u32;
                    assert_eq!(gf.degree(r), a - 1 + carried, "router {r}");
                    assert_eq!(gf.supernode_of(r), Some(u));
                    assert_eq!(gf.router_offset(r), Some(t));
                    assert_eq!(gf.router(u, t), Some(r));
                    for j in 0..a - 1 {
                        let l = gf.port(r, (p + j) as PortIndex).link().unwrap();
                        assert_eq!(l.class, LinkClass::Local);
                        assert_eq!(l.peer, u * a + if j < t { j } else { j + 1 });
                    }
                }
            }
            assert_port_symmetry(&gf);
        }
    }

    #[test]
    fn galaxyfly_router_level_diameters() {
        // spec/topologies.md §10: 2 if a = 1; 3 if q = 1, a > 1; ≤ 5 if a > 2 (any assignment).
        let configs = [
            (3, 5, 4),
            (4, 5, 4),
            (4, 5, 5),
            (4, 7, 4),
            (3, 5, 8),
            (4, 7, 5),
            (3, 5, 1),
            (4, 7, 1),
            (9, 1, 4),
            (5, 1, 2),
            (17, 1, 3),
        ];
        for (n, q, a) in configs {
            let gf = Galaxyfly::new(n, q, a, 1, None).unwrap();
            assert_eq!(gf.num_switches(), n * q * a);
            assert_port_symmetry(&gf);
            let (diam, _) = diameter_aspl(&gf);
            if a == 1 {
                assert_eq!(diam, 2, "({n},{q},{a})");
            } else if q == 1 {
                assert_eq!(diam, 3, "({n},{q},{a})");
            } else {
                assert!(diam <= 5, "({n},{q},{a}): {diam}");
            }
        }
    }

    #[test]
    fn a2_diameter_four_needs_the_cluster_split() {
        // "4 if q > 1 and a = 2" ([GF-ICS] §3.1) holds for the paper's layout (router 0 intra,
        // router 1 inter). Round-robin only guarantees ≤ 5: on (3,5,2) a router of S1 whose
        // supernode paths all turn on the wrong router needs 5 hops.
        for (n, q) in [(3, 5), (4, 5), (4, 7), (5, 11), (7, 3), (3, 13)] {
            let split = RouterAssignment::ClusterSplit;
            let gf = Galaxyfly::with_assignment(n, q, 2, 1, None, split).unwrap();
            assert_port_symmetry(&gf);
            assert_eq!(diameter_aspl(&gf).0, 4, "split ({n},{q},2)");
            let rr = Galaxyfly::new(n, q, 2, 1, None).unwrap();
            assert!(diameter_aspl(&rr).0 <= 5, "round-robin ({n},{q},2)");
        }
        let rr = Galaxyfly::new(3, 5, 2, 1, None).unwrap();
        assert_eq!(diameter_aspl(&rr).0, 5);
    }

    #[test]
    fn cluster_split_layout() {
        let split = RouterAssignment::ClusterSplit;
        for (n, q) in [(3, 5), (5, 11), (2, 13), (4, 1)] {
            let gf = Galaxyfly::with_assignment(n, q, 2, 1, None, split).unwrap();
            let hs = gf.intra_degree();
            assert_eq!(gf.h(), hs.max(n - 1));
            assert_eq!(gf.assignment(), split);
            let want = spec_galaxy(n, q);
            for (u, nb) in want.iter().enumerate() {
                let u = u as u32;
                assert_eq!(gf.degree(2 * u), 1 + hs);
                assert_eq!(gf.degree(2 * u + 1), 1 + n - 1);
                for &v in nb {
                    let (r1, p1, r2, p2) = gf.edge_routers(u, v).unwrap();
                    let intra = u / q == v / q;
                    assert_eq!(r1, 2 * u + if intra { 0 } else { 1 });
                    assert_eq!(r2, 2 * v + if intra { 0 } else { 1 });
                    let l = gf.port(r1, p1).link().unwrap();
                    assert_eq!((l.peer, l.peer_port, l.class), (r2, p2, LinkClass::Global));
                }
            }
            assert_port_symmetry(&gf);
        }
        assert!(matches!(
            Galaxyfly::with_assignment(3, 5, 3, 1, None, split),
            Err(TopologyError::Invalid(InvalidParam {
                param: "a",
                value: 3,
                ..
            }))
        ));
        // (5, 11): hs = 6 > a·h/2 — round-robin would accept h = 5, the split needs 6.
        assert!(matches!(
            Galaxyfly::with_assignment(5, 11, 2, 1, Some(5), split),
            Err(TopologyError::Invalid(InvalidParam {
                param: "h",
                value: 5,
                ..
            }))
        ));
        assert!(Galaxyfly::new(5, 11, 2, 1, Some(5)).is_ok());
    }

    #[test]
    fn range_of_sizes_symmetric_and_connected() {
        for n in 1..=5 {
            for q in [1, 3, 5, 7, 13] {
                for a in 1..=4 {
                    for p in [0, 2] {
                        let gf = Galaxyfly::new(n, q, a, p, None).unwrap();
                        assert_port_symmetry(&gf);
                        let deg = gf.supernode_degree();
                        for u in 0..gf.num_supernodes() {
                            let ports: u32 = (0..a).map(|t| gf.degree(u * a + t)).sum();
                            assert_eq!(ports, a * (a - 1) + deg, "({n},{q},{a}) U={u}");
                        }
                        let (diam, _) = diameter_aspl(&gf);
                        assert!(diam <= 5, "({n},{q},{a}): {diam}");
                    }
                }
            }
        }
    }

    #[test]
    fn explicit_h_leaves_spare_slots_unconnected() {
        let gf = Galaxyfly::new(3, 5, 2, 1, Some(4)).unwrap();
        assert_eq!(gf.radix(), 1 + 1 + 4);
        // Degree 4 over 2 routers: slots 0, 1 used, slots 2, 3 unconnected.
        for r in 0..gf.num_switches() {
            assert_eq!(gf.degree(r), 1 + 2);
            assert_eq!(gf.port(r, 4), Port::Unconnected);
            assert_eq!(gf.port(r, 5), Port::Unconnected);
        }
        assert_port_symmetry(&gf);
        assert_eq!(gf.terminal_port(29), Some((29, 0)));
        assert_eq!(gf.terminal_port(30), None);
        assert_eq!(gf.port(30, 0), Port::Unconnected);
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        assert_eq!(
            Galaxyfly::new(3, 9, 2, 1, None),
            Err(TopologyError::NotPrime {
                param: "q",
                value: 9
            })
        );
        assert!(matches!(
            Galaxyfly::new(3, 2, 2, 1, None),
            Err(TopologyError::Invalid(InvalidParam { param: "q", .. }))
        ));
        assert!(matches!(
            Galaxyfly::new(0, 5, 2, 1, None),
            Err(TopologyError::Invalid(InvalidParam { param: "n", .. }))
        ));
        assert!(matches!(
            Galaxyfly::new(3, 5, 0, 1, None),
            Err(TopologyError::Invalid(InvalidParam { param: "a", .. }))
        ));
        // hs + hg = 2 + 2 = 4 > a·h = 3·1.
        let e = Galaxyfly::new(3, 5, 3, 1, Some(1)).unwrap_err();
        assert!(matches!(
            e,
            TopologyError::Invalid(InvalidParam {
                param: "h",
                value: 1,
                ..
            })
        ));
        assert_eq!(
            std::format!("{e}"),
            "a Galaxyfly needs a·h ≥ hs + hg = (q − δ)/2 + (n − 1), got h = 1"
        );
        assert!(Galaxyfly::new(3, 5, 2, 1, Some(2)).is_ok());
        assert!(matches!(
            Galaxyfly::new(100_000, 101, 1_000, 1, None),
            Err(TopologyError::Invalid(InvalidParam { param: "n", .. }))
        ));
        assert!(matches!(
            Galaxyfly::new(100, 101, 100, 10_000, None),
            Err(TopologyError::Invalid(InvalidParam { param: "p", .. }))
        ));
        assert!(matches!(
            Galaxyfly::new(3, 5, 2, 1, Some(70_000)),
            Err(TopologyError::Invalid(InvalidParam { param: "h", .. }))
        ));
        let gf = Galaxyfly::galaxy(3, 5).unwrap();
        let mut small = [0u32; 3];
        assert_eq!(
            gf.supernode_neighbors(0, &mut small),
            Err(TopologyError::Capacity(CapacityError {
                what: "supernode neighbours",
                needed: 4,
                available: 3
            }))
        );
        let mut buf = [0u32; 8];
        assert!(matches!(
            gf.supernode_neighbors(15, &mut buf),
            Err(TopologyError::Invalid(InvalidParam {
                param: "supernode",
                ..
            }))
        ));
        assert_eq!(gf.supernode_neighbor(15, 0), None);
        assert_eq!(gf.supernode_neighbor_rank(0, 15), None);
        assert_eq!(gf.supernode_neighbor_rank(3, 3), None);
        assert_eq!(gf.supernode(3, 0), None);
        assert_eq!(gf.supernode(2, 4), Some(14));
        assert_eq!(gf.supernode_coords(14), Some((2, 4)));
        assert_eq!(gf.router(15, 0), None);
    }
}
