//! The simulator's destination patterns by name: what `traffic=` accepts and how a
//! configuration prints them (docs/booksim.md §3).

#[cfg(doc)]
use jumpnet_core::traffic::DestPattern;
use serde::Serialize;

/// Destination pattern of the simulator: a name for one of core's [`DestPattern`]s, which
/// define them. The variant names are how configurations print (JSON, reports);
/// [`Pattern::WORDS`] lists what `traffic=` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Pattern {
    /// [`DestPattern::Uniform`].
    Uniform,
    /// [`DestPattern::BitComplement`].
    BitComplement,
    /// [`DestPattern::BitReversal`].
    BitReversal,
    /// [`DestPattern::BitRotation`].
    BitRotation,
    /// [`DestPattern::Shuffle`].
    Shuffle,
    /// [`DestPattern::Transpose`].
    Transpose,
    /// [`DestPattern::BookSimTornado`] (BookSim2 `tornado`; the word `torn` is accepted for
    /// it too).
    Tornado,
    /// [`DestPattern::Neighbour`] (BookSim2 `neighbor`).
    Neighbour,
    /// [`DestPattern::Permutation`], drawn once per run: from the seed (jumpnet's draw), or
    /// BookSim2's for `extras.perm_seed` (docs/booksim.md §3.8).
    RandomPermutation,
    /// [`DestPattern::Hotspot`]: `hotspot_fraction` of the packets go to `hotspot_node`.
    Hotspot,
    /// [`DestPattern::Diagonal`] (BookSim2 `diagonal`).
    Diagonal,
    /// [`DestPattern::Asymmetric`] (BookSim2 `asymmetric`).
    Asymmetric,
    /// [`DestPattern::Taper64`] (BookSim2 `taper64`).
    Taper64,
    /// [`DestPattern::BadDragon`] with `extras.bad_dragon_k` (BookSim2 `bad_dragon`).
    BadDragon,
    /// [`DestPattern::Hotspots`] with `extras.hotspots` (BookSim2 `hotspot`).
    Hotspots,
}

impl Pattern {
    /// The words `traffic=` accepts for each pattern (the first is the one error messages
    /// list).
    pub const WORDS: [(Pattern, &'static [&'static str]); 15] = [
        (Pattern::Uniform, &["uniform"]),
        (
            Pattern::BitComplement,
            &["bitcomp", "bit-complement", "bcmp"],
        ),
        (Pattern::BitReversal, &["bitrev", "bit-reversal", "brev"]),
        (Pattern::BitRotation, &["bitrot", "bit-rotation", "brot"]),
        (Pattern::Shuffle, &["shuffle", "shfl"]),
        (Pattern::Transpose, &["transpose", "trns"]),
        (Pattern::Tornado, &["tornado", "torn"]),
        (Pattern::Neighbour, &["neighbor", "neighbour"]),
        (
            Pattern::RandomPermutation,
            &["randperm", "random-permutation"],
        ),
        (Pattern::Hotspot, &["hotspot"]),
        (Pattern::Diagonal, &["diagonal"]),
        (Pattern::Asymmetric, &["asymmetric"]),
        (Pattern::Taper64, &["taper64"]),
        (Pattern::BadDragon, &["bad_dragon"]),
        (Pattern::Hotspots, &["hotspots"]),
    ];

    /// The first word of every pattern, as `traffic=` errors list them.
    pub(super) const ALLOWED: &'static str =
        "uniform, bitcomp, bitrev, bitrot, shuffle, transpose, tornado, neighbor, randperm, hotspot, \
         diagonal, asymmetric, taper64, bad_dragon, hotspots";

    /// The pattern `word` names.
    pub fn from_word(word: &str) -> Option<Pattern> {
        Self::WORDS
            .iter()
            .find(|(_, words)| words.contains(&word))
            .map(|&(p, _)| p)
    }
}
