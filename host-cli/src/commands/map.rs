//! `jumpnet map`: process mapping and placement optimisation (spec/mapping.md), returned as
//! data: the rank → node permutation and before/after hop statistics ([`place`]), and GA
//! node mapping on a torus ([`ga`]); plus the command's arguments ([`MapAction`]) and
//! [`run`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use serde::Serialize;

use jumpnet_core::collective::Schedule;
use jumpnet_core::mapping::ga::{
    Address, Fitness, Ga, GaBuffers, GaConfig, GaProblem, Grid, PatternSet, ProxyFitness, Ranking,
    Score, TrafficPattern, Variant,
};
use jumpnet_core::mapping::{ChannelId, NodeId, PathLength, PathOracle};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::{
    self, deadlock::channel::channel_index, paths::walk, TorusDor, TorusVcs,
};
use jumpnet_core::topology::{Network, Topology, Torus};

use crate::build;
use crate::build::network::OwnedNetwork;
use crate::build::placement::{self, HopStats, MapStrategy, Optimiser, RankOrderChoice, Traffic};
use crate::build::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::commands::args::{FormatArgs, TopologyArgs};
use crate::io::output::{self, Render, Section};
use crate::io::progress::Progress;

/// What `map place` should do.
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
    /// Optimiser iterations (two-opt swaps / annealing temperature steps).
    pub iterations: u64,
    /// Seed of the mapping and the optimiser.
    pub seed: u64,
    /// Show a progress bar.
    pub progress: bool,
}

/// `map place` result.
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
            format!("{} ({} iterations)", self.optimiser, self.iterations),
        )
        .kv("messages (lower bound on hops)", self.lower_bound)
        .kv("total hops before", self.before.total_hops)
        .kv("total hops after", self.after.total_hops)
        .kv("reduction", format!("{:.1} %", self.reduction_percent))
        .kv(
            "max hops before / after",
            format!("{} / {}", self.before.max_hops, self.after.max_hops),
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

/// Builds the collective's rank-space schedule.
pub fn rank_schedule(
    collective: Algorithm,
    ranks: u32,
    root: u32,
) -> Result<schedule::OwnedSchedule> {
    if collective.needs_topology() {
        bail!(
            "--collective {} is topology-aware; map places rank-space collectives (bcast, allreduce, alltoall, ...)",
            collective.name()
        );
    }
    schedule::build(
        &CollectiveRequest {
            algorithm: collective,
            ranks: Some(ranks),
            root,
            bytes: 8,
            elem_bytes: 4,
            placement: JobPlacement::Consecutive,
            seed: 0,
        },
        None,
    )
}

/// Maps and optimises a collective's ranks on `net`.
pub fn place(net: &OwnedNetwork, req: &PlaceRequest) -> Result<Placed> {
    let t = net.network();
    placement::check_one_node_per_switch(&t)?;
    let owned = rank_schedule(req.collective, req.ranks, req.root)?;
    let schedule = owned.schedule()?;
    let (mut dist, mut queue) = (Vec::new(), Vec::new());
    let dm = build::routing::distance_matrix(&t, &mut dist, &mut queue)?;
    let mut pl = placement::initial(&t, req.strategy, req.order, req.ranks, req.seed)?;
    let before = placement::hop_stats(&dm, &schedule, &pl)?;
    let traffic = Traffic::of(&schedule)?;
    let bar = Progress::new(
        "optimising",
        req.iterations,
        req.progress && req.optimiser != Optimiser::None,
    );
    let started = std::time::Instant::now();
    let outcome = placement::optimise(
        &dm,
        &traffic,
        &mut pl,
        req.optimiser,
        req.iterations,
        req.seed ^ 0x7770_0007,
        &mut |done, _, _| bar.set(done),
    )?;
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    let after = placement::hop_stats(&dm, &schedule, &pl)?;
    if let Some(o) = outcome {
        if o.best != after.total_hops {
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

/// The channels of every torus DOR route between two nodes, precomputed (a
/// [`PathOracle`] over core's routing, for the GA's contention proxy).
#[derive(Debug)]
pub struct RoutedPaths {
    n: u32,
    channels: u32,
    start: Vec<u32>,
    list: Vec<ChannelId>,
}

impl RoutedPaths {
    /// Routes every ordered pair of terminals of `topo` with `routing`.
    pub fn build<T: Topology>(topo: &T, routing: &dyn routing::Routing) -> Result<Self> {
        let n = topo.num_terminals();
        let radix = topo.radix();
        let limit = routing::default_hop_limit(topo);
        let mut start = Vec::with_capacity(n as usize * n as usize + 1);
        let mut list = Vec::new();
        for a in 0..n {
            for b in 0..n {
                start.push(list.len() as u32);
                if a != b {
                    walk::walk(topo, routing, a, b, limit, |s| {
                        list.push(channel_index(radix, s.from, s.port) as ChannelId)
                    })
                    .with_context(|| format!("routing {a} -> {b}"))?;
                }
            }
        }
        start.push(list.len() as u32);
        Ok(RoutedPaths {
            n,
            channels: topo.num_switches() * radix as u32,
            start,
            list,
        })
    }
}

impl PathOracle for RoutedPaths {
    fn num_channels(&self) -> u32 {
        self.channels
    }

    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, mut f: F) {
        if a >= self.n || b >= self.n {
            return;
        }
        let i = a as usize * self.n as usize + b as usize;
        for &c in &self.list[self.start[i] as usize..self.start[i + 1] as usize] {
            f(c);
        }
    }
}

/// What `map ga` should do.
#[derive(Clone, Debug)]
pub struct GaRequest {
    /// Torus side n (n × n nodes).
    pub side: u16,
    /// Applied traffic patterns.
    pub patterns: Vec<TrafficPattern>,
    /// Variant (S00–S99).
    pub variant: Variant,
    /// Ranking (sc / ah / ml).
    pub ranking: Ranking,
    /// Population.
    pub genes: u32,
    /// Generations (generation 0 = the random population).
    pub generations: u32,
    /// Seed.
    pub seed: u64,
    /// Show a progress bar.
    pub progress: bool,
}

/// A GA score as printed.
#[derive(Debug, Serialize, Clone, Copy)]
pub struct ScoreRow {
    /// Proxy duration (cycles).
    pub duration: u64,
    /// Average physical hops of the flows.
    pub avg_hop: f64,
}

impl From<Score> for ScoreRow {
    fn from(s: Score) -> Self {
        ScoreRow {
            duration: s.duration,
            avg_hop: s.avg_hop.as_f64(),
        }
    }
}

/// `map ga` result.
#[derive(Debug, Serialize)]
pub struct GaResult {
    /// Torus.
    pub torus: String,
    /// Patterns.
    pub patterns: Vec<String>,
    /// Variant and ranking, e.g. `S03-ml`.
    pub variant: String,
    /// Population × generations.
    pub genes: u32,
    /// Generations.
    pub generations: u32,
    /// Theoretical minimum duration (34 cycles per pattern).
    pub minimum_duration: u64,
    /// Identity mapping.
    pub identity: ScoreRow,
    /// Best gene found.
    pub best: ScoreRow,
    /// Generation where it was reached.
    pub best_generation: u32,
    /// Speed-up of the proxy duration over the identity mapping.
    pub speedup: f64,
    /// Seconds.
    pub seconds: f64,
    /// Best gene: `gene[physical position] = logical address`.
    pub gene: Vec<Address>,
}

impl Render for GaResult {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!(
            "GA node mapping on the {} torus, patterns {} (duration = contention proxy)",
            self.torus,
            self.patterns.join("+")
        ));
        s.kv("variant", &self.variant)
            .kv(
                "population x generations",
                format!("{} x {}", self.genes, self.generations),
            )
            .kv("theoretical minimum (cycles)", self.minimum_duration)
            .kv(
                "identity duration / avg.hop",
                format!("{} / {:.3}", self.identity.duration, self.identity.avg_hop),
            )
            .kv(
                "best duration / avg.hop",
                format!("{} / {:.3}", self.best.duration, self.best.avg_hop),
            )
            .kv("best generation", self.best_generation)
            .kv("speed-up over identity", format!("{:.2}x", self.speedup))
            .kv("seconds", format!("{:.2}", self.seconds));
        let side = (self.gene.len() as f64).sqrt().round() as usize;
        let mut g = Section::new(
            "best gene (logical address at each physical position, row y = 0 first)",
            &["y", "x = 0.."],
        );
        for y in 0..side {
            let row: Vec<String> = self.gene[y * side..(y + 1) * side]
                .iter()
                .map(|a| a.to_string())
                .collect();
            g.row([y.to_string(), row.join(" ")]);
        }
        vec![s, g]
    }
}

/// Runs the GA of spec/mapping.md §5 on an n × n torus with DOR (contention proxy fitness).
pub fn ga(req: &GaRequest) -> Result<GaResult> {
    if req.patterns.is_empty() {
        bail!("give at least one traffic pattern (--patterns bcmp,shfl,trns)");
    }
    let grid = Grid::new(req.side)?;
    let torus = Torus::torus(&[req.side as u32, req.side as u32], 1)?;
    let net = Network::Torus(torus.clone());
    let dor = TorusDor::new(&torus, TorusVcs::Single)?;
    let paths = RoutedPaths::build(&net, &dor)?;
    let nodes = grid.nodes();
    let mut dest = vec![0 as Address; nodes * req.patterns.len()];
    let mut rng = Rng::new(req.seed);
    let mut scratch = vec![0 as Address; nodes];
    for (i, p) in req.patterns.iter().enumerate() {
        p.fill(
            grid,
            &mut rng,
            &mut scratch,
            &mut dest[i * nodes..(i + 1) * nodes],
        )
        .with_context(|| format!("pattern {}", p.name()))?;
    }
    let set = PatternSet::new(nodes, &dest)?;
    let mut loads = vec![0u32; paths.num_channels() as usize];
    let mut inv = vec![0 as Address; nodes];
    let mut fitness = ProxyFitness::new(&paths, set, &mut loads, &mut inv)?;
    let identity: Vec<Address> = (0..nodes as Address).collect();
    let identity_score = fitness.evaluate(&identity);
    let p = req.genes as usize;
    if p == 0 {
        bail!("--genes must be at least 1");
    }
    let mut genes = vec![0 as Address; p * nodes];
    let mut scores = vec![identity_score; p];
    let mut order = vec![0u32; p];
    let mut inverse = vec![0 as Address; nodes];
    let mut loads2 = vec![0u32; paths.num_channels() as usize];
    let mut inv2 = vec![0 as Address; nodes];
    let fit = ProxyFitness::new(&paths, set, &mut loads2, &mut inv2)?;
    let started = std::time::Instant::now();
    let engine = Ga::new(
        GaConfig {
            variant: req.variant,
            ranking: req.ranking,
            seed: req.seed,
        },
        GaProblem {
            grid,
            patterns: set,
            distance: PathLength(&paths),
        },
        fit,
        GaBuffers {
            genes: &mut genes,
            scores: &mut scores,
            order: &mut order,
            inverse: &mut inverse,
        },
    )?;
    let bar = Progress::new("generations", req.generations as u64, req.progress);
    let mut best_gene = vec![0 as Address; nodes];
    let outcome = engine.run(req.generations, &mut best_gene, &mut |g, _| {
        bar.set(g as u64 + 1)
    })?;
    bar.finish();
    let best: ScoreRow = outcome.best.into();
    Ok(GaResult {
        torus: format!("{0}x{0}", req.side),
        patterns: req.patterns.iter().map(|p| p.name().to_string()).collect(),
        variant: format!("{}-{}", req.variant.name(), req.ranking.name()),
        genes: req.genes,
        generations: req.generations,
        minimum_duration: 34 * req.patterns.len() as u64,
        identity: identity_score.into(),
        best,
        best_generation: outcome.best_generation,
        speedup: identity_score.duration as f64 / best.duration.max(1) as f64,
        seconds: started.elapsed().as_secs_f64(),
        gene: best_gene,
    })
}

/// `jumpnet map ...` actions.
#[derive(Debug, Subcommand)]
pub enum MapAction {
    /// Map the ranks of a rank-space collective onto a topology's nodes with a baseline
    /// strategy, optionally optimise the placement (two-opt / annealing) for total hops, and
    /// print the permutation with before/after statistics.
    Place {
        /// The topology (one compute node per switch).
        #[command(flatten)]
        topology: TopologyArgs,
        /// Collective whose messages are placed.
        #[arg(long, short = 'c', value_enum, default_value = "bcast")]
        collective: Algorithm,
        /// Number of ranks (default: all nodes).
        #[arg(long, short = 'n')]
        ranks: Option<u32>,
        /// Root rank of broadcasts.
        #[arg(long, default_value_t = 0)]
        root: u32,
        /// Baseline mapping.
        #[arg(long, short = 'm', value_enum, default_value = "ring")]
        mapping: MapStrategy,
        /// Rank order of the mapped nodes.
        #[arg(long, value_enum, default_value = "paper")]
        rank_order: RankOrderChoice,
        /// Placement optimiser.
        #[arg(long, value_enum, default_value = "two-opt")]
        optimise: Optimiser,
        /// Optimiser iterations (two-opt swaps; annealing temperature steps of m swaps each).
        #[arg(long, default_value_t = 200_000)]
        iterations: u64,
        /// Seed of the mapping and the optimiser.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the permutation (CSV `rank,node`) to this file.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Genetic node mapping on an n x n torus with dimension-order routing (\[GA\], spec/mapping.md §5).
    Ga {
        /// Torus side n (n x n nodes).
        #[arg(long, default_value_t = 8)]
        side: u16,
        /// Traffic patterns applied together: bcmp, brev, brot, shfl, trns, torn, rpar, rrng.
        #[arg(long, value_delimiter = ',', default_value = "bcmp,shfl,trns")]
        patterns: Vec<String>,
        /// Variant S00..S22 or S99 (random search).
        #[arg(long, default_value = "S03")]
        variant: String,
        /// Ranking: sc (duration first), ah (avg.hop first), ml (product).
        #[arg(long, default_value = "ml")]
        ranking: String,
        /// Population size.
        #[arg(long, default_value_t = 1000)]
        genes: u32,
        /// Generations.
        #[arg(long, default_value_t = 1000)]
        generations: u32,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
}

/// Runs `jumpnet map ...`; returns the exit code.
pub fn run(action: MapAction) -> Result<u8> {
    match action {
        MapAction::Place {
            topology,
            collective,
            ranks,
            root,
            mapping,
            rank_order,
            optimise,
            iterations,
            seed,
            output: path,
            quiet,
            format,
        } => {
            let net = topology.build()?;
            let ranks = ranks.unwrap_or(Topology::num_switches(&net.network()));
            let placed = place(
                &net,
                &PlaceRequest {
                    collective,
                    ranks,
                    root,
                    strategy: mapping,
                    order: rank_order,
                    optimiser: optimise,
                    iterations,
                    seed,
                    progress: !quiet,
                },
            )?;
            if let Some(p) = path {
                let mut csv = String::from("rank,node\n");
                for (r, n) in placed.placement.iter().enumerate() {
                    csv.push_str(&format!("{r},{n}\n"));
                }
                output::write_atomic(&p, csv.as_bytes())?;
            }
            output::print(&placed, format.format())?;
        }
        MapAction::Ga {
            side,
            patterns,
            variant,
            ranking,
            genes,
            generations,
            seed,
            quiet,
            format,
        } => {
            let pats = patterns
                .iter()
                .map(|p| {
                    TrafficPattern::from_name(p.trim()).ok_or_else(|| {
                        anyhow!("unknown pattern `{p}`: use bcmp, brev, brot, shfl, trns, torn, rpar, rrng")
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let v = Variant::from_name(&variant).ok_or_else(|| {
                anyhow!("unknown variant `{variant}`: use S00-S05, S10-S12, S20-S22 or S99")
            })?;
            let r = Ranking::from_name(&ranking)
                .ok_or_else(|| anyhow!("unknown ranking `{ranking}`: use sc, ah or ml"))?;
            let res = ga(&GaRequest {
                side,
                patterns: pats,
                variant: v,
                ranking: r,
                genes,
                generations,
                seed,
                progress: !quiet,
            })?;
            output::print(&res, format.format())?;
        }
    }
    Ok(0)
}
