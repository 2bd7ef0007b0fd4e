//! Distance and path oracles: how mapping objectives see the network (spec/mapping.md §2).
//!
//! The mapping code never walks routes itself. Hop objectives ask a [`DistanceOracle`] (the
//! host backs it with an all-pairs `u16` matrix, [`DistanceMatrix`], or with arithmetic
//! distances of a structured topology); contention objectives and the GA's duration proxy ask
//! a [`PathOracle`] for the directed channels of the deterministic route.

use super::{MappingError, NodeId};

/// Dense id of a directed channel, `0..PathOracle::num_channels()`.
pub type ChannelId = u32;

/// Minimal-path distances between nodes (routing.md §1).
pub trait DistanceOracle {
    /// Hops from `a` to `b` (0 when `a == b`).
    fn distance(&self, a: NodeId, b: NodeId) -> u32;
}

impl<T: DistanceOracle + ?Sized> DistanceOracle for &T {
    #[inline]
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        (**self).distance(a, b)
    }
}

/// The deterministic route between two nodes as a list of directed channels.
///
/// Contract: `for_each_channel(a, b, f)` calls `f` once per channel of the route from `a` to
/// `b`, in order, with ids below [`PathOracle::num_channels`], and the same list every time.
/// Objectives skip ids outside the range rather than fail.
pub trait PathOracle {
    /// Number of directed channels `C`; channel ids are dense in `0..C`.
    fn num_channels(&self) -> u32;
    /// Calls `f(channel)` for every channel on the route `a → b`.
    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, f: F);

    /// Route length in channels.
    fn path_len(&self, a: NodeId, b: NodeId) -> u32 {
        let mut k = 0;
        self.for_each_channel(a, b, |_| k += 1);
        k
    }
}

impl<T: PathOracle + ?Sized> PathOracle for &T {
    #[inline]
    fn num_channels(&self) -> u32 {
        (**self).num_channels()
    }
    #[inline]
    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, f: F) {
        (**self).for_each_channel(a, b, f)
    }
}

/// Distances read off a path oracle (route length), for networks whose distance oracle is the
/// routing itself (e.g. dimension-order routing on a torus).
#[derive(Clone, Copy, Debug)]
pub struct PathLength<P>(pub P);

impl<P: PathOracle> DistanceOracle for PathLength<P> {
    #[inline]
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        self.0.path_len(a, b)
    }
}

/// All-pairs distances in a row-major `n × n` matrix of `u16` (routing.md §1 storage).
#[derive(Clone, Copy, Debug)]
pub struct DistanceMatrix<'a> {
    n: u32,
    dist: &'a [u16],
}

impl<'a> DistanceMatrix<'a> {
    /// Wraps `dist` (`dist[a·n + b]` = hops from `a` to `b`, length exactly `n²`).
    pub fn new(n: u32, dist: &'a [u16]) -> Result<Self, MappingError> {
        let needed = n as u64 * n as u64;
        if dist.len() as u64 != needed {
            return Err(MappingError::Buffer {
                what: "distance matrix (n·n entries)",
                needed,
                provided: dist.len() as u64,
            });
        }
        Ok(DistanceMatrix { n, dist })
    }

    /// Number of nodes.
    pub fn n(&self) -> u32 {
        self.n
    }
}

impl DistanceOracle for DistanceMatrix<'_> {
    /// Pairs outside the matrix answer `u16::MAX` (the matrix's "unreachable").
    #[inline]
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        if a >= self.n || b >= self.n {
            return u16::MAX as u32;
        }
        let i = a as usize * self.n as usize + b as usize;
        self.dist.get(i).copied().unwrap_or(u16::MAX) as u32
    }
}
