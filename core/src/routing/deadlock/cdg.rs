//! Channel dependency graph (CDG) and deadlock analysis (docs/routing.md §2, §6).
//!
//! Vertices are `(directed channel, VC)` pairs; an edge `c1 → c2` exists when some route
//! uses `c1` and then `c2` (Dally & Seitz: a routing is deadlock-free if its CDG is acyclic).
//! Because `c2` always leaves the switch `c1` arrives at, an edge is stored as one bit in
//! the row of `c1`, indexed by `c2`'s output port and VC: the whole graph is
//! `switches · radix · vcs · radix · vcs` bits in a caller buffer. Works for any [`Routing`],
//! table-driven ones included.

use crate::error::{CapacityError, InvalidParam};
use crate::topology::{SwitchId, Topology};

use crate::routing::deadlock::channel::ChannelVc;
use crate::routing::deadlock::cycle::{CycleSearch, DependencyGraph, Frame};
use crate::routing::error::RoutingError;
use crate::routing::paths::walk::{walk, Step};
use crate::routing::Routing;

/// Channel dependency graph over `(channel, VC)` vertices in a caller bit buffer.
#[derive(Debug)]
pub struct Cdg<'a, T> {
    topo: &'a T,
    vcs: u32,
    radix: u32,
    vertices: u32,
    bits: &'a mut [u64],
}

/// Outcome of [`Cdg::find_cycle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadlock {
    /// The CDG is acyclic: the routing is deadlock-free.
    Free,
    /// A dependency cycle of this many channels was written to the output buffer; channel
    /// `k` is followed by channel `k + 1`, the last one by the first.
    Cycle(usize),
}

impl<'a, T: Topology> Cdg<'a, T> {
    /// Number of vertices for `topo` with `vcs` virtual channels.
    pub fn vertices_needed(topo: &T, vcs: u8) -> u64 {
        topo.num_switches() as u64 * topo.radix() as u64 * vcs as u64
    }

    /// Number of `u64` words the bit buffer needs.
    pub fn words_needed(topo: &T, vcs: u8) -> u64 {
        let bits = Self::vertices_needed(topo, vcs) * topo.radix() as u64 * vcs as u64;
        bits.div_ceil(64)
    }

    /// An empty CDG for `topo` with `vcs` virtual channels in `bits`
    /// ([`Cdg::words_needed`] words).
    pub fn new(topo: &'a T, vcs: u8, bits: &'a mut [u64]) -> Result<Self, RoutingError> {
        if vcs == 0 {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "vcs",
                value: 0,
                rule: "a channel dependency graph needs at least 1 virtual channel",
            }));
        }
        let vertices = Self::vertices_needed(topo, vcs);
        if vertices > u32::MAX as u64 / 2 {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "channels x vcs",
                value: vertices,
                rule: "the dependency graph needs fewer than 2^31 vertices",
            }));
        }
        let words = Self::words_needed(topo, vcs);
        CapacityError::check("CDG bits", words, bits.len())?;
        let bits = &mut bits[..words as usize];
        bits.fill(0);
        Ok(Cdg {
            topo,
            vcs: vcs as u32,
            radix: topo.radix() as u32,
            vertices: vertices as u32,
            bits,
        })
    }

    /// Vertex index of a channel on a VC (`None` if out of range).
    pub fn vertex(&self, c: ChannelVc) -> Option<u32> {
        if c.switch >= self.topo.num_switches()
            || c.port as u32 >= self.radix
            || c.vc as u32 >= self.vcs
        {
            return None;
        }
        Some((c.switch * self.radix + c.port as u32) * self.vcs + c.vc as u32)
    }

    /// The channel of vertex `v`.
    pub fn channel(&self, v: u32) -> ChannelVc {
        let vc = v % self.vcs;
        let ch = v / self.vcs;
        ChannelVc {
            switch: ch / self.radix.max(1),
            port: (ch % self.radix.max(1)) as u16,
            vc: vc as u8,
        }
    }

    /// Records that a route uses channel `from` and then `to`; `to` must leave the switch
    /// `from` arrives at.
    pub fn add_dependency(&mut self, from: ChannelVc, to: ChannelVc) -> Result<(), RoutingError> {
        let v = self.vertex(from).ok_or(RoutingError::NotALink {
            switch: from.switch,
            port: from.port,
        })?;
        let link = self
            .topo
            .port(from.switch, from.port)
            .link()
            .ok_or(RoutingError::NotALink {
                switch: from.switch,
                port: from.port,
            })?;
        if link.peer != to.switch || self.vertex(to).is_none() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "dependency target switch",
                value: to.switch as u64,
                rule: "a dependency must continue at the switch its first channel leads to",
            }));
        }
        let slot = to.port as u32 * self.vcs + to.vc as u32;
        let bit = v as u64 * (self.radix * self.vcs) as u64 + slot as u64;
        if let Some(w) = self.bits.get_mut((bit / 64) as usize) {
            *w |= 1u64 << (bit % 64);
        }
        Ok(())
    }

    /// Adds the dependencies of the route from every terminal to every other terminal.
    pub fn add_routing<R: Routing + ?Sized>(
        &mut self,
        routing: &R,
        hop_limit: u32,
    ) -> Result<(), RoutingError> {
        let nt = self.topo.num_terminals();
        for src in 0..nt {
            for dst in 0..nt {
                if src != dst {
                    self.add_route(routing, src, dst, hop_limit)?;
                }
            }
        }
        Ok(())
    }

    /// Adds the dependencies of the route from terminal `src` to terminal `dst`.
    pub fn add_route<R: Routing + ?Sized>(
        &mut self,
        routing: &R,
        src: u32,
        dst: u32,
        hop_limit: u32,
    ) -> Result<(), RoutingError> {
        let mut prev: Option<ChannelVc> = None;
        let mut err = Ok(());
        walk(self.topo, routing, src, dst, hop_limit, |s: &Step| {
            let cur = ChannelVc {
                switch: s.from,
                port: s.port,
                vc: s.vc,
            };
            if let Some(p) = prev {
                if err.is_ok() {
                    err = self.add_dependency(p, cur);
                }
            }
            prev = Some(cur);
        })?;
        err
    }

    /// Adds dependencies along an explicit channel sequence (consecutive channels must
    /// chain).
    pub fn add_path(&mut self, channels: &[ChannelVc]) -> Result<(), RoutingError> {
        for w in channels.windows(2) {
            self.add_dependency(w[0], w[1])?;
        }
        Ok(())
    }

    /// Whether the dependency `from → to` is recorded.
    pub fn has_dependency(&self, from: ChannelVc, to: ChannelVc) -> bool {
        let (Some(v), Some(_)) = (self.vertex(from), self.vertex(to)) else {
            return false;
        };
        match self.topo.port(from.switch, from.port).link() {
            Some(l) if l.peer == to.switch => {}
            _ => return false,
        }
        let slot = to.port as u32 * self.vcs + to.vc as u32;
        self.bit(v, slot)
    }

    /// Number of recorded dependencies.
    pub fn num_dependencies(&self) -> u64 {
        self.bits.iter().map(|w| w.count_ones() as u64).sum()
    }

    fn bit(&self, v: u32, slot: u32) -> bool {
        let bit = v as u64 * (self.radix * self.vcs) as u64 + slot as u64;
        self.bits
            .get((bit / 64) as usize)
            .is_some_and(|w| w & (1u64 << (bit % 64)) != 0)
    }

    fn peer(&self, switch: SwitchId, port: u16) -> Option<SwitchId> {
        self.topo.port(switch, port).link().map(|l| l.peer)
    }

    /// Searches the CDG for a cycle (iterative DFS, roots and successors in ascending
    /// order). `marks` and `stack` need [`Cdg::vertices_needed`] entries; a cycle found is
    /// written to `cycle_out` (which must hold it, else [`RoutingError::Capacity`]).
    ///
    /// # Examples
    ///
    /// Dimension-order routing on a ring of 4: with one VC the `+` channels depend on each other
    /// all the way round; dateline VCs break the cycle (docs/routing.md §2).
    ///
    /// ```
    /// use jumpnet_core::routing::deadlock::cdg::{Cdg, Deadlock};
    /// use jumpnet_core::routing::deadlock::cycle::Frame;
    /// use jumpnet_core::routing::{ChannelVc, Routing, TorusDor, TorusVcs};
    /// use jumpnet_core::topology::Torus;
    ///
    /// let ring = Torus::torus(&[4], 1)?;
    /// for (vcs, deadlocks) in [(TorusVcs::Single, true), (TorusVcs::Dateline, false)] {
    ///     let dor = TorusDor::new(&ring, vcs)?;
    ///     let mut bits = [0u64; 8];
    ///     assert!(Cdg::words_needed(&ring, dor.num_vcs()) <= 8);
    ///     let mut cdg = Cdg::new(&ring, dor.num_vcs(), &mut bits)?;
    ///     cdg.add_routing(&dor, 8)?;
    ///     let (mut marks, mut stack) = ([0u32; 32], [Frame::default(); 32]);
    ///     let mut cycle = [ChannelVc::default(); 32];
    ///     let found = cdg.find_cycle(&mut marks, &mut stack, &mut cycle)?;
    ///     assert_eq!(matches!(found, Deadlock::Cycle(_)), deadlocks);
    /// }
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn find_cycle(
        &self,
        marks: &mut [u32],
        stack: &mut [Frame],
        cycle_out: &mut [ChannelVc],
    ) -> Result<Deadlock, RoutingError> {
        let mut search = CycleSearch::new(self.vertices, marks, stack)?;
        match search.next_cycle(self) {
            None => Ok(Deadlock::Free),
            Some(i) => {
                let frames = search.frames().get(i..).unwrap_or(&[]);
                CapacityError::check("cycle channels", frames.len() as u64, cycle_out.len())?;
                for (o, f) in cycle_out.iter_mut().zip(frames) {
                    *o = self.channel(f.vertex);
                }
                Ok(Deadlock::Cycle(frames.len()))
            }
        }
    }
}

impl<T: Topology> DependencyGraph for Cdg<'_, T> {
    fn num_vertices(&self) -> u32 {
        self.vertices
    }

    fn fanout(&self) -> u32 {
        self.radix * self.vcs
    }

    fn successor(&self, v: u32, slot: u32) -> Option<u32> {
        if !self.bit(v, slot) {
            return None;
        }
        let c = self.channel(v);
        let peer = self.peer(c.switch, c.port)?;
        let port = slot / self.vcs;
        let vc = slot % self.vcs;
        Some((peer * self.radix + port) * self.vcs + vc)
    }
}
