//! Deterministic routing (docs/routing.md).
//!
//! A [`Routing`] answers, for a packet at switch `s` heading to terminal `d`, the output port
//! and virtual channel (or virtual layer) of its next hop, deterministically. Packets carry a
//! small [`PacketState`] that the algorithm initialises at injection ([`Routing::inject`]) and
//! updates hop by hop (current VC, Valiant phase, virtual layer, virtual destination index, …),
//! so family-specific algorithms — torus datelines, Dragonfly Valiant phases, fat-tree
//! up/down, PARX virtual LIDs — fit the same interface as the generic ones here:
//!
//! The folder follows the spec's sections — one module per family of algorithms — with the
//! machinery shared by all of them apart:
//!
//! * [`minimal`]: minimal BFS routing on any graph (§1), per switch with O(n) scratch (a
//!   device computes its own table) or for all switches from a [`DistanceMatrix`].
//! * [`dimension_order`]: torus/mesh DOR with dateline VCs, hypercube e-cube, HyperX DOR
//!   (§2); [`circulant`]: greedy and NAF routing (§3); [`dragonfly`]: minimal and Valiant
//!   routing with BookSim's VC schemes (§4); [`fat_tree`]: up/down D-mod-k (§5) and
//!   [`fat_tree_nca`]: random or adaptive up ports (BookSim2's `nca`, `anca`; §5.1). All
//!   arithmetic: no tables, O(dimensions) or O(log n) per hop.
//! * [`dfsssp`]: deadlock-free single-source shortest-path routing with virtual layers (§6);
//!   [`parx`]: pattern-aware routing for 2-D HyperX with 4 virtual destinations per
//!   terminal (§7).
//! * [`tables`]: route tables as runs of equal entries in caller buffers, compiling any
//!   routing into them and routing from them with per-path virtual layers (InfiniBand
//!   LFT + SL/VL); their byte image is [`image::route_table`](crate::image::route_table).
//! * [`deadlock`]: channels, the channel dependency graph and its cycle search (§2, §6).
//! * [`adaptive`]: adaptive routing as candidate outputs that the caller weighs by
//!   congestion and commits (UGAL is [`dragonfly::ugal`]).
//! * [`paths`]: walks that check delivery, loop freedom, VC ranges and minimality, and
//!   all-to-all hop histograms and channel loads split by
//!   [`LinkClass`](crate::topology::LinkClass).
//!
//! Hop counts are router hops (switch-to-switch channels), the \[DISS\] convention of
//! docs/routing.md §8; terminal links are not counted.

pub mod adaptive;
pub mod algorithm;
pub mod circulant;
pub mod deadlock;
pub mod dfsssp;
pub mod dimension_order;
pub mod dragonfly;
mod endpoint;
pub mod error;
pub mod fat_tree;
pub mod fat_tree_nca;
pub mod minimal;
pub mod parx;
pub mod paths;
pub mod tables;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod testgraphs;

pub use adaptive::{Candidate, CongestionScope};
pub use algorithm::RouteAlgo;
pub use circulant::greedy::CirculantGreedy;
pub use circulant::naf::CirculantNaf;
pub use deadlock::cdg::Cdg;
pub use deadlock::channel::ChannelVc;
pub use dimension_order::dateline::DatelineVcs;
pub use dimension_order::hypercube::HypercubeEcube;
pub use dimension_order::hyperx::HyperXDor;
pub use dimension_order::torus::{TieBreak, TorusDor, TorusVcs};
pub use error::RoutingError;
pub use fat_tree::FatTreeDmodK;
pub use fat_tree_nca::{FatTreeNca, NcaChoice};
pub use minimal::distance::DistanceMatrix;
pub use minimal::MinimalRouting;
pub use tables::run_table::{RouteEntry, Run, RunTable, RunTableBuilder};
pub use tables::table_routing::TableRouting;
pub use tables::table_set::{TableSet, TableSetBuilder};

use crate::topology::{PortIndex, SwitchId, TerminalId, Topology};

/// Virtual channel (or virtual layer / InfiniBand VL) index.
pub type Vc = u8;

/// What a switch does with a packet: forward it on a network port, or deliver it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hop {
    /// Send on network port `port` of the current switch, on virtual channel `vc`.
    Forward {
        /// Output network port.
        port: PortIndex,
        /// Virtual channel of the output channel, `0..num_vcs()`.
        vc: Vc,
    },
    /// Deliver to the destination terminal through terminal port `port`.
    Eject {
        /// Terminal port of the current switch.
        port: PortIndex,
    },
}

/// How a caller with more physical VCs per channel than the routing's
/// [`Routing::num_vcs`] (`R`) maps a routing VC `v` onto them (docs/routing.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum VcLayout {
    /// VC `v` stands for the physical VCs `v, v + R, v + 2R, …` (jumpnet's default).
    #[default]
    Interleaved,
    /// For a routing of two VCs among `n` physical ones: VC 0 the lower part
    /// `0..n - n/2`, VC 1 the upper half `n/2..n` (BookSim2's torus `dim_order`; an odd
    /// `n` shares the middle VC between the two, as in BookSim2).
    Halves,
}

/// Per-packet routing state, small and `Copy`, set by [`Routing::inject`] and updated by
/// [`Routing::next_hop`].
///
/// The generic algorithms of this module use `src_switch`, `vc` and `layer`; the other fields
/// are reserved for family-specific algorithms (docs/routing.md §2–§7): `phase` for Valiant
/// phases or dimension progress, `via` for a Valiant intermediate switch or group, `lid` for a
/// PARX virtual destination index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PacketState {
    /// Switch the packet was injected at.
    pub src_switch: SwitchId,
    /// Virtual channel of the last channel taken (the injection VC before the first hop).
    pub vc: Vc,
    /// Virtual layer fixed for the whole path (DFSSSP/InfiniBand service level), 0 otherwise.
    pub layer: Vc,
    /// Algorithm phase (e.g. Valiant phase 0/1/2); 0 for the generic algorithms.
    pub phase: u8,
    /// Virtual destination index (PARX `LID_i`); 0 for the generic algorithms.
    pub lid: u8,
    /// Intermediate switch or group of non-minimal routing; [`PacketState::NO_VIA`] if none.
    pub via: u32,
    /// Random bits the caller draws once per packet for a routing that breaks ties at
    /// random ([`Routing::random_ties`]; bit `i` decides a tie in dimension `i` of torus DOR
    /// with [`TieBreak::Random`]). 0 otherwise, which
    /// makes every tie go the routing's default way.
    pub coin: u8,
}

impl PacketState {
    /// Value of [`PacketState::via`] meaning "no intermediate".
    pub const NO_VIA: u32 = u32::MAX;

    /// A fresh state for a packet injected at `src_switch` on VC 0 / layer 0.
    pub fn new(src_switch: SwitchId) -> Self {
        PacketState {
            src_switch,
            vc: 0,
            layer: 0,
            phase: 0,
            lid: 0,
            via: PacketState::NO_VIA,
            coin: 0,
        }
    }
}

/// A deterministic routing algorithm (docs/routing.md).
///
/// Implementations are total: bad ids return errors, nothing panics. The same inputs must
/// give the same hops on every target.
///
/// An adaptive routing adds a choice among candidate outputs that the caller makes with its
/// congestion knowledge ([`Routing::candidates`], [`Routing::commit_candidate`],
/// [`Routing::congestion_scope`]; see [`adaptive`]); given the same choices, its hops are
/// deterministic too.
///
/// # Examples
///
/// Follow a packet hop by hop with torus dimension-order routing and dateline VCs
/// (docs/routing.md §2): [`Routing::inject`] gives the initial state, [`Routing::next_hop`]
/// the output port and VC at each switch until [`Hop::Eject`].
///
/// ```
/// use jumpnet_core::routing::{Hop, Routing, TorusDor, TorusVcs};
/// use jumpnet_core::topology::{Topology, Torus};
///
/// let torus = Torus::torus(&[8, 8], 1)?;
/// let dor = TorusDor::new(&torus, TorusVcs::Dateline)?;
/// assert_eq!(dor.num_vcs(), 2);
///
/// // From terminal 6 at (6, 0) to terminal 1 at (1, 0): the short way is + over the
/// // wrap-around link 7 → 0, the dateline; the packet crosses it on VC 0 and takes VC 1
/// // from then on.
/// let (src, dst) = (6, 1);
/// let mut state = dor.inject(src, dst)?;
/// let mut at = torus.terminal_switch(src).unwrap();
/// let mut path = Vec::new();
/// loop {
///     match dor.next_hop(at, &mut state, dst)? {
///         Hop::Forward { port, vc } => {
///             at = torus.port(at, port).link().unwrap().peer;
///             path.push((at, vc));
///         }
///         Hop::Eject { port } => {
///             assert_eq!(torus.terminal_port(dst), Some((at, port)));
///             break;
///         }
///     }
/// }
/// assert_eq!(path, [(7, 0), (0, 0), (1, 1)]);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub trait Routing {
    /// Number of virtual channels / layers the algorithm uses (VCs are `0..num_vcs()`).
    fn num_vcs(&self) -> u8;

    /// Initial state of a packet from terminal `src` to terminal `dst`.
    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError>;

    /// Next hop of a packet at switch `at` heading to terminal `dst`; updates `state`
    /// (at least `state.vc` to the VC of the chosen output channel). At the destination switch
    /// the answer is [`Hop::Eject`] on the terminal's port, and `state.vc` is the VC the
    /// routing ejects on where it names one (BookSim2's dragonfly routings: the VC of the
    /// last channel, or the packet's phase); a caller may let the packet eject on any VC.
    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError>;

    /// Whose channels the candidates of [`Routing::candidates`] weigh:
    /// [`CongestionScope::None`] (the default) for oblivious routings, which offer none;
    /// [`CongestionScope::Local`] when only the deciding switch's output channels count;
    /// [`CongestionScope::Remote`] when other switches' channels do (a caller that keeps
    /// switch state apart, such as a simulator stepping switches on several threads, must
    /// then let the deciding switch see all of it).
    fn congestion_scope(&self) -> CongestionScope {
        CongestionScope::None
    }

    /// Whether the routing breaks some ties at random from [`PacketState::coin`], which the
    /// caller then fills with random bits once per packet after [`Routing::inject`]
    /// (docs/routing.md §2). `false` by default: the route is a function of the state
    /// [`Routing::inject`] returns.
    fn random_ties(&self) -> bool {
        false
    }

    /// How a caller with more physical VCs than [`Routing::num_vcs`] maps the routing's VCs
    /// onto them ([`VcLayout`]; docs/routing.md §2). [`VcLayout::Interleaved`] by default.
    fn vc_layout(&self) -> VcLayout {
        VcLayout::Interleaved
    }

    /// Writes the candidate outputs of a packet at switch `at` heading to terminal `dst` into
    /// `out` and returns how many there are (at most [`adaptive::MAX_CANDIDATES`]): `0` when
    /// the routing has no choice to make here (always, by default). A caller that knows the
    /// congestion weighs them ([`Candidate::cost`]), commits one with
    /// [`Routing::commit_candidate`] and then asks [`Routing::next_hop`]; a caller that
    /// does not may skip both, and [`Routing::next_hop`] decides as if every channel were
    /// empty. A slice shorter than the candidates is a [`RoutingError::Capacity`].
    fn candidates(
        &self,
        at: SwitchId,
        state: &PacketState,
        dst: TerminalId,
        out: &mut [Candidate],
    ) -> Result<usize, RoutingError> {
        let _ = (at, state, dst, out);
        Ok(0)
    }

    /// Records the choice of `chosen`, one of the candidates [`Routing::candidates`] wrote
    /// for this packet and switch, in `state`. Does nothing by default.
    fn commit_candidate(&self, state: &mut PacketState, chosen: &Candidate) {
        let _ = (state, chosen);
    }
}

impl<R: Routing + ?Sized> Routing for &R {
    fn congestion_scope(&self) -> CongestionScope {
        (**self).congestion_scope()
    }
    fn random_ties(&self) -> bool {
        (**self).random_ties()
    }
    fn vc_layout(&self) -> VcLayout {
        (**self).vc_layout()
    }
    fn candidates(
        &self,
        at: SwitchId,
        state: &PacketState,
        dst: TerminalId,
        out: &mut [Candidate],
    ) -> Result<usize, RoutingError> {
        (**self).candidates(at, state, dst, out)
    }
    fn commit_candidate(&self, state: &mut PacketState, chosen: &Candidate) {
        (**self).commit_candidate(state, chosen)
    }
    fn num_vcs(&self) -> u8 {
        (**self).num_vcs()
    }
    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        (**self).inject(src, dst)
    }
    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        (**self).next_hop(at, state, dst)
    }
}

/// Hop limit used by the walkers when the caller has no better bound: twice the number of
/// switches (a loop-free minimal path needs fewer than `n` hops; two-phase routes fewer
/// than `2n`).
pub fn default_hop_limit<T: Topology>(topo: &T) -> u32 {
    topo.num_switches().saturating_mul(2).max(1)
}

/// Switch and port of terminal `t`, or [`RoutingError::TerminalOutOfRange`].
pub(crate) fn terminal_location<T: Topology>(
    topo: &T,
    t: TerminalId,
) -> Result<(SwitchId, PortIndex), RoutingError> {
    topo.terminal_port(t)
        .ok_or(RoutingError::TerminalOutOfRange {
            terminal: t,
            terminals: topo.num_terminals(),
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
