//! Neighbouring swap (docs/mapping.md §5).

use crate::mapping::ga::{Address, PatternSet, NO_DEST};
use crate::mapping::DistanceOracle;
use crate::rng::Rng;

/// Which flows a neighbouring swap may pick (docs/mapping.md §5; \[GA\] does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NeighbourPick {
    /// Flows that are not yet between neighbours (distance above 1), the default: the swap
    /// can still act once every flow is within `r`, so the GA can reach the conflict-free
    /// bound.
    #[default]
    NotAdjacent,
    /// Flows whose distance exceeds the radius `r` (jumpnet's first reading): with `r = 2`
    /// the swap does nothing once every flow is within 2 hops, and the GA stalls there.
    BeyondRadius,
}

impl NeighbourPick {
    /// Both rules, default first.
    pub const ALL: [NeighbourPick; 2] = [NeighbourPick::NotAdjacent, NeighbourPick::BeyondRadius];

    /// Name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            NeighbourPick::NotAdjacent => "not-adjacent",
            NeighbourPick::BeyondRadius => "beyond-radius",
        }
    }

    /// Rule with the given name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Flows farther than this many hops are eligible, for radius `radius`.
    pub fn threshold(self, radius: u32) -> u32 {
        match self {
            NeighbourPick::NotAdjacent => 1,
            NeighbourPick::BeyondRadius => radius,
        }
    }
}

/// Neighbouring swap with radius `r`: picks uniformly a source→destination flow of the applied
/// `patterns` whose physical distance exceeds `pick_above` (1 or `r`, see [`NeighbourPick`]),
/// then uniformly a physical position `q` at distance `1..=r` from the source, and swaps the
/// logical addresses at `q` and at the destination — moving the destination next to its
/// source.
///
/// `distance` measures physical positions; `inverse` (N entries) is scratch for `Γ⁻¹`.
/// Returns `false` (gene unchanged) when no flow is farther than `pick_above`, no position
/// lies within `r` of the source, or the drawn position already holds the destination.
pub fn neighbour_swap<D: DistanceOracle + ?Sized>(
    gene: &mut [Address],
    patterns: PatternSet<'_>,
    distance: &D,
    (radius, pick_above): (u32, u32),
    inverse: &mut [Address],
    rng: &mut Rng,
) -> bool {
    let nodes = gene.len();
    if nodes != patterns.nodes() || inverse.len() < nodes {
        return false;
    }
    let inverse = &mut inverse[..nodes];
    inverse.fill(NO_DEST);
    for (p, &l) in gene.iter().enumerate() {
        if let Some(slot) = inverse.get_mut(l as usize) {
            *slot = p as Address;
        }
    }
    let physical = |l: Address| inverse.get(l as usize).copied().unwrap_or(NO_DEST);
    let far = |s: Address, d: Address| {
        let (ps, pd) = (physical(s), physical(d));
        ps != NO_DEST && pd != NO_DEST && distance.distance(ps as u32, pd as u32) > pick_above
    };

    let mut count = 0u64;
    patterns.for_each_flow(|_, s, d| {
        if far(s, d) {
            count += 1;
        }
    });
    if count == 0 {
        return false;
    }
    let mut pick = rng.below(count);
    let mut chosen = None;
    patterns.for_each_flow(|_, s, d| {
        if chosen.is_none() && far(s, d) {
            if pick == 0 {
                chosen = Some((physical(s), physical(d)));
            } else {
                pick -= 1;
            }
        }
    });
    let Some((ps, pd)) = chosen else {
        return false;
    };

    let near = |q: usize| q != ps as usize && distance.distance(ps as u32, q as u32) <= radius;
    let candidates = (0..nodes).filter(|&q| near(q)).count() as u64;
    if candidates == 0 {
        return false;
    }
    let k = rng.below(candidates) as usize;
    match (0..nodes).filter(|&q| near(q)).nth(k) {
        Some(q) if (pd as usize) < nodes && q != pd as usize => {
            gene.swap(q, pd as usize);
            true
        }
        _ => false,
    }
}
