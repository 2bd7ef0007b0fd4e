//! The input-queued router's state: per input VC its ring buffer and route state, per output
//! VC its credits and owner, per router its buffered flits, non-empty mask and wake-up cycle,
//! per port its flit counter and queue clocks, and the allocators' pointers — as flat
//! arrays owned by [`InputQueuedRouter`](super::InputQueuedRouter), and as the disjoint
//! slices of a range of routers ([`Range`]) that one thread steps.

use crate::sim::network::{Flit, Slot};
use crate::sim::router::input_queued::buffers;
use crate::sim::router::input_queued::sw_order::OrderKeys;
use crate::sim::router::input_queued::Params;
use crate::sim::router::priority::Priority;

/// Per-input-VC route state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum VcState {
    /// Front flit is a head without a route.
    #[default]
    Idle,
    /// Routed to `port` on logical VC `vc` (or, with the VC allocation stage, to the
    /// ejection port `port` with `vc = vc_stage::EJECT_ANY`); needs an output VC.
    Routed { port: u16, vc: u8 },
    /// Holds output VC `vc` of `port` (or ejects through `port`).
    Active { port: u16, vc: u8, eject: bool },
}

/// Per-input-VC state read by every router scan.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct InVc {
    /// Ready cycle of the front flit.
    pub fready: u64,
    /// The front flit (valid while `len > 0`): kept here, beside its ready cycle, so that
    /// the router scan, route computation and traversal read the line they already hold;
    /// the ring buffer's slot at `head` is not read (nor written when the flit arrives in
    /// an empty VC).
    pub front: Flit,
    /// Ring-buffer head slot.
    pub head: u16,
    /// Flits buffered.
    pub len: u16,
    /// Route state of the front packet ([`InVc::state`]).
    packed: PackedState,
}

// Every router scan and every flit's arrival reads an `InVc`: at 24 bytes rather than 32 the
// input VCs of a large network take a quarter fewer cache lines (hence the packed route
// state, and the optional per-VC flags in arrays of their own such as [`Arrays::spec`]).
const _: () = assert!(core::mem::size_of::<InVc>() == 24);

impl InVc {
    /// Route state of the front packet.
    #[inline]
    pub fn state(&self) -> VcState {
        self.packed.get()
    }

    /// Sets the route state of the front packet.
    #[inline]
    pub fn set_state(&mut self, state: VcState) {
        self.packed = PackedState::new(state);
    }
}

/// A [`VcState`] in 4 bytes (the enum takes 6): the port in the low 16 bits, the VC in the
/// next 8, the kind above them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PackedState(u32);

impl PackedState {
    const ROUTED: u32 = 1 << 24;
    const ACTIVE: u32 = 2 << 24;
    const EJECT: u32 = 3 << 24;

    #[inline]
    fn new(state: VcState) -> Self {
        let (kind, port, vc) = match state {
            VcState::Idle => return PackedState(0),
            VcState::Routed { port, vc } => (Self::ROUTED, port, vc),
            VcState::Active { port, vc, eject } => {
                (if eject { Self::EJECT } else { Self::ACTIVE }, port, vc)
            }
        };
        PackedState(kind | (u32::from(vc) << 16) | u32::from(port))
    }

    #[inline]
    fn get(self) -> VcState {
        let (port, vc) = (self.0 as u16, (self.0 >> 16) as u8);
        match self.0 & (3 << 24) {
            0 => VcState::Idle,
            Self::ROUTED => VcState::Routed { port, vc },
            k => VcState::Active {
                port,
                vc,
                eject: k == Self::EJECT,
            },
        }
    }
}

/// The arrays of all routers.
#[derive(Debug)]
pub(crate) struct Arrays {
    /// Input-VC ring buffers (`buf` slots per input VC, position-major within a router,
    /// `buffers`): each flit with its ready cycle, so the router touches one cache line per
    /// flit. The front flit is [`InVc::front`]; the slot at `head` is not kept up to date.
    pub slots: Vec<Slot>,
    /// Per input VC: front flit's ready cycle, ring head, length and route state together
    /// (the router scan reads them all).
    pub ivs: Vec<InVc>,
    /// Per output VC: credits of the downstream input VC.
    pub credits: Vec<u16>,
    /// Per output VC: held by a packet.
    pub busy: Vec<bool>,
    /// Per router: flits buffered.
    pub buffered: Vec<u32>,
    /// Per router: bit `p·vcs + v` set iff input VC `v` of port `p` holds flits
    /// (`words` u64 per router).
    pub nonempty: Vec<u64>,
    /// Per router: first cycle at which a step can change anything (a front flit becomes
    /// ready, or a ready flit was blocked); routers sleep until then.
    pub wake: Vec<u64>,
    /// Per channel (port): flits sent since cycle 0.
    pub channel_flits: Vec<u64>,
    /// Per router, `shape.pointers()` round-robin pointers of the switch allocator.
    pub ptrs: Vec<u16>,
    /// Per port: first cycle its output queue may send a flit / its credit queue a credit
    /// (internal speedup).
    pub out_free: Vec<u64>,
    pub cred_free: Vec<u64>,
    /// Per router, with a crossbar delay above one cycle (`Params::xbar_batches`): the step
    /// its last crossbar batch started (`traverse`; 0: none yet); empty otherwise.
    pub xbar_start: Vec<u64>,
    /// Per port: one more than the last internal step whose credits left through the
    /// port's credit queue (credits freed in one step travel together; `crossbar`).
    pub cred_step: Vec<u64>,
    /// Per output VC, with `wait_for_tail_credit`: its packet's tail has left and the VC
    /// waits for its credits (`tail_credit`); empty otherwise.
    pub draining: Vec<bool>,
    /// Per output VC, with `booksim_credits`: the first internal step of the cycle of its
    /// last credits' arrival (high bits; the cycle itself without internal speedup) and how
    /// many arrived then (low 16 bits) — credits the switch allocation of that step may not
    /// use yet (`step::usable_credit`); empty otherwise.
    pub fresh: Vec<u64>,
    /// Per crossbar input, with `hold_switch_for_packet`: the VC holding it, or
    /// [`NO_HOLD`]; per crossbar output: whether it is held (`hold`); empty otherwise.
    pub hold_in: Vec<u8>,
    pub hold_out: Vec<bool>,
    /// Per router, with the VC allocation stage: the VC allocator's round-robin pointers
    /// (`vc_alloc.pointers()` each; `vc_stage`); empty otherwise.
    pub vc_ptrs: Vec<u16>,
    /// Per input VC, with speculation: its head bids for the switch in its next step
    /// (`speculation`); empty otherwise.
    pub spec: Vec<bool>,
    /// Per input VC, with `Params::sw_order`: its places in BookSim2's allocation lists
    /// (`sw_order`); empty otherwise.
    pub order: Vec<OrderKeys>,
    /// Per buffer slot (the indices of [`Arrays::slots`]), with `priority = local_age`,
    /// `queue_length` or `hop_count`: a stamp of its flit's arrival (`priority`) — the cycle,
    /// or with `hop_count` the routers the flit crossed before this one —, written for every
    /// arrival, the front flit's too; empty otherwise.
    pub stamps: Vec<u32>,
    /// Per input VC, with `priority = hop_count`: the routers the packet arriving on it (the
    /// last head that arrived) crossed before this one, for its body flits' stamps; empty
    /// otherwise.
    pub in_hops: Vec<u32>,
}

/// [`Arrays::hold_in`] of a crossbar input nobody holds.
pub(crate) const NO_HOLD: u8 = u8::MAX;

/// VC allocator pointers per router ([`Arrays::vc_ptrs`]; 0 without the VC allocation
/// stage).
fn vc_pointers(k: &Params) -> usize {
    if k.vc_stage {
        k.vc_alloc.pointers()
    } else {
        0
    }
}

/// Entries per router of the optional arrays: output VCs of [`Arrays::draining`] and
/// [`Arrays::fresh`],
/// crossbar inputs of [`Arrays::hold_in`], crossbar outputs of [`Arrays::hold_out`] (0 when
/// the feature is off).
fn optional(k: &Params) -> (usize, usize, usize, usize) {
    let per = k.radix * k.vcs;
    (
        if k.wait_tail { per } else { 0 },
        if k.eject_credits { per } else { 0 },
        if k.hold { usize::from(k.shape.ins) } else { 0 },
        if k.hold { usize::from(k.shape.outs) } else { 0 },
    )
}

/// Input VCs per router of [`Arrays::spec`] (0 without speculation).
fn spec_vcs(k: &Params) -> usize {
    if k.speculative {
        k.per
    } else {
        0
    }
}

/// Input VCs per router of [`Arrays::order`] (0 without `Params::sw_order`).
fn order_vcs(k: &Params) -> usize {
    if k.sw_order {
        k.per
    } else {
        0
    }
}

/// Buffer slots per router of [`Arrays::stamps`] and input VCs per router of
/// [`Arrays::in_hops`] (0 when the priority mode needs none).
fn priority_entries(k: &Params) -> (usize, usize) {
    (
        if k.stamps { k.per * k.buf } else { 0 },
        if k.priority == Priority::HopCount {
            k.per
        } else {
            0
        },
    )
}

impl Arrays {
    /// Empty routers of the shape `k`.
    pub fn new(k: &Params, switches: usize) -> Self {
        let nports = switches * k.radix;
        let niv = nports * k.vcs;
        Arrays {
            slots: buffers::slots(niv * k.buf),
            ivs: vec![InVc::default(); niv],
            credits: vec![k.vc_buf_size; niv],
            busy: vec![false; niv],
            buffered: vec![0; switches],
            nonempty: vec![0; switches * k.words],
            wake: vec![0; switches],
            channel_flits: vec![0; nports],
            ptrs: vec![0; switches * k.shape.pointers()],
            out_free: vec![0; nports],
            cred_free: vec![0; nports],
            xbar_start: vec![0; if k.xbar_batches { switches } else { 0 }],
            cred_step: vec![0; nports],
            draining: vec![false; switches * optional(k).0],
            fresh: vec![0; switches * optional(k).1],
            hold_in: vec![NO_HOLD; switches * optional(k).2],
            hold_out: vec![false; switches * optional(k).3],
            vc_ptrs: vec![0; switches * vc_pointers(k)],
            spec: vec![false; switches * spec_vcs(k)],
            order: vec![OrderKeys::default(); switches * order_vcs(k)],
            stamps: vec![0; switches * priority_entries(k).0],
            in_hops: vec![0; switches * priority_entries(k).1],
        }
    }

    /// Back to [`Arrays::new`]'s state without allocating. Buffer slots need no clearing: an
    /// input VC's `len` says which hold flits.
    pub fn reset(&mut self, k: &Params) {
        self.ivs.fill(InVc::default());
        self.credits.fill(k.vc_buf_size);
        self.busy.fill(false);
        self.buffered.fill(0);
        self.nonempty.fill(0);
        self.wake.fill(0);
        self.channel_flits.fill(0);
        self.ptrs.fill(0);
        self.out_free.fill(0);
        self.cred_free.fill(0);
        self.xbar_start.fill(0);
        self.cred_step.fill(0);
        self.draining.fill(false);
        self.fresh.fill(0);
        self.hold_in.fill(NO_HOLD);
        self.hold_out.fill(false);
        self.vc_ptrs.fill(0);
        self.spec.fill(false);
        self.order.fill(OrderKeys::default());
        self.stamps.fill(0);
        self.in_hops.fill(0);
    }
}

/// The mutable state of routers `lo..hi`: the slices of the arrays that belong to them
/// (indices relative to router `lo`), with the routers' parameters.
pub(crate) struct Range<'a> {
    pub k: &'a Params,
    pub lo: usize,
    pub hi: usize,
    pub ivs: &'a mut [InVc],
    pub slots: &'a mut [Slot],
    pub credits: &'a mut [u16],
    pub busy: &'a mut [bool],
    pub buffered: &'a mut [u32],
    pub nonempty: &'a mut [u64],
    pub wake: &'a mut [u64],
    pub channel_flits: &'a mut [u64],
    pub ptrs: &'a mut [u16],
    pub out_free: &'a mut [u64],
    pub cred_free: &'a mut [u64],
    pub xbar_start: &'a mut [u64],
    pub cred_step: &'a mut [u64],
    pub draining: &'a mut [bool],
    pub fresh: &'a mut [u64],
    pub hold_in: &'a mut [u8],
    pub hold_out: &'a mut [bool],
    pub vc_ptrs: &'a mut [u16],
    pub spec: &'a mut [bool],
    pub order: &'a mut [OrderKeys],
    pub stamps: &'a mut [u32],
    pub in_hops: &'a mut [u32],
}

impl<'a> Range<'a> {
    /// All routers of `a`.
    pub fn all(k: &'a Params, a: &'a mut Arrays) -> Self {
        Range {
            k,
            lo: 0,
            hi: a.buffered.len(),
            ivs: &mut a.ivs,
            slots: &mut a.slots,
            credits: &mut a.credits,
            busy: &mut a.busy,
            buffered: &mut a.buffered,
            nonempty: &mut a.nonempty,
            wake: &mut a.wake,
            channel_flits: &mut a.channel_flits,
            ptrs: &mut a.ptrs,
            out_free: &mut a.out_free,
            cred_free: &mut a.cred_free,
            xbar_start: &mut a.xbar_start,
            cred_step: &mut a.cred_step,
            draining: &mut a.draining,
            fresh: &mut a.fresh,
            hold_in: &mut a.hold_in,
            hold_out: &mut a.hold_out,
            vc_ptrs: &mut a.vc_ptrs,
            spec: &mut a.spec,
            order: &mut a.order,
            stamps: &mut a.stamps,
            in_hops: &mut a.in_hops,
        }
    }

    /// Splits into routers `lo..mid` and `mid..hi`.
    pub fn split_at(self, mid: usize) -> (Self, Self) {
        let k = self.k;
        let n = mid - self.lo;
        let ports = n * k.radix;
        let ivs = ports * k.vcs;
        let (ivs_a, ivs_b) = self.ivs.split_at_mut(ivs);
        let (slots_a, slots_b) = self.slots.split_at_mut(ivs * k.buf);
        let (credits_a, credits_b) = self.credits.split_at_mut(ivs);
        let (busy_a, busy_b) = self.busy.split_at_mut(ivs);
        let (buffered_a, buffered_b) = self.buffered.split_at_mut(n);
        let (nonempty_a, nonempty_b) = self.nonempty.split_at_mut(n * k.words);
        let (wake_a, wake_b) = self.wake.split_at_mut(n);
        let (cf_a, cf_b) = self.channel_flits.split_at_mut(ports);
        let (ptrs_a, ptrs_b) = self.ptrs.split_at_mut(n * k.shape.pointers());
        let (of_a, of_b) = self.out_free.split_at_mut(ports);
        let (cr_a, cr_b) = self.cred_free.split_at_mut(ports);
        let (cs_a, cs_b) = self.cred_step.split_at_mut(ports);
        let xb = usize::from(k.xbar_batches);
        let (xb_a, xb_b) = self.xbar_start.split_at_mut(n * xb);
        let (dr, fr, hi, ho) = optional(k);
        let (dr_a, dr_b) = self.draining.split_at_mut(n * dr);
        let (fr_a, fr_b) = self.fresh.split_at_mut(n * fr);
        let (hi_a, hi_b) = self.hold_in.split_at_mut(n * hi);
        let (ho_a, ho_b) = self.hold_out.split_at_mut(n * ho);
        let (vp_a, vp_b) = self.vc_ptrs.split_at_mut(n * vc_pointers(k));
        let (sp_a, sp_b) = self.spec.split_at_mut(n * spec_vcs(k));
        let (or_a, or_b) = self.order.split_at_mut(n * order_vcs(k));
        let (pa, ph) = priority_entries(k);
        let (ar_a, ar_b) = self.stamps.split_at_mut(n * pa);
        let (hp_a, hp_b) = self.in_hops.split_at_mut(n * ph);
        (
            Range {
                k,
                lo: self.lo,
                hi: mid,
                ivs: ivs_a,
                slots: slots_a,
                credits: credits_a,
                busy: busy_a,
                buffered: buffered_a,
                nonempty: nonempty_a,
                wake: wake_a,
                channel_flits: cf_a,
                ptrs: ptrs_a,
                out_free: of_a,
                cred_free: cr_a,
                xbar_start: xb_a,
                cred_step: cs_a,
                draining: dr_a,
                fresh: fr_a,
                hold_in: hi_a,
                hold_out: ho_a,
                vc_ptrs: vp_a,
                spec: sp_a,
                order: or_a,
                stamps: ar_a,
                in_hops: hp_a,
            },
            Range {
                k,
                lo: mid,
                hi: self.hi,
                ivs: ivs_b,
                slots: slots_b,
                credits: credits_b,
                busy: busy_b,
                buffered: buffered_b,
                nonempty: nonempty_b,
                wake: wake_b,
                channel_flits: cf_b,
                ptrs: ptrs_b,
                out_free: of_b,
                cred_free: cr_b,
                xbar_start: xb_b,
                cred_step: cs_b,
                draining: dr_b,
                fresh: fr_b,
                hold_in: hi_b,
                hold_out: ho_b,
                vc_ptrs: vp_b,
                spec: sp_b,
                order: or_b,
                stamps: ar_b,
                in_hops: hp_b,
            },
        )
    }
}
