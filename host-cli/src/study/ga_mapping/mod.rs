//! `map ga-study`: the GA reproduction of docs/reference-results.md C.
//!
//! - [`phys_study`] (C3 "phys dur"): the simulated duration of the identity mapping for the 15
//!   pattern pairs, pattern by pattern, beside the contention proxy and \[GA\] Table 2.
//! - [`variants_study`] (C2/C4): GA runs of every requested variant × ranking, the mean best
//!   duration over seeded runs, and the qualitative claims of \[GA\] checked on them.

pub mod claims;
pub mod conflict_free;
pub mod table2;
pub mod trace;

#[cfg(test)]
mod conflict_free_tests;
#[cfg(test)]
mod link_disjoint_tests;

use anyhow::{anyhow, Result};
use serde::Serialize;

use jumpnet_core::mapping::ga::{
    Address, Fitness, GaConfig, GaOutcome, Grid, NeighbourPick, PatternSet, ProxyFitness, Ranking,
    Score, Ties, TrafficPattern, Variant, IDEAL_PATTERN_CYCLES,
};
use jumpnet_core::mapping::PathOracle;

use crate::ga::run::{pattern_tables, run_ga, thread_count, torus_paths, FitnessKind, GaRun};
use crate::ga::sim_fitness::GaTorus;
use crate::ga::sim_pool::{with_sim_pool, GaSimParams, SimFitnessPool};
use crate::ga::RoutedPaths;
use crate::io::output::{Render, Section};
use crate::io::progress::Progress;
use crate::sim::SimConfig;
use crate::study::claim::{claims_section, Claim};

/// Side of the \[GA\] torus.
pub const SIDE: u16 = 8;

/// \[GA\] Table 2 "phys dur" (docs/reference-results.md C3), in the table's order.
pub const PAPER_PHYS: [(TrafficPattern, TrafficPattern, u64); 15] = {
    use TrafficPattern::*;
    [
        (BitComplement, BitReversal, 283),
        (BitComplement, BitRotation, 242),
        (BitComplement, Shuffle, 252),
        (BitComplement, Tornado, 228),
        (BitComplement, Transpose, 225),
        (BitReversal, BitRotation, 337),
        (BitReversal, Shuffle, 347),
        (BitReversal, Tornado, 323),
        (BitReversal, Transpose, 320),
        (BitRotation, Shuffle, 306),
        (BitRotation, Tornado, 282),
        (BitRotation, Transpose, 279),
        (Shuffle, Tornado, 292),
        (Shuffle, Transpose, 289),
        (Tornado, Transpose, 265),
    ]
};

/// \[GA\] Table 3 (docs/reference-results.md C4): three-pattern mean best durations per variant,
/// columns sc, ah, ml.
pub const PAPER_TABLE3: [(Variant, [f64; 3]); 13] = {
    use Variant::*;
    [
        (S00, [224.1, 211.9, 207.5]),
        (S01, [210.2, 191.4, 189.5]),
        (S02, [209.5, 189.2, 186.7]),
        (S03, [193.6, 175.2, 170.2]),
        (S04, [230.5, 221.6, 217.3]),
        (S05, [225.7, 216.0, 211.6]),
        (S10, [199.3, 180.9, 177.8]),
        (S11, [200.8, 180.2, 178.0]),
        (S12, [188.7, 174.2, 172.4]),
        (S20, [183.5, 174.7, 171.4]),
        (S21, [185.7, 174.8, 172.0]),
        (S22, [184.8, 177.4, 171.1]),
        (S99, [301.4, 301.6, 301.3]),
    ]
};

/// One pattern pair under the identity mapping.
#[derive(Debug, Serialize)]
pub struct PhysRow {
    /// `first-second`.
    pub pair: String,
    /// Simulated duration of the first pattern alone.
    pub first: u64,
    /// Simulated duration of the second pattern alone.
    pub second: u64,
    /// Simulated duration of the pair (one evaluation of both).
    pub sim: u64,
    /// Contention-proxy duration of the pair.
    pub proxy: u64,
    /// \[GA\] "phys dur".
    pub paper: u64,
    /// `sim − paper`.
    pub difference: i64,
}

/// C3 reproduction.
#[derive(Debug, Serialize)]
pub struct PhysStudy {
    /// Theoretical minimum of a pair (`2 · 34`).
    pub minimum: u64,
    /// Engine settings that differ from the `ga` preset (`key=value`).
    pub overrides: Vec<String>,
    /// The 15 pairs in \[GA\] Table 2 order.
    pub rows: Vec<PhysRow>,
}

impl Render for PhysStudy {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::new(
            format!(
                "identity-mapping durations on the 8x8 torus (dateline DOR, ga preset{}; 4 x \
                 8-flit packets per node and pattern; minimum {} cycles per pair)",
                if self.overrides.is_empty() {
                    String::new()
                } else {
                    format!(" with {}", self.overrides.join(" "))
                },
                self.minimum
            ),
            &[
                "pair",
                "first",
                "second",
                "sim",
                "proxy",
                "paper",
                "sim-paper",
            ],
        );
        for r in &self.rows {
            s.row([
                r.pair.clone(),
                r.first.to_string(),
                r.second.to_string(),
                r.sim.to_string(),
                r.proxy.to_string(),
                r.paper.to_string(),
                r.difference.to_string(),
            ]);
        }
        vec![s]
    }
}

/// Simulates (with `cfg`, normally [`SimConfig::ga`]) and proxies the identity mapping of
/// every \[GA\] Table 2 pair.
pub fn phys_study(cfg: &SimConfig) -> Result<PhysStudy> {
    let grid = Grid::new(SIDE)?;
    let paths = torus_paths(SIDE)?;
    let torus = GaTorus::new(SIDE).map_err(|e| anyhow!("{e}"))?;
    let identity: Vec<Address> = (0..grid.nodes() as Address).collect();
    let mut rows = Vec::new();
    for (a, b, paper) in PAPER_PHYS {
        let dest = pattern_tables(grid, &[a, b], 1)?;
        let set = PatternSet::new(grid.nodes(), &dest)?;
        let (sim, first, second) = torus
            .with_fitness(cfg, set, |fit| -> Result<(u64, u64, u64)> {
                let pair = fit.evaluate(&identity).duration;
                let first = fit.run_pattern(&identity, 0).map_err(|e| anyhow!("{e}"))?;
                let second = fit.run_pattern(&identity, 1).map_err(|e| anyhow!("{e}"))?;
                if fit.failures > 0 || first.deadlocked || second.deadlocked {
                    return Err(anyhow!("{}-{} deadlocked", a.name(), b.name()));
                }
                Ok((pair, first.cycles, second.cycles))
            })
            .map_err(|e| anyhow!("{e}"))??;
        let proxy = proxy_score(&paths, set, &identity)?;
        rows.push(PhysRow {
            pair: format!("{}-{}", a.name(), b.name()),
            first,
            second,
            sim,
            proxy,
            paper,
            difference: sim as i64 - paper as i64,
        });
    }
    let preset = serde_json::to_value(SimConfig::ga())?;
    let mine = serde_json::to_value(cfg)?;
    let overrides = SimConfig::KEYS
        .iter()
        .filter(|k| preset.get(**k) != mine.get(**k))
        .map(|k| {
            format!(
                "{k}={}",
                mine.get(*k).map_or(String::new(), |v| v.to_string())
            )
        })
        .collect();
    Ok(PhysStudy {
        minimum: 2 * IDEAL_PATTERN_CYCLES,
        overrides,
        rows,
    })
}

fn proxy_score(paths: &RoutedPaths, set: PatternSet<'_>, gene: &[Address]) -> Result<u64> {
    let mut loads = vec![0u32; paths.num_channels() as usize];
    let mut inv = vec![0 as Address; set.nodes()];
    Ok(ProxyFitness::new(paths, set, &mut loads, &mut inv)?
        .evaluate(gene)
        .duration)
}

/// What `map ga-study variants` runs.
#[derive(Clone, Debug)]
pub struct VariantsRequest {
    /// Applied patterns.
    pub patterns: Vec<TrafficPattern>,
    /// Variants compared.
    pub variants: Vec<Variant>,
    /// Rankings compared.
    pub rankings: Vec<Ranking>,
    /// Which flows neighbouring swaps pick.
    pub neighbour: NeighbourPick,
    /// How genes with equal ranking keys are ordered (docs/mapping.md §5, "Ties").
    pub ties: Ties,
    /// Population.
    pub genes: u32,
    /// Generations.
    pub generations: u32,
    /// Runs per variant × ranking (seeds `seed`, `seed + 1`, …).
    pub runs: u32,
    /// First seed.
    pub seed: u64,
    /// Fitness.
    pub fitness: FitnessKind,
    /// Worker threads of the simulated fitness (0 = every core).
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
}

/// Mean best duration of one variant × ranking.
#[derive(Debug, Serialize)]
pub struct VariantCell {
    /// Variant name.
    pub variant: String,
    /// Ranking name.
    pub ranking: String,
    /// Simulated duration of every run's best gene (whatever scored the search).
    pub best: Vec<u64>,
    /// Mean of `best`.
    pub mean: f64,
    /// \[GA\] Table 3 value (three-pattern studies only).
    pub paper: Option<f64>,
}

/// C2/C4 study result.
#[derive(Debug, Serialize)]
pub struct VariantsStudy {
    /// Patterns.
    pub patterns: Vec<String>,
    /// Fitness used.
    pub fitness: String,
    /// Population × generations × runs.
    pub budget: String,
    /// Identity-mapping duration.
    pub identity: u64,
    /// Cells, variant-major.
    pub cells: Vec<VariantCell>,
    /// \[GA\]'s claims (the evidence of one that fails: the cells that contradict it).
    pub claims: Vec<Claim>,
    /// Seconds.
    pub seconds: f64,
}

impl VariantsStudy {
    /// Mean of `variant` × `ranking`, if run.
    pub fn mean(&self, variant: Variant, ranking: Ranking) -> Option<f64> {
        self.cells
            .iter()
            .find(|c| c.variant == variant.name() && c.ranking == ranking.name())
            .map(|c| c.mean)
    }
}

impl Render for VariantsStudy {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::new(
            format!(
                "GA variants on {} ({} fitness, {}; identity {} cycles)",
                self.patterns.join("+"),
                self.fitness,
                self.budget,
                self.identity
            ),
            &["variant", "ranking", "mean best", "runs", "paper"],
        );
        for c in &self.cells {
            let runs: Vec<String> = c.best.iter().map(|b| b.to_string()).collect();
            s.row([
                c.variant.clone(),
                c.ranking.clone(),
                format!("{:.1}", c.mean),
                runs.join(" "),
                c.paper.map_or("-".into(), |p| format!("{p:.1}")),
            ]);
        }
        vec![s, claims_section("claims of [GA]", &self.claims)]
    }
}

/// Runs every variant × ranking `runs` times and checks \[GA\]'s claims on the means.
pub fn variants_study(req: &VariantsRequest) -> Result<VariantsStudy> {
    let grid = Grid::new(SIDE)?;
    let paths = torus_paths(SIDE)?;
    let dest = pattern_tables(grid, &req.patterns, req.seed)?;
    let set = PatternSet::new(grid.nodes(), &dest)?;
    let identity: Vec<Address> = (0..grid.nodes() as Address).collect();
    let started = std::time::Instant::now();
    let total = (req.variants.len() * req.rankings.len()) as u64
        * u64::from(req.runs)
        * u64::from(req.generations);
    let bar = Progress::new("generations", total, req.progress);
    let mut plan = Vec::new();
    for &v in &req.variants {
        for &r in &req.rankings {
            for i in 0..req.runs {
                plan.push(GaConfig {
                    variant: v,
                    ranking: r,
                    seed: req.seed + u64::from(i),
                    neighbour: req.neighbour,
                    ties: req.ties,
                });
            }
        }
    }
    let make_run = |config| GaRun {
        grid,
        patterns: set,
        paths: &paths,
        config,
        genes: req.genes as usize,
        generations: req.generations,
    };
    let mut progress = |_: u32, _| bar.inc(1);
    // Each run's best gene is simulated whatever scored the search, so a proxy search is
    // compared with [GA]'s simulated durations on the same scale.
    let params = GaSimParams {
        side: SIDE,
        cfg: SimConfig::ga(),
        dest: dest.clone(),
        threads: thread_count(req.threads, req.genes as usize),
    };
    let (bests, identity_duration) = with_sim_pool(&params, |pool| -> Result<_> {
        let mut bests = Vec::new();
        for &config in &plan {
            let (_, gene) = search(&make_run(config), req.fitness, &mut *pool, &mut progress)?;
            bests.push(pool.evaluate_one(&gene).duration);
        }
        Ok((bests, pool.evaluate_one(&identity).duration))
    })
    .map_err(|e| anyhow!("simulated fitness: {e}"))??;
    bar.finish();
    let mut cells = Vec::new();
    for (chunk, config) in bests
        .chunks(req.runs.max(1) as usize)
        .zip(plan.iter().step_by(req.runs.max(1) as usize))
    {
        let best = chunk.to_vec();
        let mean = best.iter().sum::<u64>() as f64 / best.len().max(1) as f64;
        let paper = (req.patterns.len() == 3)
            .then(|| PAPER_TABLE3.iter().find(|(v, _)| *v == config.variant))
            .flatten()
            .and_then(|(_, cols)| {
                Ranking::ALL
                    .iter()
                    .position(|&r| r == config.ranking)
                    .map(|i| cols[i])
            });
        cells.push(VariantCell {
            variant: config.variant.name().to_string(),
            ranking: config.ranking.name().to_string(),
            best,
            mean,
            paper,
        });
    }
    let mut study = VariantsStudy {
        patterns: req.patterns.iter().map(|p| p.name().to_string()).collect(),
        fitness: req.fitness.name().to_string(),
        budget: format!(
            "{} genes x {} generations x {} runs, neighbouring swaps pick {} flows, ties {}",
            req.genes,
            req.generations,
            req.runs,
            req.neighbour.name(),
            req.ties.name()
        ),
        identity: identity_duration,
        cells,
        claims: Vec::new(),
        seconds: started.elapsed().as_secs_f64(),
    };
    study.claims = claims::check(&study, &req.variants, &req.rankings);
    Ok(study)
}

/// One GA run scored by `fitness`: the simulation `pool`, or the contention proxy.
pub(crate) fn search(
    run: &GaRun<'_>,
    fitness: FitnessKind,
    pool: &mut SimFitnessPool,
    progress: &mut dyn FnMut(u32, Score),
) -> Result<(GaOutcome, Vec<Address>)> {
    match fitness {
        FitnessKind::Sim => run_ga(run, pool, progress),
        FitnessKind::Proxy => {
            let mut loads = vec![0u32; run.paths.num_channels() as usize];
            let mut inv = vec![0 as Address; run.grid.nodes()];
            let fit = ProxyFitness::new(run.paths, run.patterns, &mut loads, &mut inv)?;
            run_ga(run, fit, progress)
        }
    }
}
