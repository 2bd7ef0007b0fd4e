//! The allocators' numbering of a router's inputs and outputs (docs/booksim.md §3.7, §4).
//!
//! BookSim2 numbers a router's inputs `0..inputs` and its outputs `0..outputs`, apart; a
//! jumpnet router's allocators number both by its ports, `0..radix`. The two agree wherever
//! every port is an input and an output — every network but a butterfly. A butterfly's links
//! run one way ([`jumpnet_core::topology::Topology::port_use`]): of its routers' `3k` ports
//! `k` are inputs (the links from the stage before, or the nodes' injection at the first
//! stage) and `k` outputs (to the stage after, or the ejection at the last), BookSim2's `k`
//! and `k` in BookSim2's order.
//!
//! iSLIP, the separable allocators and `select` decide alike over either numbering: they
//! compare round-robin distances from pointers that move past a match, and ports no request
//! names leave that order as it is. The others depend on the number of inputs and outputs
//! ([`Allocator::counts_ports`]): the wavefront's diagonals `(input + output) mod S`,
//! `max_size`'s priority input and LOA's pointers, which move one place per allocation, and
//! PIM's uniform draws. For them the router renumbers its requests into BookSim2's numbering
//! before the allocation and its winners back after it ([`Numbering`]), and allocates with
//! BookSim2's counts; their pointers live in that numbering. A crossbar input `port·I +
//! lane` (input speedup `I`) becomes `input·I + lane`, a crossbar output `port·O + lane`
//! becomes `output·O + lane`; in the VC allocator an input VC `port·vcs + vc` becomes
//! `input·vcs + vc`, an output VC `output·vcs + vc`.
//!
//! Routers whose ports are used alike share one numbering (a butterfly has three: first,
//! middle and last stage).

use std::collections::HashMap;

use jumpnet_core::topology::PortUse;

use crate::sim::config::Allocator;
use crate::sim::network::Fabric;
use crate::sim::router::allocator::{Request, Shape, NONE};
use crate::sim::router::vc_allocator::{VcAllocator, VcRequest};

impl Allocator {
    /// Whether the allocator's matches depend on how many inputs and outputs a router has,
    /// not only on their order (the module documentation): the wavefront allocators,
    /// `max_size`, LOA and PIM.
    pub fn counts_ports(self) -> bool {
        matches!(
            self,
            Allocator::Wavefront
                | Allocator::RrWavefront
                | Allocator::MaxSize
                | Allocator::Loa
                | Allocator::Pim
        )
    }
}

/// One router's inputs and outputs in BookSim2's numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Numbering {
    /// Per port, its input number (`NONE`: not an input).
    input: Vec<u16>,
    /// Per port, its output number (`NONE`: not an output).
    output: Vec<u16>,
    /// Per input number, its port.
    in_port: Vec<u16>,
    /// Per output number, its port.
    out_port: Vec<u16>,
}

impl Numbering {
    /// The numbering of a router whose ports are used as `uses` says: the inputs, then the
    /// outputs, in port order.
    fn of(uses: &[PortUse]) -> Self {
        let (mut input, mut output) = (vec![NONE; uses.len()], vec![NONE; uses.len()]);
        let (mut in_port, mut out_port) = (Vec::new(), Vec::new());
        for (p, u) in uses.iter().enumerate() {
            if u.is_input() {
                input[p] = in_port.len() as u16;
                in_port.push(p as u16);
            }
            if u.is_output() {
                output[p] = out_port.len() as u16;
                out_port.push(p as u16);
            }
        }
        Numbering {
            input,
            output,
            in_port,
            out_port,
        }
    }

    /// Inputs and outputs of the router.
    pub fn counts(&self) -> (u16, u16) {
        (self.in_port.len() as u16, self.out_port.len() as u16)
    }

    /// The switch allocator's shape over this router's inputs and outputs, with input
    /// speedup `is` and output speedup `os` (crossbar inputs `inputs · is`, outputs
    /// `outputs · os`).
    pub fn shape(&self, shape: &Shape, is: u16, os: u16) -> Shape {
        let (ni, no) = self.counts();
        Shape {
            ins: ni * is,
            outs: no * os,
            ..*shape
        }
    }

    /// The VC allocator over this router's input and output VCs (`vcs` per port).
    pub fn vc_allocator(&self, va: &VcAllocator, vcs: u16) -> VcAllocator {
        let (ni, no) = self.counts();
        VcAllocator {
            ins: ni * vcs,
            outs: no * vcs,
            ..*va
        }
    }

    /// `x = port·n + lane` as `number(port)·n + lane`.
    #[inline]
    fn renumber(x: u16, n: u16, number: &[u16]) -> u16 {
        let (port, lane) = (x / n, x % n);
        number[usize::from(port)] * n + lane
    }

    /// Switch request `q` (crossbar inputs and outputs of the ports, speedups `is`, `os`) in
    /// this numbering.
    #[inline]
    pub fn to_booksim(&self, q: &mut Request, is: u16, os: u16) {
        q.input = Self::renumber(q.input, is, &self.input);
        q.output = Self::renumber(q.output, os, &self.output);
    }

    /// The crossbar input of the ports that input `x` of this numbering is (speedup `is`).
    #[inline]
    pub fn input_of(&self, x: u16, is: u16) -> u16 {
        Self::renumber(x, is, &self.in_port)
    }

    /// Switch request `q` of this numbering back in the ports' crossbar inputs and outputs.
    #[inline]
    pub fn to_ports(&self, q: &mut Request, is: u16, os: u16) {
        q.input = Self::renumber(q.input, is, &self.in_port);
        q.output = Self::renumber(q.output, os, &self.out_port);
    }

    /// The input VC of this numbering that input VC `x` (`port·vcs + vc`) is.
    #[inline]
    pub fn vc_input_of(&self, x: u16, vcs: u16) -> u16 {
        Self::renumber(x, vcs, &self.input)
    }

    /// VC request `q` (`port·vcs + vc` on both sides) in this numbering.
    #[inline]
    pub fn vc_to_booksim(&self, q: &mut VcRequest, vcs: u16) {
        q.input = Self::renumber(q.input, vcs, &self.input);
        q.output = Self::renumber(q.output, vcs, &self.output);
    }

    /// VC request `q` of this numbering back in the ports' VCs.
    #[inline]
    pub fn vc_to_ports(&self, q: &mut VcRequest, vcs: u16) {
        q.input = Self::renumber(q.input, vcs, &self.in_port);
        q.output = Self::renumber(q.output, vcs, &self.out_port);
    }
}

/// Every router's [`Numbering`], shared among the routers whose ports are used alike.
#[derive(Debug)]
pub(crate) struct AllocPorts {
    /// Per router, its numbering in `numberings`.
    of: Vec<u32>,
    numberings: Vec<Numbering>,
}

impl AllocPorts {
    /// The numberings of `fabric`'s routers, or `None` when every port of every router is
    /// an input and an output (the allocators' own numbering is then BookSim2's).
    pub fn new(fabric: &Fabric) -> Option<Self> {
        if fabric.port_use.is_empty() {
            return None;
        }
        let radix = fabric.radix;
        let mut seen: HashMap<&[PortUse], u32> = HashMap::new();
        let mut numberings = Vec::new();
        let of = fabric
            .port_use
            .chunks_exact(radix)
            .map(|uses| {
                *seen.entry(uses).or_insert_with(|| {
                    numberings.push(Numbering::of(uses));
                    (numberings.len() - 1) as u32
                })
            })
            .collect();
        Some(AllocPorts { of, numberings })
    }

    /// Router `s`'s numbering.
    #[inline]
    pub fn of(&self, s: usize) -> &Numbering {
        &self.numberings[self.of[s] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::router::allocator::rq;
    use PortUse::{Both, In, Out, Unused};

    #[test]
    fn inputs_and_outputs_are_numbered_apart_in_port_order() {
        // A first-stage router of a 2-ary butterfly: ports 0, 1 unconnected, 2, 3 its
        // outputs, 4, 5 its nodes' injection.
        let m = Numbering::of(&[Unused, Unused, Out, Out, In, In]);
        assert_eq!(m.counts(), (2, 2));
        // Input speedup 2, output speedup 1: crossbar input 9 (port 4, lane 1) is crossbar
        // input 1 of BookSim2's numbering (input 0, lane 1), crossbar output 3 is output 1.
        let mut q = rq(9, 1, 3);
        m.to_booksim(&mut q, 2, 1);
        assert_eq!((q.input, q.output), (1, 1));
        assert_eq!(m.input_of(1, 2), 9);
        m.to_ports(&mut q, 2, 1);
        assert_eq!(q, rq(9, 1, 3));
        // VC requests, 4 VCs: input VC 4·4 + 3 → 0·4 + 3; output VC 3·4 + 2 → 1·4 + 2.
        let mut v = VcRequest {
            input: 19,
            output: 14,
        };
        m.vc_to_booksim(&mut v, 4);
        assert_eq!((v.input, v.output), (3, 6));
        m.vc_to_ports(&mut v, 4);
        assert_eq!((v.input, v.output), (19, 14));
        let shape = Shape {
            kind: Allocator::Wavefront,
            ins: 12,
            outs: 6,
            vcs: 4,
            iters: 1,
        };
        let s = m.shape(&shape, 2, 1);
        assert_eq!((s.ins, s.outs, s.vcs), (4, 2, 4));
        // Ports used both ways keep their numbers.
        let id = Numbering::of(&[Both, Both, Both]);
        let mut q = rq(2, 0, 1);
        id.to_booksim(&mut q, 1, 1);
        assert_eq!(q, rq(2, 0, 1));
    }

    /// `rounds` allocations of random request sets of a router whose ports are used as
    /// `uses` (VCs `vcs`), by `kind` over the ports' numbering and over BookSim2's: whether
    /// every allocation has the same winners.
    fn same_winners(kind: Allocator, uses: &[PortUse], vcs: u8, rounds: usize) -> bool {
        let m = Numbering::of(uses);
        let (ni, no) = m.counts();
        let radix = uses.len();
        let mut ports = crate::sim::router::allocator::Arbiters::new(kind, 1, radix, vcs);
        let mut booksim = crate::sim::router::allocator::Arbiters::new(kind, 1, radix, vcs);
        let shape = m.shape(&booksim.shape(), 1, 1);
        let mut scratch = crate::sim::router::allocator::Scratch::new(radix);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let mut reqs = Vec::new();
            for i in 0..ni {
                for v in 0..vcs {
                    if rnd(3) == 0 {
                        let o = m.out_port[rnd(u64::from(no)) as usize];
                        reqs.push(rq(m.in_port[usize::from(i)], v, o));
                    }
                }
            }
            ports.allocate(0, &reqs, &mut w1);
            let mut theirs: Vec<Request> = reqs.clone();
            for q in &mut theirs {
                m.to_booksim(q, 1, 1);
            }
            let n = shape.pointers();
            let ptrs = &mut booksim.pointers_mut()[..n];
            if shape.allocate(ptrs, &mut scratch, &theirs, &mut w2) {
                w2.clone_from(&theirs);
            }
            for q in &mut w2 {
                m.to_ports(q, 1, 1);
            }
            if w1 != w2 {
                return false;
            }
        }
        true
    }

    #[test]
    fn order_only_allocators_match_alike_in_either_numbering() {
        // A first-stage router of a 3-ary butterfly (unused, outputs, injection), a middle
        // one (inputs, outputs, unused): iSLIP, the separable allocators and `select` make
        // the same matches over the 9 ports as over BookSim2's 3 inputs and 3 outputs; the
        // wavefront allocator, LOA and `max_size` do not.
        let first = [[Unused; 3], [Out; 3], [In; 3]].concat();
        let middle = [[In; 3], [Out; 3], [Unused; 3]].concat();
        for uses in [&first, &middle] {
            for kind in [
                Allocator::Islip,
                Allocator::SeparableInputFirst,
                Allocator::SeparableVc,
                Allocator::Select,
            ] {
                assert!(!kind.counts_ports());
                assert!(same_winners(kind, uses, 2, 2000), "{kind:?} {uses:?}");
            }
            for kind in [Allocator::Wavefront, Allocator::Loa, Allocator::MaxSize] {
                assert!(kind.counts_ports());
                assert!(!same_winners(kind, uses, 2, 2000), "{kind:?} {uses:?}");
            }
        }
        assert!(Allocator::RrWavefront.counts_ports() && Allocator::Pim.counts_ports());
    }

    #[test]
    fn a_route_against_a_butterflys_links_is_refused() {
        use jumpnet_core::routing::{Hop, PacketState, Routing, RoutingError};
        use jumpnet_core::topology::Network;
        // 2-ary 2-fly: first-stage routers 0, 1 (outputs on ports 2, 3), last-stage routers
        // 2, 3 (inputs on ports 0, 1). This routing leaves the first stage on port 2 and then
        // sends the packet back out of input port 0.
        struct Back;
        impl Routing for Back {
            fn num_vcs(&self) -> u8 {
                1
            }
            fn inject(&self, src: u32, _dst: u32) -> Result<PacketState, RoutingError> {
                Ok(PacketState::new(src / 2))
            }
            fn next_hop(&self, at: u32, _: &mut PacketState, _: u32) -> Result<Hop, RoutingError> {
                Ok(Hop::Forward {
                    port: if at < 2 { 2 } else { 0 },
                    vc: 0,
                })
            }
        }
        let st = crate::builder::fly::storage(2, 2).unwrap();
        let net = Network::Stored(st.graph().unwrap());
        let cfg = crate::sim::SimConfig::booksim();
        let e = crate::sim::run_trace(&net, &Back, &cfg, &[(0, 3, 0)]).unwrap_err();
        assert!(e.to_string().contains("runs into the switch"), "{e}");
    }
}
