//! PARX — pattern-aware routing for 2-D HyperX (docs/routing.md §7; Domke et al., SC19,
//! \[HX\] §3.2), built on DFSSSP ([`crate::routing::dfsssp`]).
//!
//! * Every terminal has 4 virtual destinations `LID_0..LID_3` (LMC = 2). Routes toward
//!   `LID_i` are computed on the HyperX minus the links inside one half (rules R1–R4: left,
//!   right, top, bottom; links crossing the middle stay), so some LIDs of a destination are
//!   reached minimally and others only through a detour via the other half
//!   ([`quadrant`]).
//! * Paths: DFSSSP's modified Dijkstra per (destination, LID) on the reduced graph, with
//!   channel weights raised after each destination by the demand of every source
//!   ([`Demand`], `0..=255`) for destinations listed in the demand list, and by +1 per path
//!   for the others (Algorithm 1). Then all (source switch, destination, LID) paths are put
//!   into virtual layers without channel-dependency cycles with DFSSSP's layer machinery,
//!   within the configured VL limit ([`RoutingError::TooManyLayers`] otherwise).
//! * LID choice per message ([`lid_table`]): Table 1 of \[HX\] from the source and
//!   destination quadrants and the message size (< 512 B minimal, ≥ 512 B detour), "a|b"
//!   entries decided by a seeded hash of (source, destination, message id).
//!
//! The [`Routing`] trait's `inject` has no message size, so [`ParxRouting`] offers
//! [`ParxRouting::inject_message`] (size and message id) and [`ParxRouting::inject_lid`]
//! (explicit LID); its `inject` follows the configured [`LidPolicy`] (default: the
//! small-message LID of message id 0, i.e. minimal routes). `next_hop` reads the LID and
//! the layer from the [`PacketState`] (`lid`, `layer`); the VC of every hop is the path's
//! layer.
//!
//! Like InfiniBand, a switch's forwarding table has one entry per LID (4 per terminal,
//! [`ParxRouting::entry`]) and the layer is a per-path property chosen at the source
//! ([`ParxRouting::layer`]).

pub mod demand;
pub mod lid_table;
mod paths;
pub mod quadrant;

pub use demand::{normalise_demand, sort_demands, Demand};
pub use lid_table::{
    closed_form_choices, select_lid, table_choices, LidChoices, Message, LARGE_MESSAGE_BYTES,
};
pub use quadrant::{Half, Quadrant, Quadrants, LIDS};

use crate::error::InvalidParam;
use crate::topology::{HyperX, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::dfsssp::layers::Destinations;
use crate::routing::dfsssp::run_phases;
use crate::routing::dfsssp::{DfssspBuffers, DfssspConfig, DfssspReport, DfssspSizes, MAX_LAYERS};
use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::RouteEntry;
use crate::routing::tables::table_routing::{hop_from_entry, inject_on_layer};
use crate::routing::{terminal_location, Hop, PacketState, Routing};

impl DfssspSizes {
    /// Buffer sizes of [`parx`] for `hx`: DFSSSP's sizes with 4 virtual destinations per
    /// terminal (`next_port`, `layer`, `by_channel`: 4 · terminals · switches entries,
    /// `tree` three times that).
    pub fn of_parx(hx: &HyperX) -> Self {
        let mut s = DfssspSizes::of(hx);
        let lids = LIDS as usize;
        s.per_path *= lids;
        s.tree *= lids;
        s.by_channel *= lids;
        s
    }
}

/// Which LID [`Routing::inject`] gives a packet (it knows no message size).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LidPolicy {
    /// Table 1a (small messages, minimal routes) with message id 0.
    #[default]
    Small,
    /// Table 1b (large messages, detours) with message id 0.
    Large,
    /// Always this LID (`0..4`), e.g. to check the routes of one LID.
    Fixed(u8),
}

/// PARX routes and layers (borrowing the output buffers of [`parx`]).
#[derive(Clone, Copy, Debug)]
pub struct ParxRouting<'a> {
    topo: &'a HyperX,
    geo: Quadrants,
    n: u32,
    next_port: &'a [PortIndex],
    layer: &'a [u8],
    num_vcs: u8,
    policy: LidPolicy,
    seed: u64,
}

impl<'a> ParxRouting<'a> {
    /// The same routes with `policy` for [`Routing::inject`].
    pub fn with_policy(self, policy: LidPolicy) -> Self {
        ParxRouting { policy, ..self }
    }

    /// The same routes with `seed` for the "a|b" LID choices.
    pub fn with_seed(self, seed: u64) -> Self {
        ParxRouting { seed, ..self }
    }

    /// The quadrant geometry.
    pub fn quadrants(&self) -> Quadrants {
        self.geo
    }

    /// The network.
    pub fn topology(&self) -> &'a HyperX {
        self.topo
    }

    /// Index of virtual destination (`dst`, `lid`) in the path arrays.
    fn vd(&self, dst: TerminalId, lid: u8) -> Option<usize> {
        (dst < self.topo.num_terminals() && lid < LIDS)
            .then(|| dst as usize * LIDS as usize + lid as usize)
    }

    /// Forwarding entry of switch `at` toward `LID_lid` of terminal `dst` (the terminal port
    /// at the destination switch); [`RouteEntry::NONE`] for bad arguments.
    pub fn entry(&self, at: SwitchId, dst: TerminalId, lid: u8) -> RouteEntry {
        let Some(vd) = self.vd(dst, lid) else {
            return RouteEntry::NONE;
        };
        if at >= self.n {
            return RouteEntry::NONE;
        }
        match self.next_port.get(vd * self.n as usize + at as usize) {
            Some(&port) => RouteEntry { port, vc: 0 },
            None => RouteEntry::NONE,
        }
    }

    /// Virtual layer of the path from switch `src` to `LID_lid` of terminal `dst`.
    pub fn layer(&self, src: SwitchId, dst: TerminalId, lid: u8) -> Option<u8> {
        let vd = self.vd(dst, lid)?;
        if src >= self.n {
            return None;
        }
        self.layer.get(vd * self.n as usize + src as usize).copied()
    }

    /// The LID a message of `bytes` bytes with id `msg_id` from terminal `src` to terminal
    /// `dst` uses (Table 1, docs/routing.md §7; see [`select_lid`]).
    pub fn select_lid(
        &self,
        src: TerminalId,
        dst: TerminalId,
        bytes: u64,
        msg_id: u64,
    ) -> Result<u8, RoutingError> {
        let (s, _) = terminal_location(self.topo, src)?;
        let (t, _) = terminal_location(self.topo, dst)?;
        let (qs, qd) = (self.geo.quadrant(s)?, self.geo.quadrant(t)?);
        Ok(select_lid(
            qs,
            qd,
            &Message {
                src,
                dst,
                bytes,
                id: msg_id,
            },
            self.seed,
        ))
    }

    /// Initial state of a message of `bytes` bytes with id `msg_id` from `src` to `dst`:
    /// its LID ([`ParxRouting::select_lid`]) and the layer of its path.
    pub fn inject_message(
        &self,
        src: TerminalId,
        dst: TerminalId,
        bytes: u64,
        msg_id: u64,
    ) -> Result<PacketState, RoutingError> {
        let lid = self.select_lid(src, dst, bytes, msg_id)?;
        self.inject_lid(src, dst, lid)
    }

    /// Initial state of a packet from `src` to `LID_lid` of `dst`.
    pub fn inject_lid(
        &self,
        src: TerminalId,
        dst: TerminalId,
        lid: u8,
    ) -> Result<PacketState, RoutingError> {
        let mut st = inject_on_layer(self.topo, src, dst, |s| {
            if lid >= LIDS {
                return Err(RoutingError::Invalid(InvalidParam {
                    param: "lid",
                    value: lid as u64,
                    rule: "PARX terminals have LIDs 0..4",
                }));
            }
            self.layer(s, dst, lid).ok_or(RoutingError::NoRoute {
                switch: s,
                terminal: dst,
            })
        })?;
        st.lid = lid;
        Ok(st)
    }
}

impl Routing for ParxRouting<'_> {
    fn num_vcs(&self) -> u8 {
        self.num_vcs
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        match self.policy {
            LidPolicy::Small => self.inject_message(src, dst, 0, 0),
            LidPolicy::Large => self.inject_message(src, dst, LARGE_MESSAGE_BYTES, 0),
            LidPolicy::Fixed(lid) => self.inject_lid(src, dst, lid),
        }
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let entry = Some(self.entry(at, dst, state.lid));
        hop_from_entry(self.topo, at, dst, entry, state, |_, st| st.layer)
    }
}

/// Runs PARX on the 2-D HyperX `hx` (docs/routing.md §7): paths toward all 4 LIDs of every
/// terminal with demand-weighted (or +1) balancing, then virtual layers without dependency
/// cycles, at most `config.max_layers` of them (else [`RoutingError::TooManyLayers`] naming
/// the count needed); spare layers are shared out when `config.balance` is set.
/// `demands` must be sorted by (destination, source) ([`sort_demands`]) and may be empty
/// (plain DFSSSP weights on the reduced graphs). Buffers: [`DfssspSizes::of_parx`].
pub fn parx<'a>(
    hx: &'a HyperX,
    config: &DfssspConfig,
    demands: &[Demand],
    buffers: DfssspBuffers<'a>,
) -> Result<(ParxRouting<'a>, DfssspReport), RoutingError> {
    if config.max_layers == 0 || config.max_layers as usize > MAX_LAYERS {
        return Err(RoutingError::Invalid(InvalidParam {
            param: "max_layers",
            value: config.max_layers as u64,
            rule: "PARX supports 1 to 16 virtual layers",
        }));
    }
    let geo = Quadrants::new(hx)?;
    let demands = demand::DemandList::new(demands, hx.num_terminals())?;
    let sizes = DfssspSizes::of_parx(hx);
    buffers.check(&sizes)?;
    let dests = Destinations {
        topo: hx,
        per_terminal: LIDS as u32,
    };
    let (next_port, layer, report) = run_phases(dests, config, buffers, sizes.per_path, |bufs| {
        paths::compute(hx, &geo, config, &demands, bufs)
    })?;
    Ok((
        ParxRouting {
            topo: hx,
            geo,
            n: hx.num_switches(),
            next_port,
            layer,
            num_vcs: report.layers_used.max(1),
            policy: LidPolicy::default(),
            seed: 0,
        },
        report,
    ))
}
