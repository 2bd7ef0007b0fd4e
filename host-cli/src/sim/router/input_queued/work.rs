//! Per-range scratch of the router phase: the range's active set (the routers a cycle
//! visits), the switch and VC allocators' requests and scratch, and the adaptive routing's
//! candidates (`super::step`).

use jumpnet_core::routing::adaptive::{Candidate, MAX_CANDIDATES};

use crate::sim::router::allocator::{Request, Scratch};
use crate::sim::router::input_queued::Params;
use crate::sim::router::vc_allocator::{VcRequest, VcScratch};
use crate::sim::router::vc_port::PortHead;

use super::sw_order::{Crossing, Key};

/// A range of routers' active set and per-step scratch.
#[derive(Debug)]
pub(crate) struct Work {
    /// Bit `s - lo` set iff router `s` of the range holds flits (the routers a cycle
    /// visits, ascending).
    pub(super) active: Vec<u64>,
    pub(super) reqs: Vec<Request>,
    pub(super) wins: Vec<Request>,
    pub(super) scratch: Scratch,
    /// With `hold_switch_for_packet` (`super::hold`): the step's flits that cross on a held
    /// switch, and the holds that end after the step's requests.
    pub(super) held: Vec<Request>,
    pub(super) released: Vec<Request>,
    /// With the VC allocation stage (`super::vc_stage`): the step's heads waiting for an
    /// output VC (local input VCs, ascending), their requests, the matches, and the
    /// allocator's scratch.
    pub(super) vc_heads: Vec<u16>,
    /// The queued heads that share their output port with another
    /// (`vc_stage::split_shared_heads`), one port's of them as the allocator takes them
    /// (`super::super::vc_port`) and the VC each won.
    pub(super) vc_shared: Vec<u16>,
    pub(super) vc_group: Vec<PortHead>,
    pub(super) vc_won: Vec<Option<u16>>,
    /// Heads were queued after the router scan (`vc_stage::vc_allocation_now`), so
    /// `vc_heads` may be out of order.
    pub(super) vc_heads_late: bool,
    /// Per head of the allocation at hand (the allocator's list, or one port's group): a free
    /// VC with a credit in its range (`super::speculation`).
    pub(super) vc_elig: Vec<bool>,
    pub(super) vc_reqs: Vec<VcRequest>,
    pub(super) vc_wins: Vec<VcRequest>,
    /// With a VC allocator that ranks priorities: the priority of each head of
    /// `vc_shared` (`priority`).
    pub(super) vc_head_pri: Vec<u32>,
    pub(super) vc_scratch: VcScratch,
    /// With `Params::sw_order` (`super::sw_order`): the step's crossings, the place of the
    /// one crossing now, and the heads that won an output VC.
    pub(super) crossings: Vec<Crossing>,
    pub(super) rank: u64,
    pub(super) vc_order: Vec<(Key, usize)>,
    /// An adaptive routing's candidates at the hop being routed.
    pub(super) candidates: [Candidate; MAX_CANDIDATES],
}

impl Work {
    /// The `i`-th crossing request of a switch allocation: of every request when all were
    /// granted (`all`), else of the winners.
    #[inline]
    pub(super) fn crossing(&self, all: bool, i: usize) -> Request {
        let list = if all { &self.reqs } else { &self.wins };
        list[i]
    }

    /// State of `routers` routers with the parameters `k`.
    pub fn new(routers: usize, k: &Params) -> Self {
        let ins = usize::from(k.shape.ins);
        Work {
            active: vec![0; routers.div_ceil(64)],
            reqs: Vec::with_capacity(k.radix * k.vcs),
            wins: Vec::with_capacity(ins),
            scratch: {
                let mut s = Scratch::new(k.shape.scratch_len());
                if k.priority.is_on() {
                    s.prio = vec![0; ins * k.vcs];
                }
                s
            },
            held: Vec::with_capacity(if k.hold { ins } else { 0 }),
            released: Vec::with_capacity(if k.hold { ins } else { 0 }),
            vc_heads: Vec::new(),
            vc_shared: Vec::new(),
            vc_group: Vec::new(),
            vc_won: Vec::new(),
            vc_heads_late: false,
            vc_elig: Vec::new(),
            vc_reqs: Vec::new(),
            vc_wins: Vec::new(),
            vc_scratch: if k.vc_stage {
                let mut s =
                    VcScratch::new(usize::from(k.vc_alloc.ins), usize::from(k.vc_alloc.outs));
                if k.vc_ranked {
                    s.prio = vec![0; usize::from(k.vc_alloc.ins)];
                }
                s
            } else {
                VcScratch::default()
            },
            crossings: Vec::new(),
            rank: 0,
            vc_order: Vec::new(),
            vc_head_pri: Vec::new(),
            candidates: [Candidate::default(); MAX_CANDIDATES],
        }
    }

    /// Marks the routers with flits buffered (`buffered`, per router of the range) active:
    /// between two cycles a router is in the active set exactly when it holds flits.
    pub fn mark_active(&mut self, buffered: &[u32]) {
        for (ls, &b) in buffered.iter().enumerate() {
            if b > 0 {
                self.active[ls / 64] |= 1 << (ls % 64);
            }
        }
    }

    /// Back to the state of [`Work::new`], keeping the capacity.
    pub fn reset(&mut self) {
        self.active.fill(0);
        self.reqs.clear();
        self.wins.clear();
        self.scratch.reset();
        self.held.clear();
        self.released.clear();
        self.vc_heads.clear();
        self.vc_shared.clear();
        self.vc_group.clear();
        self.vc_won.clear();
        self.vc_heads_late = false;
        self.vc_elig.clear();
        self.vc_reqs.clear();
        self.vc_wins.clear();
        self.vc_head_pri.clear();
        self.vc_scratch.reset();
        self.crossings.clear();
        self.rank = 0;
        self.vc_order.clear();
    }
}
