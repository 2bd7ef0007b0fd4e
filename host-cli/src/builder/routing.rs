//! Choosing and building a routing algorithm for a network (docs/routing.md), with the
//! storage the table-based ones need.

use anyhow::{anyhow, Result};
use serde::Serialize;

use jumpnet_core::routing::dfsssp::{
    dfsssp, DfssspBuffers, DfssspConfig, DfssspReport, DfssspSizes,
};
use jumpnet_core::routing::dimension_order::dateline::dateline_hop;
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::dragonfly::ugal::{DragonflyUgal, UgalMode};
use jumpnet_core::routing::dragonfly::ugal_booksim::{DragonflyUgalBookSim, BOOKSIM_THRESHOLD};
use jumpnet_core::routing::dragonfly::valiant::{DragonflyValiant, Intermediate};
use jumpnet_core::routing::parx::{self, LidPolicy};
use jumpnet_core::routing::{
    deadlock::cycle::Frame, CirculantGreedy, CirculantNaf, DistanceMatrix, FatTreeDmodK,
    FatTreeNca, HyperXDor, HypercubeEcube, MinimalRouting, NcaChoice, Routing, TorusDor, TorusVcs,
};
use jumpnet_core::routing::{Hop, PacketState, RouteEntry, RoutingError, TableSet};
use jumpnet_core::topology::{HyperX, Network, Port, Topology};

use crate::io::lft::{VcRule, RULE_CLASSES};

pub use jumpnet_core::routing::RouteAlgo;

/// The value parser of `--algo`: core's algorithm names ([`RouteAlgo::ALL`]), each with its
/// [`RouteAlgo::summary`] as help.
pub fn algo_parser() -> impl clap::builder::TypedValueParser<Value = RouteAlgo> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        RouteAlgo::ALL.map(|a| PossibleValue::new(a.name()).help(a.summary())),
    )
    .try_map(|name| name.parse::<RouteAlgo>())
}

/// The algorithm named `name`, ignoring ASCII case (scenario files, sweep axes).
pub fn algo_ignore_case(name: &str) -> Option<RouteAlgo> {
    RouteAlgo::ALL
        .into_iter()
        .find(|a| a.name().eq_ignore_ascii_case(name))
}

/// For routings whose port is destination-based but whose VC depends on the packet's
/// path: the single-VC algorithm with the same ports, and the [`VcRule`] under which
/// the tables give a VC per input class (`route table` exports it, `route check
/// --table` follows it).
pub fn port_tables(algo: RouteAlgo) -> Option<(RouteAlgo, VcRule)> {
    match algo {
        RouteAlgo::DorDateline => Some((RouteAlgo::Dor, VcRule::Dateline)),
        RouteAlgo::DfMinimal => Some((RouteAlgo::DfMinimal1vc, VcRule::InputVc)),
        _ => None,
    }
}

/// Options of a routing.
#[derive(Clone, Copy, Debug)]
pub struct RouteOptions {
    /// Algorithm.
    pub algo: RouteAlgo,
    /// Virtual-layer limit of DFSSSP and PARX.
    pub max_layers: u8,
    /// Seed of Valiant's intermediate-group hash.
    pub seed: u64,
}

/// Facts about a built routing.
#[derive(Clone, Debug, Serialize, Default)]
pub struct RoutingInfo {
    /// Algorithm name.
    pub algorithm: String,
    /// Virtual channels / layers used.
    pub vcs: u8,
    /// DFSSSP: layers needed to break every cycle.
    pub layers_needed: Option<u8>,
    /// DFSSSP: paths per layer.
    pub paths_per_layer: Vec<u64>,
    /// DFSSSP: cycles broken.
    pub cycles_broken: Option<u64>,
    /// The VC rule of rule tables ([`VcRule`]): the entries give a VC per input class.
    pub vc_rule: Option<VcRule>,
    /// What the rule's input class means.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc_rule_text: Option<String>,
}

/// Storage for routings that need tables (minimal BFS, DFSSSP).
#[derive(Debug, Default)]
pub struct RouteStore {
    dist: Vec<u16>,
    queue: Vec<u32>,
    weights: Vec<u64>,
    ddist: Vec<u64>,
    scratch: Vec<u32>,
    next_port: Vec<u16>,
    layer: Vec<u8>,
    tree: Vec<u32>,
    dep_count: Vec<u32>,
    by_channel: Vec<u32>,
    channel_start: Vec<u32>,
    color: Vec<u32>,
    stack: Vec<Frame>,
}

impl RouteStore {
    fn resize(&mut self, s: &DfssspSizes) {
        self.weights.resize(s.weights, 0);
        self.ddist.resize(s.dist, 0);
        self.scratch.resize(s.scratch, 0);
        self.next_port.resize(s.per_path, 0);
        self.layer.resize(s.per_path, 0);
        self.tree.resize(s.tree, 0);
        self.dep_count.resize(s.dep_count, 0);
        self.by_channel.resize(s.by_channel, 0);
        self.channel_start.resize(s.channel_start, 0);
        self.color.resize(s.channels, 0);
        self.stack.resize(s.channels, Frame::default());
    }

    fn dfsssp(&mut self) -> DfssspBuffers<'_> {
        DfssspBuffers {
            weights: &mut self.weights,
            dist: &mut self.ddist,
            scratch: &mut self.scratch,
            next_port: &mut self.next_port,
            layer: &mut self.layer,
            tree: &mut self.tree,
            dep_count: &mut self.dep_count,
            by_channel: &mut self.by_channel,
            channel_start: &mut self.channel_start,
            color: &mut self.color,
            stack: &mut self.stack,
        }
    }
}

/// All-pairs switch distances (for minimality checks and minimal routing).
pub fn distance_matrix<'a>(
    net: &Network<'_>,
    dist: &'a mut Vec<u16>,
    queue: &mut Vec<u32>,
) -> Result<DistanceMatrix<'a>> {
    let n = net.num_switches() as usize;
    let entries = DistanceMatrix::entries_needed(net) as usize;
    crate::builder::network::check_alloc::<u16>(
        &format!("all-pairs distances of {n} switches"),
        entries as u128,
    )?;
    dist.resize(entries, 0);
    queue.resize(n, 0);
    Ok(DistanceMatrix::compute(net, dist, queue)?)
}

/// Builds `opts.algo` on `net`; the routing borrows `store`.
pub fn build<'a>(
    net: &'a Network<'a>,
    opts: &RouteOptions,
    store: &'a mut RouteStore,
) -> Result<(Box<dyn Routing + Sync + 'a>, RoutingInfo)> {
    let fam = net.family().name();
    let wrong = |what: &str| {
        anyhow!(
            "--algo {} needs {what}, but the topology is {fam}",
            opts.algo.name()
        )
    };
    let mut info = RoutingInfo {
        algorithm: opts.algo.name().to_string(),
        ..Default::default()
    };
    let routing: Box<dyn Routing + Sync + 'a> = match (opts.algo, net) {
        (RouteAlgo::Minimal, _) => {
            let dm = distance_matrix(net, &mut store.dist, &mut store.queue)?;
            Box::new(MinimalRouting::new(net, dm)?)
        }
        (RouteAlgo::Dfsssp, _) => dfsssp_routing(net, opts, store, &mut info)?,
        (RouteAlgo::Dor, Network::Torus(t)) => Box::new(TorusDor::new(t, TorusVcs::Single)?),
        (RouteAlgo::Dor, Network::HyperX(h)) => Box::new(HyperXDor::new(h)),
        (RouteAlgo::Dor | RouteAlgo::Ecube, Network::Hypercube(h)) => {
            Box::new(HypercubeEcube::new(h))
        }
        (RouteAlgo::Dor, _) => return Err(wrong("a torus, mesh, HyperX or hypercube")),
        (RouteAlgo::Ecube, _) => return Err(wrong("a hypercube")),
        (RouteAlgo::DorDateline, Network::Torus(t)) => {
            Box::new(TorusDor::new(t, TorusVcs::Dateline)?)
        }
        (RouteAlgo::DorBookSim, Network::Torus(t)) => Box::new(TorusDor::booksim(t)?),
        (RouteAlgo::DorDateline | RouteAlgo::DorBookSim, _) => return Err(wrong("a torus")),
        (RouteAlgo::Greedy, Network::Circulant(c)) => Box::new(CirculantGreedy::new(c)),
        (RouteAlgo::Naf, Network::Circulant(c)) => Box::new(CirculantNaf::new(c)?),
        (RouteAlgo::Greedy | RouteAlgo::Naf, _) => {
            return Err(wrong("a ring or circulant (naf: G(n, log2 n))"))
        }
        (RouteAlgo::Dmodk, Network::FatTree(f)) => Box::new(FatTreeDmodK::new(f)),
        (RouteAlgo::Nca, Network::FatTree(f)) => {
            Box::new(FatTreeNca::new(f, NcaChoice::Random, opts.seed))
        }
        (RouteAlgo::Anca, Network::FatTree(f)) => {
            Box::new(FatTreeNca::new(f, NcaChoice::Adaptive, opts.seed))
        }
        (RouteAlgo::Dmodk | RouteAlgo::Nca | RouteAlgo::Anca, _) => {
            return Err(wrong("a fat tree"))
        }
        (RouteAlgo::DfMinimal, Network::Dragonfly(d)) => {
            Box::new(DragonflyMinimal::new(d, MinimalVcs::Dateline))
        }
        (RouteAlgo::DfMinimal1vc, Network::Dragonfly(d)) => {
            Box::new(DragonflyMinimal::new(d, MinimalVcs::Single))
        }
        (RouteAlgo::DfValiant, Network::Dragonfly(d)) => {
            Box::new(DragonflyValiant::new(d, Intermediate::PerPair, opts.seed))
        }
        (RouteAlgo::DfValiantDest, Network::Dragonfly(d)) => Box::new(DragonflyValiant::new(
            d,
            Intermediate::PerDestination,
            opts.seed,
        )),
        (RouteAlgo::DfUgalL, Network::Dragonfly(d)) => {
            Box::new(DragonflyUgal::new(d, UgalMode::Local, opts.seed, 0))
        }
        (RouteAlgo::DfUgalG, Network::Dragonfly(d)) => {
            Box::new(DragonflyUgal::new(d, UgalMode::Global, opts.seed, 0))
        }
        (RouteAlgo::DfUgalBookSim, Network::Dragonfly(d)) => {
            Box::new(DragonflyUgalBookSim::new(d, opts.seed, BOOKSIM_THRESHOLD))
        }
        (
            RouteAlgo::DfMinimal
            | RouteAlgo::DfMinimal1vc
            | RouteAlgo::DfValiant
            | RouteAlgo::DfValiantDest
            | RouteAlgo::DfUgalL
            | RouteAlgo::DfUgalG
            | RouteAlgo::DfUgalBookSim,
            _,
        ) => return Err(wrong("a dragonfly")),
        (RouteAlgo::Parx | RouteAlgo::ParxLarge, Network::HyperX(h)) => {
            parx_routing(h, opts, store, &mut info)?
        }
        (RouteAlgo::Parx | RouteAlgo::ParxLarge, _) => {
            return Err(wrong("a 2-D HyperX with even sizes"))
        }
        (RouteAlgo::MinLatency, _) => Box::new(crate::builder::min_latency::MinLatency::new(net)?),
    };
    info.vcs = routing.num_vcs();
    Ok((routing, info))
}

/// DFSSSP on `net` (its layer facts go into `info`).
fn dfsssp_routing<'a>(
    net: &'a Network<'a>,
    opts: &RouteOptions,
    store: &'a mut RouteStore,
    info: &mut RoutingInfo,
) -> Result<Box<dyn Routing + Sync + 'a>> {
    let s = DfssspSizes::of(net);
    crate::builder::network::check_memory("DFSSSP tables of this network", s.bytes() as u128)?;
    store.resize(&s);
    let cfg = DfssspConfig {
        max_layers: opts.max_layers,
        ..DfssspConfig::default()
    };
    let (r, rep) = dfsssp(net, &cfg, store.dfsssp())?;
    info.record_layers(&rep);
    Ok(Box::new(r))
}

/// PARX on the 2-D HyperX `h` (its layer facts go into `info`).
fn parx_routing<'a>(
    h: &'a HyperX,
    opts: &RouteOptions,
    store: &'a mut RouteStore,
    info: &mut RoutingInfo,
) -> Result<Box<dyn Routing + Sync + 'a>> {
    let s = DfssspSizes::of_parx(h);
    store.resize(&s);
    let cfg = DfssspConfig {
        max_layers: opts.max_layers,
        ..DfssspConfig::default()
    };
    let (r, rep) = parx::parx(h, &cfg, &[], store.dfsssp())?;
    info.record_layers(&rep);
    let policy = if opts.algo == RouteAlgo::ParxLarge {
        LidPolicy::Large
    } else {
        LidPolicy::Small
    };
    Ok(Box::new(r.with_policy(policy)))
}

impl RoutingInfo {
    /// Records the layer facts of a DFSSSP or PARX run.
    fn record_layers(&mut self, rep: &DfssspReport) {
        self.layers_needed = Some(rep.layers_needed);
        self.paths_per_layer = rep.paths_per_layer[..rep.layers_used as usize].to_vec();
        self.cycles_broken = Some(rep.cycles_broken);
    }
}

/// Packs the VCs of the two input classes of a rule-table entry into [`RouteEntry::vc`]
/// (class 0 in the low nibble) for storage in a core [`TableSet`].
pub fn pack_class_vcs(vc: [u8; RULE_CLASSES]) -> u8 {
    (vc[0] & 0x0f) | (vc[1] << 4)
}

/// Routing from rule tables (docs/routing.md §2, §4; [`VcRule`]): the port comes from the
/// table of the current switch, the VC from the entry's column for the packet's input
/// class, which the rule computes from the packet's history as a switch would from the input
/// port and VC.
#[derive(Debug, Clone, Copy)]
pub struct RuleTableRouting<'a> {
    net: &'a Network<'a>,
    rule: VcRule,
    routes: TableSet<'a, RouteEntry>,
}

impl<'a> RuleTableRouting<'a> {
    /// Routing over `routes` (one table per switch, entries with VCs packed by
    /// [`pack_class_vcs`]) under `rule`. The dateline rule needs a torus with wrap-around
    /// links.
    pub fn new(
        net: &'a Network<'a>,
        rule: VcRule,
        routes: TableSet<'a, RouteEntry>,
    ) -> Result<Self> {
        if rule == VcRule::Dateline && !matches!(net, Network::Torus(t) if t.wraps()) {
            return Err(anyhow!(
                "the VC rule dateline needs a torus (wrap-around links), but the topology is {}",
                net.family().name()
            ));
        }
        if routes.switches() != net.num_switches() || routes.destinations() != net.num_terminals() {
            return Err(anyhow!(
                "tables need one table per switch and one entry per terminal"
            ));
        }
        Ok(RuleTableRouting { net, rule, routes })
    }

    /// Input class of a packet in `state` about to leave `at` on network port `port`;
    /// updates the rule's history in `state`.
    fn class(&self, at: u32, port: u16, state: &mut PacketState) -> Result<usize, RoutingError> {
        match (self.rule, self.net) {
            (VcRule::Dateline, Network::Torus(t)) => {
                // dateline_hop returns 1 iff the packet crossed the dateline of the port's
                // dimension before this hop (and records this hop in `state.phase`).
                Ok(dateline_hop(t, at, port, state)? as usize)
            }
            (VcRule::InputVc, _) => Ok((state.vc as usize).min(RULE_CLASSES - 1)),
            (VcRule::Dateline, _) => Err(RoutingError::NotALink { switch: at, port }),
        }
    }
}

impl Routing for RuleTableRouting<'_> {
    fn num_vcs(&self) -> u8 {
        RULE_CLASSES as u8
    }

    fn inject(
        &self,
        src: jumpnet_core::topology::TerminalId,
        dst: jumpnet_core::topology::TerminalId,
    ) -> Result<PacketState, RoutingError> {
        let n = self.net.num_terminals();
        for t in [src, dst] {
            if t >= n {
                return Err(RoutingError::TerminalOutOfRange {
                    terminal: t,
                    terminals: n,
                });
            }
        }
        let s = self
            .net
            .injection_switch(src)
            .ok_or(RoutingError::TerminalOutOfRange {
                terminal: src,
                terminals: n,
            })?;
        Ok(PacketState::new(s))
    }

    fn next_hop(
        &self,
        at: u32,
        state: &mut PacketState,
        dst: jumpnet_core::topology::TerminalId,
    ) -> Result<Hop, RoutingError> {
        let n = self.net.num_switches();
        if at >= n {
            return Err(RoutingError::SwitchOutOfRange {
                switch: at,
                switches: n,
            });
        }
        let entry = match self.routes.lookup(at, dst) {
            Some(e) if e.is_route() => e,
            _ => {
                return Err(RoutingError::NoRoute {
                    switch: at,
                    terminal: dst,
                })
            }
        };
        match self.net.port(at, entry.port) {
            Port::Terminal(_) => Ok(Hop::Eject { port: entry.port }),
            Port::Link(_) => {
                let class = self.class(at, entry.port, state)?;
                let vc = (entry.vc >> (4 * class)) & 0x0f;
                state.vc = vc;
                Ok(Hop::Forward {
                    port: entry.port,
                    vc,
                })
            }
            Port::Unconnected => Err(RoutingError::NotALink {
                switch: at,
                port: entry.port,
            }),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use clap::builder::TypedValueParser;

    #[test]
    fn algo_values_are_cores_names_and_json_spelling_is_unchanged() {
        let values: Vec<String> = algo_parser()
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_string())
            .collect();
        assert_eq!(values, RouteAlgo::ALL.map(|a| a.name().to_string()));
        assert_eq!(algo_ignore_case("DF-Minimal"), Some(RouteAlgo::DfMinimal));
        assert_eq!(algo_ignore_case("df_minimal"), None);
        // Reports (e.g. the dragonfly-bcast study's parameters) serialise the kebab-case
        // variant names, as the host's own enum did.
        assert_eq!(
            serde_json::to_string(&RouteAlgo::ALL).unwrap(),
            r#"["minimal","dfsssp","dor","dor-dateline","dor-booksim","ecube","greedy","naf","dmodk","nca","anca","df-minimal","df-minimal1vc","df-valiant","df-valiant-dest","df-ugal-l","df-ugal-g","df-ugal-booksim","parx","parx-large","min-latency"]"#
        );
        assert_eq!(
            port_tables(RouteAlgo::DorDateline),
            Some((RouteAlgo::Dor, VcRule::Dateline))
        );
    }
}
