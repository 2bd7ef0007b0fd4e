//! k-ary n-tree fat tree (docs/topologies.md §6, after Petrini & Vanneschi).
//!
//! `k^n` processing nodes `p = (p_0..p_{n-1})` (id `Σ p_i k^(n-1-i)`, `p_0` most significant)
//! and `n` levels of `k^(n-1)` switches `<w, l>` (level 0 = roots, level `n-1` = leaves; id
//! `l·k^(n-1) + Σ w_i k^(n-2-i)`). `<w, l>` and `<w', l+1>` are linked iff `w` and `w'` agree
//! in every digit except digit `l`.
//!
//! Ports: down ports `0..k-1`, up ports `k..2k-1` (roots' up ports are unconnected).
//! Down port `j` of `<w, l>` leads to `<w[l := j], l+1>` (arriving on its up port `k + w_l`),
//! or, on a leaf, to node `(w_0..w_{n-2}, j)`; up port `k + j` of `<w, l>` leads to
//! `<w[l-1 := j], l-1>` (arriving on its down port `w_{l-1}`). Class `Up` on the lower end's
//! up ports, `Down` on the upper end's down ports. Terminal id = node id.

use crate::error::{CapacityError, InvalidParam};
use heapless::Vec;

use super::limits::{check_radix, check_switches, check_terminals};
use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, TerminalId, Topology, TopologyError,
};

/// Largest number of levels `n` (a k-ary n-tree with `k >= 2` and at most 2^30 nodes has at
/// most 30 levels).
pub const MAX_LEVELS: usize = 30;

/// k-ary n-tree (docs/topologies.md §6), adjacency computed arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FatTree {
    k: u32,
    n: u32,
    /// `k^0 .. k^(n-1)`.
    powers: Vec<u32, MAX_LEVELS>,
    per_level: u32,
    nodes: u32,
}

impl FatTree {
    /// k-ary n-tree with `k >= 2` (switch radix `2k <= 65535`) and `n >= 1` levels; at most
    /// 2^30 nodes and 2^30 switches.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::topology::{FatTree, Port, Topology};
    ///
    /// // 4-ary 2-tree: 16 nodes, two levels of 4 switches of radix 2k = 8.
    /// let ft = FatTree::new(4, 2)?;
    /// assert_eq!((ft.num_terminals(), ft.num_switches(), ft.radix()), (16, 8, 8));
    /// // Leaf <w = (1), level 1> is switch 1·4 + 1 = 5. Its down port 2 holds node (1, 2) = 6;
    /// // its up port k + 3 leads to the root <(3), 0> = switch 3, arriving on down port w_0 = 1.
    /// assert_eq!(ft.switch_id(1, 1), Some(5));
    /// assert_eq!(ft.port(5, 2), Port::Terminal(6));
    /// let up = ft.port(5, 7).link().unwrap();
    /// assert_eq!((up.peer, up.peer_port), (3, 1));
    /// // Roots have no up links.
    /// assert_eq!(ft.port(3, 4), Port::Unconnected);
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn new(k: u32, n: u32) -> Result<Self, TopologyError> {
        if k < 2 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "k",
                value: k as u64,
                rule: "a k-ary n-tree needs k >= 2",
            }));
        }
        if n < 1 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "a k-ary n-tree needs n >= 1",
            }));
        }
        check_radix(2 * k as u64)?;
        // k^n terminals; a power past 2^64 is refused by the exponent that overflows it.
        let Some(terminals) = (k as u64).checked_pow(n) else {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "a k-ary n-tree has k^n terminals, at most 2^30",
            }));
        };
        let nodes = check_terminals(terminals)?;
        // k^n <= 2^30 with k >= 2 bounds n by 30, so every power below fits.
        let per_level = nodes / k;
        check_switches(n as u64 * per_level as u64)?;
        let mut powers = Vec::new();
        let mut p = 1u32;
        for _ in 0..n {
            powers.push(p).map_err(|_| {
                TopologyError::Capacity(CapacityError {
                    what: "fat-tree levels",
                    needed: n as u64,
                    available: MAX_LEVELS as u64,
                })
            })?;
            p = p.saturating_mul(k);
        }
        Ok(FatTree {
            k,
            n,
            powers,
            per_level,
            nodes,
        })
    }

    /// Arity `k` (down ports per switch; up ports per non-root switch).
    #[inline]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of levels `n`.
    #[inline]
    pub fn levels(&self) -> u32 {
        self.n
    }

    /// Switches per level, `k^(n-1)`.
    #[inline]
    pub fn switches_per_level(&self) -> u32 {
        self.per_level
    }

    /// Level of `switch` (0 = roots, `n-1` = leaves); `None` when out of range.
    #[inline]
    pub fn level(&self, switch: SwitchId) -> Option<u32> {
        let l = switch / self.per_level;
        (l < self.n).then_some(l)
    }

    /// Word `w` of `switch` as an integer `Σ w_i k^(n-2-i)`; `None` when out of range.
    #[inline]
    pub fn word(&self, switch: SwitchId) -> Option<u32> {
        self.level(switch)?;
        Some(switch % self.per_level)
    }

    /// Switch `<word, level>`; `None` when either is out of range.
    #[inline]
    pub fn switch_id(&self, level: u32, word: u32) -> Option<SwitchId> {
        (level < self.n && word < self.per_level).then(|| level * self.per_level + word)
    }

    /// Word digit `w_i` (`0 <= i < n-1`, `w_0` most significant) of `switch`; `None` when
    /// out of range.
    #[inline]
    pub fn word_digit(&self, switch: SwitchId, i: u32) -> Option<u32> {
        let w = self.word(switch)?;
        self.digit_of_word(w, i)
    }

    /// Node digit `p_i` (`0 <= i < n`, `p_0` most significant) of node `node`; `None` when
    /// out of range.
    #[inline]
    pub fn node_digit(&self, node: TerminalId, i: u32) -> Option<u32> {
        if node >= self.nodes || i >= self.n {
            return None;
        }
        let pow = *self.powers.get((self.n - 1 - i) as usize)?;
        Some(node / pow % self.k)
    }

    /// Level of the least common ancestors of nodes `a` and `b`: the index of the first
    /// node digit where they differ, or `n-1` (their leaf) when they share a leaf. A minimal
    /// route goes up to this level and down again: `2·(n-1-level)` switch-to-switch hops.
    /// `None` when a node is out of range.
    pub fn lca_level(&self, a: TerminalId, b: TerminalId) -> Option<u32> {
        if a >= self.nodes || b >= self.nodes {
            return None;
        }
        for i in 0..self.n - 1 {
            if self.node_digit(a, i)? != self.node_digit(b, i)? {
                return Some(i);
            }
        }
        Some(self.n - 1)
    }

    /// Down port `j` (`j < k`).
    #[inline]
    pub fn down_port(&self, j: u32) -> Option<PortIndex> {
        (j < self.k).then_some(j as PortIndex)
    }

    /// Up port `k + j` (`j < k`); unconnected on roots.
    #[inline]
    pub fn up_port(&self, j: u32) -> Option<PortIndex> {
        (j < self.k).then_some((self.k + j) as PortIndex)
    }

    /// Digit `i` of a word (`0 <= i < n-1`).
    #[inline]
    fn digit_of_word(&self, word: u32, i: u32) -> Option<u32> {
        if i + 1 >= self.n {
            return None;
        }
        let pow = *self.powers.get((self.n - 2 - i) as usize)?;
        Some(word / pow % self.k)
    }

    /// `word` with digit `i` replaced by `value` (`value < k`), plus the old digit.
    #[inline]
    fn replace_digit(&self, word: u32, i: u32, value: u32) -> Option<(u32, u32)> {
        let old = self.digit_of_word(word, i)?;
        let pow = *self.powers.get((self.n - 2 - i) as usize)?;
        Some((word - old * pow + value * pow, old))
    }

    fn down_link(&self, level: u32, word: u32, j: u32) -> Port {
        if level + 1 == self.n {
            return Port::Terminal(word * self.k + j);
        }
        match self.replace_digit(word, level, j) {
            Some((peer_word, old)) => Port::Link(Link {
                peer: (level + 1) * self.per_level + peer_word,
                peer_port: (self.k + old) as PortIndex,
                class: LinkClass::Down,
            }),
            None => Port::Unconnected,
        }
    }

    fn up_link(&self, level: u32, word: u32, j: u32) -> Port {
        if level == 0 {
            return Port::Unconnected;
        }
        match self.replace_digit(word, level - 1, j) {
            Some((peer_word, old)) => Port::Link(Link {
                peer: (level - 1) * self.per_level + peer_word,
                peer_port: old as PortIndex,
                class: LinkClass::Up,
            }),
            None => Port::Unconnected,
        }
    }
}

impl Topology for FatTree {
    fn family(&self) -> Family {
        Family::FatTree
    }

    fn num_switches(&self) -> u32 {
        self.n * self.per_level
    }

    fn num_terminals(&self) -> u32 {
        self.nodes
    }

    fn radix(&self) -> PortIndex {
        (2 * self.k) as PortIndex
    }

    #[inline]
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        let Some(level) = self.level(switch) else {
            return Port::Unconnected;
        };
        let word = switch % self.per_level;
        let p = port as u32;
        if p < self.k {
            self.down_link(level, word, p)
        } else if p < 2 * self.k {
            self.up_link(level, word, p - self.k)
        } else {
            Port::Unconnected
        }
    }

    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        if t >= self.nodes {
            return None;
        }
        let leaf = (self.n - 1) * self.per_level + t / self.k;
        Some((leaf, (t % self.k) as PortIndex))
    }
}

#[cfg(test)]
mod tests {
    use std::string::ToString;
    use std::vec::Vec;

    use super::*;
    use crate::topology::testutil::{assert_port_symmetry, bfs, neighbours};
    use crate::topology::Symmetry;

    const SIZES: [(u32, u32); 10] = [
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 1),
        (3, 3),
        (4, 2),
        (4, 3),
        (5, 2),
        (3, 4),
    ];

    /// Base-k digits, most significant first, of `x` with `len` digits.
    fn digits(x: u32, k: u32, len: u32) -> Vec<u32> {
        let mut d: Vec<u32> = (0..len).map(|i| x / k.pow(i) % k).collect();
        d.reverse();
        d
    }

    #[test]
    fn counts_ports_and_link_classes() {
        for (k, n) in SIZES {
            let t = FatTree::new(k, n).unwrap();
            assert_eq!(t.family(), Family::FatTree);
            assert_eq!(t.symmetry(), Symmetry::None);
            assert_eq!(t.radix() as u32, 2 * k);
            assert_eq!(
                t.num_switches(),
                n * k.pow(n - 1),
                "{k}-ary {n}-tree switches"
            );
            assert_eq!(t.num_terminals(), k.pow(n));
            assert_port_symmetry(&t);
            // k^n links between every pair of adjacent levels, counted from both ends.
            let mut up = std::vec![0u32; n as usize];
            let mut down = std::vec![0u32; n as usize];
            for s in 0..t.num_switches() {
                let l = t.level(s).unwrap();
                for p in 0..t.radix() {
                    match t.port(s, p) {
                        Port::Link(link) => {
                            let pl = t.level(link.peer).unwrap();
                            if (p as u32) < k {
                                assert_eq!(link.class, LinkClass::Down);
                                assert_eq!(pl, l + 1);
                                down[l as usize] += 1;
                            } else {
                                assert_eq!(link.class, LinkClass::Up);
                                assert_eq!(pl + 1, l);
                                up[l as usize] += 1;
                            }
                        }
                        Port::Terminal(_) => {
                            assert_eq!(l, n - 1, "only leaves hold nodes");
                            assert!((p as u32) < k);
                        }
                        Port::Unconnected => {
                            assert_eq!(l, 0, "only roots have unconnected ports");
                            assert!(p as u32 >= k);
                        }
                    }
                }
            }
            for l in 0..n as usize - 1 {
                assert_eq!(down[l], k.pow(n), "links below level {l}");
                assert_eq!(up[l + 1], k.pow(n), "links above level {}", l + 1);
            }
            assert_eq!(up[0], 0);
            assert_eq!(down[n as usize - 1], 0);
        }
    }

    #[test]
    fn adjacency_matches_the_digit_rule() {
        // Independent rule: <w,l> ~ <w',l+1> iff w, w' agree in every digit except digit l.
        for (k, n) in SIZES {
            let t = FatTree::new(k, n).unwrap();
            let per = k.pow(n - 1);
            for s in 0..t.num_switches() {
                let (l, w) = (s / per, s % per);
                let wd = digits(w, k, n - 1);
                let mut expect = Vec::new();
                for v in 0..t.num_switches() {
                    let (lv, wv) = (v / per, v % per);
                    let vd = digits(wv, k, n - 1);
                    let differ =
                        |pos: u32| (0..n - 1).all(|i| i == pos || wd[i as usize] == vd[i as usize]);
                    if (lv == l + 1 && differ(l)) || (lv + 1 == l && differ(lv)) {
                        expect.push(v);
                    }
                }
                assert_eq!(neighbours(&t, s), expect, "{k}-ary {n}-tree switch {s}");
                for i in 0..n - 1 {
                    assert_eq!(t.word_digit(s, i), Some(wd[i as usize]));
                }
                assert_eq!(t.word_digit(s, n - 1), None);
            }
        }
    }

    #[test]
    fn port_order_follows_the_spec() {
        // 4-ary 2-tree: root <(2),0> = 2, down port 1 -> leaf <(1),1> = 5 on its up port 4+2.
        let t = FatTree::new(4, 2).unwrap();
        let l = t.port(2, 1).link().unwrap();
        assert_eq!((l.peer, l.peer_port, l.class), (5, 6, LinkClass::Down));
        let l = t.port(5, 6).link().unwrap();
        assert_eq!((l.peer, l.peer_port, l.class), (2, 1, LinkClass::Up));
        assert_eq!(t.port(5, 3), Port::Terminal(7));
        assert_eq!(t.terminal_port(7), Some((5, 3)));
        assert_eq!(t.port(2, 4), Port::Unconnected);
        // 2-ary 3-tree: <(1,0),1> = 6, down port 1 -> <(1,1),2> = 11 on up port 2 + w_1 = 2;
        // up port 2 + 0 -> <(0,0),0> = 0 on its down port w_0 = 1.
        let t = FatTree::new(2, 3).unwrap();
        let l = t.port(6, 1).link().unwrap();
        assert_eq!((l.peer, l.peer_port), (11, 2));
        let l = t.port(6, 2).link().unwrap();
        assert_eq!((l.peer, l.peer_port), (0, 1));
        assert_eq!(t.port(6, 4), Port::Unconnected);
        assert_eq!(t.port(12, 0), Port::Unconnected);
        assert_eq!(t.down_port(1), Some(1));
        assert_eq!(t.up_port(1), Some(3));
        assert_eq!(t.up_port(2), None);
        assert_eq!(t.switch_id(1, 2), Some(6));
        assert_eq!(t.switch_id(3, 0), None);
        assert_eq!(t.level(11), Some(2));
        assert_eq!(t.word(11), Some(3));
    }

    #[test]
    fn leaves_hold_all_nodes_and_distances_follow_the_lca_level() {
        for (k, n) in SIZES {
            let t = FatTree::new(k, n).unwrap();
            for a in 0..t.num_terminals() {
                let (leaf, port) = t.terminal_port(a).unwrap();
                assert_eq!(t.level(leaf), Some(n - 1));
                assert_eq!(t.port(leaf, port), Port::Terminal(a));
                let ad = digits(a, k, n);
                for i in 0..n {
                    assert_eq!(t.node_digit(a, i), Some(ad[i as usize]));
                }
                let dist = bfs(&t, leaf);
                for b in 0..t.num_terminals() {
                    let bd = digits(b, k, n);
                    // First differing digit among the leaf-word digits 0..n-2.
                    let first = (0..n - 1)
                        .find(|&i| ad[i as usize] != bd[i as usize])
                        .unwrap_or(n - 1);
                    assert_eq!(t.lca_level(a, b), Some(first));
                    let other = t.terminal_switch(b).unwrap();
                    assert_eq!(dist[other as usize], 2 * (n - 1 - first), "{a} -> {b}");
                }
            }
            assert_eq!(t.lca_level(0, t.num_terminals()), None);
            assert_eq!(t.node_digit(0, n), None);
        }
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        assert_eq!(
            FatTree::new(1, 3).unwrap_err().to_string(),
            "a k-ary n-tree needs k >= 2, got k = 1"
        );
        assert!(matches!(
            FatTree::new(4, 0),
            Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                ..
            }))
        ));
        assert!(matches!(
            FatTree::new(40_000, 1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "radix",
                value: 80_000,
                ..
            }))
        ));
        assert!(matches!(
            FatTree::new(2, 31),
            Err(TopologyError::Invalid(InvalidParam {
                param: "terminals",
                value: 2_147_483_648,
                ..
            }))
        ));
        assert!(matches!(
            FatTree::new(3, u32::MAX),
            Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 4_294_967_295,
                ..
            }))
        ));
        // k^n past 2^64 names the exponent, not a saturated terminal count.
        assert!(matches!(
            FatTree::new(1000, 10),
            Err(TopologyError::Invalid(InvalidParam {
                param: "n",
                value: 10,
                rule: "a k-ary n-tree has k^n terminals, at most 2^30",
            }))
        ));
        // 2^30 nodes but 30 · 2^29 switches.
        assert!(matches!(
            FatTree::new(2, 30),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                ..
            }))
        ));
        assert!(FatTree::new(18, 3).is_ok());
        assert_eq!(FatTree::new(18, 3).unwrap().num_switches(), 972);
    }
}
