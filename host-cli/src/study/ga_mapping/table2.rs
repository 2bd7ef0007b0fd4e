//! `map ga-study table2`: \[GA\] Table 2's best column (docs/reference-results.md C3) — GA
//! runs per pattern pair (seeds `seed, seed + 1, …`), each run's best gene simulated, and the
//! mean over the runs beside the paper's, which is a mean of 10 runs too; with the duration
//! of a built conflict-free gene where the pair has one ([`conflict_free_gene`],
//! docs/mapping.md §5). The GA is scored by the simulated fitness, as \[GA\]'s, or by the
//! contention proxy (hundreds of times faster; its best genes are simulated all the same).

use anyhow::{anyhow, Result};
use serde::Serialize;

use jumpnet_core::mapping::ga::{
    Address, GaConfig, Grid, NeighbourPick, PatternSet, Ranking, Ties, TrafficPattern, Variant,
};

use super::conflict_free::conflict_free_gene;
use super::{search, PAPER_PHYS, SIDE};
use crate::ga::run::{pattern_tables, thread_count, torus_paths, FitnessKind, GaRun};
use crate::ga::sim_pool::{with_sim_pool, GaSimParams};
use crate::io::output::{Render, Section};
use crate::io::progress::Progress;
use crate::sim::SimConfig;

/// \[GA\] Table 2 "best dur" and "gen" (averages of 10 runs) per pair, in the order of
/// [`PAPER_PHYS`].
pub const PAPER_BEST: [(&str, f64, f64); 15] = [
    ("bcmp-brev", 68.2, 70.0),
    ("bcmp-brot", 98.5, 613.3),
    ("bcmp-shfl", 100.9, 491.2),
    ("bcmp-torn", 76.3, 386.8),
    ("bcmp-trns", 68.0, 170.7),
    ("brev-brot", 69.0, 110.4),
    ("brev-shfl", 69.0, 204.2),
    ("brev-torn", 93.3, 548.9),
    ("brev-trns", 68.0, 222.7),
    ("brot-shfl", 70.0, 14.9),
    ("brot-torn", 129.0, 624.4),
    ("brot-trns", 83.4, 619.8),
    ("shfl-torn", 129.8, 672.1),
    ("shfl-trns", 82.6, 427.7),
    ("torn-trns", 102.5, 485.8),
];

/// What `map ga-study table2` runs.
#[derive(Clone, Debug)]
pub struct Table2Request {
    /// Pairs to run (empty = all 15).
    pub pairs: Vec<(TrafficPattern, TrafficPattern)>,
    /// Variant.
    pub variant: Variant,
    /// Ranking.
    pub ranking: Ranking,
    /// Which flows neighbouring swaps pick.
    pub neighbour: NeighbourPick,
    /// How genes with equal ranking keys are ordered (docs/mapping.md §5, "Ties").
    pub ties: Ties,
    /// Population.
    pub genes: u32,
    /// Generations.
    pub generations: u32,
    /// Seed of the first run.
    pub seed: u64,
    /// Runs per pair (seeds `seed, seed + 1, …`), at least 1.
    pub runs: u32,
    /// What scores the genes during the search (the best genes are simulated either way).
    pub fitness: FitnessKind,
    /// Worker threads (0 = every core).
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
}

/// One pair.
#[derive(Debug, Serialize)]
pub struct Table2Row {
    /// `first-second`.
    pub pair: String,
    /// Simulated duration of each run's best gene, in seed order.
    pub durations: Vec<u64>,
    /// Mean of `durations` (the paper's column is a mean of 10 runs).
    pub mean: f64,
    /// Best of `durations`.
    pub best: u64,
    /// Mean generation at which the runs found their best.
    pub generation: f64,
    /// Identity-mapping duration.
    pub identity: u64,
    /// Duration of the built conflict-free gene, if the pair has one.
    pub conflict_free: Option<u64>,
    /// \[GA\] best (mean of 10 runs).
    pub paper_best: f64,
    /// \[GA\] generation of the best (mean).
    pub paper_generation: f64,
    /// Seconds of the pair's runs.
    pub seconds: f64,
}

/// `map ga-study table2` result.
#[derive(Debug, Serialize)]
pub struct Table2 {
    /// Variant, ranking, rule, budget and seed.
    pub run: String,
    /// Rows in \[GA\] Table 2 order.
    pub rows: Vec<Table2Row>,
}

impl Render for Table2 {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::new(
            format!("[GA] Table 2, best column: {}", self.run),
            &[
                "pair",
                "mean",
                "runs",
                "gen",
                "paper best",
                "paper gen",
                "built",
                "identity",
                "seconds",
            ],
        );
        for r in &self.rows {
            s.row([
                r.pair.clone(),
                format!("{:.1}", r.mean),
                r.durations
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                format!("{:.1}", r.generation),
                format!("{:.1}", r.paper_best),
                format!("{:.1}", r.paper_generation),
                r.conflict_free.map_or("-".into(), |d| d.to_string()),
                r.identity.to_string(),
                format!("{:.0}", r.seconds),
            ]);
        }
        vec![s]
    }
}

/// Runs the GA of `req` on each requested pair, one pair and one seed after the other.
pub fn table2(req: &Table2Request) -> Result<Table2> {
    if req.runs == 0 {
        return Err(anyhow!("--runs must be at least 1"));
    }
    let grid = Grid::new(SIDE)?;
    let paths = torus_paths(SIDE)?;
    let identity: Vec<Address> = (0..grid.nodes() as Address).collect();
    let mut rows = Vec::new();
    for (i, &(a, b, _)) in PAPER_PHYS.iter().enumerate() {
        if !req.pairs.is_empty() && !req.pairs.contains(&(a, b)) {
            continue;
        }
        let started = std::time::Instant::now();
        let dest = pattern_tables(grid, &[a, b], req.seed)?;
        let set = PatternSet::new(grid.nodes(), &dest)?;
        let built = conflict_free_gene(grid, set.pattern(0), set.pattern(1));
        let params = GaSimParams {
            side: SIDE,
            cfg: SimConfig::ga(),
            dest: dest.clone(),
            threads: thread_count(req.threads, req.genes as usize),
        };
        let label = format!("{}-{}", a.name(), b.name());
        let steps = u64::from(req.generations) * u64::from(req.runs);
        let bar = Progress::new(&label, steps, req.progress);
        let (id, conflict_free, runs) = with_sim_pool(&params, |pool| -> Result<_> {
            let id = pool.evaluate_one(&identity).duration;
            let cf = built.as_ref().map(|g| pool.evaluate_one(g).duration);
            let mut runs = Vec::new();
            for r in 0..req.runs {
                let run = GaRun {
                    grid,
                    patterns: set,
                    paths: &paths,
                    config: GaConfig {
                        variant: req.variant,
                        ranking: req.ranking,
                        seed: req.seed + u64::from(r),
                        neighbour: req.neighbour,
                        ties: req.ties,
                    },
                    genes: req.genes as usize,
                    generations: req.generations,
                };
                let done = u64::from(r) * u64::from(req.generations);
                let mut progress = |g: u32, _| bar.set(done + u64::from(g) + 1);
                let (outcome, gene) = search(&run, req.fitness, &mut *pool, &mut progress)?;
                runs.push((pool.evaluate_one(&gene).duration, outcome));
            }
            Ok((id, cf, runs))
        })
        .map_err(|e| anyhow!("simulated fitness: {e}"))??;
        bar.finish();
        let (name, paper_best, paper_generation) = PAPER_BEST[i];
        if name != label {
            return Err(anyhow!("paper table order: {name} at the row of {label}"));
        }
        let durations: Vec<u64> = runs.iter().map(|r| r.0).collect();
        let n = durations.len() as f64;
        rows.push(Table2Row {
            pair: label,
            mean: durations.iter().sum::<u64>() as f64 / n,
            best: durations.iter().copied().min().unwrap_or(0),
            durations,
            generation: runs
                .iter()
                .map(|r| f64::from(r.1.best_generation))
                .sum::<f64>()
                / n,
            identity: id,
            conflict_free,
            paper_best,
            paper_generation,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    Ok(Table2 {
        run: format!(
            "{}-{}, {} fitness, neighbouring swaps pick {} flows, ties {}, {} genes x {} generations, {} run(s) from seed {}",
            req.variant.name(),
            req.ranking.name(),
            req.fitness.name(),
            req.neighbour.name(),
            req.ties.name(),
            req.genes,
            req.generations,
            req.runs,
            req.seed
        ),
        rows,
    })
}
