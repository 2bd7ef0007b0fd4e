//! Parallel iterative matching (BookSim2 `sw_allocator = pim`, `vc_allocator = pim`,
//! `allocators/pim.cpp`; docs/booksim.md §4). Each iteration, every output that an unmatched
//! input requests and that is itself unmatched grants one of those inputs at random, and
//! every input granted by some outputs accepts one of them at random; the matches add up
//! over the iterations (`alloc_iters`, one in BookSim2's routers, §2). As in BookSim2 a
//! random choice is a random arbiter: a uniformly drawn starting position, then the first
//! candidate at or after it round the ring of inputs (outputs). There are no round-robin
//! pointers; in the switch the matched pair sends the VC nearest the input's VC pointer
//! (`allocator::matched_vcs`), as with the other allocators.
//!
//! The draws come from a small counter-based generator whose state the router sets before
//! each allocation from the run's seed, the router and the step ([`key`]): the same run
//! draws the same numbers whatever the number of threads.

use crate::sim::router::allocator::{dist, matched_vcs, Request, Scratch, Shape, NONE};
use crate::sim::router::vc_allocator::{VcRequest, VcScratch};

/// Which allocation of a step a [`key`] is for.
pub(crate) const SWITCH: u64 = 1;
/// See [`SWITCH`].
pub(crate) const VCS: u64 = 2;

/// The generator state of allocation `what` ([`SWITCH`] or [`VCS`]) of router `s` in step
/// `now` of the run seeded with `seed`.
#[inline]
pub(crate) fn key(seed: u64, s: usize, now: u64, what: u64) -> u64 {
    let mut x = seed ^ 0x6a09_e667_f3bc_c909;
    x = mix(x ^ s as u64);
    x = mix(x ^ now);
    mix(x ^ what)
}

/// splitmix64's finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform draw from `0..n` (`n ≥ 1`), advancing `state`.
#[inline]
pub(crate) fn below(state: &mut u64, n: u16) -> u16 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let r = mix(*state);
    ((u128::from(r) * u128::from(n)) >> 64) as u16
}

/// The arrays of one matching: per output the granted input, per input the accepted output,
/// the matches so far, and the random arbiters' starting positions (`offset`: outputs
/// first, then inputs); all `NONE` before and after.
pub(crate) struct Lanes<'a> {
    pub grant: &'a mut [u16],
    pub pick: &'a mut [u16],
    pub in_match: &'a mut [u16],
    pub out_match: &'a mut [u16],
    pub offset: &'a mut [u16],
}

/// Runs `iters` PIM iterations over the (input, output) pairs `pairs` yields among `ni`
/// inputs and `no` outputs; afterwards `m.in_match[i]` is input `i`'s output (`NONE` if
/// unmatched) and `m.out_match` the reverse. Only `in_match` / `out_match` entries of
/// requested ports are left set; the caller clears them.
pub(crate) fn iterate<I>(pairs: I, (ni, no): (u16, u16), iters: u8, m: Lanes<'_>, rng: &mut u64)
where
    I: Iterator<Item = (u16, u16)> + Clone,
{
    let no_us = usize::from(no);
    for _ in 0..iters.max(1) {
        // Grant: each free output, a random free requesting input.
        for (i, o) in pairs.clone() {
            let (iu, ou) = (usize::from(i), usize::from(o));
            if m.in_match[iu] != NONE || m.out_match[ou] != NONE {
                continue;
            }
            if m.offset[ou] == NONE {
                m.offset[ou] = below(rng, ni);
            }
            let (cur, start) = (m.grant[ou], m.offset[ou]);
            if cur == NONE || dist(i, start, ni) < dist(cur, start, ni) {
                m.grant[ou] = i;
            }
        }
        // Accept: each granted input, a random granting output.
        for (i, o) in pairs.clone() {
            let iu = usize::from(i);
            if m.grant[usize::from(o)] != i {
                continue;
            }
            if m.offset[no_us + iu] == NONE {
                m.offset[no_us + iu] = below(rng, no);
            }
            let (cur, start) = (m.pick[iu], m.offset[no_us + iu]);
            if cur == NONE || dist(o, start, no) < dist(cur, start, no) {
                m.pick[iu] = o;
            }
        }
        let mut matched = false;
        for (i, o) in pairs.clone() {
            let (iu, ou) = (usize::from(i), usize::from(o));
            if m.pick[iu] == o && m.in_match[iu] == NONE {
                m.in_match[iu] = o;
                m.out_match[ou] = i;
                matched = true;
            }
        }
        for (i, o) in pairs.clone() {
            let (iu, ou) = (usize::from(i), usize::from(o));
            m.grant[ou] = NONE;
            m.pick[iu] = NONE;
            m.offset[ou] = NONE;
            m.offset[no_us + iu] = NONE;
        }
        if !matched {
            break;
        }
    }
}

/// Switch allocation by PIM (`shape.iters` iterations) of the router whose pointers are
/// `ptrs` (only the VC pointers, `Shape::pointers`' last `ins`, are used); the winners, one
/// VC per matched input, are written to `out`.
pub(crate) fn allocate_switch(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let (ni, no) = (shape.ins, shape.outs);
    let (_, _, vc_ptr) = shape.split_pointers(ptrs);
    let Scratch {
        grant,
        pick,
        in_match,
        out_match,
        offset,
        rng,
        prio,
        ..
    } = scratch;
    let pairs = reqs.iter().map(|q| (q.input, q.output));
    let m = Lanes {
        grant,
        pick,
        in_match,
        out_match,
        offset,
    };
    iterate(pairs, (ni, no), shape.iters, m, rng);
    let matched = |q: &Request| in_match[usize::from(q.input)] == q.output;
    matched_vcs(reqs, matched, prio, vc_ptr, u16::from(shape.vcs), out);
    for q in reqs {
        in_match[usize::from(q.input)] = NONE;
        out_match[usize::from(q.output)] = NONE;
    }
}

/// VC allocation by PIM (one iteration, as BookSim2's routers build it) among `ni` input
/// VCs and `no` output VCs; the matched requests are written to `out` in the order of
/// `reqs`.
pub(crate) fn allocate_vcs(
    (ni, no): (u16, u16),
    scratch: &mut VcScratch,
    reqs: &[VcRequest],
    out: &mut Vec<VcRequest>,
) {
    let VcScratch {
        grant,
        pick,
        in_match,
        out_match,
        offset,
        rng,
        ..
    } = scratch;
    let pairs = reqs.iter().map(|q| (q.input, q.output));
    let m = Lanes {
        grant,
        pick,
        in_match,
        out_match,
        offset,
    };
    iterate(pairs, (ni, no), 1, m, rng);
    for q in reqs {
        if in_match[usize::from(q.input)] == q.output {
            out.push(*q);
        }
    }
    for q in reqs {
        in_match[usize::from(q.input)] = NONE;
        out_match[usize::from(q.output)] = NONE;
    }
}

#[cfg(test)]
#[path = "pim_tests.rs"]
mod tests;
