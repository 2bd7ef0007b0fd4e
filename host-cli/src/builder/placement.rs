//! Process mappings on the host: choose the job's nodes and rank order (docs/mapping.md §1)
//! and optimise the rank placement for a collective (§2–§4, with [`super::optimise`]).
//!
//! Nodes are switches with one compute node each (the \[DISS\] model). Rank orders default to
//! the ones that reproduce \[DISS\]'s numbers (docs/reference-results.md A5): the random mapping
//! places ranks in random order, the hierarchical-tree mapping in BFS order, ring and
//! circulant mappings in traversal order. `RankOrderChoice::Ascending` gives the spec's
//! ascending-node-id variant.

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use jumpnet_core::analysis::{distance_hops, flatten, StepBuffers};
use jumpnet_core::collective::Schedule;
use jumpnet_core::mapping::{
    bfs_mapping, circulant_mapping, random_free_node, random_mapping, ring_mapping, BfsBuffers,
    DistanceMatrix, FreeNodes, Message, NodeId,
};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{Network, Topology};

use crate::builder::network::OwnedNetwork;
use crate::builder::optimise::{optimise, JobRoutes, Optimisation, PlacementObjective};
use crate::builder::routing::{distance_matrix, RouteOptions, RouteStore};
use crate::builder::schedule::{rank_schedule, Algorithm};
use crate::io::output::{Render, Section};
use crate::io::progress::Progress;

/// Baseline mappings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapStrategy {
    /// m distinct random nodes.
    Random,
    /// Hierarchical tree: BFS from a random root.
    Tree,
    /// Ring-consecutive nodes from a random start.
    Ring,
    /// Circulant: stride n/m from a random start (m a power of two).
    Circulant,
}

impl MapStrategy {
    /// Name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MapStrategy::Random => "random",
            MapStrategy::Tree => "tree",
            MapStrategy::Ring => "ring",
            MapStrategy::Circulant => "circulant",
        }
    }
}

/// How ranks are assigned to the mapped nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankOrderChoice {
    /// The order that reproduces \[DISS\]: random for random mappings, BFS order for trees,
    /// traversal order for ring and circulant mappings.
    Paper,
    /// Ascending node id (docs/mapping.md §1 for random and tree mappings).
    Ascending,
}

/// Placement optimisers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Optimiser {
    /// Keep the baseline placement.
    None,
    /// Random pairwise swaps, strict improvement (docs/mapping.md §3).
    TwoOpt,
    /// Simulated annealing with geometric cooling (§4).
    Anneal,
}

/// Checks the \[DISS\] node model: one terminal per switch.
pub fn check_one_node_per_switch(net: &Network<'_>) -> Result<()> {
    if net.num_terminals() != net.num_switches() {
        bail!(
            "process mapping works on the [DISS] model of one compute node per switch, but this topology has {} terminals on {} switches (use p=1 / t=1)",
            net.num_terminals(),
            net.num_switches()
        );
    }
    Ok(())
}

/// Chooses `m` nodes with `strategy` and orders them by `order` (`rank → node`).
pub fn initial(
    net: &Network<'_>,
    strategy: MapStrategy,
    order: RankOrderChoice,
    m: u32,
    seed: u64,
) -> Result<Vec<NodeId>> {
    let n = net.num_switches();
    if m == 0 || m > n {
        bail!("--ranks {m} is invalid: the topology has {n} nodes (use 1..={n})");
    }
    let mut rng = Rng::new(seed);
    let mut out = vec![0; m as usize];
    match strategy {
        MapStrategy::Random => {
            random_mapping(n, FreeNodes::All, &mut rng, &mut out).context("mapping")?;
            if order == RankOrderChoice::Paper {
                rng.shuffle(&mut out);
            }
        }
        MapStrategy::Tree => {
            let root = random_free_node(n, FreeNodes::All, &mut rng).context("mapping")?;
            let (mut queue, mut seen) = (vec![0; n as usize], vec![false; n as usize]);
            bfs_mapping(
                net,
                FreeNodes::All,
                root,
                &mut out,
                BfsBuffers {
                    queue: &mut queue,
                    seen: &mut seen,
                },
            )
            .context("mapping")?;
            if order == RankOrderChoice::Ascending {
                out.sort_unstable();
            }
        }
        // Ring and circulant mappings start at node 0 (docs/mapping.md §1 allows a random
        // start or 0; node 0 keeps group-structured topologies aligned, as in [DISS] §5).
        MapStrategy::Ring => {
            ring_mapping(n, FreeNodes::All, 0, &mut out).context("mapping")?;
        }
        MapStrategy::Circulant => {
            circulant_mapping(n, FreeNodes::All, 0, &mut out).context("mapping")?;
        }
    }
    Ok(out)
}

/// A collective's messages flattened for the mapping objective.
#[derive(Debug)]
pub struct Traffic {
    /// Messages `(step, src_rank, dst_rank)`.
    pub messages: Vec<Message>,
    /// Ranks of the schedule.
    pub ranks: u32,
}

impl Traffic {
    /// Flattens `schedule`.
    pub fn of<S: Schedule>(schedule: &S) -> Result<Self> {
        let mut messages = vec![
            Message {
                step: 0,
                src_rank: 0,
                dst_rank: 0
            };
            schedule.num_messages() as usize
        ];
        let n = flatten(schedule, &mut messages)?;
        messages.truncate(n);
        Ok(Traffic {
            messages,
            ranks: schedule.ranks(),
        })
    }
}

/// Hop statistics of a placement.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct HopStats {
    /// Total router hops (\[DISS\] total hop count).
    pub total_hops: u64,
    /// Messages.
    pub messages: u64,
    /// Largest hop count of one message.
    pub max_hops: u32,
    /// Router hops per step (step 1 first).
    pub hops_per_step: Vec<u64>,
    /// Largest message hop count per step.
    pub max_per_step: Vec<u32>,
}

/// Hop statistics of `placement` for `schedule` under the distances `dm`.
pub fn hop_stats<S: Schedule>(
    dm: &DistanceMatrix<'_>,
    schedule: &S,
    placement: &[NodeId],
) -> Result<HopStats> {
    let steps = schedule.num_steps() as usize + 1;
    let mut hops = vec![0u64; steps];
    let mut max = vec![0u32; steps];
    let s = distance_hops(
        dm,
        schedule,
        placement,
        StepBuffers {
            hops: Some(&mut hops),
            max_hops: Some(&mut max),
            ..StepBuffers::default()
        },
    )?;
    Ok(HopStats {
        total_hops: s.total_hops,
        messages: s.messages,
        max_hops: s.max_hops,
        hops_per_step: hops[1..].to_vec(),
        max_per_step: max[1..].to_vec(),
    })
}

/// A collective's ranks to place on a network (`jumpnet map place`).
#[derive(Clone, Debug)]
pub struct PlaceRequest {
    /// Collective whose traffic is placed (rank space).
    pub collective: Algorithm,
    /// Ranks.
    pub ranks: u32,
    /// Root of broadcasts.
    pub root: u32,
    /// Baseline mapping.
    pub strategy: MapStrategy,
    /// Rank order.
    pub order: RankOrderChoice,
    /// Optimiser.
    pub optimiser: Optimiser,
    /// What the optimiser minimises.
    pub objective: PlacementObjective,
    /// The routing of the channel objectives (required for them).
    pub route: Option<RouteOptions>,
    /// Optimiser iterations (two-opt swaps / annealing temperature steps).
    pub iterations: u64,
    /// Seed of the mapping and the optimiser.
    pub seed: u64,
    /// Show a progress bar.
    pub progress: bool,
}

/// A placement with its hop statistics before and after optimisation.
#[derive(Debug, Serialize)]
pub struct Placed {
    /// Topology.
    pub topology: String,
    /// Collective.
    pub collective: String,
    /// Ranks.
    pub ranks: u32,
    /// Mapping.
    pub mapping: String,
    /// Rank order.
    pub rank_order: String,
    /// Optimiser.
    pub optimiser: String,
    /// What it minimised (`hops`, `contention`, `max-link-load`).
    pub objective: String,
    /// The objective's value before and after optimisation (`None` without an optimiser).
    pub objective_values: Option<(u64, u64)>,
    /// Iterations.
    pub iterations: u64,
    /// Lower bound on total hops (every message at least one hop).
    pub lower_bound: u64,
    /// Statistics of the baseline placement.
    pub before: HopStats,
    /// Statistics after optimisation.
    pub after: HopStats,
    /// Reduction of total hops, percent.
    pub reduction_percent: f64,
    /// Swaps accepted by the optimiser.
    pub accepted: u64,
    /// Seconds spent optimising.
    pub seconds: f64,
    /// Final placement: `placement[rank] = node`.
    pub placement: Vec<NodeId>,
}

impl Placed {
    /// The placement as CSV `rank,node` lines under a header.
    pub fn csv(&self) -> String {
        let mut csv = String::from("rank,node\n");
        for (r, n) in self.placement.iter().enumerate() {
            csv.push_str(&format!("{r},{n}\n"));
        }
        csv
    }
}

impl Render for Placed {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!(
            "{} with {} ranks on {}",
            self.collective, self.ranks, self.topology
        ));
        s.kv(
            "mapping",
            format!("{} ({} rank order)", self.mapping, self.rank_order),
        )
        .kv(
            "optimiser",
            format!(
                "{} on {} ({} iterations)",
                self.optimiser, self.objective, self.iterations
            ),
        )
        .kv("messages (lower bound on hops)", self.lower_bound)
        .kv("total hops before", self.before.total_hops)
        .kv("total hops after", self.after.total_hops)
        .kv("reduction", format!("{:.1} %", self.reduction_percent))
        .kv(
            "max hops before / after",
            format!("{} / {}", self.before.max_hops, self.after.max_hops),
        )
        .kv(
            &format!("{} before / after", self.objective),
            self.objective_values
                .map_or("-".to_string(), |(b, a)| format!("{b} / {a}")),
        )
        .kv("swaps accepted", self.accepted)
        .kv("seconds", format!("{:.3}", self.seconds));
        let mut st = Section::new(
            "hops per step",
            &["step", "before", "after", "max before", "max after"],
        );
        for (i, (b, a)) in self
            .before
            .hops_per_step
            .iter()
            .zip(&self.after.hops_per_step)
            .enumerate()
        {
            st.row([
                (i + 1).to_string(),
                b.to_string(),
                a.to_string(),
                self.before.max_per_step[i].to_string(),
                self.after.max_per_step[i].to_string(),
            ]);
        }
        let mut p = Section::new("placement (rank -> node)", &["rank", "node"]);
        for (r, n) in self.placement.iter().enumerate().take(32) {
            p.row([r.to_string(), n.to_string()]);
        }
        if self.placement.len() > 32 {
            p.row([
                "...".to_string(),
                format!(
                    "{} more (use --output or --json)",
                    self.placement.len() - 32
                ),
            ]);
        }
        vec![s, st, p]
    }
}

/// The routes a channel objective needs (`None` for hops or without an optimiser).
fn job_routes(net: &Network<'_>, req: &PlaceRequest, pl: &[NodeId]) -> Result<Option<JobRoutes>> {
    if req.objective == PlacementObjective::Hops || req.optimiser == Optimiser::None {
        return Ok(None);
    }
    let Some(route) = &req.route else {
        bail!(
            "--objective {} counts messages per channel along their routes: give the routing with --algo (`jumpnet route --help` lists them)",
            req.objective.name()
        );
    };
    let mut store = RouteStore::default();
    let (routing, _) = crate::builder::routing::build(net, route, &mut store)?;
    let of = terminals_of_switches(net)?;
    JobRoutes::build(net, routing.as_ref(), &of, pl).map(Some)
}

/// Terminal of every switch in a one-terminal-per-switch network.
pub fn terminals_of_switches(net: &Network<'_>) -> Result<Vec<u32>> {
    check_one_node_per_switch(net)?;
    let mut of = vec![u32::MAX; net.num_switches() as usize];
    for t in 0..net.num_terminals() {
        let s = net
            .terminal_switch(t)
            .ok_or_else(|| anyhow!("terminal {t} has no switch"))?;
        of[s as usize] = t;
    }
    Ok(of)
}

/// Maps a collective's ranks on `net` with the baseline strategy and optimises the
/// placement for total hops.
///
/// # Examples
///
/// ```
/// use jumpnet::builder::network::OwnedNetwork;
/// use jumpnet::builder::optimise::PlacementObjective;
/// use jumpnet::builder::placement::{place, MapStrategy, Optimiser, PlaceRequest, RankOrderChoice};
/// use jumpnet::builder::schedule::Algorithm;
/// use jumpnet::builder::topology::TopologySpec;
///
/// let net = OwnedNetwork::build(&TopologySpec::parse(&["ring".into(), "n=8".into()]).unwrap())
///     .unwrap();
/// let placed = place(
///     &net,
///     &PlaceRequest {
///         collective: Algorithm::Bcast,
///         ranks: 8,
///         root: 0,
///         strategy: MapStrategy::Ring,
///         order: RankOrderChoice::Paper,
///         optimiser: Optimiser::None,
///         objective: PlacementObjective::Hops,
///         route: None,
///         iterations: 0,
///         seed: 1,
///         progress: false,
///     },
/// )
/// .unwrap();
/// // The binomial broadcast over an 8-ring in ring order: 7 messages crossing 12 links.
/// assert_eq!(placed.lower_bound, 7);
/// assert_eq!(placed.before.total_hops, 12);
/// assert_eq!(placed.placement, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
pub fn place(net: &OwnedNetwork, req: &PlaceRequest) -> Result<Placed> {
    let t = net.network();
    check_one_node_per_switch(&t)?;
    let owned = rank_schedule(req.collective, req.ranks, req.root)?;
    let schedule = owned.schedule()?;
    let (mut dist, mut queue) = (Vec::new(), Vec::new());
    let dm = distance_matrix(&t, &mut dist, &mut queue)?;
    let mut pl = initial(&t, req.strategy, req.order, req.ranks, req.seed)?;
    let before = hop_stats(&dm, &schedule, &pl)?;
    let traffic = Traffic::of(&schedule)?;
    let bar = Progress::new(
        "optimising",
        req.iterations,
        req.progress && req.optimiser != Optimiser::None,
    );
    let started = std::time::Instant::now();
    let how = Optimisation {
        optimiser: req.optimiser,
        objective: req.objective,
        iterations: req.iterations,
        seed: req.seed ^ 0x7770_0007,
    };
    let routes = job_routes(&t, req, &pl)?;
    let outcome = optimise(
        &dm,
        routes.as_ref(),
        &traffic,
        &mut pl,
        &how,
        &mut |done, _, _| bar.set(done),
    )?;
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    let after = hop_stats(&dm, &schedule, &pl)?;
    if let Some(o) = outcome {
        if req.objective == PlacementObjective::Hops && o.best != after.total_hops {
            bail!(
                "internal: optimiser reported {} hops, re-evaluation gives {}",
                o.best,
                after.total_hops
            );
        }
    }
    Ok(Placed {
        topology: net.spec().to_string(),
        collective: owned.description.clone(),
        ranks: req.ranks,
        mapping: req.strategy.name().into(),
        rank_order: match req.order {
            RankOrderChoice::Paper => "paper".into(),
            RankOrderChoice::Ascending => "ascending".into(),
        },
        optimiser: format!("{:?}", req.optimiser).to_lowercase(),
        objective: req.objective.name().into(),
        objective_values: outcome.map(|o| (o.initial, o.best)),
        iterations: if req.optimiser == Optimiser::None {
            0
        } else {
            req.iterations
        },
        lower_bound: schedule.num_messages(),
        reduction_percent: if before.total_hops == 0 {
            0.0
        } else {
            100.0 * (before.total_hops as f64 - after.total_hops as f64) / before.total_hops as f64
        },
        before,
        after,
        accepted: outcome.map_or(0, |o| o.accepted),
        seconds,
        placement: pl,
    })
}
