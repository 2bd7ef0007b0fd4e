//! The switch held for a whole packet (BookSim2 `hold_switch_for_packet`, `iq_router.cpp`
//! `_SWHoldEvaluate` / `_SWHoldUpdate`; docs/booksim.md §4). A body flit that wins switch
//! allocation, with more of its packet behind it in the buffer, keeps its crossbar input and
//! output: in the following internal steps the packet's next flit crosses without switch
//! allocation, one per step, while no other VC of that crossbar input and no other input
//! may use them. The hold ends when the tail crosses, when the VC's buffer runs empty (the
//! next flit then asks for the switch again when it arrives) or when the held flit cannot
//! leave (no downstream credit, output queue full); a hold that ends for want of credits
//! still blocks the input and output in that step, as in BookSim2 where the hold is
//! dropped after the step's switch allocation.
//!
//! "Empty" is BookSim2's buffer at its step: a flit crossing here in step `k` is BookSim2's
//! of step `k − 1` (`step::usable_credit`), so a flit delivered in the cycle of step `k` but
//! after BookSim2's step `k − 1` (the flits of a cycle arrive before its first step) does
//! not keep the hold: BookSim2 drops it and the flit asks for the switch when it arrives,
//! against the other requests of that step. A packet streaming one flit per cycle thus
//! gives up its hold after every flit, in BookSim2 and here.

use jumpnet_core::routing::Routing;

use crate::sim::router::allocator::Request;
use crate::sim::router::input_queued::state::{VcState, NO_HOLD};
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::Effects;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// The switch request `req` of local router `ls` (`ready`: its flit has a credit and
    /// room in the output queue) under the holds of the step's start: the holder of a
    /// crossbar input goes past the allocator (or gives up its hold when it cannot send);
    /// the other VCs of a held input and requests for a held output wait.
    #[inline]
    pub(super) fn hold_request(&mut self, ls: usize, req: Request, ready: bool) {
        let k = self.k;
        let xi = ls * usize::from(k.shape.ins) + usize::from(req.input);
        let xo = ls * usize::from(k.shape.outs) + usize::from(req.output);
        let holder = self.r.hold_in[xi];
        if holder == req.vc {
            if ready {
                self.work.held.push(req);
            } else {
                self.work.released.push(req);
            }
        } else if ready && holder == NO_HOLD && !self.r.hold_out[xo] {
            self.work.reqs.push(req);
        }
    }

    /// Ends the holds of the step's `released` list (after the step's requests were made).
    pub(super) fn release_holds(&mut self, ls: usize) {
        for i in 0..self.work.released.len() {
            let req = self.work.released[i];
            self.set_hold(ls, req, false);
        }
        self.work.released.clear();
    }

    /// After the flit of `req` of local router `ls` crossed the switch: the hold starts or
    /// goes on if the packet's next flit waits in the buffer (in BookSim2's step before this
    /// one: the module's note), and that flit may cross in the next step; otherwise it ends.
    pub(super) fn hold_after_cross(&mut self, ls: usize, req: Request) {
        let k = self.k;
        let p = super::crossbar::input_port(req.input, k.in_speedup);
        let iv = (ls * k.radix + p) * k.vcs + usize::from(req.vc);
        let more = self.r.ivs[iv].len > 0
            && matches!(self.r.ivs[iv].state(), VcState::Active { .. })
            && self.r.ivs[iv].fready <= self.ready_if_in_last_step();
        self.set_hold(ls, req, more);
        if more {
            let next = self.now + 1;
            if self.r.ivs[iv].fready > next {
                self.r.ivs[iv].fready = next;
            }
            self.r.wake[ls] = self.r.wake[ls].min(next);
        }
    }

    /// The ready step of a body flit that arrived in the cycle of step `now − 1` (the
    /// latest a flit in BookSim2's buffer at that step can have): a flit arriving in cycle
    /// `c` is ready `sw_alloc_delay` cycles after the first step of `c`, which grows with `c`.
    fn ready_if_in_last_step(&self) -> u64 {
        let sp = self.clock.speedup;
        let c = sp.cycle_of(self.now.saturating_sub(1));
        sp.after_stage(sp.first_step(c), u64::from(self.k.sw_alloc_delay))
    }

    /// Holds (`on`) or frees the crossbar input and output of `req` in local router `ls`.
    fn set_hold(&mut self, ls: usize, req: Request, on: bool) {
        let k = self.k;
        let xi = ls * usize::from(k.shape.ins) + usize::from(req.input);
        let xo = ls * usize::from(k.shape.outs) + usize::from(req.output);
        self.r.hold_in[xi] = if on { req.vc } else { NO_HOLD };
        self.r.hold_out[xo] = on;
    }
}
