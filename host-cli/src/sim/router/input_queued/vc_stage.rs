//! BookSim2's VC allocation stage (`iq_router.cpp` `_VCAllocEvaluate` / `_VCAllocUpdate`;
//! docs/booksim.md §4), the router feature `vc_alloc_stage`. Without it a routed head takes
//! the free output VC with most credits in the step it is routed and requests the switch in
//! that same step (`step::allocate_vc`). With it:
//!
//! * a head is routed `routing_delay` steps after it arrives (or after the tail in front
//!   of it left) and takes part in VC allocation from then on;
//! * in each step the router's heads waiting for an output VC request every *free* output
//!   VC of their route's range — the routing's VC and its aliases `vc + R, vc + 2R, …` on
//!   a link (or its half of the link's VCs, BookSim2's torus `dim_order`,
//!   `Params::link_vcs`), every VC of the ejection port — and BookSim2's VC allocator
//!   (`sim::router::vc_allocator`, `vc_allocator = islip`, `separable_input_first` or
//!   `wavefront`)
//!   matches them. VCs released in the step (tails that crossed the switch) are free for
//!   the allocation of the same step: the switch stage runs first, as BookSim2's
//!   `_SWAllocUpdate` of the step before happens before its `_VCAllocEvaluate`;
//! * a winner holds its output VC and requests the switch `vc_alloc_delay +
//!   sw_alloc_delay` steps later (BookSim2 evaluates switch allocation in the step after
//!   `_VCAllocUpdate`);
//! * a loser, or a head with no free VC in its range, tries again `vc_alloc_delay` steps
//!   later (BookSim2 puts it back into `_vc_alloc_vcs` at its update).
//!
//! Ejection VCs are taken and released as link VCs are (BookSim2 keeps a `BufferState` of
//! the ejection channel too); a terminal drains its ejection buffer at once, so they lack
//! credits only with `booksim_credits`, whose terminals return them a cycle after a link's
//! latency (`traverse`).

use jumpnet_core::routing::Routing;

use crate::sim::config::{Allocator, Kind};
use crate::sim::error::SimError;
use crate::sim::router::input_queued::priority::request_priorities;
use crate::sim::router::input_queued::state::VcState;
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::input_queued::Params;
use crate::sim::router::pim;
use crate::sim::router::vc_allocator::VcRequest;
use crate::sim::router::vc_port::PortHead;
use crate::sim::router::Effects;

/// [`VcState::Routed`]'s `vc` of a head routed to its ejection port: any VC of the port.
pub(crate) const EJECT_ANY: u8 = u8::MAX;

/// [`VcState::Routed`]'s `vc` of a head routed to its ejection port on one VC `v`
/// (`exact_vcs`): `EJECT_ON | v`.
pub(crate) const EJECT_ON: u8 = 0x80;

/// Whether [`VcState::Routed`]'s `vc` routes to the ejection port ([`EJECT_ANY`] or
/// [`EJECT_ON`]).
#[inline]
pub(crate) fn is_eject(vc: u8) -> bool {
    vc & EJECT_ON != 0
}

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// VC allocation of the heads of local router `ls` queued in this step
    /// (`Work::vc_heads`, local input VCs): requests, allocation, and each head's next step.
    pub(super) fn allocate_vcs(&mut self, s: usize) -> Result<(), SimError> {
        if self.work.vc_heads.is_empty() {
            return Ok(());
        }
        let k = self.k;
        let ls = s - self.r.lo;
        let first = ls * k.per;
        // Heads queued by `restart_head` this step (lookahead routing) come after the scan's;
        // the allocation wants them in input-VC order, routed.
        if core::mem::take(&mut self.work.vc_heads_late) {
            self.work.vc_heads.sort_unstable();
        }
        for h in 0..self.work.vc_heads.len() {
            let iv = first + usize::from(self.work.vc_heads[h]);
            if self.r.ivs[iv].state() == VcState::Idle {
                self.route(s, iv)?;
            }
        }
        let sp = self.clock.speedup;
        let retry = sp.after_stage(self.now, u64::from(k.vc_alloc_delay));
        let won = sp.after_stage(retry, u64::from(k.sw_alloc_delay));
        match self.shared_ports(first) {
            Some(0) => self.allocate_disjoint_vcs(ls, (won, retry)),
            Some(ports) => {
                self.split_shared_heads(first, ports);
                self.allocate_disjoint_vcs(ls, (won, retry));
                self.allocate_port_groups(ls, ports, (won, retry));
            }
            None => {
                core::mem::swap(&mut self.work.vc_heads, &mut self.work.vc_shared);
                self.allocate_shared_vcs(ls, (won, retry));
            }
        }
        if k.sw_order && !k.speculative {
            // BookSim2's switch list (`sw_order`).
            self.order_vc_winners(ls);
        }
        self.work.vc_shared.clear();
        self.work.vc_heads.clear();
        Ok(())
    }

    /// The output ports to which two or more of the queued heads of the router whose
    /// first input VC is `first` are routed, or `None` when the VC allocator takes all
    /// heads: with the wavefront allocator, whose priority diagonal spans every port, PIM and
    /// the lonely output allocator (no one-pass allocation of disjoint requests,
    /// `VcAllocator::has_disjoint_pass`), a port ≥ 128 or more than 64 VCs.
    fn shared_ports(&self, first: usize) -> Option<u128> {
        let k = self.k;
        if !k.vc_alloc.has_disjoint_pass() || k.vcs > 64 {
            return None;
        }
        let (mut seen, mut shared) = (0u128, 0u128);
        for &li in &self.work.vc_heads {
            if let VcState::Routed { port, .. } = self.r.ivs[first + usize::from(li)].state() {
                let bit = 1u128.checked_shl(u32::from(port))?;
                shared |= seen & bit;
                seen |= bit;
            }
        }
        Some(shared)
    }

    /// Moves the queued heads of the router whose first input VC is `first` that are routed
    /// to `ports` to `Work::vc_shared` (both lists stay in input-VC order): the other heads
    /// take their VCs one at a time (`allocate_disjoint_vcs`), these port by port
    /// (`allocate_port_groups`). A head requests output VCs of its own port only, so the
    /// heads of one port neither see nor move what another port's heads request, and the
    /// parts match as one allocation of all heads would.
    fn split_shared_heads(&mut self, first: usize, ports: u128) {
        let ivs = &*self.r.ivs;
        let work = &mut *self.work;
        let vc_shared = &mut work.vc_shared;
        work.vc_heads
            .retain(|&li| match ivs[first + usize::from(li)].state() {
                VcState::Routed { port, .. } if ports >> port & 1 == 1 => {
                    vc_shared.push(li);
                    false
                }
                _ => true,
            });
    }

    /// VC allocation of the heads in `Work::vc_shared` of local router `ls`, routed to the
    /// output ports `ports` (two heads or more each), one port at a time
    /// (`VcAllocator::allocate_port`).
    fn allocate_port_groups(&mut self, ls: usize, mut ports: u128, times: (u64, u64)) {
        let k = self.k;
        let first = ls * k.per;
        let n = k.vc_alloc.pointers();
        while ports != 0 {
            let port = ports.trailing_zeros() as u16;
            ports &= ports - 1;
            let out = usize::from(port) * k.vcs;
            let range = first + out..first + out + k.vcs;
            let (busy, credits) = (&self.r.busy[range.clone()], &self.r.credits[range]);
            let work = &mut *self.work;
            work.vc_group.clear();
            work.vc_elig.clear();
            for &li in &work.vc_shared {
                let VcState::Routed { port: p, vc } = self.r.ivs[first + usize::from(li)].state()
                else {
                    continue;
                };
                if p != port {
                    continue;
                }
                let iv = first + usize::from(li);
                let kind = match k.kind_vcs {
                    Some(_) => self.fx.route(self.r.ivs[iv].front.pkt).kind,
                    None => Kind::Any,
                };
                let (start, end, stride) = vc_span(k, vc, kind);
                // Its free VCs, and whether one has a credit: the head may bid for the switch
                // (`speculation`).
                let (mut want, mut credit) = (0u64, false);
                let mut v = start;
                while v < end {
                    if !busy[v] {
                        want |= 1 << v;
                        credit |= is_eject(vc) || credits[v] > 0;
                    }
                    v += stride;
                }
                work.vc_elig.push(k.speculative && credit);
                work.vc_group.push(PortHead {
                    input: li,
                    want,
                    pri: 0,
                });
            }
            if k.vc_ranked {
                self.group_priorities(ls);
            }
            let work = &mut *self.work;
            let ptrs = &mut self.r.vc_ptrs[ls * n..(ls + 1) * n];
            let (group, won) = (&work.vc_group, &mut work.vc_won);
            k.vc_alloc.allocate_port(ptrs, out as u16, group, won);
            for h in 0..self.work.vc_group.len() {
                let iv = first + usize::from(self.work.vc_group[h].input);
                let granted = self.work.vc_won[h].is_some_and(|o| {
                    let eject = matches!(
                        self.r.ivs[iv].state(),
                        VcState::Routed { vc, .. } if is_eject(vc)
                    );
                    self.r.busy[first + usize::from(o)] = true;
                    self.r.ivs[iv].set_state(VcState::Active {
                        port,
                        vc: (usize::from(o) - out) as u8,
                        eject,
                    });
                    true
                });
                let eligible = self.work.vc_elig[h];
                self.head_allocated(ls, iv, granted, eligible, times);
            }
        }
    }

    /// VC allocation of local router `ls` when no two heads share an output port (the
    /// common case): each head takes its free VC nearest its allocator pointer
    /// (`VcAllocator::disjoint_pick`, one head at a time, without request lists).
    fn allocate_disjoint_vcs(&mut self, ls: usize, (won, retry): (u64, u64)) {
        let k = self.k;
        let (per, n) = (k.per, k.vc_alloc.pointers());
        let first = ls * per;
        // The router's own slices, taken once for all its heads.
        let r = &mut *self.r;
        let ivs = &mut r.ivs[first..first + per];
        let busy = &mut r.busy[first..first + per];
        let credits = &r.credits[first..first + per];
        let ptrs = &mut r.vc_ptrs[ls * n..(ls + 1) * n];
        let mut wake = r.wake[ls];
        for &li in &self.work.vc_heads {
            let i = usize::from(li);
            let (mut granted, mut eligible) = (false, false);
            if let VcState::Routed { port, vc } = ivs[i].state() {
                let kind = match k.kind_vcs {
                    Some(_) => self.fx.route(ivs[i].front.pkt).kind,
                    None => Kind::Any,
                };
                let (start, end, stride) = vc_span(k, vc, kind);
                let eject = is_eject(vc);
                let out = usize::from(port) * k.vcs;
                // The port's output VCs (those of the packet's range).
                let (port_busy, port_credits) = (&busy[out..out + end], &credits[out..]);
                if k.speculative {
                    // A free VC with a credit: the head may bid for the switch
                    // (`speculation`).
                    let mut v = start;
                    while v < port_busy.len() {
                        eligible |= !port_busy[v] && (eject || port_credits[v] > 0);
                        v += stride;
                    }
                }
                let free = (port_busy, start, stride);
                if let Some(o) = k.vc_alloc.disjoint_pick(ptrs, li, out as u16, free) {
                    let w = VcRequest {
                        input: li,
                        output: o,
                    };
                    k.vc_alloc.disjoint_match(ptrs, w);
                    busy[usize::from(o)] = true;
                    ivs[i].set_state(VcState::Active {
                        port,
                        vc: (usize::from(o) - out) as u8,
                        eject,
                    });
                    granted = true;
                }
            }
            // The head's next step (`head_allocated`, `speculation::after_vc_allocation`).
            let bid = k.speculative && eligible;
            if k.speculative {
                r.spec[first + i] = bid;
            }
            let ready = if granted && !bid { won } else { retry };
            ivs[i].fready = ready;
            wake = wake.min(ready);
        }
        r.wake[ls] = wake;
    }

    /// The next step of the head at (local) input VC `iv` of local router `ls` after its
    /// VC allocation (`speculation::after_vc_allocation`).
    #[inline]
    fn head_allocated(&mut self, ls: usize, iv: usize, granted: bool, elig: bool, t: (u64, u64)) {
        let ready = self.after_vc_allocation(iv, granted, elig, t);
        self.r.ivs[iv].fready = ready;
        self.r.wake[ls] = self.r.wake[ls].min(ready);
    }

    /// VC allocation of the heads in `Work::vc_shared` of local router `ls` by the VC
    /// allocator: every head requests every free VC of its range, and the allocator matches
    /// them (the wavefront, PIM and lonely output allocators, ports ≥ 128, more than 64 VCs).
    fn allocate_shared_vcs(&mut self, ls: usize, times: (u64, u64)) {
        let k = self.k;
        let vcs = k.vcs;
        let first = ls * k.per;
        if k.vc_ranked {
            self.shared_head_priorities(ls);
        }
        let work = &mut *self.work;
        work.vc_reqs.clear();
        work.vc_elig.clear();
        for &li in &work.vc_shared {
            let VcState::Routed { port, vc } = self.r.ivs[first + usize::from(li)].state() else {
                work.vc_elig.push(false);
                continue;
            };
            let kind = match k.kind_vcs {
                Some(_) => {
                    self.fx
                        .route(self.r.ivs[first + usize::from(li)].front.pkt)
                        .kind
                }
                None => Kind::Any,
            };
            let (start, end, stride) = vc_span(k, vc, kind);
            let out = usize::from(port) * vcs;
            // A free VC with a credit: the head may bid for the switch (`speculation`).
            let mut eligible = false;
            let mut v = start;
            while v < end {
                let ov = first + out + v;
                if !self.r.busy[ov] {
                    work.vc_reqs.push(VcRequest {
                        input: li,
                        output: (out + v) as u16,
                    });
                    eligible |= is_eject(vc) || self.r.credits[ov] > 0;
                }
                v += stride;
            }
            work.vc_elig.push(eligible);
        }
        let n = k.vc_alloc.pointers();
        let ptrs = &mut self.r.vc_ptrs[ls * n..(ls + 1) * n];
        let s = self.r.lo + ls;
        if k.vc_alloc.kind == Allocator::Pim {
            work.vc_scratch.rng = pim::key(k.seed, s, self.now, pim::VCS);
        }
        // A butterfly's router allocates over BookSim2's input and output VCs
        // (`router::alloc_ports`).
        let numbering = k.vc_numbering(s);
        let v = vcs as u16;
        if k.vc_ranked {
            request_priorities(work, numbering, v);
        }
        if let Some(m) = numbering {
            for q in &mut work.vc_reqs {
                m.vc_to_booksim(q, v);
            }
        }
        let alloc = numbering.map_or(k.vc_alloc, |m| m.vc_allocator(&k.vc_alloc, v));
        alloc.allocate(ptrs, &mut work.vc_scratch, &work.vc_reqs, &mut work.vc_wins);
        if let Some(m) = numbering {
            for w in &mut work.vc_wins {
                m.vc_to_ports(w, v);
            }
        }
        // Winners, in input-VC order as the heads are (both lists ascend).
        let mut next_win = 0;
        for h in 0..self.work.vc_shared.len() {
            let li = self.work.vc_shared[h];
            let iv = first + usize::from(li);
            let win = self
                .work
                .vc_wins
                .get(next_win)
                .filter(|w| w.input == li)
                .copied();
            let granted = match win {
                Some(w) => {
                    next_win += 1;
                    let (port, ov) = (w.output as usize / vcs, w.output as usize % vcs);
                    self.r.busy[first + usize::from(w.output)] = true;
                    let VcState::Routed { vc, .. } = self.r.ivs[iv].state() else {
                        continue;
                    };
                    self.r.ivs[iv].set_state(VcState::Active {
                        port: port as u16,
                        vc: ov as u8,
                        eject: is_eject(vc),
                    });
                    true
                }
                None => false,
            };
            let eligible = self.work.vc_elig[h];
            self.head_allocated(ls, iv, granted, eligible, times);
        }
    }

    /// With lookahead routing (`routing_delay = 0`) the head behind a tail that crossed the
    /// switch in this step takes part in this step's VC allocation (BookSim2's
    /// `_SWAllocUpdate` puts it straight into VC allocation, evaluated in the next BookSim2
    /// step — this one in jumpnet's numbering).
    #[inline]
    pub(super) fn vc_allocation_now(&mut self, ls: usize, iv: usize) {
        let li = iv - ls * self.k.radix * self.k.vcs;
        self.work.vc_heads.push(li as u16);
        self.work.vc_heads_late = true;
    }
}

/// The output VCs a head of kind `kind` routed on logical VC `vc` requests: `(first, end,
/// stride)` within its output port's VCs (`first, first + stride, …` below `end`).
///
/// Without read/write traffic: on a link the routing's VC and its aliases `vc + R, vc + 2R,
/// …` (`R` the routing's logical VCs), the routing's VC alone with `exact_vcs`
/// ([`Params::vc_stride`]), or BookSim2's half of the VCs for a torus's wrap class
/// ([`Params::link_vcs`]); at the ejection port every VC ([`EJECT_ANY`]), or the one VC
/// of [`EJECT_ON`]. With it (`Params::kind_vcs`, docs/booksim.md §3.6): the packet's kind's
/// range `first..=last` at the ejection port and with one logical VC; with two (a torus's
/// wrap classes), VC 0 the range's lower part and VC 1 its upper half
/// (`⌊(last − first + 1)/2⌋` VCs).
fn vc_span(k: &Params, vc: u8, kind: Kind) -> (usize, usize, usize) {
    let window = k.kind_vcs.zip(kind.index()).map(|(w, i)| w[i]);
    match window {
        None if vc == EJECT_ANY => (0, k.vcs, 1),
        None if is_eject(vc) => {
            let v = usize::from(vc & !EJECT_ON);
            (v, v + 1, 1)
        }
        None => k.link_vcs(vc),
        Some((first, last)) => {
            let (b, e) = (usize::from(first), usize::from(last) + 1);
            let half = (e - b) / 2;
            match vc {
                _ if is_eject(vc) => (b, e, 1),
                _ if k.rvcs == 1 => (b, e, 1),
                0 => (b, e - half, 1),
                _ => (b + half, e, 1),
            }
        }
    }
}

/// [`Params::vc_stride`] with `exact_vcs`: past every VC of a port, so a link VC has no
/// alias.
pub(crate) const EXACT_STRIDE: usize = 256;
