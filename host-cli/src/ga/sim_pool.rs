//! Simulated GA fitness on every core: persistent worker threads, each owning one
//! reusable engine ([`GaSimFitness`](super::sim_fitness::GaSimFitness)), score the genes of a generation. The slots of a batch
//! are split into contiguous chunks, one per worker; every score depends only on its gene,
//! so results are identical for any number of threads.

use std::sync::mpsc::{channel, Receiver, Sender};

use jumpnet_core::mapping::ga::{
    population_gene, Address, AvgHop, BatchFitness, PatternSet, Score,
};

use crate::ga::sim_fitness::GaTorus;
use crate::sim::config::SimConfig;
use crate::sim::engine::SimError;

/// What every worker simulates: the torus side, the engine configuration and the applied
/// pattern tables (`dest[k·N + logical source]`, docs/mapping.md §5).
#[derive(Clone, Debug)]
pub struct GaSimParams {
    /// Torus side n (n × n nodes).
    pub side: u16,
    /// Engine configuration (normally [`SimConfig::ga`]).
    pub cfg: SimConfig,
    /// Pattern tables, `N` entries per pattern.
    pub dest: Vec<Address>,
    /// Worker threads (at least 1).
    pub threads: usize,
}

/// One chunk of work: genes (`N` entries each) and the slots their scores go to.
struct Job {
    slots: Vec<u32>,
    genes: Vec<Address>,
}

/// Scores of one chunk.
struct Done {
    slots: Vec<u32>,
    scores: Vec<Score>,
}

/// A [`BatchFitness`] that spreads each batch over the workers of [`with_sim_pool`].
#[derive(Debug)]
pub struct SimFitnessPool {
    jobs: Vec<Sender<Job>>,
    done: Receiver<Done>,
    nodes: usize,
    lost: bool,
}

impl SimFitnessPool {
    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.jobs.len()
    }

    /// Scores one gene.
    pub fn evaluate_one(&mut self, gene: &[Address]) -> Score {
        let mut scores = [Score {
            duration: 0,
            avg_hop: AvgHop { hops: 0, pairs: 0 },
        }];
        self.evaluate_batch(gene, self.nodes, &[0], &mut scores);
        scores[0]
    }
}

impl BatchFitness for SimFitnessPool {
    fn evaluate_batch(
        &mut self,
        genes: &[Address],
        nodes: usize,
        slots: &[u32],
        scores: &mut [Score],
    ) {
        let workers = self.jobs.len().max(1);
        let chunk = slots.len().div_ceil(workers).max(1);
        let mut sent = 0;
        for (w, part) in slots.chunks(chunk).enumerate() {
            let mut job = Job {
                slots: Vec::with_capacity(part.len()),
                genes: Vec::with_capacity(part.len() * nodes),
            };
            for &s in part {
                if let Some(g) = population_gene(genes, nodes, s) {
                    job.slots.push(s);
                    job.genes.extend_from_slice(g);
                }
            }
            match self.jobs.get(w).map(|tx| tx.send(job)) {
                Some(Ok(())) => sent += 1,
                _ => self.lost = true,
            }
        }
        for _ in 0..sent {
            let Ok(done) = self.done.recv() else {
                self.lost = true;
                return;
            };
            for (&s, score) in done.slots.iter().zip(done.scores) {
                if let Some(out) = scores.get_mut(s as usize) {
                    *out = score;
                }
            }
        }
    }
}

/// Worker loop: builds its own network, routing and engine, then scores jobs until the pool
/// is dropped. Returns the number of failed simulation runs.
fn worker(params: &GaSimParams, jobs: Receiver<Job>, done: Sender<Done>) -> Result<u64, SimError> {
    let torus = GaTorus::new(params.side)?;
    let nodes = torus.grid().nodes();
    let set = PatternSet::new(nodes, &params.dest)
        .map_err(|e| SimError::Config(format!("pattern tables: {e:?}")))?;
    torus.with_fitness(&params.cfg, set, |fit| {
        use jumpnet_core::mapping::ga::Fitness;
        while let Ok(job) = jobs.recv() {
            let scores = job
                .genes
                .chunks_exact(nodes)
                .map(|g| fit.evaluate(g))
                .collect();
            if done
                .send(Done {
                    slots: job.slots,
                    scores,
                })
                .is_err()
            {
                break;
            }
        }
        fit.failures
    })
}

/// Starts `params.threads` workers, runs `body` with a pool that scores on them, stops the
/// workers and returns `body`'s result. Fails when the engine cannot be built for `params`
/// or when any simulation run deadlocked or failed (such scores would be meaningless).
pub fn with_sim_pool<R>(
    params: &GaSimParams,
    body: impl FnOnce(&mut SimFitnessPool) -> R,
) -> Result<R, SimError> {
    // Build once here so configuration errors surface before any thread starts.
    let torus = GaTorus::new(params.side)?;
    let set = PatternSet::new(torus.grid().nodes(), &params.dest)
        .map_err(|e| SimError::Config(format!("pattern tables: {e:?}")))?;
    torus.with_fitness(&params.cfg, set, |_| ())?;
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = channel();
        let mut jobs = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..params.threads.max(1) {
            let (tx, rx) = channel();
            let done = done_tx.clone();
            handles.push(scope.spawn(move || worker(params, rx, done)));
            jobs.push(tx);
        }
        drop(done_tx);
        let mut pool = SimFitnessPool {
            jobs,
            done: done_rx,
            nodes: torus.grid().nodes(),
            lost: false,
        };
        let out = body(&mut pool);
        let lost = pool.lost;
        drop(pool);
        let mut failures = 0;
        for h in handles {
            match h.join() {
                Ok(Ok(f)) => failures += f,
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(SimError::Config("a fitness worker panicked".into())),
            }
        }
        if lost {
            return Err(SimError::Config("a fitness worker stopped early".into()));
        }
        if failures > 0 {
            return Err(SimError::Routing(format!(
                "{failures} simulated pattern runs deadlocked or failed to route"
            )));
        }
        Ok(out)
    })
}

impl BatchFitness for &mut SimFitnessPool {
    fn evaluate_batch(
        &mut self,
        genes: &[Address],
        nodes: usize,
        slots: &[u32],
        scores: &mut [Score],
    ) {
        (**self).evaluate_batch(genes, nodes, slots, scores);
    }
}
