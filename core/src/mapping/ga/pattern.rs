//! Synthetic traffic patterns on logical addresses (docs/mapping.md §5 table, after
//! Dally & Towles): \[GA\]'s names for them and its two random patterns. The deterministic
//! ones are core's destination patterns ([`DestPattern`], computed by
//! [`Traffic::dest`](crate::traffic::Traffic::dest)) on the `n × n` grid as an `n`-ary
//! 2-cube.

use super::{Address, Grid};
use crate::error::{CapacityError, InvalidParam};
use crate::mapping::MappingError;
use crate::rng::Rng;
use crate::traffic::{DestPattern, Traffic};

/// Destination-table entry of a node that sends nothing (its destination is itself).
pub const NO_DEST: Address = Address::MAX;

/// The eight traffic patterns of \[GA\] (docs/mapping.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrafficPattern {
    /// bcmp: `d = s XOR (N−1)`, i.e. `(n−1−x, n−1−y)`.
    BitComplement,
    /// brev: `d_i = s_{b−1−i}`.
    BitReversal,
    /// brot: rotate right by one bit, `d_i = s_{(i+1) mod b}`.
    BitRotation,
    /// shfl: rotate left by one bit, `d_i = s_{(i−1) mod b}`.
    Shuffle,
    /// trns: `d_i = s_{(i+b/2) mod b}`, i.e. `(x, y) ↦ (y, x)`.
    Transpose,
    /// torn: `((x + n/2) mod n, y)` (project choice for "the node whose distance is n/2"):
    /// [`DestPattern::GaTornado`], not BookSim2's tornado ([`DestPattern::BookSimTornado`]).
    Tornado,
    /// rpar: random perfect matching, both partners send to each other.
    RandomPair,
    /// rrng: random unidirectional ring through every node.
    RandomRing,
}

impl TrafficPattern {
    /// All patterns in the order of docs/mapping.md §5.
    pub const ALL: [TrafficPattern; 8] = [
        TrafficPattern::BitComplement,
        TrafficPattern::BitReversal,
        TrafficPattern::BitRotation,
        TrafficPattern::Shuffle,
        TrafficPattern::Transpose,
        TrafficPattern::Tornado,
        TrafficPattern::RandomPair,
        TrafficPattern::RandomRing,
    ];

    /// Short name used in \[GA\] and on the command line (`bcmp`, `brev`, ...).
    pub fn name(self) -> &'static str {
        match self {
            TrafficPattern::BitComplement => "bcmp",
            TrafficPattern::BitReversal => "brev",
            TrafficPattern::BitRotation => "brot",
            TrafficPattern::Shuffle => "shfl",
            TrafficPattern::Transpose => "trns",
            TrafficPattern::Tornado => "torn",
            TrafficPattern::RandomPair => "rpar",
            TrafficPattern::RandomRing => "rrng",
        }
    }

    /// Pattern with the given short name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The destination pattern a deterministic pattern is (`None` for the random ones, which
    /// are drawn here).
    pub fn dest_pattern(self) -> Option<DestPattern> {
        Some(match self {
            TrafficPattern::BitComplement => DestPattern::BitComplement,
            TrafficPattern::BitReversal => DestPattern::BitReversal,
            TrafficPattern::BitRotation => DestPattern::BitRotation,
            TrafficPattern::Shuffle => DestPattern::Shuffle,
            TrafficPattern::Transpose => DestPattern::Transpose,
            TrafficPattern::Tornado => DestPattern::GaTornado,
            TrafficPattern::RandomPair | TrafficPattern::RandomRing => return None,
        })
    }

    /// Whether the pattern is drawn from the PRNG (once per run).
    pub fn is_random(self) -> bool {
        matches!(
            self,
            TrafficPattern::RandomPair | TrafficPattern::RandomRing
        )
    }

    /// Whether the pattern is defined on address bits (needs `n` a power of two).
    pub fn needs_power_of_two(self) -> bool {
        !matches!(
            self,
            TrafficPattern::Tornado | TrafficPattern::RandomPair | TrafficPattern::RandomRing
        )
    }

    /// Writes the destination of every logical source `s` into `dest[s]` ([`NO_DEST`] when it
    /// is `s` itself, project choice) for the `n × n` grid. Random patterns draw from `rng`
    /// and need `scratch` with `N` entries; the others use neither.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::mapping::ga::{Grid, TrafficPattern, NO_DEST};
    /// use jumpnet_core::rng::Rng;
    ///
    /// // On the 8 × 8 grid (position y·8 + x) transpose sends (x, y) to (y, x); the diagonal
    /// // sends nothing.
    /// let grid = Grid::new(8)?;
    /// let mut dest = [0u16; 64];
    /// TrafficPattern::Transpose.fill(grid, &mut Rng::new(0), &mut [], &mut dest)?;
    /// assert_eq!((dest[3 + 8 * 5], dest[9]), (5 + 8 * 3, NO_DEST));
    /// // Bit complement: s XOR 63; tornado: (x + n/2) mod n in the same row.
    /// TrafficPattern::BitComplement.fill(grid, &mut Rng::new(0), &mut [], &mut dest)?;
    /// assert_eq!(dest[5], 58);
    /// TrafficPattern::Tornado.fill(grid, &mut Rng::new(0), &mut [], &mut dest)?;
    /// assert_eq!(dest[6 + 8 * 2], 2 + 8 * 2);
    /// # Ok::<(), jumpnet_core::mapping::MappingError>(())
    /// ```
    pub fn fill(
        self,
        grid: Grid,
        rng: &mut Rng,
        scratch: &mut [Address],
        dest: &mut [Address],
    ) -> Result<(), MappingError> {
        let nodes = grid.nodes();
        CapacityError::check("pattern destination table (N entries)", nodes, dest.len())?;
        let dest = &mut dest[..nodes];
        let n = grid.side() as u32;
        let not_power_of_two = MappingError::Invalid(InvalidParam {
            param: "side",
            value: n as u64,
            rule: "bit-defined traffic patterns need the grid side a power of two",
        });
        if self.needs_power_of_two() && !n.is_power_of_two() {
            return Err(not_power_of_two);
        }
        match self.dest_pattern() {
            Some(pattern) => {
                // The grid is an n-ary 2-cube of n² = 2^b nodes (b even for the bit patterns).
                let traffic =
                    Traffic::new(pattern, nodes as u32, n, 2, &[]).map_err(|_| not_power_of_two)?;
                for (s, slot) in dest.iter_mut().enumerate() {
                    let s = s as u32;
                    // Deterministic patterns do not draw from `rng`.
                    let d = traffic.dest(s, rng);
                    *slot = if d == s { NO_DEST } else { d as Address };
                }
            }
            None => {
                CapacityError::check("random pattern scratch (N entries)", nodes, scratch.len())?;
                let perm = &mut scratch[..nodes];
                for (i, p) in perm.iter_mut().enumerate() {
                    *p = i as Address;
                }
                rng.shuffle(perm);
                dest.fill(NO_DEST);
                if self == TrafficPattern::RandomPair {
                    for pair in perm.chunks_exact(2) {
                        let (a, b) = (pair[0], pair[1]);
                        if let Some(d) = dest.get_mut(a as usize) {
                            *d = b;
                        }
                        if let Some(d) = dest.get_mut(b as usize) {
                            *d = a;
                        }
                    }
                } else {
                    for i in 0..nodes {
                        let (from, to) = (perm[i], perm[(i + 1) % nodes]);
                        if let Some(d) = dest.get_mut(from as usize) {
                            *d = to;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// `k` destination tables of `N` entries each, flattened (`dest[k·N + s]`): the patterns
/// applied together in one GA evaluation.
#[derive(Clone, Copy, Debug)]
pub struct PatternSet<'a> {
    nodes: usize,
    dest: &'a [Address],
}

impl<'a> PatternSet<'a> {
    /// Wraps `dest` (a whole number of tables of `nodes` entries, each entry below `nodes` or
    /// [`NO_DEST`]).
    pub fn new(nodes: usize, dest: &'a [Address]) -> Result<Self, MappingError> {
        if nodes == 0 || !dest.len().is_multiple_of(nodes) {
            return Err(MappingError::Capacity(CapacityError {
                what: "pattern tables (a multiple of N entries)",
                needed: (dest.len() / nodes.max(1) + 1) as u64 * nodes as u64,
                available: dest.len() as u64,
            }));
        }
        if let Some(&bad) = dest.iter().find(|&&d| d != NO_DEST && d as usize >= nodes) {
            return Err(MappingError::AddressOutOfRange {
                address: bad as u64,
                nodes: nodes as u64,
            });
        }
        Ok(PatternSet { nodes, dest })
    }

    /// Number of addresses `N`.
    #[inline]
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Number of patterns `N_p`.
    #[inline]
    pub fn count(&self) -> usize {
        self.dest.len() / self.nodes
    }

    /// Destination table of pattern `i` (empty when out of range).
    pub fn pattern(&self, i: usize) -> &'a [Address] {
        self.dest
            .get(i * self.nodes..(i + 1) * self.nodes)
            .unwrap_or(&[])
    }

    /// Calls `f(pattern, source, destination)` for every flow (entries other than
    /// [`NO_DEST`]), pattern by pattern, sources ascending.
    #[inline]
    pub fn for_each_flow<F: FnMut(usize, Address, Address)>(&self, mut f: F) {
        for (k, table) in self.dest.chunks_exact(self.nodes).enumerate() {
            for (s, &d) in table.iter().enumerate() {
                if d != NO_DEST {
                    f(k, s as Address, d);
                }
            }
        }
    }

    /// Number of flows (source ≠ destination pairs) over all patterns.
    pub fn num_flows(&self) -> u64 {
        self.dest.iter().filter(|&&d| d != NO_DEST).count() as u64
    }
}
