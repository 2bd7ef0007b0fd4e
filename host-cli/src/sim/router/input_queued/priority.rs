//! The router's part of BookSim2's packet priorities (`priority = …`; docs/booksim.md §3.5,
//! §4; the modes: `sim::router::priority`): the priority of an input VC, BookSim2's
//! `VC::GetPriority` — its front flit's priority, or with `queue_length` the flits in its
//! buffer (`vc.cpp` `UpdatePriority`) — as the switch and the VC allocators read it.
//!
//! * `class`, `age`, `sequence`, `network_age`: the flit's, from its packet (`Effects::flit_pri`,
//!   kept by the engine).
//! * `local_age`: `INT_MAX − t`, `t` the cycle the front flit entered the buffer (BookSim2's
//!   `VC::AddFlit` stamps it): every buffer slot keeps its flit's arrival cycle beside it
//!   ([`Arrays::stamps`](super::state::Arrays::stamps)).
//! * `hop_count`: the routers the front flit crossed before this one (BookSim2's `f->hops`,
//!   stamped at `VC::AddFlit` too) — every flit of a packet has crossed the same ones, which
//!   its packet's record counts when the head arrives (`Route::hops`: the links it was routed
//!   onto); the body flits take their head's count ([`Arrays::in_hops`](super::state::Arrays::in_hops)).
//! * `queue_length`: the buffer's flits. jumpnet's switch allocation of step `n` is
//!   BookSim2's of step `n − 1` (`vc_stage`), whose buffers do not hold the flits that arrive
//!   in step `n`'s cycle yet: the first step of a cycle counts the VC's flits without the one
//!   that arrived in that cycle (at most one does). Its VC allocation of step `n` is
//!   BookSim2's of step `n`: every flit counts.
//!
//! Priorities are read only for the requests an allocation has: the switch's, for the VC of
//! an input that bids for a crossbar cell (every allocator) and for the arbiters of the
//! allocators that rank priorities; the VC allocator's, when it ranks them.

use jumpnet_core::routing::Routing;

use crate::sim::network::Event;
use crate::sim::router::alloc_ports::Numbering;
use crate::sim::router::input_queued::step::{Ctx, Work};
use crate::sim::router::priority::{older_first, Priority};
use crate::sim::router::Effects;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Stamps the flits that arrived in this cycle's deliveries at the input VCs `first..end`
    /// (global numbers, the range's) with their arrival (module documentation). A channel
    /// delivers at most one flit per cycle to an input VC, so each is its VC's last flit.
    #[inline(never)]
    pub(super) fn stamp_arrivals(&mut self, (first, end): (u32, u32)) {
        let k = self.k;
        let hops = k.priority == Priority::HopCount;
        for ev in self.ph.due {
            let Event::Arrive { iv, flit } = *ev else {
                continue;
            };
            if !(first..end).contains(&iv) {
                continue;
            }
            let iv = (iv - first) as usize;
            let (ls, li) = (iv / k.per, iv % k.per);
            let v = &self.r.ivs[iv];
            if v.len == 0 {
                // Refused (a conservation violation).
                continue;
            }
            let pos = (usize::from(v.head) + usize::from(v.len) - 1) % k.buf;
            let value = if hops {
                // The routers the packet crossed before this one: the links its record
                // counts when its head arrives; its body flits take the head's count.
                if flit.seq == 0 {
                    self.r.in_hops[iv] = u32::from(self.fx.route(flit.pkt).hops);
                }
                self.r.in_hops[iv]
            } else {
                self.clock.cycle as u32
            };
            self.r.stamps[k.slot(ls, li, pos)] = value;
        }
    }

    /// BookSim2's priority of (local) input VC `iv` (number `li` in local router `ls`),
    /// which holds flits, in this step's switch allocation (`switch`) or VC allocation
    /// (module documentation).
    #[inline(never)]
    pub(super) fn vc_priority(&self, ls: usize, li: usize, iv: usize, switch: bool) -> u32 {
        let k = self.k;
        let v = &self.r.ivs[iv];
        match k.priority {
            Priority::None => 0,
            Priority::HopCount => self.r.stamps[k.slot(ls, li, usize::from(v.head))],
            Priority::LocalAge => {
                let at = self.r.stamps[k.slot(ls, li, usize::from(v.head))];
                older_first(u64::from(at))
            }
            Priority::QueueLength => {
                let len = u32::from(v.len);
                if !switch || self.now != self.clock.first {
                    return len;
                }
                let last = (usize::from(v.head) + usize::from(v.len) - 1) % k.buf;
                let fresh = self.r.stamps[k.slot(ls, li, last)] == self.clock.cycle as u32;
                len - u32::from(fresh)
            }
            Priority::Class | Priority::Age | Priority::Sequence | Priority::NetworkAge => {
                self.fx.flit_pri(v.front)
            }
        }
    }

    /// The priority of every VC of local router `ls` that requests the switch in this step,
    /// in the allocator's scratch (`allocator::Scratch::prio`, per crossbar input and VC; the
    /// requests are in the allocator's numbering, `numbering`, or the ports').
    #[inline(never)]
    pub(super) fn switch_priorities(&mut self, ls: usize, numbering: Option<&Numbering>) {
        let k = self.k;
        let first = ls * k.per;
        for r in 0..self.work.reqs.len() {
            let q = self.work.reqs[r];
            let input = numbering.map_or(q.input, |m| m.input_of(q.input, k.in_speedup as u16));
            let port = super::crossbar::input_port(input, k.in_speedup);
            let li = port * k.vcs + usize::from(q.vc);
            let pri = self.vc_priority(ls, li, first + li, true);
            self.work.scratch.prio[usize::from(q.input) * k.vcs + usize::from(q.vc)] = pri;
        }
    }

    /// The priorities of the heads of one output port's group (`Work::vc_group`) of local
    /// router `ls`, for this step's VC allocation.
    #[inline(never)]
    pub(super) fn group_priorities(&mut self, ls: usize) {
        for h in 0..self.work.vc_group.len() {
            let li = usize::from(self.work.vc_group[h].input);
            self.work.vc_group[h].pri = self.vc_priority(ls, li, ls * self.k.per + li, false);
        }
    }

    /// The priorities of the heads of `Work::vc_shared` of local router `ls`, for this step's
    /// VC allocation, in `Work::vc_head_pri`.
    #[inline(never)]
    pub(super) fn shared_head_priorities(&mut self, ls: usize) {
        self.work.vc_head_pri.clear();
        for h in 0..self.work.vc_shared.len() {
            let li = usize::from(self.work.vc_shared[h]);
            let pri = self.vc_priority(ls, li, ls * self.k.per + li, false);
            self.work.vc_head_pri.push(pri);
        }
    }
}

/// Each requesting input VC's priority (`Work::vc_head_pri`) in the VC allocator's scratch,
/// in the allocator's numbering (`numbering`, or the ports'; `vcs` VCs a port): the requests
/// of one head are contiguous, in the order of `Work::vc_shared`, and still in the ports'
/// numbering.
#[inline(never)]
pub(super) fn request_priorities(work: &mut Work, numbering: Option<&Numbering>, vcs: u16) {
    let mut h = 0;
    for q in &work.vc_reqs {
        while work.vc_shared[h] != q.input {
            h += 1;
        }
        let input = numbering.map_or(q.input, |m| m.vc_input_of(q.input, vcs));
        work.vc_scratch.prio[usize::from(input)] = work.vc_head_pri[h];
    }
}
