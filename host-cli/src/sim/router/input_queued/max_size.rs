//! The router's part of BookSim2's `max_size` allocator (`sim::router::maxsize`;
//! docs/booksim.md §4): its priority input moves at every `Allocate` call, and BookSim2's
//! `IQRouter::_InternalStep` calls its switch allocator in every step in which
//! `_sw_alloc_vcs` is not empty and its VC allocator in every step in which `_vc_alloc_vcs`
//! is not empty — requests or not. So the priority input moves once for each such step,
//! and jumpnet counts them from the router's state:
//!
//! * **VC allocator.** `_vc_alloc_vcs` holds the heads waiting for an output VC; they are
//!   the heads of jumpnet's VC allocation stage (`vc_stage`), which runs the allocator in
//!   every step it has heads, so a step without requests (no free VC in any head's range)
//!   calls it too (`VcAllocator::allocate`).
//! * **Switch allocator.** `_sw_alloc_vcs` holds every input VC with an output VC and a flit
//!   in its buffer — whether the flit has a credit or not — except one that holds the
//!   switch (`hold_switch_for_packet`), and with `speculative = 1` also every head in VC
//!   allocation. jumpnet's switch allocation of step `n` is BookSim2's of step `n − 1`
//!   (`vc_stage`), so a call is due when the router has an input VC in the `Active` state
//!   whose front flit is ready (not held at the step's start), or, with speculation, when
//!   its VC allocation of step `n − 1` had heads. A router with such a VC always steps (a
//!   ready flit wakes it in the next step); with speculation a router whose VC allocation
//!   had heads is woken in the next step for the count. A call without requests moves the
//!   priority input alone ([`crate::sim::router::maxsize`]'s `idle`).
//!
//! The flag "VC allocation had heads" is kept after the priority input among the switch
//! allocator's pointers (`Shape::pointers`, of which `max_size` uses the first `ins + 2`,
//! `ins` the router's crossbar inputs in the allocator's numbering: BookSim2's on a
//! butterfly, `router::alloc_ports`).

use jumpnet_core::routing::Routing;

use crate::sim::router::input_queued::state::VcState;
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::maxsize;
use crate::sim::router::Effects;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Whether BookSim2 calls the switch allocator of local router `ls` in the step whose
    /// switch allocation is this one (read before the step's holds are released).
    pub(super) fn max_size_switch_due(&self, ls: usize) -> bool {
        let k = self.k;
        let ins = usize::from(k.shape.ins);
        let flag = usize::from(k.switch_shape(self.r.lo + ls).ins) + 1;
        if k.speculative && self.r.ptrs[ls * k.shape.pointers() + flag] != 0 {
            return true;
        }
        let first = ls * k.per;
        for w in 0..k.words {
            let mut bits = self.r.nonempty[ls * k.words + w];
            while bits != 0 {
                let li = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let v = &self.r.ivs[first + li];
                if v.fready > self.now || !matches!(v.state(), VcState::Active { .. }) {
                    continue;
                }
                let lanes = k.port_vc[li];
                if k.hold && self.r.hold_in[ls * ins + usize::from(lanes.input)] == lanes.vc {
                    continue;
                }
                return true;
            }
        }
        false
    }

    /// A BookSim2 switch allocation of local router `ls` without requests: the priority
    /// input moves on.
    pub(super) fn max_size_switch_idle(&mut self, ls: usize) {
        let n = self.k.shape.pointers();
        let shape = self.k.switch_shape(self.r.lo + ls);
        maxsize::idle(&shape, &mut self.r.ptrs[ls * n..(ls + 1) * n]);
    }

    /// With speculation, after the step's VC allocation of local router `ls`: records
    /// whether it had heads (`heads`), whose bids make the next step's switch allocation
    /// due, and wakes the router in the next step to count it.
    pub(super) fn max_size_after_vcs(&mut self, ls: usize, heads: bool) {
        let k = self.k;
        let ins = k.switch_shape(self.r.lo + ls).ins;
        let at = ls * k.shape.pointers() + usize::from(ins) + 1;
        self.r.ptrs[at] = u16::from(heads);
        if heads {
            self.r.wake[ls] = self.r.wake[ls].min(self.now + 1);
        }
    }
}
