//! Box swap (docs/mapping.md §5, parameters are project choices).

use super::PLACEMENT_ATTEMPTS;
use crate::mapping::ga::{Address, Grid};
use crate::rng::Rng;

/// Whether the cyclic intervals `[a, a+len)` and `[b, b+len)` of `Z_n` intersect
/// (`len < n`).
fn cyclic_overlap(a: u32, b: u32, len: u32, n: u32) -> bool {
    (b + n - a) % n < len || (a + n - b) % n < len
}

/// Box swap: picks `w × h` (`w`, `h` uniform in `1..=n/2`) and a random element of the
/// dihedral group (rotation by 0/90/180/270°, optional mirror); a quarter-turn forces a square
/// box (`h = w`). Two non-overlapping boxes (wrap-around allowed) are swapped element-wise,
/// cell `(i, j)` of the first with the transformed cell of the second.
///
/// Returns `false` (gene unchanged) if no disjoint second box was found in a bounded number
/// of draws.
pub fn box_swap(gene: &mut [Address], grid: Grid, rng: &mut Rng) -> bool {
    if gene.len() != grid.nodes() {
        return false;
    }
    let n = grid.side() as u32;
    let half = (n / 2).max(1) as u64;
    let quarter_turns = rng.below(4) as u32;
    let mirror = rng.below(2) == 1;
    let w = 1 + rng.below(half) as u32;
    let h = if quarter_turns % 2 == 1 {
        w
    } else {
        1 + rng.below(half) as u32
    };
    let (x1, y1) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
    for _ in 0..PLACEMENT_ATTEMPTS {
        let (x2, y2) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        if cyclic_overlap(x1, x2, w, n) && cyclic_overlap(y1, y2, h, n) {
            continue;
        }
        for j in 0..h {
            for i in 0..w {
                let mi = if mirror { w - 1 - i } else { i };
                let (ti, tj) = match quarter_turns {
                    0 => (mi, j),
                    1 => (w - 1 - j, mi),
                    2 => (w - 1 - mi, h - 1 - j),
                    _ => (j, h - 1 - mi),
                };
                gene.swap(grid.pos(x1 + i, y1 + j), grid.pos(x2 + ti, y2 + tj));
            }
        }
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::cyclic_overlap;

    #[test]
    fn cyclic_intervals() {
        assert!(cyclic_overlap(0, 3, 4, 8));
        assert!(!cyclic_overlap(0, 4, 4, 8));
        assert!(cyclic_overlap(6, 1, 4, 8)); // 6,7,0,1 vs 1..
        assert!(!cyclic_overlap(6, 2, 4, 8));
        assert!(cyclic_overlap(2, 6, 4, 8) == cyclic_overlap(6, 2, 4, 8));
    }
}
