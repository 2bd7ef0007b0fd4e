//! The input-VC flit buffers of every router, laid out so that the memory a run touches grows
//! with the deepest buffer occupancy it reaches, not with `vc_buf_size` (docs/booksim.md §6):
//! BookSim2 keeps a buffer's flits in a queue that grows with use, so a
//! network with deep buffers (its Dragonfly example has 256-flit VCs) costs it memory only
//! for the flits in flight.
//!
//! * **Position-major within a router**: slot `pos` of the router's input VCs
//!   `0..radix·vcs` are neighbours, so the first positions of all of a router's buffers share
//!   a few pages and the deep positions of an uncongested router are never written. A
//!   router's slots stay one contiguous block, so ranges of routers still split into disjoint
//!   slices for threads.
//! * **An empty buffer starts again at position 0** (the ring's head goes back to 0 when its
//!   last flit leaves), so a buffer uses its deep positions only while it really holds that
//!   many flits.
//! * **Zero-filled allocation**: the slots are allocated zeroed (`bytemuck::zeroed_vec`), which
//!   the allocator hands out as untouched zero pages; a page is backed by memory only once
//!   written.

use crate::sim::network::Slot;

/// `n` empty slots, zero-filled by the allocator (untouched pages are not backed by memory).
pub(crate) fn slots(n: usize) -> Vec<Slot> {
    bytemuck::zeroed_vec(n)
}

/// Index of slot `pos` of input VC `li` (number within its router, `port·vcs + vc`) of the
/// router whose block is number `ls` in the slice, with `per = radix·vcs` input VCs and
/// `buf` slots each per router.
#[inline]
pub(crate) fn index(per: usize, buf: usize, ls: usize, li: usize, pos: usize) -> usize {
    (ls * buf + pos) * per + li
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_slots_are_zero() {
        let s = slots(3);
        assert!(s
            .iter()
            .all(|s| s.ready == 0 && s.flit.pkt == 0 && !s.flit.tail));
    }

    #[test]
    fn slots_are_position_major_within_a_router_and_routers_contiguous() {
        // 2 routers of 3 input VCs with 4 slots each: router 0 owns 0..12, router 1 12..24.
        let (per, buf) = (3, 4);
        let mut seen = vec![false; 2 * per * buf];
        for ls in 0..2 {
            for li in 0..per {
                for pos in 0..buf {
                    let i = index(per, buf, ls, li, pos);
                    assert!((ls * per * buf..(ls + 1) * per * buf).contains(&i));
                    assert!(!seen[i], "slot {i} used twice");
                    seen[i] = true;
                }
            }
        }
        // Position 0 of a router's three VCs are neighbours.
        assert_eq!([0, 1, 2].map(|li| index(per, buf, 1, li, 0)), [12, 13, 14]);
    }
}
