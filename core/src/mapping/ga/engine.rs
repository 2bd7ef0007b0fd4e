//! The GA loop of docs/mapping.md §5 (\[GA\] §4): rank, keep survivors unchanged, refill with
//! mutants.

use super::{
    box_swap, line_swap, neighbour_swap, random_swap, randomize, Address, BatchFitness, Grid,
    Mutation, NeighbourPick, PatternSet, Radius, Ranking, Score, StepStats, Ties, Variant,
    VariantSpec,
};
use crate::error::{CapacityError, InvalidParam};
use crate::mapping::{DistanceOracle, MappingError};
use crate::rng::Rng;

/// Choice of variant, ranking, seed and the neighbouring swap's flow rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaConfig {
    /// Mutation mix and survivor ratio (\[GA\] Table 1).
    pub variant: Variant,
    /// Ranking method (sc / ah / ml).
    pub ranking: Ranking,
    /// PRNG seed of the run.
    pub seed: u64,
    /// Which flows neighbouring swaps pick (docs/mapping.md §5; default: not yet adjacent).
    pub neighbour: NeighbourPick,
    /// Which of two genes with equal ranking keys ranks first (docs/mapping.md §5, "Ties";
    /// default: the gene made last).
    pub ties: Ties,
}

/// What the GA optimises: the grid of physical positions, the applied patterns and the
/// physical distance used by neighbouring swaps.
#[derive(Clone, Copy, Debug)]
pub struct GaProblem<'a, D> {
    /// Physical `n × n` grid.
    pub grid: Grid,
    /// Applied traffic patterns (logical addresses).
    pub patterns: PatternSet<'a>,
    /// Physical distance between positions.
    pub distance: D,
}

/// Entries each buffer of [`GaBuffers`] needs for population `P` on `N` positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaSizes {
    /// Entries of `genes`: `P · N`.
    pub genes: usize,
    /// Entries of `scores` (exactly `P`: its length defines the population).
    pub scores: usize,
    /// Entries of `order`: `P`.
    pub order: usize,
    /// Entries of `inverse`: `N`.
    pub inverse: usize,
    /// Entries of `born`: `P`.
    pub born: usize,
}

impl GaSizes {
    /// Buffer sizes of a GA with `population` genes on `positions` positions.
    pub fn of(population: usize, positions: usize) -> Self {
        GaSizes {
            genes: population.saturating_mul(positions),
            scores: population,
            order: population,
            inverse: positions,
            born: population,
        }
    }
}

/// Caller storage of a GA with population `P` on `N` positions; sizes from [`GaSizes::of`].
#[derive(Debug)]
pub struct GaBuffers<'a> {
    /// `P · N` entries: gene `i` is `genes[i·N .. (i+1)·N]`.
    pub genes: &'a mut [Address],
    /// `P` entries; its length defines `P`.
    pub scores: &'a mut [Score],
    /// At least `P` entries: gene indices in rank order after ranking.
    pub order: &'a mut [u32],
    /// At least `N` entries of scratch for neighbouring swaps.
    pub inverse: &'a mut [Address],
    /// At least `P` entries: the generation in which the gene of each slot was made (read
    /// by [`Ties::Newest`]).
    pub born: &'a mut [u32],
}

/// Summary of [`Ga::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaOutcome {
    /// Best score seen (by the run's ranking).
    pub best: Score,
    /// Generation in which it was first reached (0 = the initial random population).
    pub best_generation: u32,
    /// Fitness evaluations performed.
    pub evaluations: u64,
}

/// A GA population in caller storage (docs/mapping.md §5 GA loop).
///
/// [`Ga::new`] draws `P` random permutations, evaluates and ranks them (generation 0). Each
/// [`Ga::step`] keeps the top `survivor_ratio · P` genes unchanged, overwrites every other
/// gene with a mutant of a survivor (survivor `j` of `k` parents the mutants in rank positions
/// `k + j, 2k + j, ...`, so each has `1/ratio − 1` children), evaluates only the new genes
/// and ranks again. With a survivor ratio of 0 (S99) every gene is redrawn: random search.
/// Ties in the ranking key are broken by the configured [`Ties`] rule and then by gene slot,
/// so the order is a total order and runs are bit-identical across targets.
#[derive(Debug)]
pub struct Ga<'a, F, D> {
    config: GaConfig,
    spec: VariantSpec,
    problem: GaProblem<'a, D>,
    fitness: F,
    genes: &'a mut [Address],
    scores: &'a mut [Score],
    order: &'a mut [u32],
    inverse: &'a mut [Address],
    born: &'a mut [u32],
    rng: Rng,
    generation: u32,
    evaluations: u64,
    stats: StepStats,
}

impl<'a, F: BatchFitness, D: DistanceOracle> Ga<'a, F, D> {
    /// Draws, evaluates and ranks the initial population.
    pub fn new(
        config: GaConfig,
        problem: GaProblem<'a, D>,
        fitness: F,
        buffers: GaBuffers<'a>,
    ) -> Result<Self, MappingError> {
        let nodes = problem.grid.nodes();
        if problem.patterns.nodes() != nodes {
            return Err(MappingError::Invalid(InvalidParam {
                param: "patterns",
                value: problem.patterns.nodes() as u64,
                rule: "pattern tables need one entry per grid position (N = side²)",
            }));
        }
        let population = buffers.scores.len();
        if population == 0 || population > u32::MAX as usize {
            return Err(MappingError::Invalid(InvalidParam {
                param: "population",
                value: population as u64,
                rule: "the GA needs at least one gene",
            }));
        }
        CapacityError::check("GA genes (P·N)", population * nodes, buffers.genes.len())?;
        CapacityError::check("GA rank order (P)", population, buffers.order.len())?;
        CapacityError::check("GA inverse scratch (N)", nodes, buffers.inverse.len())?;
        CapacityError::check("GA birth generations (P)", population, buffers.born.len())?;
        let born = &mut buffers.born[..population];
        born.fill(0);
        let mut ga = Ga {
            config,
            spec: config.variant.spec(),
            problem,
            fitness,
            genes: &mut buffers.genes[..population * nodes],
            scores: buffers.scores,
            order: &mut buffers.order[..population],
            inverse: &mut buffers.inverse[..nodes],
            born,
            rng: Rng::new(config.seed),
            generation: 0,
            evaluations: 0,
            stats: StepStats::default(),
        };
        for slot in 0..population {
            ga.randomize_slot(slot);
        }
        // Evaluation draws nothing from the PRNG, so scoring the whole population in one
        // batch gives the same run as scoring each gene after drawing it.
        for (i, o) in ga.order.iter_mut().enumerate() {
            *o = i as u32;
        }
        ga.evaluate_ranks(0);
        ga.rank();
        Ok(ga)
    }

    /// Population size `P`.
    pub fn population(&self) -> usize {
        self.scores.len()
    }

    /// Number of survivors `k` kept per generation (0 for random search).
    pub fn survivors(&self) -> usize {
        let p = self.population();
        let k = p * self.spec.survivors_permille as usize / 1000;
        if self.spec.survivors_permille > 0 {
            k.clamp(1, p)
        } else {
            0
        }
    }

    /// Generations done so far (0 after [`Ga::new`]).
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Gene in slot `i` (empty when out of range).
    pub fn gene(&self, i: usize) -> &[Address] {
        let n = self.problem.grid.nodes();
        self.genes.get(i * n..(i + 1) * n).unwrap_or(&[])
    }

    /// Score of the gene in slot `i`.
    pub fn score(&self, i: usize) -> Option<Score> {
        self.scores.get(i).copied()
    }

    /// Gene slots in rank order, best first.
    pub fn order(&self) -> &[u32] {
        self.order
    }

    /// Mutant counts of the last [`Ga::step`] (docs/mapping.md §5 "Why the GA stalled").
    pub fn stats(&self) -> StepStats {
        self.stats
    }

    /// Slot of the best-ranked gene.
    pub fn best_slot(&self) -> usize {
        self.order.first().copied().unwrap_or(0) as usize
    }

    fn randomize_slot(&mut self, slot: usize) {
        let n = self.problem.grid.nodes();
        if let Some(gene) = self.genes.get_mut(slot * n..(slot + 1) * n) {
            randomize(gene, &mut self.rng);
        }
    }

    /// Scores the genes in rank positions `from..P` (their slots are `order[from..]`) as
    /// one batch.
    fn evaluate_ranks(&mut self, from: usize) {
        let n = self.problem.grid.nodes();
        let slots = self.order.get(from..).unwrap_or(&[]);
        self.fitness
            .evaluate_batch(self.genes, n, slots, self.scores);
        self.evaluations += slots.len() as u64;
    }

    /// Sorts [`Ga::order`] by the ranking key, ties by the [`Ties`] rule, then by slot.
    fn rank(&mut self) {
        for (i, o) in self.order.iter_mut().enumerate() {
            *o = i as u32;
        }
        let (scores, born) = (&*self.scores, &*self.born);
        let (ranking, ties) = (self.config.ranking, self.config.ties);
        self.order.sort_unstable_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            match (scores.get(a), scores.get(b)) {
                (Some(sa), Some(sb)) => ranking.compare(sa, sb),
                _ => core::cmp::Ordering::Equal,
            }
            .then_with(|| match ties {
                Ties::Slot => core::cmp::Ordering::Equal,
                Ties::Newest => born.get(b).cmp(&born.get(a)),
            })
            .then(a.cmp(&b))
        });
    }

    /// Applies one mutation drawn from the variant's mix to the gene in `slot` and records
    /// its type and whether it changed the gene in [`Ga::stats`].
    fn mutate(&mut self, slot: usize) {
        let kind = self.spec.mutation_for(self.rng.below(1000) as u16);
        let grid = self.problem.grid;
        let radius = match self.spec.radius {
            Radius::Patterns => self.problem.patterns.count() as u32,
            Radius::Fixed(r) => r as u32,
            Radius::Random => 1 + self.rng.below(grid.side() as u64) as u32,
        };
        let n = grid.nodes();
        let Some(gene) = self.genes.get_mut(slot * n..(slot + 1) * n) else {
            return;
        };
        let rng = &mut self.rng;
        let changed = match kind {
            Mutation::RandomSwap => {
                random_swap(gene, rng);
                n >= 2
            }
            Mutation::LineSwap => line_swap(gene, grid, rng),
            Mutation::BoxSwap => box_swap(gene, grid, rng),
            Mutation::NeighbourSwap => neighbour_swap(
                gene,
                self.problem.patterns,
                &self.problem.distance,
                (radius, self.config.neighbour),
                self.inverse,
                rng,
            ),
            Mutation::Randomize => {
                randomize(gene, rng);
                true
            }
        };
        self.stats.record(kind, changed);
    }

    /// Compares every mutant (rank positions `k..P` of the previous order) with its parent.
    fn compare_with_parents(&mut self, k: usize) {
        let ranking = self.config.ranking;
        for t in k..self.population() {
            let (Some(&child), Some(&parent)) = (self.order.get(t), self.order.get((t - k) % k))
            else {
                continue;
            };
            let (Some(c), Some(p)) = (
                self.scores.get(child as usize),
                self.scores.get(parent as usize),
            ) else {
                continue;
            };
            match ranking.compare(c, p) {
                core::cmp::Ordering::Less => self.stats.better += 1,
                core::cmp::Ordering::Equal => self.stats.equal += 1,
                core::cmp::Ordering::Greater => {}
            }
        }
    }

    /// One generation: refill the non-survivors with evaluated mutants and rank again.
    pub fn step(&mut self) {
        let k = self.survivors();
        let p = self.population();
        let n = self.problem.grid.nodes();
        self.stats = StepStats::default();
        for t in k..p {
            let Some(&slot) = self.order.get(t) else {
                continue;
            };
            let slot = slot as usize;
            if let Some(b) = self.born.get_mut(slot) {
                *b = self.generation + 1;
            }
            if k == 0 {
                self.randomize_slot(slot);
            } else if let Some(&parent) = self.order.get((t - k) % k) {
                let parent = parent as usize;
                if parent * n + n <= self.genes.len() && slot * n + n <= self.genes.len() {
                    self.genes.copy_within(parent * n..parent * n + n, slot * n);
                }
                self.mutate(slot);
            }
        }
        // Mutants are drawn first and scored together (evaluation uses no randomness, so
        // the run equals scoring each mutant as it is made).
        self.evaluate_ranks(k);
        if k > 0 {
            self.compare_with_parents(k);
        }
        self.rank();
        self.generation += 1;
    }

    /// Runs until `generations` generations exist (generation 0 is the initial population,
    /// so `generations − 1` steps), copying the best gene seen into `best_gene` (N entries).
    /// `progress(generation, best)` is called once per generation.
    pub fn run(
        mut self,
        generations: u32,
        best_gene: &mut [Address],
        progress: &mut dyn FnMut(u32, Score),
    ) -> Result<GaOutcome, MappingError> {
        let n = self.problem.grid.nodes();
        CapacityError::check("best gene (N)", n, best_gene.len())?;
        let best_gene = &mut best_gene[..n];
        let ranking = self.config.ranking;
        let mut best: Option<(Score, u32)> = None;
        for g in 0..generations {
            if g > 0 {
                self.step();
            }
            let slot = self.best_slot();
            let Some(top) = self.score(slot) else {
                continue;
            };
            let better = match best {
                None => true,
                Some((b, _)) => ranking.compare(&top, &b).is_lt(),
            };
            if better {
                best = Some((top, self.generation));
                best_gene.copy_from_slice(self.gene(slot));
            }
            if let Some((b, _)) = best {
                progress(self.generation, b);
            }
        }
        let (best, best_generation) = match best {
            Some(b) => b,
            None => {
                let slot = self.best_slot();
                best_gene.copy_from_slice(self.gene(slot));
                (
                    self.score(slot).unwrap_or(Score {
                        duration: 0,
                        avg_hop: super::AvgHop { hops: 0, pairs: 0 },
                    }),
                    0,
                )
            }
        };
        Ok(GaOutcome {
            best,
            best_generation,
            evaluations: self.evaluations,
        })
    }
}
