//! `map ga-study trace`: one GA run generation by generation (docs/mapping.md §5 "Why the GA
//! stalled"): the best score, how many genes share the best duration, how many distinct
//! genes the population holds, what the mutants did (identical to their parent, better,
//! equal) and how many flows of the best gene the neighbouring swap could still pick. With a
//! conflict-free gene of the pair (when one can be built, [`conflict_free_gene`]) it also
//! reports the swap distance of the best gene to the nearest torus symmetry of that gene.

use std::collections::HashSet;

use anyhow::{anyhow, Result};
use serde::Serialize;

use jumpnet_core::mapping::ga::{
    Address, BatchFitness, Ga, GaBuffers, GaConfig, GaProblem, Grid, NeighbourPick, PatternSet,
    Radius, Ranking, Score, StepStats, Ties, TrafficPattern, Variant,
};
use jumpnet_core::mapping::{DistanceOracle, PathLength};

use super::conflict_free::conflict_free_gene;
use super::SIDE;
use crate::ga::run::{pattern_tables, thread_count, torus_paths};
use crate::ga::sim_pool::{with_sim_pool, GaSimParams};
use crate::io::output::{Render, Section};
use crate::sim::SimConfig;

/// What `map ga-study trace` runs (simulated fitness, 8 × 8 torus).
#[derive(Clone, Debug)]
pub struct TraceRequest {
    /// Applied patterns.
    pub patterns: Vec<TrafficPattern>,
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
    /// Seed.
    pub seed: u64,
    /// Print every `every`-th generation (and every generation with a new best).
    pub every: u32,
    /// Worker threads (0 = every core).
    pub threads: usize,
}

/// One traced generation.
#[derive(Debug, Serialize, Clone)]
pub struct TraceRow {
    /// Generation (0 = the random population).
    pub generation: u32,
    /// Best duration in the population.
    pub best: u64,
    /// avg.hop of the best-ranked gene.
    pub best_avg_hop: f64,
    /// Genes whose duration equals the best duration.
    pub at_best: usize,
    /// Distinct genes in the population.
    pub distinct: usize,
    /// Mutants made this generation.
    pub mutants: u32,
    /// Mutants identical to their parent.
    pub unchanged: u32,
    /// Mutants ranked better than their parent.
    pub better: u32,
    /// Mutants ranked equal to their parent.
    pub equal: u32,
    /// Flows of the best gene the neighbouring swap can pick (longer than its threshold).
    pub eligible_flows: usize,
    /// Flows of the best gene longer than one hop.
    pub long_flows: usize,
}

/// `map ga-study trace` result.
#[derive(Debug, Serialize)]
pub struct GaTrace {
    /// Run, e.g. `bcmp+brev S03-ml 1000 x 100 seed 1`.
    pub run: String,
    /// Printed generations.
    pub rows: Vec<TraceRow>,
    /// Duration of the built conflict-free gene (if the pair has one).
    pub conflict_free: Option<u64>,
    /// Swaps from the final best gene to the nearest of the 512 torus symmetries (translation,
    /// rotation, mirror) of the conflict-free gene.
    pub swaps_to_conflict_free: Option<usize>,
}

impl Render for GaTrace {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::new(
            format!("GA trace: {}", self.run),
            &[
                "gen",
                "best",
                "avg.hop",
                "at best",
                "distinct",
                "mutants",
                "unchanged",
                "better",
                "equal",
                "eligible",
                "long",
            ],
        );
        for r in &self.rows {
            s.row([
                r.generation.to_string(),
                r.best.to_string(),
                format!("{:.3}", r.best_avg_hop),
                r.at_best.to_string(),
                r.distinct.to_string(),
                r.mutants.to_string(),
                r.unchanged.to_string(),
                r.better.to_string(),
                r.equal.to_string(),
                r.eligible_flows.to_string(),
                r.long_flows.to_string(),
            ]);
        }
        let mut c = Section::key_values("conflict-free gene (docs/mapping.md §5)");
        c.kv(
            "built gene's duration",
            self.conflict_free
                .map_or("none (the pair cannot be built)".into(), |d| d.to_string()),
        )
        .kv(
            "swaps from the best gene to it (nearest symmetry)",
            self.swaps_to_conflict_free
                .map_or("-".into(), |d| d.to_string()),
        );
        vec![s, c]
    }
}

/// Minimum number of transpositions turning `a` into `b` (`N` minus the cycles of `b⁻¹∘a`).
pub fn swap_distance(a: &[Address], b: &[Address]) -> usize {
    let n = a.len();
    let mut where_b = vec![0usize; n];
    for (p, &l) in b.iter().enumerate() {
        if let Some(w) = where_b.get_mut(l as usize) {
            *w = p;
        }
    }
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        cycles += 1;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = a.get(p).map_or(start, |&l| where_b[l as usize]);
        }
    }
    n - cycles
}

/// The 8 · side² images of `gene` under the torus's translations, quarter turns and mirror.
pub fn torus_symmetries(grid: Grid, gene: &[Address]) -> Vec<Vec<Address>> {
    let n = u32::from(grid.side());
    let mut out = Vec::new();
    for turn in 0..4 {
        for mirror in [false, true] {
            for (tx, ty) in (0..n).flat_map(|y| (0..n).map(move |x| (x, y))) {
                let mut img = vec![0; gene.len()];
                for (p, &l) in gene.iter().enumerate() {
                    let (mut x, mut y) = grid.xy(p as Address);
                    if mirror {
                        x = n - 1 - x;
                    }
                    for _ in 0..turn {
                        (x, y) = (n - 1 - y, x);
                    }
                    img[grid.pos(x + tx, y + ty)] = l;
                }
                out.push(img);
            }
        }
    }
    out
}

/// Flows of `gene` longer than `limit` hops.
fn flows_longer<D: DistanceOracle>(
    set: PatternSet<'_>,
    gene: &[Address],
    dist: &D,
    limit: u32,
) -> usize {
    let mut inv = vec![0u32; gene.len()];
    for (p, &l) in gene.iter().enumerate() {
        inv[l as usize] = p as u32;
    }
    let mut count = 0;
    set.for_each_flow(|_, s, d| {
        if dist.distance(inv[s as usize], inv[d as usize]) > limit {
            count += 1;
        }
    });
    count
}

/// Runs the GA of `req` generation by generation and traces it.
pub fn trace(req: &TraceRequest) -> Result<GaTrace> {
    let grid = Grid::new(SIDE)?;
    let paths = torus_paths(SIDE)?;
    let dest = pattern_tables(grid, &req.patterns, req.seed)?;
    let set = PatternSet::new(grid.nodes(), &dest)?;
    let radius = match req.variant.spec().radius {
        Radius::Patterns => req.patterns.len() as u32,
        Radius::Fixed(r) => u32::from(r),
        Radius::Random => 1,
    };
    let pick_above = req.neighbour.threshold(radius);
    let built = match set.count() {
        2 => conflict_free_gene(grid, set.pattern(0), set.pattern(1)),
        _ => None,
    };
    let params = GaSimParams {
        side: SIDE,
        cfg: SimConfig::ga(),
        dest: dest.clone(),
        threads: thread_count(req.threads, req.genes as usize),
    };
    let p = req.genes.max(1) as usize;
    let nodes = grid.nodes();
    let zero = Score {
        duration: 0,
        avg_hop: jumpnet_core::mapping::ga::AvgHop { hops: 0, pairs: 0 },
    };
    let (mut genes, mut scores) = (vec![0 as Address; p * nodes], vec![zero; p]);
    let (mut order, mut inverse) = (vec![0u32; p], vec![0 as Address; nodes]);
    let mut born = vec![0u32; p];
    let dist = PathLength(&paths);
    let (rows, best_gene, conflict_free) = with_sim_pool(&params, |pool| -> Result<_> {
        let conflict_free = built.as_ref().map(|g| pool.evaluate_one(g).duration);
        let mut ga = Ga::new(
            GaConfig {
                variant: req.variant,
                ranking: req.ranking,
                seed: req.seed,
                neighbour: req.neighbour,
                ties: req.ties,
            },
            GaProblem {
                grid,
                patterns: set,
                distance: PathLength(&paths),
            },
            &mut *pool,
            GaBuffers {
                genes: &mut genes,
                scores: &mut scores,
                order: &mut order,
                inverse: &mut inverse,
                born: &mut born,
            },
        )?;
        let mut rows = Vec::new();
        let mut last_best = u64::MAX;
        for g in 0..req.generations.max(1) {
            if g > 0 {
                ga.step();
            }
            let row = trace_row(&ga, g, set, &dist, pick_above);
            let new_best = row.best < last_best;
            last_best = last_best.min(row.best);
            if new_best || g % req.every.max(1) == 0 || g + 1 == req.generations {
                rows.push(row);
            }
        }
        Ok((rows, ga.gene(ga.best_slot()).to_vec(), conflict_free))
    })
    .map_err(|e| anyhow!("simulated fitness: {e}"))??;
    let swaps = built.map(|b| {
        torus_symmetries(grid, &b)
            .iter()
            .map(|s| swap_distance(&best_gene, s))
            .min()
            .unwrap_or(0)
    });
    Ok(GaTrace {
        run: format!(
            "{} {}-{} ({} picks) {} x {} seed {}",
            req.patterns
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join("+"),
            req.variant.name(),
            req.ranking.name(),
            req.neighbour.name(),
            req.genes,
            req.generations,
            req.seed
        ),
        rows,
        conflict_free,
        swaps_to_conflict_free: swaps,
    })
}

/// The statistics of generation `g` of `ga`.
fn trace_row<F: BatchFitness, D: DistanceOracle>(
    ga: &Ga<'_, F, D>,
    g: u32,
    set: PatternSet<'_>,
    dist: &impl DistanceOracle,
    pick_above: u32,
) -> TraceRow {
    let best_slot = ga.best_slot();
    let best = ga.score(best_slot).unwrap_or(Score {
        duration: 0,
        avg_hop: jumpnet_core::mapping::ga::AvgHop { hops: 0, pairs: 0 },
    });
    let p = ga.population();
    let at_best = (0..p)
        .filter(|&i| ga.score(i).is_some_and(|s| s.duration == best.duration))
        .count();
    let distinct: HashSet<&[Address]> = (0..p).map(|i| ga.gene(i)).collect();
    let st: StepStats = ga.stats();
    let gene = ga.gene(best_slot);
    TraceRow {
        generation: g,
        best: best.duration,
        best_avg_hop: best.avg_hop.as_f64(),
        at_best,
        distinct: distinct.len(),
        mutants: st.mutants(),
        unchanged: st.unchanged_total(),
        better: st.better,
        equal: st.equal,
        eligible_flows: flows_longer(set, gene, dist, pick_above),
        long_flows: flows_longer(set, gene, dist, 1),
    }
}
