//! Per-generation counts of the GA's mutants (docs/mapping.md §5 "Why the GA stalled"): how
//! many mutants each operator made, how many came out identical to their parent, and how many
//! ranked better than or equal to their parent. They cost a few counters per mutant and show
//! whether a population still moves.

use super::Mutation;

/// Mutant counts of the last [`super::Ga::step`] (all zero after [`super::Ga::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StepStats {
    /// Mutants made, per mutation type (indexed like [`Mutation::ALL`]).
    pub made: [u32; 5],
    /// Mutants identical to their parent (the operator found nothing to do), per type.
    pub unchanged: [u32; 5],
    /// Mutants ranked strictly better than their parent.
    pub better: u32,
    /// Mutants with the same ranking key as their parent (identical ones included).
    pub equal: u32,
}

impl StepStats {
    /// Index of `kind` in [`Mutation::ALL`].
    pub fn index(kind: Mutation) -> usize {
        Mutation::ALL.iter().position(|&m| m == kind).unwrap_or(0)
    }

    /// Records one mutant of type `kind`; `changed` is false when it equals its parent.
    pub fn record(&mut self, kind: Mutation, changed: bool) {
        let i = Self::index(kind);
        if let Some(m) = self.made.get_mut(i) {
            *m += 1;
        }
        if !changed {
            if let Some(u) = self.unchanged.get_mut(i) {
                *u += 1;
            }
        }
    }

    /// All mutants made.
    pub fn mutants(&self) -> u32 {
        self.made.iter().sum()
    }

    /// All mutants identical to their parent.
    pub fn unchanged_total(&self) -> u32 {
        self.unchanged.iter().sum()
    }
}
