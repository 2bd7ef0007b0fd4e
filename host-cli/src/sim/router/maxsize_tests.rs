//! The maximum-size allocator (`max_size`) on request matrices whose matchings are worked
//! out by hand from BookSim2's search (`allocators/maxsize.cpp`): shortest augmenting paths
//! from the free inputs, listed from the priority input on, each input's outputs in
//! ascending order; the priority input one further after every allocation, with requests
//! or without.

use crate::sim::config::Allocator;
use crate::sim::router::allocator::{rq, Request, Scratch, Shape};
use crate::sim::router::maxsize::{advance, idle};
use crate::sim::router::vc_allocator::{VcAllocator, VcRequest, VcScratch};

/// A `max_size` switch allocator of `n` crossbar inputs and outputs and `vcs` VCs.
fn shape(n: u16, vcs: u8) -> Shape {
    Shape {
        kind: Allocator::MaxSize,
        ins: n,
        outs: n,
        vcs,
        iters: 1,
    }
}

/// One switch allocation; the winners sorted by input.
fn switch(s: &Shape, ptrs: &mut [u16], reqs: &[Request]) -> Vec<Request> {
    let mut scratch = Scratch::new(s.scratch_len());
    let mut out = Vec::new();
    let all = s.allocate(ptrs, &mut scratch, reqs, &mut out);
    assert!(!all, "the maximum-size allocator always writes its winners");
    out.sort_by_key(|w| w.input);
    // The scratch space is back to its state between allocations.
    let fresh = Scratch::new(s.scratch_len());
    assert_eq!(
        (&scratch.grant, &scratch.pick, &scratch.in_match),
        (&fresh.grant, &fresh.pick, &fresh.in_match)
    );
    assert_eq!(
        (&scratch.out_match, &scratch.offset),
        (&fresh.out_match, &fresh.offset)
    );
    out
}

/// `(input, output)` of the winners.
fn pairs(wins: &[Request]) -> Vec<(u16, u16)> {
    wins.iter().map(|w| (w.input, w.output)).collect()
}

#[test]
fn an_augmenting_path_takes_a_match_back() {
    // Inputs 0 → {0, 1}, 1 → {0}; priority input 0. First search: input 0 reaches output
    // 0, free: 0 → 0. Second, from input 1: output 0 is input 0's, so level 1 is input 0,
    // which reaches output 1, free: the path 1 → 0, 0 → 1 flips in. Both matched (a greedy
    // pass from input 0 would match one).
    let s = shape(2, 1);
    let mut ptrs = vec![0; s.pointers()];
    let reqs = [rq(0, 0, 0), rq(0, 0, 1), rq(1, 0, 0)];
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(0, 1), (1, 0)]);
    // The priority input (after the VC pointers) moved to 1.
    assert_eq!(ptrs[2], 1);
}

#[test]
fn the_priority_input_decides_who_is_left_out() {
    // Inputs 0 → {0, 1}, 1 → {0}, 2 → {1}: two outputs for three inputs.
    // Priority 0: input 0 takes output 0, input 2 output 1; input 1's search reaches output
    // 0 (input 0's), then input 0 reaches output 1 (input 2's), then input 2 nothing new.
    // Priority 1: input 1 takes 0, input 2 takes 1; input 0 reaches 0 and 1, whose inputs
    // reach nothing new. Priority 2: input 2 takes 1, input 0 takes 0, input 1 as before.
    let s = shape(3, 1);
    let mut ptrs = vec![0; s.pointers()];
    let reqs = [rq(0, 0, 0), rq(0, 0, 1), rq(1, 0, 0), rq(2, 0, 1)];
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(0, 0), (2, 1)]);
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(1, 0), (2, 1)]);
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(0, 0), (2, 1)]);
    assert_eq!(ptrs[3], 0, "three allocations round three inputs");
}

#[test]
fn a_path_through_two_matches() {
    // Inputs 0 → {0, 1}, 1 → {1, 2}, 2 → {0}; priority 0. Input 0 takes 0, input 1 takes 1;
    // input 2's search: output 0 (input 0's) → level 1 input 0 reaches output 1 (input 1's)
    // → level 2 input 1 reaches output 2, free. Flipped: 2 → 0, 0 → 1, 1 → 2.
    let s = shape(3, 1);
    let mut ptrs = vec![0; s.pointers()];
    let reqs = [
        rq(0, 0, 0),
        rq(0, 0, 1),
        rq(1, 0, 1),
        rq(1, 0, 2),
        rq(2, 0, 0),
    ];
    assert_eq!(
        pairs(&switch(&s, &mut ptrs, &reqs)),
        [(0, 1), (1, 2), (2, 0)]
    );
}

#[test]
fn priorities_do_not_decide_but_the_vc_pointer_picks_the_vc() {
    // Input 0 bids speculatively for output 0, input 1 not: the search from priority 0
    // matches input 0 first, and input 1's search finds no free output.
    let s = shape(3, 2);
    let spec = Request {
        spec: true,
        ..rq(0, 0, 0)
    };
    let mut ptrs = vec![0; s.pointers()];
    assert_eq!(switch(&s, &mut ptrs, &[spec, rq(1, 0, 0)]), [spec]);
    // Input 0's VCs 0 and 1 both want output 2 (one cell); its VC pointer is at 1: VC 1
    // sends, and the pointer moves past it.
    let mut ptrs = vec![0; s.pointers()];
    ptrs[0] = 1;
    assert_eq!(
        switch(&s, &mut ptrs, &[rq(0, 0, 2), rq(0, 1, 2)]),
        [rq(0, 1, 2)]
    );
    assert_eq!((ptrs[0], ptrs[3]), (0, 1));
}

#[test]
fn calls_without_requests_move_the_priority_input() {
    let s = shape(5, 2);
    let mut ptrs = vec![0; s.pointers()];
    for want in [1, 2, 3, 4, 0] {
        idle(&s, &mut ptrs);
        assert_eq!(ptrs[5], want);
    }
    assert_eq!(advance(3, 7, 5), 0);
}

fn vr(input: u16, output: u16) -> VcRequest {
    VcRequest { input, output }
}

#[test]
fn vc_allocation_matches_and_rotates_with_every_call() {
    // 2 ports × 2 VCs: input VC 0 asks for output VCs 2 and 3, 1 for 3, 3 for 2 and 3.
    let a = VcAllocator {
        kind: Allocator::MaxSize,
        ins: 4,
        outs: 4,
    };
    let mut ptrs = vec![0; a.pointers()];
    let mut scratch = VcScratch::new(4, 4);
    let mut out = Vec::new();
    let reqs = [vr(0, 2), vr(0, 3), vr(1, 3), vr(3, 2), vr(3, 3)];
    // Priority 0: 0 takes 2, 1 takes 3; input 3 reaches 2 and 3, whose inputs 0 and 1
    // reach nothing new.
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    assert_eq!(out, [vr(0, 2), vr(1, 3)]);
    assert_eq!(ptrs[0], 1);
    // Priority 1: 1 takes 3, 3 takes 2; input 0 is left out.
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    assert_eq!(out, [vr(1, 3), vr(3, 2)]);
    // A call without requests (heads without a free VC) moves it too.
    a.allocate(&mut ptrs, &mut scratch, &[], &mut out);
    assert!(out.is_empty());
    assert_eq!(ptrs[0], 3);
    // Priority 3: 3 takes 2, 0 takes 3; 1 (whose only output is 0's) is left out.
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    assert_eq!(out, [vr(0, 3), vr(3, 2)]);
    assert_eq!(ptrs[0], 0);
}
