//! The order in which the flits of one switch allocation cross the switch, as BookSim2's
//! (`iq_router.cpp`; docs/booksim.md §4), the router's `Params::sw_order`: with an output
//! speedup an output port takes several flits in one step, and they wait in its output queue
//! (one sent per cycle) in the order they crossed. BookSim2 crosses them in the order of its
//! list of input VCs waiting for the switch (`_sw_alloc_vcs`): `_SWHoldUpdate` first moves
//! the held switches' flits (in the order of `_sw_hold_vcs`), then `_SWAllocUpdate` walks
//! the list from its front. Without an output speedup an output takes one flit per step and
//! the order changes nothing, so the keys below are kept only with one (and BookSim2's VC
//! allocation stage).
//!
//! The list changes in a way a key per input VC follows. In every BookSim2 step
//! `_SWAllocUpdate` takes every VC off the list's front and puts those that still have a
//! flit to send back at its end, in the same order (`sw_alloc_delay = 1`); so the list keeps
//! its order but for two kinds of entry:
//!
//! * *front*: VCs put on the list in a step before `_SWAllocUpdate` runs —
//!   `_VCAllocUpdate`'s winners, the held VCs `_SWHoldUpdate` releases without sending, and
//!   with speculation the heads `_RouteUpdate` routed — end up before every VC that was on
//!   it (those go back behind them);
//! * *back*: VCs put on it at the step's start — a body flit that reaches an empty input VC
//!   (`_InputQueuing`, by input), with speculation and lookahead routing a head — end up
//!   behind every VC on it.
//!
//! A [`Key`] orders by (`major`, `minor`): front entries of BookSim2 step `t` have `major =
//! −t − 1` (so a later step's come first), back entries `major = t`. `_vc_alloc_vcs`, whose
//! order decides the order of `_VCAllocUpdate`'s winners, changes alike (its front entries:
//! the heads `_RouteUpdate` routed, in the order of `_route_vcs`, a queue in the order heads
//! reach it; its back entries, with lookahead routing: heads reaching an idle VC and heads
//! behind a tail). Steps are BookSim2's: jumpnet's switch allocation of step `j` is
//! BookSim2's of step `j − 1` (`step::usable_credit`), its VC allocation of step `j`
//! BookSim2's of step `j`, and a flit delivered in cycle `c` enters BookSim2's buffer in the
//! first step of `c`; a flit still in jumpnet's buffer that reached it in the cycle of step
//! `j` (`j` the cycle's first step) was not in BookSim2's at step `j − 1`.

use jumpnet_core::routing::Routing;

use crate::sim::network::Flit;
use crate::sim::router::allocator::Request;
use crate::sim::router::input_queued::state::VcState;
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::Effects;

/// A place in one of BookSim2's lists (the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Key {
    major: i64,
    minor: u64,
}

impl Key {
    /// An entry put before the list's others in BookSim2 step `t`.
    fn front(t: u64, minor: u64) -> Self {
        Key {
            major: -(t as i64) - 1,
            minor,
        }
    }

    /// An entry put behind the list's others in BookSim2 step `t`.
    fn back(t: u64, minor: u64) -> Self {
        Key {
            major: t as i64,
            minor,
        }
    }
}

/// `minor` of the held VCs `_SWHoldUpdate` releases (after the step's other front entries).
const RELEASED: u64 = 1 << 63;

/// `minor` of the heads put on `_vc_alloc_vcs` behind a tail (after the step's arrivals).
const BEHIND_TAIL: u64 = 1 << 32;

/// Per input VC: its places in BookSim2's switch and VC allocation lists, and the head's
/// place in the routing queue (`(step << 33) | (behind tail << 32) | input or rank`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OrderKeys {
    sw: Key,
    vc: Key,
    route: u64,
}

/// One crossing of the step: its key, its request, whether it is a held switch's.
pub(crate) type Crossing = (bool, Key, Request);

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Traverses the step's crossings of router `s` in BookSim2's order: the held switches'
    /// flits, then the winners of the allocation (`won` of them, in `Work::reqs` if `all`,
    /// else `Work::wins`), each by its place in the list.
    #[cold]
    #[inline(never)]
    pub(super) fn traverse_in_order(&mut self, s: usize, all: bool, won: usize) {
        let k = self.k;
        let ls = s - self.r.lo;
        let mut list = core::mem::take(&mut self.work.crossings);
        list.clear();
        for &w in &self.work.held {
            list.push((false, self.r.order[self.iv_of(ls, w)].sw, w));
        }
        for i in 0..won {
            let w = self.work.crossing(all, i);
            let p = super::crossbar::input_port(w.input, k.in_speedup);
            if w.spec && self.lost_bid(ls, p, w.vc) {
                continue;
            }
            list.push((true, self.r.order[self.iv_of(ls, w)].sw, w));
        }
        list.sort_unstable_by_key(|&(allocated, key, _)| (allocated, key));
        for (rank, &(_, _, w)) in list.iter().enumerate() {
            self.work.rank = rank as u64;
            let p = super::crossbar::input_port(w.input, k.in_speedup);
            self.traverse(s, p, usize::from(w.vc));
            if k.hold {
                self.hold_after_cross(ls, w);
            }
        }
        self.work.crossings = list;
    }

    /// Local input VC of request `w` of local router `ls`.
    fn iv_of(&self, ls: usize, w: Request) -> usize {
        let k = self.k;
        let p = super::crossbar::input_port(w.input, k.in_speedup);
        (ls * k.radix + p) * k.vcs + usize::from(w.vc)
    }

    /// Flit `flit` reached the empty (local) input VC `iv`, of input port `p`, in this
    /// cycle: BookSim2's `_InputQueuing` of the cycle's first step puts a body flit's VC at
    /// the back of the switch list, a head at the back of the routing queue (with lookahead
    /// routing at the back of the VC allocation list, and with speculation also of the
    /// switch list).
    #[cold]
    #[inline(never)]
    pub(super) fn order_arrival(&mut self, iv: usize, p: usize, flit: Flit) {
        let t = self.clock.first;
        if flit.seq == 0 {
            self.head_enters(iv, t, p as u64);
        } else {
            self.r.order[iv].sw = Key::back(t, p as u64);
        }
    }

    /// The head at the front of (local) input VC `iv` reaches BookSim2's routing stage in
    /// BookSim2 step `t`, `minor` its place among the step's heads.
    fn head_enters(&mut self, iv: usize, t: u64, minor: u64) {
        let k = self.k;
        let o = &mut self.r.order[iv];
        o.route = (t << 33) | minor;
        if k.routing_delay == 0 {
            o.vc = Key::back(t, minor);
            if k.speculative {
                o.sw = Key::back(t, minor);
            }
        }
    }

    /// A flit of (local) input VC `iv`, input port `p`, crossed the switch in this step
    /// (BookSim2's `_SWAllocUpdate` of the step before, the step's `Work::rank`th crossing),
    /// `tail` whether it was its packet's last: where the VC goes in BookSim2's lists. The
    /// flit now at the front (if any) was in BookSim2's buffer then unless it reached jumpnet's
    /// in this cycle and this is the cycle's first step; if not, it enters BookSim2's lists
    /// when it arrives, in this step. If it was, a body flit keeps the VC's place (the list
    /// goes round) and a head behind a tail goes to the routing queue (with lookahead routing
    /// to the VC allocation list's back; with speculation it keeps the tail's place in the
    /// switch list).
    #[cold]
    #[inline(never)]
    pub(super) fn order_after_cross(&mut self, iv: usize, p: usize, tail: bool) {
        let v = self.r.ivs[iv];
        if v.len == 0 {
            return;
        }
        let c = &self.clock;
        let fresh = self.now == c.first
            && v.fready
                >= if v.front.seq == 0 {
                    c.head_ready
                } else {
                    c.body_ready
                };
        if fresh {
            self.order_arrival(iv, p, v.front);
        } else if tail {
            let rank = self.work.rank;
            let t = self.now.saturating_sub(1);
            let o = &mut self.r.order[iv];
            o.route = (t << 33) | BEHIND_TAIL | rank;
            if self.k.routing_delay == 0 {
                o.vc = Key::back(t, BEHIND_TAIL | rank);
            }
        }
    }

    /// A hold starts for the flit of request `w` of local router `ls` that crossed in this
    /// step: BookSim2's `_SWAllocUpdate` puts the VC at the end of `_sw_hold_vcs`, which
    /// keeps its order.
    #[cold]
    #[inline(never)]
    pub(super) fn order_hold(&mut self, ls: usize, w: Request) {
        let iv = self.iv_of(ls, w);
        self.r.order[iv].sw = Key::back(self.now.saturating_sub(1), self.work.rank);
    }

    /// The holds of `Work::released` end without a flit sent (BookSim2's `_SWHoldUpdate` of
    /// the step before): their VCs go to the front of the switch list, after the step's
    /// other front entries, in the order of `_sw_hold_vcs`.
    #[cold]
    #[inline(never)]
    pub(super) fn order_released(&mut self, ls: usize) {
        let mut list = core::mem::take(&mut self.work.crossings);
        list.clear();
        for &w in &self.work.released {
            list.push((false, self.r.order[self.iv_of(ls, w)].sw, w));
        }
        list.sort_unstable_by_key(|&(_, key, _)| key);
        let t = self.now.saturating_sub(1);
        for (i, &(_, _, w)) in list.iter().enumerate() {
            let iv = self.iv_of(ls, w);
            self.r.order[iv].sw = Key::front(t, RELEASED | i as u64);
        }
        self.work.crossings = list;
    }

    /// The head of (local) input VC `iv` was routed in this step (BookSim2's `_RouteUpdate`
    /// of the step before): to the front of the VC allocation list (with speculation also
    /// of the switch list), in the order of the routing queue.
    #[cold]
    #[inline(never)]
    pub(super) fn order_routed(&mut self, iv: usize) {
        let t = self.now.saturating_sub(1);
        let o = &mut self.r.order[iv];
        o.vc = Key::front(t, o.route);
        if self.k.speculative {
            o.sw = Key::front(t, o.route);
        }
    }

    /// After this step's VC allocation of local router `ls` (BookSim2's `_VCAllocUpdate` of
    /// the same step): the heads that won an output VC, in the order of the VC allocation
    /// list, go to the front of the switch list (without speculation; with it they are on
    /// it already).
    #[cold]
    #[inline(never)]
    pub(super) fn order_vc_winners(&mut self, ls: usize) {
        let k = self.k;
        let first = ls * k.per;
        let mut won = core::mem::take(&mut self.work.vc_order);
        won.clear();
        for &li in self.work.vc_heads.iter().chain(&self.work.vc_shared) {
            let iv = first + usize::from(li);
            if matches!(self.r.ivs[iv].state(), VcState::Active { .. }) {
                won.push((self.r.order[iv].vc, iv));
            }
        }
        won.sort_unstable();
        for (i, &(_, iv)) in won.iter().enumerate() {
            self.r.order[iv].sw = Key::front(self.now, i as u64);
        }
        self.work.vc_order = won;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_entries_of_later_steps_come_first_back_entries_last() {
        let (f5, f6) = (Key::front(5, 0), Key::front(6, 0));
        let (b0, b5) = (Key::back(0, 0), Key::back(5, 3));
        assert!(f6 < f5 && f5 < b0 && b0 < b5);
        assert!(Key::front(5, 1) < Key::front(5, RELEASED));
        assert!(Key::back(5, 3) < Key::back(5, BEHIND_TAIL));
    }
}
