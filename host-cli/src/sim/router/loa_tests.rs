//! The lonely output allocator on hand-made request sets (`super`): exact grants and
//! pointers.

use crate::sim::config::Allocator;
use crate::sim::router::allocator::{rq, Request, Scratch, Shape};
use crate::sim::router::vc_allocator::{VcAllocator, VcRequest, VcScratch};

fn shape() -> Shape {
    Shape {
        kind: Allocator::Loa,
        ins: 4,
        outs: 4,
        vcs: 2,
        iters: 1,
    }
}

#[test]
fn inputs_request_their_least_requested_output() {
    // Input 0 wants outputs 0 and 1, input 1 output 0, input 2 outputs 1 (twice, by both
    // VCs: one cell) and 2. Requesters: output 0 two, output 1 two, output 2 one. Input 0
    // ties 0 and 1 and takes 0 (its pointer is at 0), input 1 takes 0, input 2 takes its
    // lonely output 2. Output 0 grants input 0 (nearest its pointer): input 1 loses.
    let reqs = [
        rq(0, 0, 0),
        rq(0, 1, 1),
        rq(1, 0, 0),
        rq(2, 0, 1),
        rq(2, 1, 1),
        rq(2, 1, 2),
    ];
    let s = shape();
    let (mut ptrs, mut scratch, mut out) = (vec![0; s.pointers()], Scratch::new(4), Vec::new());
    assert!(!s.allocate(&mut ptrs, &mut scratch, &reqs, &mut out));
    assert_eq!(out, [rq(0, 0, 0), rq(2, 1, 2)]);
    // Request pointers of inputs 0 and 2 and grant pointers of outputs 0 and 2 moved on by
    // one (not past the match); the VC pointers past the VCs sent.
    assert_eq!(ptrs, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0]);
    // Again: input 0's tie now goes to output 1 (its pointer), input 1 takes 0, input 2
    // output 2: all three match.
    assert!(!s.allocate(&mut ptrs, &mut scratch, &reqs, &mut out));
    assert_eq!(out, [rq(0, 1, 1), rq(1, 0, 0), rq(2, 1, 2)]);
}

#[test]
fn distinct_requests_all_win_and_move_the_pointers_by_one() {
    let s = shape();
    let mut ptrs = vec![0; s.pointers()];
    ptrs[1] = 2; // input 1's request pointer
    let reqs = [rq(1, 1, 3), rq(2, 0, 0)];
    let mut out = Vec::new();
    assert!(s.allocate(&mut ptrs, &mut Scratch::new(4), &reqs, &mut out));
    // Inputs 1, 2: request pointers +1; outputs 3, 0: grant pointers +1; VC pointers.
    assert_eq!(ptrs, [0, 3, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
}

#[test]
fn output_grants_round_robin_and_speculation_does_not_count() {
    // Inputs 1 and 3 both request output 2 only; input 1 speculatively. The grant
    // pointer (0) is nearer input 1: it wins although speculative (BookSim2's LOA ignores
    // priorities); next time the pointer is at 1, still input 1, then at 2: input 3.
    let spec = Request {
        spec: true,
        ..rq(1, 0, 2)
    };
    let reqs = [spec, rq(3, 0, 2)];
    let s = shape();
    let (mut ptrs, mut scratch, mut out) = (vec![0; s.pointers()], Scratch::new(4), Vec::new());
    let mut winners = Vec::new();
    for _ in 0..4 {
        s.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
        assert_eq!(out.len(), 1);
        winners.push(out[0].input);
    }
    assert_eq!(winners, [1, 1, 3, 3]);
}

#[test]
fn vc_allocation_of_lonely_output_vcs() {
    // Input VCs 0 and 8 both want output VCs 6 and 7; input VC 3 wants 7 only. Output 6
    // has two requesters, 7 three: 0 and 8 both request 6, input 3 requests 7. Output 6
    // grants input 0 (pointer 0); 7 grants 3.
    let a = VcAllocator {
        kind: Allocator::Loa,
        ins: 10,
        outs: 10,
    };
    let reqs: Vec<VcRequest> = [(0, 6), (0, 7), (3, 7), (8, 6), (8, 7)]
        .iter()
        .map(|&(input, output)| VcRequest { input, output })
        .collect();
    let (mut ptrs, mut scratch, mut out) = (vec![0; 20], VcScratch::new(10, 10), Vec::new());
    a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
    let won: Vec<(u16, u16)> = out.iter().map(|w| (w.input, w.output)).collect();
    assert_eq!(won, [(0, 6), (3, 7)]);
    let mut want = vec![0; 20];
    (want[0], want[3], want[10 + 6], want[10 + 7]) = (1, 1, 1, 1);
    assert_eq!(ptrs, want);
    // The disjoint pass is not LOA's: the general one runs.
    let mut out2 = Vec::new();
    a.allocate_disjoint(&mut ptrs.clone(), &mut scratch, &reqs, &mut out2);
    assert!(scratch
        .grant
        .iter()
        .chain(&scratch.pick)
        .all(|&x| x == u16::MAX));
}
