//! Distance and path oracles: how mapping objectives see the network (docs/mapping.md §2).
//!
//! The mapping code never walks routes itself. Hop objectives ask a [`DistanceOracle`]: the
//! host passes the routing module's all-pairs `u16` matrix, [`DistanceMatrix`] (re-exported
//! here, it implements [`DistanceOracle`] directly), or arithmetic distances of a structured
//! topology. Contention objectives and the GA's duration proxy ask a [`PathOracle`] for the
//! directed channels of the deterministic route.

use super::NodeId;

/// Dense id of a directed channel, `0..PathOracle::num_channels()`.
pub type ChannelId = u32;

/// Minimal-path distances between nodes (docs/routing.md §1).
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

/// All-pairs switch distances are the routing module's matrix (docs/routing.md §1 storage):
/// one implementation, computed by BFS ([`DistanceMatrix::compute`]) or wrapped from
/// precomputed rows ([`DistanceMatrix::new`]), and used directly as a [`DistanceOracle`].
pub use crate::routing::DistanceMatrix;

impl DistanceOracle for DistanceMatrix<'_> {
    /// Pairs outside the matrix answer `u16::MAX` (the matrix's "unreachable").
    #[inline]
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        self.get(a, b) as u32
    }
}
