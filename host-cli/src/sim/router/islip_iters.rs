//! iSLIP with several iterations (BookSim2 `alloc_iters` with `sw_allocator = islip`,
//! `allocators/islip.cpp`; docs/booksim.md §4): each iteration, every unmatched crossbar
//! output grants the unmatched requesting input nearest its pointer, and every input accepts
//! the granting output nearest its own pointer; matches add up over the iterations, and the
//! pointers move only for the matches of the first iteration (McKeown's iSLIP). The matched
//! pair then sends the VC nearest the input's VC pointer, as the single iteration of
//! [`Shape::allocate`] does.

use crate::sim::router::allocator::{dist, matched_vcs, succ, Request, Scratch, Shape, NONE};

/// Matches `reqs` of the router whose pointers are `ptrs` in `shape.iters` iSLIP
/// iterations; the winners (one VC per matched input) are written to `out`.
pub(crate) fn allocate(
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
        in_match,
        out_match,
        prio,
        ..
    } = scratch;
    for iter in 0..shape.iters {
        // Grant: each unmatched output, the unmatched input nearest its pointer.
        for q in reqs {
            let o = usize::from(q.output);
            if out_match[o] != NONE || in_match[usize::from(q.input)] != NONE {
                continue;
            }
            let cur = grant[o];
            if cur == NONE || dist(q.input, out_ptr[o], ni) < dist(cur, out_ptr[o], ni) {
                grant[o] = q.input;
            }
        }
        // Accept: each granted input, the granting output nearest its pointer.
        for q in reqs {
            let i = usize::from(q.input);
            if grant[usize::from(q.output)] != q.input {
                continue;
            }
            let cur = pick[i];
            if cur == NONE || dist(q.output, in_ptr[i], no) < dist(cur, in_ptr[i], no) {
                pick[i] = q.output;
            }
        }
        let mut matched = false;
        for q in reqs {
            let (i, o) = (usize::from(q.input), usize::from(q.output));
            if pick[i] == q.output && grant[o] == q.input && in_match[i] == NONE {
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
            grant[usize::from(q.output)] = NONE;
            pick[usize::from(q.input)] = NONE;
        }
        if !matched {
            break;
        }
    }
    // The VC of each match: nearest the input's VC pointer.
    let matched = |q: &Request| in_match[usize::from(q.input)] == q.output;
    matched_vcs(reqs, matched, prio, vc_ptr, u16::from(shape.vcs), out);
    for q in reqs {
        in_match[usize::from(q.input)] = NONE;
        out_match[usize::from(q.output)] = NONE;
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::config::Allocator;
    use crate::sim::router::allocator::{rq, Scratch, Shape};

    fn shape(iters: u8) -> Shape {
        Shape {
            kind: Allocator::Islip,
            ins: 3,
            outs: 3,
            vcs: 2,
            iters,
        }
    }

    #[test]
    fn a_second_iteration_matches_what_the_first_left() {
        // Outputs 1 and 2 both grant input 0 (pointers at 0), which accepts output 1; in
        // one iteration input 2's request for output 2 is lost, in two it is matched.
        let reqs = [rq(0, 0, 1), rq(0, 1, 2), rq(1, 0, 1), rq(2, 0, 2)];
        let mut out = Vec::new();
        let mut s1 = shape(1);
        let mut ptrs = vec![0; s1.pointers()];
        let mut scratch = Scratch::new(3);
        assert!(!s1.allocate(&mut ptrs, &mut scratch, &reqs, &mut out));
        assert_eq!(out, [rq(0, 0, 1)]);
        s1 = shape(2);
        let mut ptrs2 = vec![0; s1.pointers()];
        assert!(!s1.allocate(&mut ptrs2, &mut scratch, &reqs, &mut out));
        assert_eq!(out, [rq(0, 0, 1), rq(2, 0, 2)]);
        // Only the first iteration's match moved the grant and accept pointers: output 2
        // still points at input 0, output 1 at input 1; input 0 accepts from output 2 next.
        assert_eq!(&ptrs2[..6], &[2, 0, 0, 0, 1, 0]);
    }
}
