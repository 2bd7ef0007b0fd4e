//! Dimension-order routing on tori and meshes (docs/routing.md §2).
//!
//! Dimensions are resolved in increasing index (dimension 0 first). In a dimension `i` with
//! `x_i != t_i`:
//!
//! * mesh: one hop at a time toward `t_i`;
//! * torus: the shorter way round, `d+ = (t_i - x_i) mod k_i`, `d- = k_i - d+`; `+` if
//!   `d+ < d-`, `-` if `d- < d+`; on a tie (even `k_i`) `+` ([`TieBreak::Plus`], jumpnet's
//!   choice) or a random direction per packet and dimension ([`TieBreak::Random`], BookSim2's
//!   `dim_order` on a torus; the bit `i` of [`PacketState::coin`] decides). A tie only
//!   arises at a packet's first hop in a dimension, so the direction stays fixed. A
//!   dimension with `k_i = 2` has a single link (port `2i`), which serves both directions.
//!
//! With [`TieBreak::Plus`] the route is a function of (switch, destination); each hop costs
//! O(dimensions). Virtual channels ([`TorusVcs`]): one VC (plain DOR — deadlock-free on a
//! mesh, but on a torus ring of `k >= 4` the wrap-around closes a channel dependency
//! cycle), dateline VC0/VC1 per dimension ([`crate::routing::dimension_order::dateline`]),
//! or BookSim2's wrap classes ([`TorusVcs::WrapClass`]); both make torus DOR deadlock-free.
//! The wrap classes ask a simulator with more VCs for BookSim2's contiguous halves
//! ([`VcLayout::Halves`]), the others for interleaved aliases.

use crate::error::InvalidParam;
use crate::topology::{PortIndex, SwitchId, TerminalId, Torus};

use crate::routing::dimension_order::dateline::{dateline_vc, RingHop, DATELINE_VCS};
use crate::routing::endpoint::{check_switches, inject_state, locate, Endpoint};
use crate::routing::error::RoutingError;
use crate::routing::{Hop, PacketState, Routing, Vc, VcLayout};

/// Virtual-channel policy of [`TorusDor`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TorusVcs {
    /// Every hop on VC 0. Deadlock-free on a mesh; deadlocks on torus rings of `k >= 4`.
    Single,
    /// Dateline VC0/VC1 per dimension ring (docs/routing.md §2); torus only.
    Dateline,
    /// BookSim2's `dim_order` classes (docs/routing.md §2): all hops of a packet in a
    /// dimension on VC1 if its destination's coordinate there is below the coordinate where
    /// it enters the dimension, else on VC0, whichever the direction (a dateline scheme
    /// whose classes are swapped in the `-` direction); torus only. With more physical VCs
    /// than 2, class 0 takes the lower half and class 1 the upper half
    /// ([`VcLayout::Halves`]).
    WrapClass,
}

/// How [`TorusDor`] breaks a tie between the two directions of an even ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Always `+` (jumpnet's choice; the route is a function of switch and destination).
    Plus,
    /// A random direction per packet and dimension from [`PacketState::coin`] (BookSim2's
    /// `dor_next_torus`).
    Random,
}

/// Bit of [`PacketState::phase`] set while the packet's route in the dimension of its last
/// hop wraps ([`TorusVcs::WrapClass`]); the low bits hold that dimension plus one.
const WRAP_CLASS: u8 = 0x80;

/// Dimension-order routing on a torus or mesh (docs/routing.md §2).
#[derive(Clone, Copy, Debug)]
pub struct TorusDor<'a> {
    torus: &'a Torus,
    vcs: TorusVcs,
    ties: TieBreak,
}

impl<'a> TorusDor<'a> {
    /// DOR on `torus` (a torus or a mesh) with VC policy `vcs`, `+` on ties. Dateline and
    /// wrap-class VCs need wrap-around links: on a mesh they are rejected.
    pub fn new(torus: &'a Torus, vcs: TorusVcs) -> Result<Self, RoutingError> {
        if vcs != TorusVcs::Single && !torus.wraps() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "vcs",
                value: DATELINE_VCS as u64,
                rule: "dateline VCs need a torus (wrap-around links); mesh DOR uses 1 VC",
            }));
        }
        Ok(TorusDor {
            torus,
            vcs,
            ties: TieBreak::Plus,
        })
    }

    /// BookSim2's torus `dim_order` (docs/routing.md §2): [`TorusVcs::WrapClass`] VCs and
    /// [`TieBreak::Random`]. The caller fills [`PacketState::coin`] with random bits per
    /// packet ([`Routing::random_ties`]); with `coin = 0` every tie goes `+`.
    pub fn booksim(torus: &'a Torus) -> Result<Self, RoutingError> {
        let mut dor = Self::new(torus, TorusVcs::WrapClass)?;
        dor.ties = TieBreak::Random;
        Ok(dor)
    }

    /// How ties are broken.
    pub fn ties(&self) -> TieBreak {
        self.ties
    }

    /// The topology.
    pub fn torus(&self) -> &'a Torus {
        self.torus
    }

    /// The VC policy.
    pub fn vcs(&self) -> TorusVcs {
        self.vcs
    }

    /// The next hop from switch `at` toward switch `t` as a ring hop: the lowest
    /// dimension where they differ, the direction by the rule of the module docs (ties
    /// `+`), and the coordinate it leaves. `None` when `at == t`.
    pub fn next_ring_hop(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<RingHop>, RoutingError> {
        Ok(self.ring_hop(at, t, 0)?.map(|(hop, _)| hop))
    }

    /// [`TorusDor::next_ring_hop`] with ties broken by `coin` (bit `dim` set: `-`) under
    /// [`TieBreak::Random`], with the coordinate of `t` in the hop's dimension.
    fn ring_hop(
        &self,
        at: SwitchId,
        t: SwitchId,
        coin: u8,
    ) -> Result<Option<(RingHop, u32)>, RoutingError> {
        check_switches(self.torus.shape().count(), at, t)?;
        Ok(self.ring_hop_in_range(at, t, coin))
    }

    /// [`TorusDor::ring_hop`] for switches `at` and `t` known to be in range (`next_hop`
    /// has checked `at` and found `t` as a terminal's switch).
    #[inline(always)]
    fn ring_hop_in_range(&self, at: SwitchId, t: SwitchId, coin: u8) -> Option<(RingHop, u32)> {
        let (dim, x, y, k) = self.torus.shape().first_difference(at, t)?;
        let forward = if self.torus.wraps() {
            let plus = if y > x { y - x } else { y + k - x };
            let minus = k - plus;
            let tie_minus = self.ties == TieBreak::Random && dim < 8 && coin >> dim & 1 == 1;
            plus < minus || (plus == minus && !tie_minus)
        } else {
            y > x
        };
        Some((RingHop { dim, forward, x, k }, y))
    }

    /// Dimension and direction (`true` = `+`) of the next hop from switch `at` toward
    /// switch `t`; `None` when `at == t`.
    pub fn next_dim(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<(usize, bool)>, RoutingError> {
        Ok(self.next_ring_hop(at, t)?.map(|h| (h.dim, h.forward)))
    }

    /// Output port of `hop`: `2·dim` for `+`, `2·dim + 1` for `-`, except in a torus
    /// dimension of size 2, whose single link is on port `2·dim` (docs/topologies.md §4).
    fn port_of(&self, hop: RingHop) -> PortIndex {
        let single_link = self.torus.wraps() && hop.k == 2;
        (2 * hop.dim + (!hop.forward && !single_link) as usize) as PortIndex
    }

    /// Output port of the next hop from switch `at` toward switch `t`; `None` when
    /// `at == t`.
    pub fn port_toward(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<PortIndex>, RoutingError> {
        Ok(self.next_ring_hop(at, t)?.map(|h| self.port_of(h)))
    }
}

impl Routing for TorusDor<'_> {
    fn num_vcs(&self) -> u8 {
        match self.vcs {
            TorusVcs::Single => 1,
            TorusVcs::Dateline | TorusVcs::WrapClass => DATELINE_VCS,
        }
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.torus, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let t = match locate(self.torus, at, dst)? {
            Endpoint::Eject(port) => return Ok(Hop::Eject { port }),
            Endpoint::Toward(t) => t,
        };
        let (hop, y) = self
            .ring_hop_in_range(at, t, state.coin)
            .ok_or(RoutingError::Unreachable { from: at, to: t })?;
        let port = self.port_of(hop);
        let vc = match self.vcs {
            TorusVcs::Single => {
                state.vc = 0;
                0
            }
            TorusVcs::Dateline => dateline_vc(hop, state),
            TorusVcs::WrapClass => wrap_class_vc(hop, y, state),
        };
        Ok(Hop::Forward { port, vc })
    }

    fn random_ties(&self) -> bool {
        self.ties == TieBreak::Random
    }

    fn vc_layout(&self) -> VcLayout {
        match self.vcs {
            TorusVcs::WrapClass => VcLayout::Halves,
            TorusVcs::Single | TorusVcs::Dateline => VcLayout::Interleaved,
        }
    }
}

/// VC of `hop` toward coordinate `y` under [`TorusVcs::WrapClass`]: on entering a dimension
/// at coordinate `x` the class is 1 iff `y < x`, in either direction (BookSim2's
/// `dor_next_torus`: for a `+` move the way across the wrap-around link, for a `-` move the
/// way that does not cross it), and it stays for the packet's further hops in that
/// dimension (kept in `state.phase`: the dimension plus one, and [`WRAP_CLASS`]).
fn wrap_class_vc(hop: RingHop, y: u32, state: &mut PacketState) -> Vc {
    // At most 16 dimensions (topology limit), so `dim + 1` fits in the 7 low bits.
    let tag = (hop.dim as u8).wrapping_add(1) & !WRAP_CLASS;
    let class = if state.phase & !WRAP_CLASS == tag {
        state.phase & WRAP_CLASS
    } else if y < hop.x {
        WRAP_CLASS
    } else {
        0
    };
    state.phase = tag | class;
    let vc = Vc::from(class != 0);
    state.vc = vc;
    vc
}
