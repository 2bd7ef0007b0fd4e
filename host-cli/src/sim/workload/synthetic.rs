//! Traffic driver: binds `jumpnet_core::traffic` (Bernoulli or on/off injection with
//! fixed-point rates, destination patterns) and BookSim2's batch source ([`PacedBatch`]) to
//! the simulated terminals, with the size of every packet (fixed, or drawn from a
//! [`PacketSizes`] distribution, docs/booksim.md §3.5). One seeded [`Rng`] draws, terminal
//! by terminal and cycle by cycle, so a seed fixes every packet.

use jumpnet_core::rng::knuth::RanStream;
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::Network;
use jumpnet_core::traffic::{Bernoulli, DestPattern, OnOff, Traffic};

use crate::sim::config::{Draws, Injection, PacketSizes, SimConfig};
use crate::sim::workload::booksim_draws::{BookSimDraws, BookSimSource, PatternDraw, Trial};
use crate::sim::workload::paced_batch::PacedBatch;

/// The injection process of a run besides Bernoulli's (docs/booksim.md §2, §5).
#[derive(Debug)]
pub enum Process {
    /// Bernoulli ([`Driver::bernoulli`]) or a batch created by the run itself.
    Plain,
    /// On/off: the process and each terminal's state.
    OnOff(OnOff, Vec<bool>),
    /// BookSim2's batch source.
    Paced(PacedBatch),
    /// BookSim2's source, Bernoulli or on/off (`draws = booksim`; its trials draw from
    /// [`Driver::booksim`], or a class's from the classes' generators).
    BookSim(BookSimSource),
}

/// The traffic of one run.
#[derive(Debug)]
pub struct Driver {
    /// Packet injection process per terminal and cycle.
    pub bernoulli: Bernoulli,
    /// The other injection processes.
    pub process: Process,
    pattern: DestPattern,
    nodes: u32,
    k: u32,
    n: u32,
    /// The permutation of `randperm` or the `[node, weight, …]` pairs of `hotspots`.
    perm: Vec<u32>,
    /// `uniform` draws the source too (BookSim2's `uniform`; `self_packets`).
    uniform_with_self: bool,
    /// Every packet's size without a distribution.
    packet_size: u16,
    /// The distribution of sizes a packet's is drawn from (`extras.packet_sizes`).
    sizes: Option<PacketSizes>,
    /// Random source of generation and destinations.
    pub rng: Rng,
    /// With `draws = booksim` (one traffic class): BookSim2's generators, which draw the
    /// trials of [`Process::BookSim`] and every packet's size, destination and subnetwork
    /// ([`Driver::booksim_packet`]); `rng` then draws only what BookSim2 draws elsewhere.
    pub booksim: Option<Box<BookSimDraws>>,
}

impl Driver {
    /// Traffic of `cfg` on `net` (digit patterns use `k`, `n` of a torus/mesh with equal
    /// radices and one terminal per switch, else `k = nodes`, `n = 1`).
    pub fn new(net: &Network<'_>, nodes: u32, cfg: &SimConfig) -> Result<Self, String> {
        Self::build(net, nodes, cfg, None)
    }

    /// The driver of one traffic class of `cfg` (the class's own configuration) in a run
    /// with BookSim2's draws: its source is BookSim2's, its draws come from the classes'
    /// shared generators (the caller's), and on/off first states continue `unseeded`, the
    /// earlier classes' (docs/booksim.md §3.9).
    pub fn for_class(
        net: &Network<'_>,
        nodes: u32,
        cfg: &SimConfig,
        unseeded: &mut RanStream,
    ) -> Result<Self, String> {
        Self::build(net, nodes, cfg, Some(unseeded))
    }

    /// [`Driver::new`], or with `class_of` [`Driver::for_class`].
    fn build(
        net: &Network<'_>,
        nodes: u32,
        cfg: &SimConfig,
        class_of: Option<&mut RanStream>,
    ) -> Result<Self, String> {
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
            match cfg.extras.perm_seed {
                // BookSim2's permutation (docs/booksim.md §3.8), from Knuth's generator:
                // `rng` is not drawn from.
                Some(seed) => {
                    let mut scratch = vec![0; nodes as usize];
                    Traffic::draw_booksim_permutation(&mut perm, &mut scratch, i64::from(seed))
                        .map_err(|e| e.to_string())?;
                }
                None => Traffic::draw_permutation(&mut perm, &mut rng),
            }
        }
        let e = &cfg.extras;
        let is_class = class_of.is_some();
        let booksim = e.draws == Draws::BookSim
            && e.classes.is_empty()
            && e.read_write.is_none()
            && matches!(
                cfg.injection,
                Injection::Bernoulli | Injection::OnOff | Injection::BookSimBatch
            );
        // What BookSim2 draws before it seeds its generators (a `hotspot` without a list,
        // on/off first states) comes from Knuth's generator at its default seed, as far as
        // earlier classes drew from it (docs/booksim.md §3.9).
        let mut fresh = None;
        let mut unseeded = match class_of {
            Some(u) => Some(u),
            None if booksim => Some(fresh.insert(BookSimDraws::unseeded())),
            None => None,
        };
        if pattern == DestPattern::Hotspots {
            perm = cfg
                .extras
                .hotspots
                .iter()
                .flat_map(|&(n, w)| [n, w])
                .collect();
            if perm.is_empty() {
                // BookSim2's `hotspot` without a list: one hotspot drawn at random.
                let node = match unseeded.as_mut() {
                    Some(u) if booksim => u.random_int(nodes - 1),
                    _ => rng.below(u64::from(nodes)) as u32,
                };
                perm = vec![node, 1];
            }
        }
        Traffic::new(pattern, nodes, k, n, &perm).map_err(|e| e.to_string())?;
        let sizes = cfg.extras.packet_sizes.clone();
        let mean = sizes
            .as_ref()
            .map_or(f64::from(cfg.packet_size), PacketSizes::mean);
        let (p, offered) = if cfg.rate_in_flits {
            // BookSim2 divides by the mean size (`_GetAveragePacketSize`).
            (cfg.injection_rate / mean, cfg.injection_rate)
        } else {
            (cfg.injection_rate, cfg.injection_rate * mean)
        };
        let e = &cfg.extras;
        let on_off_error = |err| {
            format!(
                "on_off with burst_alpha = {}, burst_beta = {}, burst_r1 = {}: {err}",
                e.burst_alpha, e.burst_beta, e.burst_r1
            )
        };
        let process = match cfg.injection {
            Injection::OnOff if booksim => {
                let p = OnOff::derived(p, e.burst_alpha, e.burst_beta, e.burst_r1)
                    .map_err(on_off_error)?;
                let trial = match unseeded {
                    Some(u) => Trial::on_off(nodes, p, u),
                    None => Trial::on_off(nodes, p, &mut BookSimDraws::unseeded()),
                };
                Process::BookSim(BookSimSource::new(nodes, trial, offered))
            }
            Injection::OnOff => {
                let p =
                    OnOff::new(p, e.burst_alpha, e.burst_beta, e.burst_r1).map_err(on_off_error)?;
                // Every source starts on or off at random, as BookSim2's do.
                let states = (0..nodes).map(|_| rng.below(2) == 1).collect();
                Process::OnOff(p, states)
            }
            Injection::BookSimBatch => {
                Process::Paced(PacedBatch::new(nodes, 1, cfg.batch_size, e.max_outstanding))
            }
            Injection::Bernoulli if booksim => {
                Process::BookSim(BookSimSource::new(nodes, Trial::bernoulli(p), offered))
            }
            Injection::Bernoulli | Injection::Batch => Process::Plain,
        };
        Ok(Driver {
            bernoulli: Bernoulli::from_f64(p),
            process,
            pattern,
            nodes,
            k,
            n,
            perm,
            uniform_with_self: cfg.self_packets && pattern == DestPattern::Uniform,
            packet_size: cfg.packet_size,
            sizes,
            rng,
            // A class's draws come from the classes' generators.
            booksim: (booksim && !is_class).then(|| Box::new(BookSimDraws::new(cfg.seed))),
        })
    }

    /// Whether terminal `t` (`idle`: nothing queued or being injected) creates a packet at
    /// cycle `now` under [`Driver::process`], and its creation cycle.
    #[inline]
    pub fn fire(&mut self, t: u32, now: u64, idle: bool) -> Option<u64> {
        match &mut self.process {
            Process::Plain => None,
            Process::OnOff(p, on) => p.fire(&mut on[t as usize], &mut self.rng).then_some(now),
            Process::Paced(b) => b.fire(t, 0, now, idle),
            Process::BookSim(s) => {
                let draws = self.booksim.as_deref_mut()?;
                s.fire(t, now, idle, &mut draws.ranf)
            }
        }
    }

    /// With BookSim2's source and the driver's own generators: every terminal's trials of
    /// cycle `now` in terminal order (`idle(t)`: terminal `t` holds no packet), each
    /// terminal that made a packet appended to `fired` with the packet's date; `false`
    /// (nothing drawn) otherwise.
    #[inline]
    pub fn booksim_trials(
        &mut self,
        now: u64,
        idle: impl Fn(u32) -> bool,
        fired: &mut Vec<(u32, u64)>,
    ) -> bool {
        let (Process::BookSim(s), Some(draws)) = (&mut self.process, self.booksim.as_deref_mut())
        else {
            return false;
        };
        for t in 0..self.nodes {
            if let Some(created) = s.fire(t, now, idle(t), &mut draws.ranf) {
                fired.push((t, created));
            }
        }
        true
    }

    /// A new packet of terminal `src`: its size and destination, with `draws = booksim`
    /// drawn in BookSim2's order (size, destination, subnetwork; `booksim_draws`), else
    /// the destination then the size from `rng`.
    pub fn new_packet(&mut self, src: u32) -> (u16, u32) {
        let Some(mut draws) = self.booksim.take() else {
            let d = self.dest(src);
            return (self.packet_size(), d);
        };
        let batch = matches!(self.process, Process::Paced(_));
        let drawn = self.booksim_packet(src, &mut draws, batch);
        self.booksim = Some(draws);
        drawn
    }

    /// A new packet of terminal `src` with BookSim2's draws from `draws`, in BookSim2's
    /// order (`booksim_draws`; `batch`: BookSim2's batch mode, which draws a size more):
    /// its size and destination.
    pub fn booksim_packet(
        &mut self,
        src: u32,
        draws: &mut BookSimDraws,
        batch: bool,
    ) -> (u16, u32) {
        let traffic = PatternDraw {
            pattern: self.pattern,
            nodes: self.nodes,
            pairs: &self.perm,
        };
        let (len, dst) = draws.packet(src, self.sizes.as_ref(), self.packet_size, traffic, batch);
        (len, dst.unwrap_or_else(|| self.dest(src)))
    }

    /// The trial of terminal `t` at cycle `now` of BookSim2's source ([`Process::BookSim`])
    /// with the caller's generators (a class's, [`Driver::for_class`]): the cycle a new
    /// packet is dated to, if one is made; `None` without BookSim2's source.
    pub fn booksim_fire(
        &mut self,
        t: u32,
        now: u64,
        idle: bool,
        draws: &mut BookSimDraws,
    ) -> Option<u64> {
        match &mut self.process {
            Process::BookSim(s) => s.fire(t, now, idle, &mut draws.ranf),
            _ => None,
        }
    }

    /// Whether the process is BookSim2's source ([`Process::BookSim`]).
    pub fn is_booksim(&self) -> bool {
        matches!(self.process, Process::BookSim(_))
    }

    /// With BookSim2's source: its offered load, flits per terminal and cycle (the
    /// configured rate, [`BookSimSource::offered`]).
    pub fn booksim_offered(&self) -> Option<f64> {
        match &self.process {
            Process::BookSim(s) => Some(s.offered()),
            _ => None,
        }
    }

    /// BookSim2's drain starts at cycle `now` (its source's, if it has one).
    pub fn start_drain(&mut self, now: u64) {
        if let Process::BookSim(s) = &mut self.process {
            s.start_drain(now);
        }
    }

    /// Whether BookSim2's source still has terminals to catch up to the drain's start.
    pub fn undrained(&self) -> bool {
        matches!(&self.process, Process::BookSim(s) if s.undrained())
    }

    /// The drain's first cycle, once BookSim2's source ([`Process::BookSim`])
    /// started draining: a packet dated before it is measured (BookSim2's `_drain_time`).
    #[inline]
    pub fn drain_time(&self) -> Option<u64> {
        match &self.process {
            Process::BookSim(s) => s.drain_time(),
            _ => None,
        }
    }

    /// The kind of [`Driver::process`]: [`Injection::OnOff`] for on/off sources, else
    /// [`Injection::Bernoulli`] (Bernoulli draws through [`Driver::bernoulli`]) or
    /// [`Injection::BookSimBatch`].
    pub fn process_kind(&self) -> Injection {
        match self.process {
            Process::Plain => Injection::Bernoulli,
            Process::BookSim(ref s) if s.on_off() => Injection::OnOff,
            Process::BookSim(_) => Injection::Bernoulli,
            Process::OnOff(..) => Injection::OnOff,
            Process::Paced(_) => Injection::BookSimBatch,
        }
    }

    /// A packet of terminal `src` was delivered or dropped in cycle `now` (the batch
    /// source's outstanding count).
    #[inline]
    pub fn delivered(&mut self, src: u32, now: u64) {
        if let Process::Paced(b) = &mut self.process {
            b.delivered(src, now);
        }
    }

    /// The size of a new packet, flits: `packet_size`, or drawn from the distribution
    /// (BookSim2's `_GetNextPacketSize`).
    #[inline]
    pub fn packet_size(&mut self) -> u16 {
        match &self.sizes {
            None => self.packet_size,
            Some(d) => d.draw(&mut self.rng),
        }
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
