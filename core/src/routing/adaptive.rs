//! Adaptive routing as candidates + selection (caminos-lib's split of `Routing` and
//! `VirtualChannelPolicy`): at a hop where an adaptive routing has a choice, it writes the
//! candidate outputs into a caller slice ([`Routing::candidates`]); whoever knows the
//! congestion (a simulator's credit counters, a switch's queue lengths) weighs each candidate
//! by the occupancy of the channels it names ([`Candidate::cost`]), picks one and hands it
//! back ([`Routing::commit_candidate`]); [`Routing::next_hop`] then follows the choice.
//! [`Routing::congestion_scope`] says whose channels the candidates name, so a caller knows
//! whether the choice reads state outside the deciding switch.
//!
//! Nothing allocates: a hop has at most [`MAX_CANDIDATES`] candidates, each weighing at most
//! [`MAX_WEIGHED`] channels.
//!
//! [`Routing::candidates`]: crate::routing::Routing::candidates
//! [`Routing::commit_candidate`]: crate::routing::Routing::commit_candidate
//! [`Routing::next_hop`]: crate::routing::Routing::next_hop
//! [`Routing::congestion_scope`]: crate::routing::Routing::congestion_scope

use crate::error::CapacityError;
use crate::routing::error::RoutingError;
use crate::topology::{PortIndex, SwitchId};

/// Most candidates a routing offers at one hop (the length of a caller slice that always
/// suffices).
pub const MAX_CANDIDATES: usize = 4;

/// Most channels one candidate weighs.
pub const MAX_WEIGHED: usize = 2;

/// A channel leaving a switch: the switch and its output port.
pub type OutputChannel = (SwitchId, PortIndex);

/// Whose channels the candidates of a routing weigh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CongestionScope {
    /// No candidates: the routing is oblivious.
    #[default]
    None,
    /// Only output channels of the switch that decides (UGAL-L).
    Local,
    /// Channels of other switches as well (UGAL-G): choosing reads remote state.
    Remote,
}

/// One candidate output of a packet at a switch.
///
/// Its cost under occupancy `q` of its weighed channels (summed) is `q · hops + bias`
/// ([`Candidate::cost`]); the usual selection takes the cheapest candidate, the earlier one on
/// ties, and routings list their preferred (minimal) candidate first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// Output port of the deciding switch: the first hop.
    pub port: PortIndex,
    /// Router-to-router hops of the candidate's whole path.
    pub hops: u32,
    /// Penalty added to the weighed occupancy × hops (favours the other candidates).
    pub bias: u32,
    /// What the routing needs to commit this candidate ([`Routing::commit_candidate`]);
    /// opaque to the caller.
    ///
    /// [`Routing::commit_candidate`]: crate::routing::Routing::commit_candidate
    pub choice: u8,
    weighed: [OutputChannel; MAX_WEIGHED],
    weighed_len: u8,
}

impl Candidate {
    /// A candidate leaving on `port`, `hops` router hops long, weighing `weighed` (at most
    /// [`MAX_WEIGHED`] channels), with penalty `bias` and commit token `choice`; more
    /// channels than fit are a [`RoutingError::Capacity`].
    pub fn new(
        port: PortIndex,
        hops: u32,
        weighed: &[OutputChannel],
        bias: u32,
        choice: u8,
    ) -> Result<Self, RoutingError> {
        CapacityError::check("weighed channels", weighed.len(), MAX_WEIGHED)
            .map_err(RoutingError::Capacity)?;
        let mut w = [(0, 0); MAX_WEIGHED];
        w[..weighed.len()].copy_from_slice(weighed);
        Ok(Candidate {
            port,
            hops,
            bias,
            choice,
            weighed: w,
            weighed_len: weighed.len() as u8,
        })
    }

    /// The channels whose occupancy this candidate weighs.
    pub fn weighed(&self) -> &[OutputChannel] {
        &self.weighed[..usize::from(self.weighed_len).min(MAX_WEIGHED)]
    }

    /// `occupancy · hops + bias`, in `u64` (no overflow): the candidate's cost when its
    /// weighed channels hold `occupancy` flits together.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::routing::adaptive::Candidate;
    ///
    /// // UGAL's comparison: minimal (3 hops, no penalty) behind 10 flits against Valiant
    /// // (5 hops, bias 4) behind 6 flits: 30 ≤ 34, the minimal candidate is cheaper.
    /// let min = Candidate::new(1, 3, &[(0, 1)], 0, 0)?;
    /// let val = Candidate::new(2, 5, &[(0, 2)], 4, 1)?;
    /// assert_eq!((min.cost(10), val.cost(6)), (30, 34));
    /// # Ok::<(), jumpnet_core::routing::RoutingError>(())
    /// ```
    #[inline]
    pub fn cost(&self, occupancy: u32) -> u64 {
        u64::from(occupancy) * u64::from(self.hops) + u64::from(self.bias)
    }
}
