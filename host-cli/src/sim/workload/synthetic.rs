//! Traffic driver: binds `jumpnet_core::traffic` (Bernoulli injection with a
//! fixed-point rate, destination patterns) to the simulated terminals. One seeded
//! [`Rng`] draws, terminal by terminal and cycle by cycle, so a seed fixes every packet.

use jumpnet_core::rng::Rng;
use jumpnet_core::topology::Network;
use jumpnet_core::traffic::{Bernoulli, DestPattern, Traffic};

use crate::sim::config::SimConfig;

/// The traffic of one run.
#[derive(Debug)]
pub struct Driver {
    /// Packet injection process per terminal and cycle.
    pub bernoulli: Bernoulli,
    pattern: DestPattern,
    nodes: u32,
    k: u32,
    n: u32,
    perm: Vec<u32>,
    /// `uniform` draws the source too (BookSim2's `uniform`; `self_packets`).
    uniform_with_self: bool,
    /// Random source of generation and destinations.
    pub rng: Rng,
}

impl Driver {
    /// Traffic of `cfg` on `net` (digit patterns use `k`, `n` of a torus/mesh with equal
    /// radices and one terminal per switch, else `k = nodes`, `n = 1`).
    pub fn new(net: &Network<'_>, nodes: u32, cfg: &SimConfig) -> Result<Self, String> {
        let (k, n) = match net {
            Network::Torus(t)
                if t.radices().iter().all(|&r| r == t.radices()[0])
                    && t.radices()[0]
                        .checked_pow(t.radices().len() as u32)
                        .is_some_and(|p| p == nodes) =>
            {
                (t.radices()[0], t.radices().len() as u32)
            }
            _ => (nodes, 1),
        };
        let pattern = cfg.dest_pattern();
        let mut rng = Rng::new(cfg.seed);
        let mut perm = Vec::new();
        if pattern == DestPattern::Permutation {
            perm = vec![0; nodes as usize];
            Traffic::draw_permutation(&mut perm, &mut rng);
        }
        Traffic::new(pattern, nodes, k, n, &perm).map_err(|e| e.to_string())?;
        let p = if cfg.rate_in_flits {
            cfg.injection_rate / f64::from(cfg.packet_size)
        } else {
            cfg.injection_rate
        };
        Ok(Driver {
            bernoulli: Bernoulli::from_f64(p),
            pattern,
            nodes,
            k,
            n,
            perm,
            uniform_with_self: cfg.self_packets && pattern == DestPattern::Uniform,
            rng,
        })
    }

    /// Destination of a new packet from `src` (may equal `src`: such packets are sent only
    /// with `self_packets`, docs/mapping.md §5). With `self_packets`, `uniform` draws among
    /// all nodes, the source included, as BookSim2's `uniform` does.
    #[inline]
    pub fn dest(&mut self, src: u32) -> u32 {
        if self.uniform_with_self {
            return self.rng.below(u64::from(self.nodes)) as u32;
        }
        // Validated in `new`.
        match Traffic::new(self.pattern, self.nodes, self.k, self.n, &self.perm) {
            Ok(t) => t.dest(src, &mut self.rng),
            Err(_) => src,
        }
    }
}
