//! BookSim2's VC allocation stage (`iq_router.cpp` `_VCAllocEvaluate` / `_VCAllocUpdate`;
//! docs/booksim.md §4), the router feature `vc_alloc_stage`. Without it a routed head takes
//! the free output VC with most credits in the step it is routed and requests the switch in
//! that same step (`step::allocate_vc`). With it:
//!
//! * a head is routed `routing_delay` steps after it arrives (or after the tail in front
//!   of it left) and takes part in VC allocation from then on;
//! * in each step the router's heads waiting for an output VC request every *free* output
//!   VC of their route's range — the routing's VC and its aliases `vc + R, vc + 2R, …` on
//!   a link, every VC of the ejection port — and BookSim2's VC allocator
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

use crate::sim::error::SimError;
use crate::sim::router::input_queued::state::VcState;
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::vc_allocator::VcRequest;
use crate::sim::router::Effects;

/// [`VcState::Routed`]'s `vc` of a head routed to its ejection port: any VC of the port.
pub(crate) const EJECT_ANY: u8 = u8::MAX;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// VC allocation of the heads of local router `ls` queued in this step
    /// (`Work::vc_heads`, local input VCs): requests, allocation, and each head's next step.
    pub(super) fn allocate_vcs(&mut self, s: usize) -> Result<(), SimError> {
        if self.work.vc_heads.is_empty() {
            return Ok(());
        }
        let k = self.k;
        let vcs = k.vcs;
        let ls = s - self.r.lo;
        let first = ls * k.radix * vcs;
        // Heads queued by `restart_head` this step (lookahead routing) come after the scan's;
        // the allocation wants them in input-VC order, routed.
        self.work.vc_heads.sort_unstable();
        for h in 0..self.work.vc_heads.len() {
            let li = usize::from(self.work.vc_heads[h]);
            let iv = first + li;
            if self.r.ivs[iv].state == VcState::Idle {
                self.route(s, iv)?;
            }
        }
        let work = &mut *self.work;
        work.vc_reqs.clear();
        work.vc_elig.clear();
        // Output ports asked for so far (ports ≥ 128 count as shared).
        let (mut ports, mut disjoint) = (0u128, true);
        for &li in &work.vc_heads {
            let VcState::Routed { port, vc } = self.r.ivs[first + usize::from(li)].state else {
                work.vc_elig.push(false);
                continue;
            };
            let bit = 1u128.checked_shl(u32::from(port)).unwrap_or(0);
            disjoint &= bit != 0 && ports & bit == 0;
            ports |= bit;
            let (start, stride) = if vc == EJECT_ANY {
                (0, 1)
            } else {
                (usize::from(vc), usize::from(k.rvcs))
            };
            let out = usize::from(port) * vcs;
            // A free VC with a credit: the head may bid for the switch (`speculation`).
            let mut eligible = false;
            let mut v = start;
            while v < vcs {
                let ov = first + out + v;
                if !self.r.busy[ov] {
                    work.vc_reqs.push(VcRequest {
                        input: li,
                        output: (out + v) as u16,
                    });
                    eligible |= vc == EJECT_ANY || self.r.credits[ov] > 0;
                }
                v += stride;
            }
            work.vc_elig.push(eligible);
        }
        let n = k.vc_alloc.pointers();
        let ptrs = &mut self.r.vc_ptrs[ls * n..(ls + 1) * n];
        if disjoint {
            // No two heads route to the same port (the common case): one pass.
            k.vc_alloc.allocate_disjoint(
                ptrs,
                &mut work.vc_scratch,
                &work.vc_reqs,
                &mut work.vc_wins,
            );
        } else {
            k.vc_alloc
                .allocate(ptrs, &mut work.vc_scratch, &work.vc_reqs, &mut work.vc_wins);
        }
        let sp = self.clock.speedup;
        let retry = sp.after_stage(self.now, u64::from(k.vc_alloc_delay));
        let won = sp.after_stage(retry, u64::from(k.sw_alloc_delay));
        // Winners, in input-VC order as the heads are (both lists ascend).
        let mut next_win = 0;
        for h in 0..self.work.vc_heads.len() {
            let li = self.work.vc_heads[h];
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
                    let VcState::Routed { vc, .. } = self.r.ivs[iv].state else {
                        continue;
                    };
                    self.r.ivs[iv].state = VcState::Active {
                        port: port as u16,
                        vc: ov as u8,
                        eject: vc == EJECT_ANY,
                    };
                    true
                }
                None => false,
            };
            let eligible = self.work.vc_elig[h];
            let ready = self.after_vc_allocation(iv, granted, eligible, (won, retry));
            self.r.ivs[iv].fready = ready;
            self.r.wake[ls] = self.r.wake[ls].min(ready);
        }
        self.work.vc_heads.clear();
        Ok(())
    }

    /// With lookahead routing (`routing_delay = 0`) the head behind a tail that crossed the
    /// switch in this step takes part in this step's VC allocation (BookSim2's
    /// `_SWAllocUpdate` puts it straight into VC allocation, evaluated in the next BookSim2
    /// step — this one in jumpnet's numbering).
    #[inline]
    pub(super) fn vc_allocation_now(&mut self, ls: usize, iv: usize) {
        let li = iv - ls * self.k.radix * self.k.vcs;
        self.work.vc_heads.push(li as u16);
    }
}
