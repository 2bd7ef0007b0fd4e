//! GA mutation operators on genes (docs/mapping.md §5). Every operator only exchanges entries
//! of the gene, so a permutation stays a permutation.

mod box_swap;
mod line_swap;
mod neighbour_swap;
mod random_swap;

pub use box_swap::box_swap;
pub use line_swap::line_swap;
pub use neighbour_swap::{neighbour_swap, NeighbourPick};
pub use random_swap::{random_swap, randomize};

/// Retries when drawing a second, non-overlapping segment or box.
pub(crate) const PLACEMENT_ATTEMPTS: u32 = 64;

/// The five mutation types of \[GA\] Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// Swap the addresses of two distinct random positions.
    RandomSwap,
    /// Swap two straight segments element-wise (optionally mirrored / rotated).
    LineSwap,
    /// Swap two boxes element-wise under a dihedral transform.
    BoxSwap,
    /// Move a far destination next to its source.
    NeighbourSwap,
    /// Replace the gene by a fresh random permutation.
    Randomize,
}

impl Mutation {
    /// All types, in the column order of \[GA\] Table 1 (the index of
    /// [`super::VariantSpec::weights`]).
    pub const ALL: [Mutation; 5] = [
        Mutation::RandomSwap,
        Mutation::LineSwap,
        Mutation::BoxSwap,
        Mutation::NeighbourSwap,
        Mutation::Randomize,
    ];
}
