//! What a collective run takes besides its input and what it gives back: the NIC
//! parameters ([`NicConfig`], docs in [`super::collective`]), the per-message records,
//! the result and the errors.

use jumpnet_core::collective::{Blocks, Rank};
use jumpnet_core::exec::{CheckError, ExecError};
use serde::Serialize;

use crate::sim::engine::stats::{ClassUtilisation, DeadlockReport};
use crate::sim::engine::SimError;
use crate::sim::workload::background::BackgroundStats;
pub use crate::sim::workload::nic_calibration::Calibration;
pub use crate::sim::workload::nic_send::SendOrder;
use crate::sim::workload::nic_send::SendParams;

/// NIC parameters of a collective run (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NicConfig {
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// Header flits per packet (carry no payload).
    pub header_flits: u16,
    /// Cycles from a send to its packets entering the terminal's queue.
    pub send_overhead: u64,
    /// Cycles from a message's arrival to the NIC seeing it (after the one cycle the
    /// ejection takes to be noticed).
    pub recv_overhead: u64,
    /// Cycles per byte of a reducing delivery.
    pub reduce_cycles_per_byte: f64,
    /// Link bandwidth in Gb/s (one flit per cycle per link).
    pub link_gbps: f64,
    /// Whether to check the data flow (see the module documentation).
    pub check_data: bool,
    /// Accept redundant block deliveries in the data-flow check (scatter + allgather, RFATA).
    pub allow_redundant: bool,
    /// Order of the packets of concurrent messages at a terminal.
    pub send_order: SendOrder,
    /// Messages of at least this many bytes use the rendezvous handshake (none: all eager).
    pub rendezvous_bytes: Option<u64>,
    /// Sends of messages of at least this many bytes complete only when the message has
    /// arrived, as a blocking `MPI_Send` (none: every send completes when issued).
    pub blocking_bytes: Option<u64>,
    /// Message-size calibration of latency and bandwidth (none: the network's alone).
    pub calibration: Option<Calibration>,
}

impl Default for NicConfig {
    /// 16-byte flits, one header flit, no overheads, reductions free, 100 Gb/s links.
    fn default() -> Self {
        NicConfig {
            flit_bytes: 16,
            header_flits: 1,
            send_overhead: 0,
            recv_overhead: 0,
            reduce_cycles_per_byte: 0.0,
            link_gbps: 100.0,
            check_data: true,
            allow_redundant: false,
            send_order: SendOrder::Fifo,
            rendezvous_bytes: None,
            blocking_bytes: None,
            calibration: None,
        }
    }
}

impl NicConfig {
    /// The send side's parameters.
    pub fn send_params(&self) -> SendParams {
        SendParams {
            order: self.send_order,
            rendezvous_bytes: self.rendezvous_bytes,
            control_flits: self.header_flits.max(1),
            send_overhead: self.send_overhead,
            recv_overhead: self.recv_overhead,
        }
    }

    /// Clock in GHz at which one flit per cycle gives `link_gbps`.
    pub fn clock_ghz(&self) -> f64 {
        self.link_gbps / (8.0 * f64::from(self.flit_bytes))
    }

    /// Packets of a message of `bytes` bytes with `packet_size`-flit packets.
    pub fn packets(&self, bytes: u64, packet_size: u16) -> Result<u64, String> {
        let per =
            u64::from(packet_size.saturating_sub(self.header_flits)) * u64::from(self.flit_bytes);
        if per == 0 {
            return Err(format!(
                "packets of {packet_size} flits with {} header flits of {} bytes carry no payload; \
                 allowed: packet_size above --header-flits (e.g. packet_size={}), --header-flits 0, \
                 or --switch-ns for a physical time scale (docs/smpi.md §1)",
                self.header_flits,
                self.flit_bytes,
                self.header_flits + 1
            ));
        }
        Ok(bytes.div_ceil(per).max(1))
    }
}

/// One message of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MessageRecord {
    /// Sending rank.
    pub src: Rank,
    /// Receiving rank.
    pub dst: Rank,
    /// Blocks carried.
    pub blocks: Blocks,
    /// Payload bytes.
    pub bytes: u64,
    /// Packets.
    pub packets: u64,
    /// Cycle the sender's executor issued the send.
    pub sent: u64,
    /// Cycle the tail of its last packet was ejected.
    pub arrived: u64,
    /// Cycle the receiver delivered it.
    pub delivered: u64,
}

/// Distribution of the ranks' finish times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FinishSummary {
    /// Earliest finish.
    pub min: u64,
    /// Mean finish.
    pub mean: f64,
    /// Median finish.
    pub median: u64,
    /// Latest finish (the makespan).
    pub max: u64,
}

/// Result of [`super::collective::run_collective`].
#[derive(Clone, Debug, Serialize)]
pub struct CollectiveResult {
    /// Ranks.
    pub ranks: u32,
    /// Latest finish time in cycles.
    pub makespan_cycles: u64,
    /// Makespan in seconds at [`NicConfig::clock_ghz`].
    pub makespan_seconds: f64,
    /// Clock in GHz used for seconds.
    pub clock_ghz: f64,
    /// Finish cycle of every rank.
    pub finish: Vec<u64>,
    /// Summary of `finish`.
    pub finish_summary: FinishSummary,
    /// Link utilisation per class over `[0, makespan]`.
    pub class_utilisation: Vec<ClassUtilisation>,
    /// The critical path: the chain of messages the last rank waited on, in time order
    /// (from each message back to the latest message its sender delivered before sending).
    pub critical_path: Vec<MessageRecord>,
    /// Messages sent.
    pub messages: u64,
    /// Data packets sent.
    pub packets: u64,
    /// Control packets of rendezvous handshakes (not in `packets`; their flits are in
    /// `flits`).
    pub control_packets: u64,
    /// Flits delivered.
    pub flits: u64,
    /// Redundant block deliveries seen by the data-flow check.
    pub redundant: u64,
    /// Whether the data flow was checked (and passed).
    pub data_checked: bool,
    /// Engine conservation errors (must be 0).
    pub conservation_errors: u64,
    /// Mean router-to-router hops of the collective's packets.
    pub hops_mean: f64,
    /// Per rank: blocks delivered to it (with repetitions).
    pub received_blocks: Vec<u64>,
    /// Per rank: redundant block deliveries (data-flow check only; else 0).
    pub redundant_blocks: Vec<u64>,
    /// Background traffic, when it ran ([`crate::sim::workload::background`]).
    pub background: Option<BackgroundStats>,
    /// Every message of the run in send order (`sim --collective --messages FILE` writes
    /// them; not in the JSON).
    #[serde(skip)]
    pub message_log: Vec<LoggedMessage>,
}

/// A message of the run with the program ops that sent and received it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedMessage {
    /// The message.
    pub rec: MessageRecord,
    /// Index of the send op in the sender's program.
    pub send_op: u32,
    /// Index of the receive op in the receiver's program (`u32::MAX` if never matched).
    pub recv_op: u32,
    /// Cycle the receiver could first deliver it: `arrived + 1 + recv_overhead` (a later
    /// delivery means the receiver was late).
    pub visible: u64,
    /// Whether its send blocked the sender until it arrived (`NicConfig::blocking_bytes`).
    pub blocking: bool,
}

/// Why a collective run failed.
#[derive(Debug)]
pub enum CollectiveError {
    /// The engine refused the configuration or a routing failed.
    Sim(SimError),
    /// Bad collective configuration (placement, packet sizes).
    Config(String),
    /// A rank's executor reported a protocol error.
    Exec {
        /// Rank.
        rank: Rank,
        /// Error.
        error: ExecError,
    },
    /// The data-flow check failed.
    Data(CheckError),
    /// No rank can progress and nothing is in flight.
    ProtocolDeadlock {
        /// First unfinished rank.
        rank: Rank,
        /// Its first unfinished op.
        op: u32,
        /// Cycle.
        cycle: u64,
    },
    /// The network deadlocked (watchdog).
    NetworkDeadlock(Box<DeadlockReport>),
    /// A replaced NIC engine (device, RTL) failed.
    Engine {
        /// Rank.
        rank: Rank,
        /// What the engine reported.
        message: String,
    },
    /// The [`crate::sim::workload::nic_engine::ActionObserver`] stopped the run.
    Stopped(String),
}

impl std::fmt::Display for CollectiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CollectiveError::Sim(e) => e.fmt(f),
            CollectiveError::Config(s) => write!(f, "collective config: {s}"),
            CollectiveError::Exec { rank, error } => write!(f, "rank {rank}: {error}"),
            CollectiveError::Data(e) => write!(f, "data flow: {e}"),
            CollectiveError::ProtocolDeadlock { rank, op, cycle } => write!(
                f,
                "collective deadlock at cycle {cycle}: rank {rank} waits in op {op} and nothing is in flight"
            ),
            CollectiveError::NetworkDeadlock(r) => {
                write!(f, "network deadlock at cycle {}", r.cycle)
            }
            CollectiveError::Engine { rank, message } => write!(f, "rank {rank}: {message}"),
            CollectiveError::Stopped(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for CollectiveError {}

impl From<SimError> for CollectiveError {
    fn from(e: SimError) -> Self {
        CollectiveError::Sim(e)
    }
}

impl From<CheckError> for CollectiveError {
    fn from(e: CheckError) -> Self {
        CollectiveError::Data(e)
    }
}
