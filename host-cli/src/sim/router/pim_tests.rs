//! PIM on hand-made request sets (`super`): the random choices make the grants vary, so
//! the tests check properties — a matching of requests, maximal when the iterations allow
//! — and the random arbiter's odds.

use super::*;
use crate::sim::config::Allocator;
use crate::sim::router::allocator::rq;
use crate::sim::router::vc_allocator::VcAllocator;

fn shape(iters: u8) -> Shape {
    Shape {
        kind: Allocator::Pim,
        ins: 4,
        outs: 4,
        vcs: 2,
        iters,
    }
}

/// Every winner is a request; no input and no output wins twice.
fn assert_matching<T: PartialEq + core::fmt::Debug>(
    reqs: &[T],
    wins: &[T],
    io: impl Fn(&T) -> (u16, u16),
) {
    let (mut ins, mut outs) = (0u64, 0u64);
    for w in wins {
        assert!(reqs.contains(w), "{w:?} was not requested");
        let (i, o) = io(w);
        assert!(ins & 1 << i == 0 && outs & 1 << o == 0, "{wins:?}");
        ins |= 1 << i;
        outs |= 1 << o;
    }
}

/// Whether no request has both its input and its output unmatched.
fn maximal(reqs: &[Request], wins: &[Request]) -> bool {
    reqs.iter().all(|q| {
        wins.iter()
            .any(|w| w.input == q.input || w.output == q.output)
    })
}

const SETS: [&[Request]; 3] = [
    &[
        rq(0, 0, 1),
        rq(0, 1, 2),
        rq(1, 0, 1),
        rq(2, 0, 2),
        rq(3, 0, 1),
    ],
    &[
        rq(0, 0, 0),
        rq(0, 1, 1),
        rq(1, 0, 0),
        rq(1, 1, 1),
        rq(2, 0, 2),
        rq(3, 1, 2),
    ],
    &[
        rq(0, 0, 3),
        rq(1, 0, 3),
        rq(1, 1, 2),
        rq(2, 0, 2),
        rq(2, 1, 1),
        rq(3, 0, 1),
    ],
];

#[test]
fn grants_form_a_matching_and_enough_iterations_make_it_maximal() {
    let mut out = Vec::new();
    let mut scratch = Scratch::new(4);
    for seed in 0..300 {
        for (n, reqs) in SETS.iter().enumerate() {
            for iters in [1, 2, 4] {
                let s = shape(iters);
                let mut ptrs = vec![0; s.pointers()];
                scratch.rng = key(seed, n, 0, SWITCH);
                assert!(!s.allocate(&mut ptrs, &mut scratch, reqs, &mut out));
                assert_matching(reqs, &out, |w| (w.input, w.output));
                assert!(!out.is_empty());
                // Every iteration that leaves the matching not maximal adds a match: with as
                // many iterations as ports it is maximal.
                if iters == 4 {
                    assert!(maximal(reqs, &out), "{reqs:?} → {out:?}");
                }
                // The scratch is left clean for the next router.
                assert!(scratch
                    .in_match
                    .iter()
                    .chain(&scratch.offset)
                    .all(|&x| x == NONE));
            }
        }
    }
}

#[test]
fn the_same_state_draws_the_same_matching_and_different_ones_vary() {
    let s = shape(1);
    let reqs = SETS[1];
    let run = |state| {
        let (mut ptrs, mut scratch, mut out) = (vec![0; s.pointers()], Scratch::new(4), Vec::new());
        scratch.rng = state;
        s.allocate(&mut ptrs, &mut scratch, reqs, &mut out);
        out
    };
    assert_eq!(run(key(7, 3, 100, SWITCH)), run(key(7, 3, 100, SWITCH)));
    let distinct: std::collections::BTreeSet<String> = (0..64)
        .map(|n| format!("{:?}", run(key(7, 3, n, SWITCH))))
        .collect();
    assert!(distinct.len() > 2, "{distinct:?}");
}

#[test]
fn the_random_arbiter_favours_the_requester_after_a_gap() {
    // Inputs 0 and 1 of 4 both request output 2 (with input 3 on output 0, so not every
    // request is distinct). BookSim2's random arbiter starts at a uniform position and takes
    // the first requester from there: input 0 wins from positions 2, 3 and 0, input 1 from
    // position 1 only — 3 : 1.
    let s = shape(1);
    let reqs = [rq(0, 0, 2), rq(1, 0, 2), rq(3, 0, 0), rq(3, 1, 0)];
    let (mut ptrs, mut scratch, mut out) = (vec![0; s.pointers()], Scratch::new(4), Vec::new());
    let mut zero = 0;
    for n in 0..4000 {
        scratch.rng = key(1, 0, n, SWITCH);
        s.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
        assert_eq!(out.len(), 2);
        zero += usize::from(out[0].input == 0);
    }
    assert!((2850..3150).contains(&zero), "{zero}");
}

#[test]
fn vc_allocation_is_a_matching_of_requests() {
    let a = VcAllocator {
        kind: Allocator::Pim,
        ins: 10,
        outs: 10,
    };
    let reqs: Vec<VcRequest> = [(0, 7), (0, 6), (8, 7), (8, 6), (3, 1), (4, 1), (4, 9)]
        .iter()
        .map(|&(input, output)| VcRequest { input, output })
        .collect();
    let (mut ptrs, mut scratch, mut out) = (vec![0; 20], VcScratch::new(10, 10), Vec::new());
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..200 {
        scratch.rng = key(0, 5, n, VCS);
        a.allocate(&mut ptrs, &mut scratch, &reqs, &mut out);
        assert_matching(&reqs, &out, |w| (w.input, w.output));
        // One iteration: outputs 6, 7 and 1 each grant someone, so at least two inputs win.
        assert!(out.len() >= 2, "{out:?}");
        seen.insert(format!("{out:?}"));
        // The disjoint pass is not PIM's: the general one runs.
        let mut out2 = Vec::new();
        scratch.rng = key(0, 5, n, VCS);
        a.allocate_disjoint(&mut ptrs, &mut scratch, &reqs, &mut out2);
        assert_eq!(out, out2);
    }
    assert!(seen.len() > 2);
    assert!(ptrs.iter().all(|&p| p == 0), "PIM has no pointers");
}
