//! Random swap and randomize (docs/mapping.md §5).

use crate::mapping::ga::Address;
use crate::rng::Rng;

/// Random swap: exchanges the logical addresses of two distinct random physical positions.
pub fn random_swap(gene: &mut [Address], rng: &mut Rng) {
    if let Some((a, b)) = rng.distinct_pair(gene.len()) {
        gene.swap(a, b);
    }
}

/// Randomize: replaces the gene by a fresh uniformly random permutation of `0..N`.
pub fn randomize(gene: &mut [Address], rng: &mut Rng) {
    for (i, g) in gene.iter_mut().enumerate() {
        *g = i as Address;
    }
    rng.shuffle(gene);
}
