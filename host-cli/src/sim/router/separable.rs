//! The separable input-first switch allocators (one iteration; docs/booksim.md §4), on a
//! router's request list when some crossbar input or output is requested more than once
//! (`Shape::allocate` grants conflict-free request sets without them).
//!
//! * [`input_first`], BookSim2's `separable_input_first` (`allocators/separable.cpp`,
//!   `separable_input_first.cpp`, with the request filter of `iq_router.cpp`
//!   `_SWAllocAddReq`): of an input's VCs that request the same output only the one nearest
//!   the input's VC pointer bids (the router's `_sw_rr_offset`); each input's arbiter then
//!   picks, among its requested outputs, the one nearest its output pointer; each output's
//!   arbiter grants the picking input nearest its input pointer. A match moves the output's
//!   pointer past the input, the input's output pointer past the output and its VC pointer
//!   past the VC — the pointers iSLIP keeps.
//! * [`vc_first`], jumpnet's `separable_vc` (the [GA] preset's router, docs/mapping.md §5):
//!   the input's arbiter picks among its VCs, the one nearest its VC pointer, whatever
//!   output it requests (the v:1 input arbiters of the textbook separable switch
//!   allocator); the output stage is the same. A match moves the output's pointer past the
//!   input and the input's VC pointer past the VC.
//!
//! In both, a speculative request (a head still in VC allocation) loses every choice to a
//! non-speculative one, as BookSim2's lower priority of speculative requests makes it. With
//! BookSim2's packet priorities (`super::priority`, docs/booksim.md §3.5) `input_first`'s
//! arbiters rank its requests by them first, as BookSim2's round-robin arbiters do
//! (`RoundRobinArbiter::Supersedes`: the highest priority, then the nearest the pointer),
//! a crossbar cell having the priority of its best VC.

use crate::sim::router::allocator::{
    by_level, dist, level_of, rank, succ, Request, Scratch, Shape, NONE, SPEC_BIT,
};

/// BookSim2's `separable_input_first` on `reqs` (module doc); the winners are written to
/// `out`, which is empty on entry.
pub(super) fn input_first(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let (ni, no, v) = (shape.ins, shape.outs, u16::from(shape.vcs));
    let (in_ptr, out_ptr, vc_ptr) = shape.split_pointers(ptrs);
    let Scratch {
        grant, pick, prio, ..
    } = scratch;
    let level = |q: &Request| level_of(q, prio, v);
    // Input stage: each input's request of the highest priority (non-speculative first,
    // then the packet priority, `level_of`), then the output nearest the output pointer,
    // then (among that output's VCs) the VC nearest the VC pointer — BookSim2's input arbiter
    // over the crossbar cells, each cell the best of its VCs. `pick` holds the index of the
    // request in `reqs`.
    let key = |r: &Request, i: usize| {
        let out = u32::from(dist(r.output, in_ptr[i], no)) << 16;
        by_level(
            level(r),
            out | u32::from(dist(u16::from(r.vc), vc_ptr[i], v)),
        )
    };
    for (k, q) in reqs.iter().enumerate() {
        let i = usize::from(q.input);
        let cur = pick[i];
        if cur == NONE || key(q, i) < key(&reqs[usize::from(cur)], i) {
            pick[i] = k as u16;
        }
    }
    // Output stage: each output grants the picking input of the highest priority, then the
    // one nearest its pointer.
    for (k, q) in reqs.iter().enumerate() {
        if pick[usize::from(q.input)] != k as u16 {
            continue;
        }
        let o = usize::from(q.output);
        let cur = grant[o];
        let beats = |c: u16| {
            let w = &reqs[usize::from(pick[usize::from(c)])];
            by_level(level(q), u32::from(dist(q.input, out_ptr[o], ni)))
                < by_level(level(w), u32::from(dist(c, out_ptr[o], ni)))
        };
        if cur == NONE || beats(cur) {
            grant[o] = q.input;
        }
    }
    for (k, q) in reqs.iter().enumerate() {
        let (i, o) = (usize::from(q.input), usize::from(q.output));
        if grant[o] == q.input && pick[i] == k as u16 {
            out.push(*q);
            out_ptr[o] = succ(q.input, ni);
            in_ptr[i] = succ(q.output, no);
            vc_ptr[i] = succ(u16::from(q.vc), v);
        }
    }
}

/// jumpnet's `separable_vc` on `reqs` (module doc); the winners are written to `out`, which
/// is empty on entry.
pub(super) fn vc_first(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let (ni, no, v) = (shape.ins, shape.outs, u16::from(shape.vcs));
    let (in_ptr, rest) = ptrs.split_at_mut(usize::from(ni));
    let out_ptr = &mut rest[..usize::from(no)];
    let Scratch { grant, pick, .. } = scratch;
    // Input stage: each input picks its VC closest to its VC pointer.
    let picked = |q: &Request| u16::from(q.vc) | if q.spec { SPEC_BIT } else { 0 };
    for q in reqs {
        let i = usize::from(q.input);
        let cur = pick[i];
        if cur == NONE
            || rank(u16::from(q.vc), q.spec, in_ptr[i], v)
                < rank(cur & !SPEC_BIT, cur & SPEC_BIT != 0, in_ptr[i], v)
        {
            pick[i] = picked(q);
        }
    }
    // Output stage: each output grants the input closest to its pointer.
    for q in reqs {
        if pick[usize::from(q.input)] != picked(q) {
            continue;
        }
        let o = usize::from(q.output);
        let cur = grant[o];
        if cur == NONE
            || rank(q.input, q.spec, out_ptr[o], ni)
                < rank(cur, pick[usize::from(cur)] & SPEC_BIT != 0, out_ptr[o], ni)
        {
            grant[o] = q.input;
        }
    }
    for q in reqs {
        let o = usize::from(q.output);
        if grant[o] == q.input && pick[usize::from(q.input)] == picked(q) {
            out.push(*q);
            out_ptr[o] = succ(q.input, ni);
            in_ptr[usize::from(q.input)] = succ(u16::from(q.vc), v);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::config::Allocator;
    use crate::sim::router::allocator::{rq, Arbiters, Request};

    /// Input 0's VC 0 requests output 3 and its VC 1 output 1; input 1's VC 0 output 1.
    const REQS: [Request; 3] = [
        Request {
            input: 0,
            vc: 0,
            output: 3,
            spec: false,
        },
        Request {
            input: 0,
            vc: 1,
            output: 1,
            spec: false,
        },
        Request {
            input: 1,
            vc: 0,
            output: 1,
            spec: false,
        },
    ];

    #[test]
    fn booksim2s_input_arbiter_picks_an_output_round_robin() {
        let mut a = Arbiters::new(Allocator::SeparableInputFirst, 1, 4, 2);
        let mut out = Vec::new();
        // Pointers at 0: input 0 picks output 1 (nearer 0 than 3), as input 1 does; output
        // 1 grants input 0. Input 1 and output 3 stay unmatched.
        a.allocate(0, &REQS, &mut out);
        assert_eq!(out, [rq(0, 1, 1)]);
        // Input 0's output pointer moved to 2: output 3 is nearer now, and output 1 (its
        // pointer at input 1) grants input 1.
        a.allocate(0, &REQS, &mut out);
        assert_eq!(out, [rq(0, 0, 3), rq(1, 0, 1)]);
    }

    #[test]
    fn jumpnets_separable_vc_input_arbiter_picks_a_vc_round_robin() {
        let mut a = Arbiters::new(Allocator::SeparableVc, 1, 4, 2);
        let mut out = Vec::new();
        // Input 0 picks VC 0 (its VC pointer at 0), whatever output that VC requests.
        a.allocate(0, &REQS, &mut out);
        assert_eq!(out, [rq(0, 0, 3), rq(1, 0, 1)]);
        // Its VC pointer moved to 1: VC 1 (output 1), which output 1 grants (its pointer
        // moved past input 1 to input 2, so input 0 is nearer).
        a.allocate(0, &REQS, &mut out);
        assert_eq!(out, [rq(0, 1, 1)]);
    }

    #[test]
    fn of_vcs_requesting_one_output_the_one_nearest_the_vc_pointer_bids() {
        let mut a = Arbiters::new(Allocator::SeparableInputFirst, 1, 4, 2);
        let mut out = Vec::new();
        let both = [rq(0, 0, 2), rq(0, 1, 2)];
        // VC pointer at 0: VC 0 crosses, and the pointer moves past it to VC 1.
        a.allocate(0, &both, &mut out);
        assert_eq!(out, [rq(0, 0, 2)]);
        a.allocate(0, &both, &mut out);
        assert_eq!(out, [rq(0, 1, 2)]);
    }
}
