//! Graphs held in caller-provided storage: random shortcut (docs/topologies.md §3) and
//! arbitrary edge lists.
//!
//! Storage is a fixed-width port table: switch `s` owns slots `s·width .. (s+1)·width`; slot
//! `i` is network port `i`. Terminal ports follow the `width` network ports
//! (`terminals_per_switch` of them), so port indices of network links are stable.

use super::attached::Attachments;
use super::{
    Family, Link, LinkClass, Port, PortIndex, PortUse, SwitchId, TerminalId, Topology,
    TopologyError,
};
use crate::error::{CapacityError, InvalidParam};

/// One network port slot of a stored graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Peer switch, or [`Slot::EMPTY_PEER`] when unconnected.
    pub peer: SwitchId,
    /// Port of the peer leading back.
    pub peer_port: PortIndex,
    /// Link class.
    pub class: LinkClass,
}

impl Slot {
    /// Peer value marking an unconnected slot.
    pub const EMPTY_PEER: SwitchId = SwitchId::MAX;
    /// An unconnected slot.
    pub const EMPTY: Slot = Slot {
        peer: Slot::EMPTY_PEER,
        peer_port: 0,
        class: LinkClass::Local,
    };

    /// Whether this slot holds a link.
    #[inline]
    pub fn is_connected(&self) -> bool {
        self.peer != Slot::EMPTY_PEER
    }
}

/// A graph whose port table lives in caller storage (read-only view).
#[derive(Clone, Copy, Debug)]
pub struct StoredGraph<'a> {
    family: Family,
    n: u32,
    width: u16,
    terminals_per_switch: u16,
    slots: &'a [Slot],
    /// Terminals and channel latencies port by port (BookSim2's anynet), if given.
    attached: Option<Attachments<'a>>,
}

impl<'a> StoredGraph<'a> {
    /// The same graph with its terminals and channel latencies given port by port
    /// ([`Attachments`], docs/topologies.md §11), after checking the tables.
    pub fn with_attachments(mut self, a: Attachments<'a>) -> Result<Self, TopologyError> {
        a.check(self.n, self.width, self.terminals_per_switch)?;
        self.attached = Some(a);
        Ok(self)
    }

    /// The attachments given with [`StoredGraph::with_attachments`].
    pub fn attachments(&self) -> Option<&Attachments<'a>> {
        self.attached.as_ref()
    }

    /// Re-opens a port table previously filled by [`StoredGraphBuilder`] (or loaded from
    /// elsewhere) as a graph, after checking that it is well formed: `n · width` slots, every
    /// connected slot's peer in range and pointing back with the same link class, no self
    /// loops.
    pub fn from_slots(
        family: Family,
        n: u32,
        width: u16,
        terminals_per_switch: u16,
        slots: &'a [Slot],
    ) -> Result<Self, TopologyError> {
        let needed = n as u64 * width as u64;
        if slots.len() as u64 != needed {
            return Err(TopologyError::Capacity(CapacityError {
                what: "port slots",
                needed,
                available: slots.len() as u64,
            }));
        }
        let w = width as usize;
        for (i, s) in slots.iter().enumerate() {
            if !s.is_connected() {
                continue;
            }
            let u = (i / w) as u32;
            if s.peer >= n {
                return Err(TopologyError::SwitchOutOfRange {
                    switch: s.peer as u64,
                    n: n as u64,
                });
            }
            if s.peer == u {
                return Err(TopologyError::SelfLoop { switch: u });
            }
            let back = if (s.peer_port as usize) < w {
                slots.get(s.peer as usize * w + s.peer_port as usize)
            } else {
                None
            };
            match back {
                Some(b) if b.peer == u && b.peer_port as usize == i % w && b.class == s.class => {}
                _ => {
                    return Err(TopologyError::Invalid(InvalidParam {
                        param: "port table",
                        value: i as u64,
                        rule: "every link slot must be answered by its peer slot, with the same link class",
                    }))
                }
            }
        }
        Ok(StoredGraph {
            family,
            n,
            width,
            terminals_per_switch,
            slots,
            attached: None,
        })
    }

    /// Number of network port slots per switch.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Terminal ports of each switch (with [`Attachments`], some may be empty).
    pub fn terminals_per_switch(&self) -> u16 {
        self.terminals_per_switch
    }

    /// The raw port table (`n · width` slots).
    pub fn slots(&self) -> &'a [Slot] {
        self.slots
    }

    /// Network port slots of switch `s` (empty slice when out of range).
    pub fn switch_slots(&self, s: SwitchId) -> &'a [Slot] {
        let w = self.width as usize;
        let start = s as usize * w;
        self.slots.get(start..start + w).unwrap_or(&[])
    }
}

impl Topology for StoredGraph<'_> {
    fn family(&self) -> Family {
        self.family
    }
    fn num_switches(&self) -> u32 {
        self.n
    }
    fn num_terminals(&self) -> u32 {
        match &self.attached {
            Some(a) => a.terminal_port.len() as u32,
            None => self.n * self.terminals_per_switch as u32,
        }
    }
    fn radix(&self) -> PortIndex {
        self.width + self.terminals_per_switch
    }
    #[inline]
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        if switch >= self.n {
            return Port::Unconnected;
        }
        if port < self.width {
            match self
                .slots
                .get(switch as usize * self.width as usize + port as usize)
            {
                Some(s) if s.is_connected() => Port::Link(Link {
                    peer: s.peer,
                    peer_port: s.peer_port,
                    class: s.class,
                }),
                _ => Port::Unconnected,
            }
        } else if port < self.width + self.terminals_per_switch {
            let i = port - self.width;
            match &self.attached {
                Some(a) => a
                    .terminal_at(switch, i, self.terminals_per_switch)
                    .map_or(Port::Unconnected, Port::Terminal),
                None => Port::Terminal(switch * self.terminals_per_switch as u32 + i as u32),
            }
        } else {
            Port::Unconnected
        }
    }
    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        if let Some(a) = &self.attached {
            return a.terminal_port.get(t as usize).copied();
        }
        let tps = self.terminals_per_switch as u32;
        if tps == 0 || t >= self.num_terminals() {
            return None;
        }
        Some((t / tps, self.width + (t % tps) as u16))
    }
    fn injection_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        match &self.attached {
            Some(a) if !a.injection_port.is_empty() => a.injection_port.get(t as usize).copied(),
            _ => self.terminal_port(t),
        }
    }
    #[inline]
    fn port_latency(&self, switch: SwitchId, port: PortIndex) -> Option<u16> {
        let radix = self.width + self.terminals_per_switch;
        self.attached
            .as_ref()
            .and_then(|a| a.latency_of(switch, port, radix))
    }
    fn port_use(&self, switch: SwitchId, port: PortIndex) -> PortUse {
        match &self.attached {
            Some(a) if a.one_way => a.use_of(switch, port, self.port(switch, port)),
            _ => PortUse::Both,
        }
    }
}

/// Builds a [`StoredGraph`] link by link in caller storage.
#[derive(Debug)]
pub struct StoredGraphBuilder<'a> {
    family: Family,
    n: u32,
    width: u16,
    terminals_per_switch: u16,
    slots: &'a mut [Slot],
    degree: &'a mut [u16],
}

impl<'a> StoredGraphBuilder<'a> {
    /// Starts an empty graph of `n` switches with at most `width` network ports each.
    /// `slots` needs `n · width` entries and `degree` `n` entries (extra entries are unused).
    pub fn new(
        family: Family,
        n: u32,
        width: u16,
        terminals_per_switch: u16,
        slots: &'a mut [Slot],
        degree: &'a mut [u16],
    ) -> Result<Self, TopologyError> {
        let needed = n as u64 * width as u64;
        if (slots.len() as u64) < needed {
            return Err(TopologyError::Capacity(CapacityError {
                what: "port slots",
                needed,
                available: slots.len() as u64,
            }));
        }
        if (degree.len() as u64) < n as u64 {
            return Err(TopologyError::Capacity(CapacityError {
                what: "degree counters",
                needed: n as u64,
                available: degree.len() as u64,
            }));
        }
        if (width as u32 + terminals_per_switch as u32) > PortIndex::MAX as u32 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "degree",
                value: width as u64,
                rule: "ports per switch must fit in 16 bits",
            }));
        }
        let slots = &mut slots[..needed as usize];
        slots.fill(Slot::EMPTY);
        let degree = &mut degree[..n as usize];
        degree.fill(0);
        Ok(StoredGraphBuilder {
            family,
            n,
            width,
            terminals_per_switch,
            slots,
            degree,
        })
    }

    /// Number of switches.
    pub fn num_switches(&self) -> u32 {
        self.n
    }

    /// Current number of links at switch `s` (0 when out of range).
    pub fn degree(&self, s: SwitchId) -> u16 {
        self.degree.get(s as usize).copied().unwrap_or(0)
    }

    /// Whether `u` and `v` are already linked.
    pub fn has_link(&self, u: SwitchId, v: SwitchId) -> bool {
        if u >= self.n {
            return false;
        }
        let w = self.width as usize;
        let d = self.degree(u) as usize;
        self.slots[u as usize * w..u as usize * w + d]
            .iter()
            .any(|s| s.peer == v)
    }

    /// Adds a link `u – v` on the next free port of each end (parallel links allowed;
    /// the caller rejects them if its family forbids them).
    pub fn add_link(
        &mut self,
        u: SwitchId,
        v: SwitchId,
        class: LinkClass,
    ) -> Result<(), TopologyError> {
        let (du, dv) = (self.degree(u), self.degree(v));
        self.add_link_at(u, du, v, dv, class)
    }

    /// Adds a link from port `pu` of `u` to port `pv` of `v` (both ports must be free network
    /// ports). Lets a family fix its port order explicitly, e.g. ring ports 0 = `+1`,
    /// 1 = `−1` at every switch. [`StoredGraphBuilder::add_link`] uses port `degree` next, so
    /// ports `0..degree` of a switch must all be connected before it is called again.
    pub fn add_link_at(
        &mut self,
        u: SwitchId,
        pu: PortIndex,
        v: SwitchId,
        pv: PortIndex,
        class: LinkClass,
    ) -> Result<(), TopologyError> {
        for s in [u, v] {
            if s >= self.n {
                return Err(TopologyError::SwitchOutOfRange {
                    switch: s as u64,
                    n: self.n as u64,
                });
            }
        }
        if u == v {
            return Err(TopologyError::SelfLoop { switch: u });
        }
        let w = self.width as usize;
        for (s, p) in [(u, pu), (v, pv)] {
            if p >= self.width || self.degree[s as usize] >= self.width {
                return Err(TopologyError::DegreeExceeded {
                    switch: s,
                    max: self.width as u32,
                });
            }
            if self.slots[s as usize * w + p as usize].is_connected() {
                return Err(TopologyError::Invalid(InvalidParam {
                    param: "port",
                    value: p as u64,
                    rule: "a port can carry only one link",
                }));
            }
        }
        self.slots[u as usize * w + pu as usize] = Slot {
            peer: v,
            peer_port: pv,
            class,
        };
        self.slots[v as usize * w + pv as usize] = Slot {
            peer: u,
            peer_port: pu,
            class,
        };
        self.degree[u as usize] += 1;
        self.degree[v as usize] += 1;
        Ok(())
    }

    /// Finishes the graph as a read-only view of the storage.
    pub fn finish(self) -> StoredGraph<'a> {
        StoredGraph {
            family: self.family,
            n: self.n,
            width: self.width,
            terminals_per_switch: self.terminals_per_switch,
            slots: self.slots,
            attached: None,
        }
    }
}

/// Builds an arbitrary graph of `n` switches from an edge list (`u v` pairs, parallel links
/// allowed, self loops rejected); `width` bounds the network ports per switch.
pub fn from_edges<'a, I>(
    n: u32,
    width: u16,
    terminals_per_switch: u16,
    edges: I,
    slots: &'a mut [Slot],
    degree: &'a mut [u16],
) -> Result<StoredGraph<'a>, TopologyError>
where
    I: IntoIterator<Item = (u32, u32)>,
{
    let mut b = StoredGraphBuilder::new(
        Family::Arbitrary,
        n,
        width,
        terminals_per_switch,
        slots,
        degree,
    )?;
    for (u, v) in edges {
        b.add_link(u, v, LinkClass::Local)?;
    }
    Ok(b.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_ports_are_symmetric() {
        let mut slots = [Slot::EMPTY; 6];
        let mut deg = [0u16; 3];
        let g = from_edges(3, 2, 1, [(0, 1), (1, 2), (2, 0)], &mut slots, &mut deg).unwrap();
        assert_eq!(g.num_switches(), 3);
        assert_eq!(g.radix(), 3);
        for s in 0..3 {
            for p in 0..2 {
                let l = g.port(s, p).link().unwrap();
                let back = g.port(l.peer, l.peer_port).link().unwrap();
                assert_eq!((back.peer, back.peer_port), (s, p));
            }
            assert_eq!(g.port(s, 2), Port::Terminal(s));
            assert_eq!(g.terminal_port(s), Some((s, 2)));
        }
        assert_eq!(g.port(5, 0), Port::Unconnected);
        assert_eq!(g.port(0, 9), Port::Unconnected);
    }

    #[test]
    fn from_slots_reopens_and_validates() {
        let mut slots = [Slot::EMPTY; 6];
        let mut deg = [0u16; 3];
        from_edges(3, 2, 1, [(0, 1), (1, 2), (2, 0)], &mut slots, &mut deg).unwrap();
        let g = StoredGraph::from_slots(Family::Arbitrary, 3, 2, 1, &slots).unwrap();
        assert_eq!(g.port(0, 0).link().unwrap().peer, 1);
        let mut bad = slots;
        bad[0].peer_port = 1;
        assert!(StoredGraph::from_slots(Family::Arbitrary, 3, 2, 1, &bad).is_err());
        // The two ends of a link disagree on its class.
        let mut bad = slots;
        bad[0].class = if bad[0].class == LinkClass::Global {
            LinkClass::Local
        } else {
            LinkClass::Global
        };
        assert!(StoredGraph::from_slots(Family::Arbitrary, 3, 2, 1, &bad).is_err());
        assert!(StoredGraph::from_slots(Family::Arbitrary, 4, 2, 1, &slots).is_err());
    }

    #[test]
    fn errors_name_the_problem() {
        let mut slots = [Slot::EMPTY; 4];
        let mut deg = [0u16; 2];
        assert_eq!(
            from_edges(2, 2, 1, [(0, 0)], &mut slots, &mut deg).unwrap_err(),
            TopologyError::SelfLoop { switch: 0 }
        );
        assert_eq!(
            from_edges(2, 2, 1, [(0, 5)], &mut slots, &mut deg).unwrap_err(),
            TopologyError::SwitchOutOfRange { switch: 5, n: 2 }
        );
        assert!(matches!(
            from_edges(2, 1, 1, [(0, 1), (0, 1)], &mut slots, &mut deg).unwrap_err(),
            TopologyError::DegreeExceeded { .. }
        ));
        assert!(matches!(
            from_edges(3, 2, 1, [(0, 1)], &mut slots, &mut deg).unwrap_err(),
            TopologyError::Capacity(..)
        ));
    }
}
