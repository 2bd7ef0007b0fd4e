//! Background traffic of collective runs ([DF-BC] §IV, docs/reference-results.md
//! B3): while a collective runs, every terminal *not* used by it sends messages of a fixed
//! size (default 1 KiB) to uniformly random other non-participating terminals, with
//! exponentially distributed inter-arrival times.
//!
//! # Model
//!
//! * Each source terminal `s` draws its arrival times as a Poisson process of mean gap
//!   `mean_cycles`: `t_{k+1} = t_k + (−mean · ln(1 − u))` with `u` uniform in `[0, 1)` from
//!   `jumpnet_core::rng::Rng` (seeded with `seed`; one generator, sources drawn in terminal
//!   order at start, then in the order their arrivals happen, so runs are deterministic).
//!   The first arrival of each source is one such gap after cycle 0. A message arriving at
//!   (real) time `t` is queued at cycle `ceil(t)`.
//! * Its destination is uniform over the other non-participating terminals; it becomes
//!   `P` packets of the engine's packet length exactly as a collective message of the same
//!   size ([`crate::sim::workload::collective::NicConfig::packets`]).
//! * Packets carry the tag `BACKGROUND_TAG | id`, so the collective's arrival accounting
//!   never sees them ([`is_background`]); they are created outside the engine's
//!   measurement, so the collective's packet-latency and hop statistics stay its own.
//! * A background message's latency is from its queueing cycle to the ejection of the tail
//!   of its last packet. Background traffic stops with the collective: messages still in
//!   flight at the makespan are counted as sent, not delivered.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use jumpnet_core::rng::Rng;
use serde::Serialize;

use crate::sim::engine::stats::{Histogram, LatencyStats};
use crate::sim::engine::State;

/// Tag bit of background packets (collective messages use tags below it).
pub const BACKGROUND_TAG: u32 = 1 << 31;

/// Whether a packet tag belongs to background traffic.
pub fn is_background(tag: u32) -> bool {
    tag != crate::sim::network::terminal::NO_TAG && tag & BACKGROUND_TAG != 0
}

/// An exponentially distributed gap of mean `mean`: `−mean · ln(1 − u)`, `u` uniform in
/// `[0, 1)` (inverse-transform sampling; `1 − u > 0`, so the gap is finite).
pub fn exponential_gap(rng: &mut Rng, mean: f64) -> f64 {
    -mean * (1.0 - rng.unit_f64()).ln()
}

/// Background traffic parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BackgroundConfig {
    /// Mean inter-arrival time per source terminal, in cycles (> 0).
    pub mean_cycles: f64,
    /// Bytes per message.
    pub bytes: u64,
    /// PRNG seed.
    pub seed: u64,
}

/// What the background traffic did during a collective run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BackgroundStats {
    /// Non-participating terminals (sources and destinations).
    pub terminals: u32,
    /// Mean inter-arrival time per source, cycles.
    pub mean_cycles: f64,
    /// Bytes per message.
    pub bytes: u64,
    /// Packets per message.
    pub packets_per_message: u64,
    /// Messages queued before the collective finished.
    pub messages_sent: u64,
    /// Messages whose last packet arrived before the collective finished.
    pub messages_delivered: u64,
    /// Latency of the delivered messages (cycles, queueing to tail ejection).
    pub latency: LatencyStats,
}

/// Background traffic generator and bookkeeping of one run.
#[derive(Debug)]
pub struct Background {
    cfg: BackgroundConfig,
    packets_per_message: u64,
    sources: Vec<u32>,
    /// Real-valued next arrival time per source.
    next_time: Vec<f64>,
    /// `(arrival cycle, source index)`.
    due: BinaryHeap<Reverse<(u64, u32)>>,
    rng: Rng,
    /// Per message: `(queued cycle, packets still in flight)`.
    messages: Vec<(u64, u64)>,
    delivered: u64,
    latency: Histogram,
}

impl Background {
    /// Background traffic among the terminals `0..terminals` with `used[t] == false`, each
    /// message `packets_per_message` packets. Errors when the mean is not positive and
    /// finite or fewer than two terminals are free.
    pub fn new(
        cfg: &BackgroundConfig,
        used: &[bool],
        packets_per_message: u64,
    ) -> Result<Self, String> {
        if !(cfg.mean_cycles.is_finite() && cfg.mean_cycles > 0.0) {
            return Err(format!(
                "background mean inter-arrival time {} cycles must be positive and finite",
                cfg.mean_cycles
            ));
        }
        let sources: Vec<u32> = (0..used.len() as u32)
            .filter(|&t| !used[t as usize])
            .collect();
        if sources.len() < 2 {
            return Err(format!(
                "background traffic needs at least 2 terminals the collective does not use; {} are free",
                sources.len()
            ));
        }
        let mut bg = Background {
            cfg: cfg.clone(),
            packets_per_message: packets_per_message.max(1),
            next_time: vec![0.0; sources.len()],
            due: BinaryHeap::with_capacity(sources.len()),
            rng: Rng::new(cfg.seed),
            sources,
            messages: Vec::new(),
            delivered: 0,
            latency: Histogram::new(),
        };
        for i in 0..bg.sources.len() {
            bg.schedule_next(i);
        }
        Ok(bg)
    }

    fn schedule_next(&mut self, i: usize) {
        let t = self.next_time[i] + exponential_gap(&mut self.rng, self.cfg.mean_cycles);
        self.next_time[i] = t;
        self.due.push(Reverse((t.ceil() as u64, i as u32)));
    }

    /// Queues the messages due at or before cycle `now` (outside the engine's measurement).
    pub(crate) fn inject(&mut self, st: &mut State<'_>, now: u64) {
        let measuring = st.set_measuring(false);
        while let Some(&Reverse((t, i))) = self.due.peek() {
            if t > now {
                break;
            }
            self.due.pop();
            let i = i as usize;
            let src = self.sources[i];
            // Uniform over the other sources: draw in 0..len-1 and skip the sender.
            let mut j = self.rng.index(self.sources.len() - 1);
            if j >= i {
                j += 1;
            }
            let dst = self.sources[j];
            let id = self.messages.len() as u32;
            if id < BACKGROUND_TAG - 1 {
                for _ in 0..self.packets_per_message {
                    st.create_tagged(src, dst, BACKGROUND_TAG | id);
                }
                self.messages.push((now, self.packets_per_message));
            }
            self.schedule_next(i);
        }
        st.set_measuring(measuring);
    }

    /// The tail of a packet of background message `tag` was ejected at cycle `at`.
    pub(crate) fn on_tail(&mut self, tag: u32, at: u64) {
        let Some(m) = self.messages.get_mut((tag & !BACKGROUND_TAG) as usize) else {
            return;
        };
        m.1 = m.1.saturating_sub(1);
        if m.1 == 0 {
            self.delivered += 1;
            self.latency.add(at.saturating_sub(m.0));
        }
    }

    /// Statistics so far.
    pub fn stats(&self) -> BackgroundStats {
        BackgroundStats {
            terminals: self.sources.len() as u32,
            mean_cycles: self.cfg.mean_cycles,
            bytes: self.cfg.bytes,
            packets_per_message: self.packets_per_message,
            messages_sent: self.messages.len() as u64,
            messages_delivered: self.delivered,
            latency: self.latency.summary(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "background_tests.rs"]
mod tests;
