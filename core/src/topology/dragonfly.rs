//! Dragonfly (docs/topologies.md §7).
//!
//! `g` groups of `a` routers; routers of a group form a complete graph; every router has `p`
//! terminals and `h` global ports. Router `(G, r)` has id `G·a + r`, terminal `t` of router
//! `R` has id `R·p + t` (BookSim numbering). Ports of router `(G, r)`:
//!
//! | ports | meaning |
//! |---|---|
//! | `0..p` | terminal `t` |
//! | `p..p+a−1` | local port `j`: router offset `j` if `j < r`, else `j + 1` |
//! | `p+a−1..p+a−1+h` | global port `c`, global link index `i = r·h + c` |
//!
//! Global links follow one of the [`GlobalArrangement`]s; every arrangement is an involution
//! on `(group, link index)`, so port symmetry holds by construction.

use crate::error::InvalidParam;
use serde::{Deserialize, Serialize};

use super::{
    Family, Link, LinkClass, Port, PortIndex, SwitchId, TerminalId, Topology, TopologyError,
};

/// How the `a·h` global links of each group are wired to other groups
/// (docs/topologies.md §7). `(G, i)` denotes global link index `i = r·h + c` of group `G`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GlobalArrangement {
    /// Consecutive / "absolute" (BookSim `dragonflynew`), the default. Link `i` of group `G`
    /// has round `k = floor(i/(g−1))` and target index `t = i mod (g−1)`; it goes to group
    /// `T = t` if `t < G`, else `t + 1`, arriving on link `k·(g−1) + t'` of `T` with
    /// `t' = G` if `G < T`, else `G − 1`. For `g = a·h + 1` this is the spec formula (one
    /// round). For `g < a·h + 1` the surplus links form further rounds (project choice, the
    /// \[DISS\] "`i mod (g−1)`" rule): round `k` pairs `(G, T)` iff both ends' indices exist
    /// (`< a·h`); a surplus port whose partner index does not exist stays
    /// [`Port::Unconnected`]. Round 0 is always complete, so every group pair has a link.
    #[default]
    Consecutive,
    /// Palm tree (Camarero et al.; CAMINOS `Palmtree`), only for `g = a·h + 1`:
    /// `T = (G − i − 1) mod g`, `i' = a·h − 1 − i` (`r' = a−1−r`, `c' = h−1−c`). This is
    /// what "relative" means in jumpnet (docs/topologies.md §7: the CAMINOS default); the
    /// command line accepts `relative` as another name for it.
    PalmTree,
    /// The mirror image of the palm tree ("relative" in some comparisons, e.g. Hastings et
    /// al.), only for `g = a·h + 1`: `T = (G + i + 1) mod g`, `i' = a·h − 1 − i`. Named
    /// `relative-mirror` so that "relative" keeps one meaning.
    RelativeMirror,
}

impl GlobalArrangement {
    /// Lower-case name for reports and the command line.
    pub fn name(self) -> &'static str {
        match self {
            GlobalArrangement::Consecutive => "consecutive",
            GlobalArrangement::PalmTree => "palm-tree",
            GlobalArrangement::RelativeMirror => "relative-mirror",
        }
    }
}

/// Both ends of a global link: `(router in G1, its port, router in G2, its port)`; ports are
/// absolute port indices (`p + a − 1 + c`).
pub type GlobalLinkEnds = (SwitchId, PortIndex, SwitchId, PortIndex);

/// Dragonfly network (docs/topologies.md §7), computed arithmetically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dragonfly {
    g: u32,
    a: u32,
    p: u32,
    h: u32,
    arrangement: GlobalArrangement,
    /// `a·h` global links per group.
    links_per_group: u64,
    switches: u32,
    terminals: u32,
    radix: PortIndex,
}

impl Dragonfly {
    /// Dragonfly with `g` groups of `a` routers, `p` terminals and `h` global ports per router.
    ///
    /// Rules: `g ≥ 1`, `a ≥ 1`; for `g ≥ 2`, `a·h ≥ g − 1` (every group pair needs a global
    /// link); palm-tree and relative-mirror arrangements need `g = a·h + 1` exactly; `g·a` routers
    /// and `g·a·p` terminals must fit in `u32`, the radix `p + a − 1 + h` in `u16`.
    /// `p = 0` gives a switch-only network. With `g = 1` all global ports are unconnected.
    ///
    /// # Examples
    ///
    /// A balanced Dragonfly with `p = 2`, `a = 4`, `h = 2` and `g = a·h + 1 = 9` groups: radix
    /// `p + (a − 1) + h = 7` and one global link between every pair of groups.
    ///
    /// ```
    /// use jumpnet_core::topology::{Dragonfly, GlobalArrangement, LinkClass, Port, Topology};
    ///
    /// let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive)?;
    /// assert_eq!((df.num_switches(), df.num_terminals(), df.radix()), (36, 72, 7));
    ///
    /// // Router 1 = (group 0, offset 1): terminals 2 and 3 on ports 0–1, local ports 2–4 to the
    /// // offsets 0, 2, 3 of its group, global ports 5–6.
    /// assert_eq!(df.port(1, 0), Port::Terminal(2));
    /// let local = [2, 3, 4].map(|port| df.port(1, port).link().map(|l| l.peer));
    /// assert_eq!(local, [Some(0), Some(2), Some(3)]);
    /// // Global port 5 carries link index i = r·h + c = 2 of group 0; the consecutive arrangement
    /// // sends it to group i + 1 = 3 (as i ≥ G), arriving on link 0 of group 3: router 12, port 5.
    /// let Port::Link(link) = df.port(1, 5) else { unreachable!() };
    /// assert_eq!((link.peer, link.peer_port, link.class), (12, 5, LinkClass::Global));
    /// assert_eq!(df.global_link(0, 3), Some((1, 5, 12, 5)));
    /// // One link per group pair needs a·h ≥ g − 1.
    /// assert!(Dragonfly::new(10, 4, 2, 2, GlobalArrangement::Consecutive).is_err());
    /// # Ok::<(), jumpnet_core::topology::TopologyError>(())
    /// ```
    pub fn new(
        g: u32,
        a: u32,
        p: u32,
        h: u32,
        arrangement: GlobalArrangement,
    ) -> Result<Self, TopologyError> {
        if g == 0 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "g",
                value: 0,
                rule: "a Dragonfly needs at least one group (g ≥ 1)",
            }));
        }
        if a == 0 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "a",
                value: 0,
                rule: "a Dragonfly needs at least one router per group (a ≥ 1)",
            }));
        }
        let links_per_group = a as u64 * h as u64;
        if g as u64 > links_per_group + 1 && g > 1 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "g",
                value: g as u64,
                rule: "a Dragonfly needs g ≤ a·h + 1 (one global link per group pair)",
            }));
        }
        if arrangement != GlobalArrangement::Consecutive && g as u64 != links_per_group + 1 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "g",
                value: g as u64,
                rule: "palm-tree and relative-mirror arrangements need g = a·h + 1",
            }));
        }
        let switches = g as u64 * a as u64;
        if switches > u32::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "g",
                value: g as u64,
                rule: "a Dragonfly needs g·a < 2^32 routers",
            }));
        }
        let terminals = switches * p as u64;
        if terminals > u32::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "p",
                value: p as u64,
                rule: "a Dragonfly needs g·a·p < 2^32 terminals",
            }));
        }
        let radix = p as u64 + a as u64 - 1 + h as u64;
        if radix > PortIndex::MAX as u64 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "h",
                value: h as u64,
                rule: "a Dragonfly needs radix p + a − 1 + h ≤ 65535",
            }));
        }
        Ok(Dragonfly {
            g,
            a,
            p,
            h,
            arrangement,
            links_per_group,
            switches: switches as u32,
            terminals: terminals as u32,
            radix: radix as PortIndex,
        })
    }

    /// Number of groups `g`.
    pub fn g(&self) -> u32 {
        self.g
    }

    /// Routers per group `a`.
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

    /// The global-link arrangement.
    pub fn arrangement(&self) -> GlobalArrangement {
        self.arrangement
    }

    /// First local port index (`p`).
    pub fn first_local_port(&self) -> PortIndex {
        self.p as PortIndex
    }

    /// First global port index (`p + a − 1`).
    pub fn first_global_port(&self) -> PortIndex {
        (self.p + self.a - 1) as PortIndex
    }

    /// Group of `switch`, or `None` if out of range.
    #[inline]
    pub fn group_of(&self, switch: SwitchId) -> Option<u32> {
        (switch < self.switches).then(|| switch / self.a)
    }

    /// Offset `r` of `switch` inside its group, or `None` if out of range.
    #[inline]
    pub fn offset_in_group(&self, switch: SwitchId) -> Option<u32> {
        (switch < self.switches).then(|| switch % self.a)
    }

    /// Router id `G·a + r`, or `None` if `group ≥ g` or `offset ≥ a`.
    #[inline]
    pub fn router(&self, group: u32, offset: u32) -> Option<SwitchId> {
        (group < self.g && offset < self.a).then(|| group * self.a + offset)
    }

    /// Local port of router offset `from` leading to router offset `to` of the same group
    /// (`None` if either is out of range or `from == to`).
    #[inline]
    pub fn local_port(&self, from: u32, to: u32) -> Option<PortIndex> {
        if from >= self.a || to >= self.a || from == to {
            return None;
        }
        let j = if to < from { to } else { to - 1 };
        Some((self.p + j) as PortIndex)
    }

    /// Peer `(group, link index)` of link index `i` of group `group` under the arrangement
    /// (docs/topologies.md §7), or `None` for an unpaired surplus link or bad input.
    fn global_peer(&self, group: u32, i: u64) -> Option<(u32, u64)> {
        let g = self.g as u64;
        let grp = group as u64;
        let ah = self.links_per_group;
        if g < 2 || grp >= g || i >= ah {
            return None;
        }
        match self.arrangement {
            GlobalArrangement::Consecutive => {
                let round = i / (g - 1);
                let t = i % (g - 1);
                let target = if t < grp { t } else { t + 1 };
                let t_back = if grp < target { grp } else { grp - 1 };
                let i_back = round * (g - 1) + t_back;
                (i_back < ah).then_some((target as u32, i_back))
            }
            GlobalArrangement::PalmTree => {
                let target = (grp + g - (i % g) - 1) % g;
                Some((target as u32, ah - 1 - i))
            }
            GlobalArrangement::RelativeMirror => {
                let target = (grp + i + 1) % g;
                Some((target as u32, ah - 1 - i))
            }
        }
    }

    /// Lowest global link index of group `g1` that leads to group `g2`.
    fn first_link_index(&self, g1: u32, g2: u32) -> u64 {
        let g = self.g as u64;
        let (g1, g2) = (g1 as u64, g2 as u64);
        match self.arrangement {
            GlobalArrangement::Consecutive => {
                if g2 < g1 {
                    g2
                } else {
                    g2 - 1
                }
            }
            GlobalArrangement::PalmTree => (g1 + g - g2 - 1) % g,
            GlobalArrangement::RelativeMirror => (g2 + g - g1 - 1) % g,
        }
    }

    /// Router and absolute port holding global link index `i` of `group`.
    fn link_end(&self, group: u32, i: u64) -> (SwitchId, PortIndex) {
        let h = self.h as u64;
        let r = (i / h) as u32;
        let c = (i % h) as u32;
        (group * self.a + r, (self.p + self.a - 1 + c) as PortIndex)
    }

    /// Connectivity oracle: the global link between groups `g1` and `g2` — the one with the
    /// lowest link index in `g1` when several exist — as
    /// `(router in g1, its global port, router in g2, its global port)`.
    /// `None` if `g1 == g2` or either group is out of range. O(1).
    pub fn global_link(&self, g1: u32, g2: u32) -> Option<GlobalLinkEnds> {
        if g1 == g2 || g1 >= self.g || g2 >= self.g {
            return None;
        }
        let i = self.first_link_index(g1, g2);
        let (target, i_back) = self.global_peer(g1, i)?;
        if target != g2 {
            return None;
        }
        let (r1, p1) = self.link_end(g1, i);
        let (r2, p2) = self.link_end(g2, i_back);
        Some((r1, p1, r2, p2))
    }

    /// Group reached through global port `c` (`0 ≤ c < h`) of `switch`, or `None` if the port
    /// is unconnected or out of range.
    pub fn global_target_group(&self, switch: SwitchId, c: u32) -> Option<u32> {
        if switch >= self.switches || c >= self.h {
            return None;
        }
        let group = switch / self.a;
        let i = (switch % self.a) as u64 * self.h as u64 + c as u64;
        self.global_peer(group, i).map(|(t, _)| t)
    }
}

impl Topology for Dragonfly {
    fn family(&self) -> Family {
        Family::Dragonfly
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
        let group = switch / self.a;
        let r = switch % self.a;
        if port < self.p {
            return Port::Terminal(switch * self.p + port);
        }
        let j = port - self.p;
        if j + 1 < self.a {
            let to = if j < r { j } else { j + 1 };
            let back = if r < to { r } else { r - 1 };
            return Port::Link(Link {
                peer: group * self.a + to,
                peer_port: (self.p + back) as PortIndex,
                class: LinkClass::Local,
            });
        }
        let c = j - (self.a - 1);
        let i = r as u64 * self.h as u64 + c as u64;
        match self.global_peer(group, i) {
            Some((target, i_back)) => {
                let (peer, peer_port) = self.link_end(target, i_back);
                Port::Link(Link {
                    peer,
                    peer_port,
                    class: LinkClass::Global,
                })
            }
            None => Port::Unconnected,
        }
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
#[path = "dragonfly_tests.rs"]
mod tests;
