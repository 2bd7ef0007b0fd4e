//! BookSim2's `select` allocator (`sw_allocator = select`, `vc_allocator = select`,
//! `allocators/selalloc.cpp`; docs/booksim.md §4): iSLIP whose arbiters look at request
//! priorities. Each iteration, every unmatched output grants, among the unmatched inputs
//! requesting it, the one of highest priority, on a tie the nearest its round-robin pointer;
//! every granted input accepts the granting output of highest priority, on a tie the
//! nearest its own pointer; the pointers move past a match of the first iteration only.
//!
//! A request's priority is its VC's: BookSim2's packet priority of the flit at the VC's front
//! (`priority = …`, `super::priority`, docs/booksim.md §3.5; 0 with `priority = none`),
//! speculative switch requests (BookSim2's `spec_sw_allocator = prio`: a head still in VC
//! allocation bids at the lower priority; `input_queued::speculation`) below every other.
//! An input's cell (input, output) has the priority of its best VC, as BookSim2 keeps the
//! best VC's request per cell. With every priority equal `select` makes iSLIP's matches
//! exactly; the VC allocator runs iSLIP's pass for it then (`vc_allocator::VcAllocator::allocate`),
//! and BookSim2's `separable_output_first` (output arbiters over the requests, input
//! arbiters over the grants, both round robin by priority, pointers moved past a match) is
//! this allocator with one iteration. BookSim2's routers run one iteration (§2);
//! with more (the simulator's `alloc_iters`) jumpnet lets an input matched in an earlier
//! iteration keep its match, where BookSim2's code can re-accept a stale grant.

use crate::sim::router::allocator::{
    by_level, dist, level_of, matched_vcs, succ, Request, Scratch, Shape, NONE,
};

/// Switch allocation by `select` (`shape.iters` iterations) of the router whose pointers
/// are `ptrs` (per crossbar input the accept pointer, per crossbar output the grant
/// pointer, per crossbar input the VC pointer: `Shape::pointers`); the winners, one VC per
/// matched input, are written to `out`.
pub(crate) fn allocate_switch(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let (ni, no, v) = (shape.ins, shape.outs, u16::from(shape.vcs));
    let (in_ptr, out_ptr, vc_ptr) = shape.split_pointers(ptrs);
    let Scratch {
        grant,
        pick,
        in_match,
        out_match,
        keys,
        prio,
        ..
    } = scratch;
    // The keys of the current grant (per output) and accept (per input): the request's
    // priority level, then its round-robin distance (`by_level`); lower wins.
    keys.clear();
    keys.resize(usize::from(no) + usize::from(ni), u64::MAX);
    let (grant_key, pick_key) = keys.split_at_mut(usize::from(no));
    for iter in 0..shape.iters.max(1) {
        for q in reqs {
            let (i, o) = (usize::from(q.input), usize::from(q.output));
            if out_match[o] != NONE || in_match[i] != NONE {
                continue;
            }
            let r = by_level(
                level_of(q, prio, v),
                u32::from(dist(q.input, out_ptr[o], ni)),
            );
            if grant[o] == NONE || r < grant_key[o] {
                (grant[o], grant_key[o]) = (q.input, r);
            }
        }
        for q in reqs {
            let i = usize::from(q.input);
            if grant[usize::from(q.output)] != q.input {
                continue;
            }
            let r = by_level(
                level_of(q, prio, v),
                u32::from(dist(q.output, in_ptr[i], no)),
            );
            if pick[i] == NONE || r < pick_key[i] {
                (pick[i], pick_key[i]) = (q.output, r);
            }
        }
        let mut matched = false;
        for q in reqs {
            let (i, o) = (usize::from(q.input), usize::from(q.output));
            if pick[i] == q.output && in_match[i] == NONE {
                in_match[i] = q.output;
                out_match[o] = q.input;
                matched = true;
                if iter == 0 {
                    out_ptr[o] = succ(q.input, ni);
                    in_ptr[i] = succ(q.output, no);
                }
            }
        }
        for q in reqs {
            let (i, o) = (usize::from(q.input), usize::from(q.output));
            (grant[o], grant_key[o]) = (NONE, u64::MAX);
            (pick[i], pick_key[i]) = (NONE, u64::MAX);
        }
        if !matched {
            break;
        }
    }
    let matched = |q: &Request| in_match[usize::from(q.input)] == q.output;
    matched_vcs(reqs, matched, prio, vc_ptr, v, out);
    for q in reqs {
        in_match[usize::from(q.input)] = NONE;
        out_match[usize::from(q.output)] = NONE;
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::config::Allocator;
    use crate::sim::router::allocator::{rq, Request, Scratch, Shape};

    fn shape(kind: Allocator, iters: u8) -> Shape {
        Shape {
            kind,
            ins: 4,
            outs: 4,
            vcs: 2,
            iters,
        }
    }

    fn spec(input: u16, vc: u8, output: u16) -> Request {
        Request {
            spec: true,
            ..rq(input, vc, output)
        }
    }

    #[test]
    fn without_priorities_select_is_islip() {
        // A run of conflicting request sets: `select` grants what iSLIP grants, pointers
        // included, with one iteration and with two.
        let sets: [&[Request]; 4] = [
            &[rq(0, 0, 1), rq(0, 1, 2), rq(1, 0, 1), rq(2, 0, 2)],
            &[rq(0, 0, 3), rq(1, 0, 3), rq(2, 1, 3), rq(3, 0, 0)],
            &[
                rq(1, 0, 0),
                rq(1, 1, 2),
                rq(2, 0, 0),
                rq(3, 0, 2),
                rq(3, 1, 1),
            ],
            &[rq(0, 0, 1), rq(1, 0, 0), rq(2, 0, 1), rq(3, 1, 0)],
        ];
        for iters in [1, 2] {
            let (sel, isl) = (
                shape(Allocator::Select, iters),
                shape(Allocator::Islip, iters),
            );
            let (mut p1, mut p2) = (vec![0; sel.pointers()], vec![0; isl.pointers()]);
            let (mut s1, mut s2) = (Scratch::new(4), Scratch::new(4));
            let (mut o1, mut o2) = (Vec::new(), Vec::new());
            for _ in 0..3 {
                for reqs in sets {
                    sel.allocate(&mut p1, &mut s1, reqs, &mut o1);
                    isl.allocate(&mut p2, &mut s2, reqs, &mut o2);
                    assert_eq!((&o1, &p1), (&o2, &p2), "{iters} {reqs:?}");
                }
            }
        }
    }

    #[test]
    fn non_speculative_requests_win_grant_and_accept() {
        // Output 2: input 0 (nearest the pointer) bids speculatively, input 1 not: input 1
        // is granted. iSLIP ignores the priority and grants input 0.
        let reqs = [spec(0, 0, 2), rq(1, 0, 2), rq(3, 0, 0), rq(3, 1, 0)];
        let mut out = Vec::new();
        let s = shape(Allocator::Select, 1);
        let mut ptrs = vec![0; s.pointers()];
        s.allocate(&mut ptrs, &mut Scratch::new(4), &reqs, &mut out);
        assert_eq!(out, [rq(1, 0, 2), rq(3, 0, 0)]);
        // Input 0 is granted by outputs 1 (speculative) and 3 (not): it accepts 3 though 1
        // is nearer its pointer.
        let reqs = [spec(0, 0, 1), rq(0, 1, 3), rq(2, 0, 2), rq(2, 1, 2)];
        let mut ptrs = vec![0; s.pointers()];
        s.allocate(&mut ptrs, &mut Scratch::new(4), &reqs, &mut out);
        assert_eq!(out, [rq(0, 1, 3), rq(2, 0, 2)]);
        // A cell with one non-speculative VC is non-speculative: input 0's VC 1 bids
        // normally for output 2, so input 0 (nearest) wins it against input 1.
        let reqs = [spec(0, 0, 2), rq(0, 1, 2), rq(1, 0, 2)];
        let mut ptrs = vec![0; s.pointers()];
        s.allocate(&mut ptrs, &mut Scratch::new(4), &reqs, &mut out);
        assert_eq!(out, [rq(0, 1, 2)]);
    }
}
