//! BookSim2's packet priorities in the allocators (`priority`, docs/booksim.md §3.5, §4), on
//! request sets whose outcome is worked out by hand: the same requests with and without
//! priorities, where the priorities change the match.

use crate::sim::config::Allocator;
use crate::sim::router::allocator::{rq, Request, Scratch, Shape};
use crate::sim::router::vc_allocator::{VcAllocator, VcRequest, VcScratch};

/// A router of 4 ports with 2 VCs each.
fn shape(kind: Allocator) -> Shape {
    Shape {
        kind,
        ins: 4,
        outs: 4,
        vcs: 2,
        iters: 1,
    }
}

/// The winners of one switch allocation of `reqs` with the VC priorities `prio` (per input
/// and VC, `input · 2 + vc`; empty: none), every pointer at 0.
fn switch(kind: Allocator, reqs: &[Request], prio: &[u32]) -> Vec<Request> {
    let s = shape(kind);
    let mut ptrs = vec![0; s.pointers()];
    let mut scratch = Scratch::new(4);
    scratch.prio = prio.to_vec();
    let mut out = Vec::new();
    if s.allocate(&mut ptrs, &mut scratch, reqs, &mut out) {
        out = reqs.to_vec();
    }
    out
}

/// Input 0's VC 0 wants output 1 and its VC 1 output 2; input 1's VC 0 wants output 2.
const REQS: [Request; 3] = [rq(0, 0, 1), rq(0, 1, 2), rq(1, 0, 2)];

/// Priorities `[in 0 VC 0, in 0 VC 1, in 1 VC 0]` as the scratch holds them.
fn prio(a: u32, b: u32, c: u32) -> Vec<u32> {
    vec![a, b, c, 0, 0, 0, 0, 0]
}

#[test]
fn separable_input_first_ranks_cells_then_pickers_by_priority() {
    let kind = Allocator::SeparableInputFirst;
    // Without priorities: input 0's arbiter takes output 1 (nearer its pointer 0 than 2),
    // input 1's output 2; both granted.
    assert_eq!(switch(kind, &REQS, &[]), [rq(0, 0, 1), rq(1, 0, 2)]);
    // Input 0's VC 1 (output 2) has the higher priority: its arbiter takes output 2, whose
    // arbiter has two pickers and grants input 0 (equal priority 5 > 1, nearer the pointer
    // in any case). Output 1 stays idle.
    assert_eq!(switch(kind, &REQS, &prio(1, 5, 1)), [rq(0, 1, 2)]);
    // Input 1's packet is older still: output 2 grants input 1, input 0 gets nothing.
    assert_eq!(switch(kind, &REQS, &prio(1, 5, 7)), [rq(1, 0, 2)]);
    // Age priorities near INT_MAX rank alike.
    let old = i32::MAX as u32;
    assert_eq!(
        switch(kind, &REQS, &prio(old - 9, old - 3, old - 2)),
        [rq(1, 0, 2)]
    );
}

#[test]
fn select_grants_and_accepts_by_priority() {
    let kind = Allocator::Select;
    // Without priorities `select` is iSLIP: output 1 grants input 0, output 2 grants input 0
    // too (pointer 0); input 0 accepts output 1 (nearer its pointer). Input 1 loses.
    assert_eq!(switch(kind, &REQS, &[]), [rq(0, 0, 1)]);
    // Output 2 grants its request of the highest priority, input 1's (7); input 0 accepts
    // output 1, the one that granted it.
    assert_eq!(
        switch(kind, &REQS, &prio(1, 5, 7)),
        [rq(0, 0, 1), rq(1, 0, 2)]
    );
    // Input 0 is granted by both outputs and accepts the cell of the higher priority,
    // output 2, though output 1 is nearer its pointer.
    assert_eq!(switch(kind, &REQS, &prio(1, 5, 2)), [rq(0, 1, 2)]);
    // iSLIP ignores them: the same match as without.
    assert_eq!(
        switch(Allocator::Islip, &REQS, &prio(1, 5, 7)),
        [rq(0, 0, 1)]
    );
}

#[test]
fn wavefront_sweeps_each_priority_before_the_next() {
    let kind = Allocator::Wavefront;
    // Cells (0,1) on diagonal 1, (0,2) and (1,2)... of a 4 × 4 matrix swept from diagonal 0:
    // (0,1) first (input 0 and output 1 taken), then (1,2) on diagonal 3; (0,2) on diagonal 2
    // finds input 0 taken.
    assert_eq!(switch(kind, &REQS, &[]), [rq(0, 0, 1), rq(1, 0, 2)]);
    // Cell (0,2) of priority 5 gets a sweep of its own first: granted; then (0,1) and (1,2)
    // find input 0 and output 2 taken.
    assert_eq!(switch(kind, &REQS, &prio(1, 5, 1)), [rq(0, 1, 2)]);
    // Two priorities above the rest: (1,2) at 7 first, then (0,2) at 5 (output 2 taken), then
    // (0,1) at 1.
    assert_eq!(
        switch(kind, &REQS, &prio(1, 5, 7)),
        [rq(0, 0, 1), rq(1, 0, 2)]
    );
}

#[test]
fn a_speculative_request_stays_below_every_priority_of_the_others() {
    // Input 1 bids speculatively with the highest packet priority: BookSim2 adds INT_MIN,
    // so input 0's non-speculative request of priority 0 still wins output 2.
    let reqs = [
        rq(0, 1, 2),
        Request {
            spec: true,
            ..rq(1, 0, 2)
        },
    ];
    for kind in [
        Allocator::SeparableInputFirst,
        Allocator::Select,
        Allocator::Wavefront,
    ] {
        assert_eq!(
            switch(kind, &reqs, &prio(0, 0, 1000)),
            [rq(0, 1, 2)],
            "{kind:?}"
        );
    }
}

/// The winners of one VC allocation of `reqs` (10 input and 10 output VCs) with the input
/// VCs' priorities `prio` (empty: none), every pointer at 0.
fn vcs(kind: Allocator, reqs: &[VcRequest], prio: &[(u16, u32)]) -> Vec<VcRequest> {
    let a = VcAllocator {
        kind,
        ins: 10,
        outs: 10,
    };
    let mut s = VcScratch::new(10, 10);
    if !prio.is_empty() {
        s.prio = vec![0; 10];
        for &(i, p) in prio {
            s.prio[usize::from(i)] = p;
        }
    }
    let mut ptrs = vec![0; a.pointers()];
    let mut out = Vec::new();
    a.allocate(&mut ptrs, &mut s, reqs, &mut out);
    out
}

fn vr(input: u16, output: u16) -> VcRequest {
    VcRequest { input, output }
}

#[test]
fn output_vcs_grant_the_head_of_the_highest_priority() {
    // Input VCs 2 and 3 both want output VC 8 only: with every pointer at 0 input VC 2 wins;
    // with input VC 3's head older, the output VC grants it (BookSim2's "out" priority),
    // with the separable allocator, `select` and the wavefront (whose cell (3,8) is swept in
    // a sweep of its own before (2,8)). iSLIP grants input VC 2 whatever the priorities.
    let reqs = [vr(2, 8), vr(3, 8)];
    let older3 = [(2, 10), (3, 20)];
    for kind in [
        Allocator::SeparableInputFirst,
        Allocator::Select,
        Allocator::Wavefront,
        Allocator::RrWavefront,
    ] {
        assert_eq!(vcs(kind, &reqs, &[]), [vr(2, 8)], "{kind:?}");
        assert_eq!(vcs(kind, &reqs, &older3), [vr(3, 8)], "{kind:?}");
    }
    assert_eq!(vcs(Allocator::Islip, &reqs, &older3), [vr(2, 8)]);
}
