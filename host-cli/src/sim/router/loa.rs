//! The lonely output allocator (BookSim2 `sw_allocator = loa`, `vc_allocator = loa`,
//! `allocators/loa.cpp`; docs/booksim.md §4). One pass:
//!
//! 1. every output counts the inputs that request it;
//! 2. every input requests one output only, its *lonely* one: the requested output with the
//!    fewest requesters, on a tie the first round the ring of outputs from the input's
//!    pointer;
//! 3. every output so requested grants the input nearest its own pointer (round robin);
//! 4. a grant is a match, and moves the input's pointer and the output's pointer on by
//!    one place — not past the match, as iSLIP's do.
//!
//! Request priorities play no part (speculative switch requests compete as the others do,
//! as in BookSim2), except in the switch's choice of the VC a matched input sends: the VC
//! nearest the input's VC pointer, a non-speculative one first (`allocator::matched_vcs`).
//! A request is a cell (input, output): several VCs of one input wanting one output count
//! once, as BookSim2 keeps one request per cell.

use crate::sim::router::allocator::{dist, matched_vcs, succ, Request, Scratch, Shape, NONE};
use crate::sim::router::vc_allocator::{VcRequest, VcScratch};

/// Sorts the cells `(input, output)` of `pairs` into `cells` (`input << 16 | output`,
/// ascending, each once).
fn collect_cells(pairs: impl Iterator<Item = (u16, u16)>, cells: &mut Vec<u64>) {
    cells.clear();
    cells.extend(pairs.map(|(i, o)| u64::from(i) << 16 | u64::from(o)));
    cells.sort_unstable();
    cells.dedup();
}

/// The (input, output) of a cell.
#[inline]
fn split(c: u64) -> (u16, u16) {
    ((c >> 16) as u16, c as u16)
}

/// Steps 1–4 over the sorted cells `cells` among `ni` inputs and `no` outputs: afterwards
/// input `i` is matched to `o` iff `pick[i] == o && grant[o] == i`. `count` (per output)
/// is scratch; [`clear`] puts `grant`, `pick` and `count` back to `NONE`.
fn lonely_match(
    cells: &[u64],
    (ni, no): (u16, u16),
    (in_ptr, out_ptr): (&mut [u16], &mut [u16]),
    (grant, pick, count): (&mut [u16], &mut [u16], &mut [u16]),
) {
    for &c in cells {
        count[usize::from(split(c).1)] = 0;
    }
    for &c in cells {
        count[usize::from(split(c).1)] += 1;
    }
    // Each input's lonely output: fewest requesters, then nearest the input's pointer.
    for &c in cells {
        let (i, o) = split(c);
        let iu = usize::from(i);
        let p = in_ptr[iu];
        let better = match pick[iu] {
            NONE => true,
            cur => {
                let (n, ncur) = (count[usize::from(o)], count[usize::from(cur)]);
                n < ncur || (n == ncur && dist(o, p, no) < dist(cur, p, no))
            }
        };
        if better {
            pick[iu] = o;
        }
    }
    // Each requested output grants the input nearest its pointer.
    for &c in cells {
        let (i, o) = split(c);
        let ou = usize::from(o);
        if pick[usize::from(i)] != o {
            continue;
        }
        let cur = grant[ou];
        if cur == NONE || dist(i, out_ptr[ou], ni) < dist(cur, out_ptr[ou], ni) {
            grant[ou] = i;
        }
    }
    for &c in cells {
        let (i, o) = split(c);
        let (iu, ou) = (usize::from(i), usize::from(o));
        if pick[iu] == o && grant[ou] == i {
            in_ptr[iu] = succ(in_ptr[iu], no);
            out_ptr[ou] = succ(out_ptr[ou], ni);
        }
    }
}

/// Puts the entries [`lonely_match`] set for `cells` back to `NONE`.
fn clear(cells: &[u64], grant: &mut [u16], pick: &mut [u16], count: &mut [u16]) {
    for &c in cells {
        let (i, o) = split(c);
        grant[usize::from(o)] = NONE;
        count[usize::from(o)] = NONE;
        pick[usize::from(i)] = NONE;
    }
}

/// Switch allocation of the router whose pointers are `ptrs` (per crossbar input the
/// request pointer, per crossbar output the grant pointer, per crossbar input the VC
/// pointer: `Shape::pointers`); the winners, one VC per matched input, are written to
/// `out`.
pub(crate) fn allocate_switch(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let (ni, no) = (shape.ins, shape.outs);
    let (in_ptr, out_ptr, vc_ptr) = shape.split_pointers(ptrs);
    let Scratch {
        grant,
        pick,
        out_match,
        keys,
        prio,
        ..
    } = scratch;
    collect_cells(reqs.iter().map(|q| (q.input, q.output)), keys);
    let lanes = (&mut grant[..], &mut pick[..], &mut out_match[..]);
    lonely_match(keys, (ni, no), (in_ptr, out_ptr), lanes);
    let matched = |q: &Request| {
        pick[usize::from(q.input)] == q.output && grant[usize::from(q.output)] == q.input
    };
    matched_vcs(reqs, matched, prio, vc_ptr, u16::from(shape.vcs), out);
    clear(keys, grant, pick, out_match);
}

/// VC allocation among `ni` input VCs and `no` output VCs whose pointers are `ptrs` (per
/// input VC the request pointer, then per output VC the grant pointer:
/// `VcAllocator::pointers`); the matched requests are written to `out` in the order of
/// `reqs`.
pub(crate) fn allocate_vcs(
    (ni, no): (u16, u16),
    ptrs: &mut [u16],
    scratch: &mut VcScratch,
    reqs: &[VcRequest],
    out: &mut Vec<VcRequest>,
) {
    let (in_ptr, out_ptr) = ptrs.split_at_mut(usize::from(ni));
    let VcScratch {
        grant,
        pick,
        out_match,
        keys,
        ..
    } = scratch;
    collect_cells(reqs.iter().map(|q| (q.input, q.output)), keys);
    let lanes = (&mut grant[..], &mut pick[..], &mut out_match[..]);
    lonely_match(keys, (ni, no), (in_ptr, out_ptr), lanes);
    for q in reqs {
        if pick[usize::from(q.input)] == q.output && grant[usize::from(q.output)] == q.input {
            out.push(*q);
        }
    }
    clear(keys, grant, pick, out_match);
}

#[cfg(test)]
#[path = "loa_tests.rs"]
mod tests;
