//! Order-statistics set of the switches still eligible for a shortcut (docs/topologies.md §3).
//!
//! The reference algorithm draws two elements of `C = [v | deg[v] < d]` (ascending id order)
//! by rank. Rebuilding `C` per link costs O(n); this set answers "the `r`-th smallest member"
//! and "remove `v`" in O(log n) plus a scan over `n / 32768` block totals, in caller storage
//! of `u16` counters: the ids are split into blocks of [`BLOCK`] ids, each block holds a
//! Fenwick (binary indexed) tree over its membership flags, and a block total per block lets
//! `select` skip whole blocks. Every counter covers at most [`BLOCK`] ids, so `u16` suffices
//! for any `n`.

/// Ids per block; the largest count a counter can hold is `BLOCK` (fits in `u16`).
pub(super) const BLOCK: usize = 1 << 15;

/// Number of `u16` counters the set needs for `n` ids (Fenwick nodes plus block totals).
pub(super) fn scratch_len(n: u32) -> usize {
    n as usize + (n as usize).div_ceil(BLOCK)
}

/// A subset of `0..n` supporting rank selection and removal.
#[derive(Debug)]
pub(super) struct EligibleSet<'a> {
    /// Fenwick trees, block after block; entry `j` of a block is Fenwick node `j + 1`.
    tree: &'a mut [u16],
    /// Members per block.
    totals: &'a mut [u16],
    n: u32,
    len: u32,
}

/// Lowest set bit of `i` (Fenwick node `i` covers that many ids).
#[inline]
fn lowbit(i: usize) -> usize {
    i & i.wrapping_neg()
}

impl<'a> EligibleSet<'a> {
    /// The full set `0..n`; `None` when `scratch` is shorter than [`scratch_len`]`(n)`.
    pub(super) fn full(n: u32, scratch: &'a mut [u16]) -> Option<Self> {
        let blocks = (n as usize).div_ceil(BLOCK);
        if scratch.len() < n as usize + blocks {
            return None;
        }
        let (tree, rest) = scratch.split_at_mut(n as usize);
        let totals = &mut rest[..blocks];
        for (j, t) in tree.iter_mut().enumerate() {
            // All flags are 1: Fenwick node i (1-based within its block) holds lowbit(i).
            *t = lowbit(j % BLOCK + 1) as u16;
        }
        for (b, t) in totals.iter_mut().enumerate() {
            *t = (n as usize - b * BLOCK).min(BLOCK) as u16;
        }
        Some(EligibleSet {
            tree,
            totals,
            n,
            len: n,
        })
    }

    /// Number of members.
    #[inline]
    pub(super) fn len(&self) -> u32 {
        self.len
    }

    /// Removes member `id` (the caller guarantees it is a member; ids `>= n` are ignored).
    pub(super) fn remove(&mut self, id: u32) {
        if id >= self.n {
            return;
        }
        let block = id as usize / BLOCK;
        let base = block * BLOCK;
        let block_len = (self.n as usize - base).min(BLOCK);
        let mut i = id as usize - base + 1;
        while i <= block_len {
            if let Some(c) = self.tree.get_mut(base + i - 1) {
                *c = c.saturating_sub(1);
            }
            i += lowbit(i);
        }
        if let Some(t) = self.totals.get_mut(block) {
            *t = t.saturating_sub(1);
        }
        self.len = self.len.saturating_sub(1);
    }

    /// The member of rank `rank` (0 = smallest id), or `None` when `rank >= len()`.
    pub(super) fn select(&self, rank: u32) -> Option<u32> {
        if rank >= self.len {
            return None;
        }
        let mut rem = rank as usize;
        let mut block = 0;
        for &t in self.totals.iter() {
            if rem < t as usize {
                break;
            }
            rem -= t as usize;
            block += 1;
        }
        let base = block * BLOCK;
        let block_len = (self.n as usize).checked_sub(base)?.min(BLOCK);
        // Fenwick descent: largest prefix `pos` whose count is <= rem; the answer is `pos`.
        let mut pos = 0usize;
        let mut step = if block_len == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - block_len.leading_zeros())
        };
        while step > 0 {
            let next = pos + step;
            if next <= block_len {
                let c = *self.tree.get(base + next - 1)? as usize;
                if c <= rem {
                    pos = next;
                    rem -= c;
                }
            }
            step >>= 1;
        }
        let id = base + pos;
        (id < self.n as usize).then_some(id as u32)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Checks `select` against a plain sorted member list while removing ids in a scrambled
    /// order (`stride` coprime to `n`); `n` spans several blocks when large.
    fn check(n: u32, stride: u32) {
        let mut scratch = vec![0u16; scratch_len(n)];
        let mut set = EligibleSet::full(n, &mut scratch).unwrap();
        let mut member = vec![true; n as usize];
        let mut left = n as usize;
        let mut id = 0u32;
        for round in 0..n {
            if round % 997 == 0 || left < 40 {
                let members: Vec<u32> = (0..n).filter(|&v| member[v as usize]).collect();
                assert_eq!(set.len() as usize, members.len());
                for (r, &m) in members.iter().enumerate().step_by(1 + members.len() / 200) {
                    assert_eq!(set.select(r as u32), Some(m), "n {n} rank {r}");
                }
                assert_eq!(set.select(members.len() as u32), None);
            }
            id = (id + stride) % n;
            assert!(member[id as usize]);
            member[id as usize] = false;
            left -= 1;
            set.remove(id);
        }
        assert_eq!(set.len(), 0);
        assert_eq!(set.select(0), None);
    }

    #[test]
    fn select_matches_sorted_list() {
        check(1, 1);
        check(13, 5);
        check(1000, 7);
        check(BLOCK as u32 * 2 + 77, 40_009); // 65,613 = 3 · 21,871, coprime to 40,009
    }

    #[test]
    fn short_scratch_is_rejected() {
        let mut scratch = vec![0u16; scratch_len(100) - 1];
        assert!(EligibleSet::full(100, &mut scratch).is_none());
    }
}
