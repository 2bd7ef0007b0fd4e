//! `jumpnet map`: process mapping and placement optimisation (docs/mapping.md;
//! [`crate::builder::placement::place`]), GA node mapping on a torus ([`crate::ga::ga`])
//! and the GA study ([`crate::study::ga_mapping`]): the command's arguments
//! ([`MapAction`]), their translation into the library's requests, and [`run`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Subcommand;

use jumpnet_core::mapping::ga::{NeighbourPick, Ranking, Ties, TrafficPattern, Variant};
use jumpnet_core::topology::Topology;

use crate::builder::optimise::PlacementObjective;
use crate::builder::placement::{place, MapStrategy, Optimiser, PlaceRequest, RankOrderChoice};
use crate::builder::routing::{algo_parser, RouteAlgo, RouteOptions};
use crate::builder::schedule::Algorithm;
use crate::commands::args::{FormatArgs, TopologyArgs};
use crate::ga::{ga, FitnessKind, GaRequest};
use crate::io::output;
use crate::sim::SimConfig;
use crate::study::ga_mapping::table2::{table2, Table2Request};
use crate::study::ga_mapping::trace::{trace, TraceRequest};
use crate::study::ga_mapping::{phys_study, variants_study, VariantsRequest, PAPER_PHYS};

/// Process mapping: place a collective's ranks on nodes and optimise the placement; GA
/// node mapping on a torus.
// Doc comments here are `--help` text: `[GA]` names the paper (docs/references.md), not an
// item.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Subcommand)]
pub enum MapAction {
    /// Map the ranks of a rank-space collective onto a topology's nodes with a baseline
    /// strategy, optionally optimise the placement (two-opt / annealing) for total hops or
    /// channel load (`--objective`), and
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
        /// What the optimiser minimises (docs/mapping.md §2): total hops, possible contention
        /// (messages beyond the first per step and channel) or max-link-load (per step the
        /// busiest channel's messages, summed: the schedule's length when bandwidth
        /// dominates).
        #[arg(long, value_enum, default_value = "hops")]
        objective: PlacementObjective,
        /// Routing whose routes the channel objectives count (`jumpnet route --help`).
        #[arg(long, value_parser = algo_parser(), default_value = "minimal")]
        algo: RouteAlgo,
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
    /// Genetic node mapping on an n x n torus with dimension-order routing (\[GA\], docs/mapping.md §5).
    Ga {
        /// Torus side n (n x n nodes), 2..=255.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(2..=255))]
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
        /// Flows neighbouring swaps pick: not-adjacent (distance above 1), beyond-radius
        /// (distance above r, the earlier rule that stalls) or closer (not-adjacent, moved
        /// strictly closer; docs/mapping.md §5).
        #[arg(long, default_value = "not-adjacent")]
        neighbour_pick: String,
        /// Which of two genes with equal ranking keys ranks first: newest (the later-made gene)
        /// or slot (the lower gene slot, the earlier rule; docs/mapping.md §5, "Ties").
        #[arg(long, default_value = "newest")]
        ties: String,
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
    /// Reproduce the GA study of [GA] (docs/reference-results.md C): identity-mapping durations of
    /// the 15 pattern pairs, or GA variants compared.
    #[command(name = "ga-study")]
    GaStudy {
        /// Which study.
        #[command(subcommand)]
        study: GaStudy,
    },
}

/// `jumpnet map ga-study ...` studies.
#[allow(rustdoc::broken_intra_doc_links)]
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
        /// Flows neighbouring swaps pick: not-adjacent, beyond-radius or closer (docs/mapping.md §5).
        #[arg(long, default_value = "not-adjacent")]
        neighbour_pick: String,
        /// Which of two genes with equal ranking keys ranks first: newest (the later-made gene)
        /// or slot (the lower gene slot, the earlier rule; docs/mapping.md §5, "Ties").
        #[arg(long, default_value = "newest")]
        ties: String,
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
        /// What scores genes during the search: the flit-level simulator, as [GA], or the
        /// contention proxy (faster); each run's best gene is simulated either way.
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
    /// \[GA\] Table 2's best column: GA runs per pattern pair, the mean simulated duration of
    /// their best genes beside the paper's (a mean of 10 runs) and a built conflict-free gene
    /// (docs/mapping.md §5).
    Table2 {
        /// Pairs, e.g. bcmp-brev,torn-trns (default: all 15).
        #[arg(long, value_delimiter = ',')]
        pairs: Vec<String>,
        /// Variant S00..S22 or S99.
        #[arg(long, default_value = "S20")]
        variant: String,
        /// Ranking: sc, ah or ml.
        #[arg(long, default_value = "ah")]
        ranking: String,
        /// Flows neighbouring swaps pick: not-adjacent, beyond-radius or closer.
        #[arg(long, default_value = "not-adjacent")]
        neighbour_pick: String,
        /// Which of two genes with equal ranking keys ranks first: newest (the later-made gene)
        /// or slot (the lower gene slot, the earlier rule; docs/mapping.md §5, "Ties").
        #[arg(long, default_value = "newest")]
        ties: String,
        /// Population size.
        #[arg(long, default_value_t = 1000)]
        genes: u32,
        /// Generations.
        #[arg(long, default_value_t = 100)]
        generations: u32,
        /// Seed of the first run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Runs per pair (seeds seed, seed+1, ...); the table shows their mean, as [GA]'s
        /// (a mean of 10 runs).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        /// What scores genes during the search: the flit-level simulator, as [GA], or the
        /// contention proxy (faster); each run's best gene is simulated either way.
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
    /// One GA run with the simulated fitness, generation by generation: best, ties, distinct
    /// genes, what the mutants did, and the swap distance to a built conflict-free gene
    /// (docs/mapping.md §5).
    Trace {
        /// Traffic patterns applied together.
        #[arg(long, value_delimiter = ',', default_value = "bcmp,brev")]
        patterns: Vec<String>,
        /// Variant S00..S22 or S99.
        #[arg(long, default_value = "S03")]
        variant: String,
        /// Ranking: sc, ah or ml.
        #[arg(long, default_value = "ml")]
        ranking: String,
        /// Flows neighbouring swaps pick: not-adjacent, beyond-radius or closer.
        #[arg(long, default_value = "not-adjacent")]
        neighbour_pick: String,
        /// Which of two genes with equal ranking keys ranks first: newest (the later-made gene)
        /// or slot (the lower gene slot, the earlier rule; docs/mapping.md §5, "Ties").
        #[arg(long, default_value = "newest")]
        ties: String,
        /// Population size.
        #[arg(long, default_value_t = 1000)]
        genes: u32,
        /// Generations.
        #[arg(long, default_value_t = 100)]
        generations: u32,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print every n-th generation (and each new best).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
        every: u32,
        /// Worker threads of the simulated fitness (0 = every core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
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

/// A pattern pair of \[GA\] Table 2 written `first-second`.
fn parse_pair(text: &str) -> Result<(TrafficPattern, TrafficPattern)> {
    let pair = text.trim();
    let known = PAPER_PHYS
        .iter()
        .find(|(a, b, _)| format!("{}-{}", a.name(), b.name()) == pair);
    known.map(|&(a, b, _)| (a, b)).ok_or_else(|| {
        let all: Vec<String> = PAPER_PHYS
            .iter()
            .map(|(a, b, _)| format!("{}-{}", a.name(), b.name()))
            .collect();
        anyhow!("unknown --pairs entry `{text}`: use {}", all.join(", "))
    })
}

fn parse_neighbour_pick(name: &str) -> Result<NeighbourPick> {
    NeighbourPick::from_name(name.trim()).ok_or_else(|| {
        anyhow!("unknown --neighbour-pick `{name}`: use not-adjacent, beyond-radius or closer")
    })
}

fn parse_ties(name: &str) -> Result<Ties> {
    Ties::from_name(name.trim())
        .ok_or_else(|| anyhow!("unknown --ties `{name}`: use newest or slot"))
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
            objective,
            algo,
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
                    objective,
                    route: Some(RouteOptions {
                        algo,
                        max_layers: 8,
                        seed: 1,
                    }),
                    iterations,
                    seed,
                    progress: !quiet,
                },
            )?;
            if let Some(p) = path {
                output::write_atomic(&p, placed.csv().as_bytes())?;
            }
            output::print(&placed, format.format())?;
        }
        MapAction::Ga {
            side,
            patterns,
            variant,
            ranking,
            neighbour_pick,
            ties,
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
                neighbour: parse_neighbour_pick(&neighbour_pick)?,
                ties: parse_ties(&ties)?,
                genes,
                generations,
                seed,
                fitness,
                threads,
                progress: !quiet,
            })?;
            output::print(&res, format.format())?;
        }
        MapAction::GaStudy { study } => run_ga_study(study)?,
    }
    Ok(0)
}

/// Runs `jumpnet map ga-study ...`.
fn run_ga_study(study: GaStudy) -> Result<()> {
    match study {
        GaStudy::Phys { set, format } => {
            let mut cfg = SimConfig::ga();
            for kv in &set {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| anyhow!("--set wants key=value, got `{kv}`"))?;
                cfg.set(k.trim(), v)?;
            }
            output::print(&phys_study(&cfg)?, format.format())
        }
        GaStudy::Variants {
            patterns,
            variants,
            rankings,
            neighbour_pick,
            ties,
            genes,
            generations,
            runs,
            seed,
            fitness,
            threads,
            quiet,
            format,
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
                neighbour: parse_neighbour_pick(&neighbour_pick)?,
                ties: parse_ties(&ties)?,
                genes,
                generations,
                runs,
                seed,
                fitness,
                threads,
                progress: !quiet,
            })?;
            output::print(&res, format.format())
        }
        GaStudy::Table2 {
            pairs,
            variant,
            ranking,
            neighbour_pick,
            ties,
            genes,
            generations,
            seed,
            runs,
            fitness,
            threads,
            quiet,
            format,
        } => {
            let res = table2(&Table2Request {
                pairs: pairs.iter().map(|p| parse_pair(p)).collect::<Result<_>>()?,
                variant: parse_variant(&variant)?,
                ranking: parse_ranking(&ranking)?,
                neighbour: parse_neighbour_pick(&neighbour_pick)?,
                ties: parse_ties(&ties)?,
                genes,
                generations,
                seed,
                runs,
                fitness,
                threads,
                progress: !quiet,
            })?;
            output::print(&res, format.format())
        }
        GaStudy::Trace {
            patterns,
            variant,
            ranking,
            neighbour_pick,
            ties,
            genes,
            generations,
            seed,
            every,
            threads,
            format,
        } => {
            let res = trace(&TraceRequest {
                patterns: parse_patterns(&patterns)?,
                variant: parse_variant(&variant)?,
                ranking: parse_ranking(&ranking)?,
                neighbour: parse_neighbour_pick(&neighbour_pick)?,
                ties: parse_ties(&ties)?,
                genes,
                generations,
                seed,
                every,
                threads,
            })?;
            output::print(&res, format.format())
        }
    }
}
