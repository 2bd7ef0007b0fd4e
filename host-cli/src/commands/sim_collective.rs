//! `jumpnet sim --collective ALGO`'s flags ([`CollectiveArgs`], shared with `jumpnet sweep`
//! and `jumpnet hil`), turned into the library's [`CollectiveRun`]: a collective schedule
//! (any `jumpnet sched` algorithm) under a placement on the flit-level simulator
//! ([`crate::runs::collective`]).

use std::path::PathBuf;

use clap::Args;

use crate::builder::schedule::Algorithm;
use crate::io::bytes::parse_size;
use crate::io::duration::{parse_span, Span};
use crate::runs::collective::{CollectiveOptions, CollectiveRun, Mapping};

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
    /// NIC cycles per byte of a reducing receive.
    #[arg(long, default_value_t = 0.0)]
    pub reduce_cycles_per_byte: f64,
    /// Link bandwidth in Gb/s (one flit per cycle: sets the clock for seconds); positive.
    #[arg(long, default_value_t = 100.0, value_parser = crate::commands::args::positive_f64)]
    pub link_gbps: f64,
    /// Seed of random mappings and the optimisers.
    #[arg(long, default_value_t = 1)]
    pub map_seed: u64,
    /// Iterations of two-opt / annealing.
    #[arg(long, default_value_t = 10_000)]
    pub map_iterations: u64,
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
            reduce_cycles_per_byte: self.reduce_cycles_per_byte,
            link_gbps: self.link_gbps,
            map_seed: self.map_seed,
            map_iterations: self.map_iterations,
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
