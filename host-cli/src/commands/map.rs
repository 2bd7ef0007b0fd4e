//! `jumpnet map`: process mapping and placement optimisation (spec/mapping.md), returned as
//! data: the rank → node permutation and before/after hop statistics ([`place`]), and GA
//! node mapping on a torus ([`ga`]); plus the command's arguments ([`MapAction`]) and
//! [`run`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Subcommand;
use serde::Serialize;

use jumpnet_core::collective::Schedule;
use jumpnet_core::mapping::ga::{Ranking, TrafficPattern, Variant};
use jumpnet_core::mapping::NodeId;
use jumpnet_core::topology::Topology;

use crate::builder;
use crate::builder::network::OwnedNetwork;
use crate::builder::placement::{self, HopStats, MapStrategy, Optimiser, RankOrderChoice, Traffic};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::commands::args::{FormatArgs, TopologyArgs};
pub use crate::ga::{ga, FitnessKind, GaRequest, GaResult, RoutedPaths, ScoreRow};
use crate::io::output::{self, Render, Section};
use crate::io::progress::Progress;
use crate::sim::SimConfig;
use crate::study::ga_mapping::{phys_study, variants_study, VariantsRequest};

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
    let dm = builder::routing::distance_matrix(&t, &mut dist, &mut queue)?;
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
        /// Fitness: the contention proxy or the flit-level simulator (`ga` preset).
        #[arg(long, value_enum, default_value = "proxy")]
        fitness: FitnessKind,
        /// Worker threads of the simulated fitness (0 = every core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Reproduce the GA study of [GA] (reference-results.md C): identity-mapping durations of
    /// the 15 pattern pairs, or GA variants compared.
    #[command(name = "ga-study")]
    GaStudy {
        /// Which study.
        #[command(subcommand)]
        study: GaStudy,
    },
}

/// `jumpnet map ga-study ...` studies.
#[derive(Debug, Subcommand)]
pub enum GaStudy {
    /// Simulated identity-mapping durations of the 15 pattern pairs beside [GA] Table 2
    /// ("phys dur") and the contention proxy.
    Phys {
        /// Engine overrides of the `ga` preset, `key=value` (keys of `jumpnet sim --set`),
        /// e.g. `--set num_vcs=6` to see how the router model moves the durations.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Mean best durations of GA variants x rankings over seeded runs, beside [GA] Table 3
    /// for three patterns, with [GA]'s qualitative claims checked.
    Variants {
        /// Traffic patterns applied together.
        #[arg(long, value_delimiter = ',', default_value = "bcmp,shfl,trns")]
        patterns: Vec<String>,
        /// Variants (S00..S22, S99).
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "S00,S01,S02,S03,S04,S05,S10,S11,S12,S20,S21,S22,S99"
        )]
        variants: Vec<String>,
        /// Rankings (sc, ah, ml).
        #[arg(long, value_delimiter = ',', default_value = "sc,ah,ml")]
        rankings: Vec<String>,
        /// Population size.
        #[arg(long, default_value_t = 100)]
        genes: u32,
        /// Generations.
        #[arg(long, default_value_t = 100)]
        generations: u32,
        /// Runs per variant x ranking (seeds seed, seed+1, ...).
        #[arg(long, default_value_t = 1)]
        runs: u32,
        /// First seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fitness: the contention proxy or the flit-level simulator.
        #[arg(long, value_enum, default_value = "sim")]
        fitness: FitnessKind,
        /// Worker threads of the simulated fitness (0 = every core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
}

fn parse_patterns(names: &[String]) -> Result<Vec<TrafficPattern>> {
    names
        .iter()
        .map(|p| {
            TrafficPattern::from_name(p.trim()).ok_or_else(|| {
                anyhow!("unknown pattern `{p}`: use bcmp, brev, brot, shfl, trns, torn, rpar, rrng")
            })
        })
        .collect()
}

fn parse_variant(name: &str) -> Result<Variant> {
    Variant::from_name(name.trim())
        .ok_or_else(|| anyhow!("unknown variant `{name}`: use S00-S05, S10-S12, S20-S22 or S99"))
}

fn parse_ranking(name: &str) -> Result<Ranking> {
    Ranking::from_name(name.trim())
        .ok_or_else(|| anyhow!("unknown ranking `{name}`: use sc, ah or ml"))
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
            fitness,
            threads,
            quiet,
            format,
        } => {
            let res = ga(&GaRequest {
                side,
                patterns: parse_patterns(&patterns)?,
                variant: parse_variant(&variant)?,
                ranking: parse_ranking(&ranking)?,
                genes,
                generations,
                seed,
                fitness,
                threads,
                progress: !quiet,
            })?;
            output::print(&res, format.format())?;
        }
        MapAction::GaStudy {
            study: GaStudy::Phys { set, format },
        } => {
            let mut cfg = SimConfig::ga();
            for kv in &set {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| anyhow!("--set wants key=value, got `{kv}`"))?;
                cfg.set(k.trim(), v)?;
            }
            output::print(&phys_study(&cfg)?, format.format())?
        }
        MapAction::GaStudy {
            study:
                GaStudy::Variants {
                    patterns,
                    variants,
                    rankings,
                    genes,
                    generations,
                    runs,
                    seed,
                    fitness,
                    threads,
                    quiet,
                    format,
                },
        } => {
            if runs == 0 {
                bail!("--runs must be at least 1");
            }
            let res = variants_study(&VariantsRequest {
                patterns: parse_patterns(&patterns)?,
                variants: variants
                    .iter()
                    .map(|v| parse_variant(v))
                    .collect::<Result<_>>()?,
                rankings: rankings
                    .iter()
                    .map(|r| parse_ranking(r))
                    .collect::<Result<_>>()?,
                genes,
                generations,
                runs,
                seed,
                fitness,
                threads,
                progress: !quiet,
            })?;
            output::print(&res, format.format())?;
        }
    }
    Ok(0)
}
