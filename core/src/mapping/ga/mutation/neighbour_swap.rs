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
    /// Flows not yet between neighbours, as [`NeighbourPick::NotAdjacent`], but the new
    /// position is drawn strictly closer to the source than the destination was (distance
    /// `1..=min(r, d − 1)` for a flow of distance `d`): a flow farther than `r` moves as
    /// with the other rules, and a near flow never moves away (with `r = 3` the
    /// `not-adjacent` rule can move a 2-hop flow to 3 hops).
    Closer,
}

impl NeighbourPick {
    /// Every rule, default first.
    pub const ALL: [NeighbourPick; 3] = [
        NeighbourPick::NotAdjacent,
        NeighbourPick::BeyondRadius,
        NeighbourPick::Closer,
    ];

    /// Name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            NeighbourPick::NotAdjacent => "not-adjacent",
            NeighbourPick::BeyondRadius => "beyond-radius",
            NeighbourPick::Closer => "closer",
        }
    }

    /// Rule with the given name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Flows farther than this many hops are eligible, for radius `radius`.
    pub fn threshold(self, radius: u32) -> u32 {
        match self {
            NeighbourPick::NotAdjacent | NeighbourPick::Closer => 1,
            NeighbourPick::BeyondRadius => radius,
        }
    }

    /// Largest distance from the source at which the new position of a flow of distance
    /// `d` is drawn, for radius `radius`.
    pub fn target_radius(self, radius: u32, d: u32) -> u32 {
        match self {
            NeighbourPick::Closer => radius.min(d.saturating_sub(1)),
            NeighbourPick::NotAdjacent | NeighbourPick::BeyondRadius => radius,
        }
    }
}

/// Neighbouring swap with radius `r` and rule `rule` ([`NeighbourPick`]): picks uniformly a
/// source→destination flow of the applied `patterns` whose physical distance `d` exceeds
/// `rule.threshold(r)` (1 or `r`), then uniformly a physical position `q` at distance
/// `1..=rule.target_radius(r, d)` from the source, and swaps the logical addresses at `q` and
/// at the destination — moving the destination next to its source.
///
/// `distance` measures physical positions; `inverse` (N entries) is scratch for `Γ⁻¹`.
/// Returns `false` (gene unchanged) when no flow is eligible, no position lies within the
/// target radius of the source, or the drawn position already holds the destination.
pub fn neighbour_swap<D: DistanceOracle + ?Sized>(
    gene: &mut [Address],
    patterns: PatternSet<'_>,
    distance: &D,
    (radius, rule): (u32, NeighbourPick),
    inverse: &mut [Address],
    rng: &mut Rng,
) -> bool {
    let pick_above = rule.threshold(radius);
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

    let reach = rule.target_radius(radius, distance.distance(ps as u32, pd as u32));
    let near = |q: usize| q != ps as usize && distance.distance(ps as u32, q as u32) <= reach;
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
