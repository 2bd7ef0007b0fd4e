//! Choosing and building a routing algorithm for a network (spec/routing.md), with the
//! storage the table-based ones need.

use anyhow::{anyhow, bail, Result};
use serde::Serialize;

use jumpnet_core::routing::dfsssp::{dfsssp, DfssspConfig, DfssspSizes, DfssspStorage};
use jumpnet_core::routing::{
    cycle::Frame, CirculantGreedy, CirculantNaf, DistanceMatrix, FatTreeDmodK, HyperXDor,
    HypercubeEcube, MinimalRouting, Routing, TorusDor, TorusVcs,
};
use jumpnet_core::topology::{Network, Topology};

/// Routing algorithms selectable on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteAlgo {
    /// Minimal BFS routing, lowest port on ties (any topology, §1).
    Minimal,
    /// DFSSSP: balanced minimal routes with deadlock-free virtual layers (any topology, §6).
    Dfsssp,
    /// Dimension-order routing with 1 VC (torus, mesh, HyperX; hypercube = e-cube) (§2).
    Dor,
    /// Torus dimension-order routing with dateline VCs (§2).
    DorDateline,
    /// Hypercube e-cube routing (§2).
    Ecube,
    /// Circulant greedy routing by largest jump (§3).
    Greedy,
    /// Optimal NAF routing for G(n, log2 n) (§3).
    Naf,
    /// Fat-tree up/down with D-mod-k (§5).
    Dmodk,
}

impl RouteAlgo {
    /// Name as written on the command line.
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// Whether every route is a shortest path (checked against BFS distances).
    pub fn is_minimal(self) -> bool {
        !matches!(self, RouteAlgo::Greedy)
    }

    /// Whether the chosen port depends only on (switch, destination), so the routing
    /// compiles into per-switch forwarding tables.
    pub fn destination_based(self) -> bool {
        !matches!(self, RouteAlgo::DorDateline)
    }
}

/// Options of a routing.
#[derive(Clone, Copy, Debug)]
pub struct RouteOptions {
    /// Algorithm.
    pub algo: RouteAlgo,
    /// Virtual-layer limit of DFSSSP.
    pub max_layers: u8,
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

fn rerr(e: jumpnet_core::routing::RoutingError) -> anyhow::Error {
    anyhow!("{e}")
}

/// All-pairs switch distances (for minimality checks and minimal routing).
pub fn distance_matrix<'a>(
    net: &Network<'_>,
    dist: &'a mut Vec<u16>,
    queue: &mut Vec<u32>,
) -> Result<DistanceMatrix<'a>> {
    let n = net.num_switches() as usize;
    let entries = DistanceMatrix::entries_needed(net) as usize;
    if entries > (1usize << 31) {
        bail!(
            "all-pairs distances of {n} switches need {} GiB: too large",
            (entries * 2) >> 30
        );
    }
    dist.resize(entries, 0);
    queue.resize(n, 0);
    DistanceMatrix::compute(net, dist, queue).map_err(rerr)
}

/// Builds `opts.algo` on `net`; the routing borrows `store`.
pub fn build<'a>(
    net: &'a Network<'a>,
    opts: &RouteOptions,
    store: &'a mut RouteStore,
) -> Result<(Box<dyn Routing + 'a>, RoutingInfo)> {
    let fam = net.family().name();
    let wrong = |what: &str| {
        anyhow!(
            "--algo {} needs {what}, but the topology is {fam}",
            opts.algo.name()
        )
    };
    let mut info = RoutingInfo {
        algorithm: opts.algo.name(),
        ..Default::default()
    };
    let routing: Box<dyn Routing + 'a> = match (opts.algo, net) {
        (RouteAlgo::Minimal, _) => {
            let dm = distance_matrix(net, &mut store.dist, &mut store.queue)?;
            Box::new(MinimalRouting::new(net, dm).map_err(rerr)?)
        }
        (RouteAlgo::Dfsssp, _) => {
            let s = DfssspSizes::for_topology(net);
            if s.bytes() > (8usize << 30) {
                bail!(
                    "DFSSSP on this network needs {} GiB of tables: too large",
                    s.bytes() >> 30
                );
            }
            store.weights.resize(s.weights, 0);
            store.ddist.resize(s.dist, 0);
            store.scratch.resize(s.scratch, 0);
            store.next_port.resize(s.per_path, 0);
            store.layer.resize(s.per_path, 0);
            store.tree.resize(s.tree, 0);
            store.dep_count.resize(s.dep_count, 0);
            store.by_channel.resize(s.by_channel, 0);
            store.channel_start.resize(s.channel_start, 0);
            store.color.resize(s.channels, 0);
            store.stack.resize(s.channels, Frame::default());
            let cfg = DfssspConfig {
                max_layers: opts.max_layers,
                ..DfssspConfig::default()
            };
            let (r, rep) = dfsssp(
                net,
                &cfg,
                DfssspStorage {
                    weights: &mut store.weights,
                    dist: &mut store.ddist,
                    scratch: &mut store.scratch,
                    next_port: &mut store.next_port,
                    layer: &mut store.layer,
                    tree: &mut store.tree,
                    dep_count: &mut store.dep_count,
                    by_channel: &mut store.by_channel,
                    channel_start: &mut store.channel_start,
                    color: &mut store.color,
                    stack: &mut store.stack,
                },
            )
            .map_err(rerr)?;
            info.layers_needed = Some(rep.layers_needed);
            info.paths_per_layer = rep.paths_per_layer[..rep.layers_used as usize].to_vec();
            info.cycles_broken = Some(rep.cycles_broken);
            Box::new(r)
        }
        (RouteAlgo::Dor, Network::Torus(t)) => {
            Box::new(TorusDor::new(t, TorusVcs::Single).map_err(rerr)?)
        }
        (RouteAlgo::Dor, Network::HyperX(h)) => Box::new(HyperXDor::new(h)),
        (RouteAlgo::Dor | RouteAlgo::Ecube, Network::Hypercube(h)) => {
            Box::new(HypercubeEcube::new(h))
        }
        (RouteAlgo::Dor, _) => return Err(wrong("a torus, mesh, HyperX or hypercube")),
        (RouteAlgo::Ecube, _) => return Err(wrong("a hypercube")),
        (RouteAlgo::DorDateline, Network::Torus(t)) => {
            Box::new(TorusDor::new(t, TorusVcs::Dateline).map_err(rerr)?)
        }
        (RouteAlgo::DorDateline, _) => return Err(wrong("a torus")),
        (RouteAlgo::Greedy, Network::Circulant(c)) => Box::new(CirculantGreedy::new(c)),
        (RouteAlgo::Naf, Network::Circulant(c)) => Box::new(CirculantNaf::new(c).map_err(rerr)?),
        (RouteAlgo::Greedy | RouteAlgo::Naf, _) => {
            return Err(wrong("a ring or circulant (naf: G(n, log2 n))"))
        }
        (RouteAlgo::Dmodk, Network::FatTree(f)) => Box::new(FatTreeDmodK::new(f)),
        (RouteAlgo::Dmodk, _) => return Err(wrong("a fat tree")),
    };
    info.vcs = routing.num_vcs();
    Ok((routing, info))
}
