//! Physical network parameters onto simulator cycles: link bandwidth and switch latency in,
//! flit size, clock and router delay out (the simulated makespans of `jumpnet report`,
//! docs/reference-results.md A8: 100 Gb/s links, 100 ns switch latency).
//!
//! # The mapping
//!
//! One flit crosses a link per cycle, so a cycle lasts `flit_bytes · 8 / link_gbps` ns.
//! Simulating every 64-byte flit of a megabyte collective costs too much (a 512-rank Bruck
//! alltoall of 1 MiB blocks moves 2.4 GB per rank), so the flit size follows the largest
//! message of the run: `flit_bytes = max(min_flit_bytes, ⌈largest / max_message_flits⌉)`,
//! and every message is one packet of at most `max_message_flits` flits
//! (`packet_flits = ⌈largest / flit_bytes⌉`, no header flits). Serialisation and contention
//! stay exact at that granularity; what is rounded is the per-hop latency.
//!
//! A hop costs one link cycle plus the router's delay, carried by `routing_delay` (the
//! other pipeline stages are 0, so body flits stream at one per cycle as in a real
//! cut-through switch): `hop_cycles = max(1, round(switch_latency / cycle))`,
//! `routing_delay = hop_cycles − 1`. With the [`SimConfig::booksim`] zero-load formula
//! (`t_r = routing_delay`, `t_c = 1`), one packet of `L` flits over `H` router-to-router
//! hops then takes `T0 = (H + 1)·(hop_cycles − 1) + H + L + 1` cycles; at 100 Gb/s and
//! 100 ns with 256-byte flits a hop is 5 cycles = 102.4 ns.

use serde::Serialize;

use crate::sim::config::SimConfig;
use crate::sim::network::class_latency::ClassLatency;
use crate::sim::router::speedup::Speedup;

/// Physical parameters of a simulated network and the granularity of the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TimeScale {
    /// Link bandwidth, Gb/s (> 0).
    pub link_gbps: f64,
    /// Latency of one switch, ns (≥ 0).
    pub switch_latency_ns: f64,
    /// Flits of the largest message (1..=65,535): the granularity.
    pub max_message_flits: u32,
    /// Smallest flit, bytes (≥ 1).
    pub min_flit_bytes: u32,
}

/// The cycle-level parameters [`TimeScale::timing`] chose for one run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// Packet length in flits (= flits of the largest message).
    pub packet_flits: u16,
    /// Length of one cycle, ns.
    pub cycle_ns: f64,
    /// Cycles per hop (link cycle + router delay).
    pub hop_cycles: u16,
}

impl TimeScale {
    /// 100 Gb/s links, 100 ns switches (\[DISS\] chapter 5's SimGrid platform), messages of
    /// at most 256 flits of at least 64 bytes.
    pub const DISS: TimeScale = TimeScale {
        link_gbps: 100.0,
        switch_latency_ns: 100.0,
        max_message_flits: 256,
        min_flit_bytes: 64,
    };

    /// Checks the parameters; the message names the parameter and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.link_gbps.is_finite() && self.link_gbps > 0.0) {
            return Err(format!(
                "link bandwidth {} Gb/s: must be a positive number",
                self.link_gbps
            ));
        }
        if !(self.switch_latency_ns.is_finite() && self.switch_latency_ns >= 0.0) {
            return Err(format!(
                "switch latency {} ns: must be zero or positive",
                self.switch_latency_ns
            ));
        }
        if !(1..=u32::from(u16::MAX)).contains(&self.max_message_flits) {
            return Err(format!(
                "max_message_flits {}: must be 1..=65535",
                self.max_message_flits
            ));
        }
        if self.min_flit_bytes == 0 {
            return Err("min_flit_bytes 0: must be at least 1".into());
        }
        Ok(())
    }

    /// Flit size, packet length, cycle and hop cycles for a run whose largest message has
    /// `largest_message` bytes (see the module documentation).
    pub fn timing(&self, largest_message: u64) -> Result<Timing, String> {
        self.validate()?;
        let flit = largest_message
            .div_ceil(u64::from(self.max_message_flits))
            .max(u64::from(self.min_flit_bytes));
        let flit_bytes = u32::try_from(flit).map_err(|_| {
            format!(
                "a message of {largest_message} bytes needs flits of {flit} bytes at {} flits per message; at most {} bytes per flit are supported",
                self.max_message_flits,
                u32::MAX
            )
        })?;
        let packet_flits = largest_message.div_ceil(flit).max(1);
        let cycle_ns = f64::from(flit_bytes) * 8.0 / self.link_gbps;
        let hops = (self.switch_latency_ns / cycle_ns).round().max(1.0);
        let hop_cycles = if hops > f64::from(u16::MAX) {
            return Err(format!(
                "a {} ns switch is {hops} cycles of {cycle_ns} ns; at most {} are supported (raise min_flit_bytes)",
                self.switch_latency_ns,
                u16::MAX
            ));
        } else {
            hops as u16
        };
        Ok(Timing {
            flit_bytes,
            // ≤ max_message_flits ≤ u16::MAX (validated).
            packet_flits: packet_flits.min(u64::from(u16::MAX)) as u16,
            cycle_ns,
            hop_cycles,
        })
    }
}

impl Timing {
    /// Sets the packet length and the pipeline of `cfg` for this timing: router delay
    /// `hop_cycles − 1` in `routing_delay`, no allocation or traversal delay, links and
    /// terminal channels of one cycle, no extra credit delay, no internal speedup.
    pub fn configure(&self, cfg: &mut SimConfig) {
        cfg.packet_size = self.packet_flits;
        cfg.routing_delay = self.hop_cycles - 1;
        cfg.vc_alloc_delay = 0;
        cfg.sw_alloc_delay = 0;
        cfg.st_delay = 0;
        cfg.link_latency = 1;
        cfg.class_latency = ClassLatency::default();
        cfg.terminal_latency = 1;
        cfg.credit_delay = 0;
        cfg.internal_speedup = Speedup::ONE;
    }

    /// As [`Timing::configure`], with the switch latency on the channels instead of in the
    /// router's pipeline, for NICs that cut messages into several packets (docs/smpi.md §3):
    /// a switch then overlaps a packet's routing with the previous packet's body, as a
    /// cut-through switch does. A hop costs `hop_cycles` on the link leaving a switch and on
    /// the terminal's injection channel (so a route over `H` hops still takes `H + 1` switch
    /// latencies), buffers cover the credit round trip.
    pub fn configure_pipelined(&self, cfg: &mut SimConfig) {
        self.configure(cfg);
        let hop = self.hop_cycles;
        cfg.routing_delay = 0;
        cfg.link_latency = hop;
        cfg.injection_delay = hop - 1;
        cfg.vc_buf_size = cfg.vc_buf_size.max(2 * hop + 2);
    }

    /// Zero-load cycles of one packet over `hops` router-to-router hops (see the module
    /// documentation).
    pub fn zero_load_cycles(&self, hops: u64) -> u64 {
        (hops + 1) * u64::from(self.hop_cycles - 1) + hops + u64::from(self.packet_flits) + 1
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::builder::network::OwnedNetwork;
    use crate::builder::routing::{build, RouteAlgo, RouteOptions, RouteStore};
    use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
    use crate::builder::topology::TopologySpec;
    use crate::sim::workload::collective::{run_collective, NicConfig};

    /// Makespan of one message of `bytes` from the rank on terminal 0 to the rank on
    /// terminal `dst` of a 16-node ring, under the timing of `scale`.
    fn one_message(scale: &TimeScale, bytes: u64, dst: u32) -> (u64, Timing) {
        let w: Vec<String> = ["ring", "n=16"].iter().map(|s| s.to_string()).collect();
        let owned = OwnedNetwork::build(&TopologySpec::parse(&w).unwrap()).unwrap();
        let net = owned.network();
        let mut store = RouteStore::default();
        let opts = RouteOptions {
            algo: RouteAlgo::Minimal,
            max_layers: 8,
            seed: 1,
        };
        let (routing, _) = build(&net, &opts, &mut store).unwrap();
        let req = CollectiveRequest {
            algorithm: Algorithm::Bcast,
            ranks: Some(2),
            root: 0,
            bytes,
            elem_bytes: 4,
            placement: JobPlacement::Consecutive,
            seed: 0,
        };
        let sched = schedule::build(&req, None).unwrap();
        let s = sched.schedule().unwrap();
        let timing = scale.timing(bytes).unwrap();
        let mut cfg = SimConfig::booksim();
        timing.configure(&mut cfg);
        let nic = NicConfig {
            flit_bytes: timing.flit_bytes,
            header_flits: 0,
            ..NicConfig::default()
        };
        let r = run_collective(&net, routing.as_ref(), &cfg, &nic, &s, &[0, dst]).unwrap();
        (r.makespan_cycles, timing)
    }

    #[test]
    fn one_message_takes_the_zero_load_time_of_the_module_formula() {
        // Ring distance 0 → dst is min(dst, 16 − dst) router hops; the NIC sees the tail one
        // cycle after it arrives (sim::collective's timing model).
        for (bytes, dst) in [(1u64 << 20, 3u32), (256, 5), (64 << 10, 8), (1000, 1)] {
            let (cycles, t) = one_message(&TimeScale::DISS, bytes, dst);
            let h = u64::from(dst.min(16 - dst));
            // Injection channel, H + 1 routers of hop_cycles − 1, H links, ejection channel,
            // and the tail L − 1 flits behind the head.
            let by_hand =
                1 + (h + 1) * u64::from(t.hop_cycles - 1) + h + 1 + u64::from(t.packet_flits) - 1;
            assert_eq!(cycles, by_hand + 1, "{bytes} bytes over {h} hops");
            assert_eq!(t.zero_load_cycles(h), by_hand, "the documented formula");
        }
    }

    #[test]
    fn flit_size_follows_the_largest_message() {
        let t = TimeScale::DISS.timing(1 << 20).unwrap();
        assert_eq!((t.flit_bytes, t.packet_flits), (4096, 256));
        assert!((t.cycle_ns - 327.68).abs() < 1e-9);
        // 100 ns is 0.3 cycles: one link cycle per hop, no router delay.
        assert_eq!(t.hop_cycles, 1);
        let t = TimeScale::DISS.timing(256).unwrap();
        assert_eq!((t.flit_bytes, t.packet_flits), (64, 4));
        assert!((t.cycle_ns - 5.12).abs() < 1e-9);
        // 100 / 5.12 = 19.53 → 20 cycles per hop.
        assert_eq!(t.hop_cycles, 20);
        let t = TimeScale::DISS.timing(64 << 10).unwrap();
        assert_eq!((t.flit_bytes, t.packet_flits, t.hop_cycles), (256, 256, 5));
        // Not a multiple: 1000 bytes in flits of 64 → 16 flits (the last one partly used).
        let t = TimeScale::DISS.timing(1000).unwrap();
        assert_eq!((t.flit_bytes, t.packet_flits), (64, 16));
    }

    #[test]
    fn bad_parameters_are_named() {
        let mut s = TimeScale::DISS;
        s.link_gbps = 0.0;
        assert!(s.timing(1).unwrap_err().contains("link bandwidth"));
        let mut s = TimeScale::DISS;
        s.max_message_flits = 70_000;
        assert!(s.timing(1).unwrap_err().contains("max_message_flits"));
        let mut s = TimeScale::DISS;
        s.switch_latency_ns = f64::NAN;
        assert!(s.timing(1).unwrap_err().contains("switch latency"));
        let mut s = TimeScale::DISS;
        s.max_message_flits = 1;
        assert!(s.timing(u64::MAX).unwrap_err().contains("bytes per flit"));
    }
}
