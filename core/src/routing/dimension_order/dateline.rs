//! Dateline virtual channels on the rings of a torus (docs/routing.md §2).
//!
//! Every dimension ring has a dateline on its wrap-around link (between coordinate `k - 1`
//! and 0). A packet enters each dimension on VC0; after it has crossed the dateline of that
//! dimension (in either direction) its further hops in the dimension use VC1, and the VC
//! resets to 0 when it turns into the next dimension. The wrap-around hop itself is still
//! taken on the VC the packet had before it (VC0): the switch happens *after* the crossing.
//!
//! The rule needs the packet's history — whether it already crossed the dateline of its
//! current dimension — which a router knows from the input channel and VC of the packet.
//! Here that history lives in [`PacketState::phase`]: bits 0–6 hold the dimension of the
//! last hop plus one (0 before the first hop), bit 7 is set once the packet crossed the
//! dateline of that dimension. Because the VC depends on where the packet came from, it
//! is not a function of (switch, destination) and cannot be stored in a forwarding table:
//! tables hold ports only, and [`DatelineVcs`] adds the VCs hop by hop to any port routing
//! (e.g. a [`TableRouting`](crate::routing::TableRouting) compiled from torus DOR).
//!
//! Why it is deadlock-free with dimension-order routes (each dimension traversed in one
//! direction, fewer than `k` hops): on VC0 the wrap-around channel is never followed by
//! another channel of its ring, and on VC1 the wrap-around channel is never used, so
//! neither VC has a dependency cycle around a ring; dependencies between dimensions go from
//! lower to higher dimensions only.

use crate::error::InvalidParam;
use crate::topology::{PortIndex, SwitchId, TerminalId, Torus};

use crate::routing::error::RoutingError;
use crate::routing::{Hop, PacketState, Routing, Vc};

/// Number of virtual channels the dateline rule uses (VC0 and VC1).
pub const DATELINE_VCS: u8 = 2;

/// Bit of [`PacketState::phase`] set once the packet crossed the dateline of the
/// dimension of its last hop.
pub const CROSSED: u8 = 0x80;

/// Bits of [`PacketState::phase`] holding the dimension of the last hop plus one.
pub const DIM_MASK: u8 = 0x7f;

/// One hop along a dimension ring: dimension `dim` (size `k`), leaving coordinate `x`,
/// forward (`+`) or backward (`-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RingHop {
    /// Dimension of the hop.
    pub dim: usize,
    /// `true` for the `+` direction.
    pub forward: bool,
    /// Coordinate of the switch the hop leaves, in dimension `dim`.
    pub x: u32,
    /// Size `k` of the dimension.
    pub k: u32,
}

impl RingHop {
    /// Whether the hop takes the wrap-around link (from `k - 1` forward, or from 0
    /// backward), i.e. crosses the dateline.
    #[inline]
    pub fn wraps(&self) -> bool {
        if self.forward {
            self.x.wrapping_add(1) == self.k
        } else {
            self.x == 0
        }
    }
}

/// VC of `hop` under the dateline rule (docs/routing.md §2), given the packet's `state`:
/// VC1 iff the packet already crossed the dateline of `hop.dim` and has not turned since.
/// Records the hop in `state` (`phase` as described in the module docs, `vc` = the VC).
#[inline]
pub fn dateline_vc(hop: RingHop, state: &mut PacketState) -> Vc {
    // At most 16 dimensions (topology limit), so `dim + 1` fits in the 7 low bits.
    let tag = (hop.dim as u8).wrapping_add(1) & DIM_MASK;
    let crossed_before = state.phase & DIM_MASK == tag && state.phase & CROSSED != 0;
    state.phase = tag
        | if crossed_before || hop.wraps() {
            CROSSED
        } else {
            0
        };
    let vc = crossed_before as Vc;
    state.vc = vc;
    vc
}

/// VC of the hop leaving switch `at` of `torus` on network port `port` under the dateline
/// rule ([`dateline_vc`]); records the hop in `state`. Fails with
/// [`RoutingError::NotALink`] when `port` is not a network port of the torus or `at` is
/// out of range.
pub fn dateline_hop(
    torus: &Torus,
    at: SwitchId,
    port: PortIndex,
    state: &mut PacketState,
) -> Result<Vc, RoutingError> {
    let dim = (port / 2) as usize;
    let (Some(k), Some(x)) = (torus.radices().get(dim).copied(), torus.coord(at, dim)) else {
        return Err(RoutingError::NotALink { switch: at, port });
    };
    let hop = RingHop {
        dim,
        forward: port.is_multiple_of(2),
        x,
        k,
    };
    Ok(dateline_vc(hop, state))
}

/// Any port routing on a torus with dateline VCs added hop by hop (docs/routing.md §2).
///
/// The inner routing chooses the ports (its VCs are ignored) and must leave
/// [`PacketState::phase`] alone — [`TableRouting`](crate::routing::TableRouting) and the one-VC
/// algorithms do. Deadlock freedom holds for dimension-order routes (module docs); use
/// it with tables compiled from [`TorusDor`](crate::routing::dimension_order::torus::TorusDor).
#[derive(Clone, Copy, Debug)]
pub struct DatelineVcs<'a, R> {
    torus: &'a Torus,
    inner: R,
}

impl<'a, R: Routing> DatelineVcs<'a, R> {
    /// Dateline VCs over `inner` on `torus`. A mesh has no wrap-around links, hence no
    /// datelines: it is rejected ([`RoutingError::Invalid`]).
    pub fn new(torus: &'a Torus, inner: R) -> Result<Self, RoutingError> {
        if !torus.wraps() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "torus",
                value: 0,
                rule: "dateline VCs need a torus (wrap-around links); a mesh has no dateline",
            }));
        }
        Ok(DatelineVcs { torus, inner })
    }

    /// The routing that chooses the ports.
    pub fn inner(&self) -> &R {
        &self.inner
    }
}

impl<R: Routing> Routing for DatelineVcs<'_, R> {
    fn num_vcs(&self) -> u8 {
        DATELINE_VCS
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        let mut st = self.inner.inject(src, dst)?;
        st.phase = 0;
        st.vc = 0;
        Ok(st)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        match self.inner.next_hop(at, state, dst)? {
            Hop::Forward { port, .. } => {
                let vc = dateline_hop(self.torus, at, port, state)?;
                Ok(Hop::Forward { port, vc })
            }
            eject => Ok(eject),
        }
    }
}
