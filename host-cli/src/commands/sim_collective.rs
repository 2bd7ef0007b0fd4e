//! `jumpnet sim --collective ALGO`'s flags ([`CollectiveArgs`], shared with `jumpnet sweep`
//! and `jumpnet hil`), turned into the library's [`CollectiveRun`]: a collective schedule
//! (any `jumpnet sched` algorithm) under a placement on the flit-level simulator
//! ([`crate::runs::collective`]).

use std::path::PathBuf;

use clap::Args;

use crate::builder::optimise::PlacementObjective;
use crate::builder::schedule::Algorithm;
use crate::io::bytes::parse_size;
use crate::io::duration::{parse_span, Span};
use crate::runs::collective::{CollectiveOptions, CollectiveRun, Mapping, NicModel};
use crate::sim::time_scale::TimeScale;
use crate::sim::workload::collective::SendOrder;

/// `--calibration` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CalibrationChoice {
    /// SimGrid SMPI's default latency and bandwidth factors (docs/smpi.md §3).
    Smpi,
    /// The network's latency and bandwidth alone.
    None,
}

/// A `--rendezvous` value: the threshold in bytes, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rendezvous(pub Option<u64>);

/// Parses `--rendezvous`: `none` or a size such as `64KiB`.
fn parse_rendezvous(text: &str) -> Result<Rendezvous, String> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(Rendezvous(None));
    }
    match parse_size(text)? {
        0 => Err("0 bytes: give a positive size, or `none` for eager messages only".into()),
        n => Ok(Rendezvous(Some(n))),
    }
}

/// Collective options of `jumpnet sim`.
#[derive(Debug, Args, Clone)]
pub struct CollectiveArgs {
    /// Run this collective (as `jumpnet sched`) instead of synthetic traffic.
    #[arg(long, value_enum)]
    pub collective: Option<Algorithm>,
    /// Rank → terminal placement.
    #[arg(long, value_enum, default_value = "consecutive")]
    pub mapping: Mapping,
    /// Placement from a file: terminal of rank 0, 1, … (whitespace or comma separated,
    /// `#` comments); overrides --mapping.
    #[arg(long, value_name = "FILE")]
    pub permutation: Option<PathBuf>,
    /// Ranks [default: every terminal; topology-aware broadcasts: the job size].
    #[arg(long)]
    pub ranks: Option<u32>,
    /// Root rank of broadcasts (root supernode of SFATA/RFATA).
    #[arg(long, default_value_t = 0)]
    pub root: u32,
    /// Message size (as `jumpnet sched --bytes`: per block for alltoall/allgather, whole
    /// vector otherwise), e.g. 1MiB.
    #[arg(long, default_value = "1KiB", value_parser = parse_size)]
    pub msg: u64,
    /// Bytes per element of reductions.
    #[arg(long, default_value_t = 4)]
    pub elem_bytes: u32,
    /// Bytes per flit.
    #[arg(long, default_value_t = 16)]
    pub flit_bytes: u32,
    /// Header flits per packet (`packet_size=` sets the packet length in flits).
    #[arg(long, default_value_t = 1)]
    pub header_flits: u16,
    /// NIC cycles from a send to its packets entering the network queue.
    #[arg(long, default_value_t = 0)]
    pub send_overhead: u64,
    /// NIC cycles from a message's arrival to the NIC seeing it.
    #[arg(long, default_value_t = 0)]
    pub recv_overhead: u64,
    /// NIC model (docs/smpi.md §3): `simple` sends one message after another with no
    /// overheads beyond the flags; `mpi` behaves as an MPI library (the sends of a step
    /// interleaved, blocking sends from 64 KiB, SMPI's calibration, whose latency factor
    /// holds the rendezvous handshake; under --calibration none the handshake is simulated
    /// as control packets from 64 KiB). The flags --send-order, --rendezvous, --blocking-sends,
    /// --send-overhead-ns and --recv-overhead-ns override it.
    #[arg(long, value_enum, default_value = "simple")]
    pub nic: NicModel,
    /// Order of concurrent messages' packets at a NIC [default: the --nic model's].
    #[arg(long, value_enum)]
    pub send_order: Option<SendOrder>,
    /// Messages of at least this size use a rendezvous handshake simulated as control
    /// packets, `none` for always eager [default: the --nic model's; `mpi`: none with the
    /// SMPI calibration, whose latency factor holds the handshake, 64KiB without it].
    #[arg(long, value_name = "SIZE|none", value_parser = parse_rendezvous)]
    pub rendezvous: Option<Rendezvous>,
    /// Sends of messages of at least this size block: the ops after them wait until the
    /// message has arrived, as after a blocking MPI_Send or MPI_Sendrecv (SMPI's
    /// smpi/send-is-detached-thresh); `none` for sends that complete when issued [default:
    /// the --nic model's] (docs/smpi.md §3).
    #[arg(long, value_name = "SIZE|none", value_parser = parse_rendezvous)]
    pub blocking_sends: Option<Rendezvous>,
    /// With --send-order interleave and --switch-ns: payload bytes per packet (an MTU such as
    /// 4KiB), rounded up to whole flits; messages are cut into packets of this size
    /// [default: one flit] (docs/smpi.md §3).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub mtu: Option<u64>,
    /// NIC send overhead per message in ns, on top of --send-overhead [default: the --nic
    /// model's]; zero or positive.
    #[arg(long, value_name = "NS", value_parser = crate::commands::args::non_negative_f64)]
    pub send_overhead_ns: Option<f64>,
    /// NIC receive overhead per message in ns, on top of --recv-overhead [default: the
    /// --nic model's]; zero or positive.
    #[arg(long, value_name = "NS", value_parser = crate::commands::args::non_negative_f64)]
    pub recv_overhead_ns: Option<f64>,
    /// Message-size calibration of latency and bandwidth: `smpi` (SimGrid SMPI's default
    /// factors; needs --switch-ns) or `none` [default: the --nic model's].
    #[arg(long, value_enum)]
    pub calibration: Option<CalibrationChoice>,
    /// NIC cycles per byte of a reducing receive.
    #[arg(long, default_value_t = 0.0)]
    pub reduce_cycles_per_byte: f64,
    /// Link bandwidth in Gb/s (one flit per cycle: sets the clock for seconds); positive.
    #[arg(long, default_value_t = 100.0, value_parser = crate::commands::args::positive_f64)]
    pub link_gbps: f64,
    /// Switch latency in ns: run at the physical time scale of `jumpnet report`
    /// (docs/smpi.md §1): the flit size follows the largest message (at most
    /// --max-message-flits flits of at least --min-flit-bytes), one packet per message, and
    /// a hop costs the switch latency in whole cycles; --flit-bytes, --header-flits and
    /// `packet_size=` are then chosen by the scale.
    #[arg(long, value_name = "NS", value_parser = crate::commands::args::non_negative_f64)]
    pub switch_ns: Option<f64>,
    /// With --switch-ns: flits of the largest message (1..=65535).
    #[arg(long, default_value_t = 256)]
    pub max_message_flits: u32,
    /// With --switch-ns: smallest flit in bytes (at least 1).
    #[arg(long, default_value_t = 64)]
    pub min_flit_bytes: u32,
    /// Seed of random mappings and the optimisers.
    #[arg(long, default_value_t = 1)]
    pub map_seed: u64,
    /// Iterations of two-opt / annealing.
    #[arg(long, default_value_t = 10_000)]
    pub map_iterations: u64,
    /// What two-opt / annealing minimise (docs/mapping.md §2): total hops, possible
    /// contention, or per step the busiest channel's messages (max-link-load; the routes
    /// are those of --algo).
    #[arg(long, value_enum, default_value = "hops")]
    pub map_objective: PlacementObjective,
    /// Skip the data-flow check.
    #[arg(long)]
    pub no_check: bool,
    /// Background traffic on the terminals the collective does not use: mean inter-arrival
    /// time per terminal, as a time (`100us`, at the clock of --link-gbps) or in cycles
    /// (`5000`). Messages go to random other unused terminals ([DF-BC]: 100us, 1 KiB).
    #[arg(long, value_name = "TIME|CYCLES", value_parser = parse_span)]
    pub background_mean: Option<Span>,
    /// Bytes per background message.
    #[arg(long, default_value = "1KiB", value_parser = parse_size)]
    pub background_bytes: u64,
    /// Seed of the background traffic.
    #[arg(long, default_value_t = 1)]
    pub background_seed: u64,
}

impl CollectiveArgs {
    /// How the collective runs (every option but `--collective`).
    pub fn options(&self) -> CollectiveOptions {
        let model = self.nic.defaults();
        let calibrated = self
            .calibration
            .map_or(model.calibrated, |c| c == CalibrationChoice::Smpi);
        CollectiveOptions {
            mapping: self.mapping,
            permutation: self.permutation.clone(),
            ranks: self.ranks,
            root: self.root,
            msg_bytes: self.msg,
            elem_bytes: self.elem_bytes,
            flit_bytes: self.flit_bytes,
            header_flits: self.header_flits,
            send_overhead: self.send_overhead,
            recv_overhead: self.recv_overhead,
            send_overhead_ns: self.send_overhead_ns.unwrap_or(model.send_overhead_ns),
            recv_overhead_ns: self.recv_overhead_ns.unwrap_or(model.recv_overhead_ns),
            send_order: self.send_order.unwrap_or(model.send_order),
            rendezvous_bytes: self
                .rendezvous
                .map_or(model.rendezvous(calibrated), |r| r.0),
            blocking_bytes: self.blocking_sends.map_or(model.blocking_bytes, |r| r.0),
            mtu_bytes: self.mtu,
            calibrated,
            reduce_cycles_per_byte: self.reduce_cycles_per_byte,
            link_gbps: self.link_gbps,
            time_scale: self.switch_ns.map(|switch_latency_ns| TimeScale {
                link_gbps: self.link_gbps,
                switch_latency_ns,
                max_message_flits: self.max_message_flits,
                min_flit_bytes: self.min_flit_bytes,
            }),
            map_seed: self.map_seed,
            map_iterations: self.map_iterations,
            map_objective: self.map_objective,
            check_data: !self.no_check,
            background_mean: self.background_mean,
            background_bytes: self.background_bytes,
            background_seed: self.background_seed,
        }
    }

    /// The library's request, when `--collective` is given.
    pub fn run(&self) -> Option<CollectiveRun> {
        self.collective.map(|algorithm| CollectiveRun {
            algorithm,
            options: self.options(),
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: CollectiveArgs,
    }

    /// The flags' defaults are the library's.
    #[test]
    fn defaults_are_the_librarys() {
        let w = Wrap::try_parse_from(["sim"]).expect("parses");
        assert_eq!(w.args.options(), CollectiveOptions::default());
        assert_eq!(w.args.run(), None);
    }
}
