//! Errors of the hop, link and makespan analysis.

use crate::error::CapacityError;
use core::fmt;

use crate::collective::ScheduleError;
use crate::routing::RoutingError;

/// Why an analysis could not run. Every variant names the rank, step, buffer or parameter
/// concerned and what is allowed, so the host can print it verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The placement does not hold exactly one terminal (or node) per rank of the schedule.
    Placement {
        /// Ranks of the schedule.
        ranks: u32,
        /// Entries of the placement.
        entries: usize,
    },
    /// A message names a rank outside the placement.
    RankOutOfRange {
        /// The rank.
        rank: u32,
        /// Number of ranks.
        ranks: u32,
    },
    /// A placement names a terminal the network does not have.
    TerminalOutOfRange {
        /// The terminal id.
        terminal: u32,
        /// Number of terminals.
        terminals: u32,
    },
    /// The schedule yielded a message of a lower step after a higher one (the [`Schedule`]
    /// contract is ascending step order).
    ///
    /// [`Schedule`]: crate::collective::Schedule
    StepOrder {
        /// Step of the offending message.
        step: u32,
        /// Step of the message before it.
        previous: u32,
    },
    /// A message could not be routed: the routing failed, left the network or exceeded the
    /// hop limit.
    Route {
        /// Step of the message.
        step: u32,
        /// Sending rank.
        src_rank: u32,
        /// Receiving rank.
        dst_rank: u32,
        /// What the routing reported.
        error: RoutingError,
    },
    /// A caller-provided buffer is too small.
    Capacity(CapacityError),
    /// A collective schedule could not be built or read.
    Schedule(ScheduleError),
}

impl From<ScheduleError> for AnalysisError {
    fn from(e: ScheduleError) -> Self {
        AnalysisError::Schedule(e)
    }
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AnalysisError::Placement { ranks, entries } => write!(
                f,
                "placement has {entries} entries, the schedule has {ranks} ranks: need exactly one terminal per rank"
            ),
            AnalysisError::RankOutOfRange { rank, ranks } => {
                write!(f, "message names rank {rank}, ranks are 0..{ranks} (exclusive)")
            }
            AnalysisError::TerminalOutOfRange {
                terminal,
                terminals,
            } => write!(
                f,
                "placement names terminal {terminal}, terminals are 0..{terminals} (exclusive)"
            ),
            AnalysisError::StepOrder { step, previous } => write!(
                f,
                "schedule yields step {step} after step {previous}: messages must come in ascending step order"
            ),
            AnalysisError::Route {
                step,
                src_rank,
                dst_rank,
                error: _,
            } => write!(
                f,
                "routing the step-{step} message from rank {src_rank} to rank {dst_rank}"
            ),
            AnalysisError::Capacity(e) => e.fmt(f),
            AnalysisError::Schedule(_) => write!(f, "schedule"),
        }
    }
}

crate::error::from_shared!(AnalysisError, Capacity);

impl core::error::Error for AnalysisError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            AnalysisError::Route { error, .. } => Some(error),
            AnalysisError::Schedule(e) => Some(e),
            _ => None,
        }
    }
}
