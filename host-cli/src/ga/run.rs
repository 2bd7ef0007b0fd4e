//! `map ga`: the GA of docs/mapping.md §5 on an n × n torus, scored by the contention proxy
//! or by the flit-level simulator.

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use jumpnet_core::mapping::ga::{
    Address, BatchFitness, Fitness, Ga, GaBuffers, GaConfig, GaOutcome, GaProblem, Grid,
    NeighbourPick, PatternSet, ProxyFitness, Ranking, Score, Ties, TrafficPattern, Variant,
};
use jumpnet_core::mapping::{PathLength, PathOracle};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::{TorusDor, TorusVcs};
use jumpnet_core::topology::{Network, Torus};

use super::RoutedPaths;
use crate::ga::sim_pool::{with_sim_pool, GaSimParams};
use crate::io::output::{Render, Section};
use crate::io::progress::Progress;
use crate::sim::SimConfig;

/// How a gene's duration is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
pub enum FitnessKind {
    /// Contention proxy `2 + 32·max_channel_load` per pattern (docs/mapping.md §5).
    Proxy,
    /// Flit-level simulation with the `ga` preset (8×8 torus, DOR, 3 VCs, 4 packets of 8
    /// flits per node and pattern).
    Sim,
}

impl FitnessKind {
    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FitnessKind::Proxy => "proxy",
            FitnessKind::Sim => "sim",
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
    /// Which flows neighbouring swaps pick.
    pub neighbour: NeighbourPick,
    /// How genes with equal ranking keys are ordered (docs/mapping.md §5, "Ties").
    pub ties: Ties,
    /// Population.
    pub genes: u32,
    /// Generations (generation 0 = the random population).
    pub generations: u32,
    /// Seed.
    pub seed: u64,
    /// Fitness: contention proxy or simulation.
    pub fitness: FitnessKind,
    /// Worker threads of the simulated fitness (0 = every core).
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
}

/// A GA score as printed.
#[derive(Debug, Serialize, Clone, Copy)]
pub struct ScoreRow {
    /// Duration (cycles, summed over the patterns).
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
    /// Neighbouring-swap flow rule (`not-adjacent`, `beyond-radius` or `closer`).
    pub neighbour_pick: String,
    /// Tie rule of the ranking (`slot` or `newest`).
    pub ties: String,
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
    /// Speed-up of the duration over the identity mapping.
    pub speedup: f64,
    /// How durations were measured (`proxy` or `sim`).
    pub fitness: String,
    /// Fitness evaluations of the run.
    pub evaluations: u64,
    /// Worker threads (simulated fitness; 1 for the proxy).
    pub threads: usize,
    /// Seconds.
    pub seconds: f64,
    /// Wall-clock microseconds per evaluation (all threads together).
    pub us_per_evaluation: f64,
    /// Best gene: `gene[physical position] = logical address`.
    pub gene: Vec<Address>,
}

impl Render for GaResult {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!(
            "GA node mapping on the {} torus, patterns {} (duration = {})",
            self.torus,
            self.patterns.join("+"),
            if self.fitness == "sim" {
                "flit-level simulation"
            } else {
                "contention proxy"
            }
        ));
        s.kv("variant", &self.variant)
            .kv("neighbouring swap picks", &self.neighbour_pick)
            .kv("ties", &self.ties)
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
            .kv(
                "evaluations / threads",
                format!("{} / {}", self.evaluations, self.threads),
            )
            .kv("seconds", format!("{:.2}", self.seconds))
            .kv(
                "microseconds per evaluation",
                format!("{:.1}", self.us_per_evaluation),
            );
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

/// The destination tables of `patterns` on `grid` (random patterns drawn from `seed`).
pub fn pattern_tables(grid: Grid, patterns: &[TrafficPattern], seed: u64) -> Result<Vec<Address>> {
    let nodes = grid.nodes();
    let mut dest = vec![0 as Address; nodes * patterns.len()];
    let mut rng = Rng::new(seed);
    let mut scratch = vec![0 as Address; nodes];
    for (i, p) in patterns.iter().enumerate() {
        p.fill(
            grid,
            &mut rng,
            &mut scratch,
            &mut dest[i * nodes..(i + 1) * nodes],
        )
        .with_context(|| format!("pattern {}", p.name()))?;
    }
    Ok(dest)
}

/// The DOR routes of the `side × side` torus (neighbouring swaps' distance, the proxy's
/// paths).
pub fn torus_paths(side: u16) -> Result<RoutedPaths> {
    let torus = Torus::torus(&[side as u32, side as u32], 1)?;
    let net = Network::Torus(torus.clone());
    let dor = TorusDor::new(&torus, TorusVcs::Single)?;
    RoutedPaths::build(&net, &dor)
}

/// Worker threads for `requested` (0 = every core) evaluating generations of `genes` genes:
/// never more than the genes nor the cores ([`crate::budget::threads_for`]).
pub fn thread_count(requested: usize, genes: usize) -> usize {
    crate::budget::threads_for(requested, genes)
}

/// The GA problem and run settings shared by [`run_ga`]'s callers.
#[derive(Clone, Copy, Debug)]
pub struct GaRun<'a> {
    /// Physical grid.
    pub grid: Grid,
    /// Applied patterns.
    pub patterns: PatternSet<'a>,
    /// DOR routes (distance of neighbouring swaps).
    pub paths: &'a RoutedPaths,
    /// Variant, ranking and seed.
    pub config: GaConfig,
    /// Population.
    pub genes: usize,
    /// Generations.
    pub generations: u32,
}

/// Runs one GA with `fitness`, calling `progress(generation, best)` every generation;
/// returns the outcome and the best gene.
pub fn run_ga<F: BatchFitness>(
    run: &GaRun<'_>,
    fitness: F,
    progress: &mut dyn FnMut(u32, Score),
) -> Result<(GaOutcome, Vec<Address>)> {
    let nodes = run.grid.nodes();
    if run.genes == 0 {
        bail!("--genes must be at least 1");
    }
    let zero = Score {
        duration: 0,
        avg_hop: jumpnet_core::mapping::ga::AvgHop { hops: 0, pairs: 0 },
    };
    // Per gene: its addresses, a score and an order slot.
    let per_gene = (nodes * std::mem::size_of::<Address>()
        + std::mem::size_of::<Score>()
        + std::mem::size_of::<u32>()) as u128;
    crate::budget::check_param("--genes", run.genes as u64, |g| g as u128 * per_gene)?;
    let mut genes = vec![0 as Address; run.genes * nodes];
    let mut scores = vec![zero; run.genes];
    let mut order = vec![0u32; run.genes];
    let mut inverse = vec![0 as Address; nodes];
    let mut born = vec![0u32; run.genes];
    let engine = Ga::new(
        run.config,
        GaProblem {
            grid: run.grid,
            patterns: run.patterns,
            distance: PathLength(run.paths),
        },
        fitness,
        GaBuffers {
            genes: &mut genes,
            scores: &mut scores,
            order: &mut order,
            inverse: &mut inverse,
            born: &mut born,
        },
    )?;
    let mut best_gene = vec![0 as Address; nodes];
    let outcome = engine.run(run.generations, &mut best_gene, progress)?;
    Ok((outcome, best_gene))
}

/// Runs the GA of docs/mapping.md §5 on an n × n torus with DOR, scored by the contention
/// proxy or by simulation (on `threads` workers).
pub fn ga(req: &GaRequest) -> Result<GaResult> {
    if req.patterns.is_empty() {
        bail!("give at least one traffic pattern (--patterns bcmp,shfl,trns)");
    }
    let grid = Grid::new(req.side)?;
    let paths = torus_paths(req.side)?;
    let dest = pattern_tables(grid, &req.patterns, req.seed)?;
    let set = PatternSet::new(grid.nodes(), &dest)?;
    let run = GaRun {
        grid,
        patterns: set,
        paths: &paths,
        config: GaConfig {
            variant: req.variant,
            ranking: req.ranking,
            seed: req.seed,
            neighbour: req.neighbour,
            ties: req.ties,
        },
        genes: req.genes as usize,
        generations: req.generations,
    };
    let identity: Vec<Address> = (0..grid.nodes() as Address).collect();
    let started = std::time::Instant::now();
    let bar = Progress::new("generations", req.generations as u64, req.progress);
    let mut progress = |g: u32, _| bar.set(g as u64 + 1);
    let (identity_score, (outcome, best_gene), threads) = match req.fitness {
        FitnessKind::Proxy => {
            let mut loads = vec![0u32; paths.num_channels() as usize];
            let mut inv = vec![0 as Address; grid.nodes()];
            let mut fit = ProxyFitness::new(&paths, set, &mut loads, &mut inv)?;
            let id = fit.evaluate(&identity);
            (id, run_ga(&run, fit, &mut progress)?, 1)
        }
        FitnessKind::Sim => {
            let params = GaSimParams {
                side: req.side,
                cfg: SimConfig::ga(),
                dest: dest.clone(),
                threads: thread_count(req.threads, req.genes as usize),
            };
            let (id, out) = with_sim_pool(&params, |pool| {
                let id = pool.evaluate_one(&identity);
                (id, run_ga(&run, pool, &mut progress))
            })
            .map_err(|e| anyhow!("simulated fitness: {e}"))?;
            (id, out?, params.threads)
        }
    };
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    let best: ScoreRow = outcome.best.into();
    Ok(GaResult {
        torus: format!("{0}x{0}", req.side),
        patterns: req.patterns.iter().map(|p| p.name().to_string()).collect(),
        variant: format!("{}-{}", req.variant.name(), req.ranking.name()),
        neighbour_pick: req.neighbour.name().to_string(),
        ties: req.ties.name().to_string(),
        genes: req.genes,
        generations: req.generations,
        minimum_duration: 34 * req.patterns.len() as u64,
        identity: identity_score.into(),
        best,
        best_generation: outcome.best_generation,
        speedup: identity_score.duration as f64 / best.duration.max(1) as f64,
        fitness: req.fitness.name().to_string(),
        evaluations: outcome.evaluations,
        threads,
        seconds,
        us_per_evaluation: 1e6 * seconds / outcome.evaluations.max(1) as f64,
        gene: best_gene,
    })
}
