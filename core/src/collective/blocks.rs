//! Block descriptors: which data blocks a message carries (docs/collectives.md, preamble).
//!
//! A rank's buffer is split into `slots` blocks (the whole buffer for a broadcast or a
//! recursive-doubling vector, one block per rank for allgather/alltoall, one chunk per rank
//! for ring allreduce, one packet per router for the Galaxyfly/Dragonfly all-to-all
//! broadcasts). A [`Blocks`] value names a subset of those slot indices compactly; the same
//! indices are used on the sending and the receiving side. [`DataLayout`] turns a descriptor
//! into a byte count for a given message size.

use serde::{Deserialize, Serialize};

/// A half-open range `start .. start + len` of block indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First block index.
    pub start: u32,
    /// Number of blocks.
    pub len: u32,
}

impl Span {
    /// The span `start .. start + len`.
    pub const fn new(start: u32, len: u32) -> Self {
        Span { start, len }
    }

    /// One past the last index (saturating).
    pub const fn end(&self) -> u32 {
        self.start.saturating_add(self.len)
    }
}

/// Which blocks a message carries (a compact, allocation-free set of slot indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Blocks {
    /// Every block (whole broadcast buffer, whole reduction vector).
    All,
    /// Block `i` only.
    Single(u32),
    /// Blocks `start .. start + len` (may be empty: a zero-byte message).
    Range {
        /// First block.
        start: u32,
        /// Number of blocks.
        len: u32,
    },
    /// The union of two disjoint ranges (the complement of a range inside a range or inside
    /// the whole buffer).
    TwoRanges(Span, Span),
    /// Bruck's set `{ i : 1 ≤ i < slots, i & 2^bit ≠ 0 }` (docs/collectives.md §3).
    BitMask {
        /// Bit index `k` of the step `2^k`.
        bit: u8,
    },
}

impl Blocks {
    /// The blocks outside `span` within `0..slots` (two ranges, either may be empty).
    pub fn outside(span: Span, slots: u32) -> Blocks {
        let end = span.end().min(slots);
        Blocks::TwoRanges(
            Span::new(0, span.start.min(slots)),
            Span::new(end, slots - end),
        )
    }

    /// The blocks of `within` that are not in `hole` (two ranges, either may be empty).
    pub fn range_minus(within: Span, hole: Span) -> Blocks {
        let lo = hole.start.clamp(within.start, within.end());
        let hi = hole.end().clamp(lo, within.end());
        Blocks::TwoRanges(
            Span::new(within.start, lo - within.start),
            Span::new(hi, within.end() - hi),
        )
    }

    /// Whether every index named lies in `0..slots`.
    pub fn fits(&self, slots: u32) -> bool {
        match *self {
            Blocks::All => true,
            Blocks::Single(i) => i < slots,
            Blocks::Range { start, len } => len == 0 || (start as u64 + len as u64) <= slots as u64,
            Blocks::TwoRanges(a, b) => [a, b]
                .iter()
                .all(|s| s.len == 0 || (s.start as u64 + s.len as u64) <= slots as u64),
            Blocks::BitMask { bit } => bit < 32,
        }
    }

    /// Number of blocks named, for a buffer of `slots` blocks (indices outside are ignored).
    pub fn count(&self, slots: u32) -> u32 {
        let clip = |start: u32, len: u32| -> u32 {
            let s = start.min(slots);
            let e = start.saturating_add(len).min(slots);
            e - s
        };
        match *self {
            Blocks::All => slots,
            Blocks::Single(i) => u32::from(i < slots),
            Blocks::Range { start, len } => clip(start, len),
            Blocks::TwoRanges(a, b) => clip(a.start, a.len) + clip(b.start, b.len),
            Blocks::BitMask { bit } => bitmask_count(slots, bit),
        }
    }

    /// Calls `f(i)` for every block index named, in ascending order within each range
    /// (indices outside `0..slots` are skipped).
    pub fn for_each<F: FnMut(u32)>(&self, slots: u32, mut f: F) {
        let mut range = |start: u32, len: u32| {
            let e = start.saturating_add(len).min(slots);
            for i in start.min(slots)..e {
                f(i);
            }
        };
        match *self {
            Blocks::All => range(0, slots),
            Blocks::Single(i) => range(i, 1),
            Blocks::Range { start, len } => range(start, len),
            Blocks::TwoRanges(a, b) => {
                range(a.start, a.len);
                range(b.start, b.len);
            }
            Blocks::BitMask { bit } => {
                if bit >= 32 {
                    return;
                }
                let m = 1u64 << bit;
                let mut base = m;
                while base < slots as u64 {
                    let e = (base + m).min(slots as u64);
                    for i in base..e {
                        range(i as u32, 1);
                    }
                    base += 2 * m;
                }
            }
        }
    }
}

/// `|{ i : 1 ≤ i < n, i & 2^bit ≠ 0 }|` in closed form.
pub fn bitmask_count(n: u32, bit: u8) -> u32 {
    if bit >= 32 {
        return 0;
    }
    let n = n as u64;
    let m = 1u64 << bit;
    let full = (n >> (bit + 1)) << bit;
    let rest = (n & (2 * m - 1)).saturating_sub(m);
    (full + rest) as u32
}

/// How many bytes each block of a buffer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SlotSizing {
    /// Every block is `bytes` long (alltoall/allgather blocks, packets, a whole buffer).
    Uniform {
        /// Bytes per block.
        bytes: u64,
    },
    /// MPICH scatter pieces (docs/collectives.md §5): block `i` is bytes
    /// `[i·piece, min((i+1)·piece, total))` of a `total`-byte buffer.
    Pieces {
        /// Buffer size in bytes.
        total: u64,
        /// Piece size `ceil(total / n)`.
        piece: u64,
    },
    /// Ring-allreduce chunks (docs/collectives.md §4): with `S` slots, chunk `c` holds
    /// elements `[floor(c·L/S), floor((c+1)·L/S))` of an `L`-element vector.
    Chunks {
        /// Vector length `L` in elements.
        elements: u64,
        /// Bytes per element.
        elem_bytes: u32,
    },
}

/// A buffer of `slots` blocks and their sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DataLayout {
    /// Number of blocks.
    pub slots: u32,
    /// Block sizes.
    pub sizing: SlotSizing,
}

impl DataLayout {
    /// A buffer of `slots` blocks of `bytes` each.
    pub const fn uniform(slots: u32, bytes: u64) -> Self {
        DataLayout {
            slots,
            sizing: SlotSizing::Uniform { bytes },
        }
    }

    /// Byte offset of the start of block `i` (`i ≤ slots`), for contiguous layouts.
    fn offset(&self, i: u32) -> u64 {
        let i = i.min(self.slots) as u64;
        match self.sizing {
            SlotSizing::Uniform { bytes } => i.saturating_mul(bytes),
            SlotSizing::Pieces { total, piece } => i.saturating_mul(piece).min(total),
            SlotSizing::Chunks {
                elements,
                elem_bytes,
            } => {
                let s = self.slots.max(1) as u128;
                ((i as u128 * elements as u128 / s) as u64).saturating_mul(elem_bytes as u64)
            }
        }
    }

    /// Size in bytes of the blocks `start .. start + len`.
    fn range_bytes(&self, start: u32, len: u32) -> u64 {
        let e = start.saturating_add(len);
        self.offset(e).saturating_sub(self.offset(start.min(e)))
    }

    /// Bytes of the whole buffer (all `slots` blocks), or `None` when that does not fit in
    /// 64 bits. Every message carries a subset of the blocks, so when this is `Some` no
    /// message size saturates.
    pub fn total_bytes(&self) -> Option<u64> {
        match self.sizing {
            SlotSizing::Uniform { bytes } => (self.slots as u64).checked_mul(bytes),
            SlotSizing::Pieces { total, .. } => Some(total),
            SlotSizing::Chunks {
                elements,
                elem_bytes,
            } => elements.checked_mul(elem_bytes as u64),
        }
    }

    /// Payload size in bytes of a message carrying `blocks`; saturates at `u64::MAX` when
    /// the layout's [`DataLayout::total_bytes`] does not fit in 64 bits (never wraps).
    pub fn bytes(&self, blocks: Blocks) -> u64 {
        match blocks {
            Blocks::All => self.range_bytes(0, self.slots),
            Blocks::Single(i) => self.range_bytes(i, 1),
            Blocks::Range { start, len } => self.range_bytes(start, len),
            Blocks::TwoRanges(a, b) => self
                .range_bytes(a.start, a.len)
                .saturating_add(self.range_bytes(b.start, b.len)),
            Blocks::BitMask { .. } => match self.sizing {
                SlotSizing::Uniform { bytes } => {
                    (blocks.count(self.slots) as u64).saturating_mul(bytes)
                }
                _ => {
                    let mut sum = 0u64;
                    blocks.for_each(self.slots, |i| {
                        sum = sum.saturating_add(self.range_bytes(i, 1))
                    });
                    sum
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn collect(b: Blocks, slots: u32) -> Vec<u32> {
        let mut v = Vec::new();
        b.for_each(slots, |i| v.push(i));
        v
    }

    #[test]
    fn bitmask_matches_definition() {
        for n in 0..70u32 {
            for bit in 0..8u8 {
                let naive: Vec<u32> = (1..n).filter(|i| i & (1 << bit) != 0).collect();
                assert_eq!(
                    collect(Blocks::BitMask { bit }, n),
                    naive,
                    "n={n} bit={bit}"
                );
                assert_eq!(bitmask_count(n, bit) as usize, naive.len());
            }
        }
        // Power of two n: every step carries n/2 blocks (spec §3).
        assert_eq!(bitmask_count(16, 0), 8);
        assert_eq!(bitmask_count(16, 3), 8);
    }

    #[test]
    fn complements() {
        assert_eq!(
            collect(Blocks::outside(Span::new(3, 2), 8), 8),
            [0, 1, 2, 5, 6, 7]
        );
        assert_eq!(
            collect(Blocks::outside(Span::new(0, 8), 8), 8),
            [] as [u32; 0]
        );
        assert_eq!(
            collect(Blocks::range_minus(Span::new(4, 4), Span::new(5, 2)), 16),
            [4, 7]
        );
        assert_eq!(
            Blocks::range_minus(Span::new(4, 4), Span::new(4, 4)).count(16),
            0
        );
    }

    #[test]
    fn sizes() {
        // 97 bytes over 16 ranks: piece 7, 14 pieces (the last one 6 bytes).
        let l = DataLayout {
            slots: 14,
            sizing: SlotSizing::Pieces {
                total: 97,
                piece: 7,
            },
        };
        assert_eq!(l.bytes(Blocks::All), 97);
        assert_eq!(l.bytes(Blocks::Single(13)), 6);
        assert_eq!(l.bytes(Blocks::Range { start: 12, len: 4 }), 13);
        // 10 elements of 4 bytes over 3 chunks: 3, 3, 4 elements.
        let c = DataLayout {
            slots: 3,
            sizing: SlotSizing::Chunks {
                elements: 10,
                elem_bytes: 4,
            },
        };
        assert_eq!(c.bytes(Blocks::Single(0)), 12);
        assert_eq!(c.bytes(Blocks::Single(2)), 16);
        assert_eq!(
            DataLayout::uniform(8, 5).bytes(Blocks::BitMask { bit: 1 }),
            20
        );
    }
}
