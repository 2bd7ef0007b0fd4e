//! The NIC of a collective run (docs/smpi.md §3): the `simple` and `mpi` models and their
//! values, and the NIC configuration a run's options give, with what it changes in the
//! simulator configuration (time scale, interleaving).

use anyhow::{bail, Result};
use clap::ValueEnum;
use serde::Serialize;

use super::collective::CollectiveOptions;
use crate::sim::config::SimConfig;
use crate::sim::time_scale::Timing;
use crate::sim::workload::collective::{Calibration, NicConfig, SendOrder};

/// NIC models of collective runs (docs/smpi.md §3): the values [`NicModel::defaults`]
/// gives the NIC unless flags set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NicModel {
    /// FIFO sends, every message eager, no overheads.
    Simple,
    /// An MPI library's point-to-point layer (docs/smpi.md §3).
    Mpi,
}

/// The NIC values a [`NicModel`] stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NicDefaults {
    /// Packet order of concurrent messages.
    pub send_order: SendOrder,
    /// Rendezvous threshold of the uncalibrated model: with SMPI's calibration the
    /// handshake is part of the latency factor and not simulated ([`NicDefaults::rendezvous`]).
    pub rendezvous_bytes: Option<u64>,
    /// Blocking-send threshold.
    pub blocking_bytes: Option<u64>,
    /// Send overhead, ns.
    pub send_overhead_ns: f64,
    /// Receive overhead, ns.
    pub recv_overhead_ns: f64,
    /// SMPI's message-size calibration (with a time scale).
    pub calibrated: bool,
}

impl NicModel {
    /// The model's name (as `--nic` takes it).
    pub fn name(self) -> &'static str {
        match self {
            NicModel::Simple => "simple",
            NicModel::Mpi => "mpi",
        }
    }

    /// The model's values (docs/smpi.md §3 says where the `mpi` ones come from).
    pub fn defaults(self) -> NicDefaults {
        match self {
            NicModel::Simple => NicDefaults {
                send_order: SendOrder::Fifo,
                rendezvous_bytes: None,
                blocking_bytes: None,
                send_overhead_ns: 0.0,
                recv_overhead_ns: 0.0,
                calibrated: false,
            },
            NicModel::Mpi => NicDefaults {
                send_order: SendOrder::Interleave,
                rendezvous_bytes: Some(MPI_RENDEZVOUS_BYTES),
                blocking_bytes: Some(MPI_RENDEZVOUS_BYTES),
                send_overhead_ns: MPI_SEND_OVERHEAD_NS,
                recv_overhead_ns: MPI_RECV_OVERHEAD_NS,
                calibrated: true,
            },
        }
    }
}

impl NicDefaults {
    /// The rendezvous threshold of the model on a run with (`calibrated`) or without SMPI's
    /// calibration (docs/smpi.md §3): SMPI exchanges no handshake messages (a 65,535 B and a
    /// 65,536 B message take the same time in SMPI 3.32; the larger one only blocks its
    /// sender), and its latency factor from 64 KiB, measured on an MPI library, holds the
    /// handshake's cost. A calibrated run therefore simulates no handshake; an uncalibrated
    /// one simulates it as control packets.
    pub fn rendezvous(&self, calibrated: bool) -> Option<u64> {
        if calibrated {
            None
        } else {
            self.rendezvous_bytes
        }
    }

    /// Sets the NIC fields of `opts` to these values.
    pub fn apply(&self, opts: &mut CollectiveOptions) {
        opts.send_order = self.send_order;
        opts.rendezvous_bytes = self.rendezvous(self.calibrated);
        opts.blocking_bytes = self.blocking_bytes;
        opts.send_overhead_ns = self.send_overhead_ns;
        opts.recv_overhead_ns = self.recv_overhead_ns;
        opts.calibrated = self.calibrated;
    }
}

/// The `mpi` model's rendezvous and blocking-send threshold: SMPI's
/// `smpi/send-is-detached-thresh` (docs/smpi.md §3), below which a send returns at once.
pub const MPI_RENDEZVOUS_BYTES: u64 = 65_536;
/// Longest packet, in flits, of an interleaving NIC at a physical time scale (which
/// otherwise sends every message as one packet): messages share the injection channel at
/// this granularity (docs/smpi.md §3).
pub const INTERLEAVE_PACKET_FLITS: u16 = 1;
/// The `mpi` model's send overhead, ns (docs/smpi.md §3).
pub const MPI_SEND_OVERHEAD_NS: f64 = 0.0;
/// The `mpi` model's receive overhead, ns (docs/smpi.md §3).
pub const MPI_RECV_OVERHEAD_NS: f64 = 0.0;

/// The NIC of a collective run with `opts` (docs/smpi.md §3), and what it changes in
/// `config`: with a time scale (`timing`, already applied to `config`) the flit size is the
/// scale's and packets have no header flit, and an interleaving NIC cuts messages into
/// one-flit packets on pipelined channels (`TimeScale::configure_pipelined`); overheads in
/// ns become whole cycles.
pub(crate) fn nic_config(
    opts: &CollectiveOptions,
    timing: Option<&Timing>,
    config: &mut SimConfig,
    allow_redundant: bool,
) -> Result<NicConfig> {
    let (flit_bytes, header_flits) = match timing {
        Some(t) => (t.flit_bytes, 0),
        None => (opts.flit_bytes, opts.header_flits),
    };
    let mut nic = NicConfig {
        flit_bytes,
        header_flits,
        send_overhead: opts.send_overhead,
        recv_overhead: opts.recv_overhead,
        reduce_cycles_per_byte: opts.reduce_cycles_per_byte,
        link_gbps: opts.link_gbps,
        check_data: opts.check_data,
        allow_redundant,
        send_order: opts.send_order,
        rendezvous_bytes: opts.rendezvous_bytes,
        blocking_bytes: opts.blocking_bytes,
        calibration: None,
    };
    if opts.calibrated {
        let Some(scale) = &opts.time_scale else {
            bail!("the SMPI calibration (--calibration smpi, part of --nic mpi) scales physical latencies: give --switch-ns too, or --calibration none");
        };
        nic.calibration = Some(Calibration {
            switch_ns: scale.switch_latency_ns,
            gbps: scale.link_gbps,
        });
    }
    let interleaved = nic.send_order == SendOrder::Interleave && opts.time_scale.is_some();
    if let Some(mtu) = opts.mtu_bytes {
        if !interleaved {
            bail!("--mtu sets the packets of an interleaving NIC at a time scale: give --switch-ns and --send-order interleave (or --nic mpi) too");
        }
        if mtu == 0 {
            bail!("--mtu must be at least 1 byte");
        }
    }
    if interleaved {
        // Interleaving needs messages of several packets (docs/smpi.md §3).
        let mut packet_flits = INTERLEAVE_PACKET_FLITS;
        if let Some(t) = timing {
            t.configure_pipelined(config);
            if let Some(mtu) = opts.mtu_bytes {
                let flits = mtu.div_ceil(u64::from(t.flit_bytes.max(1)));
                packet_flits = flits.clamp(1, u64::from(u16::MAX)) as u16;
            }
        }
        config.packet_size = config.packet_size.min(packet_flits);
    }
    let clock = nic.clock_ghz();
    let ns_cycles = |ns: f64| (ns * clock).ceil() as u64;
    nic.send_overhead += ns_cycles(opts.send_overhead_ns);
    nic.recv_overhead += ns_cycles(opts.recv_overhead_ns);
    Ok(nic)
}
