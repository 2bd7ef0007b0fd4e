//! Simulated GA fitness (docs/mapping.md §5): a gene's duration is measured by the
//! flit-level engine instead of the contention proxy. Every node sends `batch_size` packets
//! of `packet_size` flits (the `ga` preset: 4 × 8) to its pattern destination; the duration
//! of a pattern is the cycle its last flit is received; a gene's duration is the sum over the
//! applied patterns, its avg.hop the mean torus distance of all its flows.
//!
//! One [`GaSimFitness`] owns one simulation [`Engine`] and reuses it for every run
//! ([`Engine::reset`]), so evaluating a gene allocates nothing once the buffers have grown.

use jumpnet_core::mapping::ga::{Address, AvgHop, Fitness, Grid, PatternSet, Score, NO_DEST};
use jumpnet_core::routing::{Routing, TorusDor, TorusVcs};
use jumpnet_core::topology::{Network, Torus};

use crate::sim::config::SimConfig;
use crate::sim::engine::{Engine, SimError};

/// Durations of one gene, pattern by pattern, and whether every run completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternRun {
    /// Cycle of the last reception (the watchdog's cycle after a deadlock).
    pub cycles: u64,
    /// The watchdog fired (flits left in the network).
    pub deadlocked: bool,
}

/// The simulated fitness of one engine: the patterns (logical addresses), the grid and a
/// reusable simulator state on the `side × side` torus.
pub struct GaSimFitness<'r> {
    engine: Engine<'r>,
    grid: Grid,
    dest: Vec<Address>,
    inverse: Vec<Address>,
    /// Runs that ended by the watchdog or a routing error (their duration is the cycle
    /// where they stopped; callers must treat such results as invalid).
    pub failures: u64,
}

impl std::fmt::Debug for GaSimFitness<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GaSimFitness")
            .field("grid", &self.grid)
            .field("patterns", &(self.dest.len() / self.grid.nodes()))
            .field("failures", &self.failures)
            .finish()
    }
}

impl<'r> GaSimFitness<'r> {
    /// An engine for `patterns` on `net` (an `n × n` torus, one terminal per switch, node id
    /// = grid position `y·n + x`) routed by `routing`, configured by `cfg` (batch size and
    /// packet size are the workload; the injection process is ignored).
    pub fn new(
        net: &Network<'_>,
        routing: &'r dyn Routing,
        cfg: &SimConfig,
        grid: Grid,
        patterns: PatternSet<'_>,
    ) -> Result<Self, SimError> {
        if patterns.nodes() != grid.nodes() {
            return Err(SimError::Config(format!(
                "pattern tables have {} entries, the {}x{} grid {}",
                patterns.nodes(),
                grid.side(),
                grid.side(),
                grid.nodes()
            )));
        }
        let engine = Engine::new(net, routing, cfg)?;
        if engine.terminals() as usize != grid.nodes() {
            return Err(SimError::Config(format!(
                "the network has {} terminals, the GA grid {} positions",
                engine.terminals(),
                grid.nodes()
            )));
        }
        let dest = (0..patterns.count())
            .flat_map(|k| patterns.pattern(k).iter().copied())
            .collect();
        Ok(GaSimFitness {
            engine,
            grid,
            dest,
            inverse: vec![0; grid.nodes()],
            failures: 0,
        })
    }

    /// Number of applied patterns.
    pub fn patterns(&self) -> usize {
        self.dest.len() / self.grid.nodes()
    }

    /// Simulates pattern `k` under `gene` (`gene[physical] = logical`): every physical node
    /// `p` sends its batch to `Γ⁻¹(dest_k(Γ(p)))`, all packets created at cycle 0.
    pub fn run_pattern(&mut self, gene: &[Address], k: usize) -> Result<PatternRun, SimError> {
        let n = self.grid.nodes();
        if gene.len() != n {
            return Err(SimError::Config(format!(
                "gene has {} entries, the grid {n}",
                gene.len()
            )));
        }
        self.invert(gene);
        let table = self.dest.get(k * n..(k + 1) * n).unwrap_or(&[]);
        let engine = &mut self.engine;
        engine.reset();
        let batch = engine.config().batch_size;
        for (p, &logical) in gene.iter().enumerate() {
            let Some(&d) = table.get(logical as usize) else {
                continue;
            };
            let Some(&pd) = self.inverse.get(d as usize) else {
                continue;
            };
            if d == NO_DEST || pd as usize == p {
                continue;
            }
            for _ in 0..batch {
                engine.send(p as u32, u32::from(pd))?;
            }
        }
        let run = engine.deliver()?;
        Ok(PatternRun {
            cycles: run.cycles,
            deadlocked: run.deadlocked,
        })
    }

    fn invert(&mut self, gene: &[Address]) {
        self.inverse.fill(NO_DEST);
        for (p, &l) in gene.iter().enumerate() {
            if let Some(slot) = self.inverse.get_mut(l as usize) {
                *slot = p as Address;
            }
        }
    }

    /// Torus distance between physical positions `a` and `b` of the grid.
    fn distance(&self, a: Address, b: Address) -> u64 {
        let n = u32::from(self.grid.side());
        let (ax, ay) = self.grid.xy(a);
        let (bx, by) = self.grid.xy(b);
        let ring = |u: u32, v: u32| {
            let d = u.abs_diff(v);
            u64::from(d.min(n - d))
        };
        ring(ax, bx) + ring(ay, by)
    }

    /// avg.hop of `gene` (mean torus distance of every flow of every pattern).
    fn avg_hop(&mut self, gene: &[Address]) -> AvgHop {
        self.invert(gene);
        let n = self.grid.nodes();
        let (mut hops, mut pairs) = (0, 0);
        for (i, &d) in self.dest.iter().enumerate() {
            let s = i % n;
            if d == NO_DEST {
                continue;
            }
            let (Some(&ps), Some(&pd)) = (self.inverse.get(s), self.inverse.get(d as usize)) else {
                continue;
            };
            hops += self.distance(ps, pd);
            pairs += 1;
        }
        AvgHop { hops, pairs }
    }
}

impl Fitness for GaSimFitness<'_> {
    /// Sum of the simulated pattern durations; a run that fails (deadlock or routing error)
    /// counts in [`GaSimFitness::failures`] and adds the cycles simulated so far.
    fn evaluate(&mut self, gene: &[Address]) -> Score {
        let mut duration = 0;
        for k in 0..self.patterns() {
            match self.run_pattern(gene, k) {
                Ok(r) => {
                    duration += r.cycles;
                    if r.deadlocked {
                        self.failures += 1;
                    }
                }
                Err(_) => {
                    duration += self.engine.now();
                    self.failures += 1;
                }
            }
        }
        Score {
            duration,
            avg_hop: self.avg_hop(gene),
        }
    }
}

/// The \[GA\] network: the `side × side` torus with one terminal per switch and
/// dimension-order routing with dateline VCs (deadlock-free on the rings; the `ga` preset's
/// 3 VCs give the routing's VC 0 two buffers and VC 1 one).
#[derive(Clone, Debug)]
pub struct GaTorus {
    grid: Grid,
    torus: Torus,
}

impl GaTorus {
    /// The `side × side` torus.
    pub fn new(side: u16) -> Result<Self, SimError> {
        let grid = Grid::new(side).map_err(|e| SimError::Config(format!("GA grid: {e:?}")))?;
        let torus = Torus::torus(&[u32::from(side), u32::from(side)], 1)
            .map_err(|e| SimError::Config(format!("{side}x{side} torus: {e:?}")))?;
        Ok(GaTorus { grid, torus })
    }

    /// The grid of physical positions.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Builds the network and its routing and calls `f` with a fresh [`GaSimFitness`] for
    /// `patterns` (the engine borrows both, so it lives inside the call).
    pub fn with_fitness<R>(
        &self,
        cfg: &SimConfig,
        patterns: PatternSet<'_>,
        f: impl FnOnce(&mut GaSimFitness<'_>) -> R,
    ) -> Result<R, SimError> {
        let grid = self.grid;
        let net = Network::Torus(self.torus.clone());
        let dor = TorusDor::new(&self.torus, TorusVcs::Dateline)
            .map_err(|e| SimError::Config(format!("torus DOR: {e:?}")))?;
        let mut fit = GaSimFitness::new(&net, &dor, cfg, grid, patterns)?;
        Ok(f(&mut fit))
    }
}
