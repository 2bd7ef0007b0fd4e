//! BookSim2's speculative switch allocation (`speculative = 1`, `iq_router.cpp`
//! `_SWAllocEvaluate` / `_SWAllocUpdate` with a separate VC allocator and
//! `spec_sw_allocator = prio`; docs/booksim.md §4), the router feature `speculative` on top
//! of the VC allocation stage (`vc_stage`), with `vc_alloc_delay = sw_alloc_delay = 1`.
//!
//! A head in VC allocation bids for the switch in the same BookSim2 step, before it knows
//! whether it gets an output VC — in jumpnet's numbering, where a flit crosses the switch in
//! the step after BookSim2's switch allocation, its bid is a switch request in the step after
//! its VC allocation:
//!
//! * the bid is made only if, at the VC allocation, some VC of the route's range was free
//!   and had a credit (BookSim2's defaults `spec_check_elig = spec_check_cred = 1`);
//! * the bid is speculative: wherever an allocator chooses between a speculative and a
//!   non-speculative request, the non-speculative one wins (its lower priority; the iSLIP
//!   allocator itself ignores priorities, so speculative requests may still take an output
//!   from a non-speculative one of another input);
//! * a granted bid crosses the switch only if the head won its VC allocation and that VC has
//!   a credit; otherwise the grant is lost — the crossbar input and output stay unused that
//!   step, and the allocator's pointers have moved (BookSim2 reads the VC allocator's result
//!   after the switch allocation and discards a grant "due to lack of credit"). The bid itself
//!   does not wait for the won VC's credit: it competed for the crossbar cell with the
//!   input's other VCs, as BookSim2's request did;
//! * a head that won its VC but not the switch requests the switch again, non-speculatively,
//!   in the next step — the step it would have requested it without speculation.
//!
//! So a head that wins both crosses one step earlier than without speculation: zero-load
//! latency falls by one cycle per router.

use jumpnet_core::routing::Routing;

use crate::sim::router::input_queued::state::VcState;
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::Effects;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Whether the switch grant of input port `p`, VC `vc` of local router `ls` is a
    /// speculative bid whose head lost its VC allocation, or won a VC without a credit
    /// (the grant is lost).
    #[inline]
    pub(super) fn lost_bid(&self, ls: usize, p: usize, vc: u8) -> bool {
        let k = self.k;
        let iv = (ls * k.radix + p) * k.vcs + usize::from(vc);
        match self.r.ivs[iv].state() {
            VcState::Active { port, vc, eject } => {
                let ov = (ls * k.radix + usize::from(port)) * k.vcs + usize::from(vc);
                !((eject && !k.eject_credits) || self.usable_credit(ov))
            }
            _ => true,
        }
    }

    /// After the VC allocation of this step, the next step of the head at (local) input VC
    /// `iv` and whether it bids for the switch there: with speculation and an `eligible`
    /// head (a free VC with a credit in its range), the next step, won VC or not; without,
    /// `won` or `retry`.
    #[inline]
    pub(super) fn after_vc_allocation(
        &mut self,
        iv: usize,
        granted: bool,
        eligible: bool,
        (won, retry): (u64, u64),
    ) -> u64 {
        let bid = self.k.speculative && eligible;
        if self.k.speculative {
            self.r.spec[iv] = bid;
        }
        if granted && !bid {
            won
        } else {
            retry
        }
    }
}
