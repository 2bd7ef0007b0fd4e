//! BookSim2's maximum-size allocator (`vc_allocator = max_size`, `sw_allocator = max_size`;
//! `allocators/maxsize.cpp`; docs/booksim.md §4), for the switch (`allocate_switch`) and
//! for the VC allocation stage (`allocate_vcs`).
//!
//! One allocation finds a matching of maximum size by repeated shortest augmenting paths,
//! starting from the empty matching. Each search is breadth-first from the unmatched inputs,
//! listed from the router's *priority input* `p` round the ring (`p, p + 1, …`, mod the
//! number of inputs): level by level, each input of the level, in order, looks at its
//! requested outputs in ascending order and reaches every output it is not matched to and
//! that no earlier input reached; an unmatched output ends the search (the path is flipped
//! into the matching), a matched one puts its input on the next level. At most as many
//! levels as inputs; a search without an unmatched output ends the allocation.
//!
//! Every allocation then moves `p` on by one, with requests or without: BookSim2 allocates
//! in every cycle a router holds a VC waiting for the switch (or for an output VC), so the
//! router counts those calls itself (`input_queued::max_size`); `idle` is a call without
//! requests. Request priorities play no part (speculative switch requests compete as the
//! others do), except in the switch's choice of the VC a matched input sends: the VC
//! nearest the input's VC pointer, a non-speculative one first (`allocator::matched_vcs`;
//! BookSim2 keeps one request per crossbar cell). In the VC allocator a cell is an input VC
//! and an output VC, numbered `port · vcs + vc`.
//!
//! Pointers per router: the switch allocator keeps one VC pointer per crossbar input, then
//! the priority input, then (with speculation) whether the router's previous step had heads
//! in VC allocation (`input_queued::max_size`); the VC allocator only the priority input.

use crate::sim::router::allocator::{matched_vcs, succ, Request, Scratch, Shape, NONE};
use crate::sim::router::vc_allocator::{VcRequest, VcScratch};

/// The working arrays of one matching of `ni` inputs and `no` outputs: the matches
/// (`in_match` per input, `out_match` per output, `NONE` when free), per output the input
/// its search reached it from, and the two levels of a search (inputs). `adj` holds the
/// requests, `words` `u64` words per input: bit `o` of input `i`'s row is set iff (`i`,
/// `o`) is requested.
#[derive(Debug)]
pub struct Matching<'m> {
    /// Inputs and outputs.
    pub io: (u16, u16),
    /// Request rows, `io.1.div_ceil(64)` words per input.
    pub adj: &'m [u64],
    /// Per input its output, per output its input.
    pub in_match: &'m mut [u16],
    /// Per output its input.
    pub out_match: &'m mut [u16],
    /// Per output, the input the search came from (at least `io.1` entries).
    pub from: &'m mut [u16],
    /// Two levels of the search (at least `io.0` entries each).
    pub level: (&'m mut [u16], &'m mut [u16]),
}

impl Matching<'_> {
    /// Grows the matching (empty on entry, or any matching) to a maximum one, searching from
    /// priority input `prio` (`< io.0`).
    pub fn maximize(&mut self, prio: u16) {
        while self.augment(prio) {}
    }

    /// One shortest augmenting path search; flips the path found into the matching.
    fn augment(&mut self, prio: u16) -> bool {
        match self.search(prio) {
            Some(o) => {
                self.flip(o);
                true
            }
            None => false,
        }
    }

    /// The breadth-first search from the free inputs, from `prio` on: the free output that
    /// ends a shortest augmenting path (`from` records the path), if any.
    fn search(&mut self, prio: u16) -> Option<u16> {
        let (ni, no) = self.io;
        let words = usize::from(no).div_ceil(64);
        let (mut cur, mut next) = (&mut *self.level.0, &mut *self.level.1);
        let mut len = 0;
        let mut i = prio;
        for _ in 0..ni {
            if self.in_match[usize::from(i)] == NONE {
                cur[len] = i;
                len += 1;
            }
            i = succ(i, ni);
        }
        self.from[..usize::from(no)].fill(NONE);
        for _ in 0..ni {
            if len == 0 {
                break;
            }
            let mut nlen = 0;
            for &i in &cur[..len] {
                let row = &self.adj[usize::from(i) * words..][..words];
                let mine = self.in_match[usize::from(i)];
                for (w, &bits) in row.iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        let o = (w * 64) as u16 + bits.trailing_zeros() as u16;
                        bits &= bits - 1;
                        let ou = usize::from(o);
                        if o == mine || self.from[ou] != NONE {
                            continue;
                        }
                        self.from[ou] = i;
                        match self.out_match[ou] {
                            NONE => return Some(o),
                            held => {
                                next[nlen] = held;
                                nlen += 1;
                            }
                        }
                    }
                }
            }
            core::mem::swap(&mut cur, &mut next);
            len = nlen;
        }
        None
    }

    /// Flips the augmenting path that ends at free output `o` into the matching.
    fn flip(&mut self, mut o: u16) {
        let mut i = self.from[usize::from(o)];
        self.out_match[usize::from(o)] = i;
        loop {
            let prev = self.in_match[usize::from(i)];
            self.in_match[usize::from(i)] = o;
            if prev == NONE {
                return;
            }
            o = prev;
            i = self.from[usize::from(o)];
            self.out_match[usize::from(o)] = i;
        }
    }
}

/// The request rows of `cells` (input, output) among `ni` inputs and `no` outputs in
/// `adj` (cleared and resized).
fn fill_rows(adj: &mut Vec<u64>, (ni, no): (u16, u16), cells: impl Iterator<Item = (u16, u16)>) {
    let words = usize::from(no).div_ceil(64);
    adj.clear();
    adj.resize(usize::from(ni) * words, 0);
    for (i, o) in cells {
        adj[usize::from(i) * words + usize::from(o) / 64] |= 1 << (o % 64);
    }
}

/// The priority input after `calls` allocations from `prio` among `ni` inputs.
#[inline]
pub fn advance(prio: u16, calls: u16, ni: u16) -> u16 {
    ((u32::from(prio) + u32::from(calls)) % u32::from(ni)) as u16
}

/// One switch allocation without requests of the router whose pointers are `ptrs`
/// ([`Shape::pointers`] of a `max_size` `shape`): the priority input moves on by one.
pub(crate) fn idle(shape: &Shape, ptrs: &mut [u16]) {
    let p = &mut ptrs[usize::from(shape.ins)];
    *p = advance(*p, 1, shape.ins);
}

/// Switch allocation of `reqs` (crossbar inputs → outputs, per VC) of the router whose
/// pointers are `ptrs` ([`Shape::pointers`] of a `max_size` `shape`); the winners, one VC
/// per matched input in the order the inputs first appear in `reqs`, are written to `out`.
#[inline(never)]
pub(crate) fn allocate_switch(
    shape: &Shape,
    ptrs: &mut [u16],
    scratch: &mut Scratch,
    reqs: &[Request],
    out: &mut Vec<Request>,
) {
    let io = (shape.ins, shape.outs);
    let (ni, no) = (usize::from(shape.ins), usize::from(shape.outs));
    let (vc_ptr, rest) = ptrs.split_at_mut(ni);
    let Scratch {
        grant,
        pick,
        in_match,
        out_match,
        keys,
        offset,
        prio,
        ..
    } = scratch;
    fill_rows(keys, io, reqs.iter().map(|q| (q.input, q.output)));
    let mut m = Matching {
        io,
        adj: keys,
        in_match: &mut in_match[..ni],
        out_match: &mut out_match[..no],
        from: &mut grant[..no],
        level: (&mut pick[..ni], &mut offset[..ni]),
    };
    m.maximize(rest[0]);
    rest[0] = succ(rest[0], shape.ins);
    let matched = |q: &Request| in_match[usize::from(q.input)] == q.output;
    matched_vcs(reqs, matched, prio, vc_ptr, u16::from(shape.vcs), out);
    for s in [&mut in_match[..ni], &mut pick[..ni], &mut offset[..ni]] {
        s.fill(NONE);
    }
    out_match[..no].fill(NONE);
    grant[..no].fill(NONE);
}

/// VC allocation of `reqs` (input VC → output VC, each pair at most once) of a router with
/// `ins` input VCs and `outs` output VCs whose priority input is `prio`; the matched
/// requests are written to `out`, in the order of `reqs`. Called once per BookSim2
/// `Allocate`, with requests or without: the priority input moves on by one either way.
#[inline(never)]
pub(crate) fn allocate_vcs(
    (ins, outs): (u16, u16),
    prio: &mut u16,
    scratch: &mut VcScratch,
    reqs: &[VcRequest],
    out: &mut Vec<VcRequest>,
) {
    out.clear();
    let p = *prio;
    *prio = succ(p, ins);
    if reqs.is_empty() {
        return;
    }
    let (ni, no) = (usize::from(ins), usize::from(outs));
    let VcScratch {
        grant,
        pick,
        keys,
        in_match,
        out_match,
        offset,
        ..
    } = scratch;
    fill_rows(keys, (ins, outs), reqs.iter().map(|q| (q.input, q.output)));
    let mut m = Matching {
        io: (ins, outs),
        adj: keys,
        in_match: &mut in_match[..ni],
        out_match: &mut out_match[..no],
        from: &mut grant[..no],
        level: (&mut pick[..ni], &mut offset[..ni]),
    };
    m.maximize(p);
    out.extend(
        reqs.iter()
            .filter(|q| in_match[usize::from(q.input)] == q.output),
    );
    for s in [&mut in_match[..ni], &mut pick[..ni], &mut offset[..ni]] {
        s.fill(NONE);
    }
    out_match[..no].fill(NONE);
    grant[..no].fill(NONE);
}
