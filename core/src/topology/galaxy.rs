//! Galaxy graph and Galaxyfly (docs/topologies.md §10).
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
//! [`RouterAssignment::RoundRobin`] is the docs/topologies.md §10 project choice: router
//! `j mod a`, global slot `floor(j/a)`, default `h = ceil((hs + hg)/a)`. The peer end is found
//! the same way from `V`'s ordered list. Slots that carry no edge are unconnected.

use crate::error::{CapacityError, InvalidParam};
use serde::{Deserialize, Serialize};

use super::dragonfly::GlobalLinkEnds;
use super::field::MmsField;
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, TerminalId, Topology, TopologyError,
};

/// Which router of a supernode carries which supernode-level edge (docs/topologies.md §10).
/// `j` is the position of the edge in the supernode's ascending neighbour list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RouterAssignment {
    /// Project choice of docs/topologies.md §10 (the default): edge `j` on router `j mod a`,
    /// global slot `floor(j/a)`; default `h = ceil((hs + hg)/a)`.
    #[default]
    RoundRobin,
    /// The [GF-ICS] `a = 2` layout: router 0 carries the `hs` intra-cluster edges (slot =
    /// position among them), router 1 the `hg = n − 1` inter-cluster edges (slot = position
    /// among them); only for `a = 2`; default `h = max(hs, hg)`. With it the router-level
    /// diameter is at most 4 (docs/topologies.md §10), which round-robin does not guarantee.
    ClusterSplit,
}

impl RouterAssignment {
    /// Lower-case name for reports and the command line.
    pub fn name(self) -> &'static str {
        match self {
            RouterAssignment::RoundRobin => "round-robin",
            RouterAssignment::ClusterSplit => "cluster-split",
        }
    }
}

/// Galaxy graph / Galaxyfly network (docs/topologies.md §10), computed arithmetically.
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

/// The parameters a Galaxy or Galaxyfly is built from (the constructors' arguments).
#[derive(Clone, Copy, Debug)]
struct Shape {
    family: Family,
    assignment: RouterAssignment,
    n: u32,
    q: u32,
    a: u32,
    p: u32,
    h: Option<u32>,
}

impl Galaxyfly {
    /// Galaxyfly with `n` clusters of `q` supernodes of `a` routers, `p` terminals and `h`
    /// global ports per router (`None` = `ceil((hs + hg)/a)`).
    ///
    /// Rules: `n ≥ 1`; `q = 1` or an odd prime (`q = 9` → [`TopologyError::NotPrime`],
    /// `q = 2` → [`TopologyError::Invalid`]); `a ≥ 1`; `a·h ≥ hs + hg`; `n·q·a` routers and
    /// `n·q·a·p` terminals fit in `u32`; radix `p + a − 1 + h ≤ 65535`.
    pub fn new(n: u32, q: u32, a: u32, p: u32, h: Option<u32>) -> Result<Self, TopologyError> {
        Self::build(Shape {
            family: Family::Galaxyfly,
            assignment: RouterAssignment::RoundRobin,
            n,
            q,
            a,
            p,
            h,
        })
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
        Self::build(Shape {
            family: Family::Galaxyfly,
            assignment,
            n,
            q,
            a,
            p,
            h,
        })
    }

    /// The supernode-level Galaxy graph: one router per supernode (`a = 1`), one terminal per
    /// router, `h = hs + hg`. Router ids equal supernode ids and the network ports of router
    /// `U` (ports `1..=hs+hg`) list its neighbours in ascending id.
    ///
    /// # Examples
    ///
    /// The worked example of docs/topologies.md §10: `n = 3` clusters of `q = 5` supernodes
    /// (`ξ = 2`, `X = {1, 4}`), where S8 (id 7) is adjacent to S5, S7, S9 and S12.
    ///
    /// ```
    /// use jumpnet_core::topology::{Galaxyfly, Topology};
    ///
    /// let galaxy = Galaxyfly::galaxy(3, 5)?;
    /// // Supernode degree (q − δ)/2 + (n − 1) = 2 + 2.
    /// assert_eq!((galaxy.num_supernodes(), galaxy.supernode_degree()), (15, 4));
    /// let mut neighbours = [0u32; 4];
    /// let len = galaxy.supernode_neighbors(7, &mut neighbours)?;
    /// assert_eq!(&neighbours[..len], &[4, 6, 8, 11]);
    ///
    /// // At router level every supernode is a = 4 routers; with p = 1 and the default
    /// // h = ceil(4 / 4) = 1 the radix is p + (a − 1) + h = 5.
    /// let gf = Galaxyfly::new(3, 5, 4, 1, None)?;
    /// assert_eq!((gf.num_switches(), gf.h(), gf.radix()), (60, 1, 5));
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn galaxy(n: u32, q: u32) -> Result<Self, TopologyError> {
        Self::build(Shape {
            family: Family::Galaxy,
            assignment: RouterAssignment::RoundRobin,
            n,
            q,
            a: 1,
            p: 1,
            h: None,
        })
    }

    fn build(shape: Shape) -> Result<Self, TopologyError> {
        let Shape {
            family,
            assignment,
            n,
            q,
            a,
            p,
            h,
        } = shape;
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
        let (supernodes, switches, terminals) = Self::counts(n, q, a, p)?;
        let hs = field.generator_count();
        let degree = hs + (n - 1);
        let h = Self::global_ports(assignment, n, a, h, hs, degree)?;
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
            supernodes,
            switches,
            terminals,
            radix: radix as PortIndex,
        })
    }

    /// Supernodes, routers and terminals of `n` clusters of `q` supernodes of `a` routers
    /// with `p` terminals each, refused unless they fit in `u32`.
    fn counts(n: u32, q: u32, a: u32, p: u32) -> Result<(u32, u32, u32), TopologyError> {
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
        Ok((supernodes as u32, switches as u32, terminals as u32))
    }

    /// Global ports per router: `h` checked against the assignment's rule, or its default.
    fn global_ports(
        assignment: RouterAssignment,
        n: u32,
        a: u32,
        h: Option<u32>,
        hs: u32,
        degree: u32,
    ) -> Result<u32, TopologyError> {
        match assignment {
            RouterAssignment::RoundRobin => match h {
                Some(h) if (h as u64) * (a as u64) < degree as u64 => {
                    Err(TopologyError::Invalid(InvalidParam {
                        param: "h",
                        value: h as u64,
                        rule: "a Galaxyfly needs a·h ≥ hs + hg = (q − δ)/2 + (n − 1)",
                    }))
                }
                Some(h) => Ok(h),
                None => Ok(degree.div_ceil(a)),
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
                    Some(h) if h < min_h => Err(TopologyError::Invalid(InvalidParam {
                        param: "h",
                        value: h as u64,
                        rule: "the cluster-split assignment needs h ≥ max(hs, hg) = \
                               max((q − δ)/2, n − 1)",
                    })),
                    Some(h) => Ok(h),
                    None => Ok(min_h),
                }
            }
        }
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
#[path = "galaxy_tests.rs"]
mod tests;
