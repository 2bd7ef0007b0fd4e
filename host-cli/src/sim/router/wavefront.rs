//! BookSim2's wavefront allocator (`vc_allocator = wavefront`, `sw_allocator = wavefront`;
//! `allocators/wavefront.cpp`; docs/booksim.md §4), for the switch (`allocate_switch`)
//! and for the VC allocation stage (`allocate_vcs`).
//!
//! The requests form an `S × S` matrix, `S` the larger of the numbers of inputs and
//! outputs. Its diagonals are the cells with `(input + output) mod S = d`; no two cells of
//! one diagonal share an input or an output. One allocation sweeps the `S` diagonals
//! starting at the router's priority diagonal `p` (`p, p + 1, …, p + S − 1`, mod `S`) and
//! grants every requested cell whose input and output are both still free. Request
//! priorities are swept separately, highest first: with `speculative = 1` and BookSim2's
//! `spec_sw_allocator = prio`, the non-speculative cells get a whole sweep before the
//! speculative ones, and with BookSim2's packet priorities (`super::priority`,
//! docs/booksim.md §3.5) every priority of the allocation gets its sweep. An allocation with at least one request moves `p` to `p + 1 mod S`,
//! whatever it granted; one without requests leaves it. The allocator has no iterations
//! (BookSim2 builds it without reading `alloc_iters`).
//!
//! In the switch allocator a cell is a crossbar input and output; several VCs of one input
//! may want the same output, and, as BookSim2 keeps one request per cell (the VC nearest the
//! input's round-robin VC pointer, a non-speculative one before any speculative one), the
//! cell's priority is its best VC's and a granted cell sends that VC, whose successor
//! becomes the input's VC pointer. In the VC allocator a cell is an input VC and an output
//! VC, numbered `port · vcs + vc`, with the priority of the input VC (0 without packet
//! priorities).
//!
//! Pointers per router (the first entries of [`Shape::pointers`] and
//! [`super::vc_allocator::VcAllocator::pointers`]): the switch allocator keeps one VC
//! pointer per crossbar input, then the priority diagonal; the VC allocator only the
//! diagonal.

use crate::sim::router::allocator::{level_of, matched_vcs, succ, Request, Scratch, Shape, NONE};
use crate::sim::router::priority::level;
use crate::sim::router::vc_allocator::VcRequest;

/// Position of cell (`input`, `output`) in the sweep of a `square × square` matrix that
/// starts at diagonal `pri`: `(input + output − pri) mod square` (cells of one diagonal
/// share their position; both indices `< square`, `pri < square`).
#[inline]
pub fn sweep_position(input: u16, output: u16, pri: u16, square: u16) -> u32 {
    let s = u32::from(square);
    (u32::from(input) + u32::from(output) + 2 * s - u32::from(pri)) % s
}

/// The wavefront matching of `n` requests whose cells are `cell(k) = (input, output,
/// order)` in a `square × square` matrix swept from diagonal `pri`: the cells of the lowest
/// `order` (the highest request priority) first, a whole sweep each. `in_match` (per input)
/// and `out_match` (per output) are `NONE` on entry and hold the matched output / input on
/// return; `wide` is scratch space. Returns the diagonal `(input + output) mod
/// square` of the first grant (the first cell swept, which always wins; `pri` when `n =
/// 0`).
pub fn sweep(
    square: u16,
    pri: u16,
    n: usize,
    cell: impl Fn(usize) -> (u16, u16, u32),
    wide: &mut Vec<u128>,
    in_match: &mut [u16],
    out_match: &mut [u16],
) -> u16 {
    let first_cell = |k: usize| {
        let (i, o, _) = cell(k);
        ((u32::from(i) + u32::from(o)) % u32::from(square)) as u16
    };
    let mut grant = |k: usize| {
        let (i, o, _) = cell(k);
        let (iu, ou) = (usize::from(i), usize::from(o));
        if in_match[iu] == NONE && out_match[ou] == NONE {
            in_match[iu] = o;
            out_match[ou] = i;
        }
    };
    // A key per cell: its order (the lowest, i.e. the highest request priority, swept
    // first; BookSim2 sweeps each priority separately), its place in the sweep, its index.
    let index = |key: u128| (key & u128::from(u32::MAX)) as usize;
    wide.clear();
    wide.extend((0..n).map(|k| {
        let (i, o, order) = cell(k);
        (u128::from(order) << 64)
            | (u128::from(sweep_position(i, o, pri, square)) << 32)
            | k as u128
    }));
    wide.sort_unstable();
    let first = wide.first().map_or(pri, |&key| first_cell(index(key)));
    wide.iter().for_each(|&key| grant(index(key)));
    first
}

/// The priority diagonal after an allocation that swept from `pri` and granted first on
/// diagonal `first`: `pri + 1` (`wavefront`), or `first + 1` (`rr_wavefront`, BookSim2's
/// `skip_diags`), mod `square`.
#[inline]
fn next_diagonal(pri: u16, first: u16, rr: bool, square: u16) -> u16 {
    succ(if rr { first } else { pri }, square)
}

/// Switch allocation of `reqs` (crossbar inputs → outputs, per VC) of the router whose
/// pointers are `ptrs` ([`Shape::pointers`] of a wavefront `shape`); the winners, one VC
/// per matched input in the order the inputs first appear in `reqs`, are written to `out`.
/// (Never inlined: it stays out of the separable and iSLIP allocators' code.)
#[inline(never)]
pub(crate) fn allocate_switch(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let square = shape.ins.max(shape.outs);
    let (vc_ptr, diag) = ptrs.split_at_mut(usize::from(shape.ins));
    let Scratch {
        grant,
        pick,
        wide,
        prio,
        ..
    } = scratch;
    let v = u16::from(shape.vcs);
    // Without packet priorities the order is speculative or not; with them the request's
    // priority level, highest first.
    let cell = |k: usize| {
        let q = &reqs[k];
        let order = if prio.is_empty() {
            u32::from(q.spec)
        } else {
            !level_of(q, prio, v)
        };
        (q.input, q.output, order)
    };
    let first = sweep(square, diag[0], reqs.len(), cell, wide, pick, grant);
    let rr = shape.kind == crate::sim::config::Allocator::RrWavefront;
    diag[0] = next_diagonal(diag[0], first, rr, square);
    // The VC of each granted cell: its best request (non-speculative first, then nearest
    // the input's VC pointer).
    let matched = |q: &Request| pick[usize::from(q.input)] == q.output;
    matched_vcs(reqs, matched, prio, vc_ptr, v, out);
    for q in reqs {
        pick[usize::from(q.input)] = NONE;
        grant[usize::from(q.output)] = NONE;
    }
}

/// VC allocation of `reqs` (input VC → output VC, each pair at most once) of a router with
/// `ins` input VCs and `outs` output VCs whose priority diagonal is `diag`, with the scratch
/// space of a [`super::vc_allocator::VcScratch`] (`grant`, `pick`, `wide`) and the
/// priorities of the input VCs (`prio`, BookSim2's "out" priority of their requests; empty:
/// all 0); the matched requests are written to `out`, in the order of `reqs`. (Never
/// inlined, as [`allocate_switch`].)
#[inline(never)]
pub(crate) fn allocate_vcs(
    (ins, outs): (u16, u16),
    (diag, rr): (&mut u16, bool),
    (grant, pick, wide): (&mut [u16], &mut [u16], &mut Vec<u128>),
    prio: &[u32],
    reqs: &[VcRequest],
    out: &mut Vec<VcRequest>,
) {
    out.clear();
    if reqs.is_empty() {
        return;
    }
    let square = ins.max(outs);
    let cell = |k: usize| {
        let q = &reqs[k];
        let order = match prio.get(usize::from(q.input)) {
            Some(&p) => !level(p, false),
            None => 0,
        };
        (q.input, q.output, order)
    };
    let first = sweep(square, *diag, reqs.len(), cell, wide, pick, grant);
    *diag = next_diagonal(*diag, first, rr, square);
    out.extend(
        reqs.iter()
            .filter(|q| pick[usize::from(q.input)] == q.output),
    );
    for q in reqs {
        pick[usize::from(q.input)] = NONE;
        grant[usize::from(q.output)] = NONE;
    }
}
