//! The GA variants S00–S99 of \[GA\] Table 1 (docs/mapping.md §5).

use super::Mutation;

/// Radius `r` of the neighbouring swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Radius {
    /// `r = N_p`, the number of applied patterns (also the project choice for S01/S02).
    Patterns,
    /// A fixed radius.
    Fixed(u16),
    /// `r` uniform in `1..=n` per mutation (S04; `n` = grid side, project choice).
    Random,
}

/// Mutation mix and selection pressure of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VariantSpec {
    /// Share of each mutation type in permille, indexed like [`Mutation::ALL`]; sums to 1000.
    pub weights: [u16; 5],
    /// Survivor ratio in permille of the population (0 = random search).
    pub survivors_permille: u16,
    /// Radius of neighbouring swaps.
    pub radius: Radius,
}

impl VariantSpec {
    /// The mutation type selected by a uniform draw `u` in `0..1000`.
    pub fn mutation_for(&self, u: u16) -> Mutation {
        let mut acc = 0u16;
        for (w, kind) in self.weights.iter().zip(Mutation::ALL) {
            acc += w;
            if u < acc {
                return kind;
            }
        }
        Mutation::Randomize
    }
}

/// A row of \[GA\] Table 1 (shares: random / line / box / neighbouring swap / randomize).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 37.5 / 25 / 12.5 / 0 / 25 %, 25 % survivors.
    S00,
    /// 12.5 / 12.5 / 12.5 / 37.5 / 25 %, 25 % survivors, `r = N_p` (project choice).
    S01,
    /// 20 % each, 25 % survivors, `r = N_p` (project choice).
    S02,
    /// 75 % neighbouring, 25 % randomize, 25 % survivors, `r = N_p`.
    S03,
    /// 75 % neighbouring, 25 % randomize, 25 % survivors, `r` random.
    S04,
    /// 100 % random swap, 25 % survivors.
    S05,
    /// 100 % neighbouring, 25 % survivors, `r = 2`.
    S10,
    /// 100 % neighbouring, 50 % survivors, `r = 2`.
    S11,
    /// 100 % neighbouring, 12.5 % survivors, `r = 2`.
    S12,
    /// 100 % neighbouring, 25 % survivors, `r = N_p`.
    S20,
    /// 100 % neighbouring, 50 % survivors, `r = N_p`.
    S21,
    /// 100 % neighbouring, 12.5 % survivors, `r = N_p`.
    S22,
    /// Random search: every gene redrawn each generation, no survivors.
    S99,
}

impl Variant {
    /// All variants in table order.
    pub const ALL: [Variant; 13] = [
        Variant::S00,
        Variant::S01,
        Variant::S02,
        Variant::S03,
        Variant::S04,
        Variant::S05,
        Variant::S10,
        Variant::S11,
        Variant::S12,
        Variant::S20,
        Variant::S21,
        Variant::S22,
        Variant::S99,
    ];

    /// Symbol as in \[GA\] (`"S00"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Variant::S00 => "S00",
            Variant::S01 => "S01",
            Variant::S02 => "S02",
            Variant::S03 => "S03",
            Variant::S04 => "S04",
            Variant::S05 => "S05",
            Variant::S10 => "S10",
            Variant::S11 => "S11",
            Variant::S12 => "S12",
            Variant::S20 => "S20",
            Variant::S21 => "S21",
            Variant::S22 => "S22",
            Variant::S99 => "S99",
        }
    }

    /// Variant with the given symbol (case-insensitive `s`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// The variant's row of \[GA\] Table 1: percentages of random / line / box / neighbouring
    /// swap / randomize (in permille), survivor ratio and neighbouring radius.
    pub fn spec(self) -> VariantSpec {
        use Radius::{Fixed, Patterns, Random};
        let (weights, survivors_permille, radius) = match self {
            Variant::S00 => ([375, 250, 125, 0, 250], 250, Patterns),
            Variant::S01 => ([125, 125, 125, 375, 250], 250, Patterns),
            Variant::S02 => ([200, 200, 200, 200, 200], 250, Patterns),
            Variant::S03 => ([0, 0, 0, 750, 250], 250, Patterns),
            Variant::S04 => ([0, 0, 0, 750, 250], 250, Random),
            Variant::S05 => ([1000, 0, 0, 0, 0], 250, Patterns),
            Variant::S10 => ([0, 0, 0, 1000, 0], 250, Fixed(2)),
            Variant::S11 => ([0, 0, 0, 1000, 0], 500, Fixed(2)),
            Variant::S12 => ([0, 0, 0, 1000, 0], 125, Fixed(2)),
            Variant::S20 => ([0, 0, 0, 1000, 0], 250, Patterns),
            Variant::S21 => ([0, 0, 0, 1000, 0], 500, Patterns),
            Variant::S22 => ([0, 0, 0, 1000, 0], 125, Patterns),
            Variant::S99 => ([0, 0, 0, 0, 1000], 0, Patterns),
        };
        VariantSpec {
            weights,
            survivors_permille,
            radius,
        }
    }
}
