//! When a downstream VC is free for another packet (BookSim2 `wait_for_tail_credit`,
//! `buffer_state.cpp` `SendingFlit` / `ProcessCredit`; docs/booksim.md §4). By default an
//! output VC is released as its packet's tail leaves the router, so the next packet may
//! follow into the same downstream buffer behind it. With `wait_for_tail_credit` the VC
//! stays taken until the tail has left *and* every credit of the VC has come back — the
//! downstream buffer is empty — so two packets never share a downstream VC buffer.
//!
//! The terminals' injection VCs follow the same rule (BookSim2's terminal keeps a
//! `BufferState` of its injection channel): with `wait_for_tail_credit` a terminal starts a
//! packet only on a VC whose credits are all back (`sim::engine`).

use jumpnet_core::routing::Routing;

use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::Effects;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// The tail of the packet holding (local) output VC `ov` has left the router.
    #[inline]
    pub(super) fn tail_sent(&mut self, ov: usize) {
        if self.k.wait_tail {
            self.r.draining[ov] = true;
        } else {
            self.r.busy[ov] = false;
        }
    }

    /// A credit came back to (local) output VC `ov`, which now has `credits`: with
    /// `wait_for_tail_credit`, the last one of a VC whose tail has left frees the VC.
    #[inline]
    pub(super) fn credit_returned(&mut self, ov: usize, credits: u16) {
        if credits == self.k.vc_buf_size && self.r.draining[ov] {
            self.r.draining[ov] = false;
            self.r.busy[ov] = false;
        }
    }
}
