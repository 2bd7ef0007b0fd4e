//! The wavefront allocator (`wavefront`) on request matrices whose matchings are worked out
//! by hand from BookSim2's sweep (`allocators/wavefront.cpp`): diagonals
//! `(input + output) mod S` from the priority diagonal on, a cell granted when its input
//! and output are free, the priority diagonal one further after every allocation with
//! requests.

use crate::sim::config::Allocator;
use crate::sim::router::allocator::{rq, Request, Scratch, Shape};
use crate::sim::router::vc_allocator::{VcAllocator, VcRequest, VcScratch};
use crate::sim::router::wavefront::{sweep, sweep_position};

fn spec(input: u16, vc: u8, output: u16) -> Request {
    Request {
        spec: true,
        ..rq(input, vc, output)
    }
}

/// A wavefront switch allocator of `ins` crossbar inputs, `outs` outputs, `vcs` VCs.
fn shape(ins: u16, outs: u16, vcs: u8) -> Shape {
    Shape {
        kind: Allocator::Wavefront,
        ins,
        outs,
        vcs,
        iters: 3,
    }
}

/// One switch allocation; the winners sorted by input.
fn switch(s: &Shape, ptrs: &mut [u16], reqs: &[Request]) -> Vec<Request> {
    let mut scratch = Scratch::new(s.scratch_len());
    let mut out = Vec::new();
    let all = s.allocate(ptrs, &mut scratch, reqs, &mut out);
    assert!(!all, "the wavefront allocator always writes its winners");
    out.sort_by_key(|w| w.input);
    out
}

/// Inputs 0, 1, 2 of a 3 × 3 switch requesting outputs {0, 1}, {0, 2}, {1, 2}: diagonals 0
/// and 1 each match every input, diagonal 2 is not requested.
fn full_diagonals() -> [Request; 6] {
    [
        rq(0, 0, 0),
        rq(0, 0, 1),
        rq(1, 0, 0),
        rq(1, 0, 2),
        rq(2, 0, 1),
        rq(2, 0, 2),
    ]
}

fn vr(input: u16, output: u16) -> VcRequest {
    VcRequest { input, output }
}

/// 2 ports × 2 VCs: input VC 0 asks for output VCs 2 and 3, input VC 1 for 3, input VC 3
/// for 2 and 3.
fn vc_requests() -> [VcRequest; 5] {
    [vr(0, 2), vr(0, 3), vr(1, 3), vr(3, 2), vr(3, 3)]
}

/// `(input, output)` of the winners.
fn pairs(wins: &[Request]) -> Vec<(u16, u16)> {
    wins.iter().map(|w| (w.input, w.output)).collect()
}

#[test]
fn sweep_positions_count_diagonals_from_the_priority_diagonal() {
    // S = 3, priority diagonal 1: diagonal 1 first, then 2, then 0.
    assert_eq!(sweep_position(0, 1, 1, 3), 0);
    assert_eq!(sweep_position(2, 2, 1, 3), 0); // (2 + 2) mod 3 = 1
    assert_eq!(sweep_position(1, 1, 1, 3), 1);
    assert_eq!(sweep_position(0, 0, 1, 3), 2);
    assert_eq!(sweep_position(2, 1, 1, 3), 2); // (2 + 1) mod 3 = 0
}

#[test]
fn a_full_diagonal_is_taken_whole_and_the_priority_rotates() {
    // Inputs 0, 1, 2 request outputs {0, 1}, {0, 2}, {1, 2}. Diagonal 0 holds (0,0),
    // (1,2), (2,1); diagonal 1 holds (0,1), (1,0), (2,2); diagonal 2 ((0,2), (1,1), (2,0))
    // is not requested. Priority 0 → diagonal 0 matches everyone; priority 1 → diagonal 1;
    // priority 2 → diagonal 2 grants nothing, then diagonal 0 everything.
    let s = shape(3, 3, 1);
    let reqs = full_diagonals();
    // Pointers: per input its VC pointer, then the priority diagonal.
    let mut ptrs = vec![0; s.pointers()];
    let diag0 = vec![(0, 0), (1, 2), (2, 1)];
    let diag1 = vec![(0, 1), (1, 0), (2, 2)];
    for (want, diag_after) in [(&diag0, 1), (&diag1, 2), (&diag0, 0), (&diag0, 1)] {
        assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), *want);
        assert_eq!(ptrs[3], diag_after);
    }
}

#[test]
fn the_sweep_is_greedy_not_maximum() {
    // Requests (0,1), (0,2), (1,1), (2,0) of a 3 × 3 allocator. Priority 0: diagonal 0
    // ((0,0), (1,2), (2,1)) is empty; diagonal 1 grants (0,1), not (1,0) and (2,2), which
    // nobody asked for; diagonal 2 has (0,2) (input 0 taken), (1,1) (output 1 taken) and
    // (2,0): granted. Input 1 stays unmatched though (0,2), (1,1), (2,0) would match all
    // three — which priority 2 finds, diagonal 2 coming first there.
    let s = shape(3, 3, 1);
    let reqs = [rq(0, 0, 1), rq(0, 0, 2), rq(1, 0, 1), rq(2, 0, 0)];
    let mut ptrs = vec![0; 4];
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(0, 1), (2, 0)]);
    // Priority 1: diagonal 1 grants (0,1) again, diagonal 2 (2,0) again.
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(0, 1), (2, 0)]);
    assert_eq!(ptrs[3], 2);
    assert_eq!(
        pairs(&switch(&s, &mut ptrs, &reqs)),
        [(0, 2), (1, 1), (2, 0)]
    );
    assert_eq!(ptrs[3], 0);
}

#[test]
fn the_matrix_is_square_over_the_larger_side() {
    // 2 inputs, 3 outputs: S = 3. Priority 0: diagonal 0 is (0,0) and (1,2); both asked
    // for; (1,0) on diagonal 1 finds input 1 taken.
    let s = shape(2, 3, 1);
    let reqs = [rq(0, 0, 0), rq(1, 0, 0), rq(1, 0, 2)];
    let mut ptrs = vec![0; s.pointers()];
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(0, 0), (1, 2)]);
    // Priority 1: diagonal 1 is (1,0) and (0,1): input 1 gets output 0, input 0 nothing
    // (its only output is taken); diagonal 2 ((0,2), (1,1)) adds nothing.
    assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), [(1, 0)]);
    // Priority 2, then 0 (mod 3, not mod 2).
    assert_eq!(ptrs[2], 2);
    switch(&s, &mut ptrs, &reqs);
    assert_eq!(ptrs[2], 0);
}

#[test]
fn no_request_leaves_the_priority_diagonal() {
    let s = shape(3, 3, 2);
    let mut ptrs = vec![0, 0, 0, 2];
    assert!(switch(&s, &mut ptrs, &[]).is_empty());
    assert_eq!(ptrs, [0, 0, 0, 2]);
}

#[test]
fn non_speculative_cells_are_swept_before_speculative_ones() {
    // Output 0: input 0 bids speculatively on diagonal 0 (first at priority 0), input 1
    // non-speculatively on diagonal 1. BookSim2's `spec_sw_allocator = prio` sweeps the
    // non-speculative requests first: input 1 wins. Input 2's speculative bid on output 1
    // (diagonal 0) has no competitor and is granted in the second sweep.
    let s = shape(3, 3, 1);
    let reqs = [spec(0, 0, 0), rq(1, 0, 0), spec(2, 0, 1)];
    let mut ptrs = vec![0; 4];
    assert_eq!(switch(&s, &mut ptrs, &reqs), [rq(1, 0, 0), spec(2, 0, 1)]);
    // All equal (no speculation): input 0 first.
    let plain = [rq(0, 0, 0), rq(1, 0, 0)];
    let mut ptrs = vec![0; 4];
    assert_eq!(switch(&s, &mut ptrs, &plain), [rq(0, 0, 0)]);
}

#[test]
fn a_cell_sends_its_best_vc_and_the_vc_pointer_moves_past_it() {
    // Input 0's VCs 0, 1 and 2 all want output 2 (one cell, granted). VC pointer 1: VC 1
    // is sent, and the pointer moves to 2; then VC 2, pointer 0; then VC 0.
    let s = shape(3, 3, 3);
    let reqs = [rq(0, 0, 2), rq(0, 1, 2), rq(0, 2, 2)];
    let mut ptrs = vec![1, 0, 0, 0];
    for (vc, ptr) in [(1, 2), (2, 0), (0, 1)] {
        assert_eq!(switch(&s, &mut ptrs, &reqs), [rq(0, vc, 2)]);
        assert_eq!(ptrs[0], ptr);
    }
    // A non-speculative VC before a speculative one nearer the pointer; the cell is then
    // non-speculative and wins output 2 against input 1 (diagonal 0, first at priority 0,
    // but speculative).
    let reqs = [spec(0, 0, 2), rq(0, 2, 2), spec(1, 0, 2)];
    let mut ptrs = vec![0; 4];
    ptrs[3] = 2; // diagonal 2 (0,2) first, then diagonal 0 (1,2)
    assert_eq!(switch(&s, &mut ptrs, &reqs), [rq(0, 2, 2)]);
    let mut ptrs = vec![0; 4];
    assert_eq!(switch(&s, &mut ptrs, &reqs), [rq(0, 2, 2)]);
}

#[test]
fn the_vc_allocator_sweeps_input_and_output_vcs() {
    // 2 ports × 2 VCs: 4 input VCs, 4 output VCs, S = 4. Input VC 0 asks for output VCs
    // 2 and 3, input VC 1 for 3, input VC 3 for 2 and 3. Priority 0: diagonal 0 holds
    // (1,3) and (2,2), (3,1), (0,0): (1,3) granted; diagonal 1: (3,2) granted ((0,1),
    // (1,0), (2,3) not asked); diagonal 2: (0,2) output taken; diagonal 3: (0,3) output
    // taken. Input VC 0 loses.
    let a = VcAllocator {
        kind: Allocator::Wavefront,
        ins: 4,
        outs: 4,
    };
    let reqs = vc_requests();
    // Its priority diagonal is the first pointer.
    let mut ptrs = vec![0; a.pointers()];
    let mut scratch = VcScratch::new(4, 4);
    let mut out = Vec::new();
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    assert_eq!(out, [vr(1, 3), vr(3, 2)]);
    assert_eq!(ptrs[0], 1);
    // Priority 1: diagonal 1 grants (3,2); diagonal 2 (0,2) output taken; diagonal 3
    // (0,3) granted; input VC 1's output 3 is taken.
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    assert_eq!(out, [vr(0, 3), vr(3, 2)]);
    // Priority 2: diagonal 2 grants (0,2) and (3,3); diagonal 3: (0,3) input taken;
    // diagonal 0: (1,3) output taken. Input VC 1 loses.
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    assert_eq!(out, [vr(0, 2), vr(3, 3)]);
    // The one-pass entry of disjoint requests runs the same sweep.
    assert_eq!(ptrs[0], 3);
    let mut p2 = ptrs.clone();
    a.allocate_disjoint(&mut p2, &mut scratch, &[vr(0, 2), vr(0, 3)], &mut out);
    // Priority 3: (0,3) is on diagonal 3, first.
    assert_eq!((out.as_slice(), p2[0]), (&[vr(0, 3)][..], 0));
    // No requests: the diagonal stays.
    a.allocate(&mut ptrs, &mut scratch, &[], &mut out);
    assert_eq!((out.len(), ptrs[0]), (0, 3));
}

#[test]
fn sweep_fills_the_matches() {
    // The bare sweep on cells given by a closure: 2 × 2, priority 1: diagonal 1 ((0,1),
    // (1,0)) then diagonal 0 ((0,0), (1,1)).
    let cells = [(0u16, 0u16, 0u32), (1, 1, 0), (1, 0, 0)];
    let none = crate::sim::router::allocator::NONE;
    let (mut ins, mut outs) = (vec![none; 2], vec![none; 2]);
    let mut wide = Vec::new();
    sweep(
        2,
        1,
        cells.len(),
        |k| cells[k],
        &mut wide,
        &mut ins,
        &mut outs,
    );
    // (1,0) first; then (0,0) output taken, (1,1) input taken.
    assert_eq!((ins, outs), (vec![none, 0], vec![1, none]));
}

#[test]
fn rr_wavefront_moves_the_priority_past_the_diagonal_of_its_first_grant() {
    // The matrix of the test above with BookSim2's `rr_wavefront` (`skip_diags`): from
    // priority 2 the empty diagonal 2 is skipped, diagonal 0 grants first, so the priority
    // becomes 1, not 0 as the plain wavefront's; from 1 diagonal 1 grants and it becomes 2.
    let s = Shape {
        kind: Allocator::RrWavefront,
        ..shape(3, 3, 1)
    };
    let reqs = full_diagonals();
    let mut ptrs = vec![0; s.pointers()];
    ptrs[3] = 2;
    let diag0 = vec![(0, 0), (1, 2), (2, 1)];
    let diag1 = vec![(0, 1), (1, 0), (2, 2)];
    for (want, diag_after) in [(&diag0, 1), (&diag1, 2), (&diag0, 1)] {
        assert_eq!(pairs(&switch(&s, &mut ptrs, &reqs)), *want);
        assert_eq!(ptrs[3], diag_after);
    }
    // A single request (BookSim2 grants it without a sweep): the priority follows its
    // diagonal, (2 + 2) mod 3 = 1, plus one.
    ptrs[3] = 0;
    assert_eq!(pairs(&switch(&s, &mut ptrs, &[rq(2, 0, 2)])), [(2, 2)]);
    assert_eq!(ptrs[3], 2);
    // As a VC allocator, the requests of the VC test above: from priority 0 diagonal 0
    // grants (1,3) first, so the priority becomes 1 (as the plain one's); from 1 diagonal 1
    // grants (3,2) and it becomes 2; from 3 the first grant is (0,3) on diagonal 3 → 0. With
    // only diagonal-2 requests from priority 0, the priority jumps to 3.
    let a = VcAllocator {
        kind: Allocator::RrWavefront,
        ins: 4,
        outs: 4,
    };
    let reqs = vc_requests();
    let mut ptrs = vec![0; a.pointers()];
    let mut scratch = VcScratch::new(4, 4);
    let mut out = Vec::new();
    for (from, after) in [(0, 1), (1, 2), (3, 0)] {
        ptrs[0] = from;
        a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
        assert_eq!(ptrs[0], after, "from {from}");
    }
    ptrs[0] = 0;
    a.allocate(&mut ptrs, &mut scratch, &[vr(0, 2), vr(3, 3)], &mut out);
    assert_eq!((out.as_slice(), ptrs[0]), (&[vr(0, 2), vr(3, 3)][..], 3));
}
