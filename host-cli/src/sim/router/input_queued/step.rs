//! The router phase of a range of input-queued routers: deliveries of the cycle's flits and
//! credits, then, in each internal step, every active router whose wake-up step has come:
//! route computation (with the adaptive routing's selection), VC allocation, switch
//! allocation and traversal (`super::traverse`).

use jumpnet_core::routing::adaptive::{OutputChannel, MAX_CANDIDATES};
use jumpnet_core::routing::{Hop, PacketState, Routing};

use crate::sim::config::Allocator;
use crate::sim::error::SimError;
use crate::sim::network::terminal::Route;
use crate::sim::network::{Event, Flit, Slot};
use crate::sim::router::allocator::Request;
use crate::sim::router::input_queued::state::{Range, VcState};
use crate::sim::router::input_queued::Params;
use crate::sim::router::pim;
use crate::sim::router::selection::{self, CongestionView};
use crate::sim::router::speedup::Speedup;
use crate::sim::router::{Effects, Phase};

use super::links::LinkKind;
use super::vc_stage::{is_eject, EJECT_ANY, EJECT_ON};
pub(crate) use super::work::Work;

/// The internal steps of one cycle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    /// The cycle.
    pub cycle: u64,
    /// The cycle's internal steps: `first .. first + steps` (the cycle itself, once, without
    /// speedup).
    pub first: u64,
    pub steps: u64,
    /// First step at which a head flit / a body flit arriving this cycle may take part in
    /// switch allocation (after route computation and VC allocation / after nothing), or,
    /// for a head with the VC allocation stage, in VC allocation ([`Params::head_stages`]).
    pub head_ready: u64,
    pub body_ready: u64,
    /// The internal speedup, and whether flits and credits leave without queueing (no
    /// internal and no output speedup).
    pub speedup: Speedup,
    pub one: bool,
}

impl Clock {
    fn new(k: &Params, cycle: u64) -> Self {
        let sp = k.speedup;
        let first = sp.first_step(cycle);
        let head_ready = k
            .head_stages()
            .iter()
            .fold(first, |s, &d| sp.after_stage(s, u64::from(d)));
        Clock {
            cycle,
            first,
            steps: sp.steps_in(cycle),
            head_ready,
            body_ready: sp.after_stage(first, u64::from(k.sw_alloc_delay)),
            speedup: sp,
            one: !k.queued,
        }
    }
}

/// The router phase of the routers of `r`: delivers their flits and credits due now
/// (`ph.due`), then, in each internal step of the cycle, steps the active routers
/// (ascending) whose wake-up step has come. (Always inlined: one call site per kind of
/// `Effects`, and the router phase is the hot path.)
#[inline(always)]
pub(crate) fn step_range<R: Routing + ?Sized, E: Effects>(
    r: &mut Range<'_>,
    ph: &Phase<'_, R>,
    work: &mut Work,
    fx: &mut E,
) -> Result<(), SimError> {
    let k = r.k;
    let per = k.per;
    // Input (and output) VCs of the range.
    let (first, end) = ((r.lo * per) as u32, (r.hi * per) as u32);
    let clock = Clock::new(k, ph.cycle);
    let mut cx = Ctx {
        k,
        ph,
        clock,
        r,
        work,
        fx,
        now: clock.first,
    };
    for ev in ph.due {
        match *ev {
            Event::Arrive { iv, flit } if (first..end).contains(&iv) => cx.arrive(iv, flit),
            Event::Credit { ov } if (first..end).contains(&ov) => cx.credit((ov - first) as usize),
            _ => {}
        }
    }
    if k.stamps {
        // BookSim2's `local_age`, `queue_length` and `hop_count` (`super::priority`).
        cx.stamp_arrivals((first, end));
    }
    let lo = cx.r.lo;
    for now in clock.first..clock.first + clock.steps {
        cx.now = now;
        for w in 0..cx.work.active.len() {
            let mut bits = cx.work.active[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let ls = w * 64 + b;
                if cx.r.wake[ls] <= now {
                    cx.step(lo + ls)?;
                    if cx.r.buffered[ls] == 0 {
                        // Emptied: leaves the active set.
                        cx.work.active[w] &= !(1 << b);
                    }
                }
            }
        }
    }
    Ok(())
}

/// One router phase: parameters, shared view, own routers, scratch, effects, and the internal
/// step being run.
pub(super) struct Ctx<'x, 'p, 'a, R: ?Sized, E> {
    pub k: &'a Params,
    pub ph: &'x Phase<'p, R>,
    pub clock: Clock,
    pub r: &'x mut Range<'a>,
    pub work: &'x mut Work,
    pub fx: &'x mut E,
    pub now: u64,
}

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Flit `flit` enters input VC `iv` (global index) of one of the routers.
    fn arrive(&mut self, iv: u32, flit: Flit) {
        let k = self.k;
        let r = &mut *self.r;
        let per = k.per;
        let s = k.router_of.div(iv) as usize;
        let ls = s - r.lo;
        let li = iv as usize - s * per;
        let iv = ls * per + li;
        let ready = if flit.seq == 0 {
            self.clock.head_ready
        } else {
            self.clock.body_ready
        };
        let v = &mut r.ivs[iv];
        let l = usize::from(v.len);
        if l >= k.buf {
            self.fx.violation();
            return;
        }
        v.len += 1;
        if l == 0 {
            // The front flit lives in the input VC's state (`InVc::front`).
            v.front = flit;
            v.fready = ready;
        } else {
            // head < buf and l < buf: one conditional subtraction instead of a division.
            let mut pos = usize::from(v.head) + l;
            if pos >= k.buf {
                pos -= k.buf;
            }
            r.slots[k.slot(ls, li, pos)] = Slot { ready, flit };
        }
        r.nonempty[ls * k.words + li / 64] |= 1 << (li % 64);
        r.wake[ls] = r.wake[ls].min(ready);
        r.buffered[ls] += 1;
        self.work.active[ls / 64] |= 1 << (ls % 64);
        if k.sw_order && l == 0 {
            // BookSim2's lists (`sw_order`).
            self.order_arrival(iv, li / k.vcs, flit);
        }
    }

    /// A credit returns to output VC `ov` (index within the range) of one of the routers.
    fn credit(&mut self, ov: usize) {
        let c = &mut self.r.credits[ov];
        *c += 1;
        let c = *c;
        if self.k.eject_credits && c <= self.k.fresh_max {
            // Not usable by the switch allocation of this cycle's first step
            // (`usable_credit`). The record is read only while the VC has at most
            // `fresh_max` credits; with one step per cycle that is before the step's flits
            // leave, so a credit that leaves more is never asked about and its arrival need
            // not touch the record.
            let first = self.clock.first << 16;
            let f = &mut self.r.fresh[ov];
            *f = if *f & !0xFFFF == first {
                *f + 1
            } else {
                first | 1
            };
        }
        if c > self.k.vc_buf_size {
            self.fx.violation();
        }
        if self.k.wait_tail {
            self.credit_returned(ov, c);
        }
    }

    /// One internal step of router `s`: route, allocate VCs, allocate the switch, traverse.
    fn step(&mut self, s: usize) -> Result<(), SimError> {
        let k = self.k;
        let now = self.now;
        let ls = s - self.r.lo;
        let words = k.words;
        // The router's first input VC.
        let first = ls * k.per;
        self.work.reqs.clear();
        self.work.held.clear();
        let mut next_wake = u64::MAX;
        for w in 0..words {
            let mut bits = self.r.nonempty[ls * words + w];
            while bits != 0 {
                let li = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let iv = first + li;
                let ready = self.r.ivs[iv].fready;
                if ready > now {
                    next_wake = next_wake.min(ready);
                    continue;
                }
                // A ready flit: moved or blocked, the router looks again next cycle.
                next_wake = now + 1;
                self.advance(s, li, iv)?;
            }
        }
        self.r.wake[ls] = next_wake;
        self.allocate_switch(s);
        if k.vc_stage {
            let heads = !self.work.vc_heads.is_empty();
            self.allocate_vcs(s)?;
            if k.speculative && k.shape.kind == Allocator::MaxSize {
                self.max_size_after_vcs(ls, heads);
            }
        }
        Ok(())
    }

    /// Moves the front packet of ready (local) input VC `iv`, number `li` in router `s`,
    /// through route computation and VC allocation as far as it gets, and requests the
    /// switch when it holds an output VC with room downstream.
    #[inline]
    fn advance(&mut self, s: usize, li: usize, iv: usize) -> Result<(), SimError> {
        let k = self.k;
        let ls = s - self.r.lo;
        if self.r.ivs[iv].state() == VcState::Idle {
            self.route(s, iv)?;
        }
        // With speculation (`speculation`), a head evaluated in the last step's VC allocation
        // requests the switch in this one, won VC or not.
        let spec = k.speculative && core::mem::take(&mut self.r.spec[iv]);
        if let VcState::Routed { port, vc } = self.r.ivs[iv].state() {
            if k.vc_stage {
                // VC allocation after this step's switch allocation (`vc_stage`).
                self.work.vc_heads.push(li as u16);
                if spec {
                    self.request_switch(ls, li, port, None, is_eject(vc), true);
                }
                return Ok(());
            }
            self.allocate_vc(ls, iv, port, vc);
        }
        if let VcState::Active { port, vc, eject } = self.r.ivs[iv].state() {
            // A speculative bid of a head that won its VC does not look at that VC's credits:
            // a grant without one is lost (`speculation::lost_bid`).
            let credit_vc = if spec { None } else { Some(vc) };
            self.request_switch(ls, li, port, credit_vc, eject, spec);
        }
        Ok(())
    }

    /// Whether (local) output VC `ov` has a credit this step's switch allocation may use.
    /// (Also read by `speculation::lost_bid`.)
    /// With `booksim_credits` a credit that arrived in this cycle may not be used by the
    /// cycle's first step: BookSim2's router writes a credit at the end of the cycle that
    /// freed its slot and the upstream router reads it a cycle after the channel's latency,
    /// before the first internal step of that cycle, while a switch allocation here in step
    /// `k` is BookSim2's of step `k − 1` (the step whose update crossed the flit; a head's
    /// stages and a body flit's `sw_alloc_delay` count so). So the credit is BookSim2's from
    /// the first step of its cycle on, here from the second: with one step per cycle the
    /// next cycle, with an internal speedup the cycle's second step if it has one
    /// (docs/booksim.md §4); the record (`Arrays::fresh`) names the cycle's first step. The
    /// VC allocation of the cycle it arrives in (a step before BookSim2's) already sees a VC
    /// it frees (`wait_for_tail_credit`).
    #[inline]
    pub(super) fn usable_credit(&self, ov: usize) -> bool {
        let c = self.r.credits[ov];
        if c == 0 {
            return false;
        }
        if c > self.k.fresh_max {
            return true;
        }
        let f = self.r.fresh[ov];
        let fresh = if f >> 16 == self.now {
            (f & 0xFFFF) as u16
        } else {
            0
        };
        c > fresh
    }

    /// The switch request of (local) input VC `li` of local router `ls` for output `port`
    /// (its output VC `vc`, `None` for a speculative request without one), if the output
    /// queue has room and the VC a credit.
    #[inline(always)]
    fn request_switch(
        &mut self,
        ls: usize,
        li: usize,
        port: u16,
        vc: Option<u8>,
        eject: bool,
        spec: bool,
    ) {
        let k = self.k;
        let lopi = ls * k.radix + usize::from(port);
        let room = self.clock.one || {
            // Flits in the output queue that have not left yet.
            let queued = self.r.out_free[lopi].saturating_sub(self.clock.cycle + 1);
            queued < if eject { k.eject_limit } else { k.out_limit }
        };
        let credit = (eject && !k.eject_credits)
            || vc.is_none_or(|vc| self.usable_credit(lopi * k.vcs + usize::from(vc)));
        let ready = room && credit;
        let lanes = k.port_vc[li];
        let req = Request {
            input: lanes.input,
            vc: lanes.vc,
            output: lanes.output(port, k.out_speedup),
            spec,
        };
        if k.hold {
            self.hold_request(ls, req, ready);
        } else if ready {
            self.work.reqs.push(req);
        }
    }

    /// VC allocation for (local) input VC `iv` of local router `ls`, routed to `port` on
    /// logical VC `vc`: the free physical VC of `vc`'s range ([`Params::link_vcs`]: the
    /// aliases `vc, vc + R, …` or a half) with most credits (lowest on ties).
    #[inline]
    fn allocate_vc(&mut self, ls: usize, iv: usize, port: u16, vc: u8) {
        let k = self.k;
        let vcs = k.vcs;
        let (start, end, r) = k.link_vcs(vc);
        let first = (ls * k.radix + usize::from(port)) * vcs;
        let (busy, credits) = (&*self.r.busy, &*self.r.credits);
        let mut best: Option<usize> = None;
        let mut v = start;
        while v < end {
            let ov = first + v;
            if !busy[ov] && best.is_none_or(|b| credits[ov] > credits[first + b]) {
                best = Some(v);
            }
            v += r;
        }
        if let Some(v) = best {
            self.r.busy[first + v] = true;
            self.r.ivs[iv].set_state(VcState::Active {
                port,
                vc: v as u8,
                eject: false,
            });
        }
    }

    /// Switch allocation of router `s`'s requests, then traversal of the winners.
    fn allocate_switch(&mut self, s: usize) {
        let k = self.k;
        let ls = s - self.r.lo;
        let n = k.shape.pointers();
        // BookSim2 calls `max_size` with requests or without (`super::max_size`).
        let due = k.shape.kind == Allocator::MaxSize && self.max_size_switch_due(ls);
        if k.hold {
            self.release_holds(ls);
        }
        if due && self.work.reqs.is_empty() {
            self.max_size_switch_idle(ls);
        }
        // A butterfly's router allocates over BookSim2's inputs and outputs
        // (`router::alloc_ports`): its requests are renumbered, its winners numbered back.
        let numbering = k.switch_numbering(s);
        let (is, os) = (k.in_speedup as u16, k.out_speedup as u16);
        if let Some(m) = numbering {
            for q in &mut self.work.reqs {
                m.to_booksim(q, is, os);
            }
        }
        if k.priority.is_on() {
            self.switch_priorities(ls, numbering);
        }
        let work = &mut *self.work;
        if k.shape.kind == Allocator::Pim {
            work.scratch.rng = pim::key(k.seed, s, self.now, pim::SWITCH);
        }
        let shape = numbering.map_or(k.shape, |m| m.shape(&k.shape, is, os));
        let all = shape.allocate(
            &mut self.r.ptrs[ls * n..(ls + 1) * n],
            &mut work.scratch,
            &work.reqs,
            &mut work.wins,
        );
        if let Some(m) = numbering {
            for q in work.reqs.iter_mut().chain(work.wins.iter_mut()) {
                m.to_ports(q, is, os);
            }
        }
        let won = if all {
            work.reqs.len()
        } else {
            work.wins.len()
        };
        if k.sw_order {
            // With an output speedup, in BookSim2's order (`sw_order`).
            self.traverse_in_order(s, all, won);
            return;
        }
        for i in 0..won {
            let w = self.work.crossing(all, i);
            let p = super::crossbar::input_port(w.input, k.in_speedup);
            if w.spec && self.lost_bid(ls, p, w.vc) {
                // A speculative grant of a head without an output VC (`speculation`).
                continue;
            }
            self.traverse(s, p, usize::from(w.vc));
            if k.hold {
                self.hold_after_cross(ls, w);
            }
        }
        if k.hold {
            for i in 0..self.work.held.len() {
                let w = self.work.held[i];
                let p = super::crossbar::input_port(w.input, k.in_speedup);
                self.traverse(s, p, usize::from(w.vc));
                self.hold_after_cross(ls, w);
            }
        }
    }

    /// Route computation for the front (head) flit of (local) input VC `iv` of switch `s`.
    /// A route to a link counts the packet's router-to-router hop here, where its record is
    /// at hand (the head crosses that link before the packet can eject).
    pub(super) fn route(&mut self, s: usize, iv: usize) -> Result<(), SimError> {
        let k = self.k;
        let flit = self.r.ivs[iv].front;
        if flit.seq != 0 {
            self.fx.violation();
        }
        let Route { dst, mut state, .. } = *self.fx.route(flit.pkt);
        if self.ph.adaptive {
            self.select(s, dst, &mut state)?;
        }
        let hop = self
            .ph
            .routing
            .next_hop(s as u32, &mut state, dst)
            .map_err(|e| SimError::Routing(format!("at switch {s} to {dst}: {e}")))?;
        self.fx.set_state(flit.pkt, state);
        let link = |port: u16| k.links.get(s * k.radix + usize::from(port));
        if !self.ph.fabric.is_output(s, port_of(hop)) {
            return Err(SimError::Routing(format!(
                "switch {s} sends a packet to {dst} out of port {}, whose channel runs into \
                 the switch (a butterfly's links run from a stage to the next)",
                port_of(hop)
            )));
        }
        if k.sw_order && k.vc_stage && k.routing_delay > 0 {
            // BookSim2's VC allocation list (`sw_order`).
            self.order_routed(iv);
        }
        self.r.ivs[iv].set_state(match hop {
            Hop::Forward { port, vc } => {
                if link(port).is_none_or(|l| l.kind != LinkKind::Link) {
                    return Err(SimError::Routing(format!(
                        "switch {s} forwards to {dst} on port {port}, which is no link"
                    )));
                }
                if vc >= k.rvcs {
                    return Err(SimError::Routing(format!(
                        "switch {s} chose VC {vc} of {}",
                        k.rvcs
                    )));
                }
                self.fx.add_hop(flit.pkt);
                VcState::Routed { port, vc }
            }
            Hop::Eject { port } => {
                if link(port).is_none_or(|l| l.kind != LinkKind::Terminal || l.peer != dst) {
                    return Err(SimError::Routing(format!(
                        "switch {s} ejects {dst} on port {port}, which is not its terminal"
                    )));
                }
                if k.vc_stage {
                    // An ejection VC through the VC allocator (`vc_stage`): any, or the
                    // routing's (`exact_vcs`).
                    VcState::Routed {
                        port,
                        vc: if k.exact_vcs {
                            EJECT_ON | state.vc
                        } else {
                            EJECT_ANY
                        },
                    }
                } else {
                    VcState::Active {
                        port,
                        vc: 0,
                        eject: true,
                    }
                }
            }
        });
        Ok(())
    }

    /// The adaptive routing's choice at switch `s` for a packet to `dst`: its candidates,
    /// weighed by this router's credits ([`Credits`]), the cheapest committed to `state`.
    fn select(&mut self, s: usize, dst: u32, state: &mut PacketState) -> Result<(), SimError> {
        let routing = self.ph.routing;
        let candidates = &mut self.work.candidates;
        let n = routing
            .candidates(s as u32, state, dst, candidates)
            .map_err(|e| SimError::Routing(format!("candidates at switch {s} to {dst}: {e}")))?;
        if n == 0 {
            return Ok(());
        }
        let candidates = &candidates[..n.min(MAX_CANDIDATES)];
        let view = Credits {
            k: self.k,
            base: self.r.lo * self.k.radix * self.k.vcs,
            credits: self.r.credits,
        };
        if let Some(i) = selection::select(candidates, &view) {
            routing.commit_candidate(state, &candidates[i]);
        }
        Ok(())
    }
}

/// The output port of `hop`.
#[inline]
fn port_of(hop: Hop) -> u16 {
    match hop {
        Hop::Forward { port, .. } | Hop::Eject { port } => port,
    }
}

/// The input-queued router's congestion view: a channel's occupancy is the flits it has sent
/// whose credits have not come back (buffered downstream or on the way), summed over its
/// VCs (BookSim2 `GetUsedCredit`); channels of routers outside the range count 0.
struct Credits<'c> {
    k: &'c Params,
    /// Output VC of the range's first router.
    base: usize,
    credits: &'c [u16],
}

impl CongestionView for Credits<'_> {
    fn occupancy(&self, (sw, port): OutputChannel) -> u32 {
        let k = self.k;
        let ov = (sw as usize * k.radix + usize::from(port)) * k.vcs;
        ov.checked_sub(self.base)
            .and_then(|o| self.credits.get(o..o + k.vcs))
            .unwrap_or(&[])
            .iter()
            .map(|&c| u32::from(k.vc_buf_size.saturating_sub(c)))
            .sum()
    }
}
