//! BookSim2's VC allocator (`iq_router.cpp` `_VCAllocEvaluate`, `allocators/islip.cpp`,
//! `allocators/separable_input_first.cpp`; docs/booksim.md §4): one allocation per router
//! step over requests (input VC → output VC), the input VCs numbered `port · vcs + vc` and
//! the output VCs `output port · vcs + vc`, as BookSim2 numbers them. A head requests every
//! free output VC of its route's VC range (`input_queued::vc_stage`); the allocator matches
//! every input VC to at most one output VC and every output VC to at most one input VC.
//!
//! * iSLIP (one iteration: BookSim2 builds its allocators without the configuration, so
//!   `alloc_iters` leaves them at one): every requested output VC grants the requesting
//!   input VC nearest its grant pointer, every input VC accepts the granting output VC
//!   nearest its accept pointer; a match moves the output's pointer past the input and the
//!   input's past the output.
//! * separable input-first: every input VC picks the requested output VC nearest its
//!   pointer, every output VC grants the picking input VC of the highest priority, then the
//!   nearest its pointer; a match moves both pointers past each other.
//!
//! "Nearest" is the round-robin distance from the pointer (`allocator::dist`). A request's
//! priorities are BookSim2's: "in" 0 (the routing function's, 0 for every routing jumpnet
//! models), "out" the input VC's (its front flit's packet priority, docs/booksim.md §3.5,
//! `super::priority`; all 0 with `priority = none`), in `VcScratch::prio`; iSLIP, PIM, LOA
//! and the maximum-size allocator ignore them, as BookSim2's do.
//!
//! * wavefront: `super::wavefront::allocate_vcs`, dispatched from
//!   [`VcAllocator::allocate`] and [`VcAllocator::allocate_disjoint`].
//! * PIM (`super::pim::allocate_vcs`, one iteration) and the lonely output allocator
//!   (`super::loa::allocate_vcs`), dispatched the same way.
//! * `select` (`super::select`; BookSim2's `separable_output_first` is the same with one
//!   iteration): iSLIP whose output VCs grant the requesting input VC of the highest
//!   priority, then the nearest their pointer (the inputs accept as iSLIP's, their requests'
//!   "in" priorities being equal); with every priority 0 iSLIP's matches.
//! * maximum size (`super::maxsize::allocate_vcs`): called in every step the router has
//!   heads waiting for an output VC, requests or not (its priority input moves at every
//!   call, as BookSim2's).

use core::cmp::Reverse;

use crate::sim::config::Allocator;
use crate::sim::router::allocator::{dist, succ, NONE};

/// One VC request: input VC `input` (`port · vcs + vc`) wants output VC `output`
/// (`output port · vcs + vc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcRequest {
    /// Input VC of the router.
    pub input: u16,
    /// Output VC of the router.
    pub output: u16,
}

/// A router's VC allocator shape: kind, input VCs and output VCs.
#[derive(Clone, Copy, Debug)]
pub struct VcAllocator {
    /// Allocator kind.
    pub kind: Allocator,
    /// Input VCs (ports × VCs).
    pub ins: u16,
    /// Output VCs (ports × VCs).
    pub outs: u16,
}

/// Per-allocation scratch space: per output VC the input it grants, per input VC the output
/// it picks (`NONE` between allocations), the lonely output allocator's cells, the
/// wavefront allocator's sort keys, PIM's matches, random offsets and generator state
/// (`super::pim`).
#[derive(Clone, Debug, Default)]
pub struct VcScratch {
    pub(crate) grant: Vec<u16>,
    pub(crate) pick: Vec<u16>,
    pub(crate) keys: Vec<u64>,
    /// The wavefront allocator's sort keys (`super::wavefront`).
    pub(crate) wide: Vec<u128>,
    /// With packet priorities and an allocator that ranks them
    /// (`super::priority::ranks_priorities`): the priority of each input VC that requests
    /// in this allocation (BookSim2's "out" priority of its requests: the VC's front flit's,
    /// docs/booksim.md §3.5), set by the router before it; empty otherwise (all 0).
    pub(crate) prio: Vec<u32>,
    pub(crate) in_match: Vec<u16>,
    pub(crate) out_match: Vec<u16>,
    pub(crate) offset: Vec<u16>,
    pub(crate) rng: u64,
}

impl VcScratch {
    /// Scratch for a router of `ins` input VCs and `outs` output VCs.
    pub fn new(ins: usize, outs: usize) -> Self {
        VcScratch {
            grant: vec![NONE; outs],
            pick: vec![NONE; ins],
            keys: Vec::new(),
            wide: Vec::new(),
            prio: Vec::new(),
            in_match: vec![NONE; ins],
            out_match: vec![NONE; outs],
            offset: vec![NONE; ins + outs],
            rng: 0,
        }
    }

    /// Every entry back to `NONE` (engine reuse).
    pub fn reset(&mut self) {
        self.grant.fill(NONE);
        self.pick.fill(NONE);
        self.keys.clear();
        self.wide.clear();
        self.in_match.fill(NONE);
        self.out_match.fill(NONE);
        self.offset.fill(NONE);
        self.rng = 0;
    }
}

impl VcAllocator {
    /// Round-robin pointers per router: one per input VC (iSLIP's accept pointer, the
    /// separable allocator's input arbiter), then one per output VC (grant pointer, output
    /// arbiter; the lonely output allocator's request and grant pointers). The wavefront
    /// allocator uses the first one only, its priority diagonal, PIM none (every kind has
    /// the same number).
    pub fn pointers(&self) -> usize {
        usize::from(self.ins) + usize::from(self.outs)
    }

    /// [`VcAllocator::allocate`] for requests whose inputs ask for disjoint sets of outputs,
    /// each input's requests contiguous in `reqs` (a head asks only for VCs of its route's
    /// output port; here no two heads share a port): every requested output has one
    /// requester, so with either kind every input takes its requested output nearest its
    /// own pointer — one pass instead of the general three. (The wavefront, PIM and lonely
    /// output allocators have no such pass: `scratch` is for them.)
    pub fn allocate_disjoint(
        &self,
        ptrs: &mut [u16],
        scratch: &mut VcScratch,
        reqs: &[VcRequest],
        out: &mut Vec<VcRequest>,
    ) {
        if !self.has_disjoint_pass() {
            return self.allocate(ptrs, scratch, reqs, out);
        }
        out.clear();
        let mut cur: Option<VcRequest> = None;
        for q in reqs {
            match cur {
                Some(c) if c.input == q.input => {
                    if self.disjoint_rank(ptrs, *q) < self.disjoint_rank(ptrs, c) {
                        cur = Some(*q);
                    }
                }
                _ => {
                    out.extend(cur);
                    cur = Some(*q);
                }
            }
        }
        out.extend(cur);
        for w in out.iter() {
            self.disjoint_match(ptrs, *w);
        }
    }

    /// Whether [`VcAllocator::disjoint_rank`] and [`VcAllocator::disjoint_match`] allocate
    /// disjoint requests as [`VcAllocator::allocate`] does (iSLIP, `select` and the
    /// separable allocators).
    #[inline]
    pub fn has_disjoint_pass(&self) -> bool {
        !matches!(
            self.kind,
            Allocator::Wavefront
                | Allocator::RrWavefront
                | Allocator::Pim
                | Allocator::Loa
                | Allocator::MaxSize
        )
    }

    /// With disjoint requests ([`VcAllocator::allocate_disjoint`]), the rank of request `q`
    /// among its input's: its round-robin distance from the input's pointer (the lowest
    /// rank, first on ties, wins). Lets a router allocate its heads one at a time, without
    /// a request list.
    #[inline]
    pub fn disjoint_rank(&self, ptrs: &[u16], q: VcRequest) -> u16 {
        dist(q.output, ptrs[usize::from(q.input)], self.outs)
    }

    /// With disjoint requests, the output input VC `input` takes among the free ones of an
    /// output port whose first output VC is `out`: `(busy, start, stride)` are the port's
    /// VCs (`true`: taken) and the range requested, VCs `start, start + stride, …`. The
    /// winner is the free VC of lowest [`VcAllocator::disjoint_rank`], the distance
    /// `(output − pointer) mod outs`: of the ascending outputs the first one at or after the
    /// input's pointer, or, when every one is before it, the first of all — found without
    /// computing a rank.
    #[inline]
    pub fn disjoint_pick(
        &self,
        ptrs: &[u16],
        input: u16,
        out: u16,
        (busy, start, stride): (&[bool], usize, usize),
    ) -> Option<u16> {
        let p = ptrs[usize::from(input)];
        let mut first = None;
        let mut v = start;
        while v < busy.len() {
            if !busy[v] {
                let o = out + v as u16;
                if o >= p {
                    // Every earlier free output is before the pointer: this one is nearest.
                    return Some(o);
                }
                first = first.or(Some(o));
            }
            v += stride;
        }
        first
    }

    /// With disjoint requests, records the match `w`: the input's and the output's
    /// pointers move past each other.
    #[inline]
    pub fn disjoint_match(&self, ptrs: &mut [u16], w: VcRequest) {
        let (ni, no) = (self.ins, self.outs);
        ptrs[usize::from(w.input)] = succ(w.output, no);
        ptrs[usize::from(ni) + usize::from(w.output)] = succ(w.input, ni);
    }

    /// Matches `reqs` of the router whose pointers are `ptrs`; the matched requests are
    /// written to `out`, in the order of `reqs`.
    pub fn allocate(
        &self,
        ptrs: &mut [u16],
        scratch: &mut VcScratch,
        reqs: &[VcRequest],
        out: &mut Vec<VcRequest>,
    ) {
        let (ni, no) = (self.ins, self.outs);
        if self.kind == Allocator::MaxSize {
            // Called once per BookSim2 `Allocate`, requests or not; its one pointer is the
            // priority input.
            return super::maxsize::allocate_vcs((ni, no), &mut ptrs[0], scratch, reqs, out);
        }
        out.clear();
        if reqs.is_empty() {
            return;
        }
        let nearer = |cand: u16, cur: u16, ptr: u16, n: u16| {
            cur == NONE || dist(cand, ptr, n) < dist(cur, ptr, n)
        };
        match self.kind {
            Allocator::Pim => return super::pim::allocate_vcs((ni, no), scratch, reqs, out),
            Allocator::Loa => return super::loa::allocate_vcs((ni, no), ptrs, scratch, reqs, out),
            _ => {}
        }
        let (in_ptr, out_ptr) = ptrs.split_at_mut(usize::from(ni));
        let VcScratch {
            grant,
            pick,
            wide,
            prio,
            ..
        } = scratch;
        // An output VC's arbiter: the requesting input VC of the highest priority (BookSim2's
        // "out" priority, `prio`; all 0 when empty), then the nearest its pointer.
        let pri = |i: u16| prio.get(usize::from(i)).copied().unwrap_or(0);
        let grants = |cand: u16, cur: u16, ptr: u16| {
            cur == NONE
                || (pri(cand), Reverse(dist(cand, ptr, ni)))
                    > (pri(cur), Reverse(dist(cur, ptr, ni)))
        };
        match self.kind {
            Allocator::Islip => {
                for q in reqs {
                    let o = usize::from(q.output);
                    if nearer(q.input, grant[o], out_ptr[o], ni) {
                        grant[o] = q.input;
                    }
                }
                accept(reqs, grant, pick, in_ptr, no, out);
            }
            Allocator::Select => {
                // iSLIP whose output arbiters rank by priority (`super::select`; the
                // requests' "in" priorities are all 0).
                for q in reqs {
                    let o = usize::from(q.output);
                    if grants(q.input, grant[o], out_ptr[o]) {
                        grant[o] = q.input;
                    }
                }
                accept(reqs, grant, pick, in_ptr, no, out);
            }
            Allocator::SeparableInputFirst | Allocator::SeparableVc => {
                for q in reqs {
                    let i = usize::from(q.input);
                    if nearer(q.output, pick[i], in_ptr[i], no) {
                        pick[i] = q.output;
                    }
                }
                for q in reqs {
                    let o = usize::from(q.output);
                    if pick[usize::from(q.input)] == q.output
                        && grants(q.input, grant[o], out_ptr[o])
                    {
                        grant[o] = q.input;
                    }
                }
                for q in reqs {
                    let (i, o) = (usize::from(q.input), usize::from(q.output));
                    if pick[i] == q.output && grant[o] == q.input {
                        out.push(*q);
                    }
                }
            }
            Allocator::Wavefront | Allocator::RrWavefront => {
                // Its one pointer is the priority diagonal.
                let io = (ni, no);
                let rr = self.kind == Allocator::RrWavefront;
                let scratch = (&mut grant[..], &mut pick[..], wide);
                let diag = (&mut in_ptr[0], rr);
                return super::wavefront::allocate_vcs(io, diag, scratch, prio, reqs, out);
            }
            Allocator::Pim | Allocator::Loa | Allocator::MaxSize => {
                unreachable!("dispatched above")
            }
        }
        for w in out.iter() {
            in_ptr[usize::from(w.input)] = succ(w.output, no);
            out_ptr[usize::from(w.output)] = succ(w.input, ni);
        }
        for q in reqs {
            grant[usize::from(q.output)] = NONE;
            pick[usize::from(q.input)] = NONE;
        }
    }
}

/// iSLIP's accept step of the VC allocator: every input VC accepts, of the output VCs that
/// granted it (`grant`), the one nearest its pointer (`pick` is left holding it); the matches
/// are written to `out`, in the order of `reqs`.
fn accept(
    reqs: &[VcRequest],
    grant: &[u16],
    pick: &mut [u16],
    in_ptr: &[u16],
    no: u16,
    out: &mut Vec<VcRequest>,
) {
    for q in reqs {
        let i = usize::from(q.input);
        if grant[usize::from(q.output)] == q.input
            && (pick[i] == NONE || dist(q.output, in_ptr[i], no) < dist(pick[i], in_ptr[i], no))
        {
            pick[i] = q.output;
        }
    }
    for q in reqs {
        let (i, o) = (usize::from(q.input), usize::from(q.output));
        if pick[i] == q.output && grant[o] == q.input {
            out.push(*q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rq(input: u16, output: u16) -> VcRequest {
        VcRequest { input, output }
    }

    fn run(kind: Allocator, ptrs: &mut [u16], reqs: &[VcRequest]) -> Vec<VcRequest> {
        // 5 ports of 2 VCs: 10 input and 10 output VCs.
        let a = VcAllocator {
            kind,
            ins: 10,
            outs: 10,
        };
        let mut s = VcScratch::new(10, 10);
        let mut out = Vec::new();
        a.allocate(ptrs, &mut s, reqs, &mut out);
        out
    }

    #[test]
    fn two_heads_for_the_same_output_vcs_one_wins() {
        // BookSim2's trace (router_3_1 of a 4×4 mesh, cycle 8): input VCs 0 and 8 both
        // request output VC 7 only; output VC 7 grants input 0 (nearest its pointer 0),
        // input 8 fails and retries.
        for kind in [Allocator::Islip, Allocator::SeparableInputFirst] {
            let mut ptrs = vec![0; 20];
            assert_eq!(run(kind, &mut ptrs, &[rq(0, 7), rq(8, 7)]), [rq(0, 7)]);
            // Output 7's pointer is past input 0 now: input 8 wins the next round.
            assert_eq!(run(kind, &mut ptrs, &[rq(0, 7), rq(8, 7)]), [rq(8, 7)]);
        }
    }

    #[test]
    fn islip_grants_the_same_input_from_every_output() {
        // Inputs 2 and 3 both request output VCs 8 and 9 (an ejection port's two VCs): both
        // outputs grant input 2 (pointers 0), which accepts 8; input 3 gets nothing in one
        // iteration. The separable allocator: both inputs pick 8 (their pointers are 0),
        // which grants input 2: the same match.
        let reqs = [rq(2, 8), rq(2, 9), rq(3, 8), rq(3, 9)];
        for kind in [Allocator::Islip, Allocator::SeparableInputFirst] {
            let mut ptrs = vec![0; 20];
            assert_eq!(run(kind, &mut ptrs, &reqs), [rq(2, 8)], "{kind:?}");
            // Input 2's pointer → output 9, output 8's → input 3.
            assert_eq!((ptrs[2], ptrs[10 + 8]), (9, 3), "{kind:?}");
        }
    }

    #[test]
    fn one_input_takes_the_requested_output_nearest_its_pointer() {
        // Input 4 asks for output VCs 1, 3 and 7 (a head's VC range on one port) with its
        // pointer at 2: 3 is nearest (1 is 9 away round the 10 outputs). Input 4's pointer
        // moves past output 3, output 3's past input 4; the others stay.
        for kind in [Allocator::Islip, Allocator::SeparableInputFirst] {
            let mut ptrs = vec![0; 20];
            ptrs[4] = 2;
            let reqs = [rq(4, 1), rq(4, 3), rq(4, 7)];
            assert_eq!(run(kind, &mut ptrs, &reqs), [rq(4, 3)], "{kind:?}");
            let mut want = vec![0; 20];
            (want[4], want[10 + 3]) = (4, 5);
            assert_eq!(ptrs, want, "{kind:?}");
            // Pointer past the last requested output: wraps to the first.
            ptrs[4] = 8;
            assert_eq!(run(kind, &mut ptrs, &reqs), [rq(4, 1)], "{kind:?}");
        }
    }

    #[test]
    fn disjoint_requests_match_as_the_general_allocation_does() {
        // Random routers of 6 ports × 4 VCs: heads on distinct input VCs, each routed to
        // its own output port, asking for a random subset of its VCs; random pointers.
        // The one-pass allocation gives the same matches and pointers as both allocators.
        let a = |kind| VcAllocator {
            kind,
            ins: 24,
            outs: 24,
        };
        let mut x = 12345u64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..2000 {
            let mut ports: Vec<u16> = (0..6).collect();
            let mut inputs: Vec<u16> = (0..24).collect();
            let mut reqs = Vec::new();
            for _ in 0..rnd(6) + 1 {
                let p = ports.remove(rnd(ports.len() as u64) as usize);
                let i = inputs.remove(rnd(inputs.len() as u64) as usize);
                for v in 0..4 {
                    if rnd(3) > 0 {
                        reqs.push(rq(i, p * 4 + v));
                    }
                }
            }
            let ptrs: Vec<u16> = (0..48).map(|_| rnd(24) as u16).collect();
            for kind in [Allocator::Islip, Allocator::SeparableInputFirst] {
                // Inputs in ascending order, as the router lists its heads.
                let mut sorted = reqs.clone();
                sorted.sort_by_key(|q| q.input);
                let (mut p1, mut p2) = (ptrs.clone(), ptrs.clone());
                let (mut o1, mut o2) = (Vec::new(), Vec::new());
                a(kind).allocate(&mut p1, &mut VcScratch::new(24, 24), &sorted, &mut o1);
                a(kind).allocate_disjoint(&mut p2, &mut VcScratch::default(), &sorted, &mut o2);
                assert_eq!((o1, p1), (o2, p2), "{kind:?} {sorted:?}");
            }
        }
    }

    #[test]
    fn disjoint_pick_takes_the_lowest_rank() {
        // Every pointer against every set of free VCs of a port of 8 VCs (outputs 16..24 of
        // 40) and a few ranges: the pick is the free output of lowest rank.
        let a = VcAllocator {
            kind: Allocator::Islip,
            ins: 40,
            outs: 40,
        };
        for p in 0..40u16 {
            let ptrs = [p];
            for set in 0..256u32 {
                let busy: Vec<bool> = (0..8).map(|v| set >> v & 1 == 0).collect();
                for (start, stride) in [(0, 1), (0, 2), (1, 2), (2, 3)] {
                    let want = (start..8)
                        .step_by(stride)
                        .filter(|&v| !busy[v])
                        .map(|v| 16 + v as u16)
                        .min_by_key(|&o| a.disjoint_rank(&ptrs, rq(0, o)));
                    let got = a.disjoint_pick(&ptrs, 0, 16, (&busy, start, stride));
                    assert_eq!(got, want, "{p} {set:08b} {start} {stride}");
                }
            }
        }
    }

    #[test]
    fn separable_and_islip_differ_when_pointers_differ() {
        // Input 3's pointer is at output 9. iSLIP: outputs 8 and 9 both grant input 2 (their
        // pointers at 0), input 2 accepts 8: input 3 is unmatched. Separable input-first:
        // input 2 picks 8, input 3 picks 9; both granted.
        let reqs = [rq(2, 8), rq(2, 9), rq(3, 8), rq(3, 9)];
        let mut ptrs = vec![0; 20];
        ptrs[3] = 9;
        assert_eq!(run(Allocator::Islip, &mut ptrs.clone(), &reqs), [rq(2, 8)]);
        assert_eq!(
            run(Allocator::SeparableInputFirst, &mut ptrs, &reqs),
            [rq(2, 8), rq(3, 9)]
        );
    }
}
