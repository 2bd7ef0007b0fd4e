//! Line swap (docs/mapping.md §5, parameters are project choices).

use super::PLACEMENT_ATTEMPTS;
use crate::mapping::ga::{Address, Grid};
use crate::rng::Rng;

/// A straight run of `len` positions from `(x, y)`, horizontal or vertical, wrapping around.
#[derive(Clone, Copy)]
struct Segment {
    x: u32,
    y: u32,
    vertical: bool,
}

impl Segment {
    fn random(grid: Grid, vertical: bool, rng: &mut Rng) -> Self {
        let n = grid.side() as u64;
        Segment {
            x: rng.below(n) as u32,
            y: rng.below(n) as u32,
            vertical,
        }
    }

    fn at(&self, grid: Grid, t: u32) -> usize {
        if self.vertical {
            grid.pos(self.x, self.y + t)
        } else {
            grid.pos(self.x + t, self.y)
        }
    }
}

/// Line swap: picks a length `L` uniform in `1..=n/2` and two non-overlapping straight
/// segments of `L` positions (rows or columns, wrap-around allowed) and swaps them
/// element-wise. With probability 1/2 the second segment runs in the other orientation (90°
/// rotation) and independently with probability 1/2 it is traversed backwards (mirror).
///
/// Returns `false` (gene unchanged) if no disjoint second segment was found in a bounded
/// number of draws.
pub fn line_swap(gene: &mut [Address], grid: Grid, rng: &mut Rng) -> bool {
    if gene.len() != grid.nodes() {
        return false;
    }
    let half = (grid.side() / 2).max(1) as u64;
    let len = 1 + rng.below(half) as u32;
    let first_vertical = rng.below(2) == 1;
    let rotate = rng.below(2) == 1;
    let mirror = rng.below(2) == 1;
    let first = Segment::random(grid, first_vertical, rng);
    for _ in 0..PLACEMENT_ATTEMPTS {
        let second = Segment::random(grid, first_vertical != rotate, rng);
        let overlap = (0..len).any(|t| (0..len).any(|u| first.at(grid, t) == second.at(grid, u)));
        if overlap {
            continue;
        }
        for t in 0..len {
            let u = if mirror { len - 1 - t } else { t };
            gene.swap(first.at(grid, t), second.at(grid, u));
        }
        return true;
    }
    false
}
